import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";
import {
  frequencies,
  init,
  LAYOUTS,
  ropeCache,
  table,
} from "../../dist/index.js";
import {
  maxAbsDiff,
  paperFrequencies,
  referenceRow,
  shiftedFrequencies,
  timescaleFrequencies,
} from "./reference.js";

await init();

function assertClose(actual, expected, tolerance, message) {
  const err = maxAbsDiff(actual, expected);
  assert.ok(err <= tolerance, `${message}: max error ${err} > ${tolerance}`);
}

// Checks every row of a table against the reference. The angles use the
// library's frequencies so both sides form the same double p·w (their own
// accuracy is tested separately against independent formulas).
function checkTable(options, rowPositions) {
  const w = frequencies(options);
  const f32 = table(options);
  const f64 = table({ ...options, dtype: "float64" });
  assert.ok(f32 instanceof Float32Array && f64 instanceof Float64Array);
  assert.equal(f32.length, rowPositions.length * options.dim);
  rowPositions.forEach((p, row) => {
    const want = referenceRow(p, w, options);
    const offset = row * options.dim;
    const label = `${JSON.stringify({ ...options, positions: undefined })} p=${p}`;
    assert.ok(maxAbsDiff(f32, want, offset) <= 6e-8, `float32 ${label}`);
    assert.ok(maxAbsDiff(f64, want, offset) <= 1e-13, `float64 ${label}`);
  });
}

test("frequencies follow each schedule's formula", () => {
  for (const dim of [1, 2, 3, 5, 64, 768, 4097, 65536]) {
    for (const base of [2, 10000, 1e9]) {
      const w = frequencies({ dim, base });
      const want = paperFrequencies(dim, Math.ceil(dim / 2), base);
      assert.equal(w.length, want.length);
      // Math.pow of the rounded exponent −2i/d is itself off by up to
      // ln(base)·2^−53 relative, plus its own last bit.
      const tolerance = (Math.log(base) + 2) * 2 ** -52;
      w.forEach((x, i) =>
        assert.ok(Math.abs(x - want[i]) <= tolerance * want[i]),
      );
    }
  }
  const t = frequencies({
    dim: 64,
    schedule: "timescale",
    minTimescale: 2,
    maxTimescale: 5e4,
  });
  assertClose(t, timescaleFrequencies(64, 2, 5e4), 1e-15, "timescale");
  const s = frequencies({ dim: 64, schedule: "shifted", base: 1e4, shift: 0 });
  assertClose(s, shiftedFrequencies(64, 1e4, 0), 1e-15, "shifted");
  assert.equal(frequencies({ dim: 5, oddDim: "zero-pad" }).length, 2);
  assert.equal(frequencies({ dim: 5 }).length, 3);
});

test("the paper table at its first rows is sin/cos of p / 10000^(2i/d)", () => {
  const t = table({ positions: 3, dim: 4 });
  const want = [
    0,
    1,
    0,
    1,
    Math.sin(1),
    Math.cos(1),
    Math.sin(0.01),
    Math.cos(0.01),
  ];
  assertClose(t.subarray(0, 8), want, 3e-8, "rows 0-1");
  assert.equal(t.length, 12);
});

test("every layout, odd-dim rule and shape matches the reference", () => {
  for (const dim of [1, 2, 3, 5, 64, 768, 4097])
    for (const layout of LAYOUTS)
      for (const oddDim of ["zero-pad", "extra-sin"])
        checkTable(
          { positions: 200, dim, layout, oddDim },
          Array.from({ length: 200 }, (_, i) => i),
        );
});

test("large, negative and fractional positions up to 2^24", () => {
  const positions = [
    0,
    0.5,
    -3.25,
    1e6 + 0.125,
    2 ** 24 - 1,
    2 ** 24,
    -(2 ** 24),
    8388607.75,
  ];
  for (const dim of [2, 3, 64, 768, 4097])
    for (const base of [2, 10000, 1e9])
      checkTable({ positions, dim, base, layout: "halves" }, positions);
  // Evenly spaced rows near 2^24 run many re-seeded recurrence steps.
  const start = 2 ** 24 - 600;
  checkTable(
    { positions: 600, start, dim: 768 },
    Array.from({ length: 600 }, (_, i) => start + i),
  );
  checkTable({ positions: [2 ** 24 - 1, 12345.678], dim: 65536 }, [
    2 ** 24 - 1,
    12345.678,
  ]);
});

test("schedules, explicit frequencies, scale and outputScale", () => {
  const rows = Array.from({ length: 150 }, (_, i) => i - 7.5);
  checkTable(
    {
      positions: 150,
      start: -7.5,
      dim: 64,
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale: 1e4,
      layout: "halves",
    },
    rows,
  );
  checkTable(
    {
      positions: 150,
      start: -7.5,
      dim: 33,
      schedule: "shifted",
      base: 1e4,
      shift: 1,
    },
    rows,
  );
  checkTable(
    { positions: 150, start: -7.5, dim: 6, frequencies: [1, 0.5, 0.25] },
    rows,
  );
  checkTable({ positions: 150, start: -7.5, dim: 64, scale: 1000 }, rows);
  const scaled = table({ positions: 10, dim: 8, outputScale: 0.5 });
  const plain = table({ positions: 10, dim: 8, dtype: "float64" });
  assertClose(
    scaled,
    Array.from(plain, (x) => 0.5 * x),
    3e-8,
    "outputScale",
  );
});

