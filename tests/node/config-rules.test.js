// fromConfig's rules, one test each, as transformers v5 reads a config
// (modeling_rope_utils.py: convert_rope_params_to_dict,
// standardize_rope_params, _check_received_keys): what it reads and in
// which order, what it only warns about, what it refuses and how the error
// names the config field; and caches that follow their sequence. Expected
// values are the source's formulas written here, or committed fragments.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  fromConfig,
  init,
  rope,
  ropeCache,
  ropeFrequencies,
} from "../../dist/index.js";

await init();

const fragment = (name) =>
  JSON.parse(
    readFileSync(new URL(`../vectors/configs/${name}`, import.meta.url)),
  );
const clone = (value) => JSON.parse(JSON.stringify(value));

// A throwing call whose error is of the class, carries the rule's code and
// the option (the config field as written), one prefix and, where the
// wording is the point, the text; the module keeps working afterwards.
function refuses(call, Class, code, option, text) {
  let caught;
  assert.throws(call, (error) => {
    caught = error;
    assert.ok(error instanceof Class, `${error.name}: ${error.message}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.option, option, error.message);
    if (text !== undefined)
      assert.ok(
        error.message.includes(text),
        `"${error.message}" names ${text}`,
      );
    assert.ok(!/(\w+: )\1/.test(error.message), `one prefix: ${error.message}`);
    return true;
  });
  assert.equal(ropeFrequencies({ dim: 2 }).inverseFrequencies[0], 1);
  return caught;
}

const unscaled = (i, dim, base) => base ** ((-2 * i) / dim);
const close = (got, want, rel = 1e-15) =>
  Math.abs(got - want) <= rel * Math.abs(want);

test("unknown rope keys are warnings, as transformers logs them, and the result still spreads", () => {
  const mistral = fromConfig(fragment("yarn-mistral-7b-128k.v4.json"));
  assert.equal(mistral.warnings.length, 1);
  assert.match(mistral.warnings[0], /"rope_scaling\.finetuned"/);
  const ministral = fromConfig(fragment("yarn-llama4-scaling-beta.v5.json"));
  assert.match(
    ministral.warnings.join(),
    /"rope_parameters\.llama_4_scaling_beta"/,
  );
  // A key of another rope type is left out the same way.
  const qwen = clone(fragment("qwen2.5-7b-instruct-yarn.v4.json"));
  qwen.rope_scaling.low_freq_factor = 1;
  const read = fromConfig(qwen);
  assert.equal(read.scaling.lowFreqFactor, undefined);
  assert.match(read.warnings.join(), /rope_scaling\.low_freq_factor/);
  // warnings is not enumerable: the options spread into every function.
  assert.ok(!Object.keys(mistral).includes("warnings"));
  const cache = ropeCache({ ...mistral, positions: 2 });
  assert.equal(cache.cos.length, 2 * 64);
  const q = new Float32Array(128).fill(1);
  rope(q, [3], { ...mistral, inPlace: true });
  assert.ok(q.every(Number.isFinite));
  const { inverseFrequencies } = ropeFrequencies({ ...mistral });
  assert.equal(inverseFrequencies.length, 64);
});

test('"type" and "rope_type" that mean the same type are one', () => {
  const both = fromConfig(fragment("qwen2-vl-7b-both-types.v4.json"));
  assert.deepEqual(both.scaling, { type: "default" });
  for (const [type, ropeType] of [
    ["su", "longrope"],
    ["longrope", "su"],
  ]) {
    const phi = clone(fragment("phi-3.5-mini-instruct.v4.json"));
    Object.assign(phi.rope_scaling, { type, rope_type: ropeType });
    assert.equal(fromConfig(phi).scaling.type, "longrope");
  }
  const disagree = clone(fragment("qwen2-vl-7b.v4.json"));
  disagree.rope_scaling.rope_type = "linear";
  refuses(
    () => fromConfig(disagree),
    TypeError,
    "ERR_CONFLICT",
    "rope_scaling.type",
  );
});

test("top-level fields take precedence as standardize_rope_params gives them", () => {
  const yarn = fromConfig(fragment("yarn-top-level-fields.v5.json"));
  // original_max_position_embeddings 8192 (top) over the dict's 32768;
  // partial_rotary_factor 0.5 (top) over the dict's 1.
  assert.equal(yarn.scaling.originalMaxPositionEmbeddings, 8192);
  assert.equal(yarn.rotaryDim, 64);
  // Per-layer dicts only get the default, max_position_embeddings.
  const layered = fromConfig(fragment("yarn-per-layer.v5.json"), {
    layerType: "full_attention",
  });
  assert.equal(layered.scaling.originalMaxPositionEmbeddings, 65536);
  // A flat dict without one gets max_position_embeddings.
  const qwen = clone(fragment("qwen2.5-7b-instruct-yarn.v5.json"));
  delete qwen.rope_parameters.original_max_position_embeddings;
  assert.equal(
    fromConfig(qwen).scaling.originalMaxPositionEmbeddings,
    qwen.max_position_embeddings,
  );
  // The dict's rope_theta over the config's (setdefault).
  const both = clone(fragment("qwen3-8b.v5.json"));
  both.rope_theta = 5;
  assert.equal(fromConfig(both).base, both.rope_parameters.rope_theta);
});

test("model types: class defaults, GPT-J's fields and pairing, Qwen3-VL's layout", () => {
  const falcon = fromConfig(fragment("falcon-7b.v4.json"));
  assert.equal(falcon.base, 10000);
  assert.equal(falcon.dim, 64);
  const gptj = fromConfig(fragment("gpt-j-6b.v4.json"));
  assert.deepEqual(
    { ...gptj },
    {
      dim: 256,
      rotaryDim: 64,
      base: 10000,
      scaling: { type: "default" },
      pairing: "interleaved",
    },
  );
  assert.equal(fromConfig(fragment("llama-3.1-8b.v4.json")).pairing, "halves");
  // GPT-NeoX without rotary_pct: its class default, 0.25.
  const neox = clone(fragment("gpt-neox-20b.v4.json"));
  delete neox.rotary_pct;
  assert.equal(fromConfig(neox).rotaryDim, 24);
  // Qwen3-VL interleaves whether or not the config says so.
  const vl = fromConfig(fragment("qwen3-vl-8b-no-interleave-flag.v5.json"));
  assert.equal(vl.mropeInterleaved, true);
  const said = clone(fragment("qwen3-vl-8b.v4.json"));
  said.text_config.rope_scaling.mrope_interleaved = false;
  const overruled = fromConfig(said);
  assert.equal(overruled.mropeInterleaved, true);
  assert.match(overruled.warnings.join(), /always interleaves/);
  assert.equal(
    fromConfig(fragment("qwen2-vl-7b.v4.json")).mropeInterleaved,
    false,
  );
});

test("configs of models without RoPE are refused, naming the model type", () => {
  const gpt2 = {
    model_type: "gpt2",
    n_embd: 768,
    n_head: 12,
    n_positions: 1024,
  };
  refuses(
    () => fromConfig(gpt2),
    TypeError,
    "ERR_NO_ROPE",
    "model_type",
    'model type "gpt2" has no RoPE',
  );
  const bert = {
    model_type: "bert",
    hidden_size: 768,
    num_attention_heads: 12,
  };
  refuses(
    () => fromConfig(bert),
    TypeError,
    "ERR_NO_ROPE",
    "model_type",
    'model type "bert"',
  );
  const alibi = { ...fragment("falcon-7b.v4.json"), alibi: true };
  refuses(() => fromConfig(alibi), TypeError, "ERR_NO_ROPE", "alibi", "ALiBi");
  const unknown = {
    model_type: "mystery",
    hidden_size: 64,
    num_attention_heads: 2,
  };
  refuses(
    () => fromConfig(unknown),
    TypeError,
    "ERR_REQUIRED",
    "rope_theta",
    'model type "mystery"',
  );
  refuses(() => fromConfig(unknown), TypeError, "ERR_REQUIRED", "rope_theta");
});

test("errors name the config field as written, with its index, behind one prefix", () => {
  const phi = clone(fragment("phi-3.5-mini-instruct.v4.json"));
  phi.rope_scaling.short_factor[2] = "1";
  const element = refuses(
    () => fromConfig(phi),
    TypeError,
    "ERR_NOT_NUMBER",
    "rope_scaling.short_factor[2]",
  );
  assert.deepEqual(
    [element.option, element.code, element.function],
    ["rope_scaling.short_factor[2]", "ERR_NOT_NUMBER", "fromConfig"],
  );
  phi.rope_scaling.short_factor[2] = NaN;
  refuses(
    () => fromConfig(phi),
    RangeError,
    "ERR_ROPE_SHORT_FACTOR",
    "rope_scaling.short_factor[2]",
  );
  phi.rope_scaling.short_factor[2] = -1;
  const negative = refuses(
    () => fromConfig(phi),
    RangeError,
    "ERR_ROPE_SHORT_FACTOR",
    "rope_scaling.short_factor",
    'config field "rope_scaling.short_factor"',
  );
  assert.deepEqual(
    [negative.option, negative.code, negative.function],
    ["rope_scaling.short_factor", "ERR_ROPE_SHORT_FACTOR", "fromConfig"],
  );
  assert.ok(negative.message.startsWith("sinusoidal-pe: fromConfig: "));
  const yarn = clone(fragment("qwen2.5-7b-instruct-yarn.v5.json"));
  yarn.rope_parameters.beta_fast = -1;
  const beta = refuses(
    () => fromConfig(yarn),
    RangeError,
    "ERR_ROPE_BETA",
    "rope_parameters.beta_fast",
  );
  assert.equal(beta.option, "rope_parameters.beta_fast");
  // A missing field is named as the config would hold it.
  const dynamic = clone(fragment("dynamic-ntk.v4.json"));
  delete dynamic.max_position_embeddings;
  const missing = refuses(
    () => fromConfig(dynamic),
    TypeError,
    "ERR_REQUIRED",
    "max_position_embeddings",
    'config field "max_position_embeddings"',
  );
  assert.equal(missing.option, "max_position_embeddings");
  // A null per-layer entry is named, not the rope_theta it lacks.
  const gemma = clone(fragment("gemma-3-4b.v5.json"));
  gemma.text_config.rope_parameters.sliding_attention = null;
  const entry = refuses(
    () => fromConfig(gemma, { layerType: "sliding_attention" }),
    TypeError,
    "ERR_NOT_OBJECT",
    "text_config.rope_parameters.sliding_attention",
  );
  assert.ok(!entry.message.includes("rope_theta"));
});

test("a rule of the core on config values is said of the config's fields, with their values", () => {
  const llama = clone(fragment("llama-3.1-8b.v4.json"));
  llama.rope_theta = -5;
  const base = refuses(
    () => fromConfig(llama),
    RangeError,
    "ERR_BASE",
    "rope_theta",
  );
  assert.equal(
    base.message,
    'sinusoidal-pe: fromConfig: config field "rope_theta" must be a finite number > 1, got -5',
  );
  assert.deepEqual(
    [base.option, base.code, base.function],
    ["rope_theta", "ERR_BASE", "fromConfig"],
  );
  llama.rope_theta = 500000;
  llama.rope_scaling.high_freq_factor = 0;
  const bands = refuses(
    () => fromConfig(llama),
    RangeError,
    "ERR_ROPE_FREQ_FACTOR",
    "rope_scaling.low_freq_factor",
  );
  assert.equal(
    bands.message,
    'sinusoidal-pe: fromConfig: config fields "rope_scaling.low_freq_factor" and "rope_scaling.high_freq_factor" must be finite numbers > 0, got "rope_scaling.low_freq_factor" = 1, "rope_scaling.high_freq_factor" = 0',
  );
  // Of two fields, the option is the first the config gave.
  assert.equal(bands.option, "rope_scaling.low_freq_factor");
  // A rule on two options that one field gave, or on an option the config
  // left to its default, names the library's options, then the field the
  // refused value came from.
  const odd = refuses(
    () => fromConfig({ rope_theta: 10000, head_dim: 7 }),
    RangeError,
    "ERR_ROTARY_DIM",
    "head_dim",
  );
  assert.match(
    odd.message,
    /^sinusoidal-pe: fromConfig: options "rotaryDim" and "dim" must give a rotary part .*, got "rotaryDim" = 7, "dim" = 7 \(config field "head_dim"\)$/,
  );
  const yarn = clone(fragment("qwen2.5-7b-instruct-yarn.v5.json"));
  yarn.rope_parameters.beta_fast = -1;
  const beta = refuses(
    () => fromConfig(yarn),
    RangeError,
    "ERR_ROPE_BETA",
    "rope_parameters.beta_fast",
  );
  assert.match(
    beta.message,
    /^sinusoidal-pe: fromConfig: options "scaling\.betaFast" and "scaling\.betaSlow" must be finite numbers > 0, got "scaling\.betaFast" = -1 \(config field "rope_parameters\.beta_fast"\)$/,
  );
});

test("NaN and infinities are refused by name in config fields and options", () => {
  // Each field under the code of its option's rule.
  for (const [key, value, code] of [
    ["attention_factor", NaN, "ERR_ROPE_ATTENTION"],
    ["factor", NaN, "ERR_ROPE_FACTOR"],
    ["beta_slow", Infinity, "ERR_ROPE_BETA"],
    ["mscale", -Infinity, "ERR_ROPE_MSCALE"],
  ]) {
    const yarn = clone(fragment("qwen2.5-7b-instruct-yarn.v5.json"));
    yarn.rope_parameters[key] = value;
    refuses(() => fromConfig(yarn), RangeError, code, `rope_parameters.${key}`);
  }
  const theta = { ...fragment("qwen3-8b.v4.json"), rope_theta: NaN };
  refuses(() => fromConfig(theta), RangeError, "ERR_BASE", "rope_theta");
  const yarn = { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 4096 };
  const options = [
    ["attentionFactor", { ...yarn }],
    ["mscale", { ...yarn }],
    ["mscaleAllDim", { ...yarn }],
    ["betaFast", { ...yarn }],
    ["betaSlow", { ...yarn }],
    ["seqLen", { type: "dynamic", factor: 2, maxPositionEmbeddings: 64 }],
    ["factor", { type: "proportional" }],
    ["partialRotaryFactor", { type: "proportional" }],
    [
      "seqLen",
      {
        type: "longrope",
        shortFactor: [1, 1],
        longFactor: [2, 2],
        maxPositionEmbeddings: 8,
        factor: 2,
      },
    ],
  ];
  // The code of each parameter's rule, as when the core refuses a value.
  const RULE = {
    attentionFactor: "ERR_ROPE_ATTENTION",
    mscale: "ERR_ROPE_MSCALE",
    mscaleAllDim: "ERR_ROPE_MSCALE",
    betaFast: "ERR_ROPE_BETA",
    betaSlow: "ERR_ROPE_BETA",
    seqLen: "ERR_ROPE_SEQ_LEN",
    factor: "ERR_ROPE_FACTOR",
    partialRotaryFactor: "ERR_ROPE_PARTIAL",
  };
  for (const [key, scaling] of options)
    for (const value of [NaN, Infinity]) {
      refuses(
        () =>
          ropeFrequencies({ dim: 4, scaling: { ...scaling, [key]: value } }),
        RangeError,
        RULE[key],
        `scaling.${key}`,
      );
      refuses(
        () =>
          ropeCache({
            dim: 4,
            positions: 1,
            scaling: { ...scaling, [key]: value },
          }),
        RangeError,
        RULE[key],
        `scaling.${key}`,
      );
    }
});

test("dynamic and longrope caches follow their largest position; seqLen overrides", () => {
  const phi = fromConfig(fragment("phi-3.5-mini-instruct.v4.json"));
  const { long_factor: long, short_factor: short } = fragment(
    "phi-3.5-mini-instruct.v4.json",
  ).rope_scaling;
  const attention = Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096));
  const row = (factors, p, i) =>
    attention * Math.cos(p * (unscaled(i, 96, 10000) / factors[i]));
  // 8192 rows: position 8191, a sequence of 8192 > 4096: the long factors.
  const longCache = ropeCache({ ...phi, positions: 8192, dtype: "float64" });
  for (const i of [0, 20, 47])
    assert.ok(close(longCache.cos[8191 * 48 + i], row(long, 8191, i), 1e-9));
  assert.equal(longCache.warnings.length, 1);
  assert.match(longCache.warnings[0], /largest position \+ 1 = 8192/);
  assert.match(longCache.warnings[0], /4096/);
  // Within the original context: the short factors, no warning.
  const shortCache = ropeCache({ ...phi, positions: [4095], dtype: "float64" });
  for (const i of [0, 20, 47])
    assert.ok(close(shortCache.cos[i], row(short, 4095, i), 1e-9));
  assert.deepEqual(shortCache.warnings, []);
  // An explicit seqLen overrides.
  const chosen = ropeCache({
    ...phi,
    scaling: { ...phi.scaling, seqLen: 100 },
    positions: [8191],
    dtype: "float64",
  });
  assert.ok(close(chosen.cos[5], row(short, 8191, 5), 1e-9));
  assert.deepEqual(chosen.warnings, []);
  // M-RoPE streams count too.
  const streams = ropeCache({
    ...phi,
    mropeSection: [16, 16, 16],
    positions: { t: [0], h: [5000], w: [0] },
    dtype: "float64",
  });
  assert.equal(streams.warnings.length, 1);

  // dynamic: base · (factor · L / max - (factor - 1))^(d / (d - 2)) at L =
  // the largest position + 1 once it outgrows max_position_embeddings.
  const dynamic = fromConfig(fragment("dynamic-ntk.v4.json"));
  const at = (length) => {
    const base =
      10000 * ((2 * Math.max(length, 4096)) / 4096 - 1) ** (128 / 126);
    return (i) => unscaled(i, 128, base);
  };
  const grown = ropeCache({ ...dynamic, positions: [10000], dtype: "float64" });
  for (const i of [1, 30, 63])
    assert.ok(close(grown.cos[i], Math.cos(10000 * at(10001)(i)), 1e-8));
  assert.match(
    grown.warnings.join(),
    /= 10001, beyond the original context of 4096/,
  );
  const within = ropeCache({ ...dynamic, positions: 4096, dtype: "float64" });
  assert.deepEqual(within.warnings, []);
  assert.ok(
    close(within.cos[4095 * 64 + 30], Math.cos(4095 * at(0)(30)), 1e-9),
  );
});

test("fromConfig reads each field it uses once, and no other", () => {
  const reads = {};
  const counted = (object, path) =>
    new Proxy(object, {
      get(target, key, receiver) {
        const name = `${path}${String(key)}`;
        reads[name] = (reads[name] ?? 0) + 1;
        const value = Reflect.get(target, key, receiver);
        return value !== null &&
          typeof value === "object" &&
          !Array.isArray(value)
          ? counted(value, `${name}.`)
          : value;
      },
      getOwnPropertyDescriptor(target, key) {
        const d = Reflect.getOwnPropertyDescriptor(target, key);
        if (d === undefined || !("value" in d)) return d;
        const name = `${path}${String(key)}`;
        reads[name] = (reads[name] ?? 0) + 1;
        const v = d.value;
        return {
          ...d,
          value:
            v !== null && typeof v === "object" && !Array.isArray(v)
              ? counted(v, `${name}.`)
              : v,
        };
      },
    });
  const config = clone(fragment("yarn-mistral-7b-128k.v4.json"));
  config.vocab_size = 32000;
  config.rope_scaling.finetuned = true;
  fromConfig(counted(config, ""));
  for (const [name, count] of Object.entries(reads))
    assert.ok(count <= 1, `${name} read ${count} times`);
  assert.equal(reads.vocab_size, undefined);
  assert.equal(reads["rope_scaling.finetuned"], undefined);
  assert.equal(reads["rope_scaling.factor"], 1);
});
