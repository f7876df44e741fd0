// A model's config.json, as transformers v4 or v5 writes it, read into the
// RoPE options that ropeFrequencies, ropeCache and rope take, the way
// transformers v5 reads it (RotaryEmbeddingConfigMixin in
// modeling_rope_utils.py: convert_rope_params_to_dict, then
// standardize_rope_params). Only the fields RoPE uses are read, each once;
// the rest of the config is never touched. Every rule on the values is left
// to the library's own option readers, whose errors are then told which
// config field they came from.
import { MAX_DIM, STATUS, STATUS_NAMES } from "sinusoidal-pe-constants";
import { statusMessage } from "./core.js";
import {
  calling,
  clip,
  isRevoked,
  kindOf,
  lengthOf,
  listing,
  rangeError,
  readability,
  readOptions,
  ruleOf,
  show,
  typeError,
  write,
} from "./options.js";
import { modelOf } from "./models.js";
import { checkRopeOptions, PARAMETERS } from "./schedule.js";

// Bounds on what a config may hold where RoPE reads it: a rope dict of more
// keys, a factor list longer than the widest head, or more layers than any
// model has, is not a config.
const MAX_ROPE_KEYS = 64;
const MAX_FACTORS = MAX_DIM / 2;
const MAX_LAYERS = 1 << 16;

// rope dict keys and the scaling options they set.
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
const OTHER_KEYS = [
  "type",
  "rope_type",
  "rope_theta",
  "partial_rotary_factor",
  "mrope_section",
  "mrope_interleaved",
];
const isRopeKey = (key) =>
  Object.hasOwn(SCALING_KEYS, key) || OTHER_KEYS.includes(key);

const isObject = (v) =>
  v !== null &&
  typeof v === "object" &&
  !Array.isArray(v) &&
  kindOf(v) === undefined;

// A revoked Proxy refuses every reading, which would surface as the
// engine's own words: it is refused here first, naming its field.
function readable(value, path) {
  if (isRevoked(value))
    throw configError(
      typeError,
      path,
      "is a revoked Proxy, which cannot be read",
      "ERR_REVOKED",
    );
  return value;
}

// A config object whose fields are read on demand, each at most once: an
// own enumerable property only (never a prototype's), a getter or a Proxy
// trap run once. null counts as absent, as transformers' None does.
function node(object, path) {
  const values = new Map();
  const at = (key) => (path ? `${path}.${clip(key)}` : clip(key));
  const get = (key) => {
    if (!values.has(key)) {
      const d = Object.getOwnPropertyDescriptor(object, key);
      let value;
      if (d !== undefined && d.enumerable)
        value = "value" in d ? d.value : d.get?.call(object);
      values.set(key, readable(value, at(key)) ?? undefined);
    }
    return values.get(key);
  };
  let keys;
  // Its own keys, listed once (the ownKeys trap alone) and bounded.
  const keysOf = () => {
    if (keys === undefined) {
      keys = Reflect.ownKeys(object).filter((k) => typeof k === "string");
      if (keys.length > MAX_ROPE_KEYS)
        throw configError(
          rangeError,
          path,
          `has ${keys.length} keys, more than a rope dict holds (${MAX_ROPE_KEYS})`,
          "ERR_TOO_LONG",
        );
    }
    return keys;
  };
  return { path, at, get, has: (key) => get(key) !== undefined, keysOf };
}

// Field readers: each names the field by its path in the config.
function configError(Make, field, rule, code) {
  return Make(`config field "${field}" ${rule}`, field, code);
}

// `code`: that of a field that is NaN or infinite, the rule's of the option
// it becomes ("ERR_BASE" for rope_theta), so a rule has one code whether an
// option or a config field breaks it.
function numberField(n, key, path = n.at(key), code) {
  const value = n.get(key);
  return value === undefined ? undefined : numberElement(value, path, code);
}

function stringField(n, key) {
  const value = n.get(key);
  if (value !== undefined && typeof value !== "string")
    throw configError(
      typeError,
      n.at(key),
      `must be a string, got ${show(value)}`,
      "ERR_NOT_STRING",
    );
  return value;
}

