// Random typed arrays with one lying property (fast-check, seeded): any
// size, any values, any of the properties a caller can override on an
// instance, as a wrong value, a throwing getter or a getter that re-enters
// the library. The call must return exactly what it returns for an honest
// array of the same values, and read none of the overridden properties.
//
// PROPERTY_RUNS sets the sample (default 200), PROPERTY_SEED the seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as pe from "../../dist/index.js";

await pe.init();

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);

const PROPERTIES = [
  "constructor",
  "length",
  "buffer",
  "byteOffset",
  "byteLength",
  "BYTES_PER_ELEMENT",
  "subarray",
  "slice",
  "set",
  Symbol.toStringTag,
  Symbol.iterator,
];

const WRONG_VALUES = [
  Uint8Array,
  { [Symbol.species]: Int8Array },
  0,
  1,
  2 ** 32,
  -1,
  new ArrayBuffer(8),
  () => new Float32Array(1024).fill(9),
  "Float64Array",
  null,
];

// Calls that take one attacked typed array `a` of the given length.
const CALLS = [
  {
    name: "rope vectors",
    make: (values) => Float32Array.from(values),
    call: (a, dim) => pe.rope(a, 7, { dim }),
  },
  {
    name: "rotate vectors (float64)",
    make: (values) => Float64Array.from(values),
    call: (a, dim) => pe.rotate(a, -3, { dim }),
  },
  {
    name: "table positions",
    make: (values) => Float64Array.from(values),
    call: (a, dim) => pe.table({ positions: a, dim }),
  },
  {
    name: "dotProducts offsets",
    make: (values) => Float64Array.from(values.slice(0, 64)),
    call: (a, dim) => pe.dotProducts({ dim, offsets: a }),
  },
];

function reenter() {
  pe.table({ positions: 32, dim: 32, view: true });
  pe.table({ positions: 32, dim: 32, view: true });
}

const plain = (result) => Array.from(result);

test("a typed array with a lying property gives the honest result", () => {
  const run = fc.check(
    fc.property(
      fc.integer({ min: 0, max: CALLS.length - 1 }),
      fc.integer({ min: 1, max: 32 }).map((pairs) => 2 * pairs),
      fc.integer({ min: 1, max: 12 }),
      fc.double({ min: -1e4, max: 1e4, noNaN: true }),
      fc.integer({ min: 0, max: PROPERTIES.length - 1 }),
      fc.oneof(
        fc.integer({ min: 0, max: WRONG_VALUES.length - 1 }),
        fc.constantFrom("throws", "re-enters"),
      ),
      (which, dim, rows, seed, property, how) => {
        const { make, call } = CALLS[which];
        const values = Array.from(
          { length: rows * dim },
          (_, i) => seed / (i + 1),
        );
        const expected = plain(call(make(values), dim));
        const attacked = make(values);
        let reads = 0;
        Object.defineProperty(
          attacked,
          PROPERTIES[property],
          typeof how === "number"
            ? { value: WRONG_VALUES[how], configurable: true }
            : {
                get() {
                  reads++;
                  if (how === "throws") throw new SyntaxError("getter");
                  reenter();
                  return 1;
                },
                configurable: true,
              },
        );
        const got = plain(call(attacked, dim));
        return (
          reads === 0 &&
          got.length === expected.length &&
          got.every((v, i) => Object.is(v, expected[i]))
        );
      },
    ),
    { numRuns: RUNS, seed: SEED },
  );
  if (run.failed)
    assert.fail(
      `seed ${SEED}, path ${run.counterexamplePath}: ${fc.stringify(run.counterexample)}\n${run.errorInstance?.message ?? run.error}`,
    );
});
