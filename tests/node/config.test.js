// fromConfig against published config.json fragments (transformers v4 and
// v5 layouts) and the committed vectors of
// tests/vectors/generate_config_vectors.py: the options it reads, then the
// inverse frequencies and the float64, float32 and float16 caches those
// options give, M-RoPE included; and its refusals, each naming the field.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import {
  fromConfig,
  init,
  ropeCache,
  ropeFrequencies,
} from "../../dist/index.js";
import { numberToHalf } from "./reference.js";

await init();

const here = new URL("../vectors/", import.meta.url);
const configs = Object.fromEntries(
  readdirSync(new URL("configs/", here)).map((name) => [
    name,
    JSON.parse(readFileSync(new URL(`configs/${name}`, here), "utf8")),
  ]),
);
const { cases } = JSON.parse(
  readFileSync(new URL("config/config_vectors.json", here), "utf8"),
);

const ulp32 = (x) => {
  const f = Math.abs(Math.fround(x));
  if (f < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(f)) - 23);
};

// |p| of a row: the largest position of its streams.
function rowPositions(positions) {
  if (Array.isArray(positions)) return positions.map(Math.abs);
  return positions.t.map((t, j) =>
    Math.max(Math.abs(t), Math.abs(positions.h[j]), Math.abs(positions.w[j])),
  );
}

function optionsOf(c) {
  const options = fromConfig(
    configs[c.config],
    c.layerType === null ? {} : { layerType: c.layerType },
  );
  if (c.seqLen !== null) options.scaling.seqLen = c.seqLen;
  return options;
}

test("every committed fragment has vectors, and each v5 form gives what its v4 form gives", () => {
  const named = new Set(cases.map((c) => c.config));
  assert.deepEqual([...named].sort(), Object.keys(configs).sort());
  for (const c of cases) {
    if (!c.config.endsWith(".v5.json")) continue;
    const v4 = cases.find(
      (d) =>
        d.config === c.config.replace(".v5.", ".v4.") &&
        d.layerType === c.layerType &&
        d.seqLen === c.seqLen,
    );
    if (v4 === undefined) continue; // Gemma 4 exists in v5 only
    assert.deepEqual(optionsOf(c), optionsOf(v4), c.config);
  }
});

