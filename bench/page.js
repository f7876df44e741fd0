// The page's redraw cost in Chromium: script time per update of every
// section, read from the performance measures the page records around each
// redraw ("pe-update", one per section too). Medians over repeated changes of
// the base, at the default size and at 4096 × 1024, and the fastest update:
// on a shared machine the others' work lands in random updates.
import { launch } from "../tests/browser/launch.js";

const SIZES = [
  { name: "default (512 × 128)", hash: "" },
  { name: "4096 × 1024", hash: "#dim=4096&positions=1024" },
];
const UPDATES = 15;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const chromium = await launch();
try {
  for (const size of SIZES) {
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
    const total = times["pe-update"] ?? [];
    console.log(
      `page update, ${size.name}: ${median(total).toFixed(1)} ms median, ${Math.min(...total).toFixed(1)} ms fastest, over ${total.length} updates`,
    );
    const parts = Object.entries(times)
      .filter(([name]) => name.startsWith("pe-update:"))
      .map(([name, list]) => `${name.slice(10)} ${median(list).toFixed(1)}`);
    console.log(`  per section (ms): ${parts.join(" | ")}`);
    await close();
  }
} finally {
  await chromium.close();
}
