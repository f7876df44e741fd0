// ropeFrequencies and ropeCache against the committed vectors of the
// transformers formulas (tests/vectors/generate_rope_vectors.py), the
// identities between rope types, and every option rule.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  frequencies,
  init,
  ropeCache,
  ropeFrequencies,
  table,
} from "../../dist/index.js";
import { halfToNumber } from "./reference.js";

await init();

const { cases } = JSON.parse(
  readFileSync(new URL("../vectors/rope/rope_vectors.json", import.meta.url)),
);

function ulp(x, bits, minExponent) {
  const e = Math.max(
    Math.floor(Math.log2(Math.abs(x) || 2 ** minExponent)),
    minExponent,
  );
  return 2 ** (e - bits);
}

// The angles p * w_i may differ from numpy's by the frequencies' allowed
// difference (checked above) and numpy's rounding of the product.
const FREQUENCY_TOLERANCE = 4e-15;
function angleError(c, p, pair) {
  const angle = Math.abs(p) * c.inverseFrequencies[pair];
  return angle * (FREQUENCY_TOLERANCE + 2 ** -52) * c.attentionFactor;
}

// Column c of a layout, from the duplicated reference row.
function fromDuplicated(row, dim, layout) {
  const h = dim / 2;
  if (layout === "duplicated") return row;
  if (layout === "half") return row.slice(0, h);
  return Array.from({ length: dim }, (_, c) => row[c >> 1]);
}

for (const c of cases) {
  test(`${c.name}: inverse frequencies and attention factor`, () => {
    const r = ropeFrequencies({ dim: c.dim, base: c.base, scaling: c.scaling });
    assert.ok(r.inverseFrequencies instanceof Float64Array);
    assert.equal(r.inverseFrequencies.length, c.dim / 2);
    c.inverseFrequencies.forEach((want, i) => {
      const got = r.inverseFrequencies[i];
      assert.ok(
        Math.abs(got - want) <= FREQUENCY_TOLERANCE * want,
        `w[${i}] = ${got}, expected ${want}`,
      );
    });
    assert.ok(
      Math.abs(r.attentionFactor - c.attentionFactor) <=
        4e-16 * c.attentionFactor,
      `attention ${r.attentionFactor}, expected ${c.attentionFactor}`,
    );
  });

  test(`${c.name}: caches in every layout and dtype`, () => {
    const positions = c.positions;
    for (const layout of ["half", "duplicated", "interleaved"])
      for (const dtype of ["float64", "float32", "float16"]) {
        const { cos, sin } = ropeCache({
          positions,
          dim: c.dim,
          base: c.base,
          scaling: c.scaling,
          layout,
          dtype,
        });
        const width = layout === "half" ? c.dim / 2 : c.dim;
        assert.equal(cos.length, positions.length * width);
        assert.equal(
          cos.constructor.name,
          {
            float64: "Float64Array",
            float32: "Float32Array",
            float16: "Uint16Array",
          }[dtype],
        );
        for (let j = 0; j < positions.length; j++) {
          for (const [name, got, ref] of [
            ["cos", cos, c.cos],
            ["sin", sin, c.sin],
          ]) {
            const row = ref.slice(j * c.dim, (j + 1) * c.dim);
            const want = fromDuplicated(row, c.dim, layout);
            for (let k = 0; k < width; k++) {
              const raw = got[j * width + k];
              const value = dtype === "float16" ? halfToNumber(raw) : raw;
              const pair = layout === "interleaved" ? k >> 1 : k % (c.dim / 2);
              const tolerance =
                angleError(c, positions[j], pair) +
                (dtype === "float64"
                  ? 2e-15
                  : dtype === "float32"
                    ? ulp(want[k], 23, -126) / 2 + 3e-9
                    : ulp(want[k], 10, -14) / 2 + 1e-13);
              assert.ok(
                Math.abs(value - want[k]) <= tolerance,
                `${layout} ${dtype} ${name}[${j}, ${k}] = ${value}, expected ${want[k]}`,
              );
            }
          }
        }
      }
  });
}

