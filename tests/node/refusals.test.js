// Inputs that used to be read as something else, or refused under another
// option's name: each is a TypeError or RangeError naming what was wrong,
// and the module goes on.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";

await pe.init();

function refused(call, Type, pattern) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Type, `${error}`);
    assert.match(error.message, pattern);
    return true;
  });
  assert.equal(pe.table({ positions: [0], dim: 2, dtype: "float64" })[1], 1);
}

test("a DataView is not an array of numbers", () => {
  const view = new DataView(new ArrayBuffer(16));
  refused(
    () => pe.table({ positions: view, dim: 4 }),
    TypeError,
    /"positions".*DataView/,
  );
  refused(() => pe.rotate(view, 1, { dim: 4 }), TypeError, /vectors.*DataView/);
  refused(
    () => pe.rotate(new Float32Array(4), view, { dim: 4 }),
    TypeError,
    /offsets.*DataView/,
  );
  refused(() => pe.decayIntegral({ x: view }), TypeError, /"x".*DataView/);
});

test("a view past the end of a shrunk resizable buffer is refused, not read as empty", () => {
  const buffer = new ArrayBuffer(64, { maxByteLength: 64 });
  const positions = new Float64Array(buffer, 32, 2);
  const vectors = new Float32Array(buffer, 32, 4);
  buffer.resize(16);
  refused(
    () => pe.table({ positions, dim: 4 }),
    TypeError,
    /positions is out of bounds/,
  );
  refused(
    () => pe.rope(vectors, 1, { dim: 4 }),
    TypeError,
    /vectors is out of bounds/,
  );
  refused(
    () => pe.table({ positions: 2, dim: 4, out: vectors }),
    TypeError,
    /"out" is out of bounds/,
  );
});

test("BigInt arrays are refused by name where they are not positions", () => {
  refused(
    () =>
      pe.table({ positions: [0], dim: 4, frequencies: new BigInt64Array(2) }),
    TypeError,
    /frequencies must hold numbers, got a BigInt64Array/,
  );
  refused(
    () => pe.rope(new BigUint64Array(4), 1, { dim: 4 }),
    TypeError,
    /vectors .*got a BigUint64Array/,
  );
});

test("array-likes longer than the module can hold are refused by name", () => {
  for (const length of [2 ** 40, 2 ** 53 - 1]) {
    refused(
      () => pe.table({ positions: { length }, dim: 4 }),
      RangeError,
      /positions has \d+ elements, more than/,
    );
    refused(
      () => pe.rotate({ length }, 1, { dim: 4 }),
      RangeError,
      /vectors has \d+ elements/,
    );
  }
});

test("integer typed arrays are not taken as rows; a Uint16Array is float16 data", () => {
  refused(
    () => pe.rope(new Int16Array(8), 0, { dim: 8 }),
    TypeError,
    /vectors must be a Float32Array or Float64Array or Uint16Array.*, got a Int16Array/,
  );
  refused(
    () => pe.rotate(new Int8Array(8), 0, { dim: 8 }),
    TypeError,
    /vectors must be a Float32Array or Float64Array.*Int8Array/,
  );
});

test("null is not the default of an enum option", () => {
  for (const key of ["dtype", "layout", "oddDim", "schedule"])
    refused(
      () => pe.table({ positions: 2, dim: 4, [key]: null }),
      TypeError,
      new RegExp(`option "${key}" must be one of .*got null`),
    );
  refused(
    () => pe.decayIntegral({ x: [1], theta: null }),
    TypeError,
    /"theta".*got null/,
  );
  refused(
    () => pe.decayIntegral({ x: [1], method: null }),
    TypeError,
    /"method".*got null/,
  );
  refused(
    () => pe.rope(new Float32Array(4), 1, { dim: 4, pairing: null }),
    TypeError,
    /"pairing".*got null/,
  );
});

test("an angle that overflows through option scale names it", () => {
  refused(
    () => pe.table({ positions: 4, dim: 8, scale: 1e308 }),
    RangeError,
    /table: positions × .*option "scale" \(1e\+308\)/,
  );
  refused(
    () => pe.rope(new Float32Array(8), 3, { dim: 8, scale: 1e308 }),
    RangeError,
    /rope: positions × .*option "scale"/,
  );
  refused(
    () => pe.rotate(new Float32Array(8), 3, { dim: 8, scale: 1e308 }),
    RangeError,
    /rotate: offsets × .*option "scale"/,
  );
});

test("mlx frequencies whose ratio overflows name maxFreq and minFreq", () => {
  refused(
    () => pe.table({ preset: "mlx", dim: 8, positions: 3, maxFreq: 5e-324 }),
    RangeError,
    /"maxFreq" and "minFreq"/,
  );
  refused(
    () => pe.table({ preset: "mlx", dim: 8, positions: 3, minFreq: 5e-324 }),
    RangeError,
    /"maxFreq" and "minFreq"/,
  );
});

test("scaling and options of another kind than a plain object are refused by name", () => {
  for (const scaling of [new Date(0), new Map(), new Set(), /x/])
    refused(
      () => pe.table({ positions: 2, dim: 8, scaling }),
      TypeError,
      /option "scaling" must be a plain object, got (Date|Map|Set|RegExp)/,
    );
  refused(
    () => pe.table(new Map()),
    TypeError,
    /options must be a plain object, got Map/,
  );
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
    /the attention factor of option "scaling" \(1\.2\d*e\+307/,
  );
});

test("ropeCache: null is not a default", () => {
  refused(
    () => pe.ropeCache({ dim: 8, positions: 2, layout: null }),
    TypeError,
    /"layout" must be one of "compact", .*got null/,
  );
  refused(
    () => pe.ropeCache({ dim: 8, positions: 2, dtype: null }),
    TypeError,
    /"dtype" must be one of .*got null/,
  );
  refused(
    () => pe.ropeFrequencies({ dim: 8, scaling: { type: null } }),
    TypeError,
    /"scaling.type" must be one of .*got null/,
  );
});
