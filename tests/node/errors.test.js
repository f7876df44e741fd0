import assert from "node:assert/strict";
import { test } from "node:test";
import { frequencies, init, table } from "../../dist/index.js";

await init();

const good = { positions: 4, dim: 6 };
const expected = table(good);

// Each bad call throws the given class with a message naming the option,
// and the next valid call still returns the same correct table.
function rejects(options, ErrorClass, pattern) {
  assert.throws(
    () => table(options),
    (error) => {
      assert.ok(error instanceof ErrorClass, `${error.name}: ${error.message}`);
      assert.match(error.message, pattern);
      return true;
    },
  );
  assert.deepEqual(table(good), expected);
}

test("counts and shapes", () => {
  rejects({ dim: 4 }, TypeError, /"positions" must be a count/);
  rejects(
    { positions: -1, dim: 4 },
    RangeError,
    /"positions" must be an integer in \[0, /,
  );
  rejects({ positions: -3, dim: 4 }, RangeError, /"positions"/);
  rejects({ positions: 2.5, dim: 4 }, RangeError, /"positions"/);
  rejects({ positions: "3", dim: 4 }, TypeError, /"positions"/);
  rejects({ positions: 3 }, TypeError, /"dim" must be an integer/);
  rejects(
    { positions: 3, dim: 0 },
    RangeError,
    /"dim" must be an integer in \[1, 1048576\]/,
  );
  rejects({ positions: 3, dim: 2 ** 20 + 2 }, RangeError, /"dim"/);
  rejects({ positions: 3, dim: 4.5 }, RangeError, /"dim"/);
  rejects(
    { positions: 3, dim: 5, oddDim: "error" },
    RangeError,
    /"dim" must be even/,
  );
});

test("numbers that must be finite and in range", () => {
  rejects(
    { positions: 3, dim: 4, base: 1 },
    RangeError,
    /"base" must be a finite number > 1/,
  );
  rejects({ positions: 3, dim: 4, base: 0.5 }, RangeError, /"base"/);
  rejects({ positions: 3, dim: 4, base: Infinity }, RangeError, /"base"/);
  rejects({ positions: 3, dim: 4, base: NaN }, RangeError, /"base"/);
  rejects(
    { positions: 3, dim: 4, base: "1e4" },
    TypeError,
    /"base" must be a number/,
  );
  rejects({ positions: 3, dim: 4, scale: NaN }, RangeError, /"scale"/);
  rejects(
    { positions: 3, dim: 4, outputScale: Infinity },
    RangeError,
    /"outputScale"/,
  );
  rejects({ positions: 3, dim: 4, start: NaN }, RangeError, /"start"/);
  rejects(
    { positions: 3, dim: 4, schedule: "timescale", minTimescale: 0 },
    RangeError,
    /"minTimescale"/,
  );
  rejects(
    { positions: 3, dim: 4, schedule: "timescale", maxTimescale: -1 },
    RangeError,
    /"maxTimescale"/,
  );
  rejects(
    { positions: 3, dim: 8, schedule: "shifted", shift: 4 },
    RangeError,
    /"shift" must be finite, differ from floor\(dim \/ 2\)/,
  );
  rejects(
    { positions: 3, dim: 8, schedule: "shifted", shift: NaN },
    RangeError,
    /"shift"/,
  );
});

test("positions must be finite, and so must every angle", () => {
  rejects(
    { positions: [0, 1, NaN], dim: 4 },
    RangeError,
    /positions\[2\] must be finite/,
  );
  rejects({ positions: [0, Infinity], dim: 4 }, RangeError, /positions\[1\]/);
  rejects(
    { positions: [0, "1"], dim: 4 },
    TypeError,
    /positions\[1\] must be a number/,
  );
  rejects({ positions: new BigInt64Array(2), dim: 4 }, TypeError, /BigInt/);
  rejects(
    { positions: [1e308], dim: 4, scale: 10 },
    RangeError,
    /positions × the largest frequency (times option "scale" \(\d+\) )?must be a finite angle/,
  );
  rejects(
    { positions: 3, start: 1.7e308, dim: 4, scale: 2 },
    RangeError,
    /positions × the largest frequency (times option "scale" \(\d+\) )?must be a finite angle/,
  );
  rejects(
    { positions: [1, 2], start: 1, dim: 4 },
    TypeError,
    /"start" applies only/,
  );
});

test("names that must be one of a list", () => {
  rejects(
    { positions: 3, dim: 4, layout: "rows" },
    RangeError,
    /"layout" must be one of "interleaved"/,
  );
  rejects(
    { positions: 3, dim: 4, schedule: "rope" },
    RangeError,
    /"schedule" must be one of/,
  );
  rejects(
    { positions: 3, dim: 5, oddDim: "pad" },
    RangeError,
    /"oddDim" must be one of/,
  );
  rejects(
    { positions: 3, dim: 4, dtype: "float16" },
    RangeError,
    /"dtype" must be one of "float32", "float64"/,
  );
  rejects({ positions: 3, dim: 4, dtype: Float32Array }, TypeError, /"dtype"/);
  rejects(
    { positions: 3, dim: 4, view: 1 },
    TypeError,
    /"view" must be true or false/,
  );
  rejects(
    { positions: 3, dim: 4, dimension: 4 },
    TypeError,
    /unknown option "dimension"/,
  );
  rejects(
    { positions: 3, dim: 4, schedule: "timescale", base: 100 },
    TypeError,
    /"base" does not apply to schedule "timescale"/,
  );
  assert.throws(() => table(null), TypeError);
  assert.throws(() => table([3, 4]), TypeError);
});

test("explicit frequencies", () => {
  rejects(
    { positions: 3, dim: 4, frequencies: [1] },
    RangeError,
    /must have 2 entries for dim 4, got 1/,
  );
  rejects(
    { positions: 3, dim: 4, frequencies: [1, NaN] },
    RangeError,
    /frequencies\[1\] must be finite/,
  );
  rejects(
    { positions: 3, dim: 4, frequencies: 1 },
    TypeError,
    /"frequencies" must be an array/,
  );
  rejects(
    { positions: 3, dim: 4, frequencies: [1, 2], base: 10 },
    TypeError,
    /cannot be combined/,
  );
  assert.throws(() => frequencies({ dim: 0 }), RangeError);
  assert.equal(frequencies({ dim: 4 }).length, 2);
});

test("results larger than the 4 GiB address space", () => {
  rejects(
    { positions: 70000, dim: 65536 },
    RangeError,
    /more than the module's 4 GiB/,
  );
  rejects({ positions: 2 ** 32 - 1, dim: 2 }, RangeError, /4 GiB/);
  rejects(
    { positions: 2 ** 27, dim: 8, dtype: "float64" },
    RangeError,
    /4 GiB/,
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
    /give finite frequencies/,
  );
});

test("an outputScale beyond the float32 range", () => {
  rejects(
    { positions: 3, dim: 4, outputScale: 1e39 },
    RangeError,
    /"outputScale" must stay within/,
  );
  assert.equal(
    table({ positions: 3, dim: 4, outputScale: 1e39, dtype: "float64" })[1],
    1e39,
  );
});