test("default equals the paper schedule with the same base", () => {
  for (const [dim, base] of [
    [2, 10000],
    [64, 10000],
    [128, 500000],
    [96, 1e6],
  ]) {
    const r = ropeFrequencies({ dim, base });
    assert.deepEqual(r.inverseFrequencies, frequencies({ dim, base }));
    assert.equal(r.attentionFactor, 1);
    assert.deepEqual(
      ropeFrequencies({ dim, base, scaling: { type: "default" } }),
      r,
    );
  }
});

test("linear equals the default schedule at positions divided by the factor", () => {
  const positions = [0, 1, 5, 17, 1000, 4097, 65535, 131071];
  for (const dtype of ["float64", "float32", "float16"]) {
    const scaled = ropeCache({
      positions,
      dim: 64,
      scaling: { type: "linear", factor: 4 },
      layout: "duplicated",
      dtype,
    });
    const plain = ropeCache({
      positions: positions.map((p) => p / 4),
      dim: 64,
      layout: "duplicated",
      dtype,
    });
    // Dividing by 4 is exact, so the exact angles agree bit for bit.
    assert.deepEqual(scaled, plain);
  }
  const three = ropeCache({
    positions,
    dim: 64,
    scaling: { type: "linear", factor: 3 },
    dtype: "float64",
  });
  const divided = ropeCache({
    positions: positions.map((p) => p / 3),
    dim: 64,
    dtype: "float64",
  });
  three.cos.forEach((v, k) =>
    assert.ok(Math.abs(v - divided.cos[k]) <= 1e-15 + 3e-16 * 131071),
  );
});

test("llama3 keeps high frequencies and divides low ones by the factor", () => {
  const scaling = {
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  };
  const w = frequencies({ dim: 128, base: 500000 });
  const { inverseFrequencies } = ropeFrequencies({
    dim: 128,
    base: 500000,
    scaling,
  });
  let high = 0,
    low = 0,
    medium = 0;
  w.forEach((wi, i) => {
    const wavelength = (2 * Math.PI) / wi;
    if (wavelength < 8192 / 4) {
      assert.equal(inverseFrequencies[i], wi);
      high++;
    } else if (wavelength > 8192) {
      assert.equal(inverseFrequencies[i], wi / 8);
      low++;
    } else {
      assert.ok(inverseFrequencies[i] < wi && inverseFrequencies[i] > wi / 8);
      medium++;
    }
  });
  assert.ok(high > 0 && low > 0 && medium > 0, `${high} ${low} ${medium}`);
});

test("the attention factor multiplies cos and sin", () => {
  const scaling = {
    type: "yarn",
    factor: 4,
    originalMaxPositionEmbeddings: 32768,
  };
  const { attentionFactor } = ropeFrequencies({ dim: 128, base: 1e6, scaling });
  assert.ok(Math.abs(attentionFactor - (0.1 * Math.log(4) + 1)) < 1e-15);
  const { cos } = ropeCache({
    positions: [0],
    dim: 128,
    base: 1e6,
    scaling,
    dtype: "float64",
  });
  assert.ok(cos.every((v) => v === attentionFactor));
  const given = ropeFrequencies({
    dim: 128,
    base: 1e6,
    scaling: { ...scaling, attentionFactor: 0.5 },
  });
  assert.equal(given.attentionFactor, 0.5);
});

test("count and start give the same rows as explicit positions", () => {
  const scaling = {
    type: "dynamic",
    factor: 2,
    maxPositionEmbeddings: 4096,
    seqLen: 8192,
  };
  for (const dtype of ["float32", "float64", "float16"]) {
    const counted = ropeCache({
      positions: 300,
      start: 10,
      dim: 72,
      scaling,
      dtype,
    });
    const explicit = ropeCache({
      positions: Array.from({ length: 300 }, (_, j) => 10 + j),
      dim: 72,
      scaling,
      dtype,
    });
    assert.deepEqual(counted, explicit);
  }
});

