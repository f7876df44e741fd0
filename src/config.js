// A model's config.json, as transformers v4 or v5 writes it, read into the
// RoPE options that ropeFrequencies, ropeCache and rope take. The config is
// copied once (own enumerable keys only, into objects without a prototype)
// and every rule on the values is left to ropeFrequencies, whose errors are
// then told which config field they came from.
import { copyOf, kindOf } from "./typed-arrays.js";
import { rangeError, rejectUnknown, snapshot, typeError } from "./options.js";
import { PARAMETERS, ropeFrequencies } from "./rope-scaling.js";

const MAX_DEPTH = 16;

// A JSON-like value read once: objects become prototype-free copies of their
// own enumerable keys ("__proto__" stays a key), arrays plain arrays.
function copyTree(value, path, depth = 0) {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH)
    throw rangeError(`config field "${path}" nests too deeply`);
  if (kindOf(value) !== undefined) return copyOf(value);
  if (Array.isArray(value)) {
    const length = value.length;
    const copy = [];
    for (let i = 0; i < length; i++)
      copy.push(copyTree(value[i], `${path}[${i}]`, depth + 1));
    return copy;
  }
  const copy = Object.create(null);
  for (const key of Object.keys(value))
    copy[key] = copyTree(value[key], path ? `${path}.${key}` : key, depth + 1);
  return copy;
}

const has = (object, key) => Object.hasOwn(object, key) && object[key] != null;
const isObject = (v) =>
  v !== null && typeof v === "object" && !Array.isArray(v);

function objectField(object, key, path) {
  const value = object[key];
  if (!isObject(value))
    throw typeError(`config field "${path}" must be an object`);
  return value;
}

function numberField(object, key, path) {
  const value = object[key];
  if (typeof value !== "number")
    throw typeError(
      `config field "${path}" must be a number, got ${value === undefined ? "nothing" : JSON.stringify(value)}`,
    );
  return value;
}

// rope_scaling / rope_parameters keys and the scaling parameters they set.
const SCALING_KEYS = {
  factor: "factor",
  original_max_position_embeddings: "originalMaxPositionEmbeddings",
  attention_factor: "attentionFactor",
  beta_fast: "betaFast",
  beta_slow: "betaSlow",
  mscale: "mscale",
  mscale_all_dim: "mscaleAllDim",
  truncate: "truncate",
  short_factor: "shortFactor",
  long_factor: "longFactor",
  low_freq_factor: "lowFreqFactor",
  high_freq_factor: "highFreqFactor",
};
// Keys of a rope dict that are not scaling parameters.
const OTHER_KEYS = [
  "type",
  "rope_type",
  "rope_theta",
  "partial_rotary_factor",
  "mrope_section",
  "mrope_interleaved",
];

// The rope type of a rope dict, with the aliases transformers maps: Qwen2-VL's
// "mrope" is the default schedule; Phi-3's "su" (and its "yarn") is longrope.
function ropeType(rope, path, modelType) {
  const given = ["rope_type", "type"].filter((key) => has(rope, key));
  for (const key of given)
    if (typeof rope[key] !== "string")
      throw typeError(`config field "${path}.${key}" must be a string`);
  if (given.length === 2 && rope.rope_type !== rope.type)
    throw typeError(
      `config fields "${path}.rope_type" (${rope.rope_type}) and "${path}.type" (${rope.type}) disagree`,
    );
  const key = given[0];
  let type = key === undefined ? "default" : rope[key];
  if (type === "mrope") type = "default";
  if (type === "su" || (type === "yarn" && modelType === "phi3"))
    type = "longrope";
  if (!Object.hasOwn(PARAMETERS, type))
    throw rangeError(
      `config field "${path}.${key}" names rope type "${type}", which is not one of ${Object.keys(PARAMETERS).join(", ")}`,
    );
  return { type, typePath: `${path}.${key ?? "rope_type"}` };
}

// The layer types a config lists, or null.
function layerTypes(c, prefix) {
  if (!has(c, "layer_types")) return null;
  const list = c.layer_types;
  if (!Array.isArray(list) || list.some((t) => typeof t !== "string"))
    throw typeError(
      `config field "${prefix}layer_types" must be an array of strings`,
    );
  return new Set(list);
}

/**
 * The RoPE options of a parsed config.json (transformers v4 `rope_theta` /
 * `rope_scaling`, or v5 `rope_parameters`, flat or per layer type; a
 * multimodal config's `text_config`): `{ dim, rotaryDim, base, scaling }`
 * and, for M-RoPE, `mropeSection` and `mropeInterleaved`.
 */
