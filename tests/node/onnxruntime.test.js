// ONNX Runtime end to end: one-node models of RotaryEmbedding (the ONNX
// opset-23 operator and onnxruntime's com.microsoft contrib operator), run
// by onnxruntime-web's wasm backend in Node, fed ropeCache's caches and
// position_ids past a KV cache, against rope on the same rows and a float64
// reference written here. The option mapping is docs/onnxruntime.md's.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import * as ort from "onnxruntime-web";
import { init, rope, ropeCache } from "sinusoidal-pe";
import { ELEMENT, contribRotaryModel, oneNodeModel } from "./onnx-model.js";
import { halfToNumber, numberToHalf, seededValues } from "./reference.js";

const HEADS = 2;
const HEAD_DIM = 16;
const SEQ = 3;
const PAST = 10; // tokens already in the KV cache: the queries are at 10, 11, 12
const START = 4; // the cache's first row is position 4
const ROWS = 16; // cache rows: positions 4 … 19
const BASE = 10000;

before(() => init());

// The model of each operator: 3-D input [batch, seq, heads × head dim] with
// num_heads, caches [rows, rotaryDim / 2], position_ids indexing their rows.
function model(op, { pairing, rotaryDim, dtype }) {
  const element = ELEMENT[dtype === "float32" ? "float" : "float16"];
  const attributes = {
    interleaved: pairing === "interleaved" ? 1 : 0,
    num_heads: HEADS,
    rotary_embedding_dim: rotaryDim,
  };
  return op === "onnx"
    ? oneNodeModel({
        op: "RotaryEmbedding",
        opset: 23,
        inputs: [
          ["X", element],
          ["cos_cache", element],
          ["sin_cache", element],
          ["position_ids", ELEMENT.int64],
        ],
        outputs: [["Y", element]],
        attributes,
      })
    : contribRotaryModel(attributes, element);
}

// The rows of `data` ([seq, heads, head dim] for "bshd", [heads, seq, head
// dim] for "bhsd") rotated in float64 from the definitions: pair i of the
// first rotaryDim columns turns by position · base^(−2i/rotaryDim);
// "halves" pairs (i, i + rotaryDim/2), "interleaved" (2i, 2i + 1).
function reference(data, { pairing, rotaryDim, order }) {
  const out = Array.from(data);
  const half = rotaryDim / 2;
  for (let s = 0; s < SEQ; s++)
    for (let h = 0; h < HEADS; h++) {
      const row = order === "bshd" ? s * HEADS + h : h * SEQ + s;
      const at = row * HEAD_DIM;
      for (let i = 0; i < half; i++) {
        const angle = (PAST + s) * Math.pow(BASE, (-2 * i) / rotaryDim);
        const [a, b] =
          pairing === "halves"
            ? [at + i, at + i + half]
            : [at + 2 * i, at + 2 * i + 1];
        const [x, y] = [data[a], data[b]];
        out[a] = x * Math.cos(angle) - y * Math.sin(angle);
        out[b] = y * Math.cos(angle) + x * Math.sin(angle);
      }
    }
  return out;
}

const numbers = (values, dtype) =>
  dtype === "float16" ? Array.from(values, halfToNumber) : Array.from(values);
const maxDiff = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));

// Every value is below 4 in magnitude (inputs in [−2, 2), turned pairs, a
// yarn factor of 1.14), where one unit in the last place is 2^−22 in
// float32 and 2^−9 in float16. rope rounds the exact value once (within
// half a unit, a little over where the float32 polynomials land near a
// midpoint); ORT rounds its caches' products: within one unit of both.
const ULP = { float32: 2 ** -22, float16: 2 ** -9 };

const CASES = [];
for (const op of ["onnx", "contrib"])
  for (const pairing of ["halves", "interleaved"])
    for (const rotaryDim of [HEAD_DIM, HEAD_DIM / 2])
      for (const dtype of ["float32", "float16"])
        CASES.push({ op, pairing, rotaryDim, dtype, order: "bshd" });