test("a count of 0 positions is an empty cache, as an empty list and a table of 0 rows are", () => {
  assert.equal(table({ positions: 0, dim: 8 }).length, 0);
  for (const dtype of ["float32", "float64", "float16"])
    for (const layout of ["half", "duplicated"]) {
      const empty = ropeCache({ positions: [], dim: 8, dtype, layout });
      const counted = ropeCache({ positions: 0, dim: 8, dtype, layout });
      assert.deepEqual(counted, empty);
      assert.equal(counted.cos.length, 0);
      assert.equal(counted.sin.length, 0);
      // start applies to a count, of any size.
      assert.deepEqual(
        ropeCache({ positions: 0, start: 5, dim: 8, dtype, layout }),
        empty,
      );
    }
  // Empty or not, the cache's arguments are checked: an attention factor
  // beyond float16 is refused before any row is written.
  const loud = {
    dim: 8,
    dtype: "float16",
    scaling: {
      type: "yarn",
      factor: 4,
      maxPositionEmbeddings: 64,
      attentionFactor: 1e5,
    },
  };
  for (const positions of [0, [], 3])
    assert.throws(() => ropeCache({ ...loud, positions }), {
      name: "RangeError",
      code: "ERR_ROPE_ATTENTION",
      option: "scaling.attentionFactor",
      function: "ropeCache",
    });
});

test("one rule for the lengths of a rope scaling: integers, in the C core", () => {
  // maxPositionEmbeddings, originalMaxPositionEmbeddings and seqLen are
  // the integer fields of a model config, whichever rope type reads them.
  const longrope = {
    type: "longrope",
    shortFactor: [1, 1, 1, 1],
    longFactor: [2, 2, 2, 2],
  };
  const lengths = [
    [
      { type: "dynamic", factor: 2, maxPositionEmbeddings: 8192.5 },
      "maxPositionEmbeddings",
      8192.5,
    ],
    [
      { type: "dynamic", factor: 2, maxPositionEmbeddings: 10, seqLen: 20.5 },
      "seqLen",
      20.5,
    ],
    [
      { type: "yarn", factor: 2, maxPositionEmbeddings: 4096.5 },
      "maxPositionEmbeddings",
      4096.5,
    ],
    [
      { type: "yarn", factor: 2, originalMaxPositionEmbeddings: 0.5 },
      "originalMaxPositionEmbeddings",
      0.5,
    ],
    [
      { ...longrope, maxPositionEmbeddings: 8192.5, factor: 2 },
      "maxPositionEmbeddings",
      8192.5,
    ],
    [
      {
        type: "llama3",
        factor: 8,
        lowFreqFactor: 1,
        highFreqFactor: 4,
        originalMaxPositionEmbeddings: 8192.5,
      },
      "originalMaxPositionEmbeddings",
      8192.5,
    ],
  ];
  const CODES = {
    maxPositionEmbeddings: "ERR_ROPE_MAX_LENGTH",
    originalMaxPositionEmbeddings: "ERR_ROPE_ORIGINAL",
    seqLen: "ERR_ROPE_SEQ_LEN",
  };
  for (const [scaling, key, value] of lengths) {
    const rule =
      key === "seqLen"
        ? "an integer in [0, 9007199254740991]"
        : "an integer in [1, 9007199254740991]";
    const message = new RegExp(
      `^sinusoidal-pe: ropeFrequencies: option "scaling\\.${key}" must be ${rule.replace(/[[\]]/g, "\\$&")}.*, got ${value}$`,
    );
    const refusal = {
      name: "RangeError",
      code: CODES[key],
      option: `scaling.${key}`,
    };
    assert.throws(
      () => ropeFrequencies({ dim: 8, scaling }),
      { ...refusal, message },
      `${scaling.type} ${key}: ${value}`,
    );
    // The same rule where a table takes the scaling.
    assert.throws(() => table({ positions: 1, dim: 8, scaling }), {
      ...refusal,
      function: "table",
    });
  }
  // The integers themselves are accepted.
  assert.equal(
    ropeFrequencies({
      dim: 8,
      scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 8192 },
    }).inverseFrequencies.length,
    4,
  );
});

