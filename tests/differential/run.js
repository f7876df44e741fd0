// Differential check: the same seeded random cases through the native build
// (tests/differential/native.c) and through the shipped .wasm, whose raw
// exports are called here with the same arguments; results are compared.
//
// Where every angle stays in the fast range of the vector sin/cos (|angle| ≤
// 1e8), tables, rotations, dot products and RoPE caches run the same IEEE
// additions and
// multiplications in both builds (SIMDe maps each wasm SIMD operation to an
// SSE2 one that rounds the same, and neither build fuses a multiply and an
// add), and so do the paper schedule's frequencies (double-double arithmetic
// only) and the rope types that only divide and blend them (default, linear,
// llama3, longrope's frequencies): those results must be identical bit for
// bit. So must every schedule and every rope type (dynamic, yarn, the
// computed attention factors): their exp, log and pow are the core's own
// (exp_log.c), not libm's. Larger angles, the decay integral, Ci and Si
// call libm's sin and cos (glibc natively, musl in the wasm), which may
// differ by an ulp: those are compared to their documented tolerance.
//
// usage: node tests/differential/run.js NATIVE_BINARY WASM CASES [SEED]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROPE_PARAMETER_SLOTS, ROPE_TYPES } from "../../build/constants.js";

const [nativeBinary, wasmPath, casesArg, seedArg] = process.argv.slice(2);
const CASES = Number(casesArg ?? 2000);
const SEED = Number(seedArg ?? 1);
const FAST_LIMIT = 1e8;

const KINDS = [
  "table_f32",
  "table_f64",
  "rotate_f32",
  "rotate_f64",
  "rope_f32",
  "rotation_matrix",
  "dot_products",
  "decay_integral",
  "ci",
  "si",
  "frequencies",
  "rope_frequencies",
  "rope_cache",
  "mrope_cache",
  "mrope_rope",
];
const KIND = Object.fromEntries(KINDS.map((name, i) => [name, i]));
const F32_KINDS = new Set([
  KIND.table_f32,
  KIND.rotate_f32,
  KIND.rope_f32,
  KIND.mrope_rope,
]);

// ---- seeded random numbers (xorshift128+ on BigInt-free 32-bit halves) ----

let state = [SEED ^ 0x9e3779b9, 0x243f6a88, 0x85a308d3, 0x13198a2e];
function next32() {
  let t = state[3];
  let s = state[0];
  state[3] = state[2];
  state[2] = state[1];
  state[1] = s;
  t ^= t << 11;
  t ^= t >>> 8;
  state[0] = t ^ s ^ (s >>> 19);
  return state[0] >>> 0;
}
for (let k = 0; k < 16; k++) next32();
const uniform = () => (next32() * 2 ** 21 + (next32() >>> 11)) / 2 ** 53;
const int = (lo, hi) => lo + Math.floor(uniform() * (hi - lo + 1));
const pick = (values) => values[int(0, values.length - 1)];
const logUniform = (lo, hi) =>
  Math.exp(Math.log(lo) + uniform() * Math.log(hi / lo));
const signed = (v) => (uniform() < 0.5 ? -v : v);

// Positions: small integers, fractions, and large values up to 2^60,
// including powers of two and their neighbours.
function position() {
  switch (int(0, 4)) {
    case 0:
      return int(-1000, 100000);
    case 1:
      return signed(uniform() * 1000);
    case 2:
      return signed(logUniform(1e-6, 1e8));
    case 3:
      return signed(logUniform(1e8, 2 ** 60));
    default:
      return signed(2 ** int(0, 60) + int(-2, 2));
  }
}

function paperOmega(dim, n, base) {
  return Array.from({ length: n }, (_, i) => Math.pow(base, (-2 * i) / dim));
}

// The rope parameter array (NaN: absent) of a valid configuration of each
// type, as real configs have them; sometimes one value is spoilt.
const ROPE = Object.fromEntries(
  ROPE_PARAMETER_SLOTS.map((name, slot) => [name, slot]),
);

