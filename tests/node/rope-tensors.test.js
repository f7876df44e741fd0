// rope on what attention code holds: partial rotary heads, 4-D tensors in
// both orders with positions from a KV cache's past length or per batch
// row, and float64 and float16 data, each against a float64 reference
// written here (float16 bit for bit after rounding that reference once).
import { test } from "node:test";
import assert from "node:assert/strict";
import { init, rope, rotate } from "../../dist/index.js";
import {
  cosOfProduct,
  halfToNumber,
  numberToHalf,
  referenceTensor,
  seededValues,
  sinOfProduct,
  TENSOR_INDEX,
} from "./reference.js";

await init();

// One row turned as transformers does: the first `rotary` columns form
// pairs (i, i + rotary/2) ("halves") or (2i, 2i+1) ("interleaved") with
// inv_freq = base^(-2i/rotary); the rest pass through.
function referenceRow(row, p, { rotary, pairing = "halves", base = 10000 }) {
  const out = row.slice();
  const h = rotary / 2;
  for (let i = 0; i < h; i++) {
    const w = base ** (-(2 * i) / rotary);
    const [x, y] = pairing === "halves" ? [i, i + h] : [2 * i, 2 * i + 1];
    const c = cosOfProduct(p, w);
    const s = sinOfProduct(p, w);
    out[x] = row[x] * c - row[y] * s;
    out[y] = row[y] * c + row[x] * s;
  }
  return out;
}

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++)
    assert.ok(
      Math.abs(actual[i] - expected[i]) <= tolerance(expected[i]),
      `${what}[${i}]: ${actual[i]} against ${expected[i]}`,
    );
}
const float32Rounding = (v) => 2 ** -24 * Math.abs(v) + 1e-12;

test("partial rotary: the columns past rotaryDim pass through untouched", () => {
  const q = new Float32Array(2 * 64).fill(1);
  rope(q, 5, { dim: 64, rotaryDim: 32, inPlace: true });
  for (let row = 0; row < 2; row++)
    for (let c = 32; c < 64; c++) assert.equal(q[row * 64 + c], 1);
  const expected = referenceRow(Array(64).fill(1), 5, { rotary: 32 });
  assertClose(q.slice(0, 64), expected, float32Rounding, "row 0");
});

test("partial rotary in both pairings, for odd head widths too", () => {
  for (const pairing of ["halves", "interleaved"])
    for (const [dim, rotary] of [
      [80, 32],
      [33, 8],
      [10, 10],
    ]) {
      const data = seededValues(3 * dim, dim + rotary);
      const got = rope(Float64Array.from(data), [0, 17, 1e4], {
        dim,
        rotaryDim: rotary,
        pairing,
      });
      assert.ok(got instanceof Float64Array);
      const expected = [0, 17, 1e4].flatMap((p, r) =>
        referenceRow(data.slice(r * dim, (r + 1) * dim), p, {
          rotary,
          pairing,
        }),
      );
      // The reference's w = base^(-2i/rotary) in plain double is a few ulps
      // from the correctly rounded one: at p = 1e4 that moves the angle by
      // up to about 1e-12.
      assertClose(
        got,
        expected,
        (v) => 1e-11 * (1 + Math.abs(v)),
        `${pairing} ${dim}/${rotary}`,
      );
    }
});

test("4-D tensors in both orders, positions from a past length or per batch row", () => {
  const shape = { B: 2, H: 3, S: 300, D: 16 };
  const { B, H, S, D } = shape;
  // float32 values, so the reference turns what rope reads.
  const data = Array.from(Float32Array.from(seededValues(B * H * S * D, 11)));
  const perBatch = Float64Array.from({ length: B * S }, (_, i) =>
    i < S ? i : 3 * (i - S) + 5,
  );
  const cases = [
    [1000, (b, s) => 1000 + s],
    [Float64Array.from({ length: S }, (_, s) => s * 2), (b, s) => s * 2],
    [perBatch, (b, s) => perBatch[b * S + s]],
  ];
  for (const order of ["bhsd", "bshd"])
    for (const [positions, positionOf] of cases)
      for (const rotaryDim of [16, 8]) {
        const got = rope(Float32Array.from(data), positions, {
          dim: D,
          rotaryDim,
          heads: H,
          batch: B,
          order,
        });
        const expected = referenceTensor(data, shape, order, (row, b, s) =>
          referenceRow(row, positionOf(b, s), { rotary: rotaryDim }),
        );
        assertClose(
          got,
          expected,
          float32Rounding,
          `${order} rotary ${rotaryDim}`,
        );
      }
});