test("longrope names the length the caller gave when its logarithm is 0", () => {
  const factors = { shortFactor: [1, 1, 1, 1], longFactor: [2, 2, 2, 2] };
  // Without originalMaxPositionEmbeddings the attention factor is
  // sqrt(1 + ln(factor) / ln(maxPositionEmbeddings)).
  assert.throws(
    () =>
      ropeFrequencies({
        dim: 8,
        scaling: {
          type: "longrope",
          ...factors,
          maxPositionEmbeddings: 1,
          factor: 2,
        },
      }),
    {
      name: "RangeError",
      code: "ERR_ROPE_LONGROPE_LENGTH",
      option: "scaling.maxPositionEmbeddings",
    },
  );
  // With it, that is the length named.
  assert.throws(
    () =>
      ropeFrequencies({
        dim: 8,
        scaling: {
          type: "longrope",
          ...factors,
          maxPositionEmbeddings: 4,
          originalMaxPositionEmbeddings: 1,
        },
      }),
    {
      name: "RangeError",
      code: "ERR_ROPE_ORIGINAL",
      option: "scaling.originalMaxPositionEmbeddings",
    },
  );
  // A factor of at most 1, or a given attention factor, needs no logarithm.
  for (const scaling of [
    { maxPositionEmbeddings: 1, factor: 1 },
    { maxPositionEmbeddings: 1, factor: 2, attentionFactor: 1.5 },
  ])
    assert.equal(
      ropeFrequencies({
        dim: 8,
        scaling: { type: "longrope", ...factors, ...scaling },
      }).inverseFrequencies.length,
      4,
    );
});

// Caches are computed in blocks of rows (about 1 MiB of module memory each)
// and copied out block by block.
const moduleBytes = () =>
  table({ positions: 1, dim: 2, view: true }).buffer.byteLength;

test("a cache of many blocks matches a float64 reference in every row, and module memory stays small", () => {
  const llama = cases.find((c) => c.scaling.type === "llama3");
  const r = ropeFrequencies({
    dim: llama.dim,
    base: llama.base,
    scaling: llama.scaling,
  });
  const c = { ...r, inverseFrequencies: Array.from(r.inverseFrequencies) };
  const before = moduleBytes();
  assert.ok(before < 2 ** 26, `module memory ${before} bytes before the call`);
  const count = 131072;
  const { cos, sin } = ropeCache({
    positions: count,
    start: 3,
    dim: llama.dim,
    base: llama.base,
    scaling: llama.scaling,
    layout: "duplicated",
  });
  const grown = moduleBytes() - before;
  assert.ok(
    grown < 2 ** 23,
    `a ${(2 * cos.byteLength) / 2 ** 20} MiB cache grew module memory by ${grown} bytes`,
  );
  const h = llama.dim / 2;
  for (let j = 0; j < count; j += j < 4200 ? 1 : 997) {
    const p = 3 + j;
    for (let k = 0; k < llama.dim; k++) {
      const pair = k % h;
      const angle = p * c.inverseFrequencies[pair];
      for (const [name, got, want] of [
        ["cos", cos[j * llama.dim + k], Math.cos(angle) * c.attentionFactor],
        ["sin", sin[j * llama.dim + k], Math.sin(angle) * c.attentionFactor],
      ])
        assert.ok(
          Math.abs(got - want) <=
            angleError(c, p, pair) + ulp(want, 23, -126) / 2 + 3e-9,
          `${name}[${j}, ${k}] = ${got}, expected ${want}`,
        );
    }
  }
});

test("an error in a later block of a cache leaves out untouched: every angle is checked first", () => {
  const factors = [0.5, 1, 1, 1]; // w_0 / 0.5 = 2: 1e308 · 2 overflows
  const scaling = {
    type: "longrope",
    shortFactor: factors,
    longFactor: factors,
    maxPositionEmbeddings: 4096,
    originalMaxPositionEmbeddings: 2048,
  };
  const count = 20000; // several blocks at dim 8, float64
  const positions = Float64Array.from({ length: count }, (_, j) =>
    j < count - 1 ? j : 1e308,
  );
  const out = {
    cos: new Float64Array(count * 8).fill(NaN),
    sin: new Float64Array(count * 8).fill(NaN),
  };
  const options = { dim: 8, scaling, layout: "duplicated", dtype: "float64" };
  throwsNaming(
    () => ropeCache({ ...options, positions, out }),
    RangeError,
    "ERR_POSITIONS",
    "positions",
    "positions × the largest frequency",
  );
  assert.ok(out.cos.every(Number.isNaN), "nothing was written to cos");
  assert.ok(out.sin.every(Number.isNaN), "nothing was written to sin");
  const fine = ropeCache({ ...options, positions: positions.subarray(0, 3) });
  const { attentionFactor } = ropeFrequencies({ dim: 8, scaling });
  assert.deepEqual(
    Array.from(fine.cos.subarray(0, 8)),
    new Array(8).fill(attentionFactor),
  );
});

