// Frequency schedules: the options that define w_i (the sinusoidal
// schedules, explicit frequencies, and RoPE's context extensions as Hugging
// Face transformers defines them), read once and type-checked into the C
// core's parameters; the core, the one definition of w_i and of the rules on
// every value, computes them once per schedule, and they are kept here.
// Every input is read into JS-owned values before any module memory is
// touched. M-RoPE's streams are in mrope.js, cos/sin caches in rope-cache.js.
import * as kernels from "./core.js";
import { memoryBuffer, wasm, withScratch } from "./core.js";
import { mropeSpec, writeStreams } from "./mrope.js";
import {
  boolean,
  calling,
  integer,
  number,
  numbers,
  oneOf,
  rangeError,
  readOptions,
  rejectUnknown,
  ruleOf,
  runningFunction,
  show,
  typeError,
} from "./options.js";
import { resolvePreset } from "./presets.js";
import { deliver, outArray } from "./rows.js";
import {
  CACHE_DTYPES,
  DTYPES,
  LAYOUTS,
  MAX_DIM,
  ODD_DIMS,
  PAIRINGS,
  ROPE_PARAMETER_SLOTS,
  ROPE_TYPE_PARAMETERS,
  ROPE_TYPES,
  ROPE_WARNINGS,
  SCHEDULES,
} from "sinusoidal-pe-constants";

export { DTYPES, LAYOUTS, MAX_DIM, ODD_DIMS, SCHEDULES };
export { ROPE_TYPES, CACHE_DTYPES as ROPE_DTYPES };

const FLOAT32_MAX = 3.4028234663852886e38;

export const SCHEDULE_OPTIONS = [
  "dim",
  "base",
  "schedule",
  "minTimescale",
  "maxTimescale",
  "shift",
  "frequencies",
  "oddDim",
  "scaling",
];

// Reads a public function's options once (a snapshot, so each getter runs
// once) and resolves, in this order, what every function shares: preset →
// schedule → layout → scale → amplitude. Nothing here touches module memory.
// `allowed`: the function's options; `withPreset`: those of them that combine
// with a preset besides dim (the rest come from the preset); `hints`: keys
// that belong to another option, with the message that says which. Returns
// the schedule (fields named as the kernels' parameters: dim, oddDim, pairs,
// schedule, base, ..., explicit frequencies or null), layout, scale,
// amplitude and dtype (indices as the C enums), the preset's first position
// and padding row for tables, `options`: the snapshot, preset expanded, and
// for every kernel call `api`, the function's name, and `given`: the values
// the C core's messages quote, defaults filled in.
export function prepare(
  options,
  {
    where,
    allowed,
    withPreset = [],
    dtype = "float32",
    oddDim = "extra-sin",
    hints = {},
  },
) {
  const given = readOptions(options, null, where, { hints });
  // With a preset, the preset itself refuses what is not its parameter.
  if (given.preset === undefined) rejectUnknown(given, allowed, where, hints);
  const preset =
    given.preset === undefined ? null : expandPreset(given, withPreset);
  const engine = preset === null ? given : preset.engine;
  const p = new Prepared(scheduleOf(engine, oddDim));
  p.layout = oneOf(
    engine.layout,
    "layout",
    LAYOUTS,
    "interleaved",
    "ERR_LAYOUT",
  );
  p.scale = engine.scale === undefined ? 1 : number(engine.scale, "scale");
  p.amplitude =
    (preset === null ? 1 : preset.outputScale) *
    (engine.outputScale === undefined
      ? 1
      : number(engine.outputScale, "outputScale"));
  p.dtype = oneOf(engine.dtype, "dtype", DTYPES, dtype, "ERR_DTYPE");
  p.float32 = DTYPES[p.dtype] === "float32";
  p.preset = preset === null ? null : given.preset;
  p.presetStart = preset === null ? null : preset.start;
  p.padding = preset === null ? null : preset.padding;
  p.options = engine;
  p.api = where.replace("()", "");
  return p;
}

