import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  dotProducts,
  frequencies,
  init,
  LAYOUTS,
  linearRelationError,
  rope,
  rotate,
  rotationMatrix,
  table,
  toeplitzError,
} from "../../dist/index.js";
import {
  cosOfProduct,
  paperFrequencies,
  referenceRow,
  sinOfProduct,
} from "./reference.js";

await init();

// Independent float64 references, written from the definitions.

// HF Llama apply_rotary_pos_emb: x * cat(cos, cos) + rotate_half(x) *
// cat(sin, sin), rotate_half(x) = cat(-x2, x1).
function rotateHalf(x) {
  const h = x.length / 2;
  return [...x.slice(h).map((v) => -v), ...x.slice(0, h)];
}
function llamaRope(x, p, w) {
  const freqs = [...w, ...w].map((wi) => p * wi);
  const r = rotateHalf(x);
  return x.map((v, c) => v * Math.cos(freqs[c]) + r[c] * Math.sin(freqs[c]));
}

// GPT-J apply_rotary_pos_emb: x * cos + rotate_every_two(x) * sin with sin
// and cos repeat_interleave'd, rotate_every_two(x) = stack(-x2, x1).flatten.
function rotateEveryTwo(x) {
  return x.map((_, c) => (c % 2 === 0 ? -x[c + 1] : x[c - 1]));
}
function gptjRope(x, p, w) {
  const angle = (c) => p * w[Math.floor(c / 2)];
  const r = rotateEveryTwo(x);
  return x.map((v, c) => v * Math.cos(angle(c)) + r[c] * Math.sin(angle(c)));
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function maxError(actual, expected) {
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = Math.abs(actual[i] - expected[i]);
    if (!(e <= worst)) worst = Number.isNaN(e) ? Infinity : e;
  }
  return worst;
}

function randomRows(rows, dim, seed, amplitude = 1) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 30 - 1;
  return Float32Array.from({ length: rows * dim }, () => amplitude * next());
}

const schedules = fc.oneof(
  fc.record({ base: fc.double({ min: 2, max: 1e6, noNaN: true }) }),
  fc.record({
    schedule: fc.constant("timescale"),
    minTimescale: fc.double({ min: 0.1, max: 10, noNaN: true }),
    maxTimescale: fc.double({ min: 10, max: 1e5, noNaN: true }),
  }),
  fc.record({
    schedule: fc.constant("shifted"),
    base: fc.double({ min: 2, max: 1e5, noNaN: true }),
    shift: fc.constantFrom(0, 1),
  }),
);
const position = fc.double({
  min: -(2 ** 20) + 1,
  max: 2 ** 20 - 1,
  noNaN: true,
});

test("rotate(PE(p), k) equals PE(p + k) in every layout", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 4, max: 96 }),
      fc.constantFrom(...LAYOUTS),
      schedules,
      position,
      position,
      (dim, layout, schedule, p, k) => {
        const options = { dim, layout, oddDim: "zero-pad", ...schedule };
        if (schedule.schedule === "shifted" && Math.floor(dim / 2) <= 1) return;
        const pe = table({ ...options, positions: [p] });
        const moved = rotate(pe, k, options);
        const w = frequencies(options);
        const want = referenceRow(p + k, w, options);
        assert.ok(
          maxError(moved, want) <= 2.4e-7,
          `${JSON.stringify(options)} p=${p} k=${k}: ${maxError(moved, want)}`,
        );
      },
    ),
    { numRuns: 300 },
  );
});

