// Presets against the committed vectors of each library's own formula
// (tests/vectors/generate_preset_vectors.py), plus the identities between
// presets, computed by calling table() twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { init, table, presets } from "../../dist/index.js";

const VECTORS = new URL("../vectors/presets/", import.meta.url);
const suites = readdirSync(VECTORS)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => JSON.parse(readFileSync(new URL(file, VECTORS), "utf8")));
const NAMES = [
  "paper",
  "tensor2tensor",
  "fairseq",
  "whisper",
  "diffusers",
  "guided-diffusion",
  "marian",
  "mlx",
];

await init();

// float32: one rounding of a value below 1 in magnitude is at most 2^-25.
// Both: a double angle p * omega carries a relative error of a few 1e-16 (in
// the engine and in the reference alike), so the bound grows with the angle.
function tolerance(dtype, want, angle) {
  const base = dtype === "float32" ? 6e-8 * Math.max(1, Math.abs(want)) : 1e-12;
  return base + 1e-15 * angle;
}

function assertClose(got, want, { dtype, rowMaxAngle, cols, label }) {
  assert.equal(got.length, want.length, `${label}: length`);
  for (let k = 0; k < want.length; k++) {
    const angle = rowMaxAngle ? rowMaxAngle[Math.floor(k / cols)] : 0;
    const err = Math.abs(got[k] - want[k]);
    if (!(err <= tolerance(dtype, want[k], angle))) {
      const row = Math.floor(k / cols);
      assert.fail(
        `${label}: [${row}, ${k % cols}] got ${got[k]}, want ${want[k]} (error ${err})`,
      );
    }
  }
}

function checkCase(vector, dtype) {
  const got = table({ ...vector.options, dtype });
  assert.ok(
    got instanceof (dtype === "float32" ? Float32Array : Float64Array),
    `${vector.name}: ${dtype} array`,
  );
  assertClose(got, vector.values, {
    dtype,
    rowMaxAngle: vector.rowMaxAngle,
    cols: vector.cols,
    label: `${vector.options.preset} ${vector.name} ${dtype}`,
  });
  for (const row of vector.zeroRows)
    for (let c = 0; c < vector.cols; c++)
      assert.equal(got[row * vector.cols + c], 0, `zero row ${row}`);
  for (const col of vector.zeroColumns)
    for (let r = 0; r < vector.rows; r++)
      assert.equal(got[r * vector.cols + col], 0, `zero column ${col}`);
}

// A known-good case run after every error: the module must still work.
const sentinel = suites
  .find((suite) => suite.preset === "tensor2tensor")
  .cases.find((vector) => vector.name === "d=64");

function stillWorks() {
  checkCase(sentinel, "float32");
}

for (const suite of suites) {
  test(`${suite.preset}: vectors`, () => {
    for (const vector of suite.cases) {
      if (vector.error) {
        assert.throws(
          () => table(vector.options),
          (e) => e.name === vector.error,
          `${suite.preset} ${vector.name}: ${vector.reason}`,
        );
        stillWorks();
        continue;
      }
      assert.equal(vector.values.length, vector.rows * vector.cols);
      assert.equal(vector.cols, vector.options.dim);
      checkCase(vector, "float32");
      checkCase(vector, "float64");
    }
  });
}

test("every preset has vectors", () => {
  assert.deepEqual(
    suites.map((suite) => suite.preset).sort(),
    [...NAMES].sort(),
  );
});