for (const c of cases) {
  const label = `${c.config}${c.layerType ? ` ${c.layerType}` : ""}${c.seqLen ? ` seqLen ${c.seqLen}` : ""}`;
  test(`fromConfig → ropeFrequencies, ropeCache: ${label}`, () => {
    const options = optionsOf(c);
    assert.equal(options.dim, c.dim, "dim");
    assert.equal(options.rotaryDim, c.rotaryDim, "rotaryDim");
    assert.equal(options.base, c.base, "base");

    assert.equal(options.pairing, c.pairing, "pairing");
    if (c.mropeInterleaved !== undefined)
      assert.equal(
        options.mropeInterleaved ?? false,
        c.mropeInterleaved,
        "mropeInterleaved",
      );
    const { inverseFrequencies, attentionFactor, warnings } =
      ropeFrequencies(options);
    assert.equal(warnings.length, c.logged.length, warnings.join("; "));
    assert.ok(
      Math.abs(attentionFactor - c.attentionFactor) <=
        2e-16 * c.attentionFactor,
      `attention ${attentionFactor} vs ${c.attentionFactor}`,
    );
    assert.equal(inverseFrequencies.length, c.inverseFrequencies.length);
    const near = (got, want, name) =>
      want.forEach((w, i) =>
        assert.ok(
          w === 0 ? got[i] === 0 : Math.abs(got[i] - w) <= 1e-12 * w,
          `${name}[${i}] ${got[i]} vs ${w}`,
        ),
      );
    near(inverseFrequencies, c.inverseFrequencies, "w");
    // A dynamic or longrope cache follows its sequence: the frequencies at
    // the largest position + 1, as transformers' forward computes them.
    let cacheFrequencies = inverseFrequencies;
    if (c.cacheSeqLen !== undefined) {
      cacheFrequencies = ropeFrequencies({
        ...options,
        scaling: { ...options.scaling, seqLen: c.cacheSeqLen },
      }).inverseFrequencies;
      near(cacheFrequencies, c.cacheInverseFrequencies, "cache w");
    }
    const reference = c.cacheInverseFrequencies ?? c.inverseFrequencies;
    // The largest frequency difference, bounding the angles'.
    let delta = 0;
    reference.forEach((want, i) => {
      delta = Math.max(delta, Math.abs(cacheFrequencies[i] - want));
    });

    const pairs = c.inverseFrequencies.length;
    const rowsP = rowPositions(c.positions);
    // The reference's own error (an ulp or two) and the angle's, |p| δ.
    const slack = (j) =>
      c.attentionFactor * (rowsP[j] * delta + 4 * 2 ** -53) + 1e-300;
    for (const dtype of ["float64", "float32", "float16"]) {
      const { cos, sin, warnings } = ropeCache({
        ...options,
        positions: c.positions,
        dtype,
      });
      const grows =
        c.cacheSeqLen !== undefined &&
        ropeFrequencies({
          ...options,
          scaling: { ...options.scaling, seqLen: c.cacheSeqLen },
        }).inverseFrequencies.some((w, i) => w !== inverseFrequencies[i]);
      assert.equal(
        warnings.length,
        c.logged.length + (grows ? 1 : 0),
        warnings.join("; "),
      );
      if (grows)
        assert.match(
          warnings.at(-1),
          new RegExp(`largest position \\+ 1 = ${c.cacheSeqLen}`),
        );
      assert.equal(cos.length, rowsP.length * pairs, `${dtype} size`);
      let bad = 0;
      for (const [got, rows, name] of [
        [cos, c.cos, "cos"],
        [sin, c.sin, "sin"],
      ])
        rows.forEach((row, j) =>
          row.forEach((want, i) => {
            const value = got[j * pairs + i];
            const s = slack(j);
            let ok;
            if (dtype === "float64")
              ok = Math.abs(value - want) <= 1e-12 * c.attentionFactor + s;
            else if (dtype === "float32")
              // One rounding, plus the float64 evaluation's 2.5e-9.
              ok =
                Math.abs(value - want) <=
                ulp32(want) / 2 + 2.5e-9 * c.attentionFactor + s;
            else
              ok =
                value === numberToHalf(want) ||
                (numberToHalf(want - s) !== numberToHalf(want + s) &&
                  (value === numberToHalf(want - s) ||
                    value === numberToHalf(want + s)));
            if (!ok && bad++ < 3)
              assert.fail(
                `${dtype} ${name}[${j}][${i}]: ${value} vs ${want} (${dtype === "float16" ? numberToHalf(want) : ""})`,
              );
          }),
        );
      assert.equal(bad, 0, `${dtype}: values off`);
    }
    // The duplicated layout repeats each row's half.
    const dup = ropeCache({
      ...options,
      positions: c.positions,
      dtype: "float64",
      layout: "duplicated",
    });
    const half = ropeCache({
      ...options,
      positions: c.positions,
      dtype: "float64",
    });
    for (let j = 0; j < rowsP.length; j++)
      for (let i = 0; i < pairs; i++) {
        assert.equal(dup.cos[j * 2 * pairs + i], half.cos[j * pairs + i]);
        assert.equal(
          dup.cos[j * 2 * pairs + pairs + i],
          half.cos[j * pairs + i],
        );
      }
  });
}

test("M-RoPE: text positions (t = h = w) are plain RoPE, in every dtype", () => {
  for (const name of ["qwen2-vl-7b.v4.json", "qwen3-vl-8b.v5.json"]) {
    const options = fromConfig(configs[name]);
    assert.ok(options.mropeSection !== undefined, name);
    const p = [0, 1, 2, 3, 10, 517, 9999, 12.5];
    for (const dtype of ["float64", "float32", "float16"]) {
      const m = ropeCache({
        ...options,
        positions: { t: p, h: p, w: p },
        dtype,
      });
      const plain = ropeCache({ ...options, positions: p, dtype });
      assert.deepEqual(m.cos, plain.cos, `${name} ${dtype} cos`);
      assert.deepEqual(m.sin, plain.sin, `${name} ${dtype} sin`);
    }
  }
});

