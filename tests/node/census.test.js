// fromConfig and the census of transformers' RoPE models: what it knows of
// each model type, what it says when it has to assume, and v5's defaults.
// Expected values are the source's formulas written here; whether each
// family rotates as its own code does is model-vectors.test.js's to show.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fromConfig, init, ropeFrequencies } from "../../dist/index.js";

await init();

const fragment = (name) =>
  JSON.parse(
    readFileSync(new URL(`../vectors/configs/${name}`, import.meta.url)),
  );

const plain = (extra = {}) => ({
  hidden_size: 2048,
  num_attention_heads: 16,
  max_position_embeddings: 4096,
  rope_theta: 10000,
  ...extra,
});

test("a model type outside the census is read as Llama's, and the result says so", () => {
  for (const config of [plain({ model_type: "mystery" }), plain()]) {
    const read = fromConfig(config);
    assert.equal(read.pairing, "halves");
    assert.equal(read.warnings.length, 1, read.warnings.join("; "));
    assert.match(read.warnings[0], /assumes Llama's pairing, "halves"/);
    assert.match(read.warnings[0], /pass \{ pairing \}/);
    // Said by the caller: no assumption left.
    const told = fromConfig(config, { pairing: "interleaved" });
    assert.equal(told.pairing, "interleaved");
    assert.deepEqual(told.warnings, []);
  }
  assert.match(
    fromConfig(plain({ model_type: "mystery" })).warnings[0],
    /^model type "mystery" is not in fromConfig's census/,
  );
  assert.match(fromConfig(plain()).warnings[0], /^config has no model_type/);
  // Without rope_theta, the default base is one more assumption, in the
  // same sentence.
  const bare = plain({ model_type: "mystery", rope_parameters: {} });
  delete bare.rope_theta;
  const read = fromConfig(bare);
  assert.equal(read.base, 10000);
  assert.equal(read.warnings.length, 1);
  assert.match(read.warnings[0], /rope_theta 10000/);
});

test("fromConfig's pairing option: one of two, and a word where it overrules the census", () => {
  assert.throws(
    () => fromConfig(plain({ model_type: "llama" }), { pairing: "pairs" }),
    (error) =>
      error instanceof RangeError &&
      error.code === "ERR_PAIRING" &&
      error.option === "pairing" &&
      /"halves" or "interleaved"/.test(error.message),
  );
  const overruled = fromConfig(plain({ model_type: "cohere" }), {
    pairing: "halves",
  });
  assert.equal(overruled.pairing, "halves");
  assert.match(overruled.warnings.join(), /rotates adjacent pairs/);
  assert.equal(ropeFrequencies({ dim: 2 }).inverseFrequencies[0], 1);
});

test("models that rotate adjacent pairs read as interleaved, a wrapper's by its text model", () => {
  for (const type of [
    "cohere",
    "cohere2",
    "glm",
    "glm4",
    "helium",
    "llama4_text",
    "deepseek_v2",
    "deepseek_v3",
    "gptj",
    "codegen",
  ]) {
    const read = fromConfig(plain({ model_type: type }));
    assert.equal(read.pairing, "interleaved", type);
    assert.deepEqual(read.warnings, [], type);
  }
  for (const type of ["llama", "mistral", "qwen2", "phi3", "gpt_neox"])
    assert.equal(fromConfig(plain({ model_type: type })).pairing, "halves");
  // Llama 4's text model sits under text_config.
  const scout = {
    model_type: "llama4",
    text_config: plain({ model_type: "llama4_text", rope_theta: 500000 }),
  };
  assert.equal(fromConfig(scout).pairing, "interleaved");
  delete scout.text_config.model_type;
  assert.equal(fromConfig(scout).pairing, "interleaved");
});

test("DeepSeek-V3's rope_interleave switches its pairing, true by default", () => {
  const v3 = fragment("deepseek-v3.v5.json");
  assert.equal(fromConfig(v3).pairing, "interleaved");
  assert.equal(
    fromConfig({ ...v3, rope_interleave: true }).pairing,
    "interleaved",
  );
  assert.equal(fromConfig({ ...v3, rope_interleave: false }).pairing, "halves");
  assert.throws(
    () => fromConfig({ ...v3, rope_interleave: "yes" }),
    (error) =>
      error instanceof TypeError &&
      error.code === "ERR_NOT_BOOLEAN" &&
      error.option === "rope_interleave",
  );
});

test("v5's defaults: YaRN's factor from the two lengths, its betas read with `or`", () => {
  const yarn = (extra) =>
    fromConfig(
      plain({
        model_type: "qwen2",
        max_position_embeddings: 131072,
        rope_parameters: {
          rope_type: "yarn",
          rope_theta: 1000000,
          original_max_position_embeddings: 32768,
          ...extra,
        },
      }),
    );
  // factor null (None): max_position_embeddings / original.
  const derived = yarn({ factor: null });
  assert.equal(derived.scaling.factor, 131072 / 32768);
  assert.deepEqual(
    ropeFrequencies(derived).inverseFrequencies,
    ropeFrequencies(yarn({ factor: 4 })).inverseFrequencies,
  );
  // beta_fast 0 and beta_slow 0 are the defaults 32 and 1.
  const zero = yarn({ factor: 4, beta_fast: 0, beta_slow: 0 });
  assert.equal(zero.scaling.betaFast, undefined);
  assert.deepEqual(
    ropeFrequencies(zero).inverseFrequencies,
    ropeFrequencies(yarn({ factor: 4, beta_fast: 32, beta_slow: 1 }))
      .inverseFrequencies,
  );
  assert.deepEqual(zero.warnings, []);
});

test("Phi-3's class default original_max_position_embeddings overrides the rope dict's", () => {
  const phi = fragment("phi-3.5-mini-instruct.v5.json");
  delete phi.original_max_position_embeddings;
  phi.rope_parameters = {
    ...phi.rope_parameters,
    original_max_position_embeddings: 2048,
  };
  assert.equal(fromConfig(phi).scaling.originalMaxPositionEmbeddings, 4096);
  // A top-level field still wins.
  assert.equal(
    fromConfig({ ...phi, original_max_position_embeddings: 8192 }).scaling
      .originalMaxPositionEmbeddings,
    8192,
  );
  // Another model type keeps the dict's.
  assert.equal(
    fromConfig({ ...phi, model_type: "llama" }).scaling
      .originalMaxPositionEmbeddings,
    2048,
  );
});

test("what the source computes but logs reaches fromConfig's warnings", () => {
  const llama = fragment("llama-3.1-8b.v5.json");
  llama.rope_parameters = {
    ...llama.rope_parameters,
    low_freq_factor: 2,
    high_freq_factor: 2,
  };
  const read = fromConfig(llama);
  assert.equal(read.warnings.length, 1, read.warnings.join("; "));
  assert.match(read.warnings[0], /highFreqFactor is not above/);
  assert.deepEqual(
    read.warnings,
    ropeFrequencies(read).warnings,
    "the same words as ropeFrequencies",
  );
});
