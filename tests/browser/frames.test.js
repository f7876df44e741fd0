// The page's frames in Chromium: a drag runs the library's plans only (the
// page marks every call that reads options on the performance timeline),
// plans are made when the options change and the superseded ones ended,
// every plan of the sections a language toggle replaces ended with them,
// the timeline's entries bounded, a change drawn at once only where the
// reader is, and one draw queue is the page's only
// requestAnimationFrame scheduler: at no moment of drags, play, cursor moves
// and heatmap binning does the page wait on more than one frame callback.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { settle, settleInView, setControl } from "./settle.js";
import { count, recordTimeline, timelineSeen } from "./timeline.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

/** Forgets the entries seen so far. */
const clearCalls = (page) =>
  page.evaluate(() => {
    window.timelineSeen().length = 0;
  });

/** The library calls marked since the last clear, by name: { name: count }. */
const calls = async (page, kind = "pe-call:") =>
  count(await timelineSeen(page), kind);

/** Moves a slider through values, one input event a frame, as a drag does. */
function drag(page, testid, values) {
  return page.$eval(
    `[data-testid="${testid}"]`,
    (input, values) =>
      new Promise((resolve) => {
        let i = 0;
        const next = () => {
          if (i === values.length) return resolve();
          input.value = String(values[i++]);
          input.dispatchEvent(new Event("input", { bubbles: true }));
          setTimeout(next, 20);
        };
        next();
      }),
    values,
  );
}

const steps = (from, to, n) =>
  Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));

test("dragging p, k, RoPE's positions and the cross terms' shift runs plans only", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=256",
    init: recordTimeline,
  });
  const p = () => page.inputValue("[data-testid=relation-p]");
  const score = () => page.getAttribute("[data-testid=rope-qk]", "data-after");
  const before = { p: await p(), score: await score() };
  // The marks are there to see: a new dim makes every section's plans anew.
  await clearCalls(page);
  await setControl(page, "dim", "128");
  const made = await calls(page);
  assert.ok(
    made.createTable >= 2 && made.createRope >= 2,
    JSON.stringify(made),
  );
  await clearCalls(page);
  await drag(page, "relation-p-slider", steps(100, 400, 12));
  await drag(page, "relation-k-slider", steps(3, 40, 12));
  await drag(page, "rope-shift", steps(0, 30, 12));
  await drag(page, "crossterm-shift", steps(0, 30, 12));
  await settle(page);
  // Each drag moved what it drives...
  assert.notEqual(await p(), before.p);
  assert.equal(
    await page.textContent("[data-testid=relation-badge]"),
    "the relation holds",
  );
  assert.equal(await page.inputValue("[data-testid=rope-m]"), "35");
  // ...with no library call that reads its options again.
  assert.deepEqual(await calls(page), {});
  assert.deepEqual(errors, []);
  await close();
});

test("a change draws the sections on screen; one off screen draws it when it comes into view", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    init: recordTimeline,
    viewport: { width: 1400, height: 900 },
  });
  await page.evaluate(() => document.getElementById("table").scrollIntoView());
  await settleInView(page);
  await clearCalls(page);
  await page.fill("[data-testid=control-dim]", "64");
  await settleInView(page);
  const drawn = async () => count(await timelineSeen(page), "pe-update:");
  const first = await drawn();
  // The table, on screen, drew the change; decay and the sections past it,
  // screens below, did not, and wait marked stale.
  assert.ok(first.table >= 1, JSON.stringify(first));
  for (const id of ["decay", "rope", "extension", "precision"])
    assert.equal(first[id], undefined, `${id}: ${JSON.stringify(first)}`);
  assert.equal(await page.$$eval("#decay[data-stale]", (l) => l.length), 1);
  const decayText = () => page.textContent("#decay");
  assert.match(await decayText(), /dim d = 128\b/);
  // Scrolled to, decay draws the latest state, once.
  await page.evaluate(() => document.getElementById("decay").scrollIntoView());
  await page.waitForFunction(
    () => !document.getElementById("decay").hasAttribute("data-stale"),
  );
  await settleInView(page);
  assert.equal((await drawn()).decay, 1);
  assert.match(await decayText(), /dim d = 64\b/);
  assert.deepEqual(errors, []);
  await close();
});

test("printing draws the sections left stale off screen first", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    viewport: { width: 1400, height: 900 },
  });
  await page.fill("[data-testid=control-dim]", "64");
  await settleInView(page);
  const stale = await page.$$eval("section[data-stale]", (list) =>
    list.map((section) => section.id),
  );
  assert.ok(stale.includes("decay"), stale.join(" "));
  assert.match(await page.textContent("#decay"), /dim d = 128\b/);
  await page.pdf();
  assert.equal(await page.$$eval("section[data-stale]", (l) => l.length), 0);
  assert.match(await page.textContent("#decay"), /dim d = 64\b/);
  assert.deepEqual(errors, []);
  await close();
});