// A call's resolved options, every field present from the start (one
// shape for every call). `given` is the object itself: the values that the
// C core's messages quote are built from it only when a status is an error.
class Prepared {
  constructor(schedule) {
    this.dim = schedule.dim;
    this.oddDim = schedule.oddDim;
    this.pairs = schedule.pairs;
    this.schedule = schedule.schedule;
    this.base = schedule.base;
    this.minTimescale = schedule.minTimescale;
    this.maxTimescale = schedule.maxTimescale;
    this.shift = schedule.shift;
    this.explicit = schedule.explicit;
    this.rope = schedule.rope;
    this.layout = 0;
    this.scale = 1;
    this.amplitude = 1;
    this.dtype = 0;
    this.float32 = true;
    this.preset = null;
    this.presetStart = null;
    this.padding = null;
    this.options = null;
    this.api = "";
    this.given = this;
  }

  // The caller's options with defaults filled in, as messages quote them.
  describe() {
    return {
      ...this.options,
      dim: this.dim,
      base: this.base,
      minTimescale: this.minTimescale,
      maxTimescale: this.maxTimescale,
      shift: this.shift,
      ...this.rope?.given,
      oddDim: ODD_DIMS[this.oddDim],
      schedule: SCHEDULES[this.schedule],
      scale: this.scale,
      outputScale: this.amplitude,
    };
  }
}

// The preset's engine options, plus the caller's dim and `withPreset` keys;
// every other key goes to the preset as its parameter.
function expandPreset(given, withPreset) {
  const dim = integer(given.dim, "dim", 1, MAX_DIM, "ERR_DIM");
  const own = { dim };
  const parameters = {};
  for (const [key, value] of Object.entries(given))
    if (withPreset.includes(key)) own[key] = value;
    else if (key !== "preset" && key !== "dim") parameters[key] = value;
  const resolved = resolvePreset(given.preset, parameters, dim);
  return { ...resolved, engine: { ...resolved.engine, ...own } };
}

// The frequency schedule: explicit frequencies (read once into a Float64Array),
// a schedule and its parameters, or the paper schedule rescaled by a RoPE
// `scaling` (read once into `rope`, the C core's parameters).
function scheduleOf(options, defaultOddDim) {
  // dim sizes every buffer (pairs frequencies, rows of dim values), so it is
  // checked before any is allocated.
  const dim = integer(options.dim, "dim", 1, MAX_DIM, "ERR_DIM");
  const oddDim = oneOf(options.oddDim, "oddDim", ODD_DIMS, defaultOddDim);
  const pairs =
    Math.floor(dim / 2) +
    (dim % 2 === 1 && ODD_DIMS[oddDim] === "extra-sin" ? 1 : 0);
  const spec = {
    dim,
    oddDim,
    pairs,
    schedule: SCHEDULES.indexOf("paper"),
    base: 10000,
    minTimescale: 1,
    maxTimescale: 10000,
    shift: 1,
    explicit: null,
    rope: null,
  };
  if (options.frequencies !== undefined) {
    for (const key of [
      "schedule",
      "base",
      "minTimescale",
      "maxTimescale",
      "shift",
      "scaling",
    ])
      if (options[key] !== undefined)
        throw typeError(
          `option "${key}" cannot be combined with explicit "frequencies"`,
          key,
          "ERR_COMBINATION",
        );
    const explicit = numbers(options.frequencies, "frequencies", {
      code: "ERR_FREQUENCIES",
    });
    // They are copied into a buffer of `pairs` numbers.
    if (explicit.length !== pairs)
      throw rangeError(
        `option "frequencies" must have ${pairs} entries for dim ${dim}, got ${explicit.length}`,
        "frequencies",
        "ERR_FREQUENCIES",
      );
    spec.explicit = explicit;
    return spec;
  }
  spec.schedule = oneOf(
    options.schedule,
    "schedule",
    SCHEDULES,
    "paper",
    "ERR_SCHEDULE",
  );
  const name = SCHEDULES[spec.schedule];
  const allowed = {
    paper: ["base"],
    timescale: ["minTimescale", "maxTimescale"],
    shifted: ["base", "shift"],
  }[name];
  for (const key of ["base", "minTimescale", "maxTimescale", "shift"])
    if (options[key] !== undefined && !allowed.includes(key))
      throw typeError(
        `option "${key}" does not apply to schedule "${name}" (it takes ${allowed.join(", ")})`,
        key,
        "ERR_NOT_APPLICABLE",
      );
  for (const key of ["base", "minTimescale", "maxTimescale", "shift"])
    if (options[key] !== undefined) spec[key] = number(options[key], key);
  if (options.scaling !== undefined) {
    if (name !== "paper")
      throw typeError(
        `option "scaling" rescales the paper schedule (RoPE's), not schedule "${name}"`,
        "scaling",
        "ERR_NOT_APPLICABLE",
      );
    spec.rope = ropeSpec({ dim, base: spec.base, scaling: options.scaling });
  }
  return spec;
}

