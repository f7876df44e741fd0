// This build against an older one: large tables, caches, rows at listed
// positions, RoPE, the decay integral and Ci, each timed in this build and
// in an older build of the package given as an argument (a dist/index.js),
// alternated in one process so that both see the same machine state.
// Prints ns per value of each and the ratio new / old; a second argument
// keeps the workloads whose names contain it. Not a test.
//   node bench/builds.js ../old-checkout/dist/index.js [filter]
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as current from "../dist/index.js";
import { LLAMA3 } from "./llama3.js";

const oldPath = process.argv[2];
if (!oldPath) {
  console.error("usage: node bench/builds.js <older dist/index.js> [filter]");
  process.exit(2);
}
const older = await import(pathToFileURL(resolve(oldPath)).href);
await current.init();
await older.init();

// The fastest of many runs: on a shared machine the slow runs are other
// processes' time, not the build's.
const fastest = (xs) => Math.min(...xs);

// Per-run times of both builds, interleaved run by run after a warm-up.
function alternate(makeRun, { runs = 31, warmMs = 300 } = {}) {
  const runs2 = [makeRun(current), makeRun(older)];
  for (const run of runs2) {
    const until = performance.now() + warmMs;
    do run();
    while (performance.now() < until);
  }
  const times = [[], []];
  for (let r = 0; r < runs; r++)
    for (let k = 0; k < 2; k++) {
      const t0 = performance.now();
      runs2[k]();
      times[k].push(performance.now() - t0);
    }
  return times.map(fastest);
}

const llama3 = { dim: 128, ...LLAMA3 };
const tokens = Array.from({ length: 512 }, (_, k) => 7 + k * 13);
const scattered = Array.from({ length: 512 }, (_, k) => (k * 7919) % 65521);
const workloads = [
  [
    "table 8192 × 768, count, out",
    8192 * 768,
    (m) => {
      const out = new Float32Array(8192 * 768);
      return () => m.table({ positions: 8192, dim: 768, out });
    },
  ],
  [
    "table 65536 × 128, count, view",
    65536 * 128,
    (m) => () => m.table({ positions: 65536, dim: 128, view: true }),
  ],
  [
    "table 8192 × 768, halves, start 1000",
    8192 * 768,
    (m) => {
      const out = new Float32Array(8192 * 768);
      return () =>
        m.table({
          positions: 8192,
          start: 1000,
          dim: 768,
          layout: "halves",
          out,
        });
    },
  ],
  [
    "ropeCache llama3 32768 × 64, half, out",
    2 * 32768 * 64,
    (m) => {
      const out = {
        cos: new Float32Array(32768 * 64),
        sin: new Float32Array(32768 * 64),
      };
      return () => m.ropeCache({ ...llama3, positions: 32768, out });
    },
  ],
  [
    "ropeCache llama3 8192 × 128, duplicated, out",
    2 * 8192 * 128,
    (m) => {
      const out = {
        cos: new Float32Array(8192 * 128),
        sin: new Float32Array(8192 * 128),
      };
      return () =>
        m.ropeCache({ ...llama3, positions: 8192, layout: "duplicated", out });
    },
  ],
  [
    "table 512 scattered positions × 768",
    512 * 768,
    (m) => () => m.table({ positions: scattered, dim: 768, view: true }),
  ],
  [
    "table 512 evenly spaced listed positions × 768",
    512 * 768,
    (m) => () => m.table({ positions: tokens, dim: 768, view: true }),
  ],
  [
    "rope 512 tokens × 32 heads × 128",
    512 * 32 * 128,
    (m) => {
      const q = new Float32Array(512 * 32 * 128).fill(0.5);
      return () =>
        m.rope(q, 512, { ...llama3, heads: 32, order: "bshd", out: q });
    },
  ],
  [
    "rope 2048 tokens × 1 head × 128",
    2048 * 128,
    (m) => {
      const q = new Float32Array(2048 * 128).fill(0.5);
      return () =>
        m.rope(q, 2048, { ...llama3, heads: 1, order: "bshd", out: q });
    },
  ],
  [
    "decayIntegral exp base 10000, 10000 points, out",
    10000,
    (m) => {
      const out = new Float64Array(10000);
      const x = { from: 0, to: 2000, count: 10000 };
      return () => m.decayIntegral({ theta: "exp", base: 10000, x, out });
    },
  ],
  [
    "decayIntegral power alpha 0.5, 10000 points, out",
    10000,
    (m) => {
      const out = new Float64Array(10000);
      const x = { from: 0, to: 2000, count: 10000 };
      return () => m.decayIntegral({ theta: "power", alpha: 0.5, x, out });
    },
  ],
  [
    "decayIntegral exp quadrature, 1000 points",
    1000,
    (m) => () =>
      m.decayIntegral({
        theta: "exp",
        x: { from: 0, to: 2000, count: 1000 },
        method: "quadrature",
      }),
  ],
  [
    "ci 10000 points, out",
    10000,
    (m) => {
      const x = Float64Array.from({ length: 10000 }, (_, i) => 0.01 + i * 0.37);
      const out = new Float64Array(10000);
      return () => m.ci(x, { out });
    },
  ],
];

console.log("workload | new ns/value | old ns/value | new / old");
const only = process.argv[3];
for (const [name, values, make] of workloads) {
  if (only && !name.includes(only)) continue;
  const [now, before] = alternate(make);
  const ns = (ms) => ((ms * 1e6) / values).toFixed(3);
  console.log(
    `${name} | ${ns(now)} | ${ns(before)} | ${(now / before).toFixed(3)}`,
  );
}