test("the heatmap's readout and a large table's binning run the table plan only", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=1024&positions=4096",
    init: recordTimeline,
  });
  await clearCalls(page);
  const heatmap = page.locator("[data-testid=heatmap]");
  await heatmap.scrollIntoViewIfNeeded();
  const box = await heatmap.boundingBox();
  for (let i = 0; i < 10; i++)
    await page.mouse.move(box.x + 80 + 20 * i, box.y + 40 + 10 * i);
  assert.match(await page.textContent("#table .readout"), /\d/);
  assert.deepEqual(await calls(page), {});
  // A new base: a new plan for each section that has one, and each older
  // one ended, and the large table binned over frames with the new plan.
  await setControl(page, "base", "20000");
  const made = await calls(page);
  const ended = await calls(page, "pe-dispose:");
  assert.ok(made.createTable >= 2, JSON.stringify(made));
  assert.ok(made.createRope >= 1, JSON.stringify(made));
  assert.deepEqual(ended, {
    createTable: made.createTable,
    createRope: made.createRope,
  });
  assert.equal(
    await page.getAttribute("[data-testid=heatmap]", "data-complete"),
    "true",
  );
  assert.deepEqual(errors, []);
  await close();
});

/**
 * Clicks the language toggle, marked "toggle" on the timeline in the same
 * task; with `binning`, once the table's heatmap is being binned over
 * frames. Returns whether it was then.
 */
const toggle = (page, { binning = false } = {}) =>
  page.evaluate(async (binning) => {
    const heatmap = document.querySelector("[data-testid=heatmap]");
    while (binning && heatmap.dataset.complete !== "false")
      await new Promise((resolve) => requestAnimationFrame(resolve));
    performance.mark("toggle");
    document.querySelector("[data-testid=lang-toggle]").click();
    return heatmap.dataset.complete === "false";
  }, binning);

/**
 * The plans alive at the last toggle (made and not yet disposed), and those
 * disposed since, by function: { alive, ended }.
 */
async function plansAtToggle(page) {
  const seen = await timelineSeen(page);
  const at = seen.lastIndexOf("toggle");
  const made = count(seen.slice(0, at), "pe-call:");
  const disposed = count(seen.slice(0, at), "pe-dispose:");
  const alive = {};
  for (const [name, n] of Object.entries(made))
    if (name.startsWith("create") && n > (disposed[name] ?? 0))
      alive[name] = n - (disposed[name] ?? 0);
  return { alive, ended: count(seen.slice(at + 1), "pe-dispose:") };
}

test("a language toggle ends every plan of the sections it replaces, and their drawings", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    init: recordTimeline,
  });
  // Each plan alive at the toggle is disposed then, once: the plans alive
  // after it are those the new sections made. The charts taken out of the
  // page (their size changes as they leave it) draw no more.
  await toggle(page);
  await settle(page);
  let plans = await plansAtToggle(page);
  assert.ok(
    plans.alive.createTable >= 2 && plans.alive.createRope >= 3,
    JSON.stringify(plans.alive),
  );
  assert.deepEqual(plans.ended, plans.alive);
  assert.equal(await page.getAttribute("html", "lang"), "zh-Hans");
  // Toggled back while a large table's new plan is binned over frames: the
  // rest of its binning is dropped with the plan.
  await setControl(page, "dim", "2048");
  await setControl(page, "positions", "8192");
  await page.fill("[data-testid=control-base]", "20000");
  await page.press("[data-testid=control-base]", "Enter");
  assert.equal(await toggle(page, { binning: true }), true);
  await settle(page);
  plans = await plansAtToggle(page);
  assert.ok(plans.alive.createTable >= 2, JSON.stringify(plans.alive));
  assert.deepEqual(plans.ended, plans.alive);
  assert.equal(await page.getAttribute("html", "lang"), "en");
  assert.equal(
    await page.getAttribute("[data-testid=heatmap]", "data-complete"),
    "true",
  );
  assert.deepEqual(errors, []);
  await close();
});

/**
 * Run before the page's scripts: window.watching() is the number of
 * ResizeObservers that observe something and have not been disconnected.
 */