test("M-RoPE: each pair takes its own stream's position", () => {
  // Chunked [1, 1, 1] over 3 pairs: pair 0 t, pair 1 h, pair 2 w.
  const w = ropeFrequencies({ dim: 6 }).inverseFrequencies;
  const { cos } = ropeCache({
    dim: 6,
    positions: { t: [2], h: [3], w: [5] },
    mropeSection: [1, 1, 1],
    dtype: "float64",
  });
  assert.deepEqual(
    [...cos],
    [Math.cos(2 * w[0]), Math.cos(3 * w[1]), Math.cos(5 * w[2])],
  );
  // Interleaved [1, 1, 1]: pairs 0 t, 1 h (1 < 3), 2 w (2 < 3).
  const inter = ropeCache({
    dim: 6,
    positions: { t: [2], h: [3], w: [5] },
    mropeSection: [1, 1, 1],
    mropeInterleaved: true,
    dtype: "float64",
  });
  assert.deepEqual([...inter.cos], [...cos]);
  // Interleaved [2, 2, 0] over 4 pairs: h on pair 1 (pair 4 is past
  // 3 · 2), w on none; pairs 0, 2, 3 keep t.
  const w4 = ropeFrequencies({ dim: 8 }).inverseFrequencies;
  const four = ropeCache({
    dim: 8,
    positions: { t: [2], h: [3], w: [5] },
    mropeSection: [2, 2, 0],
    mropeInterleaved: true,
    dtype: "float64",
  });
  assert.deepEqual(
    [...four.cos],
    [2, 3, 2, 2].map((p, i) => Math.cos(p * w4[i])),
  );
});