test("presets describes every preset and is deeply frozen", () => {
  assert.deepEqual(Object.keys(presets).sort(), [...NAMES].sort());
  assert.ok(Object.isFrozen(presets));
  for (const name of NAMES) {
    const p = presets[name];
    for (const key of [
      "source",
      "parameters",
      "frequency",
      "layout",
      "oddDim",
      "columns",
      "notes",
    ])
      assert.ok(key in p, `${name}.${key}`);
    for (const key of ["repository", "file", "function"])
      assert.equal(typeof p.source[key], "string", `${name}.source.${key}`);
    assert.ok(Object.isFrozen(p) && Object.isFrozen(p.source));
    assert.ok(Object.isFrozen(p.parameters));
    assert.throws(() => {
      p.parameters.injected = 1;
    }, TypeError);
  }
  assert.deepEqual(presets.paper.parameters, {
    maxWavelength: 10000,
    startIndex: 0,
  });
  assert.deepEqual(presets.tensor2tensor.parameters, {
    minTimescale: 1,
    maxTimescale: 10000,
    startIndex: 0,
  });
  assert.deepEqual(presets.fairseq.parameters, { paddingIdx: null });
  assert.deepEqual(presets.whisper.parameters, { maxTimescale: 10000 });
  assert.deepEqual(presets.diffusers.parameters, {
    flipSinToCos: false,
    downscaleFreqShift: 1,
    scale: 1,
    maxPeriod: 10000,
  });
  assert.deepEqual(presets["guided-diffusion"].parameters, {
    maxPeriod: 10000,
  });
  assert.deepEqual(presets.marian.parameters, { pastKeyValuesLength: 0 });
  assert.deepEqual(presets.mlx.parameters, {
    minFreq: 0.0001,
    maxFreq: 1,
    scale: null,
    cosFirst: false,
    fullTurns: false,
  });
});

// ---- identities -------------------------------------------------------------

const POSITIONS = [0, 1, 2, 17, 1000, 50000];
const TIMESTEPS = [0, 0.5, 1, 3.25, 499.5, 999];

// Both sides round independently: allow the angle term at the largest angle.
function assertIdentity(a, b, label) {
  const angle = Math.max(
    ...(Array.isArray(a.positions) ? a.positions : [a.positions]).map(Math.abs),
  );
  for (const dtype of ["float32", "float64"]) {
    const got = table({ ...a, dtype });
    const want = table({ ...b, dtype });
    assertClose(got, want, {
      dtype,
      rowMaxAngle: new Array(got.length).fill(angle * 2),
      cols: a.dim,
      label: `${label} ${dtype}`,
    });
  }
}

test("tensor2tensor = whisper = fairseq without padding = diffusers(false, 1)", () => {
  // Each preset's options and the dims it is compared at (whisper takes
  // even dims only).
  const even = [4, 10, 64, 512];
  const odd = [5, 63];
  const equals = [
    [{ preset: "whisper" }, even],
    [{ preset: "fairseq" }, [...even, ...odd]],
    [{ preset: "diffusers", flipSinToCos: false, downscaleFreqShift: 1 }, even],
    [{ preset: "diffusers" }, odd],
  ];
  for (const [options, dims] of equals)
    for (const dim of dims)
      assertIdentity(
        { preset: "tensor2tensor", dim, positions: POSITIONS },
        { ...options, dim, positions: POSITIONS },
        `${options.preset} d=${dim}`,
      );
  // A count of positions from startIndex is the same rows as explicit ones.
  assertIdentity(
    { preset: "tensor2tensor", dim: 16, positions: 4, startIndex: 3 },
    { preset: "whisper", dim: 16, positions: [3, 4, 5, 6] },
    "startIndex",
  );
});

test("guided-diffusion = diffusers(flipSinToCos true, downscaleFreqShift 0)", () => {
  for (const dim of [2, 3, 8, 63, 320]) {
    assertIdentity(
      { preset: "guided-diffusion", dim, positions: TIMESTEPS },
      {
        preset: "diffusers",
        dim,
        positions: TIMESTEPS,
        flipSinToCos: true,
        downscaleFreqShift: 0,
      },
      `d=${dim}`,
    );
  }
  assertIdentity(
    {
      preset: "guided-diffusion",
      dim: 12,
      positions: TIMESTEPS,
      maxPeriod: 500,
    },
    {
      preset: "diffusers",
      dim: 12,
      positions: TIMESTEPS,
      flipSinToCos: true,
      downscaleFreqShift: 0,
      maxPeriod: 500,
    },
    "maxPeriod",
  );
});

test("paper = keras-style call", () => {
  for (const dim of [1, 4, 7, 64, 768]) {
    const explicit = { preset: "paper", dim, positions: [5, 6, 7, 8] };
    assertIdentity(
      { preset: "paper", dim, positions: 4, startIndex: 5 },
      explicit,
      `startIndex d=${dim}`,
    );
    assertIdentity(
      { preset: "paper", dim, positions: [5, 6, 7, 8], maxWavelength: 10000 },
      explicit,
      `maxWavelength d=${dim}`,
    );
    // The engine's defaults are the paper's schedule, layout and odd-d rule.
    assertIdentity(
      { dim, positions: 4, start: 5 },
      explicit,
      `engine d=${dim}`,
    );
  }
  assertIdentity(
    {
      preset: "paper",
      dim: 10,
      positions: 3,
      maxWavelength: 500,
      startIndex: 2,
    },
    { dim: 10, positions: [2, 3, 4], base: 500 },
    "maxWavelength 500",
  );
});

