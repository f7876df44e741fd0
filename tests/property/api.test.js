// Random option sets for every public function (fast-check, seeded,
// shrinking on failure). A valid set must give values that match a float64
// reference written here; a set with one option spoilt must throw a
// TypeError or RangeError that names that option; after every error the
// next valid call must still give the right values.
//
// PROPERTY_RUNS sets the sample per function (default 200; `make
// test-properties`, part of `make test`, runs 1000, and `make properties`
// 10^4), PROPERTY_SEED the seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as pe from "../../dist/index.js";
import {
  cosOfProduct,
  paperFrequencies,
  referenceRow,
  sinOfProduct,
} from "../node/reference.js";

await pe.init();

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);
const settings = { numRuns: RUNS, seed: SEED };

// fc.assert with the shrunk counterexample and its error in one message.
function holds(property) {
  const run = fc.check(property, settings);
  if (run.failed)
    assert.fail(
      `seed ${SEED}, path ${run.counterexamplePath}: ${fc.stringify(run.counterexample)}\n${run.errorInstance?.message ?? run.error}`,
    );
}

// ---- generators of valid options --------------------------------------------

const finite = (min, max) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

// RoPE scalings without an attention factor, so every function's amplitude
// stays 1.
const scaling = fc.oneof(
  fc.record({ type: fc.constant("linear"), factor: finite(1, 64) }),
  fc
    .record({
      type: fc.constant("llama3"),
      factor: finite(1, 64),
      lowFreqFactor: finite(0.5, 4),
      highFreqFactor: finite(0.5, 8),
      originalMaxPositionEmbeddings: fc.integer({ min: 1, max: 2 ** 20 }),
    })
    .filter((s) => s.highFreqFactor > s.lowFreqFactor),
);

const schedule = fc.oneof(
  fc.record({ base: finite(1.001, 1e9) }, { requiredKeys: [] }),
  fc.record(
    { base: finite(1.001, 1e9), scaling },
    { requiredKeys: ["scaling"] },
  ),
  fc.record({
    schedule: fc.constant("timescale"),
    minTimescale: finite(0.01, 100),
    maxTimescale: finite(1, 1e6),
  }),
  fc.record({
    schedule: fc.constant("shifted"),
    base: finite(1.001, 1e6),
    shift: fc.constantFrom(0, 1),
  }),
);

// dim, odd-dim rule and schedule together: the shifted schedule needs
// ⌊dim/2⌋ > shift.
const shape = fc
  .record({
    dim: fc.oneof(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 41, max: 700 }),
    ),
    oddDim: fc.constantFrom("extra-sin", "zero-pad"),
    schedule,
  })
  .filter(
    ({ dim, schedule }) =>
      (schedule.schedule !== "shifted" ||
        Math.floor(dim / 2) > schedule.shift) &&
      (schedule.scaling === undefined || dim % 2 === 0),
  )
  .map(({ dim, oddDim, schedule }) => ({
    dim,
    ...(dim % 2 ? { oddDim } : {}),
    ...schedule,
  }));

const LAYOUTS = [
  "interleaved",
  "interleaved-cos-first",
  "halves",
  "halves-cos-first",
];

// ---- independent references ---------------------------------------------------

// Every schedule continues its formula to i = h for the extra sin column.
function referenceFrequencies({
  dim,
  oddDim = "extra-sin",
  schedule = "paper",
  base = 10000,
  ...rest
}) {
  const h = Math.floor(dim / 2);
  const count = h + (dim % 2 === 1 && oddDim === "extra-sin" ? 1 : 0);
  const w = {
    paper: (i) => Math.pow(base, (-2 * i) / dim),
    timescale: (i) =>
      rest.minTimescale *
      Math.exp(
        (-i * Math.log(rest.maxTimescale / rest.minTimescale)) /
          Math.max(h - 1, 1),
      ),
    shifted: (i) => Math.exp((-Math.log(base) * i) / (h - rest.shift)),
  }[schedule];
  const scaled = rest.scaling === undefined ? w : rescaled(w, rest.scaling);
  return Array.from({ length: count }, (_, i) => scaled(i));
}

