// Error states a reader understands, in Chromium: a preset that refuses the
// dim marks the field and says why in the reader's language, with the
// emptied charts gone; link notes that can be dismissed and never cover a
// section; text quoted as typed; one position drawn; repeated positions
// with one legend; PNG titles without TeX; the language toggle staying
// where the reader is; prose that fits a tiny dim.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { setControl, settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

const CHART_SECTIONS = [
  "table",
  "tokens",
  "curves",
  "relation",
  "dot",
  "rope",
  "precision",
];

test("whisper at an odd dim: the dim field is marked, the reason is in Chinese, the empty charts go", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=zh&preset=whisper&dim=65",
  });
  const dim = page.locator("[data-testid=control-dim]");
  assert.equal(await dim.getAttribute("aria-invalid"), "true");
  const hint = await page.textContent("#control-dim-hint");
  assert.match(hint, /[\u4e00-\u9fff]/);
  const notes = await page.textContent("[data-testid=refusal]");
  assert.match(notes, /whisper/);
  // Right under the controls that hold the dim field.
  assert.ok(
    await page.$eval(
      ".controls-bar",
      (bar) => bar.nextElementSibling.dataset.testid === "refusal",
    ),
  );
  assert.match(notes, /65/);
  assert.match(notes, /64 或 66/);
  // No raw exception anywhere, in any language.
  const body = await page.textContent("main");
  assert.doesNotMatch(body, /sinusoidal-pe:|refuses|asserts/);
  for (const id of CHART_SECTIONS) {
    const visible = await page.$$eval(
      `#${id} :is(canvas, .legend, .png-button)`,
      (nodes) => nodes.filter((n) => n.getClientRects().length > 0).length,
    );
    assert.equal(visible, 0, id);
    const said = await page.$$eval(`#${id} .note`, (nodes) =>
      nodes
        .filter((n) => n.getClientRects().length > 0)
        .map((n) => n.textContent),
    );
    assert.equal(said.length, 1, `${id}: ${said}`);
    assert.match(said[0], /[\u4e00-\u9fff]/);
  }
  // The decay curves need no preset table: still drawn.
  assert.ok(await page.locator("[data-testid=decay-chart]").isVisible());
  // An even dim brings everything back.
  await setControl(page, "dim", 64);
  assert.equal(await dim.getAttribute("aria-invalid"), null);
  for (const id of CHART_SECTIONS)
    assert.ok(
      (await page.$$eval(
        `#${id} canvas`,
        (nodes) => nodes.filter((n) => n.getClientRects().length > 0).length,
      )) > 0,
      id,
    );
  assert.equal(await page.locator("main .note:visible").count(), 0);
  assert.deepEqual(errors, []);
  await close();
});

test("link notes can be dismissed and never cover a section", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=abc&zz=1&positions=2&positions=3",
    viewport: { width: 1400, height: 800 },
  });
  const notes = page.locator("[data-testid=notes] .note");
  assert.equal(await notes.count(), 3);
  assert.match(await notes.first().textContent(), /“abc”/);
  // Not inside the sticky bar: scrolled down, no note overlaps the page.
  assert.equal(await page.locator(".controls-bar .note").count(), 0);
  await page.$eval("#relation", (s) => s.scrollIntoView());
  const bottom = await page.$eval(
    "[data-testid=notes]",
    (n) => n.getBoundingClientRect().bottom,
  );
  assert.ok(bottom <= 0, `notes end at ${bottom}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  while ((await notes.count()) > 0)
    await page.locator("[data-testid=note-dismiss]").first().click();
  assert.equal(await notes.count(), 0);
  assert.deepEqual(errors, []);
  await close();
});

test("text typed into dim is quoted as typed", async () => {
  for (const [lang, pattern] of [
    ["en", /dim d: “abc” is not a number; using 128/],
    ["zh", /“abc” 不是数字/],
  ]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    await page.fill("[data-testid=control-dim]", "abc");
    await page.press("[data-testid=control-dim]", "Enter");
    await settle(page);
    assert.match(await page.textContent("[data-testid=notes]"), pattern);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("one position: the column charts mark their one point", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&positions=1",
  });
  const markers = await page.$$eval("[data-testid^=curves-column-]", (list) =>
    list.map((c) => Number(c.dataset.markers)),
  );
  assert.ok(markers.length > 0);
  for (const count of markers) assert.ok(count >= 1, String(markers));
  assert.deepEqual(errors, []);
  await close();
});

test("a position given twice is one curve with one legend entry", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&curves.rows=3,3,7",
  });
  const legend = await page.$$eval(
    "[data-testid=curves-rows] ~ .legend li",
    (items) => items.map((li) => li.textContent),
  );
  assert.equal(new Set(legend).size, legend.length, legend.join(" | "));
  assert.equal(legend.length, 4);
  assert.deepEqual(errors, []);
  await close();
});

test("a PNG's title reads as words and symbols, never TeX", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  await page.click("#table [data-testid=downloads] summary");
  const buttons = page.locator("#table .png-button");
  const count = await buttons.count();
  assert.ok(count > 0);
  for (let i = 0; i < count; i++) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      buttons.nth(i).click(),
    ]);
    await download.cancel().catch(() => {});
    const title = await buttons.nth(i).getAttribute("data-title");
    assert.ok(title.length > 0);
    // The menu names each chart the way its file is titled.
    assert.equal(await buttons.nth(i).textContent(), `PNG: ${title}`);
    assert.doesNotMatch(title, /\\[a-z]+|[{}^]|_\{/, title);
  }
  assert.deepEqual(errors, []);
  await close();
});

test("the language toggle keeps the reader where they are, not at a section jumped to before", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&relation",
    viewport: { width: 1400, height: 800 },
  });
  // Jumped to the relation, the reader went back up to the header's toggle.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click("[data-testid=lang-toggle]");
  await settle(page);
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /lang=zh/);
  assert.doesNotMatch(hash, /&relation$/);
  assert.deepEqual(errors, []);
  await close();
});

test("at d = 2 the dot section's words describe what its chart shows", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=2",
  });
  const text = await page.textContent("#dot");
  assert.doesNotMatch(text, /falls off with oscillations/);
  assert.match(text, /single pair, g is one cosine/);
  assert.doesNotMatch(text, /\b1 products|h = 1 pairs/);
  // Nor does any section count in "position(s)".
  assert.doesNotMatch(await page.textContent("main"), /\(s\)/);
  assert.deepEqual(errors, []);
  await close();
});
