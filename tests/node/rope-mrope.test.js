// rope with M-RoPE's three position streams { t, h, w }, against float64
// references of Qwen2-VL's apply_multimodal_rotary_pos_emb (chunked
// sections) and Qwen3-VL's apply_interleaved_mrope written here as those
// functions compute (float16 bit for bit after rounding the reference once);
// text positions (t = h = w) against plain RoPE bit for bit; fromConfig's
// options for the committed Qwen configs fed to rope as they are; and the
// refusals, each naming its option.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  createRope,
  fromConfig,
  init,
  rope,
  ropeCache,
} from "../../dist/index.js";
import {
  cosOfProduct,
  halfToNumber,
  numberToHalf,
  referenceTensor,
  seededValues,
  sinOfProduct,
} from "./reference.js";

await init();

/**
 * The stream (0 t, 1 h, 2 w) of each column of the duplicated cos/sin
 * [rotary] that the model multiplies q by. Qwen2-VL: the three streams'
 * duplicated caches are split into chunks of mrope_section * 2 (the list
 * repeated: s0, s1, s2, s0, s1, s2) and chunk i is taken from stream i % 3.
 * Qwen3-VL: the [rotary / 2] frequencies start from t; for stream k = 1, 2
 * the slice (k, 3 · section[k], 3) is taken from stream k; the result is
 * then duplicated.
 */
function columnStreams(section, interleaved, rotary) {
  const h = rotary / 2;
  if (!interleaved) {
    const chunks = [...section, ...section];
    const streams = [];
    chunks.forEach((size, i) => {
      for (let c = 0; c < size; c++) streams.push(i % 3);
    });
    return streams;
  }
  const half = Array(h).fill(0);
  for (const k of [1, 2])
    for (let i = k; i < Math.min(3 * section[k], h); i += 3) half[i] = k;
  return [...half, ...half];
}

// One head row as the model computes it: q · cos + rotate_half(q) · sin on
// the first `rotary` columns (cos and sin of the column's stream position
// times inv_freq[c mod rotary/2], inv_freq = base^(−2i/rotary)); the rest
// pass through.
function referenceRow(row, [t, h, w], { rotary, base, section, interleaved }) {
  const half = rotary / 2;
  const streams = columnStreams(section, interleaved, rotary);
  const out = row.slice();
  for (let c = 0; c < rotary; c++) {
    const p = [t, h, w][streams[c]];
    const frequency = base ** (-(2 * (c % half)) / rotary);
    const rotated = c < half ? -row[c + half] : row[c - half];
    out[c] =
      row[c] * cosOfProduct(p, frequency) +
      rotated * sinOfProduct(p, frequency);
  }
  return out;
}

const float32Bound = (v) => 2 ** -24 * Math.abs(v) + 1e-12;
// The reference's inv_freq in plain double is a few ulps from the correctly
// rounded one: at positions below 2^10 that moves an angle by under 1e-12.
const float64Bound = (v) => 1e-12 * (1 + Math.abs(v));

function assertRows(got, expected, dtype, what) {
  assert.equal(got.length, expected.length, `${what}: length`);
  let bad = 0;
  let first = "";
  for (let i = 0; i < expected.length; i++) {
    const ok =
      dtype === "float16"
        ? got[i] === numberToHalf(expected[i])
        : Math.abs(got[i] - expected[i]) <=
          (dtype === "float32" ? float32Bound : float64Bound)(expected[i]);
    if (!ok && bad++ === 0)
      first = `[${i}]: ${dtype === "float16" ? halfToNumber(got[i]) : got[i]} against ${expected[i]}`;
  }
  assert.equal(bad, 0, `${what}: ${bad} values off, first ${first}`);
}

// Rows of `dim` values in a dtype, and the doubles they hold.
function dataOf(dtype, n, seed) {
  const raw = seededValues(n, seed);
  if (dtype === "float16") {
    const bits = Uint16Array.from(raw, numberToHalf);
    return { data: bits, exact: Array.from(bits, halfToNumber) };
  }
  const data =
    dtype === "float32" ? Float32Array.from(raw) : Float64Array.from(raw);
  return { data, exact: Array.from(data) };
}

