// The page's responsiveness in Chromium, as a reader feels it: every shared
// control changed in turn at three sizes, each change given time to settle,
// while a PerformanceObserver records long tasks (main-thread tasks over
// 50 ms) and requestAnimationFrame records the gaps between frames. Printed
// per size: the longest task and the number of long tasks per change, the
// median and worst frame gap, and the time until every section showed the
// new value. Three
// runs of each size in a fresh page; the run with the middle worst task is
// printed. On a shared machine the others' work lands in random tasks, so
// the load average is printed too.
import { loadavg } from "node:os";
import { launch } from "../tests/browser/launch.js";

const SIZES = [
  { name: "default (512 × 128)", hash: "" },
  { name: "1024 × 4096", hash: "#dim=4096&positions=1024" },
  { name: "16384 × 4096 (largest)", hash: "#dim=4096&positions=16384" },
];
// Each control, two values it alternates between.
const CHANGES = [
  ["base", ["10010", "10000"]],
  ["dim", ["64", "128"]],
  ["positions", ["500", "512"]],
  ["start", ["7", "0"]],
  ["layout", ["halves", "interleaved"]],
  ["preset", ["paper", "custom"]],
];
const RUNS = Number(process.env.RUNS ?? 3);
const SETTLE_MS = 600;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(", ");

async function run(chromium, size) {
  const { page, close } = await chromium.open("index.html", {
    hash: size.hash,
    viewport: { width: 1280, height: 900 },
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
      for (const [key, values] of changes) {
        // At the large sizes dim and positions keep their size.
        const list =
          big && (key === "dim" || key === "positions")
            ? values.map((v, i) =>
                String(
                  Number(
                    document.querySelector(`[data-testid="control-${key}"]`)
                      .value,
                  ) - i,
                ),
              )
            : values;
        for (const value of list) {
          const input = document.querySelector(
            `[data-testid="control-${key}"]`,
          );
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
            key,
            worst: mine.length ? Math.max(...mine) : 0,
            count: mine.length,
            settle: settledAt - start,
          });
        }
      }
      running = false;
      return { perChange, gaps };
    },
    { changes: CHANGES, settle: SETTLE_MS, big: size.hash !== "" },
  );
  await close();
  return result;
}

console.log(`load average before: ${load()}`);
const chromium = await launch();
try {
  for (const size of SIZES) {
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await run(chromium, size));
    const worstOf = (run) => Math.max(...run.perChange.map((c) => c.worst));
    const worsts = runs.map(worstOf);
    const middle = runs[worsts.indexOf(median(worsts))];
    console.log(
      `page, ${size.name}: longest task ${worstOf(middle).toFixed(0)} ms (runs: ${worsts
        .map((w) => w.toFixed(0))
        .join(
          ", ",
        )}); frame gap median ${median(middle.gaps).toFixed(1)} ms, worst ${Math.max(
        ...middle.gaps,
      ).toFixed(0)} ms`,
    );
    const byKey = {};
    for (const change of middle.perChange)
      (byKey[change.key] ??= []).push(change);
    console.log(
      "  per control (longest task ms / long tasks / settled ms): " +
        Object.entries(byKey)
          .map(
            ([key, list]) =>
              `${key} ${Math.max(...list.map((c) => c.worst)).toFixed(0)}/${list.reduce(
                (n, c) => n + c.count,
                0,
              )}/${Math.max(...list.map((c) => c.settle)).toFixed(0)}`,
          )
          .join(" | "),
    );
  }
} finally {
  await chromium.close();
}
console.log(`load average after: ${load()}`);