function ropeParameters(type) {
  const p = new Array(ROPE_PARAMETER_SLOTS.length).fill(NaN);
  const maybe = (name, value) => {
    if (uniform() < 0.5) p[ROPE[name]] = value;
  };
  const length = () => pick([2048, 4096, 8192, 32768, int(1, 200000)]);
  switch (ROPE_TYPES[type]) {
    case "linear":
      p[ROPE.factor] = pick([2, 4, 8, logUniform(1, 100)]);
      break;
    case "dynamic":
      p[ROPE.factor] = pick([2, 4, logUniform(1, 100)]);
      p[ROPE.maxPositionEmbeddings] = length();
      maybe("seqLen", int(0, 4 * p[ROPE.maxPositionEmbeddings]));
      break;
    case "yarn": {
      p[ROPE.factor] = pick([4, 8, 32, logUniform(1, 100)]);
      p[
        uniform() < 0.8
          ? ROPE.originalMaxPositionEmbeddings
          : ROPE.maxPositionEmbeddings
      ] = length();
      const fast = logUniform(1, 64);
      maybe("betaFast", fast);
      maybe("betaSlow", logUniform(0.1, fast));
      maybe("attentionFactor", logUniform(0.5, 2));
      maybe("mscale", pick([0, 0.707, 1, uniform() * 2]));
      maybe("mscaleAllDim", pick([0, 0.707, 1, uniform() * 2]));
      maybe("truncate", int(0, 1));
      break;
    }
    case "longrope":
      p[ROPE.maxPositionEmbeddings] = pick([131072, length()]);
      if (uniform() < 0.5)
        p[ROPE.originalMaxPositionEmbeddings] = pick([4096, length()]);
      else p[ROPE.factor] = logUniform(1, 64);
      maybe("seqLen", int(0, 2 * p[ROPE.maxPositionEmbeddings]));
      maybe("attentionFactor", logUniform(0.5, 2));
      break;
    case "llama3": {
      p[ROPE.factor] = pick([8, 32, logUniform(1, 100)]);
      const low = pick([1, logUniform(0.1, 8)]);
      p[ROPE.lowFreqFactor] = low;
      p[ROPE.highFreqFactor] = pick([4, low * logUniform(1.001, 16)]);
      p[ROPE.originalMaxPositionEmbeddings] = length();
      // Computed by the source with a warning: highFreqFactor < low.
      if (uniform() < 0.1) p[ROPE.highFreqFactor] = low * uniform();
      break;
    }
    case "proportional":
      maybe("factor", pick([1, 8, logUniform(1, 100)]));
      maybe("partialRotaryFactor", pick([0.25, 0.5, 1, uniform()]));
      break;
  }
  // A factor below 1, which the source computes with a warning.
  if (!Number.isNaN(p[ROPE.factor]) && uniform() < 0.05)
    p[ROPE.factor] = uniform();
  if (uniform() < 0.1)
    p[int(0, ROPE_PARAMETER_SLOTS.length - 1)] = pick([
      ...[NaN, -1, 0, 0.5, 1, 1e308, Infinity],
    ]);
  return p;
}

function frequencyCount(dim, oddDim) {
  return Math.floor(dim / 2) + (dim % 2 === 1 && oddDim === 1 ? 1 : 0);
}