function objectField(n, key) {
  const value = n.get(key);
  if (value === undefined) return undefined;
  if (!isObject(value))
    throw configError(
      typeError,
      n.at(key),
      `must be an object, got ${show(value)}`,
      "ERR_NOT_OBJECT",
    );
  return node(value, n.at(key));
}

// An array field read once: its length, bounded before any element is
// read, then each element once; a typed array through the intrinsics.
function listField(n, key, max, element) {
  const value = n.get(key);
  if (value === undefined) return undefined;
  const path = n.at(key);
  if (kindOf(value) !== undefined) {
    if (readability(value) !== "ok")
      throw configError(
        typeError,
        path,
        "is a typed array whose buffer is detached or out of bounds",
        "ERR_DETACHED",
      );
    if (kindOf(value).startsWith("Big"))
      throw configError(
        typeError,
        path,
        `must be a list of numbers, got a ${kindOf(value)}`,
        "ERR_NOT_NUMBER",
      );
    if (lengthOf(value) > max)
      throw configError(
        rangeError,
        path,
        `must be a list of at most ${max} numbers, got ${lengthOf(value)}`,
        "ERR_TOO_LONG",
      );
    // Any kind of number array, read through the intrinsics into doubles.
    const copy = new Float64Array(lengthOf(value));
    write(copy, value);
    return Array.from(copy, (v, i) => element(v, `${path}[${i}]`));
  }
  if (!Array.isArray(value))
    throw configError(
      typeError,
      path,
      `must be a list, got ${show(value)}`,
      "ERR_NOT_ARRAY",
    );
  const length = value.length;
  if (!(length <= max))
    throw configError(
      rangeError,
      path,
      `must hold at most ${max} entries, got ${length}`,
      "ERR_TOO_LONG",
    );
  const list = [];
  for (let i = 0; i < length; i++)
    list.push(element(value[i], `${path}[${i}]`));
  return list;
}

function numberElement(value, path, code = "ERR_NOT_FINITE") {
  if (typeof value !== "number")
    throw configError(
      typeError,
      path,
      `must be a number, got ${show(value)}`,
      "ERR_NOT_NUMBER",
    );
  if (!Number.isFinite(value))
    throw configError(
      rangeError,
      path,
      `must be a finite number, got ${value}`,
      code,
    );
  return value;
}

function stringElement(value, path) {
  if (typeof value !== "string")
    throw configError(
      typeError,
      path,
      `must be a string, got ${show(value)}`,
      "ERR_NOT_STRING",
    );
  return value;
}

// The rope type of a rope dict with the aliases transformers maps: "type"
// stands for "rope_type"; Qwen2-VL's "mrope" is the default schedule;
// Phi-3's "su" (and its "yarn") is longrope.
function ropeType(rope, modelType) {
  const given = ["rope_type", "type"]
    .map((key) => [key, stringField(rope, key)])
    .filter(([, value]) => value !== undefined);
  const canonical = (name) => {
    if (name === "mrope") return "default";
    if (name === "su" || (name === "yarn" && modelType === "phi3"))
      return "longrope";
    return name;
  };
  if (given.length === 2 && canonical(given[0][1]) !== canonical(given[1][1]))
    throw typeError(
      `config fields "${rope.at("rope_type")}" (${show(given[0][1])}) and "${rope.at("type")}" (${show(given[1][1])}) disagree`,
      rope.at("type"),
      "ERR_CONFLICT",
    );
  const [key, name] = given[0] ?? ["rope_type", "default"];
  const type = canonical(name);
  if (!Object.hasOwn(PARAMETERS, type))
    throw configError(
      rangeError,
      rope.at(key),
      `names rope type ${show(name)}, which is not one of ${Object.keys(PARAMETERS).join(", ")}`,
      "ERR_ROPE_TYPE",
    );
  return { type, typePath: rope.at(key) };
}

// Whether a rope_parameters dict holds one dict per layer type, as
// standardize_rope_params decides: its keys are among layer_types. Without
// layer_types (ModernBERT's class derives them) keys that are no RoPE
// parameter are taken for layer types.
function perLayer(keys, layerTypes) {
  if (keys.length === 0) return false;
  if (layerTypes !== undefined) return keys.every((k) => layerTypes.has(k));
  return !keys.some(isRopeKey);
}