for (const op of ["onnx", "contrib"]) {
  // 4-D input: [batch, heads, seq, head dim] for both operators.
  CASES.push({
    op,
    pairing: "halves",
    rotaryDim: HEAD_DIM / 2,
    dtype: "float32",
    order: "bhsd",
  });
  // A long-context schedule: the caches carry yarn's attention factor.
  CASES.push({
    op,
    pairing: "halves",
    rotaryDim: HEAD_DIM,
    dtype: "float32",
    order: "bshd",
    scaling: { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 8 },
  });
}

for (const c of CASES) {
  const name = `${c.op === "onnx" ? "ONNX opset 23" : "com.microsoft"} RotaryEmbedding, ${c.order === "bshd" ? "3-D" : "4-D"}, ${c.pairing}, rotaryDim ${c.rotaryDim} of ${HEAD_DIM}, ${c.dtype}${c.scaling ? `, ${c.scaling.type}` : ""}`;
  test(`${name}: ropeCache's caches give rope's rows`, async (t) => {
    const options = {
      dim: HEAD_DIM,
      rotaryDim: c.rotaryDim,
      base: BASE,
      ...(c.scaling ? { scaling: c.scaling } : {}),
    };
    const cache = ropeCache({
      ...options,
      positions: ROWS,
      start: START,
      dtype: c.dtype,
    });
    assert.deepEqual(cache.shape, [ROWS, c.rotaryDim / 2]);

    const values = seededValues(SEQ * HEADS * HEAD_DIM, 7);
    const x =
      c.dtype === "float32"
        ? Float32Array.from(values)
        : Uint16Array.from(values, numberToHalf);
    const type = c.dtype === "float32" ? "float32" : "float16";
    const session = await ort.InferenceSession.create(model(c.op, c));
    const ids = BigInt64Array.from({ length: SEQ }, (_, s) =>
      BigInt(PAST + s - START),
    );
    const { Y } = await session.run({
      X: new ort.Tensor(
        type,
        x,
        c.order === "bshd"
          ? [1, SEQ, HEADS * HEAD_DIM]
          : [1, HEADS, SEQ, HEAD_DIM],
      ),
      cos_cache: new ort.Tensor(type, cache.cos, cache.shape),
      sin_cache: new ort.Tensor(type, cache.sin, cache.shape),
      position_ids: new ort.Tensor("int64", ids, [1, SEQ]),
    });
    await session.release();

    const expected = rope(x, PAST, {
      ...options,
      pairing: c.pairing,
      heads: HEADS,
      order: c.order,
    });
    const ortValues = numbers(Y.data, c.dtype);
    const ropeValues = numbers(expected, c.dtype);
    const againstRope = maxDiff(ortValues, ropeValues);
    let report = `max |ORT − rope| ${againstRope.toExponential(2)}`;
    assert.ok(againstRope <= ULP[c.dtype], report);
    if (!c.scaling) {
      const exact = reference(numbers(x, c.dtype), c);
      const ortError = maxDiff(ortValues, exact);
      const ropeError = maxDiff(ropeValues, exact);
      report += `, |ORT − float64| ${ortError.toExponential(2)}, |rope − float64| ${ropeError.toExponential(2)}`;
      assert.ok(ortError <= ULP[c.dtype], report);
      assert.ok(ropeError <= 0.6 * ULP[c.dtype], report);
    }
    t.diagnostic(`${name}: ${report}`);
  });
}

