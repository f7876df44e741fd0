// Sources cited where the claims are made, in Chromium: each section's lead
// links its papers to their entries in the page's sources (to the papers
// themselves in a lone panel), and the sources list Position
// Interpolation, NTK-aware and dynamic NTK scaling and Shaw et al. 2018.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

// What each section's lead must cite, written here from the papers' claims.
const CITED = {
  why: ["Vaswani et al. 2017"],
  table: ["Vaswani et al. 2017"],
  relation: ["Vaswani et al. 2017"],
  crossterms: ["Shaw et al. 2018", "Su et al. 2021"],
  rope: ["Su et al. 2021"],
  extension: [
    "Chen et al. 2023",
    "bloc97 2023",
    "emozilla 2023",
    "Peng et al. 2023",
    "Llama Team 2024",
  ],
};

const MISSING_BEFORE = {
  "https://arxiv.org/abs/2306.15595": /Positional Interpolation/,
  "https://arxiv.org/abs/1803.02155": /Relative Position Representations/,
  "https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/ntkaware_scaled_rope_allows_llama_models_to_have/":
    /NTK-Aware/,
  "https://www.reddit.com/r/LocalLLaMA/comments/14mrgpr/dynamically_scaled_rope_further_increases/":
    /Dynamically Scaled RoPE/,
};

test("each section cites its papers inline, linked to the sources", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    const sources = await page
      .locator("#sources a")
      .evaluateAll((as) =>
        Object.fromEntries(as.map((a) => [a.href, a.textContent])),
      );
    for (const [url, title] of Object.entries(MISSING_BEFORE))
      assert.match(sources[url] ?? "", title, url);
    for (const [id, names] of Object.entries(CITED)) {
      const cites = await page
        .locator(`#${id} > .lead a.cite`)
        .evaluateAll((as) =>
          as.map((a) => ({
            text: a.textContent,
            href: a.getAttribute("href"),
          })),
        );
      assert.deepEqual(
        cites.map((c) => c.text),
        names,
        `${id} ${lang}`,
      );
      for (const { href } of cites)
        assert.equal(await page.locator(`#sources ${href}`).count(), 1, href);
    }
    // Following a citation shows the source and keeps the link as it was.
    const before = await page.evaluate(() => location.hash);
    await page.locator("#extension .lead a.cite").first().click();
    await page.waitForFunction(() => {
      const box = document
        .getElementById("source-chen2023")
        .getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight;
    });
    assert.equal(await page.evaluate(() => location.hash), before);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("a lone panel cites the papers themselves", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  await page.evaluate(() => {
    const panel = document.createElement("pe-crossterms");
    panel.id = "panel";
    document.querySelector("main").prepend(panel);
  });
  await page.waitForSelector("#panel[data-ready=true]");
  const hrefs = await page
    .locator("#panel .lead a.cite")
    .evaluateAll((as) => as.map((a) => a.href));
  assert.deepEqual(hrefs, [
    "https://arxiv.org/abs/1803.02155",
    "https://arxiv.org/abs/2104.09864",
  ]);
  assert.deepEqual(errors, []);
  await close();
});