test("marian is the paper's columns regrouped into halves", () => {
  for (const dim of [1, 2, 5, 8, 63]) {
    const positions = [0, 1, 9, 1000];
    const m = table({ preset: "marian", dim, positions, dtype: "float64" });
    const p = table({ preset: "paper", dim, positions, dtype: "float64" });
    const sinCols = Math.ceil(dim / 2);
    for (let r = 0; r < positions.length; r++)
      for (let c = 0; c < dim; c++) {
        const from = c < sinCols ? 2 * c : 2 * (c - sinCols) + 1;
        assert.equal(
          m[r * dim + c],
          p[r * dim + from],
          `d=${dim} [${r}, ${c}]`,
        );
      }
  }
});

test("mlx with scale 1 = tensor2tensor; its default scale is sqrt(2/d)", () => {
  for (const dim of [4, 64, 512]) {
    const positions = [0, 1, 2, 500];
    assertIdentity(
      { preset: "mlx", dim, positions, scale: 1 },
      { preset: "tensor2tensor", dim, positions },
      `d=${dim}`,
    );
    const scaled = table({ preset: "mlx", dim, positions, dtype: "float64" });
    const plain = table({
      preset: "tensor2tensor",
      dim,
      positions,
      dtype: "float64",
    });
    const s = Math.sqrt(2 / dim);
    for (let k = 0; k < plain.length; k++)
      assert.ok(
        Math.abs(scaled[k] - s * plain[k]) <= 1e-12 + 1e-15 * 500,
        `k=${k}`,
      );
  }
});

test("mlx follows v0.32.1: scale 0 gives zeros, dim 2 has the one frequency maxFreq", () => {
  assert.equal(presets.mlx.source.release, "v0.32.1 (3a6219917e45)");
  const positions = [0, 1, 2.5, 300];
  const zeros = table({ preset: "mlx", dim: 8, positions, scale: 0 });
  assert.ok(zeros.every((v) => v === 0));
  // [sin(p maxFreq 2 pi) | cos(p maxFreq 2 pi)] times sqrt(2/2) = 1; the
  // angle (up to 471) is one double, within 6e-14 of the exact product.
  const two = table({
    preset: "mlx",
    dim: 2,
    positions,
    maxFreq: 0.25,
    fullTurns: true,
    dtype: "float64",
  });
  positions.forEach((p, r) => {
    const a = p * 0.25 * 2 * Math.PI;
    assert.ok(Math.abs(two[2 * r] - Math.sin(a)) <= 1e-13, `sin row ${r}`);
    assert.ok(Math.abs(two[2 * r + 1] - Math.cos(a)) <= 1e-13, `cos row ${r}`);
  });
  // null is the default sqrt(2/d); a negative scale multiplies as given.
  const byDefault = table({ preset: "mlx", dim: 8, positions, scale: null });
  const negative = table({ preset: "mlx", dim: 8, positions, scale: -0.5 });
  byDefault.forEach((v, k) =>
    assert.ok(Math.abs(negative[k] + (0.5 / Math.sqrt(2 / 8)) * v) <= 1e-7),
  );
});

// ---- errors -----------------------------------------------------------------

function assertError(options, Kind, ...mentions) {
  assert.throws(
    () => table(options),
    (e) => {
      assert.ok(e instanceof Kind, `${e.name}: ${e.message}`);
      for (const word of mentions)
        assert.ok(e.message.includes(word), `"${e.message}" names ${word}`);
      return true;
    },
  );
  stillWorks();
}

// The class, the rule's code and the option named.
function assertRule(options, Kind, code, option) {
  assert.throws(
    () => table(options),
    (e) => {
      assert.ok(e instanceof Kind, `${e.name}: ${e.message}`);
      assert.equal(e.code, code, e.message);
      assert.equal(e.option, option, e.message);
      return true;
    },
  );
  stillWorks();
}

