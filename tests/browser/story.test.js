// The lesson's pictures of where positions enter and of RoPE's other forms,
// in Chromium: the layer stacks with their links, the complex numbers of
// each pair against a float64 product e^{imω}·z, and the code view, run
// here against the library.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { settle } from "./settle.js";
import { frequencies, init, rope } from "../../dist/index.js";

let chromium;
before(async () => {
  chromium = await launch();
  await init();
});
after(() => chromium?.close());

test("the figure shows the table added once at the input and RoPE in every attention layer, linking to their sections", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    const figure = page.locator("[data-testid=where-positions-enter]");
    const added = figure.locator("[data-testid=stack-added]");
    const rotated = figure.locator("[data-testid=stack-rope]");
    // One position part in the added stack, at its input; one per layer
    // in RoPE's, none at its input.
    assert.equal(await added.locator(".stack-position").count(), 1);
    const layers = await rotated.locator(".stack-layer").count();
    assert.ok(layers >= 2);
    assert.equal(
      await rotated.locator(".stack-layer .stack-position").count(),
      layers,
    );
    assert.equal(
      await rotated.locator(".stack-body > .stack-position").count(),
      0,
    );
    // The input is drawn at the bottom: below every layer.
    const bottom = async (locator) => (await locator.boundingBox()).y;
    assert.ok(
      (await bottom(added.locator(".stack-body > .stack-position"))) >
        (await bottom(added.locator(".stack-layer").last())),
    );
    const links = await figure
      .locator("a")
      .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute("href")))]);
    assert.deepEqual(links.sort(), ["#crossterms", "#rope", "#table"]);
    // A link goes to its section and keeps the state.
    await figure.locator("a[href='#rope']").first().click();
    await page.waitForFunction(() => {
      const box = document.getElementById("rope").getBoundingClientRect();
      return Math.abs(box.top) < 200;
    });
    assert.deepEqual(errors, []);
    await close();
  }
  // In a lone panel the parts are text: it has no sections to link to.
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  await page.evaluate(() => {
    const panel = document.createElement("pe-crossterms");
    panel.id = "panel";
    document.querySelector("main").prepend(panel);
  });
  await page.waitForSelector("#panel[data-ready=true]");
  assert.equal(
    await page.locator("#panel [data-testid=where-positions-enter] a").count(),
    0,
  );
  assert.deepEqual(errors, []);
  await close();
});

/** "0.5533 − 0.4119i" as [0.5533, -0.4119]. */
const complexOf = (text) => {
  const [, re, sign, im] = text.match(/(−?[\d.e-]+) ([+−]) ([\d.e-]+)i/);
  assert.doesNotMatch(text, /-\d/, "a minus sign, not a hyphen");
  return [Number(re.replace("−", "-")), (sign === "−" ? -1 : 1) * Number(im)];
};

test("each pair's complex number turned by e^(i·m·ω) is the rotated pair", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&rope.m=5&rope.n=2",
  });
  await settle(page);
  const q = (await page.getAttribute("[data-testid=rope-qk]", "data-q"))
    .split(" ")
    .map(Number);
  const rows = await page
    .locator("[data-testid=rope-complex] li")
    .evaluateAll((items) => items.map((li) => li.textContent));
  assert.equal(rows.length, 4);
  rows.forEach((row, i) => {
    // halves, head dim 8: pair i is components i and i + 4; ω = 10000^(−i/4).
    const angle = 5 * 10000 ** (-i / 4);
    const [zText, turnedText] = row.split(" = ").slice(0, 2);
    const z = complexOf(zText.split(" · ")[1]);
    const turned = complexOf(turnedText);
    assert.ok(Math.abs(z[0] - q[i]) < 1e-3 && Math.abs(z[1] - q[i + 4]) < 1e-3);
    // e^{iθ}(a + bi) = (a cos θ − b sin θ) + (a sin θ + b cos θ)i
    const re = q[i] * Math.cos(angle) - q[i + 4] * Math.sin(angle);
    const im = q[i] * Math.sin(angle) + q[i + 4] * Math.cos(angle);
    assert.ok(Math.abs(turned[0] - re) < 1e-3, `${row}: ${re}`);
    assert.ok(Math.abs(turned[1] - im) < 1e-3, `${row}: ${im}`);
  });
  assert.deepEqual(errors, []);
  await close();
});

test("the code view runs as shown and gives what rope gives, for both pairings", async () => {
  for (const pairing of ["halves", "interleaved"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=zh&rope.m=7&rope.pairing=${pairing}`,
    });
    await settle(page);
    const code = page.locator("[data-testid=rope-code]");
    const text = await code.textContent();
    const base = Number(await code.getAttribute("data-base"));
    const m = Number(await code.getAttribute("data-m"));
    const q = Float32Array.from(
      (await code.getAttribute("data-q")).split(" ").map(Number),
    );
    assert.match(text, new RegExp(`pairing: "${pairing}"`));
    // The text as a function of what it reads, run here.
    const run = new Function(
      "frequencies",
      "rope",
      "q",
      "m",
      "base",
      `${text}\nreturn { turned, fromLibrary };`,
    );
    const { turned, fromLibrary } = run(frequencies, rope, q, m, base);
    for (let j = 0; j < 8; j++)
      assert.ok(Math.abs(turned[j] - fromLibrary[j]) < 1e-6, `${j}`);
    // The page shows the library's numbers.
    const shown = (
      await page.getAttribute("[data-testid=rope-code-result]", "data-values")
    )
      .split(" ")
      .map(Number);
    assert.deepEqual(shown, Array.from(fromLibrary));
    assert.deepEqual(errors, []);
    await close();
  }
});
