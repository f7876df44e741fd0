// RoPE context extension: the rope types of Hugging Face transformers
// (inverse frequencies and attention factor) read into the C core's
// parameters, and the frequencies it computes. Every input is read once into
// JS-owned values before any module memory is touched; the C core computes.
// M-RoPE's streams are in mrope.js, cos/sin caches in rope-cache.js.
import {
  CACHE_DTYPES,
  MAX_DIM,
  PAIRINGS,
  ROPE_PARAMETER_SLOTS,
  ROPE_TYPE_PARAMETERS,
  ROPE_TYPES,
  ROPE_WARNINGS,
} from "sinusoidal-pe-constants";
import { cachedFrequencies, scheduleKey } from "./frequency-cache.js";
import * as kernels from "./kernels.js";
import { mropeSpec, writeStreams } from "./mrope.js";
import {
  boolean,
  integer,
  numbers,
  oneOf,
  rangeError,
  readOptions,
  runningFunction,
  show,
  typeError,
} from "./options.js";
import { deliver, outArray } from "./rows.js";
import { memoryBuffer, wasm, withScratch } from "./runtime.js";

export { ROPE_TYPES, CACHE_DTYPES as ROPE_DTYPES };

// The parameters each rope type takes, from the C core's table.
export const PARAMETERS = Object.fromEntries(
  Object.entries(ROPE_TYPE_PARAMETERS).map(([type, { takes }]) => [
    type,
    takes,
  ]),
);

// The slot of each parameter, and its option path for messages.
const SLOT = Object.fromEntries(ROPE_PARAMETER_SLOTS.map((key, k) => [key, k]));
const SCALING_PATHS = ROPE_PARAMETER_SLOTS.map((key) => `scaling.${key}`);

// Every key a scaling may have.
const SCALING_KEYS = ["type", ...new Set(Object.values(PARAMETERS).flat())];

// A number option that must be finite: NaN or an infinity is refused by
// name here, so that no caller's value can read as "absent" below.
function finite(value, name) {
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
      "ERR_NOT_FINITE",
    );
  return value;
}

/**
 * RoPE's dims checked by the core, the one owner of their rule, before any
 * memory is sized by them: the head dim `dim`, and its rotary part
 * `rotary` (even, at least 2, at most dim). `given` holds the caller's
 * values the message quotes.
 */
export function checkRopeDims(dim, rotary, given) {
  kernels.ropeDims({ api: runningFunction(), given, dim, rotary });
}

// dim, rotaryDim, base and scaling as JS-owned values: the parameter array
// of the C core with the bits of those given, and longrope's factors. spec.dim is the
// rotary dim, over which the frequencies are computed; spec.given the
// caller's options, for messages. Only types and presence are checked here:
// the C core owns every rule on values (pe_rope_frequencies), and its status
// names the option, the rule and the value.
export function ropeSpec(raw) {
  // The dims size the memory of the frequencies (rotaryDim / 2 of them): the
  // core checks them before any is allocated.
  const headDim = integer(raw.dim, "dim", 1, MAX_DIM);
  const dim =
    raw.rotaryDim === undefined
      ? headDim
      : integer(raw.rotaryDim, "rotaryDim", 0, MAX_DIM);
  checkRopeDims(headDim, dim, raw);
  const base = raw.base === undefined ? 10000 : finite(raw.base, "base");
  // A model's pairing goes with its options (fromConfig gives it); the
  // frequencies and caches do not depend on it.
  if (raw.pairing !== undefined) oneOf(raw.pairing, "pairing", PAIRINGS);
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
  const type = oneOf(typeName, "scaling.type", ROPE_TYPES);
  const { takes, requires } = ROPE_TYPE_PARAMETERS[typeName];
  for (const key of Object.keys(scaling))
    if (key !== "type" && !takes.includes(key))
      throw typeError(
        `option "scaling.${key}" does not apply to rope type "${typeName}" (it takes ${takes.join(", ") || "no parameters"})`,
        `scaling.${key}`,
        "ERR_NOT_APPLICABLE",
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
        ? boolean(scaling.truncate, "scaling.truncate")
          ? 1
          : 0
        : finite(scaling[key], SCALING_PATHS[k]);
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
    const short = numbers(scaling.shortFactor, "scaling.shortFactor");
    const long = numbers(scaling.longFactor, "scaling.longFactor");
    // The two lists reach the core as one array of rotaryDim numbers, so
    // the length of each is checked here, where they are still apart.
    for (const [key, list] of [
      ["shortFactor", short],
      ["longFactor", long],
    ])
      if (list.length !== dim / 2)
        throw rangeError(
          `option "scaling.${key}" must have rotaryDim / 2 = ${dim / 2} entries, got ${list.length}`,
          `scaling.${key}`,
          "ERR_LENGTH",
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
 * spec, computed by the C core once per schedule (frequency-cache.js):
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
 * function `api`; nothing is returned.
 */
export function checkRopeOptions(options, api) {
  const spec = ropeSpec(options);
  const mrope = mropeSpec(options);
  withScratch((scratch) => {
    if (mrope !== null) writeStreams(mrope, spec.dim / 2, scratch, api);
    writeRopeFrequencies(spec, scratch, api);
  });
}

// The rope types whose frequencies depend on the sequence length.
const FOLLOWS_SEQUENCE = ["dynamic", "longrope"];
const SEQ_LEN_SLOT = ROPE_PARAMETER_SLOTS.indexOf("seqLen");

/**
 * A cache's sequence length when the caller gave none: the largest position
 * + 1, as transformers' forward takes max(position_ids) + 1 for dynamic and
 * longrope. Sets it in `spec` and returns the warning to give when it
 * changes the frequencies (beyond the original context), or null.
 */
export function followSequence(spec, largest) {
  const name = ROPE_TYPES[spec.type];
  const scaling = spec.given.scaling;
  if (!FOLLOWS_SEQUENCE.includes(name) || scaling.seqLen !== undefined)
    return { spec, warning: null };
  if (!(largest >= 0)) return { spec, warning: null };
  // Beyond 2^53 - 1 no length is exact; the angles refuse such positions.
  const seqLen = Math.min(Math.floor(largest) + 1, Number.MAX_SAFE_INTEGER);
  // The call's own spec: a plan's stays as it was made.
  const params = spec.params.slice();
  params[SEQ_LEN_SLOT] = seqLen;
  const followed = {
    ...spec,
    params,
    present: spec.present | (1 << SEQ_LEN_SLOT),
    given: { ...spec.given, scaling: { ...scaling, seqLen } },
  };
  const original =
    name === "longrope"
      ? (scaling.originalMaxPositionEmbeddings ?? scaling.maxPositionEmbeddings)
      : scaling.maxPositionEmbeddings;
  if (!(seqLen > original)) return { spec: followed, warning: null };
  const effect =
    name === "longrope"
      ? "the long factors are used"
      : "the base grows with it";
  return {
    spec: followed,
    warning: `scaling.seqLen is the largest position + 1 = ${seqLen}, beyond the original context of ${original}: ${effect}, as transformers does for a sequence this long (give scaling.seqLen to choose)`,
  };
}

/**
 * The inverse frequencies (rotaryDim / 2 of them) and attention factor of a
 * rope type, computed in float64, with the warnings the source would log.
 */
export function ropeFrequencies(options) {
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
