// rope and ropeFrequencies on fromConfig's options against each RoPE model
// family's own transformers code: the vectors of
// tests/vectors/generate_model_vectors.py, which ran each family's rotate
// and apply functions on seeded q and k (and its inverse-frequency code in
// float32 and float64). A family whose pairing or rotary dim fromConfig
// gets wrong misses by about the rows' own size. A file with "reversed":
// true is a family whose pairs turn by -θ: fromConfig's warning says to
// pass negated positions, and the test does.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fromConfig, init, rope, ropeFrequencies } from "../../dist/index.js";

await init();

const here = new URL("../vectors/models/", import.meta.url);
const vectors = readdirSync(here)
  .filter((name) => name.endsWith(".json"))
  .map((name) => JSON.parse(readFileSync(new URL(name, here), "utf8")))
  .sort((a, b) => (a.family < b.family ? -1 : 1));

// One file per distinct rotation rule.
const FAMILIES = [
  "cohere",
  "cohere2",
  "deepseek_v2",
  "deepseek_v3",
  "deepseek_v3-no-interleave",
  "glm",
  "glm4",
  "glm4v",
  "gpt_neox",
  "gptj",
  "helium",
  "llama",
  "llama4",
  "nanochat",
  "phi",
  "qwen2_vl",
  "qwen3_vl",
  "stablelm",
];

const ulp32 = (x) => {
  const f = Math.abs(Math.fround(x));
  if (f < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(f)) - 23);
};

test("a vector file for every family's rotation rule", () => {
  assert.deepEqual(
    vectors.map((v) => v.family),
    FAMILIES,
  );
});

for (const v of vectors) {
  test(`${v.family}: ropeFrequencies of fromConfig is the model's inv_freq`, () => {
    const options = fromConfig(v.config);
    const got = ropeFrequencies(options).inverseFrequencies;
    assert.equal(got.length, v.inverseFrequencies.length);
    const lnBase = Math.log(options.base);
    for (let i = 0; i < got.length; i++) {
      // base^-x with x = 2i/rotaryDim rounded: its rounding moves the power
      // by ln(base)·x times it, pow and the division add a rounding each.
      const x = (2 * i) / options.rotaryDim;
      const single = 2 ** -24 * (3 + lnBase * x);
      const double = 2 ** -53 * (3 + lnBase * x);
      const f32 = Math.fround(v.inverseFrequencies[i]);
      const f64 = v.inverseFrequencies64[i];
      assert.ok(
        Math.abs(got[i] - f32) <= single * f32,
        `float32 inv_freq[${i}]: ${got[i]} vs ${f32}`,
      );
      assert.ok(
        Math.abs(got[i] - f64) <= double * f64,
        `float64 inv_freq[${i}]: ${got[i]} vs ${f64}`,
      );
    }
  });

  test(`${v.family}: fromConfig's warnings say to negate positions where the model turns by -θ`, () => {
    const negate = fromConfig(v.config).warnings.some((w) =>
      w.includes("rope's at -p, so pass negated positions"),
    );
    assert.equal(negate, v.reversed === true);
  });

  test(`${v.family}: rope of fromConfig rotates q and k as the model does`, () => {
    const options = { ...fromConfig(v.config), heads: v.heads, order: v.order };
    // Positions per token, or M-RoPE's { t, h, w } streams of them.
    const tokens = (v.positions.t ?? v.positions).length;
    const negated = (list) => list.map((p) => -p);
    const positions = !v.reversed
      ? v.positions
      : Array.isArray(v.positions)
        ? negated(v.positions)
        : Object.fromEntries(
            Object.entries(v.positions).map(([s, list]) => [s, negated(list)]),
          );
    const dim = v.q.length / (v.heads * tokens);
    // DeepSeek-V3's interleaving apply permutes the columns it returns:
    // column j is column outputPermutation[j] of the row rotated in place.
    const column = v.outputPermutation ?? [...Array(dim).keys()];
    const rotated = {};
    for (const name of ["q", "k"]) {
      const got = rope(Float32Array.from(v[name]), positions, options);
      const expected = v[`${name}Rotated`];
      assert.equal(got.length, expected.length);
      for (let row = 0; row < got.length / dim; row++) {
        const at = row * dim;
        let largest = 0;
        for (let j = 0; j < dim; j++)
          largest = Math.max(largest, Math.abs(expected[at + j]));
        // Both sides are the exact rotation rounded once to float32 (the
        // model's float64 result when stored): two float32 ulps of the
        // row's largest value bound their difference.
        const tolerance = 2 * ulp32(largest);
        for (let j = 0; j < dim; j++) {
          const diff = Math.abs(got[at + column[j]] - expected[at + j]);
          assert.ok(
            diff <= tolerance,
            `${name} row ${row} column ${j}: ${got[at + column[j]]} vs ${expected[at + j]}`,
          );
        }
      }
      rotated[name] = got;
    }
    if (v.outputPermutation === undefined) return;
    // The same permutation of q and k leaves every score q·k as it was.
    const rows = rotated.q.length / dim;
    for (let a = 0; a < rows; a++)
      for (let b = 0; b < rows; b++) {
        let ours = 0;
        let model = 0;
        let size = 0;
        for (let j = 0; j < dim; j++) {
          ours += rotated.q[a * dim + j] * rotated.k[b * dim + j];
          model += v.qRotated[a * dim + j] * v.kRotated[b * dim + j];
          size += Math.abs(v.qRotated[a * dim + j] * v.kRotated[b * dim + j]);
        }
        assert.ok(Math.abs(ours - model) <= 2 ** -20 * size, `q${a}·k${b}`);
      }
  });
}
