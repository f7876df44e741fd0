// fromConfig and the census of transformers' RoPE models: what it knows of
// each model type, what it says when it has to assume, and v5's defaults.
// Expected values are the source's formulas written here; whether each
// family rotates as its own code does is model-vectors.test.js's to show.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fromConfig, init, ropeFrequencies } from "../../dist/index.js";
import { MODELS } from "../../src/models.js";
import { readPage, renderCensus, withCensus } from "../census/render.js";

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

test("docs/models.md holds the census as src/models.js has it", () => {
  const page = readPage();
  assert.equal(
    withCensus(page, renderCensus()),
    page,
    "run node tests/census/render.js",
  );
});

// What a row says fromConfig reads from a config that leaves everything
// but the shape to the class: its pairing, base, head dim and rotated part.
function expected(row) {
  const dim = row.headDimField !== undefined ? 96 : (row.headDim ?? 160);
  const pairing = row.interleaveFlag
    ? row.interleaveFlag[1]
      ? "interleaved"
      : "halves"
    : (row.pairing ?? "halves");
  const rotaryDim =
    row.rotaryDim ??
    (row.partial !== undefined ? Math.trunc(dim * row.partial) : dim);
  return { dim, rotaryDim, base: row.theta ?? 10000, pairing };
}

test("every census entry's config reads with no warning, as its row says", () => {
  // A head of 160: every class's partial factor gives an even part of it.
  const shape = (row) => ({
    hidden_size: 2560,
    num_attention_heads: 16,
    max_position_embeddings: 4096,
    ...(row.headDimField !== undefined ? { [row.headDimField]: 96 } : {}),
    ...(row.ropeWhen !== undefined
      ? { [row.ropeWhen[0]]: row.ropeWhen[1] }
      : {}),
    rope_parameters: { rope_type: "default" },
  });
  let read = 0;
  for (const [type, entry] of Object.entries(MODELS)) {
    let row = entry;
    while (row.text !== undefined) row = MODELS[row.text];
    if (entry.none !== undefined || entry.elsewhere !== undefined) {
      const bare = {
        model_type: type,
        hidden_size: 64,
        num_attention_heads: 2,
      };
      assert.throws(
        () => fromConfig(bare),
        (error) => error.code === "ERR_NO_ROPE" && error.message.includes(type),
        type,
      );
      continue;
    }
    if (entry.nested !== undefined) {
      assert.throws(
        () => fromConfig({ model_type: type, ...shape(row) }),
        (error) =>
          error.code === "ERR_NOT_APPLICABLE" &&
          error.message.includes(entry.nested),
        type,
      );
      continue;
    }
    const config =
      entry.text !== undefined
        ? { model_type: type, text_config: shape(row) }
        : { model_type: type, ...shape(row) };
    const options = fromConfig(config);
    const { dim, rotaryDim, base, pairing } = options;
    assert.deepEqual({ dim, rotaryDim, base, pairing }, expected(row), type);
    if (row.reversed) {
      assert.equal(options.warnings.length, 1, type);
      assert.match(options.warnings[0], /the other way/, type);
    } else assert.deepEqual(options.warnings, [], type);
    if (row.mrope !== undefined) {
      const pairs = rotaryDim / 2;
      const section = [pairs / 4, (3 * pairs) / 8, (3 * pairs) / 8];
      const withSection = structuredClone(config);
      (withSection.text_config ?? withSection).rope_parameters.mrope_section =
        section;
      const mrope = fromConfig(withSection);
      assert.deepEqual(mrope.mropeSection, section, type);
      assert.equal(mrope.mropeInterleaved, row.mrope === "interleaved", type);
      assert.deepEqual(mrope.warnings, [], type);
    }
    read++;
  }
  assert.ok(read > 100, `${read} model types read`);
});

test("a model whose attention rotates only when a field says so is refused otherwise", () => {
  assert.throws(
    () =>
      fromConfig(
        plain({
          model_type: "granitemoehybrid",
          position_embedding_type: null,
        }),
      ),
    (error) =>
      error.code === "ERR_NO_ROPE" &&
      error.option === "position_embedding_type",
  );
  assert.equal(
    fromConfig(
      plain({
        model_type: "granitemoehybrid",
        position_embedding_type: "rope",
      }),
    ).pairing,
    "halves",
  );
  assert.throws(
    () => fromConfig(plain({ model_type: "zamba2" })),
    (error) => error.code === "ERR_NO_ROPE" && error.option === "use_mem_rope",
  );
});

test("RoPE fields on a model type without RoPE are read as Llama's, and the warning says both", () => {
  const read = fromConfig(plain({ model_type: "bert" }));
  assert.equal(read.pairing, "halves");
  assert.equal(read.warnings.length, 1, read.warnings.join("; "));
  assert.match(
    read.warnings[0],
    /^model type "bert" has no RoPE in transformers/,
  );
  assert.match(read.warnings[0], /yet this config gives RoPE fields/);
  assert.deepEqual(
    fromConfig(plain({ model_type: "bert" }), { pairing: "halves" }).warnings,
    [],
  );
});
