// The page as a lesson, in Chromium: the shuffle demonstration computed
// live, the sources cited with links, a lead that teaches rather than
// advertises, and the library's names kept to each section's "under the
// hood" part.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

test("shuffled words: the same outputs without positions, different ones with the encoding", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    const sentence = () => page.textContent("[data-testid=order-sentence]");
    const first = await sentence();
    for (let round = 0; round < 3; round++) {
      await page.click("[data-testid=shuffle-tokens]");
      const shuffled = await sentence();
      assert.notEqual(shuffled, first);
      // The same words, in another order.
      assert.deepEqual(shuffled.split(" ").sort(), first.split(" ").sort());
      const rows = await page.$$eval(
        "[data-testid=order-table] tbody tr",
        (list) =>
          list.map((row) => ({
            word: row.cells[0].textContent,
            plain: Number(row.dataset.plain),
            encoded: Number(row.dataset.encoded),
          })),
      );
      assert.equal(rows.length, first.split(" ").length);
      // Without positions: equal up to the rounding of reordered sums.
      for (const row of rows) assert.ok(row.plain < 1e-12, row.word);
      // With them, a word that moved sees a different output.
      assert.ok(
        rows.some((row) => row.encoded > 1e-3),
        JSON.stringify(rows),
      );
      const summary = await page.textContent("[data-testid=order-summary]");
      assert.match(summary, lang === "en" ? /Without positions/ : /不加位置/);
    }
    await page.click("[data-testid=order-reset]");
    assert.equal(await sentence(), first);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("the sources are cited with links, and the lead teaches rather than advertises", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, outside, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    const links = await page.$$eval("[data-testid=sources] a", (list) =>
      list.map((a) => a.href),
    );
    for (const id of ["1706.03762", "2104.09864", "2309.00071", "2407.21783"])
      assert.ok(
        links.includes(`https://arxiv.org/abs/${id}`),
        `${lang}: ${id}`,
      );
    assert.ok(links.length >= 6, String(links.length));
    const lead = await page.textContent(".page-header .lead");
    assert.doesNotMatch(lead, /sinusoidal-pe|WebAssembly|module|模块/);
    assert.doesNotMatch(
      await page.textContent(".page-footer"),
      /sinusoidal-pe|module|模块/,
    );
    // The table of contents reaches the sources, and keeps the state.
    await page.click('nav.toc a[href="#sources"]');
    await page.waitForFunction(() => location.hash.endsWith("&sources"));
    assert.equal(await page.locator("[data-testid=notes] .note").count(), 0);
    assert.deepEqual(outside, []);
    assert.deepEqual(errors, []);
    await close();
  }
});

const API =
  /linearRelationError|dotProducts|toeplitzError|ropeFrequencies|decayComparison|decayIntegral|rope_theta|highFreqFactor|Math\.fround|\bulps?\b|the module/;

test("library names stay under the hood; the arc runs the dot product, the cross terms, decay, RoPE, then context extension", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    const prose = await page.$$eval("main section", (sections) =>
      sections.map((section) => {
        const copy = section.cloneNode(true);
        for (const details of copy.querySelectorAll("details"))
          details.remove();
        for (const math of copy.querySelectorAll("math")) math.remove();
        return [section.id, copy.textContent];
      }),
    );
    for (const [id, text] of prose)
      assert.doesNotMatch(text, API, `${lang} ${id}`);
    for (const [id, call] of [
      ["relation", "linearRelationError"],
      ["dot", "dotProducts"],
      ["decay", "decayComparison"],
      ["extension", "ropeFrequencies"],
      ["precision", "Math.fround"],
    ])
      assert.ok(
        (await page.textContent(`[data-testid=hood-${id}]`)).includes(call),
        `${lang} ${id}`,
      );
    const toc = await page.$$eval("nav.toc a", (links) =>
      links.map((a) => a.getAttribute("href")),
    );
    const at = (id) => toc.indexOf(`#${id}`);
    assert.ok(at("order") === 0, toc.join(" "));
    // The cross terms follow the dot product directly; decay comes after.
    assert.equal(at("crossterms"), at("dot") + 1, toc.join(" "));
    assert.equal(at("decay"), at("crossterms") + 1, toc.join(" "));
    assert.ok(at("decay") < at("rope"));
    // The sections stand in the order of the table of contents.
    const ids = await page.$$eval("main > section", (nodes) =>
      nodes.map((node) => `#${node.id}`),
    );
    assert.deepEqual(ids, toc);
    assert.ok(
      at("rope") < at("extension") && at("extension") < at("precision"),
    );
    assert.deepEqual(errors, []);
    await close();
  }
});

test("the cross terms: a shift of both words changes the added-position score, not RoPE's", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  const read = () =>
    page.$$eval("[data-testid=crossterm-table] tbody tr", (rows) =>
      Object.fromEntries(
        rows.map((row) => [row.dataset.term, Number(row.dataset.value)]),
      ),
    );
  const first = await read();
  let moved = 0;
  for (const s of [1, 17, 200]) {
    await page.$eval(
      "[data-testid=crossterm-shift]",
      (input, s) => {
        input.value = String(s);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      },
      s,
    );
    const now = await read();
    // The four terms add up to the score (a float64 identity).
    const sum = now.wordWord + now.wordPos + now.posWord + now.posPos;
    assert.ok(Math.abs(sum - now.total) < 1e-9 * (1 + Math.abs(sum)));
    // The word-with-word term does not see positions at all.
    assert.equal(now.wordWord, first.wordWord);
    moved = Math.max(moved, Math.abs(now.total - first.total));
    // RoPE: float32 rotations of 16 components, |q|, |k| below 10.
    assert.ok(Math.abs(now.rope - first.rope) < 1e-4, `${s}: ${now.rope}`);
  }
  assert.ok(moved > 0.05, String(moved));
  assert.deepEqual(errors, []);
  await close();
});

test("the table's symbols are defined before its formulas use them", async () => {
  for (const [lang, pattern] of [
    ["en", /d is the dimension.*h = ⌊d\/2⌋ the number of pairs.*b the base/],
    ["zh", /d 是维度.*h = ⌊d\/2⌋ 是对数.*b 是底数/],
  ]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    const order = await page.$eval("#table", (section) => {
      const lead = section.querySelector(".lead");
      const math = section.querySelector("math");
      return [
        lead.textContent,
        Boolean(
          lead.compareDocumentPosition(math) & Node.DOCUMENT_POSITION_FOLLOWING,
        ),
      ];
    });
    assert.match(order[0], pattern);
    assert.ok(order[1]);
    assert.deepEqual(errors, []);
    await close();
  }
});