// Image tokens of a 2 × 3 grid at t = 4 (h, w vary), then text tokens that
// continue from the largest position.
const IMAGE = {
  t: [0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 7, 8, 9],
  h: [0, 1, 2, 3, 4, 4, 4, 5, 5, 5, 7, 8, 9],
  w: [0, 1, 2, 3, 4, 5, 6, 4, 5, 6, 7, 8, 9],
};

test("rows: chunked and interleaved sections, every dtype, partial rotary", () => {
  const settings = [
    { dim: 24, rotaryDim: 24, section: [4, 4, 4], interleaved: false },
    { dim: 24, rotaryDim: 24, section: [2, 5, 5], interleaved: false },
    { dim: 24, rotaryDim: 24, section: [4, 4, 4], interleaved: true },
    { dim: 40, rotaryDim: 32, section: [6, 5, 5], interleaved: true },
    { dim: 40, rotaryDim: 32, section: [8, 4, 4], interleaved: false },
  ];
  const n = IMAGE.t.length;
  for (const { dim, rotaryDim, section, interleaved } of settings)
    for (const dtype of ["float64", "float32", "float16"]) {
      const { data, exact } = dataOf(dtype, n * dim, dim + section[0]);
      const got = rope(data, IMAGE, {
        dim,
        rotaryDim,
        base: 10000,
        mropeSection: section,
        mropeInterleaved: interleaved,
      });
      assert.equal(got.constructor, data.constructor);
      const expected = [];
      for (let j = 0; j < n; j++)
        expected.push(
          ...referenceRow(
            exact.slice(j * dim, (j + 1) * dim),
            [IMAGE.t[j], IMAGE.h[j], IMAGE.w[j]],
            { rotary: rotaryDim, base: 10000, section, interleaved },
          ),
        );
      assertRows(
        got,
        expected,
        dtype,
        `${dtype} ${dim}/${rotaryDim} [${section}] interleaved ${interleaved}`,
      );
    }
});

// The committed config fragments, each with its fields read here.
const configs = ["qwen2-vl-7b", "qwen3-vl-8b"].flatMap((model) =>
  ["v4", "v5"].map((form) => {
    const name = `${model}.${form}.json`;
    const json = JSON.parse(
      readFileSync(
        new URL(`../vectors/configs/${name}`, import.meta.url),
        "utf8",
      ),
    );
    const text = json.text_config ?? json;
    const rope = text.rope_parameters ?? text.rope_scaling;
    return {
      name,
      json,
      settings: {
        rotary: text.head_dim ?? text.hidden_size / text.num_attention_heads,
        base: text.rope_theta ?? rope.rope_theta,
        section: rope.mrope_section,
        interleaved: rope.mrope_interleaved === true,
      },
    };
  }),
);

test("fromConfig's options for Qwen2-VL and Qwen3-VL feed rope on tensors in both orders", () => {
  for (const { name, json, settings } of configs) {
    const options = fromConfig(json);
    const D = settings.rotary;
    const shape = { B: 2, H: 2, S: IMAGE.t.length, D };
    const { B, H, S } = shape;
    // Per sequence (shared by the batch), and per batch row (the second
    // row's image starts later: its positions are the first's plus 3).
    const perBatch = Object.fromEntries(
      ["t", "h", "w"].map((k) => [
        k,
        [...IMAGE[k], ...IMAGE[k].map((p) => p + 3)],
      ]),
    );
    const cases = [
      [IMAGE, (b, s) => [IMAGE.t[s], IMAGE.h[s], IMAGE.w[s]]],
      [perBatch, (b, s) => ["t", "h", "w"].map((k) => perBatch[k][b * S + s])],
    ];
    for (const order of ["bhsd", "bshd"])
      for (const [positions, positionsOf] of cases)
        for (const dtype of ["float32", "float16"]) {
          const { data, exact } = dataOf(dtype, B * H * S * D, D + B);
          const got = rope(data, positions, {
            ...options,
            heads: H,
            batch: B,
            order,
          });
          assertRows(
            got,
            referenceTensor(exact, shape, order, (row, b, s) =>
              referenceRow(row, positionsOf(b, s), settings),
            ),
            dtype,
            `${name} ${order} ${dtype}`,
          );
        }
  }
});