test("rotate on arbitrary rows matches the block rotation of each layout", () => {
  for (const layout of LAYOUTS)
    for (const dim of [2, 3, 7, 8, 33, 64]) {
      const options = { dim, layout, oddDim: "zero-pad" };
      const w = frequencies(options);
      const h = Math.floor(dim / 2);
      const x = randomRows(5, dim, dim + 7);
      const offsets = [0, 1, -2.5, 1000.125, -777777];
      const out = rotate(x, offsets, options);
      for (let r = 0; r < 5; r++) {
        const row = Array.from(x.subarray(r * dim, (r + 1) * dim));
        const want = [...row];
        for (let i = 0; i < h; i++) {
          const [sc, cc] = {
            interleaved: [2 * i, 2 * i + 1],
            "interleaved-cos-first": [2 * i + 1, 2 * i],
            halves: [i, h + i],
            "halves-cos-first": [h + i, i],
          }[layout];
          // (sin, cos)(p + k) = (s cos kw + c sin kw, c cos kw − s sin kw)
          const c = cosOfProduct(offsets[r], w[i]);
          const s = sinOfProduct(offsets[r], w[i]);
          want[sc] = row[sc] * c + row[cc] * s;
          want[cc] = row[cc] * c - row[sc] * s;
        }
        const got = out.subarray(r * dim, (r + 1) * dim);
        assert.ok(maxError(got, want) <= 1.2e-7, `${layout} dim ${dim}`);
      }
    }
});

test("rope equals HF rotate_half and GPT-J rotate_every_two", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 64 }).map((h) => 2 * h),
      fc.double({ min: 2, max: 1e6, noNaN: true }),
      fc.array(fc.double({ min: -1e5, max: 1e5, noNaN: true }), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.integer({ min: 1, max: 1000 }),
      (dim, base, positions, seed) => {
        const rows = positions.length;
        const q = randomRows(rows, dim, seed, 3);
        // HF inv_freq = 1 / base^(arange(0, dim, 2) / dim), in float64.
        const w = Array.from(
          { length: dim / 2 },
          (_, i) => 1 / base ** ((2 * i) / dim),
        );
        for (const [pairing, reference] of [
          ["halves", llamaRope],
          ["interleaved", gptjRope],
        ]) {
          const out = rope(q, positions, { dim, base, pairing });
          for (let r = 0; r < rows; r++) {
            const x = Array.from(q.subarray(r * dim, (r + 1) * dim));
            const want = reference(x, positions[r], w);
            const got = out.subarray(r * dim, (r + 1) * dim);
            // float32 rounding of |value| <= 6 plus w's last-bit difference.
            assert.ok(
              maxError(got, want) <= 5e-7 + 3e-16 * Math.abs(positions[r]),
              `${pairing} dim ${dim} base ${base} p ${positions[r]}: ${maxError(got, want)}`,
            );
          }
        }
      },
    ),
    { numRuns: 200 },
  );
});

test("after rope, <q at m, k at n> depends only on m − n", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 48 }).map((h) => 2 * h),
      fc.constantFrom("halves", "interleaved"),
      fc.integer({ min: -5000, max: 5000 }),
      fc.integer({ min: -5000, max: 5000 }),
      fc.integer({ min: -1e5, max: 1e5 }),
      (dim, pairing, m, n, shift) => {
        const q = randomRows(1, dim, dim * 31 + 1);
        const k = randomRows(1, dim, dim * 17 + 5);
        const options = { dim, pairing };
        const a = dot(rope(q, m, options), rope(k, n, options));
        const b = dot(rope(q, m + shift, options), rope(k, n + shift, options));
        assert.ok(Math.abs(a - b) <= 1e-6 * dim, `${a} vs ${b}`);
      },
    ),
    { numRuns: 200 },
  );
});

test("rotationMatrix is R(k): it maps PE(p) to PE(p + k)", () => {
  for (const layout of LAYOUTS)
    for (const dim of [1, 2, 5, 16]) {
      const options = { dim, layout, oddDim: "zero-pad" };
      const R = rotationMatrix(-3.5, options);
      assert.equal(R.length, dim * dim);
      const pe = table({ ...options, positions: [10], dtype: "float64" });
      const want = table({ ...options, positions: [6.5], dtype: "float64" });
      const got = Array.from({ length: dim }, (_, r) =>
        dot(R.subarray(r * dim, (r + 1) * dim), pe),
      );
      assert.ok(maxError(got, want) <= 1e-14, `${layout} ${dim}`);
    }
});

