// A drag of the relation's p slider as a reader makes it: 60 pointer moves,
// one a frame, across the slider's first half at 1400 × 900, traced; and,
// from the same place, 60 changes of the shared base, one a frame, as typing
// or a script makes them (every section follows the base). Printed for
// each: the renderer main thread's time in script (event handlers, frame
// callbacks, timers) and in rendering (style, layout, paint, layerizing and
// the commit to the compositor), each the union of its events' intervals so
// nested events count once; the median of three runs in fresh pages.
// Standalone: node bench/page-drag.js; bench/page.js prints it too.
import { fileURLToPath } from "node:url";
import { launch } from "../tests/browser/launch.js";

const MOVES = 60;
const RUNS = Number(process.env.RUNS ?? 3);
const SCRIPT = new Set([
  "EventDispatch",
  "FireAnimationFrame",
  "TimerFire",
  "FunctionCall",
  "RunMicrotasks",
]);
const RENDERING = new Set([
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "PaintImage",
  "Layerize",
  "Commit",
  "RasterTask",
]);

/** The total length of the union of [start, end) intervals, in ms. */
function union(intervals) {
  intervals.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [from, to] = [-Infinity, -Infinity];
  for (const [start, end] of intervals) {
    if (start > to) {
      if (to > from) total += to - from;
      [from, to] = [start, end];
    } else to = Math.max(to, end);
  }
  if (to > from) total += to - from;
  return total / 1000;
}

function timeIn(trace) {
  const events = trace.traceEvents ?? trace;
  const main = new Set(
    events
      .filter(
        (e) => e.name === "thread_name" && e.args?.name === "CrRendererMain",
      )
      .map((e) => `${e.pid}/${e.tid}`),
  );
  const script = [];
  const rendering = [];
  for (const e of events) {
    if (e.ph !== "X" || !main.has(`${e.pid}/${e.tid}`)) continue;
    const span = [e.ts, e.ts + (e.dur ?? 0)];
    if (SCRIPT.has(e.name)) script.push(span);
    else if (RENDERING.has(e.name)) rendering.push(span);
  }
  return { script: union(script), rendering: union(rendering) };
}

/** Traces act(page, frame) on a fresh page with the p slider in view. */
async function traced(chromium, act) {
  const { page, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    viewport: { width: 1400, height: 900 },
  });
  const slider = page.locator("[data-testid=relation-p-slider]");
  await slider.scrollIntoViewIfNeeded();
  const frame = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  await frame();
  await page.waitForTimeout(500);
  const box = await slider.boundingBox();
  await chromium.browser.startTracing(page, {
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"],
  });
  await act(page, frame, box);
  await frame();
  await frame();
  const trace = await chromium.browser.stopTracing();
  await close();
  return timeIn(JSON.parse(trace.toString()));
}

async function drag(page, frame, box) {
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 4, y);
  await page.mouse.down();
  for (let i = 1; i <= MOVES; i++) {
    await page.mouse.move(box.x + 4 + (i / MOVES) * (box.width / 2), y);
    await frame();
  }
  await page.mouse.up();
}

async function changeBase(page, frame) {
  for (let i = 1; i <= MOVES; i++) {
    await page.$eval(
      "[data-testid=control-base]",
      (input, value) => {
        input.value = value;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      },
      String(10000 + 10 * i),
    );
    await frame();
  }
}

const median = (values) =>
  [...values].sort((a, b) => a - b)[values.length >> 1];

/** The median run's script and rendering, and every run's. */
async function medianOf(chromium, act) {
  const runs = [];
  for (let r = 0; r < RUNS; r++) runs.push(await traced(chromium, act));
  const script = median(runs.map((r) => r.script));
  const rendering = median(runs.map((r) => r.rendering));
  return (
    `script ${script.toFixed(0)} ms, rendering (style, layout, paint, commit) ${rendering.toFixed(0)} ms ` +
    `(medians of ${RUNS}; runs: ${runs
      .map((r) => `${r.script.toFixed(0)}/${r.rendering.toFixed(0)}`)
      .join(", ")})`
  );
}

/** The lines bench/page.js prints: the drag, then the base's changes. */
export async function dragLine(chromium) {
  return (
    `page, a ${MOVES}-move drag of the p slider at 1400 × 900: ` +
    (await medianOf(chromium, drag)) +
    `\npage, ${MOVES} changes of the base, one a frame, from the same place: ` +
    (await medianOf(chromium, changeBase))
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const chromium = await launch();
  try {
    console.log(await dragLine(chromium));
  } finally {
    await chromium.close();
  }
}