test("text positions (t = h = w) are plain RoPE, bit for bit, rows and tensors", () => {
  for (const { name, json } of configs) {
    const options = fromConfig(json);
    const D = options.dim;
    for (const dtype of ["float64", "float32", "float16"])
      for (const p of [
        Array.from({ length: 40 }, (_, s) => s + 5),
        [0, 1, 2, 3, 10, 517, 9999, 12.5],
      ]) {
        const { data } = dataOf(dtype, p.length * 2 * D, p.length);
        const text = { t: p, h: p.slice(), w: Float64Array.from(p) };
        assert.deepEqual(
          rope(data, text, { ...options, heads: 2, order: "bshd" }),
          rope(data, p, { ...options, heads: 2, order: "bshd" }),
          `${name} ${dtype} tensor`,
        );
        const rows = data.subarray(0, p.length * D);
        assert.deepEqual(
          rope(rows, text, options),
          rope(rows, p, options),
          `${name} ${dtype} rows`,
        );
      }
  }
});

test("text tokens after an image: the rows of text positions equal plain RoPE", () => {
  // Float64 and float16 rows are seeded at every position in both calls;
  // a text token of a mixed call is plain RoPE at its position.
  const options = fromConfig(configs[0].json);
  const D = options.dim;
  const n = IMAGE.t.length;
  for (const dtype of ["float64", "float16"]) {
    const { data } = dataOf(dtype, n * D, 21);
    const mixed = rope(data, IMAGE, options);
    const plain = rope(data, IMAGE.t, options);
    for (let j = 0; j < n; j++) {
      const text = IMAGE.t[j] === IMAGE.h[j] && IMAGE.t[j] === IMAGE.w[j];
      const same = mixed
        .subarray(j * D, (j + 1) * D)
        .every((v, c) => Object.is(v, plain[j * D + c]));
      assert.equal(same, text, `${dtype} token ${j}`);
    }
  }
});

