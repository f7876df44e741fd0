// The page's responsiveness in Chromium, as a reader feels it: every shared
// control and the sections' own controls changed in turn at three sizes,
// each change given time to settle, while a PerformanceObserver records
// long tasks (main-thread tasks over 50 ms: script, style, layout, paint and
// the canvases' commit, not script alone) and requestAnimationFrame records
// the gaps between frames. Printed per size: the longest task, the number of
// long tasks, the median, 95th percentile and worst frame gap, and the time
// until every section showed the new value, with the load average over the
// size's runs. Three runs of each size in a fresh page; the run with the
// middle longest task is printed. On a shared machine the others' work lands
// in random tasks, which is why the load average stands beside each figure;
// a trace of the renderer's main thread gives each task's CPU time too,
// which the others' work does not lengthen: the page's own cost.
// Beside each size, a fresh load of its link, measured the same way from
// the navigation on: long tasks, the longest, the worst frame gap, and the
// time until every section has drawn and every heatmap has binned its last
// row (three loads; the one with the middle longest task is printed).
// Last, a 60-move drag of the p slider and 60 changes of the base, one a
// frame: their script and rendering time (page-drag.js).
import { loadavg } from "node:os";
import { launch } from "../tests/browser/launch.js";
import { dragLine } from "./page-drag.js";

const SIZES = [
  { name: "default (512 × 128)", hash: "" },
  { name: "1024 × 4096", hash: "#dim=4096&positions=1024" },
  { name: "16384 × 4096 (largest)", hash: "#dim=4096&positions=16384" },
];
// Each shared control, two values it alternates between; at the large
// sizes dim and positions step down by one instead, keeping their size.
const SHARED = [
  ["control-base", ["10010", "10000"]],
  ["control-dim", ["64", "128"]],
  ["control-positions", ["500", "512"]],
  ["control-start", ["7", "0"]],
  ["control-layout", ["halves", "interleaved"]],
  ["control-preset", ["paper", "custom"]],
];
// The sections' own controls, by test id.
const OWN = [
  ["tokens-input", ["a cat sat", "the cat sat on the mat"]],
  ["curves-positions", ["0, 5, 50", "0, 10, 100"]],
  ["relation-k", ["7", "3"]],
  ["relation-p-slider", ["300", "100"]],
  ["curves-span", ["all", "fit"]],
  ["rope-shift", ["20", "0"]],
  ["crossterm-shift", ["50", "0"]],
  ["rope-pairing", ["interleaved", "halves"]],
  ["rope-m", ["9", "5"]],
  ["decay-view", ["long", "short"]],
  ["scaling-scheme", ["yarn", "linear"]],
];
const RUNS = Number(process.env.RUNS ?? 3);
const SETTLE_MS = 600;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/**
 * Tasks of the renderer's main thread in a Chromium trace: the longest by
 * wall-clock time and by CPU time, and how many took over 50 ms of CPU.
 */
function mainThreadTasks(trace) {
  const events = trace.traceEvents ?? trace;
  // The page's renderer: the process whose events name the page's script
  // (the browser may run other renderers of its own meanwhile).
  const pids = new Set(
    events
      .filter((e) => e.args?.data?.url?.endsWith("/page.js"))
      .map((e) => e.pid),
  );
  const main = new Set(
    events
      .filter(
        (e) =>
          e.name === "thread_name" &&
          e.args?.name === "CrRendererMain" &&
          pids.has(e.pid),
      )
      .map((e) => `${e.pid}/${e.tid}`),
  );
  let wall = 0;
  let cpu = 0;
  let over = 0;
  for (const e of events)
    if (e.name === "RunTask" && main.has(`${e.pid}/${e.tid}`)) {
      wall = Math.max(wall, (e.dur ?? 0) / 1000);
      cpu = Math.max(cpu, (e.tdur ?? 0) / 1000);
      if ((e.tdur ?? 0) > 50000) over++;
    }
  return { wall, cpu, over };
}

async function run(chromium, size) {
  const { page, close } = await chromium.open("index.html", {
    hash: size.hash,
    viewport: { width: 1280, height: 900 },
  });
  await chromium.browser.startTracing(page, {
    categories: ["disabled-by-default-devtools.timeline"],
  });
  const result = await page.evaluate(
    async ({ changes, settle, big }) => {
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      await wait(settle);
      const tasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          tasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: "longtask", buffered: false });
      const gaps = [];
      let last = performance.now();
      let running = true;
      const tick = (now) => {
        gaps.push(now - last);
        last = now;
        if (running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      const perChange = [];
      for (const [testid, values] of changes) {
        const input = document.querySelector(`[data-testid="${testid}"]`);
        const sized =
          testid === "control-dim" || testid === "control-positions";
        const list =
          big && sized
            ? values.map((_, i) => String(Number(input.value) - i))
            : values;
        for (const value of list) {
          const from = tasks.length;
          const start = performance.now();
          input.value = value;
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
          // Settled: every section drawn with the new value and every
          // heatmap binned to its last row.
          const done = () =>
            document.body.dataset.ready === "true" &&
            !document.querySelector("canvas[data-complete=false]");
          await new Promise((r) => requestAnimationFrame(r));
          while (!done() && performance.now() - start < settle * 10)
            await new Promise((r) => requestAnimationFrame(r));
          const settledAt = performance.now();
          await wait(60);
          const mine = tasks.slice(from).map((t) => t.duration);
          perChange.push({
            testid,
            worst: mine.length ? Math.max(...mine) : 0,
            count: mine.length,
            settle: settledAt - start,
          });
        }
      }
      running = false;
      return { perChange, gaps };
    },
    {
      changes: [...SHARED, ...OWN],
      settle: SETTLE_MS,
      big: size.hash !== "",
    },
  );
  const trace = await chromium.browser.stopTracing();
  result.cpu = mainThreadTasks(JSON.parse(trace.toString()));
  await close();
  return result;
}

