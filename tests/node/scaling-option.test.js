// The `scaling` option of every function that takes a schedule, against the
// committed vectors of the transformers formulas
// (tests/vectors/generate_rope_vectors.py): HF's duplicated cos/sin caches,
// attention factor included, and its inverse frequencies.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  dotProducts,
  frequencies,
  init,
  linearRelationError,
  rope,
  rotate,
  rotationMatrix,
  table,
  toeplitzError,
} from "../../dist/index.js";

await init();

const { cases } = JSON.parse(
  readFileSync(new URL("../vectors/rope/rope_vectors.json", import.meta.url)),
);

// The angles p * w_i may differ from numpy's by the frequencies' allowed
// difference (4e-15, checked below) and numpy's rounding of the product.
function angleError(c, p, pair) {
  const angle = Math.abs(p) * c.inverseFrequencies[pair];
  return angle * (4e-15 + 2 ** -52) * c.attentionFactor;
}

function near(got, want, tolerance, what) {
  assert.ok(
    Math.abs(got - want) <= tolerance,
    `${what} = ${got}, expected ${want} (within ${tolerance})`,
  );
}

function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31 - 0.5;
  };
}

for (const c of cases) {
  const options = { dim: c.dim, base: c.base, scaling: c.scaling };
  const h = c.dim / 2;

  test(`${c.name}: frequencies are the scaled inverse frequencies`, () => {
    const w = frequencies(options);
    assert.equal(w.length, h);
    c.inverseFrequencies.forEach((want, i) =>
      near(w[i], want, 4e-15 * want, `w[${i}]`),
    );
  });

  test(`${c.name}: table rows are HF's cos and sin, attention factor included`, () => {
    const rows = table({
      ...options,
      positions: c.positions,
      layout: "halves",
      dtype: "float64",
    });
    c.positions.forEach((p, j) => {
      for (let i = 0; i < h; i++) {
        const tolerance = angleError(c, p, i) + 2e-15;
        near(rows[j * c.dim + i], c.sin[j * c.dim + i], tolerance, `sin`);
        near(rows[j * c.dim + h + i], c.cos[j * c.dim + i], tolerance, `cos`);
      }
    });
  });

  test(`${c.name}: rope is q·cos + rotate_half(q)·sin with HF's caches`, () => {
    const next = random(c.dim);
    const q = Float32Array.from({ length: c.positions.length * c.dim }, next);
    for (const pairing of ["halves", "interleaved"]) {
      const got = rope(q, c.positions, { ...options, pairing });
      c.positions.forEach((p, j) => {
        for (let i = 0; i < h; i++) {
          const [x, y] =
            pairing === "halves"
              ? [j * c.dim + i, j * c.dim + h + i]
              : [j * c.dim + 2 * i, j * c.dim + 2 * i + 1];
          const cos = c.cos[j * c.dim + i];
          const sin = c.sin[j * c.dim + i];
          // float32 output: half an ulp of values below 2 · attention.
          const tolerance =
            2 ** -24 * 2 * c.attentionFactor + 2 * angleError(c, p, i);
          near(got[x], q[x] * cos - q[y] * sin, tolerance, `${pairing} x`);
          near(got[y], q[y] * cos + q[x] * sin, tolerance, `${pairing} y`);
        }
      });
    }
  });

  test(`${c.name}: dot products are attention² · Σ cos(k w_i)`, () => {
    const offsets = [0, 1, -3, 17.5, 1000, -4096];
    const got = dotProducts({ ...options, offsets });
    offsets.forEach((k, n) => {
      let sum = 0;
      for (const w of c.inverseFrequencies) sum += Math.cos(k * w);
      const want = c.attentionFactor ** 2 * sum;
      near(got[n], want, 1e-12 * h * c.attentionFactor ** 2, `g(${k})`);
    });
  });

  test(`${c.name}: the relation and the Toeplitz Gram hold for the scaled table`, () => {
    for (const dtype of ["float32", "float64"]) {
      const relation = linearRelationError({
        ...options,
        positions: 64,
        start: 4000,
        offsets: [1, -2.5, 100],
        dtype,
      });
      // float32 rounding on both sides, values up to the attention factor.
      const tolerance =
        (dtype === "float32" ? 2 ** -23 : 2 ** -50) * 2 * c.attentionFactor;
      assert.ok(
        relation.maxAbsError <= tolerance,
        `${dtype} relation error ${relation.maxAbsError}`,
      );
      const gram = toeplitzError({ ...options, positions: 32, dtype });
      assert.ok(
        gram.maxAbsError <=
          (dtype === "float32" ? 1e-6 : 1e-13) * h * c.attentionFactor ** 2,
        `${dtype} Gram error ${gram.maxAbsError}`,
      );
    }
  });
}