test("linearRelationError stays within its bounds", () => {
  for (const layout of LAYOUTS) {
    const f32 = linearRelationError({
      dim: 128,
      layout,
      positions: 300,
      start: 2 ** 20 - 301,
      offsets: [1, -1, 0.25, -(2 ** 20) + 1, 2 ** 19 + 0.5],
    });
    assert.ok(f32.maxAbsError <= 2.4e-7, JSON.stringify(f32));
    // float64 holds to 1e-12 at every |p|, |k| < 2^20 whose sum p + k is a
    // double: the angles are exact products, not their roundings.
    const small = linearRelationError({
      dim: 128,
      layout,
      positions: 500,
      offsets: [3, -7.5],
      dtype: "float64",
    });
    assert.ok(small.maxAbsError <= 1e-12, JSON.stringify(small));
    const large = linearRelationError({
      dim: 128,
      layout,
      positions: [2 ** 20 - 1, -(2 ** 20) + 1, 777777.75],
      offsets: [2 ** 20 - 1, -12345.5],
      dtype: "float64",
    });
    assert.ok(large.maxAbsError <= 1e-12, JSON.stringify(large));
  }
  const r = linearRelationError({
    preset: "tensor2tensor",
    dim: 33,
    positions: [5],
    offsets: 2,
  });
  assert.ok(r.maxAbsError <= 2.4e-7 && r.position === 5 && r.offset === 2);
});

test("dotProducts are the finite sums Σ cos(k w_i)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 200 }),
      fc.double({ min: 2, max: 1e6, noNaN: true }),
      fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), {
        minLength: 1,
        maxLength: 20,
      }),
      (dim, base, offsets) => {
        // The library's w (checked against the formula in table.test.js),
        // so both sides take the cosine of the same product k·w.
        const w = frequencies({ dim, base, oddDim: "zero-pad" });
        const got = dotProducts({ dim, base, offsets });
        offsets.forEach((k, j) => {
          const want = w.reduce((s, wi) => s + cosOfProduct(k, wi), 0);
          assert.ok(Math.abs(got[j] - want) <= 1e-12 * dim, `k=${k}`);
        });
      },
    ),
    { numRuns: 200 },
  );
  // A range, d = 768, long distances; outputScale squared.
  const g = dotProducts({
    dim: 768,
    offsets: { from: -1000, to: 1000, count: 4001 },
    outputScale: 0.5,
  });
  const w = paperFrequencies(768, 384);
  for (const j of [0, 1, 1000, 2000, 2001, 3999, 4000]) {
    const k = -1000 + j * 0.5;
    const want = 0.25 * w.reduce((s, wi) => s + cosOfProduct(k, wi), 0);
    assert.ok(Math.abs(g[j] - want) <= 1e-11, `k=${k}: ${g[j]} vs ${want}`);
  }
  assert.equal(g[2000], 96);
  // d = 768 at k = 1000: the number quoted against the decay integral.
  assert.ok(
    Math.abs(dotProducts({ dim: 768, offsets: [1000] })[0] - 62.3) < 0.1,
  );
  // mlx scales every value by sqrt(2/d): g(0) = h · 2/d = 1.
  assert.ok(
    Math.abs(dotProducts({ preset: "mlx", dim: 64, offsets: [0] })[0] - 1) <
      1e-15,
  );
});

test("the Gram matrix of a table is Toeplitz, unless an extra sin column", () => {
  for (const layout of LAYOUTS) {
    const e = toeplitzError({ dim: 64, layout, positions: 200, start: -50.5 });
    assert.ok(e.maxAbsError <= 1e-12, JSON.stringify(e));
    const f = toeplitzError({
      dim: 65,
      layout,
      oddDim: "zero-pad",
      positions: [3, 1e5, -7.25],
    });
    assert.ok(f.maxAbsError <= 1e-12, JSON.stringify(f));
  }
  // float32 tables: rounding of each value, summed over 128 columns.
  assert.ok(
    toeplitzError({ dim: 128, positions: 300, dtype: "float32" }).maxAbsError <=
      1e-5,
  );
  // The extra column adds sin(m w_h) sin(n w_h): found and reported.
  const odd = toeplitzError({ dim: 5, base: 2, positions: 20 });
  const w = frequencies({ dim: 5, base: 2 })[2];
  let want = 0;
  for (let m = 0; m < 20; m++)
    for (let n = 0; n < 20; n++)
      want = Math.max(want, Math.abs(Math.sin(m * w) * Math.sin(n * w)));
  assert.ok(Math.abs(odd.maxAbsError - want) <= 1e-12, JSON.stringify(odd));
});