/** A fresh load of the size's link, observed from its first script on. */
async function load(chromium, size) {
  const context = await chromium.browser.newContext({
    locale: "en-US",
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen = (window.peLoad = { tasks: [], gaps: [] });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) seen.tasks.push(entry.duration);
    }).observe({ type: "longtask" });
    let last = performance.now();
    const tick = (now) => {
      seen.gaps.push(now - last);
      last = now;
      if (!seen.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await chromium.browser.startTracing(page, {
    categories: ["disabled-by-default-devtools.timeline"],
  });
  await page.goto(`${chromium.origin}/index.html${size.hash}`);
  const result = await page.evaluate(
    () =>
      new Promise((resolve) => {
        let drawn = null;
        const check = () => {
          const now = performance.now();
          if (drawn === null && document.body.dataset.ready === "true")
            drawn = now;
          if (
            drawn !== null &&
            !document.querySelector("canvas[data-complete=false]")
          ) {
            window.peLoad.stop = true;
            resolve({ ...window.peLoad, drawn, binned: now });
          } else requestAnimationFrame(check);
        };
        check();
      }),
  );
  const trace = await chromium.browser.stopTracing();
  result.cpu = mainThreadTasks(JSON.parse(trace.toString()));
  await context.close();
  return result;
}

const longestOf = (load) => Math.max(0, ...load.tasks);

function loadLine(loads) {
  const longests = loads.map(longestOf);
  const middle = loads[longests.indexOf(median(longests))];
  return (
    `  fresh load of the link: longest task ${longestOf(middle).toFixed(0)} ms (runs: ${longests
      .map((w) => w.toFixed(0))
      .join(", ")}), ${middle.tasks.length} long tasks; ` +
    `worst frame gap ${Math.max(...middle.gaps).toFixed(0)} ms; ` +
    `every section drawn at ${middle.drawn.toFixed(0)} ms, every heatmap binned at ${middle.binned.toFixed(0)} ms; ` +
    `main thread CPU time: longest task ${middle.cpu.cpu.toFixed(0)} ms (runs: ${loads
      .map((l) => l.cpu.cpu.toFixed(0))
      .join(", ")}), tasks over 50 ms of CPU: ${middle.cpu.over}`
  );
}

const worstOf = (run) => Math.max(...run.perChange.map((c) => c.worst));

function perControl(run, list) {
  return list
    .map(([testid]) => {
      const mine = run.perChange.filter((c) => c.testid === testid);
      const worst = Math.max(...mine.map((c) => c.worst));
      const count = mine.reduce((n, c) => n + c.count, 0);
      const settle = Math.max(...mine.map((c) => c.settle));
      return `${testid.replace("control-", "")} ${worst.toFixed(0)}/${count}/${settle.toFixed(0)}`;
    })
    .join(" | ");
}

const chromium = await launch();
try {
  for (const size of SIZES) {
    const loadBefore = loadavg()[0];
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await run(chromium, size));
    const loadAfter = loadavg()[0];
    const worsts = runs.map(worstOf);
    const middle = runs[worsts.indexOf(median(worsts))];
    const gaps = middle.gaps;
    const longTasks = middle.perChange.reduce((n, c) => n + c.count, 0);
    console.log(
      `page, ${size.name} (load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}): ` +
        `longest task ${worstOf(middle).toFixed(0)} ms (runs: ${worsts
          .map((w) => w.toFixed(0))
          .join(
            ", ",
          )}), ${longTasks} long tasks in ${middle.perChange.length} changes; ` +
        `frame gap median ${median(gaps).toFixed(1)} ms, 95th percentile ${percentile(
          gaps,
          0.95,
        ).toFixed(0)} ms, worst ${Math.max(...gaps).toFixed(0)} ms; ` +
        `settled within ${Math.max(...middle.perChange.map((c) => c.settle)).toFixed(0)} ms`,
    );
    console.log(
      `  main thread CPU time: longest task ${middle.cpu.cpu.toFixed(0)} ms (runs: ${runs
        .map((r) => r.cpu.cpu.toFixed(0))
        .join(", ")}), tasks over 50 ms of CPU: ${middle.cpu.over}`,
    );
    console.log(
      "  shared controls (longest task ms / long tasks / settled ms): " +
        perControl(middle, SHARED),
    );
    console.log("  section controls: " + perControl(middle, OWN));
    const loadsBefore = loadavg()[0];
    const loads = [];
    for (let r = 0; r < RUNS; r++) loads.push(await load(chromium, size));
    console.log(
      loadLine(loads) +
        ` (load average ${loadsBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)})`,
    );
  }
  console.log(await dragLine(chromium));
} finally {
  await chromium.close();
}
