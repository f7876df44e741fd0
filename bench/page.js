// The page's redraw cost in Chromium: script time per update of every
// section, read from the performance measures the page records around each
// redraw ("pe-update", one per section too), over repeated changes of the
// base, at the default size and at 4096 × 1024. Five runs of each, each in a
// fresh page: the run with the middle median is printed, with the fastest
// update of all runs. On a shared machine the others' work lands in random
// updates, so the load average is printed too.
import { loadavg } from "node:os";
import { launch } from "../tests/browser/launch.js";

const SIZES = [
  { name: "default (512 × 128)", hash: "" },
  { name: "4096 × 1024", hash: "#dim=4096&positions=1024" },
];
const UPDATES = 15;
const RUNS = 5;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
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
  const times = await page.evaluate(async (updates) => {
    const base = document.querySelector('[data-testid="control-base"]');
    const frame = () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(resolve)),
      );
    await frame();
    performance.clearMeasures();
    for (let u = 0; u < updates; u++) {
      base.value = String(10000 + (u % 2) * 10);
      base.dispatchEvent(new Event("input", { bubbles: true }));
      await frame();
    }
    const byName = {};
    for (const entry of performance.getEntriesByType("measure"))
      (byName[entry.name] ??= []).push(entry.duration);
    return byName;
  }, UPDATES);
  await close();
  return times;
}

console.log(`load average before: ${load()}`);
const chromium = await launch();
try {
  for (const size of SIZES) {
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await run(chromium, size));
    const medians = runs.map((times) => median(times["pe-update"] ?? []));
    const middle = runs[medians.indexOf(median(medians))];
    const total = middle["pe-update"];
    const fastest = Math.min(...runs.flatMap((times) => times["pe-update"]));
    console.log(
      `page update, ${size.name}: ${median(total).toFixed(1)} ms median (middle of ${RUNS} runs: ${medians
        .map((m) => m.toFixed(1))
        .join(
          ", ",
        )}), ${fastest.toFixed(1)} ms fastest, ${total.length} updates a run`,
    );
    const parts = Object.entries(middle)
      .filter(([name]) => name.startsWith("pe-update:"))
      .map(([name, list]) => `${name.slice(10)} ${median(list).toFixed(1)}`);
    console.log(`  per section (ms): ${parts.join(" | ")}`);
  }
} finally {
  await chromium.close();
}
console.log(`load average after: ${load()}`);
