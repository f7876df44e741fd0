// The rows and columns, dot-product, RoPE, decay and precision sections of
// the built page in Chromium: what they show against the library run here in
// Node.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  decayComparison,
  dotProducts,
  frequencies,
  init,
  ropeFrequencies,
  table,
  toeplitzError,
} from "../../dist/index.js";
import * as decay from "../../web/sections/decay.js";
import * as dot from "../../web/sections/dot.js";
import * as extension from "../../web/sections/extension.js";
import * as precision from "../../web/sections/precision.js";
import * as rope from "../../web/sections/rope.js";
import { launch } from "./launch.js";
import { settle } from "./settle.js";

const SECTIONS = [dot, decay, rope, extension, precision];

let chromium;
before(async () => {
  await init();
  chromium = await launch();
});
after(() => chromium?.close());

/**
 * The link (decoded) once the page has written one that matches `pattern`:
 * the page writes it when changes pause.
 */
async function linkMatching(page, pattern) {
  await page.waitForFunction(
    ([source, flags]) =>
      new RegExp(source, flags).test(decodeURIComponent(location.hash)),
    [pattern.source, pattern.flags],
  );
  return page.evaluate(() => decodeURIComponent(location.hash));
}

/**
 * A line chart's readout after focusing it and pressing `keys`:
 * { x, values: { label: value } }, as the reader sees it (6 digits).
 */
async function readout(page, testid, keys) {
  const canvas = page.locator(`[data-testid=${testid}]`);
  await canvas.focus();
  for (const key of keys) await page.keyboard.press(key);
  const text = await canvas
    .locator("xpath=following-sibling::p[contains(@class,'readout')]")
    .textContent();
  const [head, ...parts] = text.split(" · ");
  const values = {};
  for (const part of parts) {
    const cut = part.lastIndexOf(": ");
    values[part.slice(0, cut)] = Number(part.slice(cut + 2));
  }
  await canvas.blur();
  return { x: Number(head.slice(head.lastIndexOf(" = ") + 3)), values };
}

/** actual within the readout's 6 significant digits of expected. */
function close6(actual, expected, what, relative = 1e-5) {
  const slack = relative * Math.abs(expected) + 1e-12;
  assert.ok(
    Math.abs(actual - expected) <= slack,
    `${what}: shown ${actual}, expected ${expected}`,
  );
}

const canvasImage = (page, testid) =>
  page.locator(`[data-testid=${testid}]`).evaluate((c) => c.toDataURL());

for (const via of ["http", "file"]) {
  test(`${via}: the four sections render, with no error or outside request`, async () => {
    const { page, errors, outside, violations, close } = await chromium.open(
      "index.html",
      { via, hash: "#lang=en" },
    );
    await settle(page);
    for (const section of SECTIONS) {
      const root = page.locator(`section#${section.id}`);
      assert.equal(
        await root.locator("h2").textContent(),
        section.strings.en.title,
      );
      const sizes = await root
        .locator("canvas")
        .evaluateAll((list) => list.map((c) => c.width * c.height));
      assert.ok(sizes.length > 0 && sizes.every((s) => s > 0), section.id);
      assert.ok((await root.locator("math").count()) > 0, section.id);
      assert.equal(await root.locator(".note:visible").count(), 0, section.id);
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    if (via === "http") assert.deepEqual(await violations(), []);
    await close();
  });
}

test("the dot chart shows dotProducts, and g(0) = h", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=64&positions=64&base=500",
  });
  await settle(page);
  const label = dot.strings.en.series;
  // Offsets −63 … 63: the first key press shows index 1, each next one more.
  for (const presses of [1, 17, 40]) {
    const shown = await readout(
      page,
      "dot-chart",
      Array(presses).fill("ArrowRight"),
    );
    assert.equal(shown.x, -63 + presses);
    const [g] = dotProducts({ dim: 64, base: 500, offsets: [shown.x] });
    close6(shown.values[label], g, `g(${shown.x})`);
  }
  const zero = await readout(page, "dot-chart", Array(63).fill("ArrowRight"));
  assert.equal(zero.x, 0);
  assert.equal(zero.values[label], 32);
  assert.deepEqual(errors, []);
  await close();
});