test("a parameter the preset does not have is a TypeError naming both", () => {
  const foreign = {
    paper: ["minTimescale", "base", "paddingIdx"],
    tensor2tensor: ["maxWavelength", "maxPeriod", "layout"],
    fairseq: ["startIndex", "maxTimescale", "start"],
    whisper: ["minTimescale", "startIndex", "scale"],
    diffusers: ["maxTimescale", "cosFirst", "shift"],
    "guided-diffusion": ["flipSinToCos", "downscaleFreqShift", "scale"],
    marian: ["startIndex", "maxWavelength", "base"],
    mlx: ["maxPeriod", "flipSinToCos", "outputScale"],
  };
  for (const [name, keys] of Object.entries(foreign))
    for (const key of keys)
      assertError(
        { preset: name, dim: 8, positions: 2, [key]: 1 },
        TypeError,
        key,
        name,
      );
});

test("bad parameter values raise and name the option", () => {
  const p = [0, 1, 2];
  // Preset, options besides dim 8 and positions p, error type, the rule's
  // code (the core's where the parameter becomes its option: maxPeriod a
  // base, maxTimescale a timescale), named option.
  const cases = [
    ["nope", {}, RangeError, "ERR_NOT_ONE_OF", "preset"],
    [3, {}, TypeError, "ERR_NOT_STRING", "preset"],
    [
      "paper",
      { maxWavelength: Infinity },
      RangeError,
      "ERR_BASE",
      "maxWavelength",
    ],
    [
      "paper",
      { maxWavelength: "1e4" },
      TypeError,
      "ERR_NOT_NUMBER",
      "maxWavelength",
    ],
    ["paper", { startIndex: 3 }, TypeError, "ERR_NOT_APPLICABLE", "startIndex"],
    [
      "tensor2tensor",
      { minTimescale: 0 },
      RangeError,
      "ERR_TIMESCALE",
      "minTimescale",
    ],
    [
      "tensor2tensor",
      { maxTimescale: -1 },
      RangeError,
      "ERR_TIMESCALE",
      "maxTimescale",
    ],
    [
      "tensor2tensor",
      { positions: 3, startIndex: 0.5 },
      RangeError,
      "ERR_NOT_INTEGER",
      "startIndex",
    ],
    [
      "fairseq",
      { paddingIdx: -1 },
      RangeError,
      "ERR_OUT_OF_RANGE",
      "paddingIdx",
    ],
    ["fairseq", { paddingIdx: "1" }, TypeError, "ERR_NOT_NUMBER", "paddingIdx"],
    [
      "whisper",
      { maxTimescale: NaN },
      RangeError,
      "ERR_TIMESCALE",
      "maxTimescale",
    ],
    [
      "diffusers",
      { flipSinToCos: 1 },
      TypeError,
      "ERR_NOT_BOOLEAN",
      "flipSinToCos",
    ],
    [
      "diffusers",
      { downscaleFreqShift: 4 },
      RangeError,
      "ERR_SHIFT",
      "downscaleFreqShift",
    ],
    ["diffusers", { scale: Infinity }, RangeError, "ERR_SCALE", "scale"],
    ["diffusers", { maxPeriod: 1 }, RangeError, "ERR_BASE", "maxPeriod"],
    [
      "guided-diffusion",
      { maxPeriod: null },
      TypeError,
      "ERR_NOT_NUMBER",
      "maxPeriod",
    ],
    [
      "marian",
      { positions: 2, pastKeyValuesLength: 1.5 },
      RangeError,
      "ERR_NOT_INTEGER",
      "pastKeyValuesLength",
    ],
    [
      "marian",
      { pastKeyValuesLength: 2 },
      TypeError,
      "ERR_NOT_APPLICABLE",
      "pastKeyValuesLength",
    ],
    ["mlx", { maxFreq: 0 }, RangeError, "ERR_OUT_OF_RANGE", "maxFreq"],
    ["mlx", { cosFirst: "no" }, TypeError, "ERR_NOT_BOOLEAN", "cosFirst"],
    ["mlx", { fullTurns: null }, TypeError, "ERR_NOT_BOOLEAN", "fullTurns"],
    ["mlx", { scale: NaN }, RangeError, "ERR_OUTPUT_SCALE", "scale"],
    ["mlx", { dim: 9 }, RangeError, "ERR_PRESET_DIM", "dim"],
    ["whisper", { dim: 9 }, RangeError, "ERR_PRESET_DIM", "dim"],
    ["fairseq", { dim: 2 }, RangeError, "ERR_PRESET_DIM", "dim"],
    ["guided-diffusion", { dim: 1 }, RangeError, "ERR_PRESET_DIM", "dim"],
  ];
  for (const [preset, options, Kind, code, option] of cases)
    assertRule(
      { preset, dim: 8, positions: p, ...options },
      Kind,
      code,
      option,
    );
});