function countResizeObservers() {
  const Native = window.ResizeObserver;
  let watching = 0;
  window.ResizeObserver = class extends Native {
    #on = false;
    observe(...args) {
      if (!this.#on) watching++;
      this.#on = true;
      return super.observe(...args);
    }
    disconnect() {
      if (this.#on) watching--;
      this.#on = false;
      return super.disconnect();
    }
  };
  window.watching = () => watching;
}

test("charts taken out of the page stop watching their size", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    init: countResizeObservers,
  });
  const watching = () => page.evaluate(() => window.watching());
  const first = await watching();
  assert.ok(first >= 10, String(first));
  // Each toggle makes every chart anew; the old ones leave the page.
  for (let n = 0; n < 4; n++) {
    await toggle(page);
    await settle(page);
  }
  assert.ok((await watching()) <= first, `${await watching()} > ${first}`);
  assert.deepEqual(errors, []);
  await close();
});

test("the timeline keeps a bounded number of the page's marks and measures", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    init: recordTimeline,
  });
  // A long session: one change of the base after another, each drawn
  // where the table is in view, until the page has made more than a
  // thousand of each kind.
  await page.evaluate(() => document.getElementById("table").scrollIntoView());
  const kept = await page.evaluate(async () => {
    const base = document.querySelector("[data-testid=control-base]");
    const enough = () => {
      const names = window.timelineSeen();
      const of = (pattern) => names.filter((n) => pattern.test(n)).length;
      return (
        of(/^pe-(call|dispose):/) > 1000 && of(/^pe-(step|update)\b/) > 1000
      );
    };
    for (let n = 1; n <= 2000 && !enough(); n++) {
      base.value = String(1000 + 100 * n);
      base.dispatchEvent(new Event("input", { bubbles: true }));
      do await new Promise((r) => requestAnimationFrame(r));
      while (document.body.dataset.ready !== "true");
    }
    const ours = (type) =>
      performance
        .getEntriesByType(type)
        .filter((entry) => entry.name.startsWith("pe-")).length;
    return { marks: ours("mark"), measures: ours("measure") };
  });
  const seen = (await timelineSeen(page)).filter((name) =>
    name.startsWith("pe-"),
  );
  const made = {
    marks: seen.filter((name) => /^pe-(call|dispose):/.test(name)).length,
    measures: seen.filter((name) => /^pe-(step|update)\b/.test(name)).length,
  };
  assert.ok(made.marks > 1000 && made.measures > 1000, JSON.stringify(made));
  assert.ok(kept.marks <= 1000 && kept.measures <= 1000, JSON.stringify(kept));
  assert.deepEqual(errors, []);
  await close();
});

test("one draw queue: never more than one frame callback waits, through drags, play, cursors and binning", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=2048&positions=8192",
  });
  // From here on, every requestAnimationFrame of the page is counted while
  // it waits.
  await page.evaluate(() => {
    const request = window.requestAnimationFrame.bind(window);
    const cancel = window.cancelAnimationFrame.bind(window);
    const waiting = new Set();
    window.framesSeen = { most: 0, requests: 0 };
    window.requestAnimationFrame = (callback) => {
      const id = request((time) => {
        waiting.delete(id);
        callback(time);
      });
      waiting.add(id);
      window.framesSeen.requests++;
      window.framesSeen.most = Math.max(window.framesSeen.most, waiting.size);
      return id;
    };
    window.cancelAnimationFrame = (id) => {
      waiting.delete(id);
      cancel(id);
    };
  });
  const pause = (ms) => page.waitForTimeout(ms);
  await page.click("[data-testid=relation-play]");
  await page.click("[data-testid=rope-play]");
  await drag(page, "relation-k-slider", steps(3, 20, 8));
  await page.fill("[data-testid=control-base]", "12000");
  await page.press("[data-testid=control-base]", "Enter");
  const sines = page.locator("[data-testid=relation-sines]");
  await sines.scrollIntoViewIfNeeded();
  const box = await sines.boundingBox();
  for (let i = 0; i < 8; i++)
    await page.mouse.move(box.x + 60 + 20 * i, box.y + box.height / 2);
  await pause(300);
  const seen = await page.evaluate(() => window.framesSeen);
  assert.ok(seen.requests > 10, JSON.stringify(seen));
  assert.equal(seen.most, 1, JSON.stringify(seen));
  assert.deepEqual(errors, []);
  await close();
});

test("in the page's sources, only the draw queue calls requestAnimationFrame", () => {
  const web = fileURLToPath(new URL("../../web/", import.meta.url));
  const files = readdirSync(web, { recursive: true }).filter((name) =>
    name.endsWith(".js"),
  );
  const callers = files.filter((name) =>
    /requestAnimationFrame\s*\(/.test(readFileSync(join(web, name), "utf8")),
  );
  assert.deepEqual(callers, ["draw-queue.js"]);
});