// transformers' linear and llama3 rope types over an unscaled schedule w.
function rescaled(w, { type, factor, ...s }) {
  if (type === "linear") return (i) => w(i) / factor;
  const original = s.originalMaxPositionEmbeddings;
  return (i) => {
    const wavelength = (2 * Math.PI) / w(i);
    if (wavelength < original / s.highFreqFactor) return w(i);
    if (wavelength > original / s.lowFreqFactor) return w(i) / factor;
    const smooth =
      (original / wavelength - s.lowFreqFactor) /
      (s.highFreqFactor - s.lowFreqFactor);
    return ((1 - smooth) * w(i)) / factor + smooth * w(i);
  };
}

const relativeError = (a, b) => Math.abs(a - b) / Math.abs(b);

// Which column holds the sin and which the cos of pair i.
function slots(layout, dim, i) {
  const h = Math.floor(dim / 2);
  return {
    interleaved: [2 * i, 2 * i + 1],
    "interleaved-cos-first": [2 * i + 1, 2 * i],
    halves: [i, i + h],
    "halves-cos-first": [i + h, i],
  }[layout];
}

// ---- spoiling one option ----------------------------------------------------------

// Bad values by option: [value, error class].
const BAD = {
  dim: [
    [0, RangeError],
    [-4, RangeError],
    [2.5, RangeError],
    [2 ** 20 + 1, RangeError],
    ["8", TypeError],
    [NaN, RangeError],
    [null, TypeError],
  ],
  base: [
    [1, RangeError],
    [0.5, RangeError],
    [-10, RangeError],
    [Infinity, RangeError],
    [NaN, RangeError],
    ["1e4", TypeError],
  ],
  layout: [
    ["sideways", RangeError],
    [2, TypeError],
  ],
  dtype: [
    ["int8", RangeError],
    [32, TypeError],
  ],
  scale: [
    [NaN, RangeError],
    [Infinity, RangeError],
    ["2", TypeError],
  ],
  outputScale: [
    [NaN, RangeError],
    [-Infinity, RangeError],
    [{}, TypeError],
  ],
  positions: [
    [-1, RangeError],
    [1.5, RangeError],
    ["12", TypeError],
    [[1, NaN], RangeError],
    [[1, "2"], TypeError],
    [[Infinity], RangeError],
  ],
  offsets: [
    [[NaN], RangeError],
    [["1"], TypeError],
    [{ from: 0, to: 1, count: 0 }, RangeError],
  ],
  x: [
    [[NaN], RangeError],
    [[1, "2"], TypeError],
    [{ from: 0, to: Infinity, count: 3 }, RangeError],
  ],
  theta: [
    ["cubic", RangeError],
    [7, TypeError],
  ],
  alpha: [
    [0, RangeError],
    [-1, RangeError],
    [NaN, RangeError],
    ["0.5", TypeError],
  ],
  pairing: [
    ["diagonal", RangeError],
    [1, TypeError],
  ],
  // rope's positions: one number for every row, or one per row
  ropePositions: [
    [NaN, RangeError],
    ["3", TypeError],
    [[Infinity], RangeError],
  ],
  misspelt: [[1, TypeError]],
};

const spoil = (keys) =>
  fc.option(
    fc
      .constantFrom(...keys)
      .chain((key) =>
        fc
          .constantFrom(...BAD[key])
          .map(([value, Error]) => ({ key, value, Error })),
      ),
    { freq: 3 },
  );

// Applies a spoilt option; `misspelt` stands for an unknown key.
function apply(options, bad) {
  if (bad === null) return options;
  if (bad.key === "misspelt") return { ...options, dimension: 4 };
  const spoilt = { ...options, [bad.key]: bad.value };
  // "start" goes with a count only: keep the spoilt option the only fault.
  if (bad.key === "positions" && typeof bad.value !== "number")
    delete spoilt.start;
  return spoilt;
}

