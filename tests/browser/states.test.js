// States the page once got wrong, each reproduced in Chromium: what the
// reader sees after the steps must agree with itself and with the numbers.
// Expected numbers come from formulas written here, not from the page.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { setControl, settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

const text = (page, selector) => page.textContent(selector);

test("dim 1 → 3.5 → 5000 → 127: notes that say what was done, and no stale relation", async () => {
  const { page, errors, close } = await chromium.open("index.html");
  await setControl(page, "dim", 1);
  assert.match(
    await text(page, "[data-testid=notes]"),
    /1 is outside 2 … 4096; using 2/,
  );
  await setControl(page, "dim", 3.5);
  const rounded = await text(page, "[data-testid=notes]");
  assert.match(rounded, /3\.5 is not a whole number; using 4/);
  assert.doesNotMatch(rounded, /outside/);
  await setControl(page, "dim", 5000);
  assert.match(
    await text(page, "[data-testid=notes]"),
    /5000 is outside 2 … 4096; using 4096/,
  );
  await setControl(page, "dim", 127);
  const problem = page.locator("[data-testid=relation-problem]");
  assert.ok(await problem.isVisible());
  const message = await problem.textContent();
  assert.match(message, /odd dim \(127\)/);
  assert.doesNotMatch(message, /zero-pad|oddDim/);
  // Nothing of the even-dim drawing stays: no badge, no value, no curve.
  const badge = page.locator("[data-testid=relation-badge]");
  assert.equal((await badge.textContent()).trim(), "");
  assert.ok(!(await badge.getAttribute("class")).includes("pass"));
  assert.equal(await text(page, "[data-testid=relation-max-error]"), "—");
  assert.equal(
    await page.$eval("#relation canvas", (c) => c.dataset.segments),
    "0",
  );
  // Back to an even dim, the relation is drawn and passes again.
  await setControl(page, "dim", 128);
  assert.ok(await problem.isHidden());
  assert.match(await badge.getAttribute("class"), /pass/);
  assert.deepEqual(errors, []);
  await close();
});

test("dim 127: the dot section's text agrees with its not-Toeplitz badge", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#dim=127",
  });
  const section = await text(page, "#dot");
  assert.match(section, /not exactly Toeplitz/);
  assert.match(section, /depends on more than m − n/);
  assert.doesNotMatch(section, /the matrix is Toeplitz/);
  // No advice to use a control the page does not have.
  assert.doesNotMatch(section, /zero last column/);
  await setControl(page, "dim", 128);
  assert.match(await text(page, "#dot"), /the matrix is Toeplitz/);
  assert.deepEqual(errors, []);
  await close();
});

test("first position 10000000: neighbouring ticks read differently", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#start=10000000",
  });
  for (const selector of [
    "[data-testid=heatmap]",
    "#dot canvas:not([data-testid])",
  ]) {
    const ticks = (await page.$eval(selector, (c) => c.dataset.rowTicks)).split(
      " ",
    );
    assert.ok(ticks.length >= 3, selector);
    assert.equal(new Set(ticks).size, ticks.length, `${selector}: ${ticks}`);
    assert.equal(ticks[0], "10000000", selector);
  }
  assert.deepEqual(errors, []);
  await close();
});

test("rows and columns fields say why a list was not taken", async () => {
  const { page, errors, close } = await chromium.open("index.html");
  const cases = [
    ["curves-dimensions", "0, 1, 2, 3, 4, 5, 6", /7 values, more than 6/],
    ["curves-dimensions", "0, four", /“four” is not a number/],
    ["curves-dimensions", "", /empty/],
    ["curves-dimensions", "4096", /4096 is outside 0 … 4095/],
    ["curves-dimensions", "2.5", /2\.5 is not a whole dimension/],
    ["curves-positions", "1, x", /“x” is not a number/],
  ];
  for (const [testid, value, message] of cases) {
    const before = await page.inputValue(`[data-testid=${testid}]`);
    await page.fill(`[data-testid=${testid}]`, value);
    await page.press(`[data-testid=${testid}]`, "Enter");
    const note = page.locator(`[data-testid=${testid}-note]`);
    assert.ok(await note.isVisible(), value);
    assert.match(await note.textContent(), message);
    // The field shows the list still in use.
    assert.equal(await page.inputValue(`[data-testid=${testid}]`), before);
  }
  await page.fill("[data-testid=curves-dimensions]", "1, 2");
  await page.press("[data-testid=curves-dimensions]", "Enter");
  assert.ok(
    await page.locator("[data-testid=curves-dimensions-note]").isHidden(),
  );
  assert.deepEqual(errors, []);
  await close();
});