test("the engine still validates the generic options under a preset", () => {
  assertRule(
    { preset: "paper", dim: 0, positions: 2 },
    RangeError,
    "ERR_DIM",
    "dim",
  );
  assertRule(
    { preset: "whisper", dim: 8, positions: [0, Infinity] },
    RangeError,
    "ERR_POSITIONS",
    "positions[1]",
  );
  assertRule(
    { preset: "diffusers", dim: 8, positions: [0], dtype: "float16" },
    RangeError,
    "ERR_DTYPE",
    "dtype",
  );
});

test("fairseq paddingIdx indexes get_embedding's rows as Python does", () => {
  const dim = 8;
  const n = 5;
  const plain = table({ preset: "fairseq", dim, positions: n });
  const rowOf = (t, r) => Array.from(t.subarray(r * dim, (r + 1) * dim));
  // Negative indices count from the end, as weights[padding_idx, :] = 0 does.
  for (const [paddingIdx, zeroed] of [
    [0, 0],
    [4, 4],
    [-1, 4],
    [-5, 0],
    [2, 2],
  ]) {
    const t = table({ preset: "fairseq", dim, positions: n, paddingIdx });
    for (let r = 0; r < n; r++)
      assert.deepEqual(
        rowOf(t, r),
        r === zeroed ? new Array(dim).fill(0) : rowOf(plain, r),
        `paddingIdx ${paddingIdx} row ${r}`,
      );
  }
  // Outside the rows the source raises IndexError.
  for (const paddingIdx of [5, 6, -6])
    assertRule(
      { preset: "fairseq", dim, positions: n, paddingIdx },
      RangeError,
      "ERR_OUT_OF_RANGE",
      "paddingIdx",
    );
  assertRule(
    { preset: "fairseq", dim, positions: 0, paddingIdx: 0 },
    RangeError,
    "ERR_OUT_OF_RANGE",
    "paddingIdx",
  );
  // Explicit positions index that table: each row at paddingIdx is zeros.
  const explicit = table({
    preset: "fairseq",
    dim,
    positions: [2, 1, 3, 1],
    paddingIdx: 1,
  });
  assert.deepEqual(rowOf(explicit, 1), new Array(dim).fill(0));
  assert.deepEqual(rowOf(explicit, 3), new Array(dim).fill(0));
  assert.deepEqual(rowOf(explicit, 0), rowOf(plain, 2));
  assert.deepEqual(rowOf(explicit, 2), rowOf(plain, 3));
});

test("diffusers: a downscaleFreqShift above floor(dim/2) computes as get_timestep_embedding does", () => {
  // exponent = -ln(max_period) * arange(h) / (h - shift); [sin | cos].
  const t = [0, 1, 2.5, 999];
  const h = 2;
  const shift = 3;
  const got = table({
    preset: "diffusers",
    dim: 4,
    downscaleFreqShift: shift,
    positions: t,
    dtype: "float64",
  });
  t.forEach((x, row) => {
    for (let i = 0; i < h; i++) {
      const w = Math.exp((-Math.log(10000) * i) / (h - shift));
      const angle = x * w;
      for (const [column, want] of [
        [i, Math.sin(angle)],
        [h + i, Math.cos(angle)],
      ])
        assert.ok(
          Math.abs(got[row * 4 + column] - want) <= 1e-12 * Math.max(1, angle),
          `row ${row} column ${column}: ${got[row * 4 + column]} vs ${want}`,
        );
    }
  });
  // h - shift = 0 divides by zero: refused by name.
  assert.throws(
    () =>
      table({
        preset: "diffusers",
        dim: 4,
        downscaleFreqShift: 2,
        positions: t,
      }),
    (e) => e instanceof RangeError && /downscaleFreqShift/.test(e.message),
  );
});
