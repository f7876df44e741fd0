// What the page says against what its pictures show, in Chromium: the RoPE
// dials' captions agree with the prose's (m − n)·ωᵢ and write their minus
// signs as the prose does, the cross terms' sentence compares with s = 0
// (and says so at s = 0 itself) and its slider shows its value, the p slider
// can be dragged a turn at a time and steps by what suits p, and each
// section's download menu offers the charts it shows, each under its own name.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { setControl, settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

const WIDE = { viewport: { width: 1400, height: 900 } };

test("each RoPE dial states (m − n)·ωᵢ, and the hands' angle is the one before rotation plus it", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}&rope.m=5&rope.n=2`,
      ...WIDE,
    });
    await settle(page);
    for (let i = 0; i < 4; i++) {
      const dial = page.locator(`[data-testid=rope-dial-${i}]`);
      const caption = await dial.locator("xpath=..").textContent();
      // Base 10000, head dim 8: ωᵢ = 10000^(−2i/8), in float64 here.
      const turn = 3 * 10000 ** (-i / 4);
      const numbers = caption
        .match(/−?-?\d+(\.\d+)?(e[-+]?\d+)?/g)
        .map((s) => Number(s.replace("−", "-")));
      assert.ok(
        numbers.some((v) => Math.abs(v - turn) <= 5e-4 * Math.abs(turn)),
        `pair ${i} caption "${caption}" states (m − n)·ω = ${turn}`,
      );
      const before = Number(await dial.getAttribute("data-before"));
      const between = Number(await dial.getAttribute("data-between"));
      const gap = before + turn - between;
      const offTurn = gap - 2 * Math.PI * Math.round(gap / (2 * Math.PI));
      assert.ok(Math.abs(offTurn) < 1e-5, `pair ${i}: ${gap}`);
      // Both angles are in the caption: before and after.
      const angle = (v) =>
        numbers.some((n) => Math.abs(n - v) <= 5e-3 * Math.max(1, Math.abs(v)));
      const reduce = (v) => v - 2 * Math.PI * Math.round(v / (2 * Math.PI));
      assert.ok(angle(reduce(before)), `pair ${i}: before ${before}`);
      assert.ok(angle(between), `pair ${i}: after ${between}`);
    }
    // The prose no longer calls (m − n)·ωᵢ the angle between the hands.
    const prose = await page.textContent("#rope");
    assert.doesNotMatch(prose, /angle between the two hands, \(m − n\)/);
    assert.doesNotMatch(prose, /两根指针之间的夹角 \(m − n\)/);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("the cross terms compare with s = 0 and the s slider shows its value", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    ...WIDE,
  });
  const shift = page.locator("[data-testid=crossterm-shift]");
  await shift.fill("7");
  await settle(page);
  const summary = await page.textContent("[data-testid=crossterm-summary]");
  assert.match(summary, /^Compared with s = 0, /);
  assert.doesNotMatch(summary, /Since s = 0/);
  const shown = page.locator("[data-testid=crossterm-shift-value]");
  assert.equal((await shown.textContent()).trim(), "s = 7");
  // The two scores against s, charted, each named in the legend.
  const chart = page.locator("figure:has([data-testid=crossterm-chart])");
  assert.deepEqual(await chart.locator(".legend li").allTextContents(), [
    "score with positions added",
    "score with RoPE instead",
  ]);
  assert.match(await chart.locator("figcaption").textContent(), /0 to 200/);
  assert.equal(
    await shift.getAttribute("aria-valuetext"),
    "s = 7, m = 12, n = 9",
  );
  assert.deepEqual(errors, []);
  await close();
});

test("the RoPE dials write negative numbers with the minus sign", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}&rope.m=2&rope.n=5`,
      ...WIDE,
    });
    await settle(page);
    const captions = await page
      .locator("#rope .sec-dial figcaption")
      .allTextContents();
    assert.equal(captions.length, 4);
    for (const caption of captions) {
      // m − n = −3: every pair's turn is negative.
      assert.match(caption, /= −\d/, caption);
      assert.doesNotMatch(caption, /-\d/, caption);
    }
    assert.deepEqual(errors, []);
    await close();
  }
});

