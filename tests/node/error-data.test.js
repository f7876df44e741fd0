// Errors about an input are data: `option` (the path as the caller wrote
// it), `code` (a stable name of the rule) and `function` (the public
// function), so that callers with words of their own map the option rather
// than parse the message. And int64 positions (ONNX Runtime's position_ids)
// are read as the integers they hold.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";

await pe.init();

function refusedWith(call, expected) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof expected.type, `${error}`);
    assert.equal(error.option, expected.option, error.message);
    assert.equal(error.code, expected.code, error.message);
    assert.equal(error.function, expected.function, error.message);
    return true;
  });
  assert.equal(pe.table({ positions: [0], dim: 2, dtype: "float64" })[1], 1);
}

const CASES = [
  // Rules JS owns: types, reading, sizes of allocations.
  [
    () => pe.table({ positions: 4, dim: "8" }),
    {
      type: TypeError,
      option: "dim",
      code: "ERR_NOT_NUMBER",
      function: "table",
    },
  ],
  [
    () => pe.table({ positions: 4, dim: 8, dtyp: "float64" }),
    {
      type: TypeError,
      option: "dtyp",
      code: "ERR_UNKNOWN_OPTION",
      function: "table",
    },
  ],
  [
    () => pe.table({ positions: [0, 1, NaN], dim: 8 }),
    {
      type: RangeError,
      option: "positions[2]",
      code: "ERR_POSITIONS",
      function: "table",
    },
  ],
  [
    () => pe.table({ positions: 4, dim: 8, layout: "half" }),
    {
      type: RangeError,
      option: "layout",
      code: "ERR_LAYOUT",
      function: "table",
    },
  ],
  [
    () => pe.rope(new Float32Array(8), [0, 1, 2], { dim: 4 }),
    {
      type: RangeError,
      option: "positions",
      code: "ERR_LENGTH",
      function: "rope",
    },
  ],
  [
    () => pe.rope(new Int8Array(8), 0, { dim: 4 }),
    { type: TypeError, option: "vectors", code: "ERR_TYPE", function: "rope" },
  ],
  [
    () => pe.table({ positions: 2, dim: 4, out: new Float64Array(8) }),
    { type: TypeError, option: "out", code: "ERR_TYPE", function: "table" },
  ],
  // Rules the C core owns: the status's name and its option.
  [
    () => pe.table({ positions: 4, dim: 8, base: 1 }),
    { type: RangeError, option: "base", code: "ERR_BASE", function: "table" },
  ],
  [
    () => pe.frequencies({ dim: 8, base: 0.5 }),
    {
      type: RangeError,
      option: "base",
      code: "ERR_BASE",
      function: "frequencies",
    },
  ],
  [
    () => pe.decayIntegral({ x: 1, theta: "power", alpha: 0 }),
    {
      type: RangeError,
      option: "alpha",
      code: "ERR_ALPHA",
      function: "decayIntegral",
    },
  ],
];

test("every input error carries its option, its rule's code and its function", () => {
  for (const [call, expected] of CASES) refusedWith(call, expected);
});

test("a getter that calls the library again gets its own function named", () => {
  const options = {
    positions: 2,
    get dim() {
      refusedWith(() => pe.frequencies({ dim: 8, base: 1 }), {
        type: RangeError,
        option: "base",
        code: "ERR_BASE",
        function: "frequencies",
      });
      return -1;
    },
  };
  refusedWith(() => pe.table(options), {
    type: RangeError,
    option: "dim",
    code: "ERR_DIM",
    function: "table",
  });
});

test("BigInt64Array positions are the integers they hold", () => {
  const ids = BigInt64Array.of(0n, 5n, -3n, 4096n);
  const same = [0, 5, -3, 4096];
  assert.deepEqual(
    pe.table({ positions: ids, dim: 16 }),
    pe.table({ positions: same, dim: 16 }),
  );
  const cache = pe.ropeCache({ positions: ids, dim: 8, base: 500000 });
  const plain = pe.ropeCache({ positions: same, dim: 8, base: 500000 });
  assert.deepEqual(cache.cos, plain.cos);
  assert.deepEqual(cache.sin, plain.sin);
  const rows = Float32Array.from({ length: 32 }, (_, i) => Math.sin(i));
  assert.deepEqual(
    pe.rope(rows, ids, { dim: 8 }),
    pe.rope(rows, same, { dim: 8 }),
  );
  assert.deepEqual(
    pe.rope(rows, BigUint64Array.of(7n, 9n), {
      dim: 8,
      heads: 2,
      order: "bshd",
    }),
    pe.rope(rows, [7, 9], { dim: 8, heads: 2, order: "bshd" }),
  );
});

test("int64 positions beyond the exact doubles are refused by index", () => {
  refusedWith(
    () => pe.table({ positions: BigInt64Array.of(1n, -(2n ** 60n)), dim: 4 }),
    {
      type: RangeError,
      option: "positions[1]",
      code: "ERR_OUT_OF_RANGE",
      function: "table",
    },
  );
});