// A sequence of 1100 tokens × 8 heads × 32 float32 values (1 KiB a token)
// spans two of the chunks rows are copied through (three in float64), so
// each head's rows are gathered from several places per chunk.
test("tensors longer than a chunk, in both orders and float32 and float64", () => {
  const shape = { B: 2, H: 8, S: 1100, D: 32 };
  const { B, H, S, D } = shape;
  const data = Array.from(Float32Array.from(seededValues(B * H * S * D, 5)));
  const perBatch = Float64Array.from({ length: B * S }, (_, i) =>
    i < S ? 7 + i : 2 * (i - S),
  );
  for (const Typed of [Float32Array, Float64Array])
    for (const order of ["bhsd", "bshd"]) {
      const got = rope(Typed.from(data), perBatch, {
        dim: D,
        rotaryDim: 24,
        heads: H,
        batch: B,
        order,
      });
      const expected = referenceTensor(data, shape, order, (row, b, s) =>
        referenceRow(row, perBatch[b * S + s], { rotary: 24 }),
      );
      assertClose(
        got,
        expected,
        // float64: the reference's own rounding of each frequency (an ulp,
        // times positions up to 2200) turns values of magnitude ≤ 1.
        Typed === Float32Array ? float32Rounding : () => 2e-12,
        `${Typed.name} ${order}`,
      );
    }
});

test("bshd and bhsd of the same tensor give the same rows", () => {
  const shape = { B: 1, H: 4, S: 130, D: 8 };
  const { H, S, D } = shape;
  const bhsd = Float32Array.from(seededValues(H * S * D, 3));
  const bshd = new Float32Array(bhsd.length);
  for (let h = 0; h < H; h++)
    for (let s = 0; s < S; s++)
      for (let d = 0; d < D; d++)
        bshd[TENSOR_INDEX.bshd(shape, 0, h, s, d)] =
          bhsd[TENSOR_INDEX.bhsd(shape, 0, h, s, d)];
  const a = rope(bhsd, 40, { dim: D, heads: H, order: "bhsd" });
  const b = rope(bshd, 40, { dim: D, heads: H, order: "bshd" });
  for (let h = 0; h < H; h++)
    for (let s = 0; s < S; s++)
      for (let d = 0; d < D; d++)
        assert.ok(
          Math.abs(
            a[TENSOR_INDEX.bhsd(shape, 0, h, s, d)] -
              b[TENSOR_INDEX.bshd(shape, 0, h, s, d)],
          ) <=
            2 ** -23,
        );
});

test("float16 data: half bits in, half bits out, each rounded once from the exact value", () => {
  const dim = 24;
  const rows = 40;
  const bits = Uint16Array.from(seededValues(rows * dim, 5), numberToHalf);
  const positions = Array.from({ length: rows }, (_, r) => r * 97 + 0.5);
  for (const rotaryDim of [24, 12]) {
    const got = rope(bits, positions, { dim, rotaryDim });
    assert.ok(got instanceof Uint16Array);
    for (let r = 0; r < rows; r++) {
      const row = Array.from(bits.slice(r * dim, (r + 1) * dim), halfToNumber);
      const expected = referenceRow(row, positions[r], { rotary: rotaryDim });
      for (let c = 0; c < dim; c++)
        assert.equal(
          got[r * dim + c],
          numberToHalf(expected[c]),
          `row ${r} column ${c}: ${halfToNumber(got[r * dim + c])} against ${expected[c]}`,
        );
    }
  }
  // In place, the same bits.
  const copy = bits.slice();
  rope(copy, positions, { dim, inPlace: true });
  assert.deepEqual(copy, rope(bits, positions, { dim }));
  // A float16 out must be a Uint16Array too.
  assert.throws(
    () => rope(bits, positions, { dim, out: new Float32Array(bits.length) }),
    { name: "TypeError", code: "ERR_TYPE", option: "out" },
  );
});