// One case: a header and its arrays. `omega` is given explicitly so that
// both builds rotate by the very same frequencies.
function makeCase() {
  const kind = pick([
    ...[0, 0, 1, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 9, 10, 11, 12, 12, 13, 14],
  ]);
  const c = {
    kind,
    dim: uniform() < 0.85 ? int(1, 80) : int(81, 700),
    count: 0,
    layout: int(0, 3),
    oddDim: int(0, 1),
    variant: 0,
    start: 0,
    scale: uniform() < 0.7 ? 1 : logUniform(1e-3, 1e3),
    amplitude: uniform() < 0.7 ? 1 : signed(logUniform(1e-3, 1e3)),
    base: 10000,
    alpha: 1,
    step: 1,
    omega: [],
    points: [],
    input: [],
    nOut: 0,
  };
  const base = uniform() < 0.5 ? 10000 : logUniform(2, 1e9);
  c.omega = paperOmega(c.dim, frequencyCount(c.dim, c.oddDim), base);
  const rowsLimit = Math.max(1, Math.floor(20000 / c.dim));
  const evenly = uniform() < 0.3;
  const pointsOf = (n) => {
    if (evenly) {
      const first = position();
      const step = pick([1, -1, 0.5, 3, logUniform(1e-3, 1e3)]);
      return Array.from({ length: n }, (_, j) => first + j * step);
    }
    return Array.from({ length: n }, position);
  };
  switch (kind) {
    case KIND.table_f32:
    case KIND.table_f64:
      c.count = int(1, Math.min(300, rowsLimit));
      c.start = position();
      if (uniform() < 0.6) c.points = pointsOf(c.count);
      c.nOut = c.count * c.dim;
      break;
    case KIND.rope_f32:
      c.dim += c.dim % 2;
      c.omega = paperOmega(c.dim, c.dim / 2, base);
      c.variant = int(0, 1);
    // falls through: rows, angles and inputs as for rotate
    case KIND.rotate_f32:
    case KIND.rotate_f64:
      c.oddDim = 0; // an odd dim rotates with a zero column
      c.omega = paperOmega(c.dim, Math.floor(c.dim / 2), base);
      c.count = int(1, Math.min(300, rowsLimit));
      c.start = position();
      if (uniform() < 0.7) c.points = pointsOf(c.count);
      c.input = Array.from({ length: c.count * c.dim }, () =>
        signed(uniform() < 0.9 ? uniform() : logUniform(1e-30, 1e30)),
      );
      c.nOut = c.count * c.dim;
      break;
    case KIND.rotation_matrix:
      c.dim = int(1, 64);
      c.oddDim = 0;
      c.omega = paperOmega(c.dim, Math.floor(c.dim / 2), base);
      c.start = position();
      c.nOut = c.dim * c.dim;
      break;
    case KIND.dot_products:
      c.count = int(1, 600);
      c.start = position();
      c.step = pick([1, 0.5, logUniform(1e-3, 1e3)]);
      if (uniform() < 0.5) c.points = pointsOf(c.count);
      c.nOut = c.count;
      break;
    case KIND.decay_integral: {
      c.variant = int(0, 2);
      c.base = logUniform(1.0001, 1e8);
      c.alpha = logUniform(0.25, 4);
      const maxX = c.variant === 1 ? 1e5 : 1e6;
      c.count = int(1, 64);
      c.points = Array.from({ length: c.count }, () =>
        signed(uniform() < 0.3 ? uniform() * 10 : logUniform(1e-6, maxX)),
      );
      c.nOut = c.count;
      break;
    }
    case KIND.ci:
    case KIND.si:
      c.count = int(1, 64);
      c.points = Array.from({ length: c.count }, () => {
        const x = logUniform(1e-8, 1e6);
        return kind === KIND.si ? signed(x) : x;
      });
      c.nOut = c.count;
      break;
    case KIND.frequencies:
      c.variant = int(0, 2);
      c.oddDim = int(0, 1);
      c.base = logUniform(1.5, 1e9);
      c.alpha = logUniform(1e-3, 10); // minTimescale
      c.step = logUniform(1, 1e6); // maxTimescale
      c.scale = int(-3, 1); // shift
      c.nOut = frequencyCount(c.dim, c.oddDim);
      break;
    case KIND.rope_frequencies:
      c.dim = 2 * (uniform() < 0.85 ? int(1, 40) : int(41, 350));
      c.variant = int(0, ROPE_TYPES.length - 1); // rope type
      c.base = pick([10000, 500000, 1e6, logUniform(1.5, 1e9)]);
      c.points = ropeParameters(c.variant);
      if (ROPE_TYPES[c.variant] === "longrope")
        c.input = Array.from({ length: c.dim }, (_, k) =>
          k < c.dim / 2 ? logUniform(0.5, 4) : logUniform(1, 64),
        );
      c.omega = [];
      c.nOut = c.dim / 2 + 1; // the frequencies, then the attention factor
      break;
    case KIND.rope_cache: {
      const half = uniform() < 0.85 ? int(1, 40) : int(41, 300);
      c.dim = 2 * half;
      c.variant = int(0, 2); // dtype
      c.layout = int(0, 2);
      c.scale = 1;
      c.step = 1;
      // A scaled schedule: some frequencies divided, as the rope types do.
      c.omega = paperOmega(c.dim, half, base).map((w) =>
        uniform() < 0.3 ? w / logUniform(1, 64) : w,
      );
      const width = c.layout === 0 ? half : 2 * half;
      c.count = int(1, Math.min(300, Math.max(1, Math.floor(20000 / width))));
      c.start = uniform() < 0.5 ? int(0, 1000) : position();
      if (uniform() < 0.6) c.points = pointsOf(c.count);
      c.amplitude = uniform() < 0.5 ? 1 : logUniform(0.5, 2); // attention
      c.nOut = 2 * c.count * width; // cos, then sin
      break;
    }
    case KIND.mrope_rope: {
      // M-RoPE on float32 rows: the t, h and w of each row (three points a
      // row); input: the rows, then s0, s1, s2 and interleaved.
      const half = int(3, 64);
      c.dim = 2 * half;
      c.variant = int(0, 1); // pairing
      c.omega = paperOmega(c.dim, half, base);
      c.count = int(1, 40);
      c.points = Array.from({ length: 3 * c.count }, () =>
        uniform() < 0.7 ? int(0, 5000) : position(),
      );
      const s0 = int(0, half);
      const s1 = int(0, half - s0);
      const section = [s0, s1, half - s0 - s1, int(0, 1)];
      if (uniform() < 0.05) section[2] += 1; // refused: the sum is off
      c.input = Array.from({ length: c.count * c.dim }, () =>
        signed(uniform() < 0.9 ? uniform() : logUniform(1e-30, 1e30)),
      ).concat(section);
      c.nOut = c.count * c.dim;
      break;
    }
    case KIND.mrope_cache: {
      // M-RoPE: the t, h and w streams, a section of the pairs and its
      // style (input: s0, s1, s2, interleaved).
      const half = int(3, 64);
      c.dim = 2 * half;
      c.variant = int(0, 2); // dtype
      c.layout = int(0, 2);
      c.omega = paperOmega(c.dim, half, base);
      // A cache takes no scale: its angles are position times frequency.
      c.scale = 1;
      const s0 = int(0, half);
      const s1 = int(0, half - s0);
      c.input = [s0, s1, half - s0 - s1, int(0, 1)];
      if (uniform() < 0.05) c.input[2] += 1; // refused: the sum is off
      const width = c.layout === 0 ? half : 2 * half;
      c.count = int(1, 40);
      c.points = Array.from({ length: 3 * c.count }, () =>
        uniform() < 0.7 ? int(0, 5000) : position(),
      );
      c.amplitude = uniform() < 0.5 ? 1 : logUniform(0.5, 2);
      c.nOut = 2 * c.count * width;
      break;
    }
  }
  return c;
}