// A throwing call whose error is of the class, with the rule's code and the
// option (or config field) it names, and the text where the message names
// more than the option.
function refuses(call, Class, code, option, text) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Class, `${error.name}: ${error.message}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.option, option, error.message);
    if (text !== undefined)
      assert.ok(
        error.message.includes(text),
        `"${error.message}" names ${text}`,
      );
    return true;
  });
  // The module keeps working.
  assert.equal(ropeFrequencies({ dim: 2 }).inverseFrequencies[0], 1);
}

const clone = (value) => JSON.parse(JSON.stringify(value));

test("fromConfig refuses what it cannot read, naming the field", () => {
  const gemma3 = configs["gemma-3-4b.v5.json"];
  refuses(() => fromConfig(gemma3), TypeError, "ERR_REQUIRED", "layerType");
  refuses(
    () => fromConfig(gemma3, { layerType: "chunked_attention" }),
    RangeError,
    "ERR_NOT_ONE_OF",
    "layerType",
    "text_config.layer_types",
  );
  const noList = clone(gemma3);
  delete noList.text_config.layer_types;
  refuses(
    () => fromConfig(noList, { layerType: "chunked_attention" }),
    RangeError,
    "ERR_NOT_ONE_OF",
    "text_config.rope_parameters.chunked_attention",
  );
  const zero = clone(gemma3);
  zero.text_config.rope_parameters.full_attention.factor = 0;
  refuses(
    () => fromConfig(zero, { layerType: "full_attention" }),
    RangeError,
    "ERR_ROPE_FACTOR",
    "text_config.rope_parameters.full_attention.factor",
  );
  const text = clone(gemma3);
  text.text_config.rope_parameters.full_attention.factor = "8";
  refuses(
    () => fromConfig(text, { layerType: "full_attention" }),
    TypeError,
    "ERR_NOT_NUMBER",
    "text_config.rope_parameters.full_attention.factor",
  );
  const noHeads = clone(configs["llama-3.1-8b.v4.json"]);
  delete noHeads.num_attention_heads;
  refuses(
    () => fromConfig(noHeads),
    TypeError,
    "ERR_NOT_NUMBER",
    "num_attention_heads",
  );
  const disagree = clone(configs["qwen2.5-7b-instruct-yarn.v4.json"]);
  disagree.rope_scaling.rope_type = "linear";
  refuses(
    () => fromConfig(disagree),
    TypeError,
    "ERR_CONFLICT",
    "rope_scaling.type",
  );
  const kind = clone(configs["qwen3-8b.v5.json"]);
  kind.rope_parameters.rope_type = "ntk";
  refuses(
    () => fromConfig(kind),
    RangeError,
    "ERR_ROPE_TYPE",
    "rope_parameters.rope_type",
  );
  const section = clone(configs["qwen2-vl-7b.v4.json"]);
  section.rope_scaling.mrope_section = [16, 24, 23];
  refuses(
    () => fromConfig(section),
    RangeError,
    "ERR_MROPE_SECTION",
    "rope_scaling.mrope_section",
  );
  const odd = clone(configs["phi-2.v4.json"]);
  odd.partial_rotary_factor = 0.4125; // 80 × 0.4125 = 33
  refuses(
    () => fromConfig(odd),
    RangeError,
    "ERR_ROTARY_DIM",
    "partial_rotary_factor",
  );
  refuses(() => fromConfig(null), TypeError, "ERR_NOT_OBJECT", "config");
  refuses(
    () => fromConfig({}, { layer: "x" }),
    TypeError,
    "ERR_UNKNOWN_OPTION",
    "layer",
  );
});

test("fromConfig reads the config once and never its prototypes", () => {
  // "__proto__" in JSON is an own key, data like any other.
  const parsed = JSON.parse(
    '{"__proto__": {"rope_theta": 5}, "hidden_size": 64, "num_attention_heads": 2, "rope_theta": 10000, "rope_scaling": {"__proto__": {"factor": 2}, "rope_type": "linear", "factor": 4}}',
  );
  const linear = fromConfig(parsed);
  assert.deepEqual(linear.scaling, { type: "linear", factor: 4 });
  assert.match(linear.warnings.join(), /rope_scaling\.__proto__/);
  delete parsed.rope_scaling;
  const options = fromConfig(parsed);
  assert.deepEqual(
    { ...options },
    {
      dim: 32,
      rotaryDim: 32,
      base: 10000,
      scaling: { type: "default" },
      pairing: "halves",
    },
  );
  assert.equal({}.rope_theta, undefined);
  // Inherited fields are not the config's.
  const inherited = Object.create({ rope_theta: 10000 });
  Object.assign(inherited, { hidden_size: 64, num_attention_heads: 2 });
  refuses(() => fromConfig(inherited), TypeError, "ERR_REQUIRED", "rope_theta");
  assert.equal(
    fromConfig(Object.assign(inherited, { model_type: "llama" })).base,
    10000,
  );
  // Each field is read once.
  let reads = 0;
  const counted = {
    hidden_size: 64,
    num_attention_heads: 2,
    rope_theta: 10000,
    get rope_scaling() {
      reads++;
      return { rope_type: "linear", factor: 2 };
    },
  };
  assert.equal(fromConfig(counted).scaling.factor, 2);
  assert.equal(reads, 1);
});

test("fromConfig: v4 aliases as transformers maps them", () => {
  // Phi-3's "su" is longrope; Qwen2-VL's "mrope" is the default schedule.
  const su = clone(configs["phi-3.5-mini-instruct.v4.json"]);
  su.rope_scaling.type = "su";
  assert.equal(fromConfig(su).scaling.type, "longrope");
  const phiYarn = clone(configs["phi-3.5-mini-instruct.v4.json"]);
  phiYarn.rope_scaling.type = "yarn";
  assert.equal(fromConfig(phiYarn).scaling.type, "longrope");
  const qwen = fromConfig(configs["qwen2-vl-7b.v4.json"]);
  assert.deepEqual(qwen.scaling, { type: "default" });
  assert.deepEqual(qwen.mropeSection, [16, 24, 24]);
});

test("ropeFrequencies computes what the source computes with a warning, and says so", () => {
  const linear = ropeFrequencies({
    dim: 8,
    scaling: { type: "linear", factor: 0.5 },
  });
  assert.deepEqual(
    [...linear.inverseFrequencies],
    [...ropeFrequencies({ dim: 8 }).inverseFrequencies].map((w) => w * 2),
  );
  assert.equal(linear.warnings.length, 1);
  assert.match(linear.warnings[0], /scaling\.factor is below 1/);
  const yarn = ropeFrequencies({
    dim: 64,
    scaling: {
      type: "yarn",
      factor: 4,
      originalMaxPositionEmbeddings: 4096,
      betaFast: 1,
      betaSlow: 32,
    },
  });
  assert.match(yarn.warnings.join(), /betaFast is below scaling\.betaSlow/);
  assert.ok(yarn.inverseFrequencies.every(Number.isFinite));
  const llama = ropeFrequencies({
    dim: 128,
    base: 500000,
    scaling: {
      type: "llama3",
      factor: 8,
      lowFreqFactor: 4,
      highFreqFactor: 1,
      originalMaxPositionEmbeddings: 8192,
    },
  });
  assert.match(llama.warnings.join(), /highFreqFactor is not above/);
  // Wavelengths above 8192 / 4 divided by 8, the rest kept.
  const plain = ropeFrequencies({ dim: 128, base: 500000 }).inverseFrequencies;
  assert.deepEqual(
    [...llama.inverseFrequencies],
    [...plain].map((w) => ((2 * Math.PI) / w > 8192 / 4 ? w / 8 : w)),
  );
  const cache = ropeCache({
    dim: 8,
    positions: 2,
    scaling: { type: "linear", factor: 0.5 },
  });
  assert.equal(cache.warnings.length, 1);
});

test("rotaryDim: the frequencies and cache of the rotary part only", () => {
  // transformers' partial rotary: inv_freq = base^(-2i / rotaryDim).
  const { inverseFrequencies } = ropeFrequencies({ dim: 80, rotaryDim: 32 });
  assert.equal(inverseFrequencies.length, 16);
  inverseFrequencies.forEach((w, i) =>
    assert.ok(Math.abs(w - 10000 ** ((-2 * i) / 32)) <= 4e-16 * w, `w[${i}]`),
  );
  const { cos } = ropeCache({ dim: 80, rotaryDim: 32, positions: 3 });
  assert.equal(cos.length, 3 * 16);
  refuses(
    () => ropeFrequencies({ dim: 80, rotaryDim: 31 }),
    RangeError,
    "ERR_ROTARY_DIM",
    "rotaryDim",
  );
  refuses(
    () => ropeFrequencies({ dim: 80, rotaryDim: 82 }),
    RangeError,
    "ERR_ROTARY_DIM",
    "rotaryDim",
  );
  refuses(
    () =>
      ropeFrequencies({
        dim: 80,
        rotaryDim: 2,
        scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 10 },
      }),
    RangeError,
    "ERR_ROPE_DYNAMIC_DIM",
    "rotaryDim",
  );
});

test("ropeCache refuses bad M-RoPE input, naming the option", () => {
  const base = { dim: 8, mropeSection: [2, 1, 1] };
  refuses(
    () => ropeCache({ dim: 8, positions: { t: [1], h: [1], w: [1] } }),
    TypeError,
    "ERR_REQUIRED",
    "mropeSection",
  );
  refuses(
    () => ropeCache({ ...base, positions: { t: [1], h: [1] } }),
    TypeError,
    "ERR_REQUIRED",
    "positions.w",
  );
  refuses(
    () => ropeCache({ ...base, positions: { t: [1], h: [1], w: [1, 2] } }),
    RangeError,
    "ERR_LENGTH",
    "positions.w",
  );
  refuses(
    () => ropeCache({ ...base, positions: { t: [1], h: [NaN], w: [1] } }),
    RangeError,
    "ERR_POSITIONS",
    "positions.h[0]",
  );
  refuses(
    () => ropeCache({ ...base, positions: { t: [1], h: [1], w: [1], x: [1] } }),
    TypeError,
    "ERR_UNKNOWN_OPTION",
    "positions.x",
  );
  refuses(
    () => ropeCache({ ...base, mropeSection: [2, 1], positions: 1 }),
    RangeError,
    "ERR_MROPE_SECTION",
    "mropeSection",
  );
  refuses(
    () => ropeCache({ ...base, mropeSection: [2, 1, 2], positions: 1 }),
    RangeError,
    "ERR_MROPE_SECTION",
    "mropeSection",
  );
  refuses(
    () => ropeCache({ ...base, mropeInterleaved: 1, positions: 1 }),
    TypeError,
    "ERR_NOT_BOOLEAN",
    "mropeInterleaved",
  );
  refuses(
    () => ropeCache({ dim: 8, mropeInterleaved: true, positions: 1 }),
    TypeError,
    "ERR_NOT_APPLICABLE",
    "mropeInterleaved",
  );
});

test("fromConfig: ModernBERT's base per layer type, v4 and v5", () => {
  const v4 = {
    model_type: "modernbert",
    hidden_size: 768,
    num_attention_heads: 12,
    global_rope_theta: 160000.0,
    local_rope_theta: 10000.0,
  };
  const v5 = {
    model_type: "modernbert",
    hidden_size: 768,
    num_attention_heads: 12,
    rope_parameters: {
      full_attention: { rope_type: "default", rope_theta: 160000.0 },
      sliding_attention: { rope_type: "default", rope_theta: 10000.0 },
    },
  };
  for (const config of [v4, v5])
    for (const [layerType, base] of [
      ["full_attention", 160000],
      ["sliding_attention", 10000],
    ])
      assert.deepEqual(
        { ...fromConfig(config, { layerType }) },
        {
          dim: 64,
          rotaryDim: 64,
          base,
          scaling: { type: "default" },
          pairing: "halves",
        },
      );
  refuses(
    () => fromConfig(v4),
    TypeError,
    "ERR_REQUIRED",
    "layerType",
    "local_rope_theta",
  );
  refuses(
    () => fromConfig(v4, { layerType: "chunked_attention" }),
    RangeError,
    "ERR_NOT_ONE_OF",
    "layerType",
  );
});