// The class, the rule's code and the option; the words where the rule's
// wording is the point.
function throwsNaming(fn, Type, code, option, words) {
  assert.throws(fn, (error) => {
    assert.ok(
      error instanceof Type,
      `${error.constructor.name}: ${error.message}`,
    );
    assert.equal(error.code, code, error.message);
    assert.equal(error.option, option, error.message);
    if (words !== undefined)
      assert.ok(
        error.message.includes(words),
        `"${error.message}" names ${words}`,
      );
    return true;
  });
}

test("bad options are errors that name them, and the module keeps working", () => {
  const llama3 = {
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  };
  const yarn = { type: "yarn", factor: 4, maxPositionEmbeddings: 4096 };
  const phi = {
    type: "longrope",
    shortFactor: new Array(48).fill(1),
    longFactor: new Array(48).fill(2),
    maxPositionEmbeddings: 131072,
    originalMaxPositionEmbeddings: 4096,
  };
  const bad = [
    [{ dim: 127 }, RangeError, "ERR_ROTARY_DIM", "dim"],
    [{ dim: 0 }, RangeError, "ERR_DIM", "dim"],
    [{ dim: "64" }, TypeError, "ERR_NOT_NUMBER", "dim"],
    [{ dim: 64, base: 1 }, RangeError, "ERR_BASE", "base"],
    [{ dim: 64, base: Infinity }, RangeError, "ERR_BASE", "base"],
    [{ dim: 64, colour: 1 }, TypeError, "ERR_UNKNOWN_OPTION", "colour"],
    [{ dim: 64, scaling: "linear" }, TypeError, "ERR_NOT_OBJECT", "scaling"],
    [
      { dim: 64, scaling: { type: "ntk" } },
      RangeError,
      "ERR_ROPE_TYPE",
      "scaling.type",
    ],
    [
      { dim: 64, scaling: { type: "linear" } },
      TypeError,
      "ERR_REQUIRED",
      "scaling.factor",
    ],
    [
      { dim: 64, scaling: { type: "linear", factor: 0 } },
      RangeError,
      "ERR_ROPE_FACTOR",
      "scaling.factor",
    ],
    [
      { dim: 64, scaling: { type: "linear", factor: NaN } },
      RangeError,
      "ERR_ROPE_FACTOR",
      "scaling.factor",
    ],
    [
      { dim: 64, scaling: { type: "linear", factor: 2, seqLen: 5 } },
      TypeError,
      "ERR_ROPE_PARAMETER",
      "scaling.seqLen",
    ],
    [
      { dim: 64, scaling: { type: "linear", factor: 2, facter: 5 } },
      TypeError,
      "ERR_UNKNOWN_OPTION",
      "scaling.facter",
    ],
    [
      { dim: 64, scaling: { type: "dynamic", factor: 2 } },
      TypeError,
      "ERR_REQUIRED",
      "scaling.maxPositionEmbeddings",
    ],
    [
      {
        dim: 2,
        scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 4 },
      },
      RangeError,
      "ERR_ROPE_DYNAMIC_DIM",
      "rotaryDim",
    ],
    [
      {
        dim: 64,
        scaling: {
          type: "dynamic",
          factor: 2,
          maxPositionEmbeddings: 4096,
          seqLen: -1,
        },
      },
      RangeError,
      "ERR_ROPE_SEQ_LEN",
      "scaling.seqLen",
    ],
    [
      {
        dim: 64,
        scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 1.5 },
      },
      RangeError,
      "ERR_ROPE_MAX_LENGTH",
      "scaling.maxPositionEmbeddings",
    ],
    [
      { dim: 64, scaling: { type: "yarn", factor: 4 } },
      TypeError,
      "ERR_REQUIRED",
      "scaling.originalMaxPositionEmbeddings",
    ],
    [
      { dim: 64, scaling: { ...yarn, betaFast: 0 } },
      RangeError,
      "ERR_ROPE_BETA",
      "scaling.betaFast",
    ],
    [
      { dim: 64, scaling: { ...yarn, betaFast: Infinity } },
      RangeError,
      "ERR_ROPE_BETA",
      "scaling.betaFast",
    ],
    [
      { dim: 64, scaling: { ...yarn, attentionFactor: -1 } },
      RangeError,
      "ERR_ROPE_ATTENTION",
      "scaling.attentionFactor",
    ],
    [
      { dim: 64, scaling: { ...yarn, mscale: -1 } },
      RangeError,
      "ERR_ROPE_MSCALE",
      "scaling.mscale",
    ],
    [
      { dim: 64, scaling: { ...yarn, truncate: 1 } },
      TypeError,
      "ERR_ROPE_TRUNCATE",
      "scaling.truncate",
    ],
    [
      { dim: 128, scaling: { ...llama3, highFreqFactor: -1 } },
      RangeError,
      "ERR_ROPE_FREQ_FACTOR",
      "scaling.lowFreqFactor",
    ],
    [
      { dim: 128, scaling: { ...llama3, lowFreqFactor: 0 } },
      RangeError,
      "ERR_ROPE_FREQ_FACTOR",
      "scaling.lowFreqFactor",
    ],
    [
      {
        dim: 128,
        scaling: { ...llama3, originalMaxPositionEmbeddings: undefined },
      },
      TypeError,
      "ERR_REQUIRED",
      "scaling.originalMaxPositionEmbeddings",
    ],
    [
      { dim: 96, scaling: { ...phi, shortFactor: [1, 2] } },
      RangeError,
      "ERR_ROPE_SHORT_FACTOR",
      "scaling.shortFactor",
    ],
    [
      {
        dim: 96,
        scaling: { ...phi, longFactor: [...phi.longFactor.slice(1), 0] },
      },
      RangeError,
      "ERR_ROPE_LONG_FACTOR",
      "scaling.longFactor",
    ],
    [
      {
        dim: 96,
        scaling: { ...phi, shortFactor: [1e-310, ...phi.shortFactor.slice(1)] },
      },
      RangeError,
      "ERR_ROPE_SHORT_FACTOR",
      "scaling.shortFactor",
      'option "scaling.shortFactor" must hold rotaryDim / 2 numbers > 0 with finite reciprocals',
    ],
    [
      { dim: 96, scaling: { ...phi, longFactor: 3 } },
      TypeError,
      "ERR_NOT_ARRAY",
      "scaling.longFactor",
    ],
    [
      { dim: 96, scaling: { ...phi, factor: NaN } },
      RangeError,
      "ERR_ROPE_FACTOR",
      "scaling.factor",
    ],
    [
      { dim: 96, scaling: { ...phi, originalMaxPositionEmbeddings: 1 } },
      RangeError,
      "ERR_ROPE_ORIGINAL",
      "scaling.originalMaxPositionEmbeddings",
    ],
    [
      {
        dim: 96,
        scaling: { ...phi, originalMaxPositionEmbeddings: undefined },
      },
      TypeError,
      "ERR_REQUIRED",
      "scaling.factor",
    ],
  ];
  for (const [options, ...expected] of bad)
    throwsNaming(() => ropeFrequencies(options), ...expected);
  // transformers v5's longrope takes a factor beside the original length:
  // the factor sets the attention factor, the length the logarithm's base.
  const both = ropeFrequencies({ dim: 96, scaling: { ...phi, factor: 8 } });
  assert.ok(
    Math.abs(
      both.attentionFactor - Math.sqrt(1 + Math.log(8) / Math.log(4096)),
    ) <= 4e-16,
  );
  const cacheBad = [
    [{ dim: 64 }, TypeError, "ERR_NOT_ARRAY", "positions"],
    [{ dim: 64, positions: -1 }, RangeError, "ERR_OUT_OF_RANGE", "positions"],
    [{ dim: 64, positions: 1.5 }, RangeError, "ERR_NOT_INTEGER", "positions"],
    [
      { dim: 64, positions: [0, NaN] },
      RangeError,
      "ERR_POSITIONS",
      "positions[1]",
    ],
    [
      { dim: 64, positions: [1], start: 2 },
      TypeError,
      "ERR_NOT_APPLICABLE",
      "start",
    ],
    [
      { dim: 64, positions: 4, layout: "rows" },
      RangeError,
      "ERR_LAYOUT",
      "layout",
    ],
    [
      { dim: 64, positions: 4, dtype: "bfloat16" },
      RangeError,
      "ERR_DTYPE",
      "dtype",
    ],
    [
      { dim: 64, positions: [1, "2"] },
      TypeError,
      "ERR_NOT_NUMBER",
      "positions[1]",
    ],
    [
      {
        dim: 64,
        positions: 4,
        dtype: "float16",
        scaling: {
          type: "yarn",
          factor: 4,
          maxPositionEmbeddings: 64,
          attentionFactor: 1e5,
        },
      },
      RangeError,
      "ERR_ROPE_ATTENTION",
      "scaling.attentionFactor",
    ],
  ];
  for (const [options, ...expected] of cacheBad)
    throwsNaming(() => ropeCache(options), ...expected);
  // Still working, with the same answer as before.
  const { cos } = ropeCache({ positions: [1], dim: 2, dtype: "float64" });
  assert.equal(cos[0], Math.cos(1));
});

