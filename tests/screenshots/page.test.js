// Screenshots of the built page (dist/site) in Chromium, written to
// build/screenshots/ for a reader to look at: `make screenshots`, not part
// of `make test`. Each page is still checked to load without errors.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { launch } from "../browser/launch.js";
import { settle } from "../browser/settle.js";

const SECTIONS = [
  "order",
  "why",
  "table",
  "tokens",
  "curves",
  "relation",
  "dot",
  "crossterms",
  "decay",
  "rope",
  "extension",
  "precision",
];
// The sections whose charts settle after the page is ready.
const SETTLED_SECTIONS = ["dot", "decay", "rope", "extension", "precision"];
const shots = fileURLToPath(
  new URL("../../build/screenshots/", import.meta.url),
);

let chromium;
before(async () => {
  mkdirSync(`${shots}sections/`, { recursive: true });
  chromium = await launch();
});
after(() => chromium?.close());

// The sticky controls bar would cover the top of each shot.
function letGoOfControls(page) {
  return page.evaluate(() => {
    const bar = document.querySelector(".controls-bar");
    if (bar) bar.style.position = "static";
  });
}

test("the top of the page and every section in both languages and themes, at 1400 and 360 pixels", async () => {
  for (const width of [1400, 360])
    for (const lang of ["en", "zh"])
      for (const colorScheme of ["light", "dark"]) {
        const theme = colorScheme === "dark" ? "-dark" : "";
        const { page, errors, close } = await chromium.open("index.html", {
          hash: `#lang=${lang}`,
          viewport: { width, height: 900 },
          hasTouch: width < 400,
          colorScheme,
        });
        await letGoOfControls(page);
        await page.screenshot({
          path: `${shots}page-top-${lang}-${width}${theme}.png`,
        });
        for (const id of SECTIONS)
          await page
            .locator(`#${id}`)
            .screenshot({ path: `${shots}${id}-${lang}-${width}${theme}.png` });
        assert.deepEqual(errors, []);
        await close();
      }
});

async function settledSections(page, suffix) {
  await settle(page);
  await letGoOfControls(page);
  for (const id of SETTLED_SECTIONS)
    await page.locator(`section#${id}`).screenshot({
      path: `${shots}sections/${id}-${suffix}.png`,
    });
}

test("the settled sections in both languages, light and dark, at 1100 pixels", async () => {
  for (const lang of ["en", "zh"])
    for (const colorScheme of ["light", "dark"]) {
      const { page, errors, close } = await chromium.open("index.html", {
        hash: `#lang=${lang}`,
        colorScheme,
        viewport: { width: 1100, height: 900 },
      });
      await settledSections(page, `${lang}-${colorScheme}`);
      assert.deepEqual(errors, []);
      await close();
    }
});

test("the settled sections on a 360-pixel phone", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}&decay.families=exp10000,exp1000,exp100,power,linear`,
      viewport: { width: 360, height: 740 },
    });
    await settledSections(page, `${lang}-phone`);
    assert.deepEqual(errors, []);
    await close();
  }
});