// ---- the case file that native.c reads ----------------------------------

function encode(cases) {
  const chunks = [];
  for (const c of cases) {
    const header = Buffer.alloc(88);
    [
      c.kind,
      c.dim,
      c.count,
      c.layout,
      c.oddDim,
      c.variant,
      c.omega.length,
      c.points.length,
      c.input.length,
      c.nOut,
    ].forEach((v, i) => header.writeInt32LE(v, 4 * i));
    [c.start, c.scale, c.amplitude, c.base, c.alpha, c.step].forEach((v, i) =>
      header.writeDoubleLE(v, 40 + 8 * i),
    );
    chunks.push(header);
    for (const array of [c.omega, c.points, c.input])
      chunks.push(Buffer.from(new Float64Array(array).buffer));
  }
  return Buffer.concat(chunks);
}

function decode(bytes, count) {
  const results = [];
  let at = 0;
  for (let k = 0; k < count; k++) {
    const status = bytes.readInt32LE(at);
    const n = bytes.readInt32LE(at + 4);
    const values = new Float64Array(
      bytes.buffer.slice(
        bytes.byteOffset + at + 8,
        bytes.byteOffset + at + 8 + 8 * n,
      ),
    );
    results.push({ status, values });
    at += 8 + 8 * n;
  }
  return results;
}

// ---- the same calls on the shipped module ---------------------------------

const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {
  env: { emscripten_notify_memory_growth() {} },
});
const wasm = instance.exports;
wasm._initialize();