test("the Toeplitz error shown is toeplitzError of the Gram block", async () => {
  // The block is 64 positions from the first position, with the schedule's
  // frequencies applied as p·ω_i.
  const cases = [
    { hash: "dim=64&base=500", schedule: { dim: 64, base: 500 }, start: 0 },
    {
      hash: "preset=whisper&dim=128&start=1000",
      schedule: { preset: "whisper", dim: 128 },
      start: 1000,
    },
  ];
  for (const { hash, schedule, start } of cases) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=en&${hash}`,
    });
    await settle(page);
    const shown = page.locator("[data-testid=toeplitz-max-error]");
    const value = Number(await shown.getAttribute("data-value"));
    const expected = toeplitzError({
      dim: schedule.dim,
      frequencies: frequencies(schedule),
      oddDim: "zero-pad",
      positions: 64,
      start,
    }).maxAbsError;
    assert.equal(value, expected, hash);
    assert.ok(value < 1e-12, `${hash}: ${value}`);
    assert.match(await shown.textContent(), /×\s10⁻/);
    assert.equal(
      await page.locator("#dot .badge").textContent(),
      dot.strings.en.pass,
    );
    assert.deepEqual(errors, []);
    await close();
  }
});

test("an odd dim with an extra sin column is reported as not Toeplitz", async () => {
  const { page, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=33",
  });
  await settle(page);
  const value = Number(
    await page
      .locator("[data-testid=toeplitz-max-error]")
      .getAttribute("data-value"),
  );
  // The extra column adds sin(m ω_16) sin(n ω_16) over the 64-position block.
  const w = frequencies({ dim: 33 })[16];
  let want = 0;
  for (let m = 0; m < 64; m++)
    for (let n = 0; n < 64; n++)
      want = Math.max(want, Math.abs(Math.sin(m * w) * Math.sin(n * w)));
  assert.ok(Math.abs(value - want) <= 1e-12, `${value} vs ${want}`);
  assert.equal(
    await page.locator("#dot .badge").textContent(),
    dot.strings.en.fail,
  );
  assert.ok(await page.getByText(dot.strings.en.oddExtra).isVisible());
  await close();
});

test("changing dim changes the decay chart, which shows decayComparison", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=128",
  });
  await settle(page);
  const family = decay.strings.en.exp10000;
  const integral = `(d/2)·f: ${family}`;
  const sum = `sum: ${family}`;
  const before = await canvasImage(page, "decay-chart");
  const keys = ["Shift+ArrowRight", "Shift+ArrowRight", "ArrowRight"];
  const small = await readout(page, "decay-chart", keys);

  await page.fill("[data-testid=control-dim]", "512");
  await settle(page);
  assert.notEqual(await canvasImage(page, "decay-chart"), before);
  const large = await readout(page, "decay-chart", keys);
  assert.equal(large.x, small.x);
  assert.ok(small.x > 0 && small.x < 128, String(small.x));
  for (const [dim, shown] of [
    [128, small],
    [512, large],
  ]) {
    const want = decayComparison({ dim, x: [shown.x] });
    close6(shown.values[integral], want.integral[0], `(d/2)f at d = ${dim}`);
    close6(shown.values[sum], want.sum[0], `sum at d = ${dim}`);
  }
  // (d/2)·f scales with d.
  close6(large.values[integral], 4 * small.values[integral], "scaling", 3e-5);
  assert.deepEqual(errors, []);
  await close();
});

test("decay families, alpha and view live in the link", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&decay.families=exp1000,power&decay.alpha=0.5&decay.view=long&decay.range=100000&decay.log=1",
  });
  await settle(page);
  const checked = (key) =>
    page.locator(`[data-testid=decay-family-${key}]`).isChecked();
  assert.equal(await checked("exp10000"), false);
  assert.equal(await checked("exp1000"), true);
  assert.equal(await checked("power"), true);
  assert.equal(await page.inputValue("[data-testid=decay-alpha]"), "0.5");
  assert.equal(await page.inputValue("[data-testid=decay-view]"), "long");
  const legend = await page
    .locator("[data-testid=decay-chart] ~ .legend li")
    .evaluateAll((items) => items.map((li) => li.textContent));
  assert.equal(legend.length, 4);
  assert.ok(legend.some((text) => text.includes("α = 0.5")));
  // Log axis from 1 to 10^5: the last point of the readout.
  const last = await readout(
    page,
    "decay-chart",
    Array(25).fill("Shift+ArrowRight"),
  );
  assert.equal(last.x, 1e5);
  const want = decayComparison({
    dim: 128,
    theta: "power",
    alpha: 0.5,
    x: [1e5],
  });
  close6(
    last.values[`sum: ${decay.strings.en.power}, α = 0.5`],
    want.sum[0],
    "sum",
  );

  await page.locator("[data-testid=decay-family-linear]").check();
  await page.fill("[data-testid=decay-alpha]", "3");
  await page.locator("[data-testid=decay-alpha]").press("Enter");
  const hash = await linkMatching(page, /decay\.alpha=3(&|$)/);
  assert.match(hash, /decay\.families=exp1000,power,linear(&|$)/);
  assert.deepEqual(errors, []);
  await close();
});

test("a bad decay alpha in the link falls back with a note", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&decay.alpha=banana&decay.families=exp10000,power",
  });
  await settle(page);
  assert.equal(await page.inputValue("[data-testid=decay-alpha]"), "2");
  assert.match(
    await page.locator("#decay .note").first().textContent(),
    /decay\.alpha/,
  );
  assert.deepEqual(errors, []);
  await close();
});

test("the row and column charts show the table, and follow their own fields", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=16&positions=32&base=100&curves.rows=3,7&curves.dims=2,5",
  });
  await settle(page);
  const schedule = { dim: 16, base: 100, dtype: "float64" };
  // Pair i of the rows after i presses: sin and cos of p·ωᵢ, ωᵢ = 100^(−2i/16),
  // as separate curves; position p of each column's own chart.
  async function checkRows(rows) {
    for (const i of [1, 3, 7]) {
      const shown = await readout(
        page,
        "curves-rows",
        Array(i).fill("ArrowRight"),
      );
      assert.equal(shown.x, i);
      const omega = 100 ** ((-2 * i) / 16);
      for (const p of rows) {
        close6(
          shown.values[`p = ${p}, sin`],
          Math.sin(p * omega),
          `sin(${p}ω${i})`,
        );
        close6(
          shown.values[`p = ${p}, cos`],
          Math.cos(p * omega),
          `cos(${p}ω${i})`,
        );
      }
    }
  }
  await checkRows([3, 7]);
  const column = await readout(
    page,
    "curves-column-5",
    Array(9).fill("ArrowRight"),
  );
  assert.equal(column.x, 9);
  const at9 = table({ ...schedule, positions: [9] });
  close6(column.values["j = 5"], at9[5], "PE(9, 5)");
  // Column 5 of the interleaved layout: cos of pair 2.
  assert.match(
    await page.textContent(
      "#curves .small-multiples figure:nth-child(2) figcaption",
    ),
    /j = 5: cos of pair 2/,
  );

  // The shared positions leave the rows as they are; the rows field moves them.
  await page.fill("[data-testid=control-positions]", "20");
  await settle(page);
  await checkRows([3, 7]);
  await page.fill("[data-testid=curves-positions]", "11");
  await page.locator("[data-testid=curves-positions]").press("Enter");
  await settle(page);
  await checkRows([11]);
  assert.deepEqual(errors, []);
  await close();
});

// The schedules of the models the RoPE panel names, as their config.json
// files give them (README, "To reproduce model X").
const MODELS = {
  llama3: {
    base: 500000,
    scaling: {
      type: "llama3",
      factor: 8,
      lowFreqFactor: 1,
      highFreqFactor: 4,
      originalMaxPositionEmbeddings: 8192,
    },
  },
  yarn: {
    base: 1000000,
    scaling: { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 32768 },
  },
  dynamic: {
    base: 10000,
    scaling: {
      type: "dynamic",
      factor: 2,
      maxPositionEmbeddings: 4096,
      seqLen: 32768,
    },
  },
};

test("the RoPE panel shows ropeFrequencies and dotProducts, scheme by scheme", async () => {
  const dim = 64;
  const { page, errors, close } = await chromium.open("index.html", {
    hash: `#lang=en&dim=${dim}&extension.rope=llama3&extension.ropeRange=16384`,
  });
  await settle(page);
  const en = extension.strings.en;
  const spectrumBefore = await canvasImage(page, "scaling-spectrum");
  const decayBefore = await canvasImage(page, "scaling-decay");

  async function check(model, label) {
    const { base, scaling } = MODELS[model];
    const plain = ropeFrequencies({ dim, base, scaling: { type: "default" } });
    const scaled = ropeFrequencies({ dim, base, scaling });
    // Pair i after i presses, the slow end where the schedules differ.
    for (const presses of [5, 31]) {
      const shown = await readout(
        page,
        "scaling-spectrum",
        Array(presses).fill("ArrowRight"),
      );
      assert.equal(shown.x, presses);
      const wavelength = (r) => (2 * Math.PI) / r.inverseFrequencies[presses];
      close6(shown.values[en.unscaled], wavelength(plain), `${model} plain`);
      close6(shown.values[label], wavelength(scaled), `${model} scaled`);
    }
    // Whole distances from 1 to 16384: the readout shows them exactly.
    for (const presses of [3, 12, 30]) {
      const shown = await readout(
        page,
        "scaling-decay",
        Array(presses).fill("Shift+ArrowRight"),
      );
      assert.ok(Number.isInteger(shown.x) && shown.x > 1, String(shown.x));
      for (const [which, r] of [
        [en.unscaled, plain],
        [label, scaled],
      ]) {
        const [g] = dotProducts({
          dim,
          frequencies: r.inverseFrequencies,
          offsets: [shown.x],
        });
        close6(shown.values[which], g, `${model} g(${shown.x})`);
      }
    }
    const attention = await page
      .locator("[data-testid=scaling-attention]")
      .textContent();
    assert.ok(
      attention.includes(String(Number(scaled.attentionFactor.toPrecision(6)))),
      attention,
    );
  }

  await check("llama3", en.llama3Scheme);
  await page.selectOption("[data-testid=scaling-scheme]", "yarn");
  await settle(page);
  assert.notEqual(await canvasImage(page, "scaling-spectrum"), spectrumBefore);
  assert.notEqual(await canvasImage(page, "scaling-decay"), decayBefore);
  await check("yarn", en.yarnScheme);

  await page.selectOption("[data-testid=scaling-scheme]", "dynamic");
  const seqLen = page.locator("[data-testid=scaling-seqlen]");
  await seqLen.selectOption("16384");
  await settle(page);
  const shorter = await canvasImage(page, "scaling-spectrum");
  await seqLen.selectOption("32768");
  await settle(page);
  assert.notEqual(await canvasImage(page, "scaling-spectrum"), shorter);
  await check("dynamic", en.dynamicScheme);
  const hash = await linkMatching(page, /extension\.seqLen=32768(&|$)/);
  assert.match(hash, /extension\.rope=dynamic(&|$)/);

  // An odd dim has no RoPE schedule: a note says so, and nothing is drawn.
  await page.fill("[data-testid=control-dim]", "65");
  await settle(page);
  const note = page.getByText(
    extension.strings.en.oddDim.replace("{dim}", "65"),
  );
  assert.ok(await note.isVisible());
  assert.equal(
    await page.locator("[data-testid=scaling-spectrum]").isVisible(),
    false,
  );
  assert.deepEqual(errors, []);
  await close();
});

