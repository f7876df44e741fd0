import assert from "node:assert/strict";
import { test } from "node:test";
import * as pe from "../../dist/index.js";
import { frequencies, init, table } from "../../dist/index.js";

await init();

const good = { positions: 4, dim: 6 };
const expected = table(good);

// Each bad call throws the given class with the code of the rule it breaks
// and the option it names (null: not checked), and, where the wording is
// the point (a range, a list, the values quoted), a message that matches
// `pattern`; the next valid call still returns the same correct table.
function rejects(options, ErrorClass, code, option, pattern) {
  assert.throws(
    () => table(options),
    (error) => {
      assert.ok(error instanceof ErrorClass, `${error.name}: ${error.message}`);
      assert.equal(error.code, code, error.message);
      if (option !== null) assert.equal(error.option, option, error.message);
      if (pattern !== undefined) assert.match(error.message, pattern);
      return true;
    },
  );
  assert.deepEqual(table(good), expected);
}

test("counts and shapes", () => {
  rejects({ dim: 4 }, TypeError, "ERR_NOT_ARRAY", "positions");
  rejects(
    { positions: -1, dim: 4 },
    RangeError,
    "ERR_OUT_OF_RANGE",
    "positions",
    /"positions" must be an integer in \[0, /,
  );
  rejects(
    { positions: -3, dim: 4 },
    RangeError,
    "ERR_OUT_OF_RANGE",
    "positions",
  );
  rejects(
    { positions: 2.5, dim: 4 },
    RangeError,
    "ERR_NOT_INTEGER",
    "positions",
  );
  rejects({ positions: "3", dim: 4 }, TypeError, "ERR_NOT_ARRAY", "positions");
  rejects({ positions: 3 }, TypeError, "ERR_NOT_NUMBER", "dim");
  rejects(
    { positions: 3, dim: 0 },
    RangeError,
    "ERR_DIM",
    "dim",
    /"dim" must be an integer in \[1, 1048576\]/,
  );
  rejects({ positions: 3, dim: 2 ** 20 + 2 }, RangeError, "ERR_DIM", "dim");
  rejects({ positions: 3, dim: 4.5 }, RangeError, "ERR_DIM", "dim");
  rejects(
    { positions: 3, dim: 5, oddDim: "error" },
    RangeError,
    "ERR_ODD_DIM",
    "dim",
    /table: options "dim" and "oddDim" must be an even dim, .* got "dim" = 5, "oddDim" = "error"/,
  );
});

test("numbers that must be finite and in range", () => {
  rejects(
    { positions: 3, dim: 4, base: 1 },
    RangeError,
    "ERR_BASE",
    "base",
    /"base" must be a finite number > 1/,
  );
  rejects({ positions: 3, dim: 4, base: 0.5 }, RangeError, "ERR_BASE", "base");
  rejects(
    { positions: 3, dim: 4, base: Infinity },
    RangeError,
    "ERR_BASE",
    "base",
  );
  rejects({ positions: 3, dim: 4, base: NaN }, RangeError, "ERR_BASE", "base");
  rejects(
    { positions: 3, dim: 4, base: "1e4" },
    TypeError,
    "ERR_NOT_NUMBER",
    "base",
  );
  rejects(
    { positions: 3, dim: 4, scale: NaN },
    RangeError,
    "ERR_SCALE",
    "scale",
  );
  rejects(
    { positions: 3, dim: 4, outputScale: Infinity },
    RangeError,
    "ERR_OUTPUT_SCALE",
    "outputScale",
  );
  rejects(
    { positions: 3, dim: 4, start: NaN },
    RangeError,
    "ERR_POSITIONS",
    "start",
  );
  rejects(
    { positions: 3, dim: 4, schedule: "timescale", minTimescale: 0 },
    RangeError,
    "ERR_TIMESCALE",
    "minTimescale",
  );
  rejects(
    { positions: 3, dim: 4, schedule: "timescale", maxTimescale: -1 },
    RangeError,
    "ERR_TIMESCALE",
    null,
  );
  rejects(
    { positions: 3, dim: 8, schedule: "shifted", shift: 4 },
    RangeError,
    "ERR_SHIFT",
    "shift",
    /"shift" must be finite, differ from floor\(dim \/ 2\)/,
  );
  rejects(
    { positions: 3, dim: 8, schedule: "shifted", shift: NaN },
    RangeError,
    "ERR_SHIFT",
    "shift",
  );
});

test("positions must be finite, and so must every angle", () => {
  rejects(
    { positions: [0, 1, NaN], dim: 4 },
    RangeError,
    "ERR_POSITIONS",
    "positions[2]",
  );
  rejects(
    { positions: [0, Infinity], dim: 4 },
    RangeError,
    "ERR_POSITIONS",
    "positions[1]",
  );
  rejects(
    { positions: [0, "1"], dim: 4 },
    TypeError,
    "ERR_NOT_NUMBER",
    "positions[1]",
  );
  rejects(
    { positions: BigInt64Array.of(0n, 2n ** 53n + 1n), dim: 4 },
    RangeError,
    "ERR_OUT_OF_RANGE",
    "positions[1]",
    /positions\[1\] must be within ±2\^53/,
  );
  rejects(
    { positions: [1e308], dim: 4, scale: 10 },
    RangeError,
    "ERR_POSITIONS",
    "positions",
    /positions × the largest frequency (times option "scale" \(\d+\) )?must be a finite angle/,
  );
  rejects(
    { positions: 3, start: 1.7e308, dim: 4, scale: 2 },
    RangeError,
    "ERR_POSITIONS",
    "positions",
    /positions × the largest frequency (times option "scale" \(\d+\) )?must be a finite angle/,
  );
  rejects(
    { positions: [1, 2], start: 1, dim: 4 },
    TypeError,
    "ERR_NOT_APPLICABLE",
    "start",
  );
});

test("names that must be one of a list", () => {
  rejects(
    { positions: 3, dim: 4, layout: "rows" },
    RangeError,
    "ERR_LAYOUT",
    "layout",
    /"layout" must be one of "interleaved"/,
  );
  rejects(
    { positions: 3, dim: 4, schedule: "rope" },
    RangeError,
    "ERR_SCHEDULE",
    "schedule",
  );
  rejects(
    { positions: 3, dim: 5, oddDim: "pad" },
    RangeError,
    "ERR_NOT_ONE_OF",
    "oddDim",
  );
  rejects(
    { positions: 3, dim: 4, dtype: "float16" },
    RangeError,
    "ERR_DTYPE",
    "dtype",
    /"dtype" must be one of "float32", "float64"/,
  );
  rejects(
    { positions: 3, dim: 4, dtype: Float32Array },
    TypeError,
    "ERR_NOT_STRING",
    "dtype",
  );
  rejects(
    { positions: 3, dim: 4, view: 1 },
    TypeError,
    "ERR_NOT_BOOLEAN",
    "view",
  );
  rejects(
    { positions: 3, dim: 4, dimension: 4 },
    TypeError,
    "ERR_UNKNOWN_OPTION",
    "dimension",
  );
  rejects(
    { positions: 3, dim: 4, schedule: "timescale", base: 100 },
    TypeError,
    "ERR_NOT_APPLICABLE",
    "base",
  );
  assert.throws(() => table(null), TypeError);
  assert.throws(() => table([3, 4]), TypeError);
});

test("explicit frequencies", () => {
  rejects(
    { positions: 3, dim: 4, frequencies: [1] },
    RangeError,
    "ERR_FREQUENCIES",
    "frequencies",
    /must have 2 entries for dim 4, got 1/,
  );
  rejects(
    { positions: 3, dim: 4, frequencies: [1, NaN] },
    RangeError,
    "ERR_FREQUENCIES",
    "frequencies[1]",
  );
  rejects(
    { positions: 3, dim: 4, frequencies: 1 },
    TypeError,
    "ERR_NOT_ARRAY",
    "frequencies",
  );
  rejects(
    { positions: 3, dim: 4, frequencies: [1, 2], base: 10 },
    TypeError,
    "ERR_COMBINATION",
    "base",
  );
  assert.throws(() => frequencies({ dim: 0 }), RangeError);
  assert.equal(frequencies({ dim: 4 }).length, 2);
});

test("results larger than the 4 GiB address space", () => {
  rejects(
    { positions: 70000, dim: 65536 },
    RangeError,
    "ERR_SIZE",
    "positions",
    /more than the module's 4 GiB/,
  );
  rejects(
    { positions: 2 ** 32 - 1, dim: 2 },
    RangeError,
    "ERR_SIZE",
    "positions",
  );
  rejects(
    { positions: 2 ** 27, dim: 8, dtype: "float64" },
    RangeError,
    "ERR_SIZE",
    "positions",
  );
});

test("timescales that give non-finite frequencies", () => {
  rejects(
    {
      positions: 3,
      dim: 12,
      schedule: "timescale",
      minTimescale: 13013.5,
      maxTimescale: 1e-309,
    },
    RangeError,
    "ERR_TIMESCALE",
    "minTimescale",
  );
});

test("an outputScale beyond the float32 range", () => {
  rejects(
    { positions: 3, dim: 4, outputScale: 1e39 },
    RangeError,
    "ERR_OUTPUT_SCALE",
    "outputScale",
    /table: option "outputScale" must be a finite number whose values fit the result \(float32: within ±3\.4028234663852886e38;.*, got 1e\+39$/,
  );
  assert.equal(
    table({ positions: 3, dim: 4, outputScale: 1e39, dtype: "float64" })[1],
    1e39,
  );
});

// The C core is the one owner of the rules on values: each refusal below
// comes from its status, and the message names the public function, the
// option, the allowed range and the value the caller gave.
test("a value the C core refuses is named with its function, option, range and value", () => {
  const yarn = { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 64 };
  const llama3 = {
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 64,
  };
  const cases = [
    [
      () => pe.table({ positions: 3, dim: 4, base: 1 }),
      'table: option "base" must be a finite number > 1, got 1',
    ],
    [
      () => pe.frequencies({ dim: 8, base: -Infinity }),
      'frequencies: option "base" must be a finite number > 1, got -Infinity',
    ],
    [
      () => pe.dotProducts({ dim: 8, offsets: [1], base: NaN }),
      'dotProducts: option "base" must be a finite number > 1, got NaN',
    ],
    [
      () =>
        pe.table({
          positions: 3,
          dim: 8,
          schedule: "timescale",
          minTimescale: 0,
        }),
      'table: options "minTimescale" and "maxTimescale" must be finite numbers > 0 that give finite frequencies, got "minTimescale" = 0, "maxTimescale" = 10000',
    ],
    [
      () => pe.table({ positions: 3, dim: 8, schedule: "shifted", shift: 4 }),
      'table: option "shift" must be finite, differ from floor(dim / 2) (the divisor is floor(dim / 2) - shift) and give finite frequencies, got 4',
    ],
    [
      () => pe.table({ positions: 3, dim: 4, scale: NaN, view: true }),
      'table: option "scale" must be a finite number, and scale × frequency too, got NaN',
    ],
    [
      () => pe.rotate(new Float32Array(4), 1, { dim: 4, scale: Infinity }),
      'rotate: option "scale" must be a finite number, and scale × frequency too, got Infinity',
    ],
    [
      () =>
        pe.ropeFrequencies({ dim: 8, scaling: { type: "linear", factor: 0 } }),
      'ropeFrequencies: option "scaling.factor" must be a finite number > 0 with a finite reciprocal, got 0',
    ],
    [
      () =>
        pe.rope(new Float32Array(8), 1, {
          dim: 8,
          scaling: { ...yarn, betaFast: -1 },
        }),
      'rope: options "scaling.betaFast" and "scaling.betaSlow" must be finite numbers > 0, got "scaling.betaFast" = -1',
    ],
    [
      () =>
        pe.ropeCache({
          positions: 2,
          dim: 8,
          scaling: { ...yarn, attentionFactor: -1 },
        }),
      'ropeCache: option "scaling.attentionFactor" must be a finite number > 0 that fits the dtype, got -1',
    ],
    [
      () => pe.ropeFrequencies({ dim: 8, scaling: { ...yarn, mscale: -1 } }),
      'ropeFrequencies: options "scaling.mscale" and "scaling.mscaleAllDim" must be finite numbers >= 0 that give a finite attention factor > 0, got "scaling.mscale" = -1',
    ],
    [
      () =>
        pe.ropeFrequencies({
          dim: 8,
          scaling: { ...llama3, lowFreqFactor: 2, highFreqFactor: 0 },
        }),
      'ropeFrequencies: options "scaling.lowFreqFactor" and "scaling.highFreqFactor" must be finite numbers > 0, got "scaling.lowFreqFactor" = 2, "scaling.highFreqFactor" = 0',
    ],
    [
      () =>
        pe.ropeFrequencies({
          dim: 8,
          scaling: { type: "proportional", partialRotaryFactor: 1.5 },
        }),
      'ropeFrequencies: option "scaling.partialRotaryFactor" must be a finite number in [0, 1], got 1.5',
    ],
    [
      () =>
        pe.ropeFrequencies({
          dim: 8,
          scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 0 },
        }),
      'ropeFrequencies: option "scaling.maxPositionEmbeddings" must be an integer in [1, 9007199254740991], got 0',
    ],
    [
      () =>
        pe.ropeFrequencies({
          dim: 2,
          scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 8 },
        }),
      'ropeFrequencies: option "rotaryDim" must be >= 4 for rope type "dynamic" (its exponent is rotaryDim / (rotaryDim - 2); rotaryDim defaults to dim), got 2',
    ],
    [
      () => pe.decayIntegral({ x: [1], base: 0.5 }),
      'decayIntegral: option "base" must be a finite number > 1, got 0.5',
    ],
    [
      () => pe.decayComparison({ dim: 8, x: [1], theta: "power", alpha: 0 }),
      'decayComparison: option "alpha" must be a finite number >= 1/1024, got 0',
    ],
    [
      () => pe.ci(-1),
      'ci: option "x" must be > 0 (Ci is real only for positive x), got -1',
    ],
    // With a scaling too, an output scale out of range by itself is named
    // as such (not as the attention factor's product).
    [
      () =>
        pe.table({
          positions: [0],
          dim: 4,
          outputScale: NaN,
          scaling: { type: "linear", factor: 1 },
        }),
      'table: option "outputScale" must be a finite number whose values fit the result (float32: within ±3.4028234663852886e38; dot products: a finite square), got NaN',
    ],
    // Each kernel a function calls names that function: toeplitzError's
    // dot products are refused as toeplitzError's.
    [
      () => pe.toeplitzError({ dim: 8, positions: 4, outputScale: 1e200 }),
      'toeplitzError: option "outputScale" must be a finite number whose values fit the result (float32: within ±3.4028234663852886e38; dot products: a finite square), got 1e+200',
    ],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (error) => {
      assert.ok(error instanceof RangeError, `${error.name}: ${error.message}`);
      assert.equal(error.message, `sinusoidal-pe: ${message}`);
      return true;
    });
    assert.deepEqual(table(good), expected);
  }
});