test("inPlace writes back into the Float32Array", () => {
  const x = randomRows(3, 8, 5);
  const copy = rotate(x, [1, 2, 3], { dim: 8 });
  const same = rotate(x, [1, 2, 3], { dim: 8, inPlace: true });
  assert.equal(same, x);
  assert.deepEqual(x, copy);
  const y = randomRows(2, 4, 9);
  const ropeCopy = rope(y, 5, { dim: 4 });
  assert.equal(rope(y, 5, { dim: 4, inPlace: true }), y);
  assert.deepEqual(y, ropeCopy);
  // Many rows: several internal chunks, evenly spaced and arbitrary positions.
  const big = randomRows(700, 512, 3);
  const positions = Array.from({ length: 700 }, (_, j) => j);
  const out = rope(big, positions, { dim: 512, pairing: "interleaved" });
  const w = paperFrequencies(512, 256);
  for (const r of [0, 1, 127, 128, 511, 512, 699]) {
    const x = Array.from(big.subarray(r * 512, (r + 1) * 512));
    assert.ok(
      maxError(out.subarray(r * 512, (r + 1) * 512), gptjRope(x, r, w)) <= 3e-7,
    );
  }
});

test("rotate keeps a Float64Array in float64, in place too", () => {
  for (const layout of LAYOUTS)
    for (const dim of [8, 9, 64]) {
      const options = { dim, layout, oddDim: "zero-pad" };
      const w = frequencies(options);
      for (const [p, k] of [
        [3, 5],
        [-1234.5, 77.25],
        [1e6, -3e5],
      ]) {
        const pe = table({ ...options, positions: [p], dtype: "float64" });
        const moved = rotate(pe, k, options);
        assert.ok(moved instanceof Float64Array);
        // A float32 result would be ~3e-8 away: this bound needs float64.
        const error = maxError(moved, referenceRow(p + k, w, options));
        assert.ok(
          error <= 1e-13,
          `${layout} dim ${dim} p ${p} k ${k}: ${error}`,
        );
      }
    }
  // Several chunks of rows, each moved by its own offset.
  const count = 3000;
  const dim = 128;
  const at = Array.from({ length: count }, (_, j) => j * 0.5);
  const offsets = at.map((_, j) => (j % 7) - 3);
  const rows = table({ dim, positions: at, dtype: "float64" });
  const want = table({
    dim,
    positions: at.map((p, j) => p + offsets[j]),
    dtype: "float64",
  });
  assert.ok(maxError(rotate(rows, offsets, { dim }), want) <= 1e-13);
  assert.equal(rotate(rows, offsets, { dim, inPlace: true }), rows);
  assert.ok(maxError(rows, want) <= 1e-13);
});

test("rope takes a preset's schedule and scale; pairing stays its own", () => {
  const q = randomRows(3, 8, 11, 2);
  const at = [0, 5, 1e4];
  assert.deepEqual(
    rope(q, at, { preset: "whisper", dim: 8 }),
    rope(q, at, {
      dim: 8,
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale: 10000,
    }),
  );
  assert.deepEqual(
    rope(q, at, {
      preset: "diffusers",
      dim: 8,
      downscaleFreqShift: 0,
      scale: 3,
      pairing: "interleaved",
    }),
    rope(q, at, {
      dim: 8,
      schedule: "shifted",
      base: 10000,
      shift: 0,
      scale: 3,
      pairing: "interleaved",
    }),
  );
  // The paper preset is HF's inv_freq with base maxWavelength.
  const w = Array.from({ length: 4 }, (_, i) => 500 ** (-(2 * i) / 8));
  const out = rope(q, at, { preset: "paper", dim: 8, maxWavelength: 500 });
  for (let r = 0; r < 3; r++) {
    const x = Array.from(q.subarray(r * 8, (r + 1) * 8));
    assert.ok(
      maxError(out.subarray(r * 8, (r + 1) * 8), llamaRope(x, at[r], w)) <=
        1e-6,
    );
  }
  // The message points to rope's own option.
  assert.throws(
    () => rope(q, at, { preset: "whisper", dim: 8, layout: "halves" }),
    {
      name: "TypeError",
      code: "ERR_NOT_APPLICABLE",
      option: "layout",
      message: /option "pairing"/,
    },
  );
  assert.throws(
    () => rope(q, at, { preset: "whisper", dim: 8, startIndex: 1 }),
    { name: "TypeError", code: "ERR_NOT_APPLICABLE", option: "startIndex" },
  );
});