test("RoPE scores depend on m − n only, for both pairings", async () => {
  for (const start of [0, 100000]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=en&dim=128&start=${start}`,
    });
    await settle(page);
    const deviation = async () =>
      Number(
        await page
          .locator("[data-testid=rope-max-error]")
          .getAttribute("data-value"),
      );
    const other = async () =>
      Number(
        (
          await page
            .locator("#rope p", { hasText: "other pairing" })
            .textContent()
        ).match(/up to ([0-9.]+)/)[1],
      );
    for (const pairing of ["halves", "interleaved"]) {
      await page.selectOption("[data-testid=rope-pairing]", pairing);
      await settle(page);
      const value = await deviation();
      assert.ok(value > 0 && value <= 3e-7, `${pairing} at ${start}: ${value}`);
      // The pairings are different functions of the same q and k.
      assert.ok((await other()) > 0.01, pairing);
      await page.click("[data-testid=rope-new-vectors]");
      await settle(page);
      assert.ok((await deviation()) <= 3e-7, `${pairing}, new vectors`);
    }
    const hash = await linkMatching(page, /rope\.seed=3/);
    assert.match(hash, /rope\.pairing=interleaved/);
    assert.deepEqual(errors, []);
    await close();
  }
});

// One float32 rounding of a value below 1 in magnitude: one of the two
// float32 numbers around it, less than one ulp, 2^-24, away; the double
// reference adds at most 1e-10 at p = 1e6.
const ONE_ROUNDING = 2 ** -24 + 1e-10;

test("the float32 angle error grows with position; the module's stays within one rounding", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=256",
  });
  await settle(page);
  const naive = precision.strings.en.naive;
  const module = precision.strings.en.module;
  const first = await readout(page, "precision-chart", ["ArrowRight"]);
  const middle = await readout(
    page,
    "precision-chart",
    Array(10).fill("Shift+ArrowRight"),
  );
  const last = await readout(
    page,
    "precision-chart",
    Array(25).fill("Shift+ArrowRight"),
  );
  assert.ok(first.x < 2 && last.x > 5e5, `${first.x} … ${last.x}`);
  assert.ok(first.values[naive] < middle.values[naive]);
  assert.ok(middle.values[naive] < last.values[naive]);
  // Rounding an angle near 1e6 to float32 moves it by up to 2^-5.
  assert.ok(last.values[naive] > 5e-3, String(last.values[naive]));
  for (const point of [first, middle, last])
    assert.ok(
      point.values[module] <= ONE_ROUNDING,
      String(point.values[module]),
    );
  const summary = page.locator("#precision .result");
  assert.ok(Number(await summary.getAttribute("data-module")) <= ONE_ROUNDING);
  assert.match(await summary.textContent(), /within one float32 rounding/);
  assert.ok(Number(await summary.getAttribute("data-naive")) > 5e-3);
  // The bound that holds: the library's float32 is correctly rounded, half
  // an ulp, as its formula beside the chart says.
  assert.match(
    await page.locator("#precision").textContent(),
    /correctly rounded: each is the float32 nearest the exact value/,
  );
  assert.match(
    await page
      .locator("#precision math annotation")
      .allTextContents()
      .then((t) => t.join(" ")),
    /\\tfrac\{1\}\{2\}\s*\\,\\mathrm\{ulp\}_\{32\}/,
  );
  assert.deepEqual(errors, []);
  await close();
});

test("the sections' text switches language, and their settings stay", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&decay.families=linear",
  });
  await settle(page);
  await page.click("[data-testid=lang-toggle]");
  await settle(page);
  for (const section of SECTIONS) {
    const root = page.locator(`section#${section.id}`);
    assert.equal(
      await root.locator("h2").textContent(),
      section.strings.zh.title,
    );
    // The lead, then the papers it cites, if any.
    const lead = await root.locator("p").first().textContent();
    assert.ok(lead.startsWith(section.strings.zh.lead), lead);
  }
  const legend = await page.locator("#decay .legend").first().textContent();
  assert.ok(legend.includes(decay.strings.zh.linear), legend);
  assert.ok(!legend.includes(decay.strings.zh.exp10000), legend);
  // The RoPE panel: its title, legend and axis labels.
  const zh = extension.strings.zh;
  const ropeLegend = await page
    .locator("[data-testid=scaling-decay] ~ .legend")
    .textContent();
  assert.ok(ropeLegend.includes(zh.unscaled), ropeLegend);
  assert.ok(ropeLegend.includes(zh.llama3Scheme), ropeLegend);
  assert.equal(
    await page
      .locator("[data-testid=scaling-spectrum]")
      .getAttribute("aria-label"),
    `${zh.wavelength} / ${zh.pairIndex}`,
  );
  assert.ok(
    (await page.locator("#precision .legend").textContent()).includes(
      precision.strings.zh.naive,
    ),
  );
  await page.click("[data-testid=lang-toggle]");
  await settle(page);
  assert.equal(
    await page.locator("section#rope h2").textContent(),
    rope.strings.en.title,
  );
  assert.deepEqual(errors, []);
  await close();
});

test("on a 360-pixel phone the sections fit the screen's width", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}&decay.families=exp10000,exp1000,exp100,power,linear`,
      viewport: { width: 360, height: 740 },
    });
    await settle(page);
    for (const section of SECTIONS) {
      const [scroll, client] = await page
        .locator(`section#${section.id}`)
        .evaluate((s) => [s.scrollWidth, s.clientWidth]);
      assert.ok(
        scroll <= client,
        `${section.id}, ${lang}: ${scroll} > ${client}`,
      );
    }
    assert.deepEqual(errors, []);
    await close();
  }
});