export function fromConfig(config, options = {}) {
  const given = snapshot(options, "fromConfig() options");
  rejectUnknown(given, ["layerType"], "fromConfig()");
  const layerType = given.layerType;
  if (layerType !== undefined && typeof layerType !== "string")
    throw typeError(
      `option "layerType" must be a string such as "full_attention"`,
    );
  if (!isObject(config) || kindOf(config) !== undefined)
    throw typeError("config must be a parsed config.json object");
  const root = copyTree(config, "");
  const prefix = has(root, "text_config") ? "text_config." : "";
  const c = prefix ? objectField(root, "text_config", "text_config") : root;
  const at = (key) => prefix + key;
  const modelType = typeof c.model_type === "string" ? c.model_type : null;

  const kinds = layerTypes(c, prefix);
  if (layerType !== undefined && kinds !== null && !kinds.has(layerType))
    throw rangeError(
      `option "layerType" is "${layerType}", which "${at("layer_types")}" does not list (it has ${[...kinds].join(", ")})`,
    );

  // Where each option comes from: named in the errors of its values.
  const paths = {};
  let rope, ropePath, base;
  if (has(c, "rope_parameters")) {
    for (const key of ["rope_scaling", "rope_theta"])
      if (has(c, key))
        throw typeError(
          `config has both "${at("rope_parameters")}" (transformers v5) and "${at(key)}" (v4): keep one`,
        );
    ropePath = at("rope_parameters");
    rope = objectField(c, "rope_parameters", ropePath);
    const values = Object.values(rope);
    const nested =
      !has(rope, "rope_type") &&
      !has(rope, "rope_theta") &&
      values.length > 0 &&
      values.every(isObject);
    if (nested) {
      if (layerType === undefined)
        throw typeError(
          `config field "${ropePath}" is per layer type (${Object.keys(rope).join(", ")}): pass { layerType }`,
        );
      if (!Object.hasOwn(rope, layerType))
        throw rangeError(
          `config field "${ropePath}.${layerType}" is missing (it has ${Object.keys(rope).join(", ")})`,
        );
      ropePath = `${ropePath}.${layerType}`;
      rope = rope[layerType];
    }
    base = numberField(rope, "rope_theta", `${ropePath}.rope_theta`);
    paths.base = `${ropePath}.rope_theta`;
  } else {
    // v4: Gemma 3 and ModernBERT give their sliding-window layers a base
    // of their own and the default schedule.
    const local = ["rope_local_base_freq", "local_rope_theta"].find((key) =>
      has(c, key),
    );
    const globalKey = has(c, "global_rope_theta")
      ? "global_rope_theta"
      : has(c, "rotary_emb_base") && !has(c, "rope_theta")
        ? "rotary_emb_base"
        : "rope_theta";
    if (local !== undefined && layerType === undefined)
      throw typeError(
        `config has a base per layer type ("${at(globalKey)}", "${at(local)}"): pass { layerType: "full_attention" } or "sliding_attention"`,
      );
    const sliding = local !== undefined && layerType === "sliding_attention";
    if (local !== undefined && !sliding && layerType !== "full_attention")
      throw rangeError(
        `option "layerType" must be "full_attention" or "sliding_attention" for this config, got "${layerType}"`,
      );
    const baseKey = sliding ? local : globalKey;
    base = numberField(c, baseKey, at(baseKey));
    paths.base = at(baseKey);
    ropePath = at("rope_scaling");
    rope =
      sliding || !has(c, "rope_scaling")
        ? Object.create(null)
        : objectField(c, "rope_scaling", ropePath);
    for (const key of ["rope_theta", "partial_rotary_factor"])
      if (Object.hasOwn(rope, key))
        throw typeError(
          `config field "${ropePath}.${key}" belongs beside "${ropePath}" in a v4 config, or in "rope_parameters" (v5)`,
        );
  }

  for (const key of Object.keys(rope))
    if (!Object.hasOwn(SCALING_KEYS, key) && !OTHER_KEYS.includes(key))
      throw typeError(
        `config field "${ropePath}.${key}" is not a RoPE parameter this library knows`,
      );
  const { type, typePath } = ropeType(rope, ropePath, modelType);

  // The head dim: DeepSeek's rope part, Gemma 4's global head, or head_dim,
  // or hidden_size / num_attention_heads.
  let dim;
  const globalHead =
    layerType === "full_attention" && has(c, "global_head_dim");
  const headKey = has(c, "qk_rope_head_dim")
    ? "qk_rope_head_dim"
    : globalHead
      ? "global_head_dim"
      : has(c, "head_dim")
        ? "head_dim"
        : null;
  if (headKey !== null) {
    dim = numberField(c, headKey, at(headKey));
    paths.dim = at(headKey);
  } else {
    const hidden = numberField(c, "hidden_size", at("hidden_size"));
    const heads = numberField(
      c,
      "num_attention_heads",
      at("num_attention_heads"),
    );
    if (!(heads >= 1))
      throw rangeError(
        `config field "${at("num_attention_heads")}" must be >= 1, got ${heads}`,
      );
    dim = Math.floor(hidden / heads);
    paths.dim = `${at("hidden_size")} / ${at("num_attention_heads")}`;
  }

  // partial_rotary_factor: in the rope dict (v5) or beside it (v4;
  // GPT-NeoX calls it rotary_pct).
  let partial, partialPath;
  if (has(rope, "partial_rotary_factor")) {
    partialPath = `${ropePath}.partial_rotary_factor`;
    partial = numberField(rope, "partial_rotary_factor", partialPath);
  } else {
    const key = ["partial_rotary_factor", "rotary_pct"].find((k) => has(c, k));
    if (key !== undefined) {
      partialPath = at(key);
      partial = numberField(c, key, partialPath);
    }
  }

  const scaling = { type };
  paths["scaling.type"] = typePath;
  const allowed = PARAMETERS[type];
  for (const [key, name] of Object.entries(SCALING_KEYS)) {
    if (!has(rope, key)) continue;
    if (!allowed.includes(name))
      throw typeError(
        `config field "${ropePath}.${key}" does not apply to rope type "${type}" (it takes ${allowed.join(", ") || "no parameters"})`,
      );
    scaling[name] = rope[key];
    paths[`scaling.${name}`] = `${ropePath}.${key}`;
  }
  if (allowed.includes("maxPositionEmbeddings"))
    if (has(c, "max_position_embeddings")) {
      scaling.maxPositionEmbeddings = c.max_position_embeddings;
      paths["scaling.maxPositionEmbeddings"] = at("max_position_embeddings");
    }
  // Phi-3 keeps the pretrained length beside rope_scaling.
  if (
    type === "longrope" &&
    scaling.originalMaxPositionEmbeddings === undefined &&
    has(c, "original_max_position_embeddings")
  ) {
    scaling.originalMaxPositionEmbeddings = c.original_max_position_embeddings;
    paths["scaling.originalMaxPositionEmbeddings"] = at(
      "original_max_position_embeddings",
    );
  }
  // A longrope factor equal to the ratio of the lengths says nothing more.
  if (
    type === "longrope" &&
    scaling.factor !== undefined &&
    scaling.originalMaxPositionEmbeddings !== undefined &&
    scaling.factor ===
      scaling.maxPositionEmbeddings / scaling.originalMaxPositionEmbeddings
  )
    delete scaling.factor;

  const result = { dim, rotaryDim: dim, base, scaling };
  if (partial !== undefined) {
    if (type === "proportional") {
      scaling.partialRotaryFactor = partial;
      paths["scaling.partialRotaryFactor"] = partialPath;
    } else {
      if (!(partial > 0 && partial <= 1))
        throw rangeError(
          `config field "${partialPath}" must be > 0 and <= 1, got ${partial}`,
        );
      result.rotaryDim = Math.trunc(dim * partial);
      paths.rotaryDim = `int(${paths.dim} × ${partialPath})`;
    }
  }
  if (has(rope, "mrope_section")) {
    result.mropeSection = rope.mrope_section;
    paths.mropeSection = `${ropePath}.mrope_section`;
  }
  if (has(rope, "mrope_interleaved")) {
    result.mropeInterleaved = rope.mrope_interleaved;
    paths.mropeInterleaved = `${ropePath}.mrope_interleaved`;
  }

  // Every value rule, once, where it lives: an error names its field.
  try {
    ropeFrequencies(result);
  } catch (error) {
    const fields = Object.keys(paths)
      .filter((option) => error.message.includes(`"${option}"`))
      .map((option) => `"${paths[option]}"`);
    if (fields.length === 0) throw error;
    const Class = error instanceof RangeError ? RangeError : TypeError;
    const message = error.message.replace(
      /ropeFrequencies(\(\))?:/,
      "fromConfig:",
    );
    throw new Class(`${message} (config field ${fields.join(", ")})`);
  }
  return result;
}