test("a cache built with start k is indexed by position_ids − k, and past its rows ORT refuses", async () => {
  const options = { dim: HEAD_DIM, base: BASE };
  const shifted = ropeCache({ ...options, positions: 4, start: 100 });
  const listed = ropeCache({ ...options, positions: [100, 101, 102, 103] });
  assert.deepEqual(shifted.cos, listed.cos);
  assert.deepEqual(shifted.shape, [4, HEAD_DIM / 2]);
  const session = await ort.InferenceSession.create(
    model("onnx", { pairing: "halves", rotaryDim: HEAD_DIM, dtype: "float32" }),
  );
  const x = Float32Array.from(seededValues(HEADS * HEAD_DIM, 3));
  const run = (id) =>
    session.run({
      X: new ort.Tensor("float32", x, [1, 1, HEADS * HEAD_DIM]),
      cos_cache: new ort.Tensor("float32", shifted.cos, shifted.shape),
      sin_cache: new ort.Tensor("float32", shifted.sin, shifted.shape),
      position_ids: new ort.Tensor("int64", BigInt64Array.of(id), [1, 1]),
    });
  const { Y } = await run(2n); // row 2: position 102
  const expected = rope(x, 102, { ...options, heads: HEADS, order: "bshd" });
  assert.ok(maxDiff(Array.from(Y.data), Array.from(expected)) <= ULP.float32);
  await assert.rejects(run(102n)); // the position itself is past the rows
  await session.release();
});

test("a partial-rotary cache built from the whole head is refused by the ONNX operator and misread by the contrib operator", async () => {
  const rotaryDim = HEAD_DIM / 2;
  const wide = ropeCache({ dim: HEAD_DIM, base: BASE, positions: ROWS });
  assert.deepEqual(wide.shape, [ROWS, HEAD_DIM / 2]); // rotaryDim / 2 is 4
  const x = Float32Array.from(seededValues(HEADS * HEAD_DIM, 5));
  const feeds = {
    X: new ort.Tensor("float32", x, [1, 1, HEADS * HEAD_DIM]),
    cos_cache: new ort.Tensor("float32", wide.cos, wide.shape),
    sin_cache: new ort.Tensor("float32", wide.sin, wide.shape),
    position_ids: new ort.Tensor("int64", BigInt64Array.of(3n), [1, 1]),
  };
  const c = { pairing: "halves", rotaryDim, dtype: "float32" };
  const onnx = await ort.InferenceSession.create(model("onnx", c));
  await assert.rejects(onnx.run(feeds));
  await onnx.release();
  const contrib = await ort.InferenceSession.create(model("contrib", c));
  const { Y } = await contrib.run(feeds);
  await contrib.release();
  const expected = rope(x, 3, {
    dim: HEAD_DIM,
    rotaryDim,
    base: BASE,
    heads: HEADS,
    order: "bshd",
  });
  assert.ok(maxDiff(Array.from(Y.data), Array.from(expected)) > 1e-3);
});

test("the contrib operator's scale attribute changes nothing: the output is the same bit for bit", async () => {
  const options = { dim: HEAD_DIM, base: BASE };
  const cache = ropeCache({ ...options, positions: ROWS });
  const x = Float32Array.from(seededValues(HEADS * HEAD_DIM, 9));
  const outputs = [];
  for (const scale of [undefined, 0.5, 4]) {
    const attributes = { interleaved: 0, num_heads: HEADS };
    if (scale !== undefined) attributes.scale = { float: scale };
    const session = await ort.InferenceSession.create(
      contribRotaryModel(attributes),
    );
    const { Y } = await session.run({
      X: new ort.Tensor("float32", x, [1, 1, HEADS * HEAD_DIM]),
      position_ids: new ort.Tensor("int64", BigInt64Array.of(5n), [1, 1]),
      cos_cache: new ort.Tensor("float32", cache.cos, cache.shape),
      sin_cache: new ort.Tensor("float32", cache.sin, cache.shape),
    });
    await session.release();
    outputs.push(Array.from(Y.data));
  }
  const expected = rope(x, 5, { ...options, heads: HEADS, order: "bshd" });
  assert.ok(maxDiff(outputs[0], Array.from(expected)) <= ULP.float32);
  assert.deepEqual(outputs[1], outputs[0]);
  assert.deepEqual(outputs[2], outputs[0]);
});