test("rotate on float16 rows: R(k) in double, each value rounded once", () => {
  const dim = 16;
  const rows = 12;
  const bits = Uint16Array.from(seededValues(rows * dim, 9), numberToHalf);
  const offsets = Array.from({ length: rows }, (_, r) => r * 31 - 100.25);
  const got = rotate(bits, offsets, { dim });
  assert.ok(got instanceof Uint16Array);
  for (let r = 0; r < rows; r++)
    for (let i = 0; i < dim / 2; i++) {
      // Interleaved (sin, cos) pairs: sin(p+k)w = s cos kw + c sin kw,
      // cos(p+k)w = c cos kw − s sin kw.
      const w = 10000 ** (-(2 * i) / dim);
      const [x, y] = [2 * i, 2 * i + 1].map((c) =>
        halfToNumber(bits[r * dim + c]),
      );
      const c = cosOfProduct(offsets[r], w);
      const s = sinOfProduct(offsets[r], w);
      assert.equal(got[r * dim + 2 * i], numberToHalf(x * c + y * s));
      assert.equal(got[r * dim + 2 * i + 1], numberToHalf(y * c - x * s));
    }
});

test("tensor and rotary options are checked by name", () => {
  const x = new Float32Array(2 * 3 * 8);
  const cases = [
    [
      { dim: 8, rotaryDim: 5 },
      RangeError,
      "ERR_ROTARY_DIM",
      "rotaryDim",
      /"rotaryDim" and "dim" must give a rotary part \(the whole head when no rotary dim is given\) that is even, >= 2 and <= the head dim, got "rotaryDim" = 5, "dim" = 8$/,
    ],
    [
      { dim: 8, rotaryDim: 10 },
      RangeError,
      "ERR_ROTARY_DIM",
      "rotaryDim",
      /"rotaryDim" and "dim" must give a rotary part.*got "rotaryDim" = 10, "dim" = 8$/,
    ],
    [{ dim: 8, rotaryDim: "4" }, TypeError, "ERR_NOT_NUMBER", "rotaryDim"],
    [{ dim: 8, heads: 3 }, TypeError, "ERR_REQUIRED", "order"],
    [{ dim: 8, heads: 4, order: "bhsd" }, RangeError, "ERR_HEADS", "heads"],
    [
      { dim: 8, heads: 3, order: "bsdh" },
      RangeError,
      "ERR_NOT_ONE_OF",
      "order",
      /"order" must be one of "bhsd", "bshd"/,
    ],
    [{ dim: 8, order: "bhsd" }, TypeError, "ERR_NOT_NUMBER", "heads"],
    [
      { dim: 7 },
      RangeError,
      "ERR_ROTARY_DIM",
      "dim",
      /"rotaryDim" and "dim" must give a rotary part.*got "dim" = 7$/,
    ],
  ];
  // The class, the rule's code and the option; the message where the
  // values quoted or the list allowed are the point.
  for (const [options, Type, code, option, pattern] of cases)
    assert.throws(
      () => rope(x, 1, options),
      (error) =>
        error instanceof Type &&
        error.code === code &&
        error.option === option &&
        (pattern === undefined || pattern.test(error.message)),
      JSON.stringify(options),
    );
  // The core's rule on both dims names the one the caller gave.
  for (const [options, option] of [
    [{ dim: 8, rotaryDim: 5 }, "rotaryDim"],
    [{ dim: 7 }, "dim"],
  ])
    assert.throws(
      () => rope(x, 1, options),
      (error) => error.code === "ERR_ROTARY_DIM" && error.option === option,
    );
  // The message quotes both lengths that would do.
  assert.throws(
    () => rope(x, [1, 2, 3, 4], { dim: 8, heads: 3, batch: 2, order: "bshd" }),
    {
      name: "RangeError",
      code: "ERR_LENGTH",
      option: "positions",
      message: /positions must hold seq \(1\) or batch × seq \(2\) positions/,
    },
  );
  // The module goes on.
  assert.equal(rope(Float32Array.of(1, 0), 0, { dim: 2 })[0], 1);
});