// The frequencies of a prepared schedule, JS-owned, computed by the C core
// once per schedule: { omega, attention, warnings }, where attention is the
// attention factor of a RoPE scaling (1 without), which multiplies cos and
// sin. `largest`, a call's largest position, sets the sequence length of a
// dynamic or longrope scaling given none (ropeFrequenciesAt).
export function scheduleFrequencies(prepared, largest = -Infinity) {
  if (prepared.explicit !== null)
    return { omega: prepared.explicit, attention: 1, warnings: [] };
  if (prepared.rope !== null)
    return ropeFrequenciesAt(prepared.rope, largest, prepared.api);
  const p = prepared;
  return cachedFrequencies(
    scheduleKey([
      p.dim,
      p.oddDim,
      p.schedule,
      p.base,
      p.minTimescale,
      p.maxTimescale,
      p.shift,
    ]),
    () =>
      withScratch((scratch) => {
        const out = scratch(p.pairs * 8, "frequencies");
        kernels.frequencies({ ...p, out, count: p.pairs });
        return {
          omega: new Float64Array(memoryBuffer(), out, p.pairs).slice(),
          attention: 1,
          warnings: [],
        };
      }),
  );
}

// The amplitude of every value of a table: the output scale times the
// attention factor. The attention factor is named, not outputScale, when it
// takes a valid output scale out of float32 (the C core names an output
// scale that is out of range by itself).
export function amplitudeOf(prepared, attention) {
  const amplitude = prepared.amplitude * attention;
  if (
    prepared.float32 &&
    Math.abs(prepared.amplitude) <= FLOAT32_MAX &&
    !(Math.abs(amplitude) <= FLOAT32_MAX)
  )
    throw rangeError(
      `the attention factor of option "scaling" (${attention}, from its attentionFactor, mscale or mscaleAllDim) times the output scale ${prepared.amplitude} exceeds float32's largest value ${FLOAT32_MAX}`,
      "scaling",
      "ERR_ROPE_ATTENTION",
    );
  return amplitude;
}

// Writes the frequencies of a prepared schedule into module memory. Returns
// `omega`, their pointer; `attention`, the attention factor; and
// `amplitude`, the output scale times it, the factor of every table value.
export function writeFrequencies(prepared, scratch) {
  const { omega: values, attention } = scheduleFrequencies(prepared);
  const omega = scratch(prepared.pairs * 8, "frequencies");
  new Float64Array(memoryBuffer(), omega, prepared.pairs).set(values);
  return { omega, attention, amplitude: amplitudeOf(prepared, attention) };
}

// RoPE context extension: the rope types of transformers (inverse
// frequencies and attention factor), read into the C core's parameters.

