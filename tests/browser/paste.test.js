// Snippets pasted into a tutorial's own page, in Chromium: two copies of
// the script tag define the panels once, a panel without lang or theme
// takes its host's language and color-scheme on a transparent background,
// and its chart text grows with the host's type.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CSP, launch } from "./launch.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

/**
 * A host page (its html lang, its body's style) with two pasted snippets,
 * each its own script tag and panel, served under the site's policy.
 */
async function openHost({ lang, css }) {
  const context = await chromium.browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>A tutorial</title>
<link rel="stylesheet" href="host.css"></head>
<body><article>
<p>First snippet:</p>
<script src="/embed.js"></script>
<pe-relation id="one" p="3" k="5"></pe-relation>
<p>Second snippet:</p>
<script src="/embed.js"></script>
<pe-dot id="two"></pe-dot>
</article></body></html>`;
  await page.route("**/tutorial/*", (route) => {
    const isCss = route.request().url().endsWith(".css");
    route.fulfill({
      status: 200,
      contentType: isCss ? "text/css" : "text/html",
      headers: { "content-security-policy": CSP },
      body: isCss ? css : html,
    });
  });
  await page.goto(`${chromium.origin}/tutorial/index.html`);
  await page.waitForSelector("#one[data-ready=true]");
  await page.waitForSelector("#two[data-ready=true]");
  return { page, errors, close: () => context.close() };
}

/** The chart background's colour, from a pixel in the canvas's corner. */
const corner = (page, selector) =>
  page.$eval(selector, (canvas) =>
    Array.from(
      canvas.getContext("2d").getImageData(1, 1, 1, 1).data.slice(0, 3),
    ),
  );

test("two pasted snippets define the panels once, and both draw", async () => {
  const { page, errors, close } = await openHost({
    lang: "en",
    css: "body { font: 16px sans-serif; }",
  });
  assert.deepEqual(errors, []);
  for (const id of ["one", "two"])
    assert.ok(
      await page.$eval(`#${id}`, (panel) =>
        Boolean(panel.shadowRoot.querySelector("canvas")),
      ),
    );
  await close();
});

test("a panel without lang speaks its host's html lang", async () => {
  const { page, errors, close } = await openHost({
    lang: "zh-CN",
    css: "body { font: 16px sans-serif; }",
  });
  const text = await page.$eval(
    "#one",
    (panel) => panel.shadowRoot.querySelector(".lead").textContent,
  );
  assert.match(text, /[\u4e00-\u9fff]/, text);
  assert.equal(
    await page.$eval("#one", (panel) => panel.shadowRoot.firstChild.lang),
    "zh-Hans",
  );
  assert.deepEqual(errors, []);
  await close();
});

test("without theme a panel is transparent and follows its host's color-scheme", async () => {
  const { page, errors, close } = await openHost({
    lang: "en",
    css: "html { color-scheme: dark; } body { background: #202124; color: #eee; font: 16px sans-serif; }",
  });
  const frame = (id) =>
    page.$eval(`#${id}`, (panel) => {
      const style = getComputedStyle(panel.shadowRoot.firstChild);
      return { background: style.backgroundColor, color: style.color };
    });
  const one = await frame("one");
  assert.equal(one.background, "rgba(0, 0, 0, 0)");
  // The dark theme's text colour (#e6e7ea), not the light one's.
  assert.equal(one.color, "rgb(230, 231, 234)");
  // The charts are drawn in the dark theme's chart colour, #1b1d22.
  assert.deepEqual(await corner(page, "#one canvas"), [0x1b, 0x1d, 0x22]);
  // A theme set on the panel wins, with a background of its own.
  await page.$eval("#one", (panel) => panel.setAttribute("theme", "light"));
  await page.waitForSelector("#one[data-ready=true]");
  assert.deepEqual(await frame("one"), {
    background: "rgb(253, 253, 252)",
    color: "rgb(29, 31, 35)",
  });
  assert.deepEqual(errors, []);
  await close();
});

test("chart text grows with the host's type", async () => {
  const sizes = {};
  for (const px of [16, 24]) {
    const { page, errors, close } = await openHost({
      lang: "en",
      css: `body { font: ${px}px serif; }`,
    });
    // The font the line chart last drew with.
    sizes[px] = await page.$eval("#two", (panel) =>
      parseFloat(
        panel.shadowRoot.querySelector("canvas").getContext("2d").font,
      ),
    );
    assert.deepEqual(errors, []);
    await close();
  }
  assert.equal(sizes[16], 12);
  assert.equal(sizes[24], 18);
});