// The error of the library's option readers, told the config field its
// option came from: `fields` maps each option path to { label, path }, the
// field as a message names it and as `error.option` gives it.
function fieldOf(option, fields) {
  if (option === undefined) return undefined;
  if (Object.hasOwn(fields, option)) return fields[option];
  // An element: "scaling.shortFactor[2]" is "rope_scaling.short_factor[2]".
  const element = /^(.*)(\[\d+\])$/.exec(option);
  if (element === null || !Object.hasOwn(fields, element[1])) return undefined;
  const { label, path } = fields[element[1]];
  return { label: label + element[2], path: path && path + element[2] };
}

// A rule of the core on values from the config is said of its fields, with
// the values the options took from them; any other refusal is told the
// field its option came from.
function retold(error, fields, options) {
  const field = fieldOf(error.option, fields);
  if (field === undefined) return error;
  // Said of the fields when each option of the rule has one of its own.
  const status = STATUS_NAMES.indexOf(`PE_${error.code}`);
  const labels =
    status > 0
      ? STATUS[status].options.map((o) => fieldOf(o, fields)?.label)
      : [];
  if (
    labels.length > 0 &&
    !labels.includes(undefined) &&
    new Set(labels).size === labels.length
  )
    return (error instanceof RangeError ? rangeError : typeError)(
      statusMessage(status, options, {
        one: "config field",
        many: "config fields",
        name: (option) => fieldOf(option, fields).label,
      }),
      field.path,
      error.code,
    );
  const Make = error instanceof RangeError ? RangeError : TypeError;
  const told = new Make(`${error.message} (config field "${field.label}")`);
  told.option = field.path;
  told.code = error.code;
  told.function = error.function;
  return told;
}

const PAIRINGS = ["halves", "interleaved"];

// The pairs a model rotates: the caller's word, else the census's (a flag
// of the config where the model has one), else Llama's.
function pairingOf(model, ruleType, c, given, warnings) {
  let known;
  if (model?.interleaveFlag !== undefined) {
    const [key, fallback] = model.interleaveFlag;
    const value = c.get(key);
    if (value !== undefined && typeof value !== "boolean")
      throw configError(
        typeError,
        c.at(key),
        `must be true or false, got ${show(value)}`,
        "ERR_NOT_BOOLEAN",
      );
    known = (value ?? fallback) ? "interleaved" : "halves";
  } else if (model !== undefined) known = model.pairing ?? "halves";
  if (given === undefined) return known ?? "halves";
  if (known !== undefined && known !== given)
    warnings.push(
      `option "pairing" is "${given}", but model type "${ruleType}" rotates ${known === "interleaved" ? "adjacent pairs" : "halves"} ("${known}") in transformers: "${given}" is used as given`,
    );
  return given;
}

/**
 * The RoPE options of a parsed config.json (transformers v4 `rope_theta` /
 * `rope_scaling`, or v5 `rope_parameters`, flat or per layer type; a
 * multimodal config's `text_config`): `{ dim, rotaryDim, base, scaling,
 * pairing }` and, for M-RoPE, `mropeSection` and `mropeInterleaved`; what
 * transformers would only log is in the non-enumerable `warnings`.
 */