// The parameters each rope type takes, from the C core's table.
export const PARAMETERS = Object.fromEntries(
  Object.entries(ROPE_TYPE_PARAMETERS).map(([type, { takes }]) => [
    type,
    takes,
  ]),
);

// The slot of each parameter, its option path for messages, and the code
// of the core's rule on it, under which JS refuses it too.
const SLOT = Object.fromEntries(ROPE_PARAMETER_SLOTS.map((key, k) => [key, k]));
const SCALING_PATHS = ROPE_PARAMETER_SLOTS.map((key) => `scaling.${key}`);
const SCALING_RULES = SCALING_PATHS.map(ruleOf);

// Every key a scaling may have.
const SCALING_KEYS = ["type", ...new Set(Object.values(PARAMETERS).flat())];

// A number option that must be finite: NaN or an infinity is refused by
// name here, so that no caller's value can read as "absent" below, with the
// code of the core's rule on the option.
function finite(value, name, code) {
  if (typeof value !== "number")
    throw typeError(
      `option "${name}" must be a number, got ${show(value)}`,
      name,
      "ERR_NOT_NUMBER",
    );
  if (!Number.isFinite(value))
    throw rangeError(
      `option "${name}" must be a finite number, got ${show(value)}`,
      name,
      code,
    );
  return value;
}

/**
 * RoPE's head dim and its rotary part, `options.dim` and
 * `options.rotaryDim` (default: dim), read and checked by the core, the one
 * owner of their rule (even, at least 2, at most dim), before any memory is
 * sized by them. `options` holds the caller's values the message quotes.
 */
export function ropeDims(options) {
  const dim = integer(options.dim, "dim", 1, MAX_DIM, "ERR_DIM");
  const rotary =
    options.rotaryDim === undefined
      ? dim
      : integer(options.rotaryDim, "rotaryDim", 0, MAX_DIM, "ERR_ROTARY_DIM");
  kernels.ropeDims({ api: runningFunction(), given: options, dim, rotary });
  return { dim, rotary };
}