// GroupQueryAttention with do_rotary: the keys of one new token, rotated at
// position `past` (the KV cache's length, seqlens_k), come back in
// present_key after the past ones. The head dim must be a multiple of 16.
const GQA_HEAD = 32;
const GQA_PAST = 10;
async function gqaKeys(cache, head = GQA_HEAD, past = GQA_PAST) {
  const session = await ort.InferenceSession.create(
    oneNodeModel({
      op: "GroupQueryAttention",
      domain: "com.microsoft",
      opset: 1,
      inputs: [
        ...["query", "key", "value", "past_key", "past_value"].map((name) => [
          name,
          ELEMENT.float,
        ]),
        ["seqlens_k", ELEMENT.int32],
        ["total_sequence_length", ELEMENT.int32],
        ["cos_cache", ELEMENT.float],
        ["sin_cache", ELEMENT.float],
      ],
      outputs: ["output", "present_key", "present_value"].map((name) => [
        name,
        ELEMENT.float,
      ]),
      attributes: { num_heads: 1, kv_num_heads: 1, do_rotary: 1 },
    }),
  );
  const k = Float32Array.from(seededValues(head, 11));
  const token = (values) => new ort.Tensor("float32", values, [1, 1, head]);
  const empty = () =>
    new ort.Tensor("float32", new Float32Array(past * head), [
      1,
      1,
      past,
      head,
    ]);
  try {
    const { present_key: present } = await session.run({
      query: token(Float32Array.from(seededValues(head, 12))),
      key: token(k),
      value: token(new Float32Array(head).fill(1)),
      past_key: empty(),
      past_value: empty(),
      seqlens_k: new ort.Tensor("int32", Int32Array.of(past), [1]),
      total_sequence_length: new ort.Tensor(
        "int32",
        Int32Array.of(past + 1),
        [1],
      ),
      cos_cache: new ort.Tensor("float32", cache.cos, cache.shape),
      sin_cache: new ort.Tensor("float32", cache.sin, cache.shape),
    });
    return { k, rotated: Array.from(present.data.subarray(past * head)) };
  } finally {
    await session.release();
  }
}

test("GroupQueryAttention turns the new keys by ropeCache's caches, whole head or partial rotary", async () => {
  for (const rotaryDim of [GQA_HEAD, GQA_HEAD / 2]) {
    const options = { dim: GQA_HEAD, rotaryDim, base: BASE };
    const { k, rotated } = await gqaKeys(
      ropeCache({ ...options, positions: ROWS }),
    );
    const expected = rope(k, GQA_PAST, options);
    assert.ok(
      maxDiff(rotated, Array.from(expected)) <= ULP.float32,
      `rotaryDim ${rotaryDim}`,
    );
  }
});

test("GroupQueryAttention takes its rotary dim from the cache: a partial-rotary model given a whole-head cache turns every column, silently", async () => {
  const whole = ropeCache({ dim: GQA_HEAD, base: BASE, positions: ROWS });
  const { k, rotated } = await gqaKeys(whole);
  const partial = rope(k, GQA_PAST, {
    dim: GQA_HEAD,
    rotaryDim: GQA_HEAD / 2,
    base: BASE,
  });
  assert.ok(maxDiff(rotated, Array.from(partial)) > 1e-2);
  const everyColumn = rope(k, GQA_PAST, { dim: GQA_HEAD, base: BASE });
  assert.ok(maxDiff(rotated, Array.from(everyColumn)) <= ULP.float32);
});

test("GroupQueryAttention refuses a cache wider than head dim / 2 or of a width not a multiple of 8, one of fewer rows than the sequence, and a head dim not a multiple of 16", async () => {
  const refusals = [
    [ropeCache({ dim: 2 * GQA_HEAD, positions: ROWS }), /dimension 1/],
    [
      ropeCache({ dim: GQA_HEAD, rotaryDim: 8, positions: ROWS }),
      /dimension 1/,
    ],
    // Rows from 0: the sequence is past + 1 = 11 long.
    [ropeCache({ dim: GQA_HEAD, positions: GQA_PAST }), /dimension 0/],
  ];
  for (const [cache, message] of refusals)
    await assert.rejects(gqaKeys(cache), message);
  // A head dim of 24: a cache of 8 (rotaryDim 16) would fit the rule above.
  const cache = ropeCache({ dim: 24, rotaryDim: 16, positions: ROWS });
  await assert.rejects(
    gqaKeys(cache, 24),
    /head_size shall be a multiple of 16/,
  );
});