// Module memory for one case: alloc(bytes), doubles(array) (0 for an empty
// one), and release() to free all of it.
function arena() {
  const allocated = [];
  const alloc = (bytes) => {
    const p = wasm.malloc(Math.max(bytes, 8));
    if (p === 0) throw new Error("wasm malloc failed");
    allocated.push(p);
    return p;
  };
  const doubles = (array) => {
    if (array.length === 0) return 0;
    const p = alloc(8 * array.length);
    new Float64Array(wasm.memory.buffer, p, array.length).set(array);
    return p;
  };
  const release = () => {
    for (const p of allocated) wasm.free(p);
  };
  return { alloc, doubles, release };
}

function runWasm(c) {
  const f32 = F32_KINDS.has(c.kind);
  if (c.kind === KIND.rope_cache || c.kind === KIND.mrope_cache)
    return runWasmCache(c);
  const { alloc, doubles, release } = arena();
  const floats = (array) => {
    const p = alloc(4 * array.length);
    new Float32Array(wasm.memory.buffer, p, array.length).set(array);
    return p;
  };
  const omega = doubles(c.omega);
  const points = doubles(c.points);
  const input = f32 ? floats(c.input) : doubles(c.input);
  const out = f32
    ? floats(new Array(c.nOut).fill(NaN))
    : doubles(new Array(c.nOut).fill(NaN));
  const n = c.omega.length;
  let status;
  switch (c.kind) {
    case KIND.table_f32:
    case KIND.table_f64:
      status = wasm[`pe_${KINDS[c.kind]}`](
        out,
        points,
        c.count,
        c.start,
        c.dim,
        c.layout,
        c.oddDim,
        omega,
        n,
        c.scale,
        c.amplitude,
      );
      break;
    case KIND.rotate_f32:
    case KIND.rotate_f64:
      status = wasm[`pe_${KINDS[c.kind]}`](
        out,
        input,
        c.count,
        c.dim,
        points,
        c.start,
        c.layout,
        c.oddDim,
        omega,
        n,
        c.scale,
      );
      break;
    case KIND.rope_f32:
      status = wasm.pe_rope(
        out,
        input,
        0,
        c.count,
        c.dim,
        c.dim,
        1,
        1,
        points,
        c.start,
        c.variant,
        omega,
        n,
        c.scale,
        c.amplitude,
      );
      break;
    case KIND.mrope_rope: {
      const streams = alloc(n);
      const [s0, s1, s2, interleaved] = c.input.slice(-4);
      status = wasm.pe_mrope_streams(s0, s1, s2, interleaved, streams, n);
      if (status === 0)
        status = wasm.pe_rope_streams(
          ...[out, input, 0, c.count, c.dim, c.dim, 1, 1, points, streams],
          ...[c.variant, omega, n, c.scale, c.amplitude],
        );
      break;
    }
    case KIND.rotation_matrix:
      status = wasm.pe_rotation_matrix_f64(
        out,
        c.start,
        c.dim,
        c.layout,
        c.oddDim,
        omega,
        n,
        c.scale,
      );
      break;
    case KIND.dot_products:
      status = wasm.pe_dot_products(
        out,
        points,
        c.count,
        c.start,
        c.step,
        c.dim,
        c.oddDim,
        omega,
        n,
        c.scale,
        c.amplitude,
      );
      break;
    case KIND.decay_integral:
      status = wasm.pe_decay_integral(
        c.variant,
        c.base,
        c.alpha,
        points,
        c.count,
        out,
      );
      break;
    case KIND.ci:
    case KIND.si:
      status = wasm[`pe_${KINDS[c.kind]}`](points, c.count, out);
      break;
    case KIND.rope_frequencies:
      status = wasm.pe_rope_frequencies(
        c.variant,
        c.dim,
        c.base,
        points,
        c.points.length,
        // The slots given: those not NaN (native.c passes the same bits).
        c.points.reduce(
          (bits, v, k) => (k < 32 && !Number.isNaN(v) ? bits | (1 << k) : bits),
          0,
        ) >>> 0,
        input,
        c.input.length,
        out,
        c.dim / 2,
        out + 4 * c.dim,
      );
      break;
    case KIND.frequencies:
      status = wasm.pe_frequencies(
        c.variant,
        c.dim,
        c.oddDim,
        c.base,
        c.alpha,
        c.step,
        c.scale,
        out,
        c.nOut,
      );
      break;
  }
  const values = f32
    ? Float64Array.from(new Float32Array(wasm.memory.buffer, out, c.nOut))
    : new Float64Array(wasm.memory.buffer, out, c.nOut).slice();
  release();
  return { status, values };
}