// dim, rotaryDim, base and scaling as JS-owned values: the parameter array
// of the C core with the bits of those given, and longrope's factors. spec.dim is the
// rotary dim, over which the frequencies are computed; spec.given the
// caller's options, for messages. Only types and presence are checked here:
// the C core owns every rule on values (pe_rope_frequencies), and its status
// names the option, the rule and the value.
export function ropeSpec(raw) {
  // The frequencies are those of the rotary part: rotaryDim / 2 of them.
  const { dim: headDim, rotary: dim } = ropeDims(raw);
  const base =
    raw.base === undefined ? 10000 : finite(raw.base, "base", "ERR_BASE");
  // A model's pairing goes with its options (fromConfig gives it); the
  // frequencies and caches do not depend on it.
  if (raw.pairing !== undefined)
    oneOf(raw.pairing, "pairing", PAIRINGS, undefined, "ERR_PAIRING");
  const scaling =
    raw.scaling === undefined
      ? { type: "default" }
      : readOptions(raw.scaling, SCALING_KEYS, 'option "scaling"', {
          name: 'option "scaling"',
          path: "scaling",
          nested: true,
        });
  // A rope_scaling without a type is the default, as transformers reads it.
  const typeName = scaling.type === undefined ? "default" : scaling.type;
  const type = oneOf(
    typeName,
    "scaling.type",
    ROPE_TYPES,
    undefined,
    "ERR_ROPE_TYPE",
  );
  const { takes, requires } = ROPE_TYPE_PARAMETERS[typeName];
  for (const key of Object.keys(scaling))
    if (key !== "type" && !takes.includes(key))
      throw typeError(
        `option "scaling.${key}" does not apply to rope type "${typeName}" (it takes ${takes.join(", ") || "no parameters"})`,
        `scaling.${key}`,
        "ERR_ROPE_PARAMETER",
      );
  for (const key of requires)
    if (scaling[key] === undefined)
      throw typeError(
        `option "scaling.${key}" is required by rope type "${typeName}"`,
        `scaling.${key}`,
        "ERR_REQUIRED",
      );

  // The core's parameter array: NaN fills a slot not given, and bit k of
  // `present` says slot k is.
  const params = new Float64Array(ROPE_PARAMETER_SLOTS.length).fill(NaN);
  let present = 0;
  for (let k = 0; k < ROPE_PARAMETER_SLOTS.length; k++) {
    const key = ROPE_PARAMETER_SLOTS[k];
    if (scaling[key] === undefined) continue;
    params[k] =
      key === "truncate"
        ? boolean(scaling.truncate, "scaling.truncate", SCALING_RULES[k])
          ? 1
          : 0
        : finite(scaling[key], SCALING_PATHS[k], SCALING_RULES[k]);
    present |= 1 << k;
  }
  const p = {
    factor: params[SLOT.factor],
    attentionFactor: params[SLOT.attentionFactor],
    originalMaxPositionEmbeddings: params[SLOT.originalMaxPositionEmbeddings],
    maxPositionEmbeddings: params[SLOT.maxPositionEmbeddings],
  };

  let factors = new Float64Array(0);
  if (
    ROPE_TYPES[type] === "yarn" &&
    Number.isNaN(p.originalMaxPositionEmbeddings) &&
    Number.isNaN(p.maxPositionEmbeddings)
  )
    throw typeError(
      'rope type "yarn" requires option "scaling.originalMaxPositionEmbeddings" (or "scaling.maxPositionEmbeddings")',
      "scaling.originalMaxPositionEmbeddings",
      "ERR_REQUIRED",
    );
  if (ROPE_TYPES[type] === "longrope") {
    const short = numbers(scaling.shortFactor, "scaling.shortFactor", {
      code: "ERR_ROPE_SHORT_FACTOR",
    });
    const long = numbers(scaling.longFactor, "scaling.longFactor", {
      code: "ERR_ROPE_LONG_FACTOR",
    });
    // The two lists reach the core as one array of rotaryDim numbers, so
    // the length of each is checked here, where they are still apart.
    for (const [key, list, code] of [
      ["shortFactor", short, "ERR_ROPE_SHORT_FACTOR"],
      ["longFactor", long, "ERR_ROPE_LONG_FACTOR"],
    ])
      if (list.length !== dim / 2)
        throw rangeError(
          `option "scaling.${key}" must have rotaryDim / 2 = ${dim / 2} entries, got ${list.length}`,
          `scaling.${key}`,
          code,
        );
    factors = new Float64Array(dim);
    factors.set(short);
    factors.set(long, dim / 2);
    if (
      Number.isNaN(p.originalMaxPositionEmbeddings) &&
      Number.isNaN(p.factor) &&
      Number.isNaN(p.attentionFactor)
    )
      throw typeError(
        'rope type "longrope" requires option "scaling.factor", "scaling.originalMaxPositionEmbeddings" or "scaling.attentionFactor"',
        "scaling.factor",
        "ERR_REQUIRED",
      );
  }
  return {
    dim,
    base,
    type,
    // The values, and which are given: bit k for slot k, the only word on
    // presence (the core never reads a slot not given; NaN fills them here,
    // which keeps a schedule's cache key apart from any given value).
    params,
    present,
    factors,
    given: { dim: headDim, rotaryDim: dim, base, scaling },
  };
}

/**
 * The inverse frequencies, attention factor and warnings of a read RoPE
 * spec, computed by the C core once per schedule (cachedFrequencies):
 * { omega, attention, warnings }, JS-owned.
 */