test("rotate and rotationMatrix with a scaling are rotations by the scaled frequencies", () => {
  const c = cases.find((x) => x.name === "qwen2.5-yarn");
  const options = { dim: c.dim, base: c.base, scaling: c.scaling };
  const h = c.dim / 2;
  const x = Float64Array.from({ length: c.dim }, random(7));
  const k = 37.25;
  const got = rotate(x, k, { ...options, layout: "halves" });
  const matrix = rotationMatrix(k, { ...options, layout: "halves" });
  for (let i = 0; i < h; i++) {
    // [sin | cos] halves: R(k) maps (sin a, cos a) to (sin(a + kw), cos(a + kw)).
    const w = c.inverseFrequencies[i];
    const [s, co] = [Math.sin(k * w), Math.cos(k * w)];
    const want = [x[i] * co + x[h + i] * s, x[h + i] * co - x[i] * s];
    const tolerance = 1e-14 + k * w * 4e-15;
    near(got[i], want[0], tolerance, `rotate[${i}]`);
    near(got[h + i], want[1], tolerance, `rotate[${h + i}]`);
    near(matrix[i * c.dim + i], co, tolerance, `R[${i}, ${i}]`);
  }
  // A rotation keeps lengths: no attention factor in R(k).
  const length = (v) => Math.hypot(...v);
  near(length(got), length(x), 1e-13, "|R(k) x|");
});

test("scaling { type: default } is the paper schedule, bit for bit", () => {
  for (const base of [10000, 500000]) {
    const plain = table({ positions: 300, dim: 64, base });
    const scaled = table({
      positions: 300,
      dim: 64,
      base,
      scaling: { type: "default" },
    });
    assert.deepEqual(scaled, plain);
  }
});

test("scaling refuses what it cannot rescale, naming the option, and the module keeps working", () => {
  const yarn = { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 4096 };
  const refusals = [
    [
      () => table({ positions: 1, dim: 7, scaling: yarn }),
      RangeError,
      "ERR_ROTARY_DIM",
      "dim",
    ],
    [
      () =>
        table({ positions: 1, dim: 8, schedule: "timescale", scaling: yarn }),
      TypeError,
      "ERR_NOT_APPLICABLE",
      "scaling",
    ],
    [
      () => frequencies({ dim: 4, frequencies: [1, 0.1], scaling: yarn }),
      TypeError,
      "ERR_COMBINATION",
      "scaling",
    ],
    [
      () => rope(new Float32Array(8), 0, { dim: 8, scaling: { type: "yarn" } }),
      TypeError,
      "ERR_REQUIRED",
      "scaling.factor",
    ],
    [
      () => dotProducts({ dim: 8, offsets: [1], scaling: { type: "nope" } }),
      RangeError,
      "ERR_ROPE_TYPE",
      "scaling.type",
    ],
    [
      () =>
        rotate(new Float32Array(8), 1, {
          dim: 8,
          scaling: { type: "linear", factor: 0 },
        }),
      RangeError,
      "ERR_ROPE_FACTOR",
      "scaling.factor",
    ],
    [
      () => table({ positions: 1, dim: 8, preset: "whisper", scaling: yarn }),
      TypeError,
      "ERR_NOT_APPLICABLE",
      "scaling",
    ],
  ];
  for (const [call, Type, code, option] of refusals) {
    assert.throws(
      call,
      (e) => e instanceof Type && e.code === code && e.option === option,
      `${code} ${option}`,
    );
    const row = table({ positions: [1], dim: 2, dtype: "float64" });
    assert.deepEqual([...row], [Math.sin(1), Math.cos(1)]);
  }
});