test("the cross terms at s = 0 say the scores are the starting ones, not a change", async () => {
  const words = { en: /changed by|not changed/, zh: /变化/ };
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
      ...WIDE,
    });
    await settle(page);
    const summary = page.locator("[data-testid=crossterm-summary]");
    assert.doesNotMatch(await summary.textContent(), words[lang]);
    assert.match(await summary.textContent(), /s = 0/);
    await page.locator("[data-testid=crossterm-shift]").fill("3");
    assert.match(await summary.textContent(), words[lang]);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("the p slider turns a position at a time near 0, shows tidy values and steps by p's size", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&relation.p=5",
    ...WIDE,
  });
  await settle(page);
  const slider = page.locator("[data-testid=relation-p-slider]");
  const box = await slider.boundingBox();
  const max = Number(await slider.getAttribute("max"));
  // The value 10 px from the left end of the track: at most 5 positions a px.
  const at = async (px) => {
    await slider.evaluate(
      (input, value) => {
        input.value = String(value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      },
      (px / box.width) * max,
    );
    return page.inputValue("[data-testid=relation-p]");
  };
  for (const px of [3, 10, 40]) {
    const text = await at(px);
    assert.match(text, /^\d+(\.\d{1,2})?$/, `shown "${text}"`);
    assert.ok(Number(text) <= 5 * px, `${px} px: p = ${text}`);
  }
  // Half the track still reaches beyond 1000; the end is 100000.
  assert.ok(Number(await at(box.width / 2)) > 1000);
  assert.equal(await at(box.width), "100000");
  // Arrow keys: one position near 5, ten near 100, ten thousand near 10⁵.
  const keyFrom = async (p, key) => {
    await page.fill("[data-testid=relation-p]", String(p));
    await slider.focus();
    await page.keyboard.press(key);
    return Number(await page.inputValue("[data-testid=relation-p]"));
  };
  assert.equal(await keyFrom(5, "ArrowRight"), 6);
  assert.equal(await keyFrom(5, "ArrowLeft"), 4);
  assert.equal(await keyFrom(100, "ArrowUp"), 110);
  assert.equal(await keyFrom(50000, "ArrowDown"), 49000);
  assert.equal(await keyFrom(100, "PageUp"), 200);
  assert.equal(await slider.getAttribute("aria-valuetext"), "p = 200");
  assert.deepEqual(errors, []);
  await close();
});

/** The section's download menu opened afresh: its visible buttons. */
async function menu(page, id) {
  const details = page.locator(`#${id} [data-testid=downloads]`);
  if (await details.evaluate((d) => d.open))
    await details.evaluate((d) => {
      d.open = false;
    });
  // The names are written on the toggle event, which follows the click.
  const toggled = details.evaluate(
    (d) =>
      new Promise((resolve) =>
        d.addEventListener("toggle", resolve, { once: true }),
      ),
  );
  await details.locator("summary").click();
  await toggled;
  return details
    .locator("button:visible")
    .evaluateAll((buttons) =>
      buttons.map((b) => ({ text: b.textContent, id: b.dataset.testid })),
    );
}

test("download menus offer the charts shown, each under its own caption", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    ...WIDE,
  });
  await settle(page);
  for (const id of ["dot", "extension", "curves", "table", "relation"]) {
    const labels = (await menu(page, id)).map((b) => b.text);
    assert.equal(new Set(labels).size, labels.length, `${id}: ${labels}`);
  }
  // A new list of dimensions: the menu follows it.
  await page.fill("[data-testid=curves-dimensions]", "1, 2");
  await page.press("[data-testid=curves-dimensions]", "Enter");
  await settle(page);
  const columns = (await menu(page, "curves")).filter((b) =>
    b.id.startsWith("png-column-"),
  );
  assert.deepEqual(
    columns.map((b) => b.id),
    ["png-column-1", "png-column-2"],
  );
  for (const b of columns) assert.match(b.text, /^PNG: j = [12]: /);
  // At dim 6 each label states the period its chart's caption states.
  await setControl(page, "dim", 6);
  await page.fill("[data-testid=curves-dimensions]", "0, 4");
  await page.press("[data-testid=curves-dimensions]", "Enter");
  await settle(page);
  const labels = await menu(page, "curves");
  for (const j of [0, 4]) {
    const caption = await page.textContent(
      `#curves [data-testid=curves-column-${j}] >> xpath=ancestor::figure[1]/figcaption`,
    );
    const label = labels.find((b) => b.id === `png-column-${j}`).text;
    assert.equal(label, `PNG: ${caption.replace(/\s+/g, " ").trim()}`);
    // Period 2π/ω of pair j/2 at base 10000 and dim 6.
    const period = (2 * Math.PI) / 10000 ** (-j / 6);
    assert.match(label, new RegExp(`period ${Number(period.toPrecision(4))}`));
  }
  // Extension's scheme changes remake its charts: the menu keeps two.
  const scheme = page.locator("#extension select").first();
  const values = await scheme
    .locator("option")
    .evaluateAll((os) => os.map((o) => o.value));
  for (const v of values) await scheme.selectOption(v);
  await settle(page);
  assert.equal((await menu(page, "extension")).length, 2);
  assert.deepEqual(errors, []);
  await close();
});

