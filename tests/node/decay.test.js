import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  ci,
  decayComparison,
  decayIntegral,
  dotProducts,
  init,
  si,
  table,
} from "../../dist/index.js";

await init();

// Rows of numbers from a committed mpmath vector file (see
// tests/vectors/generate_decay_vectors.py).
function vectors(name) {
  const text = readFileSync(
    new URL(`../vectors/decay/${name}.txt`, import.meta.url),
    "utf8",
  );
  return text
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => line.trim().split(/\s+/).map(Number));
}

function groupBy(rows, key) {
  const groups = new Map();
  for (const row of rows) {
    if (!groups.has(row[key])) groups.set(row[key], []);
    groups.get(row[key]).push(row);
  }
  return groups;
}

test("exp family within 1e-13 of mpmath for base in [1.0001, 1e8], |x| ≤ 1e6", () => {
  const bases = groupBy(vectors("exp"), 0);
  for (const base of [1.0001, 100, 1000, 10000, 1e8])
    assert.ok(bases.has(base), `vectors cover base ${base}`);
  for (const [base, rows] of bases) {
    const x = rows.map((r) => r[1]);
    const f = decayIntegral({ theta: "exp", base, x });
    const negative = decayIntegral({ theta: "exp", base, x: x.map((v) => -v) });
    rows.forEach(([, xi, want], j) => {
      assert.ok(
        Math.abs(f[j] - want) <= 1e-13,
        `base ${base} x ${xi}: ${f[j]} vs ${want}`,
      );
      assert.equal(negative[j], f[j], "even in x");
    });
  }
});

test("power family within 1e-10 of mpmath for alpha in [0.25, 4], |x| ≤ 1e5", () => {
  for (const [alpha, rows] of groupBy(vectors("power"), 0)) {
    const f = decayIntegral({
      theta: "power",
      alpha,
      x: rows.map((r) => r[1]),
    });
    rows.forEach(([, xi, want], j) =>
      assert.ok(
        Math.abs(f[j] - want) <= 1e-10,
        `alpha ${alpha} x ${xi}: ${f[j]} vs ${want}`,
      ),
    );
  }
});

test("linear family and alpha = 1 are sin(x)/x", () => {
  const rows = vectors("linear");
  const x = rows.map((r) => r[0]);
  const linear = decayIntegral({ theta: "linear", x });
  const power1 = decayIntegral({ theta: "power", alpha: 1, x });
  rows.forEach(([xi, want], j) => {
    assert.ok(Math.abs(linear[j] - want) <= 1e-15, `x ${xi}`);
    assert.ok(Math.abs(power1[j] - want) <= 1e-13, `alpha 1, x ${xi}`);
  });
});

test("Ci and Si within 2e-15 relative of mpmath on [1e-8, 1e6]", () => {
  const rows = vectors("ci_si");
  const x = rows.map((r) => r[0]);
  assert.ok(Math.min(...x) <= 1e-8 && Math.max(...x) >= 1e6);
  const c = ci(x);
  const s = si(x);
  const sNegative = si(x.map((v) => -v));
  rows.forEach(([xi, wantCi, wantSi], j) => {
    // Near its zeros Ci is judged against its envelope min(1, 1/x).
    const envelope = Math.min(1, 1 / xi);
    assert.ok(
      Math.abs(c[j] - wantCi) <= 2e-15 * Math.abs(wantCi) + 5e-16 * envelope,
      `Ci(${xi}) = ${c[j]}, want ${wantCi}`,
    );
    assert.ok(Math.abs(s[j] - wantSi) <= 2e-15 * Math.abs(wantSi), `Si(${xi})`);
    assert.equal(sNegative[j], -s[j], "Si is odd");
  });
  assert.equal(ci(1), c[x.indexOf(1)] ?? ci([1])[0]);
  assert.equal(typeof si(0.5), "number");
});

test("quadrature agrees with the closed form and bounds its own error", () => {
  const exp = vectors("exp").filter(([, x]) => x <= 1e4);
  const power = vectors("power").filter(([, x]) => x <= 1e4);
  for (const [theta, rows] of [
    ["exp", exp],
    ["power", power],
  ]) {
    for (const [parameter, group] of groupBy(rows, 0)) {
      const options =
        theta === "exp" ? { base: parameter } : { alpha: parameter };
      const x = group.map((r) => r[1]);
      const closed = decayIntegral({ theta, ...options, x });
      const { values, errors } = decayIntegral({
        theta,
        ...options,
        x,
        method: "quadrature",
      });
      group.forEach(([, xi, want], j) => {
        const label = `${theta} ${parameter} x ${xi}`;
        assert.ok(Math.abs(values[j] - closed[j]) <= 1e-9, label);
        assert.ok(
          Math.abs(values[j] - want) <= errors[j],
          `${label}: estimate ${errors[j]}`,
        );
      });
    }
  }
});

test("f(0) = 1 for every family, and grids equal explicit points", () => {
  for (const options of [
    { theta: "exp" },
    { theta: "power", alpha: 2.5 },
    { theta: "linear" },
  ])
    assert.equal(decayIntegral({ ...options, x: [0] })[0], 1);
  const onGrid = decayIntegral({ x: { from: -5, to: 5, count: 11 } });
  const listed = decayIntegral({ x: [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5] });
  assert.deepEqual(onGrid, listed);
});