// Each bad call throws the class, code and option given (and a message
// that matches `pattern` where a range, a list or the values quoted are the
// point), and a valid call still returns the same result afterwards.
const good = () => rope(new Float32Array([1, 2, 3, 4]), 3, { dim: 4 });
const expected = good();
function rejects(fn, ErrorClass, code, option, pattern) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof ErrorClass, `${error.name}: ${error.message}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.option, option, error.message);
    if (pattern !== undefined) assert.match(error.message, pattern);
    return true;
  });
  assert.deepEqual(good(), expected);
}

test("bad input is refused with a message naming the option", () => {
  const x = new Float32Array(12);
  rejects(
    () => rotate(x, 1, { dim: 5, oddDim: "zero-pad" }),
    RangeError,
    "ERR_LENGTH",
    "vectors",
  );
  rejects(() => rope(x, 1, { dim: 8 }), RangeError, "ERR_LENGTH", "vectors");
  rejects(
    () => rotate(x, [1, 2], { dim: 4 }),
    RangeError,
    "ERR_LENGTH",
    "offsets",
    /offsets must have one entry per row: 3 rows, got 2/,
  );
  rejects(
    () => rope(x, [1, 2, 3, 4], { dim: 4 }),
    RangeError,
    "ERR_LENGTH",
    "positions",
  );
  rejects(
    () => rotate(x, NaN, { dim: 4 }),
    RangeError,
    "ERR_OFFSETS",
    "offsets",
  );
  rejects(
    () => rotate(x, [0, Infinity, 1], { dim: 4 }),
    RangeError,
    "ERR_OFFSETS",
    "offsets[1]",
  );
  rejects(
    () => rope(x, [0, 1, NaN], { dim: 4 }),
    RangeError,
    "ERR_POSITIONS",
    "positions[2]",
  );
  rejects(() => rotate(x, "1", { dim: 4 }), TypeError, "ERR_TYPE", "offsets");
  rejects(
    () => rotate(x, [1e308, 0, 0], { dim: 4, scale: 10 }),
    RangeError,
    "ERR_OFFSETS",
    "offsets",
    /rotate: offsets × the largest frequency times option "scale" \(10\) must be a finite angle: 1e\+308 × 10 is not finite/,
  );
  rejects(
    () => rope(x, 1, { dim: 3 }),
    RangeError,
    "ERR_ROTARY_DIM",
    "dim",
    /"rotaryDim" and "dim" must give a rotary part.*got "dim" = 3$/,
  );
  rejects(
    () => rotate(new Float32Array(10), 1, { dim: 5 }),
    RangeError,
    "ERR_NO_PARTNER",
    "dim",
    /^sinusoidal-pe: rotate: options "dim" and "oddDim" must be an even dim, or an odd dim with oddDim "zero-pad" .*"extra-sin" column has no partner for R\(k\) to turn it with\), got "dim" = 5, "oddDim" = "extra-sin"$/,
  );
  rejects(
    () => linearRelationError({ dim: 5, positions: 2, offsets: [1] }),
    RangeError,
    "ERR_NO_PARTNER",
    "dim",
    /linearRelationError: options "dim" and "oddDim" .*, got "dim" = 5, "oddDim" = "extra-sin"$/,
  );
  rejects(
    () => rotationMatrix(1, { dim: 5, oddDim: "extra-sin" }),
    RangeError,
    "ERR_NO_PARTNER",
    "dim",
    /rotationMatrix: options "dim" and "oddDim" must be an even dim, or an odd dim with oddDim "zero-pad"/,
  );
  rejects(
    () => rotate([1, 2, 3, 4], 1, { dim: 4, inPlace: true }),
    TypeError,
    "ERR_TYPE",
    "vectors",
  );
  rejects(
    () => rope(new Int32Array(4), 1, { dim: 4, inPlace: true }),
    TypeError,
    "ERR_TYPE",
    "vectors",
  );
  rejects(
    () => rotate(x, 1, { dim: 4, inPlace: "yes" }),
    TypeError,
    "ERR_NOT_BOOLEAN",
    "inPlace",
  );
  rejects(
    () => rotate([1, "2", 3, 4], 1, { dim: 4 }),
    TypeError,
    "ERR_NOT_NUMBER",
    "vectors[1]",
  );
  rejects(
    () => rotate(new BigInt64Array(4), 1, { dim: 4 }),
    TypeError,
    "ERR_TYPE",
    "vectors",
  );
  rejects(() => rotate(5, 1, { dim: 4 }), TypeError, "ERR_TYPE", "vectors");
  rejects(
    () => rope(x, 1, { dim: 4, pairing: "every-two" }),
    RangeError,
    "ERR_PAIRING",
    "pairing",
    /"pairing" must be one of "interleaved", "halves"/,
  );
  rejects(
    () => rope(x, 1, { dim: 4, layout: "halves" }),
    TypeError,
    "ERR_NOT_APPLICABLE",
    "layout",
    /"layout" does not apply to rope\(\): rope pairs columns by option "pairing"/,
  );
  rejects(
    () => rotate(x, 1, { dim: 4, layout: "rows" }),
    RangeError,
    "ERR_LAYOUT",
    "layout",
  );
  rejects(
    () => rotate(x, 1, { dim: 4, base: 1 }),
    RangeError,
    "ERR_BASE",
    "base",
    /"base" must be a finite number > 1/,
  );
  rejects(
    () => rotate(x, 1, { dim: 4, frequencies: [1] }),
    RangeError,
    "ERR_FREQUENCIES",
    "frequencies",
  );
  rejects(
    () => rotate(x, 1, { dim: 4, offset: 1 }),
    TypeError,
    "ERR_UNKNOWN_OPTION",
    "offset",
  );
  rejects(
    () => rotate(x, 1, { preset: "whisper", dim: 4, inPlace: 1 }),
    TypeError,
    "ERR_NOT_BOOLEAN",
    "inPlace",
  );
  rejects(
    () => rotationMatrix(1, { dim: 2048 }),
    RangeError,
    "ERR_OUT_OF_RANGE",
    "dim",
    /"dim" must be at most 1024/,
  );
  rejects(
    () => rotationMatrix(NaN, { dim: 4 }),
    RangeError,
    "ERR_NOT_FINITE",
    "k",
  );
  rejects(
    () => linearRelationError({ dim: 4, positions: 3 }),
    TypeError,
    "ERR_NOT_ARRAY",
    "offsets",
  );
  rejects(
    () => linearRelationError({ dim: 4, positions: 0, offsets: [1] }),
    RangeError,
    "ERR_OUT_OF_RANGE",
    "positions",
    /"positions" must be an integer in \[1, /,
  );
  rejects(
    () => linearRelationError({ dim: 4, positions: 3, offsets: [1, NaN] }),
    RangeError,
    "ERR_OFFSETS",
    "offsets[1]",
  );
  rejects(
    () =>
      linearRelationError({
        dim: 4,
        positions: 3,
        offsets: [],
        dtype: "float16",
      }),
    RangeError,
    "ERR_DTYPE",
    "dtype",
  );
  rejects(
    () => dotProducts({ dim: 4, offsets: { from: 0, to: 1 } }),
    TypeError,
    "ERR_NOT_NUMBER",
    "offsets.count",
  );
  rejects(
    () => dotProducts({ dim: 4, offsets: { from: 0, to: 1, count: 0 } }),
    RangeError,
    "ERR_OUT_OF_RANGE",
    "offsets.count",
  );
  rejects(
    () => dotProducts({ dim: 4, offsets: { from: 0, to: Infinity, count: 3 } }),
    RangeError,
    "ERR_OFFSETS",
    "offsets.to",
  );
  rejects(
    () =>
      dotProducts({ dim: 4, offsets: { from: 0, to: 1, count: 2, step: 1 } }),
    TypeError,
    "ERR_UNKNOWN_OPTION",
    "offsets.step",
  );
  rejects(
    () => dotProducts({ dim: 4, offsets: [0, NaN] }),
    RangeError,
    "ERR_OFFSETS",
    "offsets[1]",
  );
  rejects(
    () => dotProducts({ dim: 4, offsets: [1e308], scale: 1e10 }),
    RangeError,
    "ERR_OFFSETS",
    "offsets",
  );
  rejects(
    () => toeplitzError({ dim: 4, positions: 5000 }),
    RangeError,
    "ERR_OUT_OF_RANGE",
    "positions",
    /"positions" must be an integer in \[1, 4096\]/,
  );
  rejects(
    () => toeplitzError({ dim: 4, positions: new Array(1025).fill(0) }),
    RangeError,
    "ERR_LENGTH",
    "positions",
    /1 to 1024 numbers/,
  );
  rejects(
    () => toeplitzError({ dim: 4, positions: [1, 2], start: 3 }),
    TypeError,
    "ERR_NOT_APPLICABLE",
    "start",
  );
  rejects(() => rotate(x, 1, null), TypeError, "ERR_NOT_OBJECT", "options");
});

test("dotProducts at two offsets whose real difference is not a double", () => {
  const offsets = [-2.000129183185494e-12, 220129.81507478622];
  const g = dotProducts({ dim: 2, base: 2, offsets });
  assert.ok(Math.abs(g[1] - cosOfProduct(offsets[1], 1)) <= 1e-15);
});

test("a bad angle in a late row leaves in-place rows untouched", () => {
  const dim = 8;
  const rows = 40000; // several chunks of module memory
  const x = new Float32Array(rows * dim).fill(0.5);
  const positions = Array.from({ length: rows }, (_, i) => i);
  for (const last of [NaN, 1e308]) {
    positions[rows - 1] = last;
    assert.throws(
      () => rope(x, positions, { dim, inPlace: true, scale: 10 }),
      RangeError,
    );
    assert.ok(x.every((v) => v === 0.5));
  }
  positions[rows - 1] = rows - 1;
  assert.equal(rope(x, positions, { dim, inPlace: true }), x);
  assert.ok(x.some((v) => v !== 0.5));
});

test("an outputScale beyond float32 is refused by name in the float32 checks", () => {
  for (const call of [
    () =>
      linearRelationError({
        dim: 8,
        positions: 4,
        offsets: [1],
        outputScale: 1e39,
      }),
    () =>
      toeplitzError({
        dim: 8,
        positions: 4,
        dtype: "float32",
        outputScale: 1e39,
      }),
  ])
    assert.throws(
      call,
      (error) =>
        error instanceof RangeError &&
        /^sinusoidal-pe: (linearRelationError|toeplitzError): option "outputScale" must be a finite number whose values fit the result \(float32: within ±3\.4028234663852886e38;.*, got 1e\+39$/.test(
          error.message,
        ),
    );
  // float64 takes scales beyond float32: scaling every value by 2^130
  // (exact in float64) scales each product, so the deviation, by 2^260.
  const plain = toeplitzError({ dim: 8, positions: 4 });
  const scaled = toeplitzError({ dim: 8, positions: 4, outputScale: 2 ** 130 });
  assert.ok(
    plain.maxAbsError > 0 && plain.maxAbsError < 1e-14,
    `${plain.maxAbsError}`,
  );
  assert.deepEqual(scaled, {
    ...plain,
    maxAbsError: plain.maxAbsError * 2 ** 260,
  });
});