test("a section link scrolls there and keeps the state; one link carries both", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#rope",
  });
  const top = () =>
    page.$eval("#rope", (section) => section.getBoundingClientRect().top);
  assert.ok(Math.abs(await top()) < 200, `rope at ${await top()}`);
  assert.equal(await text(page, "[data-testid=notes]"), "");
  assert.match(await page.evaluate(() => location.hash), /&rope$/);

  // State and section together.
  await page.goto(page.url().replace(/#.*/, "#dim=64&decay"));
  await page.waitForFunction(() => /dim=64&.*decay$/.test(location.hash));
  await settle(page);
  assert.equal(await page.inputValue("[data-testid=control-dim]"), "64");
  const decayTop = await page.$eval(
    "#decay",
    (s) => s.getBoundingClientRect().top,
  );
  assert.ok(Math.abs(decayTop) < 200, `decay at ${decayTop}`);
  // Its heading is below the sticky controls, not under them.
  const [heading, controls] = await page.evaluate(() => [
    document.querySelector("#decay h2").getBoundingClientRect().top,
    document.querySelector(".controls-bar").getBoundingClientRect().bottom,
  ]);
  assert.ok(
    heading >= controls,
    `heading at ${heading}, controls to ${controls}`,
  );

  // A table-of-contents entry goes to its section and keeps the state.
  await page.click('nav.toc a[href="#dot"]');
  await page.waitForFunction(() => /&dot$/.test(location.hash));
  assert.match(await page.evaluate(() => location.hash), /dim=64/);
  assert.equal(await text(page, "[data-testid=notes]"), "");
  // A bare anchor followed later (a link inside a page) keeps the state too.
  await page.evaluate(() => (location.hash = "#precision"));
  await page.waitForFunction(() => /dim=64.*&precision$/.test(location.hash));
  assert.equal(await page.inputValue("[data-testid=control-dim]"), "64");
  assert.deepEqual(errors, []);
  await close();
});

test("hash edge cases: inherited names are not schemes, a repeated key is named as such", async () => {
  for (const name of ["constructor", "__proto__", "toString"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#extension.rope=${name}`,
    });
    assert.match(await text(page, "#extension"), new RegExp(`“${name}”`));
    await page.waitForFunction(() => location.hash.includes("dim="));
    assert.doesNotMatch(
      await page.evaluate(() => location.hash),
      new RegExp(name),
    );
    assert.equal(
      await page.$$eval("#extension .note[data-slot=failed]", (n) => n.length),
      0,
    );
    assert.deepEqual(errors, []);
    await close();
  }
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#dim=8&dim=4096",
  });
  const notes = await text(page, "[data-testid=notes]");
  assert.match(notes, /“dim” more than once/);
  assert.doesNotMatch(notes, /unknown/);
  assert.equal(await page.inputValue("[data-testid=control-dim]"), "8");
  assert.deepEqual(errors, []);
  await close();
});

test("a tap on the heatmap of a touch phone reads the cell tapped", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    viewport: { width: 360, height: 740 },
    hasTouch: true,
    isMobile: true,
  });
  const canvas = page.locator("[data-testid=heatmap]");
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  const readout = await text(page, "#table .readout");
  const [, p, j] = readout.match(/position (\d+) · dimension (\d+)/);
  // The middle of the plot: far from position 0 and dimension 0.
  assert.ok(Number(p) > 100 && Number(j) > 20, readout);
  assert.deepEqual(errors, []);
  await close();
});

test("a formula box scrolls only when its formula is wider, and is then labelled", async () => {
  for (const width of [1400, 360]) {
    const { page, errors, close } = await chromium.open("index.html", {
      viewport: { width, height: 900 },
    });
    const boxes = await page.$$eval(".formula, .formula", (list) =>
      list.map((b) => {
        const style = getComputedStyle(b);
        return {
          where: `${b.closest("section").id}: ${b.textContent.slice(0, 30)}`,
          scroller:
            style.overflowX !== "visible" || style.overflowY !== "visible",
          wide: b.scrollWidth > b.clientWidth + 1,
          labelled: b.tabIndex === 0 && Boolean(b.getAttribute("aria-label")),
        };
      }),
    );
    assert.ok(boxes.length >= 10);
    for (const box of boxes) {
      assert.equal(box.scroller, box.wide, `${width}px ${box.where}`);
      if (box.scroller) assert.ok(box.labelled, `${width}px ${box.where}`);
    }
    assert.deepEqual(errors, []);
    await close();
  }
});