// Both caches in the dtype's own array type, widened to doubles as native.c
// writes them (float16 as its bits).
function runWasmCache(c) {
  const Type = [Float32Array, Float64Array, Uint16Array][c.variant];
  const cells = c.nOut / 2;
  const { alloc, doubles, release } = arena();
  const invFreq = doubles(c.omega);
  const positions = doubles(c.points);
  const cos = alloc(cells * Type.BYTES_PER_ELEMENT);
  const sin = alloc(cells * Type.BYTES_PER_ELEMENT);
  let status;
  if (c.kind === KIND.mrope_cache) {
    const streams = alloc(c.omega.length);
    const [s0, s1, s2, interleaved] = c.input;
    const n = c.omega.length;
    status = wasm.pe_mrope_streams(s0, s1, s2, interleaved, streams, n);
    if (status === 0)
      status = wasm.pe_rope_cache_streams(
        ...[cos, sin, c.variant, c.layout, positions, c.count, streams],
        ...[invFreq, n, c.amplitude],
      );
  } else
    status = wasm.pe_rope_cache(
      ...[cos, sin, c.variant, c.layout, positions, c.count, c.start],
      ...[invFreq, c.omega.length, c.amplitude],
    );
  const values = new Float64Array(c.nOut);
  if (status === 0) {
    values.set(new Type(wasm.memory.buffer, cos, cells));
    values.set(new Type(wasm.memory.buffer, sin, cells), cells);
  }
  release();
  return { status, values };
}

// The value of binary16 bits.
function halfValue(h) {
  const e = (h >> 10) & 31;
  const m = h & 1023;
  const v =
    e === 31
      ? m
        ? NaN
        : Infinity
      : e === 0
        ? m * 2 ** -24
        : (m + 1024) * 2 ** (e - 25);
  return h & 0x8000 ? -v : v;
}

// ---- comparison --------------------------------------------------------

// Largest |angle| a case forms; beyond FAST_LIMIT the sin/cos calls libm.
function maxAngle(c) {
  const w = Math.max(0, ...c.omega.map((v) => Math.abs(v * c.scale)));
  const xs =
    c.points.length > 0
      ? c.points
      : [c.start, c.start + (c.count - 1) * c.step];
  return Math.max(...xs.map((x) => Math.abs(x))) * w;
}

// Whether both builds must agree bit for bit, and otherwise the allowed
// difference of element k: twice the documented accuracy (each build is
// within it of the exact value).
function expectation(c) {
  const a = Math.abs(c.amplitude);
  const h = Math.floor(c.dim / 2);
  const fast = maxAngle(c) <= FAST_LIMIT / 2;
  const rowMax = (k) => {
    const row = Math.floor(k / c.dim) * c.dim;
    let m = 0;
    for (let j = row; j < row + c.dim; j++)
      m = Math.max(m, Math.abs(c.input[j]));
    return m;
  };
  switch (c.kind) {
    case KIND.table_f32:
      return { exact: fast, tol: () => 1.2e-7 * a };
    case KIND.table_f64:
      return { exact: fast, tol: () => 2e-13 * a };
    case KIND.rotate_f32:
      return { exact: fast, tol: (k) => 3e-7 * rowMax(k) };
    case KIND.rope_f32:
    case KIND.mrope_rope:
      return { exact: fast, tol: (k) => 3e-7 * rowMax(k) * a };
    case KIND.rotate_f64:
      return { exact: fast, tol: (k) => 4e-15 * rowMax(k) };
    case KIND.rotation_matrix:
      return { exact: fast, tol: () => 2e-15 };
    case KIND.dot_products:
      return { exact: fast, tol: () => 1e-12 * h * a * a };
    case KIND.decay_integral:
      return { exact: false, tol: () => [2e-13, 2e-10, 4e-16][c.variant] };
    case KIND.ci:
    case KIND.si:
      return {
        exact: false,
        tol: (k, want) =>
          4e-15 * Math.abs(want) +
          1e-15 * Math.min(1, 1 / Math.abs(c.points[k])),
      };
    // The schedules and the rope types run the core's own exp, log and pow
    // (exp_log.c): the same operations in both builds.
    case KIND.frequencies:
    case KIND.rope_frequencies:
      return { exact: true, tol: () => 0 };
    case KIND.rope_cache:
    case KIND.mrope_cache: {
      const a = c.amplitude;
      // Twice the rounding of the output type, where libm may differ by an ulp.
      return {
        exact: fast,
        tol: () => [1.2e-7, 2e-13, 2 ** -10][c.variant] * a,
      };
    }
  }
}

