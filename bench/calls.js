// The cost of one call, from one token to the largest tables: the library
// (a plan made once, and the one-shot function) against the best
// hand-written JS loop, timed in this process into reused buffers. Small
// calls are timed in batches; every figure is a median, every verdict a
// ratio of this run. `node bench/calls.js` (make bench); `--garbage` is
// the child run that counts the bytes a plan call leaves to the collector.
import { spawnSync } from "node:child_process";
import { getHeapSpaceStatistics } from "node:v8";
import { fileURLToPath } from "node:url";
import {
  createRope,
  createTable,
  init,
  rope,
  ropeFrequencies,
  table,
} from "../dist/index.js";
import { LLAMA3 } from "./llama3.js";
import * as internals from "../build/internals.js";

await init();
await internals.init();

const HEADS = 32;
const DIM = 128;
const LLAMA3_128 = { dim: DIM, ...LLAMA3 };
const ROPE = { ...LLAMA3_128, heads: HEADS, order: "bshd" };
const { inverseFrequencies } = ropeFrequencies(LLAMA3_128);

// The best JS loop for RoPE on a batch × seq × heads × dim float32 tensor
// in place: each token's rotaryDim / 2 sin and cos once, then every head
// turned with them in double, rounded once on the store.
function jsRope(x, first, tokens) {
  const h = DIM / 2;
  const cos = new Float64Array(h);
  const sin = new Float64Array(h);
  return () => {
    for (let t = 0; t < tokens; t++) {
      const p = first + t;
      for (let i = 0; i < h; i++) {
        const a = p * inverseFrequencies[i];
        cos[i] = Math.cos(a);
        sin[i] = Math.sin(a);
      }
      for (let head = 0; head < HEADS; head++) {
        const o = (t * HEADS + head) * DIM;
        for (let i = 0; i < h; i++) {
          const x1 = x[o + i];
          const x2 = x[o + i + h];
          x[o + i] = x1 * cos[i] - x2 * sin[i];
          x[o + i + h] = x2 * cos[i] + x1 * sin[i];
        }
      }
    }
  };
}