function expectNamedError(call, bad) {
  let error = null;
  try {
    call();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `no error for ${bad.key} = ${String(bad.value)}`);
  assert.ok(
    error instanceof bad.Error,
    `${bad.key} = ${String(bad.value)}: ${error.name} "${error.message}", want ${bad.Error.name}`,
  );
  const name = bad.key === "misspelt" ? "dimension" : bad.key;
  assert.ok(
    error.message.includes(name),
    `"${error.message}" does not name ${name}`,
  );
  // Its code is one of the registry's, which gives the class it has, and
  // its option is the spoilt one (or an element or key of it).
  assert.equal(
    pe.errorCodes[error.code]?.error,
    error.name,
    `${error.code}: ${error.message}`,
  );
  assert.ok(
    error.option === name ||
      (String(error.option).startsWith(name) &&
        /^[[.]/.test(error.option.slice(name.length))),
    `option ${error.option} for ${name}: ${error.message}`,
  );
  stillWorks();
}

// After an error the module computes as before.
function stillWorks() {
  const row = pe.table({ positions: [3], dim: 6, dtype: "float64" });
  const want = referenceRow(3, paperFrequencies(6, 3), { dim: 6 });
  for (let j = 0; j < 6; j++) assert.ok(Math.abs(row[j] - want[j]) <= 1e-15);
}

// ---- properties -----------------------------------------------------------------

test(`frequencies: ${RUNS} option sets against the float64 formulas`, () => {
  holds(
    fc.property(shape, spoil(["dim", "base", "misspelt"]), (options, bad) => {
      const given = apply(options, bad);
      if (
        bad !== null &&
        !(bad.key === "base" && options.schedule === "timescale")
      )
        return expectNamedError(() => pe.frequencies(given), bad);
      if (bad !== null) return; // base does not apply to timescale: a different error
      const w = pe.frequencies(options);
      const want = referenceFrequencies(options);
      assert.equal(w.length, want.length);
      for (let i = 0; i < w.length; i++)
        assert.ok(
          relativeError(w[i], want[i]) <= 1e-13,
          `w[${i}] = ${w[i]}, want ${want[i]}`,
        );
    }),
  );
});

const tableOptions = fc.record({
  shape,
  layout: fc.constantFrom(...LAYOUTS),
  dtype: fc.constantFrom("float32", "float64"),
  scale: fc.oneof(fc.constant(undefined), finite(-8, 8)),
  outputScale: fc.oneof(fc.constant(undefined), finite(-4, 4)),
  positions: fc.oneof(
    fc.integer({ min: 1, max: 9 }),
    fc.array(
      fc.oneof(finite(-1e6, 1e6), fc.integer({ min: -3000, max: 3000 })),
      { minLength: 1, maxLength: 6 },
    ),
  ),
  start: fc.oneof(fc.constant(undefined), finite(-1e5, 1e5)),
});

test(`table: ${RUNS} option sets against float64 rows`, () => {
  holds(
    fc.property(
      tableOptions,
      spoil([
        "dim",
        "base",
        "layout",
        "dtype",
        "scale",
        "outputScale",
        "positions",
        "misspelt",
      ]),
      (o, bad) => {
        const options = {
          ...o.shape,
          layout: o.layout,
          dtype: o.dtype,
          positions: o.positions,
        };
        if (o.scale !== undefined) options.scale = o.scale;
        if (o.outputScale !== undefined) options.outputScale = o.outputScale;
        if (o.start !== undefined && typeof o.positions === "number")
          options.start = o.start;
        if (bad !== null) {
          if (bad.key === "base" && options.schedule === "timescale") return;
          return expectNamedError(() => pe.table(apply(options, bad)), bad);
        }
        const values = pe.table(options);
        const { dim } = options;
        const positions =
          typeof o.positions === "number"
            ? Array.from(
                { length: o.positions },
                (_, r) => (options.start ?? 0) + r,
              )
            : o.positions;
        assert.equal(values.length, positions.length * dim);
        assert.ok(
          values instanceof
            (o.dtype === "float32" ? Float32Array : Float64Array),
        );
        // The table's angles against frequencies() (checked above against the
        // formulas): the reference forms p·(scale·w_i) exactly, as documented.
        const w = pe.frequencies(o.shape);
        const amplitude = o.outputScale ?? 1;
        const tolerance =
          (o.dtype === "float32" ? 6e-8 : 1e-13) *
          Math.max(1, Math.abs(amplitude));
        positions.forEach((p, r) => {
          const want = referenceRow(p, w, {
            dim,
            layout: o.layout,
            scale: o.scale ?? 1,
          });
          for (let j = 0; j < dim; j++) {
            const error = Math.abs(values[r * dim + j] - amplitude * want[j]);
            assert.ok(
              error <= tolerance,
              `row ${r} (p=${p}) column ${j}: ${values[r * dim + j]}, want ${amplitude * want[j]}`,
            );
          }
        });
      },
    ),
  );
});

const vectors = (rows, dim, float64) =>
  fc
    .array(finite(-4, 4), { minLength: rows * dim, maxLength: rows * dim })
    .map((v) => (float64 ? Float64Array.from(v) : Float32Array.from(v)));

test(`rotate: ${RUNS} option sets against float64 rotations`, () => {
  const setup = fc
    .record({
      shape: shape.filter((s) => s.dim % 2 === 0 || s.oddDim === "zero-pad"),
      layout: fc.constantFrom(...LAYOUTS),
      rows: fc.integer({ min: 1, max: 4 }),
      float64: fc.boolean(),
      perRow: fc.boolean(),
    })
    .filter(({ shape }) => shape.dim <= 128)
    .chain((s) =>
      fc.record({
        s: fc.constant(s),
        x: vectors(s.rows, s.shape.dim, s.float64),
        k: fc.array(finite(-3e4, 3e4), {
          minLength: s.rows,
          maxLength: s.rows,
        }),
      }),
    );
  holds(
    fc.property(
      setup,
      spoil(["dim", "layout", "misspelt"]),
      ({ s, x, k }, bad) => {
        const options = { ...s.shape, layout: s.layout };
        const offsets = s.perRow ? k : k[0];
        if (bad !== null)
          return expectNamedError(
            () => pe.rotate(x, offsets, apply(options, bad)),
            bad,
          );
        const before = x.slice();
        const y = pe.rotate(x, offsets, options);
        assert.deepEqual(x, before, "the input is left alone");
        const { dim } = s.shape;
        const w = pe.frequencies(options);
        const tolerance = s.float64 ? 1e-13 : 5e-6;
        for (let r = 0; r < s.rows; r++) {
          const kr = s.perRow ? k[r] : k[0];
          const want = Array.from(x.subarray(r * dim, (r + 1) * dim));
          for (let i = 0; i < Math.floor(dim / 2); i++) {
            const [si, ci] = slots(s.layout, dim, i);
            const [a, b] = [x[r * dim + si], x[r * dim + ci]];
            const [sn, cs] = [sinOfProduct(kr, w[i]), cosOfProduct(kr, w[i])];
            want[si] = a * cs + b * sn;
            want[ci] = b * cs - a * sn;
          }
          for (let j = 0; j < dim; j++)
            assert.ok(
              Math.abs(y[r * dim + j] - want[j]) <= tolerance,
              `row ${r} column ${j}: ${y[r * dim + j]}, want ${want[j]}`,
            );
        }
      },
    ),
  );
});

test(`rope: ${RUNS} option sets against float64 rotations`, () => {
  const setup = fc
    .record({
      dim: fc.integer({ min: 1, max: 64 }).map((n) => 2 * n),
      base: fc.oneof(fc.constant(undefined), finite(1.5, 1e7)),
      pairing: fc.constantFrom("halves", "interleaved"),
      rows: fc.integer({ min: 1, max: 4 }),
    })
    .chain((s) =>
      fc.record({
        s: fc.constant(s),
        x: vectors(s.rows, s.dim, false),
        positions: fc.array(
          fc.oneof(fc.integer({ min: 0, max: 1e5 }), finite(-1e4, 1e4)),
          { minLength: s.rows, maxLength: s.rows },
        ),
      }),
    );
  holds(
    fc.property(
      setup,
      spoil(["dim", "base", "pairing", "ropePositions", "misspelt"]),
      ({ s, x, positions }, bad) => {
        const options = { dim: s.dim, pairing: s.pairing };
        if (s.base !== undefined) options.base = s.base;
        if (bad !== null) {
          if (bad.key === "ropePositions")
            return expectNamedError(() => pe.rope(x, bad.value, options), {
              ...bad,
              key: "positions",
            });
          return expectNamedError(
            () => pe.rope(x, positions, apply(options, bad)),
            bad,
          );
        }
        const y = pe.rope(x, positions, options);
        const w = pe.frequencies({ dim: s.dim, base: s.base });
        const h = s.dim / 2;
        for (let r = 0; r < s.rows; r++)
          for (let i = 0; i < h; i++) {
            const [u, v] =
              s.pairing === "halves" ? [i, i + h] : [2 * i, 2 * i + 1];
            const [a, b] = [x[r * s.dim + u], x[r * s.dim + v]];
            const [sn, cs] = [
              sinOfProduct(positions[r], w[i]),
              cosOfProduct(positions[r], w[i]),
            ];
            for (const [j, want] of [
              [u, a * cs - b * sn],
              [v, b * cs + a * sn],
            ])
              assert.ok(
                Math.abs(y[r * s.dim + j] - want) <= 5e-6,
                `row ${r} column ${j}: ${y[r * s.dim + j]}, want ${want}`,
              );
          }
      },
    ),
  );
});

test(`dotProducts: ${RUNS} option sets against float64 sums`, () => {
  const setup = fc.record({
    shape: shape.filter((s) => s.dim % 2 === 0 || s.oddDim === "zero-pad"),
    offsets: fc.oneof(
      fc.array(finite(-1e5, 1e5), { minLength: 1, maxLength: 8 }),
      fc.record({
        from: finite(-1e4, 1e4),
        to: finite(-1e4, 1e4),
        count: fc.integer({ min: 2, max: 20 }),
      }),
    ),
  });
  holds(
    fc.property(
      setup,
      spoil(["dim", "offsets", "misspelt"]),
      ({ shape, offsets }, bad) => {
        const options = { ...shape, offsets };
        if (bad !== null)
          return expectNamedError(
            () => pe.dotProducts(apply(options, bad)),
            bad,
          );
        const g = pe.dotProducts(options);
        // A grid's offsets are from + j·step, step = (to − from)/(count − 1).
        const step = Array.isArray(offsets)
          ? 0
          : (offsets.to - offsets.from) / (offsets.count - 1);
        const ks = Array.isArray(offsets)
          ? offsets
          : Array.from(
              { length: offsets.count },
              (_, j) => offsets.from + j * step,
            );
        const w = pe.frequencies(shape);
        const pairs = Math.floor(shape.dim / 2);
        const largest = Math.max(...ks.map(Math.abs)) * Math.max(0, ...w);
        ks.forEach((k, j) => {
          let want = 0;
          for (let i = 0; i < pairs; i++) want += cosOfProduct(k, w[i]);
          assert.ok(
            // Each angle k·w_i may be formed with a few roundings.
            Math.abs(g[j] - want) <=
              Math.max(1, pairs) * (1e-13 + 4e-15 * largest),
            `g(${k}) = ${g[j]}, want ${want}`,
          );
        });
      },
    ),
  );
});

// f(x) = ∫₀¹ cos(x·θ(t)) dt by composite Gauss–Legendre (5 nodes) in
// t = u^4, which smooths the t^alpha cusp at 0 for alpha ≥ 1/4.
const GAUSS = [
  [0, 128 / 225],
  [Math.sqrt(5 - 2 * Math.sqrt(10 / 7)) / 3, (322 + 13 * Math.sqrt(70)) / 900],
  [-Math.sqrt(5 - 2 * Math.sqrt(10 / 7)) / 3, (322 + 13 * Math.sqrt(70)) / 900],
  [Math.sqrt(5 + 2 * Math.sqrt(10 / 7)) / 3, (322 - 13 * Math.sqrt(70)) / 900],
  [-Math.sqrt(5 + 2 * Math.sqrt(10 / 7)) / 3, (322 - 13 * Math.sqrt(70)) / 900],
];
function integral(x, theta) {
  const panels = 400 + Math.ceil(Math.abs(x) * 4);
  let sum = 0;
  for (let j = 0; j < panels; j++)
    for (const [node, weight] of GAUSS) {
      const u = (j + (node + 1) / 2) / panels;
      sum += (weight / 2 / panels) * 4 * u ** 3 * Math.cos(x * theta(u ** 4));
    }
  return sum;
}

test(`decayIntegral: ${RUNS} option sets against quadrature of the definition`, () => {
  const setup = fc.record({
    family: fc.oneof(
      fc.record({ theta: fc.constant("exp"), base: finite(1.01, 1e6) }),
      fc.record({ theta: fc.constant("power"), alpha: finite(0.25, 4) }),
      fc.record({ theta: fc.constant("linear") }),
    ),
    x: fc.array(finite(-60, 60), { minLength: 1, maxLength: 4 }),
  });
  holds(
    fc.property(
      setup,
      spoil(["theta", "x", "misspelt"]),
      ({ family, x }, bad) => {
        const options = { ...family, x };
        if (bad !== null)
          return expectNamedError(
            () => pe.decayIntegral(apply(options, bad)),
            bad,
          );
        const f = pe.decayIntegral(options);
        const theta = {
          exp: (t) => family.base ** -t,
          power: (t) => t ** family.alpha,
          linear: (t) => t,
        }[family.theta];
        x.forEach((xi, j) => {
          const want = integral(xi, theta);
          assert.ok(
            Math.abs(f[j] - want) <= 1e-10,
            `${JSON.stringify(family)} f(${xi}) = ${f[j]}, want ${want}`,
          );
        });
      },
    ),
  );
});

test(`linearRelationError and toeplitzError: ${RUNS} option sets within their bounds`, () => {
  const setup = fc.record({
    shape: shape.filter(
      (s) => (s.dim % 2 === 0 || s.oddDim === "zero-pad") && s.dim <= 256,
    ),
    positions: fc.integer({ min: 1, max: 40 }),
    offsets: fc.array(finite(-1000, 1000), { minLength: 1, maxLength: 3 }),
  });
  holds(
    fc.property(
      setup,
      spoil(["dim", "positions", "misspelt"]),
      ({ shape, positions, offsets }, bad) => {
        const relation = { ...shape, positions, offsets };
        const gram = { ...shape, positions };
        if (bad !== null) {
          expectNamedError(
            () => pe.linearRelationError(apply(relation, bad)),
            bad,
          );
          return expectNamedError(
            () => pe.toeplitzError(apply(gram, bad)),
            bad,
          );
        }
        // Rounding p + k to a double moves every angle by up to an ulp of
        // the largest angle: the floor of any check of the relation.
        const w = pe.frequencies(shape);
        const largest =
          (positions + Math.max(...offsets.map(Math.abs))) * Math.max(0, ...w);
        const floor = 4e-16 * largest;
        const f32 = pe.linearRelationError(relation).maxAbsError;
        const f64 = pe.linearRelationError({ ...relation, dtype: "float64" });
        assert.ok(f32 <= 1.2e-7 + floor, `float32 relation error ${f32}`);
        assert.ok(
          f64.maxAbsError <= 1e-14 + floor,
          `float64: ${f64.maxAbsError}`,
        );
        const gramError = pe.toeplitzError(gram).maxAbsError;
        assert.ok(
          gramError <= shape.dim * (1e-14 + floor),
          `Gram: ${gramError}`,
        );
      },
    ),
  );
});