test("M-RoPE refusals name the option, and the module goes on", () => {
  const x = new Float32Array(3 * 8);
  const section = { dim: 8, mropeSection: [2, 1, 1] };
  const streams = { t: [1, 2, 3], h: [1, 2, 3], w: [4, 5, 6] };
  const cases = [
    [
      () => rope(x, { t: [1, 2, 3], h: [1, 2], w: [1, 2, 3] }, section),
      RangeError,
      "ERR_LENGTH",
      "positions.h",
      /"positions.h" must have as many positions as "positions.t" \(3\), got 2/,
    ],
    [
      () => rope(x, { t: [1, 2, 3], h: [1, 2, 3] }, section),
      TypeError,
      "ERR_REQUIRED",
      "positions.w",
    ],
    [
      () => rope(x, streams, { dim: 8, mropeSection: [2, 2, 1] }),
      RangeError,
      "ERR_MROPE_SECTION",
      "mropeSection",
      /rope: option "mropeSection" must hold 3 integers >= 0 summing to rotaryDim \/ 2 \(4 pairs\), got \[2, 2, 1\]/,
    ],
    [
      () => rope(x, 1, { dim: 8, mropeSection: [1.5, 1.5, 1] }),
      RangeError,
      "ERR_MROPE_SECTION",
      "mropeSection",
      /"mropeSection" .* got \[1.5, 1.5, 1\]/,
    ],
    [
      () => rope(x, streams, { dim: 8, mropeSection: [2, 2] }),
      RangeError,
      "ERR_MROPE_SECTION",
      "mropeSection",
    ],
    [
      () => rope(x, streams, { dim: 8 }),
      TypeError,
      "ERR_REQUIRED",
      "mropeSection",
    ],
    [
      () => rope(x, [1, 2, 3], { dim: 8, mropeInterleaved: true }),
      TypeError,
      "ERR_NOT_APPLICABLE",
      "mropeInterleaved",
    ],
    [
      () => rope(x, streams, { ...section, mropeInterleaved: 1 }),
      TypeError,
      "ERR_NOT_BOOLEAN",
      "mropeInterleaved",
    ],
    [
      () => rope(x, { t: [1, 2], h: [1, 2], w: [3, 4] }, section),
      RangeError,
      "ERR_LENGTH",
      "positions.t",
      /one entry per row: 3 rows, got 2/,
    ],
    [
      () =>
        rope(
          x,
          { t: [1, 2], h: [1, 2], w: [3, 4] },
          {
            ...section,
            heads: 3,
            order: "bshd",
          },
        ),
      RangeError,
      "ERR_LENGTH",
      "positions.t",
    ],
    [
      () => rope(x, { t: [1, 2, 3], h: [1, 2, 3], w: [1, NaN, 3] }, section),
      RangeError,
      "ERR_POSITIONS",
      "positions.w[1]",
      /positions.w\[1\] must be finite, got NaN/,
    ],
    [
      () =>
        rope(
          x,
          { t: [1, 2, 3], h: [1, 2, 1e308], w: [1, 2, 3] },
          { ...section, scale: 10 },
        ),
      RangeError,
      "ERR_POSITIONS",
      "positions",
    ],
  ];
  // The class, the rule's code and the option; the message where the
  // values quoted are the point.
  for (const [call, Type, code, option, pattern] of cases)
    assert.throws(
      call,
      (error) =>
        error instanceof Type &&
        error.code === code &&
        error.option === option &&
        (pattern === undefined || pattern.test(error.message)),
      `${code} ${option} ${pattern ?? ""}`,
    );
  // Nothing was written by a refused in-place call, and the module goes on.
  const y = Float32Array.from(seededValues(3 * 8, 1));
  const before = y.slice();
  assert.throws(() =>
    rope(y, streams, { dim: 8, mropeSection: [1, 1, 1], inPlace: true }),
  );
  assert.deepEqual(y, before);
  // Pair 1 (columns 1 and 3, frequency 0.01) takes w = 2.
  const got = rope(
    Float64Array.of(0, 1, 0, 0),
    { t: [0], h: [0], w: [2] },
    {
      dim: 4,
      mropeSection: [1, 0, 1],
    },
  );
  const want = [0, Math.cos(0.02), 0, Math.sin(0.02)];
  got.forEach((v, c) => assert.ok(Math.abs(v - want[c]) <= 1e-16, `${c}`));
});

test("M-RoPE positions are read once: each stream and getter, before any work", () => {
  const reads = { t: 0, h: 0, w: 0, section: 0 };
  const stream = (key, values) =>
    new Proxy(values, {
      get(target, property, receiver) {
        if (property === "length") reads[key]++;
        return Reflect.get(target, property, receiver);
      },
    });
  const positions = {
    get t() {
      return stream("t", [1, 2]);
    },
    get h() {
      return stream("h", [3, 4]);
    },
    get w() {
      return stream("w", [5, 6]);
    },
  };
  const options = {
    dim: 8,
    get mropeSection() {
      reads.section++;
      return [2, 1, 1];
    },
  };
  const got = rope(new Float64Array(16).fill(1), positions, options);
  assert.deepEqual(reads, { t: 1, h: 1, w: 1, section: 1 });
  // The same as the streams given plainly.
  const plain = rope(
    new Float64Array(16).fill(1),
    { t: [1, 2], h: [3, 4], w: [5, 6] },
    { dim: 8, mropeSection: [2, 1, 1] },
  );
  assert.deepEqual(got, plain);
});