export function cachedRopeFrequencies(spec, api) {
  return cachedFrequencies(
    scheduleKey([
      ROPE_KEY,
      spec.type,
      spec.dim,
      spec.base,
      spec.present,
      spec.params,
      spec.factors,
    ]),
    () =>
      withScratch((scratch) => {
        const { pointer, attentionFactor, warnings } = writeRopeFrequencies(
          spec,
          scratch,
          api,
        );
        return {
          omega: new Float64Array(
            memoryBuffer(),
            pointer,
            spec.dim / 2,
          ).slice(),
          attention: attentionFactor,
          warnings,
        };
      }),
  );
}

// The rope types whose frequencies depend on the sequence length.
const FOLLOWS_SEQUENCE = ["dynamic", "longrope"];

/**
 * The smallest position from which a call's positions change a RoPE spec's
 * frequencies: the original context of a dynamic or longrope scaling given
 * no seqLen (a call reaching it is a sequence longer than that context),
 * else Infinity.
 */
export function followsFrom(spec) {
  const name = ROPE_TYPES[spec.type];
  const { scaling } = spec.given;
  if (!FOLLOWS_SEQUENCE.includes(name) || scaling.seqLen !== undefined)
    return Infinity;
  return name === "longrope"
    ? (scaling.originalMaxPositionEmbeddings ?? scaling.maxPositionEmbeddings)
    : scaling.maxPositionEmbeddings;
}

/**
 * The one sequence-length rule of every function that takes positions: a
 * dynamic or longrope spec given no seqLen takes the largest position + 1,
 * as transformers' forward takes max(position_ids) + 1. Returns the spec of
 * a call whose largest position is `largest` and the warning to give when
 * that changes the frequencies (beyond the original context), or null.
 */
export function followSequence(spec, largest) {
  const original = followsFrom(spec);
  if (!(largest >= original)) return { spec, warning: null };
  // Beyond 2^53 - 1 no length is exact; the angles refuse such positions.
  const seqLen = Math.min(Math.floor(largest) + 1, Number.MAX_SAFE_INTEGER);
  // The call's own spec: a plan's stays as it was made.
  const params = spec.params.slice();
  params[SLOT.seqLen] = seqLen;
  const { scaling } = spec.given;
  const effect =
    ROPE_TYPES[spec.type] === "longrope"
      ? "the long factors are used"
      : "the base grows with it";
  return {
    spec: {
      ...spec,
      params,
      present: spec.present | (1 << SLOT.seqLen),
      given: { ...spec.given, scaling: { ...scaling, seqLen } },
    },
    warning: `scaling.seqLen is the largest position + 1 = ${seqLen}, beyond the original context of ${original}: ${effect}, as transformers does for a sequence this long (give scaling.seqLen to choose)`,
  };
}

/**
 * A RoPE spec's frequencies for a call whose largest position is
 * `largest` (-Infinity: none), by followSequence's rule: { omega,
 * attention, warnings }, the warnings those of the schedule and of the
 * rule.
 */
export function ropeFrequenciesAt(spec, largest, api) {
  const { spec: followed, warning } = followSequence(spec, largest);
  const frequencies = cachedRopeFrequencies(followed, api);
  if (warning === null) return frequencies;
  return { ...frequencies, warnings: [...frequencies.warnings, warning] };
}

// Keys of RoPE schedules start with a number no other schedule has.
const ROPE_KEY = -1;