function fromConfigOf(config, options = {}) {
  const given = readOptions(options, ["layerType", "pairing"], "fromConfig()", {
    name: "fromConfig() options",
  });
  const layerType = given.layerType;
  if (given.pairing !== undefined && !PAIRINGS.includes(given.pairing))
    throw rangeError(
      `option "pairing" must be "halves" or "interleaved", got ${show(given.pairing)}`,
      "pairing",
      "ERR_PAIRING",
    );
  if (layerType !== undefined && typeof layerType !== "string")
    throw typeError(
      `option "layerType" must be a string such as "full_attention", got ${show(layerType)}`,
      "layerType",
      "ERR_NOT_STRING",
    );
  if (isRevoked(config))
    throw typeError(
      "config is a revoked Proxy, which cannot be read",
      "config",
      "ERR_REVOKED",
    );
  if (!isObject(config))
    throw typeError(
      `config must be a parsed config.json object, got ${show(config)}`,
      "config",
      "ERR_NOT_OBJECT",
    );
  const root = node(config, "");
  const textConfig = objectField(root, "text_config");
  const c = textConfig ?? root;
  const typeNode = c.has("model_type") ? c : root;
  const modelType = stringField(typeNode, "model_type");
  const warnings = [];
  // The census entry whose rule applies: a wrapper's is its text model's.
  let model = modelOf(modelType);
  let ruleType = modelType;
  // Without text_config, its fields are the config's own (v4's flat form).
  // A wrapper's text model may be a wrapper too (ColQwen2's is Qwen2-VL's).
  while (model?.text !== undefined) {
    ruleType = model.text;
    model = modelOf(ruleType);
  }
  if (model?.elsewhere !== undefined)
    throw typeError(
      `config of model type ${show(modelType)} has no RoPE on token positions: its RoPE turns ${model.elsewhere}, which fromConfig does not read`,
      typeNode.at("model_type"),
      "ERR_NO_ROPE",
    );
  // A model of several parts whose language model sits deeper than
  // text_config: that part's config is the one to read.
  if (model?.nested !== undefined && textConfig === undefined)
    throw typeError(
      `config of model type ${show(modelType)} keeps its language model's RoPE in "${model.nested}": pass that part of the config`,
      model.nested,
      "ERR_NOT_APPLICABLE",
    );
  // A model whose attention rotates only when a field says so.
  if (model?.ropeWhen !== undefined) {
    const [key, on, fallback] = model.ropeWhen;
    const value = c.get(key) ?? fallback;
    if (value !== on)
      throw typeError(
        `config of model type ${show(modelType)} has "${c.at(key)}" ${show(value)}: its attention uses RoPE only when it is ${show(on)}`,
        c.at(key),
        "ERR_NO_ROPE",
      );
  }
  // What fromConfig assumes of a model type outside the census, said once.
  const assumed = [];
  // Where each option comes from: named in the errors of its values.
  const fields = {};
  const from = (option, label, path = label) => {
    fields[option] = { label, path };
  };

  const layerList = listField(c, "layer_types", MAX_LAYERS, stringElement);
  const layerTypes = layerList === undefined ? undefined : new Set(layerList);
  if (layerType !== undefined && layerTypes !== undefined)
    if (!layerTypes.has(layerType))
      throw rangeError(
        `option "layerType" is ${show(layerType)}, which "${c.at("layer_types")}" does not list (it has ${listing([...layerTypes])})`,
        "layerType",
        "ERR_NOT_ONE_OF",
      );

  // convert_rope_params_to_dict: rope_scaling if given, else
  // rope_parameters.
  const scalingDict = objectField(c, "rope_scaling");
  const parametersDict = objectField(c, "rope_parameters");
  if (scalingDict !== undefined && parametersDict !== undefined)
    warnings.push(
      `config has both "${c.at("rope_scaling")}" and "${c.at("rope_parameters")}": transformers reads "${c.at("rope_scaling")}", and so does fromConfig`,
    );
  let rope = scalingDict ?? parametersDict;
  let layered = false;
  if (rope !== undefined) {
    const keys = rope.keysOf();
    if (perLayer(keys, layerTypes)) {
      layered = true;
      if (layerType === undefined)
        throw typeError(
          `config field "${rope.path}" is per layer type (${listing(keys)}): pass { layerType }`,
          "layerType",
          "ERR_REQUIRED",
        );
      if (!keys.includes(layerType))
        throw rangeError(
          `config field "${rope.at(layerType)}" is missing (it has ${listing(keys)})`,
          rope.at(layerType),
          "ERR_NOT_ONE_OF",
        );
      const entry = rope;
      rope = objectField(entry, layerType);
      if (rope === undefined)
        throw configError(
          typeError,
          entry.at(layerType),
          "must be an object, got null",
          "ERR_NOT_OBJECT",
        );
    }
  }

  // v4 configs of Gemma 3 and ModernBERT give their sliding-window layers a
  // base of their own and the default schedule.
  const localKey = ["rope_local_base_freq", "local_rope_theta"].find((k) =>
    c.has(k),
  );
  const sliding =
    !layered && localKey !== undefined && layerType === "sliding_attention";
  if (!layered && localKey !== undefined) {
    if (layerType === undefined)
      throw typeError(
        `config has a base per layer type ("${c.at(localKey)}" for sliding-window layers): pass { layerType: "full_attention" } or "sliding_attention"`,
        "layerType",
        "ERR_REQUIRED",
      );
    if (layerType !== "full_attention" && layerType !== "sliding_attention")
      throw rangeError(
        `option "layerType" must be "full_attention" or "sliding_attention" for this config, got ${show(layerType)}`,
        "layerType",
        "ERR_NOT_ONE_OF",
      );
  }
  if (sliding) rope = undefined;

  // The base: the dict's rope_theta, else the config's (rope_theta, or the
  // names GPT-NeoX and ModernBERT give it), else the class default.
  let base, basePath, baseField;
  const baseKeys = sliding
    ? [localKey]
    : ["global_rope_theta", "rope_theta", "rotary_emb_base"];
  if (rope !== undefined && rope.has("rope_theta")) {
    basePath = baseField = rope.at("rope_theta");
    base = numberField(rope, "rope_theta", undefined, "ERR_BASE");
  } else {
    const key = baseKeys.find((k) => c.has(k));
    if (key !== undefined) {
      basePath = baseField = c.at(key);
      base = numberField(c, key, undefined, "ERR_BASE");
    }
  }
  const hasRope =
    base !== undefined ||
    rope !== undefined ||
    c.has("rotary_dim") ||
    c.has("partial_rotary_factor") ||
    c.has("rotary_pct");
  if (model?.none !== undefined) {
    if (!hasRope)
      throw typeError(
        `config of model type ${show(modelType)} has no RoPE: its positions are ${model.none}`,
        typeNode.at("model_type"),
        "ERR_NO_ROPE",
      );
    // RoPE fields on a model without RoPE: read as a model outside the
    // census is, with the assumptions said.
    model = undefined;
  }
  if (modelType === "falcon" && c.get("alibi") === true)
    throw typeError(
      `config of model type "falcon" has "${c.at("alibi")}": true: this Falcon uses ALiBi attention biases, not RoPE`,
      c.at("alibi"),
      "ERR_NO_ROPE",
    );
  if (base === undefined) {
    if (model !== undefined) {
      base = model.theta ?? 10000;
      basePath = `the default rope_theta of model type "${ruleType}"`;
    } else if (hasRope) {
      base = 10000;
      basePath = "the default rope_theta";
      assumed.push("its default rope_theta 10000 (transformers' own default)");
    } else
      throw typeError(
        `config${modelType === undefined ? "" : ` of model type ${show(modelType)}`} has no RoPE field (rope_theta, rope_parameters, rope_scaling, rotary_dim), and fromConfig does not know the default base of ${modelType === undefined ? "a model without model_type" : "that model type"}: add "${c.at("rope_theta")}"`,
        c.at("rope_theta"),
        "ERR_REQUIRED",
      );
  }
  from("base", basePath, baseField);
  if (rope === undefined)
    rope = node(Object.create(null), c.at("rope_scaling"));

  // Unknown keys are logged by transformers and left out; so here.
  const { type, typePath } = ropeType(rope, modelType);
  from("scaling.type", typePath);
  const takes = PARAMETERS[type];
  for (const key of rope.keysOf()) {
    const used =
      OTHER_KEYS.includes(key) ||
      (Object.hasOwn(SCALING_KEYS, key) && takes.includes(SCALING_KEYS[key]));
    if (!used)
      warnings.push(
        `config field "${rope.at(key)}" is not a parameter of rope type "${type}": transformers logs it and goes on, and so is it left out here`,
      );
  }

  // The head dim: DeepSeek's rope part, Gemma 4's global head, head_dim
  // (JetMoE's kv_channels), the class default, or hidden_size /
  // num_attention_heads (GPT-J's n_embd / n_head).
  let dim;
  const headKey = [
    "qk_rope_head_dim",
    ...(layerType === "full_attention" ? ["global_head_dim"] : []),
    model?.headDimField ?? "head_dim",
  ].find((k) => c.has(k));
  if (headKey !== undefined) {
    dim = numberField(c, headKey);
    from("dim", c.at(headKey));
  } else if (model?.headDim !== undefined) {
    dim = model.headDim;
    from("dim", `the default head_dim of model type "${ruleType}"`, undefined);
  } else {
    // GPT-J and CodeGen name them n_embd and n_head.
    const hiddenKey =
      c.has("n_embd") && !c.has("hidden_size") ? "n_embd" : "hidden_size";
    const headsKey =
      c.has("n_head") && !c.has("num_attention_heads")
        ? "n_head"
        : "num_attention_heads";
    const hidden = numberField(c, hiddenKey);
    const heads = numberField(c, headsKey);
    for (const [key, value] of [
      [hiddenKey, hidden],
      [headsKey, heads],
    ])
      if (value === undefined)
        throw configError(
          typeError,
          c.at(key),
          `must be a number, got nothing (no head_dim either)`,
          "ERR_NOT_NUMBER",
        );
    if (!(heads >= 1))
      throw configError(
        rangeError,
        c.at(headsKey),
        `must be >= 1, got ${heads}`,
        "ERR_OUT_OF_RANGE",
      );
    dim = Math.floor(hidden / heads);
    from("dim", `${c.at(hiddenKey)} / ${c.at(headsKey)}`, c.at(hiddenKey));
  }

  // partial_rotary_factor: a top-level one overrides the dict's
  // (standardize_rope_params); GPT-NeoX calls it rotary_pct.
  let partial, partialPath, partialField;
  const topPartial = ["partial_rotary_factor", "rotary_pct"].find((k) =>
    c.has(k),
  );
  if (topPartial !== undefined) {
    partialPath = partialField = c.at(topPartial);
    partial = numberField(c, topPartial);
  } else if (rope.has("partial_rotary_factor")) {
    partialPath = partialField = rope.at("partial_rotary_factor");
    partial = numberField(rope, "partial_rotary_factor");
  } else if (model?.partial !== undefined) {
    partial = model.partial;
    partialPath = `the default partial_rotary_factor of model type "${ruleType}"`;
  }

  const scaling = { type };
  // A field is named even when missing: the error of a required one.
  const setScaling = (name, value, label, path = label) => {
    from(`scaling.${name}`, label, path);
    if (value !== undefined) scaling[name] = value;
  };
  for (const [key, name] of Object.entries(SCALING_KEYS)) {
    if (!takes.includes(name) || !rope.has(key)) continue;
    const path = rope.at(key);
    const code = ruleOf(`scaling.${name}`);
    if (name === "shortFactor" || name === "longFactor")
      setScaling(
        name,
        listField(rope, key, MAX_FACTORS, (value, at) =>
          numberElement(value, at, code),
        ),
        path,
      );
    else if (name === "truncate") {
      const value = rope.get(key);
      if (typeof value !== "boolean")
        throw configError(
          typeError,
          path,
          `must be true or false, got ${show(value)}`,
          code,
        );
      setScaling(name, value, path);
    } else {
      const value = numberField(rope, key, undefined, code);
      // v5 reads YaRN's betas with `or`: a 0 takes the default (32, 1).
      if (value === 0 && (name === "betaFast" || name === "betaSlow")) continue;
      setScaling(name, value, path);
    }
  }
  const maxPositions =
    numberField(c, "max_position_embeddings") ?? numberField(c, "n_positions");
  // GPT-J and CodeGen name it n_positions.
  const maxPath = c.at(
    c.has("n_positions") && !c.has("max_position_embeddings")
      ? "n_positions"
      : "max_position_embeddings",
  );
  if (takes.includes("maxPositionEmbeddings"))
    setScaling("maxPositionEmbeddings", maxPositions, maxPath);
  // original_max_position_embeddings for llama3, yarn and longrope: a
  // top-level one overrides a flat dict's; else the dict's, else
  // max_position_embeddings.
  if (["llama3", "yarn", "longrope"].includes(type)) {
    const top = layered
      ? undefined
      : numberField(c, "original_max_position_embeddings");
    if (top !== undefined)
      setScaling(
        "originalMaxPositionEmbeddings",
        top,
        c.at("original_max_position_embeddings"),
      );
    else if (!layered && model?.originalMax !== undefined)
      // A config class default is a top-level field the config left out.
      setScaling(
        "originalMaxPositionEmbeddings",
        model.originalMax,
        `the default original_max_position_embeddings of model type "${ruleType}"`,
        undefined,
      );
    else if (scaling.originalMaxPositionEmbeddings === undefined)
      setScaling("originalMaxPositionEmbeddings", maxPositions, maxPath);
  }
  // v5's YaRN without a factor: the ratio of the two context lengths.
  if (
    type === "yarn" &&
    scaling.factor === undefined &&
    maxPositions !== undefined &&
    scaling.originalMaxPositionEmbeddings !== undefined
  )
    setScaling(
      "factor",
      maxPositions / scaling.originalMaxPositionEmbeddings,
      `${maxPath} / ${fields["scaling.originalMaxPositionEmbeddings"].label}`,
      maxPath,
    );

  const pairing = pairingOf(model, ruleType, c, given.pairing, warnings);
  if (model === undefined && given.pairing === undefined)
    assumed.unshift(`Llama's pairing, "halves" (rotate_half)`);
  const result = { dim, rotaryDim: dim, base, scaling, pairing };
  fields.rotaryDim = fields.dim;
  if (model?.rotaryDim !== undefined) {
    result.rotaryDim = numberField(c, "rotary_dim") ?? model.rotaryDim;
    if (c.has("rotary_dim")) from("rotaryDim", c.at("rotary_dim"));
    else
      from(
        "rotaryDim",
        `the default rotary_dim of model type "${ruleType}"`,
        undefined,
      );
  } else if (partial !== undefined) {
    if (type === "proportional")
      setScaling("partialRotaryFactor", partial, partialPath, partialField);
    else {
      if (!(partial > 0 && partial <= 1))
        throw configError(
          rangeError,
          partialPath,
          `must be > 0 and <= 1, got ${partial}`,
          "ERR_OUT_OF_RANGE",
        );
      result.rotaryDim = Math.trunc(dim * partial);
      from(
        "rotaryDim",
        `int(${fields.dim.label} × ${partialPath})`,
        partialField,
      );
    }
  }
  const section = listField(rope, "mrope_section", 3, numberElement);
  if (section !== undefined) {
    result.mropeSection = section;
    from("mropeSection", rope.at("mrope_section"));
    const said = rope.get("mrope_interleaved");
    if (said !== undefined && typeof said !== "boolean")
      throw configError(
        typeError,
        rope.at("mrope_interleaved"),
        `must be true or false, got ${show(said)}`,
        "ERR_NOT_BOOLEAN",
      );
    const layout =
      model?.mrope === undefined ? undefined : model.mrope === "interleaved";
    if (layout !== undefined) {
      if (said !== undefined && said !== layout)
        warnings.push(
          `config field "${rope.at("mrope_interleaved")}" is ${said}, but model type "${ruleType}" ${layout ? "always interleaves" : "never interleaves"} its M-RoPE sections: mropeInterleaved is ${layout}`,
        );
      result.mropeInterleaved = layout;
    } else if (said !== undefined) result.mropeInterleaved = said;
    from("mropeInterleaved", rope.at("mrope_interleaved"));
  }

  if (model?.reversed)
    warnings.push(
      `model type "${ruleType}" turns each pair the other way (its rotate_half gives (x2, -x1)): its rotation at position p is rope's at -p, so pass negated positions`,
    );
  if (assumed.length > 0) {
    const none = modelOf(modelType)?.none;
    const subject =
      modelType === undefined
        ? "config has no model_type"
        : none !== undefined
          ? `model type ${show(modelType)} has no RoPE in transformers (its positions are ${none}), yet this config gives RoPE fields`
          : `model type ${show(modelType)} is not in fromConfig's census of transformers' RoPE models`;
    warnings.push(
      `${subject}: fromConfig assumes ${assumed.join(" and ")}; pass { pairing } to fromConfig to say which pairs the model rotates`,
    );
  }
  // Every value rule, once, where it lives: an error names its field; what
  // the source computes but logs is a warning here too.
  try {
    warnings.push(...checkRopeOptions(result, "fromConfig"));
  } catch (error) {
    throw retold(error, fields, result);
  }
  Object.defineProperty(result, "warnings", {
    value: Object.freeze(warnings),
    enumerable: false,
  });
  return result;
}

// The public functions, each naming itself in the errors it raises.
export function fromConfig(...args) {
  return calling("fromConfig", fromConfigOf, args);
}