test("MathML keeps the space after a function name: ln b", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#preset=whisper",
  });
  const gaps = await page.$$eval("#table mi", (names) =>
    names
      .filter((mi) => mi.textContent === "ln")
      .map((mi) => {
        let next = mi.nextElementSibling;
        while (next && next.textContent === "\u2061")
          next = next.nextElementSibling;
        return (
          next.getBoundingClientRect().left - mi.getBoundingClientRect().right
        );
      }),
  );
  assert.ok(gaps.length > 0);
  for (const gap of gaps) assert.ok(gap > 1.5, `gap ${gap}`);
  assert.deepEqual(errors, []);
  await close();
});

// f(x) = ∫₀¹ cos(x·b^(−t)) dt by Simpson's rule, and its first zero by
// bisection after a scan: written here, independent of the module.
function firstZero(b) {
  const f = (x) => {
    // Enough points for the ~x/(2π) turns of the integrand near t = 0.
    const n = 2 * Math.ceil(Math.max(2000, x) * 4);
    let sum = 0;
    for (let i = 0; i <= n; i++) {
      const w = i === 0 || i === n ? 1 : i % 2 ? 4 : 2;
      sum += w * Math.cos(x * b ** (-i / n));
    }
    return sum / (3 * n);
  };
  let x = 0;
  const step = b / 100;
  while (f(x + step) > 0) x += step;
  let [lo, hi] = [x, x + step];
  for (let k = 0; k < 50; k++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  return lo;
}

test("claims match the numbers: the first zero, llama3's onset, the offsets drawn", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#positions=4096",
  });
  const decay = await text(page, "#decay");
  const small = firstZero(100);
  const large = firstZero(10000);
  assert.ok(
    decay.includes(`x ≈ ${Number(small.toPrecision(3))} for b = 100`),
    `${small}`,
  );
  assert.ok(decay.includes(`x ≈ ${Math.round(large)}`), `${large}`);
  assert.doesNotMatch(decay, /x ≈ b\b/);
  // Llama 3.1: original 8192, highFreqFactor 4: 8192 / 4 = 2048, a quarter.
  assert.match(
    await text(page, "#extension"),
    /exceeds 2048 positions \(a quarter of its original context\)/,
  );
  // 4096 positions: offsets up to ±4095, more than 4001, so every 3rd.
  const dot = await text(page, "#dot");
  assert.match(dot, /k = 0, ±3, ±2·3, … up to ±4095/);
  assert.doesNotMatch(dot, /every offset k that occurs/);
  assert.deepEqual(errors, []);
  await close();
});

test("line charts draw at most two segments per pixel column of a series", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#dim=4096&positions=1024",
  });
  const charts = await page.$$eval("canvas[data-segments]", (list) =>
    list.map((c) => ({
      where: c.closest("section").id,
      segments: Number(c.dataset.segments),
      width: Number(c.dataset.plotWidth),
    })),
  );
  assert.ok(charts.length >= 5);
  // Rows and columns (up to 6 series), relation (3): never more than two
  // segments per pixel column of each series.
  for (const { where, segments, width } of charts)
    assert.ok(
      segments <= 6 * 2 * (width + 1),
      `${where}: ${segments} for ${width}px`,
    );
  const relation = charts.find((c) => c.where === "relation");
  assert.ok(relation.segments <= 3 * 2 * (relation.width + 1));
  assert.deepEqual(errors, []);
  await close();
});