// Writes the inverse frequencies into module memory for the public function
// `api`; returns their pointer and the attention factor.
export function writeRopeFrequencies(spec, scratch, api) {
  const n = spec.dim / 2;
  const params = scratch(ROPE_PARAMETER_SLOTS.length * 8, "RoPE parameters");
  new Float64Array(memoryBuffer(), params, ROPE_PARAMETER_SLOTS.length).set(
    spec.params,
  );
  let factors = 0;
  if (spec.factors.length > 0) {
    factors = scratch(spec.factors.length * 8, "RoPE factors");
    new Float64Array(memoryBuffer(), factors, spec.factors.length).set(
      spec.factors,
    );
  }
  const out = scratch(n * 8, "inverse frequencies");
  const attention = scratch(8, "attention factor");
  const warnings = wasm().pe_rope_warnings(
    spec.type,
    params,
    ROPE_PARAMETER_SLOTS.length,
    spec.present,
  );
  kernels.ropeFrequencies({
    api,
    given: spec.given,
    type: spec.type,
    dim: spec.dim,
    base: spec.base,
    params,
    paramCount: ROPE_PARAMETER_SLOTS.length,
    present: spec.present,
    factors,
    factorCount: spec.factors.length,
    out,
    count: n,
    attention,
  });
  return {
    pointer: out,
    attentionFactor: new Float64Array(memoryBuffer(), attention, 1)[0],
    warnings: ROPE_WARNINGS.filter((_, bit) => (warnings >>> bit) & 1),
  };
}

/**
 * Every rule ropeFrequencies applies to `options` (JS-owned), for the public
 * function `api`: returns the warnings of what the source computes but logs.
 */
export function checkRopeOptions(options, api) {
  const spec = ropeSpec(options);
  const mrope = mropeSpec(options);
  return withScratch((scratch) => {
    if (mrope !== null) writeStreams(mrope, spec.dim / 2, scratch, api);
    return writeRopeFrequencies(spec, scratch, api).warnings;
  });
}

/**
 * The inverse frequencies (rotaryDim / 2 of them) and attention factor of a
 * rope type, computed in float64, with the warnings the source would log.
 */
function ropeFrequenciesOf(options) {
  const raw = readOptions(
    options,
    [
      "dim",
      "rotaryDim",
      "base",
      "scaling",
      "mropeSection",
      "mropeInterleaved",
      "pairing",
      "out",
    ],
    "ropeFrequencies()",
  );
  const spec = ropeSpec(raw);
  const mrope = mropeSpec(raw);
  const out = outArray(raw.out, Float64Array, spec.dim / 2);
  return withScratch((scratch) => {
    if (mrope !== null)
      writeStreams(mrope, spec.dim / 2, scratch, "ropeFrequencies");
    const { pointer, attentionFactor, warnings } = writeRopeFrequencies(
      spec,
      scratch,
      "ropeFrequencies",
    );
    return {
      inverseFrequencies: deliver(
        out,
        new Float64Array(memoryBuffer(), pointer, spec.dim / 2),
      ),
      attentionFactor,
      warnings,
    };
  });
}

// The frequency cache. A schedule's frequencies are computed by the C core
// once and kept, JS-owned, by the values that define them: every later
// call with the same schedule copies them into module memory instead of
// computing them again (a double-double schedule costs microseconds, a
// copy of a few hundred bytes nanoseconds). The values are those of the
// first computation, bit for bit.

// Schedules kept at once: a page or a model uses a handful.
const LIMIT = 64;
const cache = new Map();

// A number as a key: String gives each double its shortest exact form,
// except -0.
const keyOf = (x) => (Object.is(x, -0) ? "-0" : String(x));

/** A key for a list of numbers and arrays of numbers. */
export function scheduleKey(parts) {
  let key = "";
  for (const part of parts)
    if (typeof part === "number") key += keyOf(part) + ",";
    else {
      key += "[";
      for (let i = 0; i < part.length; i++) key += keyOf(part[i]) + ",";
      key += "]";
    }
  return key;
}

/**
 * The cached entry of `key`, or `compute()`'s, kept for later calls. An
 * entry is { omega: Float64Array, attention, warnings }; a refusal is not
 * kept, so it is raised again by the next call.
 */
export function cachedFrequencies(key, compute) {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const entry = compute();
  if (cache.size >= LIMIT) cache.delete(cache.keys().next().value);
  cache.set(key, entry);
  return entry;
}

// The public functions, each naming itself in the errors it raises.
export function ropeFrequencies(...args) {
  return calling("ropeFrequencies", ropeFrequenciesOf, args);
}
