// Inputs that used to be read as something else, or refused under another
// option's name: each is a TypeError or RangeError naming what was wrong,
// and the module goes on.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";

await pe.init();

// The class, the rule's code and the option; the message only where its
// wording (the values quoted) is the point.
function refused(call, Type, code, option, pattern) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Type, `${error}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.option, option, error.message);
    if (pattern !== undefined) assert.match(error.message, pattern);
    return true;
  });
  assert.equal(pe.table({ positions: [0], dim: 2, dtype: "float64" })[1], 1);
}

test("a DataView is not an array of numbers", () => {
  const view = new DataView(new ArrayBuffer(16));
  refused(
    () => pe.table({ positions: view, dim: 4 }),
    TypeError,
    "ERR_NOT_ARRAY",
    "positions",
  );
  refused(
    () => pe.rotate(view, 1, { dim: 4 }),
    TypeError,
    "ERR_TYPE",
    "vectors",
  );
  refused(
    () => pe.rotate(new Float32Array(4), view, { dim: 4 }),
    TypeError,
    "ERR_NOT_ARRAY",
    "offsets",
  );
  refused(() => pe.decayIntegral({ x: view }), TypeError, "ERR_NOT_ARRAY", "x");
});

test("a view past the end of a shrunk resizable buffer is refused, not read as empty", () => {
  const buffer = new ArrayBuffer(64, { maxByteLength: 64 });
  const positions = new Float64Array(buffer, 32, 2);
  const vectors = new Float32Array(buffer, 32, 4);
  buffer.resize(16);
  refused(
    () => pe.table({ positions, dim: 4 }),
    TypeError,
    "ERR_OUT_OF_BOUNDS",
    "positions",
  );
  refused(
    () => pe.rope(vectors, 1, { dim: 4 }),
    TypeError,
    "ERR_OUT_OF_BOUNDS",
    "vectors",
  );
  refused(
    () => pe.table({ positions: 2, dim: 4, out: vectors }),
    TypeError,
    "ERR_OUT_OF_BOUNDS",
    "out",
  );
});

test("BigInt arrays are refused by name where they are not positions", () => {
  refused(
    () =>
      pe.table({ positions: [0], dim: 4, frequencies: new BigInt64Array(2) }),
    TypeError,
    "ERR_NOT_NUMBER",
    "frequencies",
  );
  refused(
    () => pe.rope(new BigUint64Array(4), 1, { dim: 4 }),
    TypeError,
    "ERR_TYPE",
    "vectors",
  );
});

test("array-likes longer than the module can hold are refused by name", () => {
  for (const length of [2 ** 40, 2 ** 53 - 1]) {
    refused(
      () => pe.table({ positions: { length }, dim: 4 }),
      RangeError,
      "ERR_SIZE",
      "positions",
    );
    refused(
      () => pe.rotate({ length }, 1, { dim: 4 }),
      RangeError,
      "ERR_SIZE",
      "vectors",
    );
  }
});

test("integer typed arrays are not taken as rows; a Uint16Array is float16 data", () => {
  refused(
    () => pe.rope(new Int16Array(8), 0, { dim: 8 }),
    TypeError,
    "ERR_TYPE",
    "vectors",
  );
  refused(
    () => pe.rotate(new Int8Array(8), 0, { dim: 8 }),
    TypeError,
    "ERR_TYPE",
    "vectors",
  );
});

test("null is not the default of an enum option", () => {
  for (const key of ["dtype", "layout", "oddDim", "schedule"])
    refused(
      () => pe.table({ positions: 2, dim: 4, [key]: null }),
      TypeError,
      "ERR_NOT_STRING",
      key,
    );
  refused(
    () => pe.decayIntegral({ x: [1], theta: null }),
    TypeError,
    "ERR_NOT_STRING",
    "theta",
  );
  refused(
    () => pe.decayIntegral({ x: [1], method: null }),
    TypeError,
    "ERR_NOT_STRING",
    "method",
  );
  refused(
    () => pe.rope(new Float32Array(4), 1, { dim: 4, pairing: null }),
    TypeError,
    "ERR_NOT_STRING",
    "pairing",
  );
});

test("an angle that overflows through option scale names it", () => {
  refused(
    () => pe.table({ positions: 4, dim: 8, scale: 1e308 }),
    RangeError,
    "ERR_POSITIONS",
    "positions",
  );
  refused(
    () => pe.rope(new Float32Array(8), 3, { dim: 8, scale: 1e308 }),
    RangeError,
    "ERR_POSITIONS",
    "positions",
  );
  refused(
    () => pe.rotate(new Float32Array(8), 3, { dim: 8, scale: 1e308 }),
    RangeError,
    "ERR_OFFSETS",
    "offsets",
  );
});

test("mlx frequencies whose ratio overflows name maxFreq and minFreq", () => {
  refused(
    () => pe.table({ preset: "mlx", dim: 8, positions: 3, maxFreq: 5e-324 }),
    RangeError,
    "ERR_OUT_OF_RANGE",
    "maxFreq",
  );
  refused(
    () => pe.table({ preset: "mlx", dim: 8, positions: 3, minFreq: 5e-324 }),
    RangeError,
    "ERR_OUT_OF_RANGE",
    "maxFreq",
  );
});

test("scaling and options of another kind than a plain object are refused by name", () => {
  for (const scaling of [new Date(0), new Map(), new Set(), /x/])
    refused(
      () => pe.table({ positions: 2, dim: 8, scaling }),
      TypeError,
      "ERR_NOT_OBJECT",
      "scaling",
    );
  refused(() => pe.table(new Map()), TypeError, "ERR_NOT_OBJECT", "options");
  // An empty scaling is transformers' rope_scaling without rope_type: the default.
  assert.deepEqual(
    pe.table({ positions: 2, dim: 8, scaling: {} }),
    pe.table({ positions: 2, dim: 8 }),
  );
});

test("a dynamic base that overflows names scaling.factor and scaling.seqLen", () => {
  refused(
    () =>
      pe.ropeFrequencies({
        dim: 8,
        scaling: {
          type: "dynamic",
          factor: 1e308,
          maxPositionEmbeddings: 16,
          seqLen: 32,
        },
      }),
    RangeError,
    "ERR_ROPE_DYNAMIC_BASE",
    "scaling.factor",
    /ropeFrequencies: options "scaling.factor" and "scaling.seqLen" must give a finite dynamic base, .*, got "scaling.factor" = 1e\+308, "scaling.seqLen" = 32$/,
  );
});

test("an attention factor beyond float32 names option scaling, not outputScale", () => {
  const scaling = {
    type: "yarn",
    factor: 4,
    mscale: 1e308,
    mscaleAllDim: 1,
    originalMaxPositionEmbeddings: 16,
  };
  refused(
    () => pe.table({ positions: 3, dim: 8, scaling }),
    RangeError,
    "ERR_ROPE_ATTENTION",
    "scaling",
    /the attention factor of option "scaling" \(1\.2\d*e\+307/,
  );
});

test("ropeCache: null is not a default", () => {
  refused(
    () => pe.ropeCache({ dim: 8, positions: 2, layout: null }),
    TypeError,
    "ERR_NOT_STRING",
    "layout",
  );
  refused(
    () => pe.ropeCache({ dim: 8, positions: 2, dtype: null }),
    TypeError,
    "ERR_NOT_STRING",
    "dtype",
  );
  refused(
    () => pe.ropeFrequencies({ dim: 8, scaling: { type: null } }),
    TypeError,
    "ERR_NOT_STRING",
    "scaling.type",
  );
});