test("the RoPE head: q·k after rotation depends on m − n only, and is the rotation's", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#base=10000",
  });
  const read = () =>
    page.$eval("[data-testid=rope-qk]", (p) => ({
      before: Number(p.dataset.before),
      after: Number(p.dataset.after),
      shifted: Number(p.dataset.shifted),
      q: p.dataset.q.split(" ").map(Number),
      k: p.dataset.k.split(" ").map(Number),
    }));
  const setField = async (testid, value) => {
    await page.fill(`[data-testid=${testid}]`, String(value));
    await page.press(`[data-testid=${testid}]`, "Enter");
    await settle(page);
  };
  // Rotation by the formula, in float64, halves pairing: (i, i + 4).
  const expected = (q, k, m, n) => {
    let sum = 0;
    for (let i = 0; i < 4; i++) {
      const w = 10000 ** (-(2 * i) / 8);
      const [qa, qb, ka, kb] = [q[i], q[i + 4], k[i], k[i + 4]];
      const rq = [
        qa * Math.cos(m * w) - qb * Math.sin(m * w),
        qb * Math.cos(m * w) + qa * Math.sin(m * w),
      ];
      const rk = [
        ka * Math.cos(n * w) - kb * Math.sin(n * w),
        kb * Math.cos(n * w) + ka * Math.sin(n * w),
      ];
      sum += rq[0] * rk[0] + rq[1] * rk[1];
    }
    return sum;
  };
  await setField("rope-m", 5);
  await setField("rope-n", 2);
  const first = await read();
  assert.equal(
    await page.locator("[data-testid=rope-pairs] tbody tr").count(),
    4,
  );
  assert.ok(Math.abs(first.after - expected(first.q, first.k, 5, 2)) < 1e-6);
  assert.ok(Math.abs(first.shifted - first.after) < 1e-6);
  let plain = 0;
  for (let j = 0; j < 8; j++) plain += first.q[j] * first.k[j];
  assert.ok(Math.abs(first.before - plain) < 1e-12);
  // Same m − n elsewhere: the same score; another difference: another one.
  await setField("rope-m", 105);
  await setField("rope-n", 102);
  const moved = await read();
  assert.ok(Math.abs(moved.after - first.after) < 1e-6);
  await setField("rope-n", 90);
  const other = await read();
  assert.ok(Math.abs(other.after - expected(other.q, other.k, 105, 90)) < 1e-6);
  assert.ok(Math.abs(other.after - first.after) > 1e-3);
  // A position that is not a whole number is refused with a note.
  await setField("rope-m", "2.5");
  assert.match(
    await page.textContent("#rope"),
    /“2\.5” is not a whole position/,
  );
  assert.equal(await page.inputValue("[data-testid=rope-m]"), "105");
  assert.deepEqual(errors, []);
  await close();
});

test("the readout names each column from the table itself: Marian at dim 5", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#preset=marian&dim=5&positions=8",
  });
  await page.focus("[data-testid=heatmap]");
  for (const key of [
    "ArrowDown",
    "ArrowDown",
    "ArrowDown",
    "ArrowRight",
    "ArrowRight",
  ])
    await page.keyboard.press(key);
  const readout = await text(page, "#table .readout");
  // Marian's sin block has ceil(5/2) = 3 columns: column 2 is sin(p·ω₂),
  // ω₂ = 10000^(−4/5), which has no cos partner.
  const omega = 10000 ** (-4 / 5);
  assert.match(readout, /position 3 · dimension 2 \(sin of pair 2/);
  const value = Number(readout.match(/value (\S+)/)[1]);
  assert.ok(Math.abs(value - Math.sin(3 * omega)) < 1e-8, readout);
  // And the layout field shows the preset's halves.
  assert.equal(await page.inputValue("[data-testid=control-layout]"), "halves");
  assert.deepEqual(errors, []);
  await close();
});

test("a typed sentence: tokens with positions, barcodes, and the formula at the hovered cell", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#dim=16&base=100",
  });
  await page.fill("[data-testid=tokens-input]", "the cat sat, the end");
  await settle(page);
  const rows = page.locator("[data-testid=tokens] .token-row:not(.token-head)");
  // the · cat · sat · , · the · end: six tokens at positions 0 … 5.
  assert.equal(await rows.count(), 6);
  assert.equal(await rows.nth(3).locator(".token-chip").textContent(), ",");
  assert.equal(await rows.nth(4).locator(".number").textContent(), "4");
  // Focus the encoding barcode of "the" at position 4, three steps right:
  // dimension 3 = cos(4·ω₁), ω₁ = 100^(−2/16) in the interleaved layout.
  await rows.nth(4).locator("canvas").first().focus();
  for (let n = 0; n < 3; n++) await page.keyboard.press("ArrowRight");
  const formula = page.locator("[data-testid=tokens-formula]");
  const omega = 100 ** (-2 / 16);
  const shown = await formula.textContent();
  assert.match(
    shown,
    /“the” at p = 4, dimension j = 3: PE\(p, j\) = cos\(p·ω₁\)/,
  );
  assert.ok(
    Math.abs(
      Number(await formula.getAttribute("data-value")) - Math.cos(4 * omega),
    ) < 1e-6,
    shown,
  );
  // The same word gets the same stand-in vector at both positions.
  const xAt = async (t) => {
    await rows.nth(t).locator("canvas").nth(1).focus();
    for (let n = 0; n < 3; n++) await page.keyboard.press("ArrowRight");
    return (await formula.textContent()).match(/x_j = (\S+);/)[1];
  };
  assert.equal(await xAt(0), await xAt(4));
  assert.notEqual(await xAt(1), await xAt(0));
  // The sentence lives in the link.
  await page.waitForFunction(() =>
    decodeURIComponent(location.hash).includes(
      "tokens.text=the cat sat, the end",
    ),
  );
  assert.deepEqual(errors, []);
  await close();
});

