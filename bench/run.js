// `make bench`: medians of repeated runs and ratios against baselines
// measured in the same process. Not a test: machines here are shared and
// noisy, so only ratios within one run are meaningful.
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { init, table } from "../dist/index.js";

await init();

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// V8 runs new wasm code in its baseline tier and moves a function to
// optimised code only after it has run for a while; a call that started in
// the baseline tier stays there. Warming up for this long puts every
// workload (and the JS baselines) in its steady state; first calls are
// measured apart, in bench/first-call.js.
const WARM_UP_MS = 250;

/** Median wall time in ms of fn() over `runs` runs, after warming up. */
export function measure(fn, { runs = 7 } = {}) {
  const warm = performance.now() + WARM_UP_MS;
  do fn();
  while (performance.now() < warm);
  const times = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

const verdicts = { pass: 0, fail: 0 };

// A ratio ms / baseline, and its target `max` (the largest allowed ratio)
// with pass or fail; below 1 both read as "N× faster".
function ratioText(ratio, max) {
  const text =
    ratio < 1 ? `${(1 / ratio).toFixed(1)}× faster` : `${ratio.toFixed(2)}×`;
  if (max === undefined) return text;
  const pass = ratio <= max;
  verdicts[pass ? "pass" : "fail"]++;
  const wanted =
    max < 1 ? `≥ ${+(1 / max).toPrecision(3)}× faster` : `≤ ${max}×`;
  return `${text} (target ${wanted}: ${pass ? "pass" : "FAIL"})`;
}

/**
 * Prints a workload's median against named baselines { ms, max }, where max
 * is the target: the largest allowed ratio of the workload to the baseline.
 */
export function report(workload, ms, baselines) {
  const parts = Object.entries(baselines).map(
    ([name, { ms: base, max }]) =>
      `${name} ${base.toFixed(2)} ms → ${ratioText(ms / base, max)}`,
  );
  console.log(`${workload}: ${ms.toFixed(2)} ms | ${parts.join(" | ")}`);
}

// The physical limit: writing the same bytes into the module's memory.
function fillBaseline(count, dim) {
  const view = table({ positions: count, dim, view: true });
  return measure(() => view.fill(0.5));
}

// What a page would do without the library.
function jsLoop(positions, dim) {
  const out = new Float32Array(positions.length * dim);
  const h = dim >> 1;
  const w = Array.from({ length: h }, (_, i) =>
    Math.pow(10000, (-2 * i) / dim),
  );
  return () => {
    let k = 0;
    for (let j = 0; j < positions.length; j++) {
      const p = positions[j];
      for (let i = 0; i < h; i++) {
        out[k++] = Math.sin(p * w[i]);
        out[k++] = Math.cos(p * w[i]);
      }
    }
    return out;
  };
}

const range = (n) => Float64Array.from({ length: n }, (_, i) => i);

// Targets: large tables within 2× the time of filling their bytes, and a
// 512 × 768 view at least 10× faster than the JS loop.
console.log("table, float32, paper schedule, interleaved, view");
for (const [count, dim, targets] of [
  [512, 768, { js: 0.1 }],
  [8192, 4096, { fill: 2 }],
  [131072, 512, { fill: 2 }],
]) {
  const ms = measure(() => table({ positions: count, dim, view: true }));
  const fill = fillBaseline(count, dim);
  const js = measure(jsLoop(range(count), dim), { runs: 3 });
  report(`${count}×${dim}`, ms, {
    fill: { ms: fill, max: targets.fill },
    "JS loop": { ms: js, max: targets.js },
  });
}
{
  // Random positions: an evenly spaced array would take the recurrence.
  let seed = 1;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const positions = Float64Array.from({ length: 4096 }, () => random() * 15000);
  const ms = measure(() => table({ positions, dim: 768, view: true }));
  const js = measure(jsLoop(positions, 768), { runs: 5 });
  report("4096 random fractional positions × 768", ms, {
    fill: { ms: fillBaseline(4096, 768) },
    "JS loop": { ms: js, max: 0.2 },
  });
}

// Non-view tables: a new array per call (its first-touch page faults are
// part of the cost) or the caller's reused `out`, beside the view. Target:
// a reused `out` within 3× the fill of the same bytes.
console.log("\ntable 8192×4096, float32: a new array, a reused out, a view");
{
  const [count, dim] = [8192, 4096];
  const fill = { ms: fillBaseline(count, dim) };
  const out = new Float32Array(count * dim);
  report(
    "reused out",
    measure(() => table({ positions: count, dim, out })),
    { fill: { ...fill, max: 3 } },
  );
  report(
    "new array (default)",
    measure(() => table({ positions: count, dim }), { runs: 5 }),
    { fill },
  );
  report(
    "view",
    measure(() => table({ positions: count, dim, view: true })),
    { fill },
  );
}

// Peak memory: a fresh instance per workload; its memory only ever grows,
// so its final size is the peak.
console.log("\npeak module memory (fresh instance, view result)");
for (const [count, dim] of [
  [512, 768],
  [8192, 4096],
  [131072, 512],
]) {
  // The entries share dist/library.js: a copy of them in a directory of
  // its own is an instance of its own.
  const dir = mkdtempSync(join(tmpdir(), "pe-bench-"));
  for (const file of ["index.js", "slim.js", "library.js"])
    copyFileSync(new URL(`../dist/${file}`, import.meta.url), join(dir, file));
  const copy = await import(pathToFileURL(join(dir, "index.js")).href);
  await copy.init();
  const view = copy.table({ positions: count, dim, view: true });
  const total = view.buffer.byteLength;
  const extra = (total - view.byteLength) / 2 ** 20;
  console.log(
    `${count}×${dim}: output ${(view.byteLength / 2 ** 20).toFixed(1)} MiB, memory ${(total / 2 ** 20).toFixed(1)} MiB, overhead ${extra.toFixed(1)} MiB`,
  );
}

for (const extra of ["relation.js", "decay.js", "rope.js"]) {
  const url = new URL(extra, import.meta.url);
  if (!existsSync(url)) continue;
  console.log(`\n${extra.replace(".js", "")}`);
  await (await import(url)).run({ measure, report });
}

console.log(
  `\ntargets: ${verdicts.pass} passed, ${verdicts.fail} failed (medians of this run)`,
);
