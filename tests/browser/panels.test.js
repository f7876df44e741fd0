// The table of panels against the panels, in Chromium: each panel changes
// with every shared control its row lists and with no other, and the page's
// "Embed this" snippets carry only the controls their panel follows.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { launch } from "./launch.js";
import { setControl, settle } from "./settle.js";
import { sections } from "../../web/sections/index.js";
import { panelTag } from "../../web/panel-tag.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

// A value other than the default for each shared control.
const OTHER = {
  preset: "whisper",
  dim: "64",
  positions: "100",
  base: "500",
  layout: "halves-cos-first",
  start: "7",
};

/** What a panel shows: its text and every canvas's pixels. */
const look = (page) =>
  page.$eval("#panel", (panel) => ({
    text: panel.shadowRoot.textContent,
    pixels: Array.from(panel.shadowRoot.querySelectorAll("canvas"), (c) =>
      c.toDataURL(),
    ),
  }));

async function drawn(page) {
  await page.waitForSelector("#panel[data-ready=true]");
  // A step past ready: heatmaps bin over a few frames more.
  await page.waitForFunction(() => {
    const root = document.getElementById("panel").shadowRoot;
    return !root.querySelector("canvas[data-complete=false]");
  });
}

test("each panel follows the shared controls its row lists, and no other", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  for (const section of sections) {
    const tag = panelTag(section.id);
    await page.evaluate((tag) => {
      document.getElementById("panel")?.remove();
      const panel = document.createElement(tag);
      panel.id = "panel";
      // Charts only: a note of the controls' values would change the text.
      document.querySelector("main").prepend(panel);
    }, tag);
    await drawn(page);
    const plain = await look(page);
    for (const [key, value] of Object.entries(OTHER)) {
      await page.$eval(
        "#panel",
        (panel, [key, value]) => panel.setAttribute(key, value),
        [key, value],
      );
      await drawn(page);
      const changed = await look(page);
      const follows = section.panel.shared.includes(key);
      assert.equal(
        JSON.stringify(changed) !== JSON.stringify(plain),
        follows,
        `${tag} ${key}="${value}": ${follows ? "unchanged" : "changed"}`,
      );
      await page.$eval(
        "#panel",
        (panel, key) => panel.removeAttribute(key),
        key,
      );
      await drawn(page);
    }
  }
  assert.deepEqual(errors, []);
  await close();
});

// Words that point at other sections of the page, which a lone panel lacks.
const ELSEWHERE =
  /table above|heatmap above|(next|previous|earlier|later) sections?|上面的表格|上面编码表|下一节|前面几节|后面几节|上一节/;

test("a lone panel's prose names no part of the page it lacks", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  for (const lang of ["en", "zh"])
    for (const section of sections) {
      await page.evaluate(
        ([tag, lang]) => {
          document.getElementById("panel")?.remove();
          const panel = document.createElement(tag);
          panel.id = "panel";
          panel.setAttribute("lang", lang);
          document.querySelector("main").prepend(panel);
        },
        [panelTag(section.id), lang],
      );
      await drawn(page);
      const { text } = await look(page);
      const found = text.match(ELSEWHERE);
      assert.equal(found, null, `${section.id} ${lang}: ${found?.[0]}`);
    }
  assert.deepEqual(errors, []);
  await close();
});

test("a snippet carries the shared controls its panel follows, no other", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=64&base=500&layout=halves-cos-first&positions=100",
  });
  await settle(page);
  for (const section of sections) {
    const code = await page.textContent(`[data-testid=embed-${section.id}]`);
    for (const key of ["dim", "base", "layout", "positions"])
      assert.equal(
        code.includes(` ${key}="`),
        section.panel.shared.includes(key),
        `${section.id}: ${code}`,
      );
  }
  await setControl(page, "dim", 128);
  assert.deepEqual(errors, []);
  await close();
});

const axeSource = fileURLToPath(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url),
);

test("two panels of one kind on a page are no two landmarks of one name", async () => {
  // The page's policy would refuse the injected axe script.
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
    bypassCSP: true,
  });
  await page.evaluate(() => {
    for (const id of ["one", "two"]) {
      const panel = document.createElement("pe-dot");
      panel.id = id;
      document.querySelector("main").append(panel);
    }
  });
  await page.waitForSelector("#two[data-ready=true]");
  await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: ["landmark-unique", "aria-allowed-role", "region"],
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.length}`);
  });
  assert.deepEqual(violations, []);
  assert.equal(
    await page.getAttribute("#one section", "aria-label"),
    "Relative position and the dot product",
  );
  assert.deepEqual(errors, []);
  await close();
});