test("every input is read once, before module memory is used", () => {
  const reads = {};
  const counted = (object, name) =>
    new Proxy(object, {
      get(target, key, receiver) {
        if (typeof key === "string") {
          const id = `${name}.${key}`;
          reads[id] = (reads[id] ?? 0) + 1;
          // A getter may call the library.
          table({ positions: 3, dim: 8 });
        }
        return Reflect.get(target, key, receiver);
      },
    });
  const scaling = counted(
    {
      type: "longrope",
      shortFactor: counted(new Array(16).fill(1.5), "short"),
      longFactor: new Array(16).fill(3),
      maxPositionEmbeddings: 8192,
      originalMaxPositionEmbeddings: 4096,
      seqLen: 6000,
    },
    "scaling",
  );
  const positions = counted([0, 3, 9], "positions");
  const options = counted(
    { positions, dim: 32, scaling, layout: "interleaved", dtype: "float64" },
    "options",
  );
  const result = ropeCache(options);
  for (const [id, n] of Object.entries(reads))
    assert.equal(n, 1, `${id} read ${n} times`);
  const expected = ropeCache({
    positions: [0, 3, 9],
    dim: 32,
    layout: "interleaved",
    dtype: "float64",
    scaling: {
      type: "longrope",
      shortFactor: new Array(16).fill(1.5),
      longFactor: new Array(16).fill(3),
      maxPositionEmbeddings: 8192,
      originalMaxPositionEmbeddings: 4096,
      seqLen: 6000,
    },
  });
  assert.deepEqual(result, expected);
});

test("a parameter left out is absent, whatever value could stand for it", () => {
  // truncate: false differs from the default (true); a schedule computed
  // once for one is not taken for the other.
  const yarn = { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 64 };
  const options = { positions: [3], dim: 32, dtype: "float64", base: 100 };
  const kept = table({ ...options, scaling: yarn });
  const exact = table({ ...options, scaling: { ...yarn, truncate: false } });
  const again = table({ ...options, scaling: yarn });
  assert.notDeepEqual([...exact], [...kept]);
  assert.deepEqual([...again], [...kept]);
  // NaN is never "absent": it is refused by name.
  for (const key of ["attentionFactor", "mscale", "betaFast", "truncate"])
    assert.throws(
      () => table({ ...options, scaling: { ...yarn, [key]: NaN } }),
      (error) => error.option === `scaling.${key}`,
    );
});