// Native results of a batch of cases; batches keep the results file (up to
// 320 KB a case) within what one read can hold.
const BATCH = 2000;
function runNative(cases) {
  const dir = mkdtempSync(join(tmpdir(), "pe-differential-"));
  try {
    writeFileSync(join(dir, "cases"), encode(cases));
    execFileSync(nativeBinary, [join(dir, "cases"), join(dir, "results")], {
      stdio: "inherit",
    });
    return decode(readFileSync(join(dir, "results")), cases.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const stats = KINDS.map(() => ({
  cases: 0,
  values: 0,
  identical: 0,
  exactCases: 0,
  maxDiff: 0,
  maxRatio: 0,
  refused: 0,
}));
const failures = [];
function compare(c, native, index) {
  const half =
    (c.kind === KIND.rope_cache || c.kind === KIND.mrope_cache) &&
    c.variant === 2;
  const fromWasm = runWasm(c);
  const s = stats[c.kind];
  s.cases++;
  const where = `case ${index} (${KINDS[c.kind]}, seed ${SEED})`;
  if (native.status !== fromWasm.status) {
    failures.push(
      `${where}: status ${native.status} native, ${fromWasm.status} wasm`,
    );
    return;
  }
  if (native.status !== 0) {
    s.refused++;
    return;
  }
  const { exact, tol } = expectation(c);
  if (exact) s.exactCases++;
  for (let k = 0; k < c.nOut; k++) {
    const x = half ? halfValue(native.values[k]) : native.values[k];
    const y = half ? halfValue(fromWasm.values[k]) : fromWasm.values[k];
    s.values++;
    if (Object.is(x, y)) {
      s.identical++;
      continue;
    }
    const diff = Math.abs(x - y);
    s.maxDiff = Math.max(s.maxDiff, diff);
    s.maxRatio = Math.max(s.maxRatio, diff / tol(k, x));
    if (exact || !(diff <= tol(k, x))) {
      failures.push(
        `${where}: element ${k} is ${x} native, ${y} wasm` +
          (exact ? " (bit for bit expected)" : ` (tolerance ${tol(k, x)})`),
      );
    }
  }
}

for (let first = 0; first < CASES; first += BATCH) {
  const cases = Array.from(
    { length: Math.min(BATCH, CASES - first) },
    makeCase,
  );
  runNative(cases).forEach((native, k) => compare(cases[k], native, first + k));
}

console.log(`differential native vs wasm: ${CASES} cases, seed ${SEED}`);
console.log(
  "function          cases  refused  bit-exact cases      values   identical  max |diff|  max |diff|/tolerance",
);
KINDS.forEach((name, k) => {
  const s = stats[k];
  console.log(
    `${name.padEnd(16)} ${String(s.cases).padStart(6)} ${String(s.refused).padStart(8)} ${String(s.exactCases).padStart(16)} ${String(s.values).padStart(11)} ${String(s.identical).padStart(11)}  ${s.maxDiff.toExponential(2).padStart(10)}  ${s.maxRatio.toExponential(2)}`,
  );
});
if (failures.length > 0) {
  console.error(`${failures.length} differences beyond expectation:`);
  for (const line of failures.slice(0, 20)) console.error("  " + line);
  process.exit(1);
}