test("every public function names itself in the errors it raises, the innermost when user code calls the library again", () => {
  const x = new Float32Array(8);
  const calls = {
    table: () => pe.table({ positions: 2, dim: "8" }),
    frequencies: () => pe.frequencies({ dim: 8, base: "2" }),
    tableColumns: () => pe.tableColumns({ dim: 8, layout: "diagonal" }),
    rope: () => pe.rope(x, 0, { dim: 8, pairing: "sideways" }),
    rotate: () => pe.rotate(x, "1", { dim: 8 }),
    rotationMatrix: () => pe.rotationMatrix(1.5, { dim: 8, lenght: 1 }),
    dotProducts: () => pe.dotProducts([1], { dim: 8, base: "x" }),
    toeplitzError: () => pe.toeplitzError({ dim: 8, positions: "x" }),
    linearRelationError: () => pe.linearRelationError({ dim: 8, offsets: 2 }),
    decayIntegral: () => pe.decayIntegral(1, { theta: "nope" }),
    decayComparison: () => pe.decayComparison({ theta: 2 }),
    ci: () => pe.ci("1"),
    si: () => pe.si([1], { out: 1 }),
    ropeCache: () => pe.ropeCache({ dim: 8, positions: 2, layout: "x" }),
    ropeFrequencies: () => pe.ropeFrequencies({ dim: "8" }),
    fromConfig: () => pe.fromConfig({ head_dim: 8 }, { layerType: 3 }),
    toNpy: () => pe.toNpy([1, 2]),
    npyHeader: () => pe.npyHeader("float32", "2"),
    toCsv: () => pe.toCsv(new Float32Array(4), { columns: 3 }),
  };
  for (const [name, call] of Object.entries(calls))
    assert.throws(call, (error) => {
      assert.ok(error instanceof TypeError || error instanceof RangeError);
      assert.ok(
        error.message.startsWith(`sinusoidal-pe: ${name}: `),
        `${name}: ${error.message}`,
      );
      return true;
    });
  // A getter of table's options calls rope, which refuses: rope's error
  // names rope; table's own error afterwards names table.
  let inner;
  assert.throws(
    () =>
      pe.table({
        dim: 8,
        get positions() {
          try {
            pe.rope(x, 0, { dim: "8" });
          } catch (error) {
            inner = error;
          }
          return "2";
        },
      }),
    {
      function: "table",
      option: "positions",
      code: "ERR_NOT_ARRAY",
      message: /^sinusoidal-pe: table: option "positions"/,
    },
  );
  assert.equal(inner.function, "rope");
  assert.equal(inner.option, "dim");
  assert.equal(inner.code, "ERR_NOT_NUMBER");
  assert.match(inner.message, /^sinusoidal-pe: rope: option "dim"/);
  assert.deepEqual(table(good), expected);
});