test("the finite-d sum beside (d/2)·f(x): d = 768, x = 1000", () => {
  const { x, sum, integral } = decayComparison({ dim: 768, x: [0, 1000] });
  assert.deepEqual(Array.from(x), [0, 1000]);
  assert.equal(sum[0], 384);
  assert.equal(integral[0], 384);
  assert.ok(Math.abs(sum[1] - 62.3) < 0.05, `sum ${sum[1]}`);
  assert.ok(Math.abs(integral[1] - 72.1) < 0.05, `integral ${integral[1]}`);
  // For exp the θ_i are the paper schedule: the sum is the dot product of
  // two table rows.
  const g = dotProducts({ dim: 768, offsets: [1000] });
  assert.ok(Math.abs(sum[1] - g[0]) < 1e-11);
  const rows = table({ positions: [0, 1000], dim: 768, dtype: "float64" });
  let dot = 0;
  for (let c = 0; c < 768; c++) dot += rows[c] * rows[768 + c];
  assert.ok(Math.abs(dot - sum[1]) < 1e-11);
  // Power family: θ_i = (2i/d)^alpha.
  const power = decayComparison({ dim: 64, theta: "power", alpha: 2, x: [3] });
  let want = 0;
  for (let i = 0; i < 32; i++) want += Math.cos(3 * ((2 * i) / 64) ** 2);
  assert.ok(Math.abs(power.sum[0] - want) < 1e-13);
});

test("bad input names the option; the module keeps working", () => {
  const good = decayIntegral({ x: [0.5, 7] });
  const bad = [
    [
      { x: [1], base: 1 },
      RangeError,
      "ERR_BASE",
      "base",
      /"base" must be a finite number > 1/,
    ],
    [{ x: [1], base: Infinity }, RangeError, "ERR_BASE", "base"],
    [{ x: [1], base: "10" }, TypeError, "ERR_NOT_NUMBER", "base"],
    [{ theta: "power", x: [1] }, TypeError, "ERR_REQUIRED", "alpha"],
    [{ theta: "power", alpha: 0, x: [1] }, RangeError, "ERR_ALPHA", "alpha"],
    [{ theta: "power", alpha: -1, x: [1] }, RangeError, "ERR_ALPHA", "alpha"],
    [
      { theta: "linear", alpha: 2, x: [1] },
      TypeError,
      "ERR_NOT_APPLICABLE",
      "alpha",
    ],
    [
      { theta: "power", alpha: 2, base: 10, x: [1] },
      TypeError,
      "ERR_NOT_APPLICABLE",
      "base",
    ],
    [{ theta: "gauss", x: [1] }, RangeError, "ERR_THETA", "theta"],
    [{ x: [1, NaN] }, RangeError, "ERR_NOT_FINITE", "x[1]"],
    [{ x: [Infinity] }, RangeError, "ERR_NOT_FINITE", "x[0]"],
    [{ x: ["1"] }, TypeError, "ERR_NOT_NUMBER", "x[0]"],
    [{ x: [] }, RangeError, "ERR_LENGTH", "x"],
    [{}, TypeError, "ERR_NOT_ARRAY", "x"],
    [
      { x: { from: 0, to: 1, count: 0 } },
      RangeError,
      "ERR_OUT_OF_RANGE",
      "x.count",
      /"x.count" must be an integer in \[1, 268435456\]/,
    ],
    [
      { x: { from: 0, to: 1, count: 2 ** 29 } },
      RangeError,
      "ERR_OUT_OF_RANGE",
      "x.count",
    ],
    [
      { x: { from: 0, to: 1, count: 1.5 } },
      RangeError,
      "ERR_NOT_INTEGER",
      "x.count",
    ],
    [
      { x: { from: 0, to: NaN, count: 3 } },
      RangeError,
      "ERR_NOT_FINITE",
      "x.to",
    ],
    [{ x: { from: 0, count: 3 } }, TypeError, "ERR_NOT_NUMBER", "x.to"],
    [{ x: [1], method: "simpson" }, RangeError, "ERR_NOT_ONE_OF", "method"],
    [
      { x: [2e6], method: "quadrature" },
      RangeError,
      "ERR_QUADRATURE_X",
      "x",
      /\|x\| <= 1000000/,
    ],
    [{ x: [1], beta: 2 }, TypeError, "ERR_UNKNOWN_OPTION", "beta"],
  ];
  // The class, the rule's code and the option; the message where a range
  // is the point.
  for (const [options, ErrorClass, code, option, pattern] of bad) {
    assert.throws(
      () => decayIntegral(options),
      (error) => {
        assert.ok(
          error instanceof ErrorClass,
          `${JSON.stringify(options)}: ${error.name} ${error.message}`,
        );
        assert.equal(error.code, code, error.message);
        assert.equal(error.option, option, error.message);
        if (pattern !== undefined) assert.match(error.message, pattern);
        return true;
      },
    );
    assert.deepEqual(decayIntegral({ x: [0.5, 7] }), good);
  }
  assert.throws(() => ci(0), {
    name: "RangeError",
    code: "ERR_CI_X",
    option: "x",
    function: "ci",
  });
  assert.throws(() => ci([1, -2]), { code: "ERR_CI_X", option: "x" });
  assert.throws(() => si([NaN]), RangeError);
  assert.throws(() => si("1"), TypeError);
  assert.throws(() => decayComparison({ dim: 1, x: [1] }), {
    name: "RangeError",
    code: "ERR_DIM",
    option: "dim",
    message: /"dim" must be an integer in \[2, /,
  });
  assert.deepEqual(decayIntegral({ x: [0.5, 7] }), good);
  assert.equal(ci(1), ci([1])[0]);
});