test("M-RoPE streams as BigInt64Array or BigUint64Array are the integers they hold", () => {
  const section = { dim: 24, mropeSection: [4, 4, 4] };
  const bigints = {
    t: BigInt64Array.from(IMAGE.t, BigInt),
    h: BigUint64Array.from(IMAGE.h, BigInt),
    w: BigInt64Array.from(IMAGE.w, BigInt),
  };
  const float64 = {
    t: Float64Array.from(IMAGE.t),
    h: IMAGE.h,
    w: Float64Array.from(IMAGE.w),
  };
  const n = IMAGE.t.length;
  const { data } = dataOf("float32", 2 * n * 24, 5);
  const rows = data.subarray(0, n * 24);
  assert.deepEqual(rope(rows, bigints, section), rope(rows, float64, section));
  const tensor = { ...section, heads: 2, order: "bshd" };
  assert.deepEqual(rope(data, bigints, tensor), rope(data, IMAGE, tensor));
  const plan = createRope(section);
  assert.deepEqual(plan.apply(rows, bigints), rope(rows, IMAGE, section));
  const cache = { ...section, positions: bigints };
  assert.deepEqual(ropeCache(cache), ropeCache({ ...cache, positions: IMAGE }));
  // The exact doubles' ends are held.
  const ends = [-(2 ** 53), 0, 2 ** 53];
  const x = Float64Array.of(1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1);
  const small = { dim: 4, mropeSection: [1, 0, 1] };
  assert.deepEqual(
    rope(
      x,
      { t: [0, 1, 2], h: [0, 1, 2], w: BigInt64Array.from(ends, BigInt) },
      small,
    ),
    rope(x, { t: [0, 1, 2], h: [0, 1, 2], w: ends }, small),
  );
});

test("M-RoPE BigInt positions beyond the exact doubles are refused by index, and the module goes on", () => {
  const x = new Float32Array(3 * 8).fill(1);
  const section = { dim: 8, mropeSection: [2, 1, 1] };
  const streams = { t: [1, 2, 3], h: [1, 2, 3], w: [4, 5, 6] };
  for (const [key, values] of [
    ["t", BigInt64Array.of(1n, 2n ** 53n + 1n, 3n)],
    ["h", BigInt64Array.of(1n, 2n, -(2n ** 63n))],
    ["w", BigUint64Array.of(2n ** 64n - 1n, 5n, 6n)],
  ]) {
    const index = values.findIndex((v) => v > 2n ** 53n || v < -(2n ** 53n));
    for (const call of [
      () => rope(x, { ...streams, [key]: values }, section),
      () => ropeCache({ ...section, positions: { ...streams, [key]: values } }),
    ])
      assert.throws(call, (error) => {
        assert.ok(error instanceof RangeError, error.message);
        assert.equal(error.code, "ERR_OUT_OF_RANGE");
        assert.equal(error.option, `positions.${key}[${index}]`);
        return true;
      });
  }
  // A Proxy is no typed array: its BigInt elements are no numbers, in a
  // stream as in plain positions.
  const proxy = () =>
    new Proxy(BigInt64Array.of(1n, 2n, 3n), {
      get: (target, key) => Reflect.get(target, key),
    });
  assert.throws(() => rope(x, { ...streams, t: proxy() }, section), {
    name: "TypeError",
    code: "ERR_NOT_NUMBER",
    option: "positions.t[0]",
  });
  assert.throws(() => rope(x, proxy(), section), {
    name: "TypeError",
    code: "ERR_NOT_NUMBER",
    option: "positions[0]",
  });
  assert.deepEqual(
    rope(x, { ...streams, t: BigInt64Array.of(1n, 2n, 3n) }, section),
    rope(x, streams, section),
  );
});

test("M-RoPE BigInt streams are read through the intrinsics: their own overrides run no code", () => {
  const section = { dim: 8, mropeSection: [2, 1, 1] };
  const x = Float32Array.from(seededValues(3 * 8, 3));
  const expected = rope(
    x,
    { t: [1, 2, 3], h: [4, 5, 6], w: [7, 8, 9] },
    section,
  );
  const t = BigInt64Array.of(1n, 2n, 3n);
  const h = BigUint64Array.of(4n, 5n, 6n);
  let reads = 0;
  for (const stream of [t, h])
    for (const key of [
      "length",
      "buffer",
      "byteOffset",
      "constructor",
      Symbol.toStringTag,
    ])
      Object.defineProperty(stream, key, {
        get() {
          reads++;
          // A re-entrant call that also grows the module's memory.
          rope(new Float32Array(2 ** 20), 1, { dim: 8 });
          return 0;
        },
      });
  assert.deepEqual(rope(x, { t, h, w: [7, 8, 9] }, section), expected);
  assert.equal(reads, 0);
});