test("property: any dim, base, layout and position match the reference", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 300 }),
      fc.double({ min: 1.5, max: 1e8, noNaN: true }),
      fc.constantFrom(...LAYOUTS),
      fc.array(fc.double({ min: -(2 ** 24), max: 2 ** 24, noNaN: true }), {
        minLength: 1,
        maxLength: 5,
      }),
      (dim, base, layout, positions) => {
        checkTable({ positions, dim, base, layout }, positions);
      },
    ),
    { numRuns: 200 },
  );
});

test("odd dims: extra-sin puts w_h's sin last or at the end of the sin block", () => {
  const last = Math.sin(2 * 10000 ** (-4 / 5));
  const t = table({ positions: [2], dim: 5, dtype: "float64" });
  assert.ok(Math.abs(t[4] - last) <= 1e-15);
  const h = table({
    positions: [2],
    dim: 5,
    layout: "halves",
    dtype: "float64",
  });
  assert.equal(h[2], t[4]);
  const z = table({ positions: [2], dim: 5, oddDim: "zero-pad" });
  assert.equal(z[4], 0);
  assert.throws(() => table({ positions: 1, dim: 5, oddDim: "error" }), {
    name: "RangeError",
    code: "ERR_ODD_DIM",
    option: "dim",
  });
});

test("evenly spaced position arrays: the recurrence, exactly where it applies", () => {
  const range = Float64Array.from({ length: 1000 }, (_, i) => 0.5 * i - 100);
  checkTable({ positions: range, dim: 64 }, Array.from(range));
  // x[0] + (x[1] − x[0]) rounds onto x[1] but misses it in real arithmetic.
  const near = [-2.000129183185494e-12, 220129.81507478622, 440259.6301495724];
  checkTable({ positions: near, dim: 2, base: 2 }, near);
});

test("evenly spaced positions give the rows of start + j, bit for bit, from two rows on", () => {
  // One row plan for every kernel: two positions p, p + 1 are the rows of a
  // count from p, whether given as an array or as { positions: 2, start }.
  for (const [start, dim] of [
    [5, 4096],
    [3, 1030],
    [3, 2048],
  ]) {
    const pair = Float64Array.from([start, start + 1]);
    assert.deepEqual(
      table({ positions: pair, dim }),
      table({ positions: 2, start, dim }),
      `table at ${start}, dim ${dim}`,
    );
    assert.deepEqual(
      ropeCache({ positions: pair, dim }),
      ropeCache({ positions: 2, start, dim }),
      `ropeCache at ${start}, dim ${dim}`,
    );
  }
});

test("positions: 0 and positions: [] both give an empty table", () => {
  for (const dtype of ["float32", "float64"])
    for (const view of [false, true]) {
      const Typed = dtype === "float32" ? Float32Array : Float64Array;
      const none = table({ positions: 0, dim: 6, dtype, view });
      assert.ok(none instanceof Typed);
      assert.equal(none.length, 0);
      const empty = table({ positions: [], dim: 6, dtype, view });
      assert.ok(empty instanceof Typed);
      assert.equal(empty.length, 0);
    }
  assert.equal(table({ positions: 0, start: 5, dim: 4 }).length, 0);
  assert.equal(table({ preset: "whisper", positions: 0, dim: 8 }).length, 0);
  assert.throws(() => table({ positions: -1, dim: 4 }), {
    name: "RangeError",
    code: "ERR_OUT_OF_RANGE",
    option: "positions",
  });
});

// "0x1.f3dd9b4840eecp-1" → the double it names, exactly.
function hexFloat(text) {
  const [, mantissa, exponent] = /^0x1\.([0-9a-f]{13})p([-+]\d+)$/.exec(text);
  return (1 + parseInt(mantissa, 16) / 2 ** 52) * 2 ** Number(exponent);
}

test("paper frequencies are the correctly rounded base^(−2i/d) (mpmath)", () => {
  const text = readFileSync(
    new URL("../vectors/frequencies/paper.txt", import.meta.url),
    "utf8",
  );
  const cases = new Map();
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [base, dim, i, value] = line.trim().split(/\s+/);
    const key = `${base} ${dim}`;
    if (!cases.has(key)) cases.set(key, []);
    cases.get(key)[Number(i)] = hexFloat(value);
  }
  assert.ok(cases.size >= 30);
  for (const [key, want] of cases) {
    const [base, dim] = key.split(" ").map(Number);
    const w = frequencies({ dim, base });
    want.forEach((x, i) =>
      assert.equal(w[i], x, `base ${base} dim ${dim} i ${i}`),
    );
  }
});