// The best JS loop for a table into a reused array: the paper's w_i once,
// then sin and cos of every angle.
// Both start each call at a new position, as rows of a growing cache do
// (and sin 0, cos 0 would be free).
function jsTable(out, count, dim) {
  const h = dim >> 1;
  const w = Float64Array.from({ length: h }, (_, i) =>
    Math.pow(10000, (-2 * i) / dim),
  );
  let start = 1000;
  return () => {
    start = (start + 1) & 4095;
    let k = 0;
    for (let p = start; p < start + count; p++)
      for (let i = 0; i < h; i++) {
        out[k++] = Math.sin(p * w[i]);
        out[k++] = Math.cos(p * w[i]);
      }
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

// Calls of fn per batch of at least ~2 ms, after a warm-up that lets V8
// optimise both the JS and the wasm.
function batchOf(fn) {
  let batch = 1;
  const warm = performance.now() + 300;
  while (performance.now() < warm) for (let i = 0; i < batch; i++) fn();
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    if (performance.now() - start >= 2 || batch >= 2 ** 20) break;
    batch *= 2;
  }
  return batch;
}

// Median µs per call of each of fns, timed batch by batch in turn, round
// after round, so that all of them see the same machine: a shared machine's
// speed drifts between one function's rounds and the next's.
function perCall(fns, runs = 9) {
  const batches = fns.map(batchOf);
  const times = fns.map(() => []);
  for (let r = 0; r < runs; r++)
    fns.forEach((fn, k) => {
      const start = performance.now();
      for (let i = 0; i < batches[k]; i++) fn();
      times[k].push(((performance.now() - start) * 1000) / batches[k]);
    });
  return times.map(median);
}

const verdicts = { pass: 0, fail: 0 };
// "2.1× faster (target ≥ 1.5× faster: pass)" for the ratio js / library.
function speedup(library, js, atLeast) {
  const ratio = js / library;
  const text =
    ratio >= 1
      ? `${ratio.toFixed(2)}× faster`
      : `${(1 / ratio).toFixed(2)}× slower`;
  if (atLeast === undefined) return text;
  const pass = ratio >= atLeast;
  verdicts[pass ? "pass" : "fail"]++;
  const target =
    atLeast >= 1
      ? `≥ ${atLeast}× faster`
      : `at most ${+(1 / atLeast).toPrecision(3)}× slower`;
  return `${text} (target ${target}: ${pass ? "pass" : "FAIL"})`;
}

const fmt = (us) =>
  us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`;

let floorLine = "";

function ropeCurve() {
  console.log(
    `rope, ${HEADS} heads × ${DIM}, llama3, bshd, float32, in place (per call)`,
  );
  console.log(
    "| tokens | plan | one-shot | JS loop | plan vs JS | one-shot vs JS |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const tokens of [1, 4, 16, 64, 256, 1024, 2048]) {
    const x = Float32Array.from(
      { length: tokens * HEADS * DIM },
      (_, i) => Math.sin(i) / 64,
    );
    const plan = createRope(ROPE);
    const inPlace = { inPlace: true };
    let p = 1000;
    const options = { ...ROPE, inPlace: true };
    const [viaPlan, oneShot, js, floor] = perCall([
      () => plan.apply(x, (p = (p + 1) & 4095), inPlace),
      () => rope(x, (p = (p + 1) & 4095), options),
      jsRope(x, 1000, tokens),
      ...(tokens === 1 ? [decodeFloor(x)] : []),
    ]);
    if (floor !== undefined)
      floorLine = `the core alone for one token (copy in, pe_rope, copy out; no JS layer): ${fmt(floor)}, ${speedup(floor, js)} than the JS loop`;
    plan.dispose();
    const planTarget = tokens === 1 ? 3 : undefined;
    const oneShotTarget =
      tokens === 1 ? 1 / 2.5 : tokens >= 64 ? 2.5 : undefined;
    console.log(
      `| ${tokens} | ${fmt(viaPlan)} | ${fmt(oneShot)} | ${fmt(js)} | ${speedup(viaPlan, js, planTarget)} | ${speedup(oneShot, js, oneShotTarget)} |`,
    );
  }
  console.log(`\n${floorLine}`);
}

function tableCurve() {
  console.log("\ntable, float32, paper schedule, into a reused out (per call)");
  console.log(
    "| positions × dim | plan | one-shot | JS loop | plan vs JS | one-shot vs JS |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [count, dim, target, planTarget] of [
    [1, 128, undefined, 1],
    [16, 128],
    [64, 64, 1.5],
    [512, 768, 10],
    [2048, 1024],
    [8192, 4096],
  ]) {
    const out = new Float32Array(count * dim);
    const plan = createTable({ dim });
    const call = { start: 0, out };
    const options = { positions: count, start: 0, dim, out };
    const [viaPlan, oneShot, js] = perCall(
      [
        () => {
          call.start = (call.start + 1) & 4095;
          return plan.rows(count, call);
        },
        () => {
          options.start = (options.start + 1) & 4095;
          return table(options);
        },
        jsTable(out, count, dim),
      ],
      5,
    );
    plan.dispose();
    console.log(
      `| ${count} × ${dim} | ${fmt(viaPlan)} | ${fmt(oneShot)} | ${fmt(js)} | ${speedup(viaPlan, js, planTarget)} | ${speedup(oneShot, js, target)} |`,
    );
  }
}

// Bytes a call allocates once V8 has optimised it: the growth of the young
// generation over many calls, in a child whose young generation is fixed
// large enough that no collection runs while they are counted (a
// collection would hide what it collected; heapUsed alone would too).
function garbage() {
  const calls = 100000;
  const x = new Float32Array(HEADS * DIM).fill(0.25);
  const plan = createRope(ROPE);
  const inPlace = { inPlace: true };
  const tablePlan = createTable({ dim: DIM });
  const out = new Float32Array(DIM);
  const listCall = { out };
  const countCall = { start: 0, out };
  const young = () =>
    getHeapSpaceStatistics().find(
      ({ space_name }) => space_name === "new_space",
    ).space_used_size;
  const measureBytes = (fn) => {
    for (let i = 0; i < 50000; i++) fn(i);
    globalThis.gc();
    const before = young();
    for (let i = 0; i < calls; i++) fn(i);
    const after = young();
    if (after < before) throw new Error("a collection ran while counting");
    return (after - before) / calls;
  };
  const rope = measureBytes((i) => plan.apply(x, 1000 + (i & 4095), inPlace));
  const byCount = measureBytes((i) => {
    countCall.start = i & 4095;
    return tablePlan.rows(1, countCall);
  });
  const byList = measureBytes((i) => tablePlan.rows([i & 4095], listCall));
  console.log(
    `allocated per call: rope plan (one decode token, { inPlace: true }) ${rope.toFixed(0)} B; table plan, one row into out: rows(1, { start, out }) ${byCount.toFixed(0)} B, rows([p], { out }) ${byList.toFixed(0)} B`,
  );
}

// The floor under a decode token: the core's call alone on memory set up
// once, with the copy in and out a plan makes, and no JS layer (no option,
// position or row is read or checked). What a plan adds is the distance
// to it; what the kernel costs, the distance from it to the JS loop.
function decodeFloor(x) {
  const exports = internals.wasm();
  const pairs = DIM / 2;
  const omega = exports.malloc(pairs * 8);
  const data = exports.malloc(HEADS * DIM * 4);
  new Float64Array(exports.memory.buffer, omega, pairs).set(inverseFrequencies);
  const region = new Float32Array(exports.memory.buffer, data, HEADS * DIM);
  let p = 1000;
  return () => {
    region.set(x);
    p = (p + 1) & 4095;
    // out, in, float32, rows, dim, rotary, heads, span, no list, the
    // position, halves, frequencies, pairs, scale 1, attention 1.
    const status = exports.pe_rope(
      ...[data, data, 0, HEADS, DIM, DIM, HEADS, 1, 0, p, 1],
      ...[omega, pairs, 1, 1],
    );
    if (status !== 0) throw new Error(`pe_rope: status ${status}`);
    x.set(region);
  };
}

if (process.argv.includes("--garbage")) garbage();
else {
  ropeCurve();
  tableCurve();
  const child = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--min-semi-space-size=256",
      "--max-semi-space-size=256",
      fileURLToPath(import.meta.url),
      "--garbage",
    ],
    { encoding: "utf8" },
  );
  process.stdout.write(child.stdout + child.stderr);
  console.log(
    `\ncall-cost targets: ${verdicts.pass} passed, ${verdicts.fail} failed (medians of this run)`,
  );
}
