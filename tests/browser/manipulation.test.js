// Direct manipulation in Chromium: the relation's p slider spends its first
// tenth below p = 1000, the unit circles sit beside the sliders and turn
// when dragged, angles are read reduced with their turns counted, play
// moves p, and RoPE's positions move together with the score unchanged.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

const value = (page, testid) =>
  page.inputValue(`[data-testid="${testid}"]`).then(Number);

/** Puts a slider at a fraction of its travel, as a reader's drag would. */
async function slideTo(page, testid, fraction) {
  await page.$eval(
    `[data-testid="${testid}"]`,
    (input, fraction) => {
      const low = Number(input.min);
      const high = Number(input.max);
      input.value = String(low + fraction * (high - low));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    },
    fraction,
  );
  await settle(page);
}

test("the p slider: logarithmic, 0 … 1000 over 40 % of its travel, up to 100000, and the check holds", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  let last = -1;
  for (const fraction of [0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4]) {
    await slideTo(page, "relation-p-slider", fraction);
    const p = await value(page, "relation-p");
    assert.ok(p >= last && p <= 1000, `${fraction}: p = ${p}`);
    assert.ok(Number.isInteger(p), `${fraction}: p = ${p}`);
    last = p;
  }
  assert.ok(last >= 500, `p = ${last} at 40 %`);
  await slideTo(page, "relation-p-slider", 0.5);
  assert.ok((await value(page, "relation-p")) > 1000);
  await slideTo(page, "relation-p-slider", 1);
  assert.equal(await value(page, "relation-p"), 100000);
  assert.equal(
    await page.textContent("[data-testid=relation-badge]"),
    "the relation holds",
  );
  // A real drag of 5 % of the slider's width from its left end.
  await slideTo(page, "relation-p-slider", 0);
  await page.$eval("[data-testid=relation-p-slider]", (s) =>
    s.scrollIntoView({ block: "center" }),
  );
  const box = await page
    .locator("[data-testid=relation-p-slider]")
    .boundingBox();
  await page.mouse.move(box.x + 8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 8 + 0.05 * box.width, box.y + box.height / 2, {
    steps: 5,
  });
  await page.mouse.up();
  await settle(page);
  const dragged = await value(page, "relation-p");
  assert.ok(dragged > 0 && dragged < 1000, `p = ${dragged}`);
  // The slider speaks p, not its own position.
  assert.equal(
    await page.getAttribute(
      "[data-testid=relation-p-slider]",
      "aria-valuetext",
    ),
    `p = ${dragged}`,
  );
  assert.deepEqual(errors, []);
  await close();
});

test("the unit circles are in view beside the sliders", async () => {
  for (const width of [1400, 360]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: "#lang=en",
      viewport: { width, height: 800 },
    });
    await page.$eval("[data-testid=relation-p-slider]", (s) =>
      s.scrollIntoView({ block: "center" }),
    );
    const [slider, circle] = await page.$$eval(
      "[data-testid=relation-p-slider], #relation .circle canvas",
      (nodes) =>
        nodes.slice(0, 2).map((node) => {
          const box = node.getBoundingClientRect();
          return { top: box.top, bottom: box.bottom };
        }),
    );
    assert.ok(slider.top >= 0 && slider.bottom <= 800);
    assert.ok(
      circle.top >= 0 && circle.bottom <= 800,
      `${width}: circle at ${circle.top} … ${circle.bottom}`,
    );
    assert.deepEqual(errors, []);
    await close();
  }
});

test("angles are read reduced, with the whole turns counted", async () => {
  for (const [lang, pattern] of [
    ["en", (angle, turns) => `k·ω₀ = ${angle} rad + ${turns} full turns`],
    ["zh", (angle, turns) => `k·ω₀ = ${angle} 弧度 + ${turns} 整圈`],
  ]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}&relation.k=1000000`,
    });
    // ω₀ = base⁰ = 1: the angle is k itself.
    const turns = Math.trunc(1e6 / (2 * Math.PI));
    const reduced = Number((1e6 - turns * 2 * Math.PI).toFixed(3));
    const caption = await page.textContent(
      "#relation .circle:first-child figcaption",
    );
    assert.ok(caption.includes(pattern(reduced, turns)), caption);
    assert.doesNotMatch(caption, /1000000/);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("dragging a point on a unit circle sets k, and the relation still holds", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&relation.p=100&relation.k=3",
  });
  const canvas = page.locator("#relation .circle canvas[data-pair='0']");
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  // The ○ of pair 0 is at angle p·ω₀ = 100 rad; drag the ● to 1 rad past it.
  const r = box.width / 2 - 10;
  const target = 100 + 1;
  const x = box.x + box.width / 2 + r * Math.cos(target);
  const y = box.y + box.height / 2 - r * Math.sin(target);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 0.5, y, { steps: 2 });
  await page.mouse.up();
  await settle(page);
  const k = await value(page, "relation-k");
  // The nearest k to 3 whose turn is 1 rad: k = 1.
  assert.ok(Math.abs(k - 1) < 0.05, `k = ${k}`);
  assert.equal(
    await page.textContent("[data-testid=relation-badge]"),
    "the relation holds",
  );
  assert.deepEqual(errors, []);
  await close();
});

test("play moves p until paused, and the link keeps where it stopped", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&relation.p=10",
  });
  await page.click("[data-testid=relation-play]");
  assert.equal(
    await page.getAttribute("[data-testid=relation-play]", "aria-pressed"),
    "true",
  );
  await page.waitForTimeout(600);
  await page.click("[data-testid=relation-play]");
  const p = await value(page, "relation-p");
  assert.ok(p > 10, `p = ${p}`);
  await page.waitForTimeout(400);
  assert.equal(await value(page, "relation-p"), p);
  assert.match(
    await page.evaluate(() => location.hash),
    new RegExp(`relation\\.p=${p}(&|$)`),
  );
  assert.equal(
    await page.textContent("[data-testid=relation-badge]"),
    "the relation holds",
  );
  assert.deepEqual(errors, []);
  await close();
});

test("the relation is drawn as its sines and its cosines, one curve each per side", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=4096",
  });
  for (const part of ["sines", "cosines"]) {
    const canvas = page.locator(`[data-testid=relation-${part}]`);
    assert.ok(await canvas.isVisible());
    const legend = await page.$$eval(
      `[data-testid=relation-${part}] ~ .legend li`,
      (items) => items.length,
    );
    assert.equal(legend, 3);
  }
  assert.deepEqual(errors, []);
  await close();
});

test("RoPE: m and n move together, and the score after rotation does not change", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&rope.m=5&rope.n=2",
  });
  const score = () =>
    page.getAttribute("[data-testid=rope-qk]", "data-after").then(Number);
  const first = await score();
  for (const fraction of [0.9, 0.1, 0.73]) {
    await slideTo(page, "rope-shift", fraction);
    const m = await value(page, "rope-m");
    const n = await value(page, "rope-n");
    assert.equal(m - n, 3);
    assert.notEqual(m, 5);
    assert.ok(Math.abs((await score()) - first) < 1e-5);
  }
  assert.deepEqual(errors, []);
  await close();
});