test("numbers are written one way, and checks read as sentences with their tolerance folded", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}&relation.p=3&relation.k=5`,
      ...WIDE,
    });
    await settle(page);
    // No 5.96e-8 anywhere in the prose: small numbers read 5.96 × 10⁻⁸.
    const eNotation = await page.evaluate(() => {
      const found = [];
      const walker = document.createTreeWalker(
        document.querySelector("main"),
        NodeFilter.SHOW_TEXT,
      );
      while (walker.nextNode()) {
        const node = walker.currentNode;
        if (node.parentElement.closest("code, pre, math")) continue;
        const match = node.textContent.match(/\d(\.\d+)?e[-+]?\d+/);
        if (match) found.push(match[0]);
      }
      return found;
    });
    assert.deepEqual(eNotation, []);
    for (const id of [
      "relation-max-error",
      "toeplitz-max-error",
      "rope-max-error",
    ]) {
      const row = page.locator(`.result:has([data-testid=${id}])`);
      // The tolerance is folded away; the sentence names no pass or fail.
      const tolerance = row.locator("details.tolerance");
      assert.equal(await tolerance.evaluate((d) => d.open), false);
      assert.equal(await tolerance.locator(".caption").isVisible(), false);
      const sentence = await row.locator("p").textContent();
      assert.doesNotMatch(
        sentence,
        /\b(pass|fail)\b|allowed|tolerance|通过|容差/,
      );
      assert.match(sentence, /m − n|relation holds|关系成立/);
      await tolerance.locator("summary").click();
      assert.ok(await tolerance.locator(".caption").isVisible());
    }
    assert.deepEqual(errors, []);
    await close();
  }
});

test("play stops once the reader scrolls its section out of view", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&relation.p=5",
    ...WIDE,
  });
  await settle(page);
  const play = page.locator("[data-testid=relation-play]");
  await play.scrollIntoViewIfNeeded();
  await play.click();
  await page.waitForFunction(
    () => Number(document.querySelector("[data-testid=relation-p]").value) > 5,
  );
  assert.equal(await play.getAttribute("aria-pressed"), "true");
  // Far away: the precision section, near the page's end.
  await page.locator("#precision").scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () =>
      document
        .querySelector("[data-testid=relation-play]")
        .getAttribute("aria-pressed") === "false",
  );
  const p = await page.inputValue("[data-testid=relation-p]");
  await page.waitForTimeout(300);
  assert.equal(await page.inputValue("[data-testid=relation-p]"), p);
  assert.deepEqual(errors, []);
  await close();
});

test("the sentence box starts in the page's language, a word repeated", async () => {
  for (const [lang, pattern] of [
    ["en", /^[a-z ]+$/],
    ["zh", /^[\u4e00-\u9fff ]+$/],
  ]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
    });
    const text = await page.inputValue("[data-testid=tokens-input]");
    assert.match(text, pattern);
    // The embedding scale the demo leaves out is named.
    assert.match(await page.textContent("#tokens"), /√d_model/);
    const words = text.split(" ");
    assert.ok(new Set(words).size < words.length, text);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("zoomed in, the relation's charts show each pair as a point, not a line", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&relation.pairs=8",
    ...WIDE,
  });
  await settle(page);
  const markers = await page.$$eval("#relation canvas[data-markers]", (list) =>
    list.map((c) => Number(c.dataset.markers)),
  );
  // Three series (both sides and the mistake) of 8 pairs in each chart.
  assert.deepEqual(markers, [24, 24]);
  assert.deepEqual(errors, []);
  await close();
});