test("the sentence and the table's heatmap point at the same cell", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#dim=16&base=100&start=3",
  });
  await page.fill("[data-testid=tokens-input]", "the cat sat, the end");
  await settle(page);
  const rows = page.locator("[data-testid=tokens] .token-row:not(.token-head)");
  // The sentence starts at the first position: "sat" is token 2, at p = 5.
  assert.equal(await rows.nth(2).locator(".number").textContent(), "5");
  const heatmapReadout = page.locator("[data-testid=heatmap] + .readout");
  await rows.nth(2).locator("canvas").first().focus();
  await page.keyboard.press("ArrowRight");
  assert.match(
    await heatmapReadout.textContent(),
    /^position 5 · dimension 1 \(cos of pair 0\) · value (\S+)/,
  );
  const value = Number(
    (await heatmapReadout.textContent()).match(/value (\S+)/)[1],
  );
  assert.ok(Math.abs(value - Math.cos(5)) < 1e-6, String(value));
  // And back: the heatmap's cursor starts at the shared cell (row 2,
  // column 1) and moves to row 4 (p = 7, "the"), column 3.
  await page.focus("[data-testid=heatmap]");
  for (const key of ["ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight"])
    await page.keyboard.press(key);
  const formula = page.locator("[data-testid=tokens-formula]");
  assert.match(
    await formula.textContent(),
    /^“the” at p = 7, dimension j = 3: PE\(p, j\) = cos\(p·ω₁\)/,
  );
  assert.ok(
    Math.abs(
      Number(await formula.getAttribute("data-value")) -
        Math.cos(7 * 100 ** (-2 / 16)),
    ) < 1e-6,
  );
  assert.equal(await page.locator(".token-row.picked").count(), 1);
  // A row no token sits at (p = 9, after "end") clears the pick.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  assert.equal(await formula.textContent(), "");
  assert.equal(await page.locator(".token-row.picked").count(), 0);
  assert.deepEqual(errors, []);
  await close();
});

test("why sines: the bits of p beside the module's table", async () => {
  const { page, errors, close } = await chromium.open("index.html");
  const headings = await page.$$eval("#why figcaption", (list) =>
    list.map((f) => f.textContent),
  );
  assert.equal(headings.length, 4);
  assert.match(headings[3], /smooth binary counter/);
  // Bit 0 of position 1 is 1 (the map's red end), bit 1 is 0 (blue end).
  await page.focus("[data-testid=why-bits]");
  await page.keyboard.press("ArrowDown");
  assert.match(
    await page.textContent("[data-testid=why-bits] + .readout"),
    /position 1 · bit 0 = 1$/,
  );
  await page.keyboard.press("ArrowRight");
  assert.match(
    await page.textContent("[data-testid=why-bits] + .readout"),
    /position 1 · bit 1 = 0$/,
  );
  assert.deepEqual(errors, []);
  await close();
});

test("a burst of changes draws each section once, with the last value", async () => {
  const { page, errors, close } = await chromium.open("index.html");
  await settle(page);
  const counts = await page.evaluate(async () => {
    // Every measure as made: the page keeps only a bounded number of them.
    const measures = [];
    const observer = new PerformanceObserver((list) =>
      measures.push(...list.getEntries()),
    );
    observer.observe({ type: "measure" });
    const base = document.querySelector("[data-testid=control-base]");
    for (let n = 1; n <= 10; n++) {
      base.value = String(1000 * n);
      base.dispatchEvent(new Event("input", { bubbles: true }));
    }
    const drawn = (id) =>
      new Promise((resolve) => {
        const check = () =>
          document.body.dataset.ready === "true" &&
          !document.getElementById(id).hasAttribute("data-stale")
            ? resolve()
            : requestAnimationFrame(check);
        requestAnimationFrame(check);
      });
    await drawn("order");
    // Those off screen draw the last value when the reader gets there.
    for (const id of ["table", "curves", "dot", "rope", "precision"]) {
      document.getElementById(id).scrollIntoView();
      await drawn(id);
    }
    measures.push(...observer.takeRecords());
    observer.disconnect();
    const byName = {};
    for (const entry of measures)
      if (entry.name.startsWith("pe-update:"))
        byName[entry.name.slice(10)] = (byName[entry.name.slice(10)] ?? 0) + 1;
    return byName;
  });
  for (const id of ["table", "curves", "dot", "rope", "precision"])
    assert.equal(counts[id], 1, `${id}: ${JSON.stringify(counts)}`);
  // The last value is the one kept, and written to the link.
  await page.waitForFunction(() => location.hash.includes("base=10000"));
  assert.deepEqual(errors, []);
  await close();
});

test("at the largest size a newer table cancels the binning of an older one", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#dim=4096&positions=16384",
  });
  // The table in view, where a change draws it at once.
  await page.locator("[data-testid=heatmap]").scrollIntoViewIfNeeded();
  await settle(page);
  const seen = await page.evaluate(async () => {
    const canvas = document.querySelector("[data-testid=heatmap]");
    const base = document.querySelector("[data-testid=control-base]");
    base.value = "100";
    base.dispatchEvent(new Event("input", { bubbles: true }));
    // Wait until the first table has started, then replace it.
    while (canvas.dataset.complete !== "false")
      await new Promise((r) => requestAnimationFrame(r));
    base.value = "1000";
    base.dispatchEvent(new Event("input", { bubbles: true }));
    while (
      document.body.dataset.ready !== "true" ||
      canvas.dataset.complete !== "true"
    )
      await new Promise((r) => requestAnimationFrame(r));
    return canvas.toDataURL();
  });
  // The same table drawn from scratch.
  await page.goto(
    page.url().replace(/#.*/, "#dim=4096&positions=16384&base=1000"),
  );
  await page.waitForFunction(() => location.hash.includes("base=1000&"));
  await settle(page);
  const fresh = await page.$eval("[data-testid=heatmap]", (c) => c.toDataURL());
  assert.ok(seen === fresh, "the drawn table differs from a fresh one");
  assert.deepEqual(errors, []);
  await close();
});

test("a link at the largest size is drawn through the queue: its sections mounted a step a frame, then every one drawn", async () => {
  const context = await chromium.browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // A clock on which every call is 7 ms later: each step of drawing then
  // overruns the frame's budget, and a page that mounts its sections in
  // its drawing queue mounts one a frame. Mounted all in the task that
  // reads the link, they would appear all at once.
  await page.addInitScript(() => {
    const now = performance.now.bind(performance);
    let skew = 0;
    performance.now = () => now() + (skew += 7);
    window.mountedPerFrame = [];
    const count = () => {
      const roots = document.querySelectorAll("main.sections > section");
      const mounted = Array.from(roots).filter((r) => r.childElementCount);
      window.mountedPerFrame.push(mounted.length);
      if (roots.length === 0 || mounted.length < roots.length)
        requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  await page.goto(`${chromium.origin}/index.html#dim=4096&positions=16384`);
  await page.waitForFunction(() => {
    const roots = document.querySelectorAll("main.sections > section");
    return roots.length && Array.from(roots).every((r) => r.childElementCount);
  });
  const counts = await page.evaluate(() => window.mountedPerFrame);
  const sections = await page.locator("main.sections > section").count();
  // Every count from none to all but the last was seen in some frame.
  const seen = new Set(counts);
  for (let n = 0; n < sections; n++)
    assert.ok(seen.has(n), `${n} mounted: ${counts.join(" ")}`);
  // And the link's state is the one drawn.
  await page.waitForSelector("body[data-ready=true]");
  assert.match(
    await page.textContent("#table"),
    /16384 × 4096 values shown on/,
  );
  assert.deepEqual(errors, []);
  await context.close();
});
