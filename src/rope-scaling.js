// RoPE context extension: the rope types of Hugging Face transformers
// (inverse frequencies and attention factor) and cos/sin caches in the
// layouts inference runtimes consume. Every input is read once into
// JS-owned values before any module memory is touched; the C core computes.
import {
  CACHE_DTYPES,
  CACHE_LAYOUTS,
  MAX_DIM,
  PAIRINGS,
  ROPE_PARAMETER_SLOTS,
  ROPE_TYPE_PARAMETERS,
  ROPE_TYPES,
  ROPE_WARNINGS,
} from "sinusoidal-pe-constants";
import { cachedFrequencies, scheduleKey } from "./frequency-cache.js";
import * as kernels from "./kernels.js";
import {
  boolean,
  calling,
  integer,
  numbers,
  oneOf,
  positionList,
  rangeError,
  rejectUnknown,
  show,
  snapshot,
  typeError,
} from "./options.js";
import {
  blockRows,
  checkBlockAngles,
  deliver,
  largestFrequency,
  outArray,
  overlapping,
  write,
} from "./out.js";
import {
  MAX_REQUEST_BYTES,
  memoryBuffer,
  wasm,
  withScratch,
} from "./runtime.js";
import { CONSTRUCTORS, kindOf } from "./typed-arrays.js";

export { ROPE_TYPES, CACHE_DTYPES as ROPE_DTYPES };

// The cache layouts in the words of table's `layout` and rope's `pairing`:
// "halves" puts pair i's value at columns i and i + rotaryDim / 2 (HF's
// cat(freqs, freqs)), "interleaved" at 2i and 2i + 1; "compact" holds it
// once, rotaryDim / 2 columns (onnxruntime's caches, for either pairing).
// The core's own names stay accepted as aliases.
const LAYOUT_ALIASES = { half: "compact", duplicated: "halves" };
export const ROPE_LAYOUTS = Object.freeze(
  CACHE_LAYOUTS.map((core) => LAYOUT_ALIASES[core] ?? core),
);

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

// Reads each own enumerable key once into a plain object; undefined values
// count as absent. `path` is the option a nested object is ("scaling"): its
// errors name "scaling.facter".
function readOptions(object, allowed, where, name, path, hints) {
  const copy = Object.fromEntries(
    Object.entries(snapshot(object, name, path)).filter(
      ([, v]) => v !== undefined,
    ),
  );
  if (path === undefined) rejectUnknown(copy, allowed, where, hints);
  else
    for (const key of Object.keys(copy))
      if (!allowed.includes(key))
        throw typeError(
          `unknown option "${key}" for ${where}; allowed: ${allowed.join(", ")}`,
          `${path}.${key}`,
          "ERR_UNKNOWN_OPTION",
        );
  return copy;
}

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

// dim, rotaryDim, base and scaling as JS-owned values: the parameter array
// of the C core with the bits of those given, and longrope's factors. spec.dim is the
// rotary dim, over which the frequencies are computed; spec.given the
// caller's options, for messages. Only types and presence are checked here:
// the C core owns every rule on values (pe_rope_frequencies), and its status
// names the option, the rule and the value.
export function ropeSpec(raw) {
  // The dims size the memory of the frequencies (rotaryDim / 2 of them), so
  // they are checked before any is allocated.
  const headDim = integer(raw.dim, "dim", 2, MAX_DIM);
  if (headDim % 2 !== 0)
    throw rangeError(
      `option "dim" must be even, got ${headDim}`,
      "dim",
      "ERR_ODD",
    );
  const dim =
    raw.rotaryDim === undefined
      ? headDim
      : integer(raw.rotaryDim, "rotaryDim", 2, headDim);
  if (dim % 2 !== 0)
    throw rangeError(
      `option "rotaryDim" must be even, got ${dim}`,
      "rotaryDim",
      "ERR_ODD",
    );
  const base = raw.base === undefined ? 10000 : finite(raw.base, "base");
  // A model's pairing goes with its options (fromConfig gives it); the
  // frequencies and caches do not depend on it.
  if (raw.pairing !== undefined) oneOf(raw.pairing, "pairing", PAIRINGS);
  const scaling =
    raw.scaling === undefined
      ? { type: "default" }
      : readOptions(
          raw.scaling,
          SCALING_KEYS,
          'option "scaling"',
          'option "scaling"',
          "scaling",
        );
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

// M-RoPE's mropeSection (three numbers) and mropeInterleaved, or null.
export function mropeSpec(raw) {
  if (raw.mropeSection === undefined) {
    if (raw.mropeInterleaved !== undefined)
      throw typeError(
        'option "mropeInterleaved" applies only with "mropeSection"',
        "mropeInterleaved",
        "ERR_NOT_APPLICABLE",
      );
    return null;
  }
  const section = numbers(raw.mropeSection, "mropeSection");
  if (section.length !== 3)
    throw rangeError(
      `option "mropeSection" must hold 3 numbers (t, h, w pairs), got ${section.length}`,
      "mropeSection",
      "ERR_LENGTH",
    );
  const interleaved =
    raw.mropeInterleaved === undefined
      ? false
      : boolean(raw.mropeInterleaved, "mropeInterleaved");
  return { section, interleaved };
}

// The position stream of each pair in module memory: the C core assigns
// them (and checks that the sections sum to rotaryDim / 2); its refusal is
// told the section and the pairs it got.
export function writeStreams(mrope, pairs, scratch, api) {
  const streams = scratch(pairs, "M-RoPE streams");
  try {
    kernels.mropeStreams({
      api,
      s0: mrope.section[0],
      s1: mrope.section[1],
      s2: mrope.section[2],
      interleaved: mrope.interleaved ? 1 : 0,
      streams,
      pairs,
    });
  } catch (error) {
    error.message += ` (${pairs} pairs), got [${mrope.section.join(", ")}]`;
    throw error;
  }
  return streams;
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

// The largest of the positions a cache serves.
function largestOf(lists) {
  let largest = -Infinity;
  for (const list of lists)
    for (let i = 0; i < list.length; i++)
      if (list[i] > largest) largest = list[i];
  return largest;
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

// Whether positions is M-RoPE's { t, h, w }: an object that is no array.
export function isStreams(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    !ArrayBuffer.isView(value) &&
    !Array.isArray(value) &&
    !("length" in value)
  );
}

// The t, h and w streams, each read once, of one length.
export function readStreams(value) {
  const given = readOptions(
    value,
    ["t", "h", "w"],
    'option "positions"',
    'option "positions"',
    "positions",
  );
  const streams = ["t", "h", "w"].map((key) => {
    if (given[key] === undefined)
      throw typeError(
        `option "positions.${key}" is required when "positions" is { t, h, w }`,
        `positions.${key}`,
        "ERR_REQUIRED",
      );
    return numbers(given[key], `positions.${key}`);
  });
  const count = streams[0].length;
  streams.forEach((list, k) => {
    if (list.length !== count)
      throw rangeError(
        `option "positions.${"thw"[k]}" must have as many positions as "positions.t" (${count}), got ${list.length}`,
        `positions.${"thw"[k]}`,
        "ERR_LENGTH",
      );
  });
  return streams;
}

const ARRAYS = [Float32Array, Float64Array, Uint16Array];

/**
 * cos and sin caches, rows of positions: "compact" [n, dim/2], "halves"
 * [n, dim] (cat(freqs, freqs)) or "interleaved" [n, dim], multiplied by the
 * attention factor; float16 is a Uint16Array of IEEE half bits.
 */
export function ropeCache(options) {
  const raw = readOptions(options, CACHE_OPTIONS, "ropeCache()");
  return cacheRows(readCache(raw), raw.positions, raw.start, raw.out);
}

const CACHE_OPTIONS = [
  ["positions", "start", "dim", "rotaryDim", "base", "scaling"],
  ["mropeSection", "mropeInterleaved", "pairing", "layout", "dtype"],
  ["out"],
].flat();
// What a cache plan takes per call, and the options that stay fixed.
const CACHE_PER_CALL = ["positions", "start", "out"];
const CACHE_PLAN_OPTIONS = CACHE_OPTIONS.filter(
  (key) => !CACHE_PER_CALL.includes(key),
);
const CACHE_PLAN_HINTS = {
  positions: "it is given per call: plan.rows(positions, { start, out })",
  start: "it is given per call: plan.rows(count, { start })",
  out: "it is given per call: plan.rows(positions, { out: { cos, sin } })",
};

// A cache's options but its rows, read and checked once.
function readCache(raw) {
  const spec = ropeSpec(raw);
  const mrope = mropeSpec(raw);
  const named =
    typeof raw.layout === "string" && Object.hasOwn(LAYOUT_ALIASES, raw.layout)
      ? LAYOUT_ALIASES[raw.layout]
      : raw.layout;
  const layout = oneOf(named, "layout", ROPE_LAYOUTS, "compact");
  const dtype = oneOf(raw.dtype, "dtype", CACHE_DTYPES, "float32");
  // The stream of each pair; the C core checks the section.
  const streamOf =
    mrope === null
      ? null
      : withScratch((scratch) => {
          const pointer = writeStreams(
            mrope,
            spec.dim / 2,
            scratch,
            "ropeCache",
          );
          return new Uint8Array(memoryBuffer(), pointer, spec.dim / 2).slice();
        });
  return { spec, streamOf, layout, dtype };
}

/**
 * The cos and sin rows of a read cache at `positions` (a count from
 * `start`, a list, or M-RoPE's { t, h, w }), into `outOption` or new
 * arrays: { cos, sin, warnings }.
 */
function cacheRows(cache, positionsOption, startOption, outOption) {
  const { streamOf, layout, dtype } = cache;
  let count,
    start = 0,
    positions = null,
    streams = null;
  if (isStreams(positionsOption)) {
    if (streamOf === null)
      throw typeError(
        'option "positions" as { t, h, w } needs "mropeSection" (the pairs of each stream)',
        "mropeSection",
        "ERR_REQUIRED",
      );
    if (startOption !== undefined)
      throw typeError(
        `option "start" applies only when "positions" is a count`,
        "start",
        "ERR_NOT_APPLICABLE",
      );
    streams = readStreams(positionsOption);
    count = streams[0].length;
  } else {
    const rows = positionList(positionsOption, startOption, {
      min: 0,
      maxCount: 2 ** 32 - 1,
      maxArray: 2 ** 32 - 1,
    });
    ({ count, start, values: positions } = rows);
  }
  const { spec, warning } = followSequence(
    cache.spec,
    count === 0
      ? -Infinity
      : streams !== null
        ? largestOf(streams)
        : positions !== null
          ? largestOf([positions])
          : start + count - 1,
  );
  const width = ROPE_LAYOUTS[layout] === "compact" ? spec.dim / 2 : spec.dim;
  const shape = [count, width];
  const bytes = count * width * ARRAYS[dtype].BYTES_PER_ELEMENT;
  if (2 * bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `a cos/sin cache of ${count} × ${width} ${CACHE_DTYPES[dtype]} needs 2 × ${bytes} bytes, more than the module's 4 GiB address space allows`,
      "positions",
      "ERR_TOO_LARGE",
    );
  const out = cacheOut(outOption, ARRAYS[dtype], count * width);
  const { Typed } = out;
  const frequencies = cachedRopeFrequencies(spec, "ropeCache");
  const warnings =
    warning === null
      ? frequencies.warnings.slice()
      : [...frequencies.warnings, warning];

  const where = { api: "ropeCache", given: spec.given };
  return withScratch((scratch) => {
    const pairs = spec.dim / 2;
    const pointer = scratch(pairs * 8, "inverse frequencies");
    new Float64Array(memoryBuffer(), pointer, pairs).set(frequencies.omega);
    const attentionFactor = frequencies.attention;
    let streamsPointer = 0;
    if (streamOf !== null) {
      streamsPointer = scratch(pairs, "M-RoPE streams");
      new Uint8Array(memoryBuffer(), streamsPointer, pairs).set(streamOf);
    }
    // The first block checks the cache's arguments (the attention factor
    // must fit the dtype) before it writes; no rows have no block, so a call
    // of no rows checks them.
    if (count === 0)
      kernels.ropeCache({
        ...where,
        cos: 0,
        sin: 0,
        dtype,
        layout,
        count: 0,
        inverseFrequencies: pointer,
        pairs,
        attention: attentionFactor,
      });
    const length = count * width;
    const cos = out.cos ?? new Typed(length);
    const sin = out.sin ?? new Typed(length);
    if (count === 0) return { cos, sin, shape, warnings };
    if (streams !== null) {
      const target = { cos, sin, dtype, layout, width, Typed, scratch };
      streamCache(
        spec,
        streams,
        streamsPointer,
        pointer,
        attentionFactor,
        target,
      );
      return { cos, sin, shape, warnings };
    }
    checkBlockAngles(
      largestFrequency(pointer, pairs),
      positions,
      start,
      count,
      "ropeCache",
    );
    let positionsPointer = 0;
    if (positions !== null) {
      positionsPointer = scratch(count * 8, "positions");
      new Float64Array(memoryBuffer(), positionsPointer, count).set(positions);
    }
    const rowBytes = width * Typed.BYTES_PER_ELEMENT;
    const rowsPerBlock = blockRows(count, 2 * rowBytes);
    const cosBlock = scratch(rowsPerBlock * rowBytes, "the cos cache");
    const sinBlock = scratch(rowsPerBlock * rowBytes, "the sin cache");
    for (let first = 0; first < count; first += rowsPerBlock) {
      const n = Math.min(rowsPerBlock, count - first);
      kernels.ropeCache({
        ...where,
        cos: cosBlock,
        sin: sinBlock,
        dtype,
        layout,
        positions: positionsPointer === 0 ? 0 : positionsPointer + first * 8,
        count: n,
        start: start + first,
        inverseFrequencies: pointer,
        pairs,
        attention: attentionFactor,
      });
      const buffer = memoryBuffer();
      write(cos, new Typed(buffer, cosBlock, n * width), first * width);
      write(sin, new Typed(buffer, sinBlock, n * width), first * width);
    }
    return { cos, sin, shape, warnings };
  });
}

/**
 * A cache plan: `createRopeCache(options)` reads, checks and resolves every
 * option of ropeCache but the rows once; `rows(positions, perCall?)` then
 * equals `ropeCache({ ...options, positions, ...perCall })` bit for bit,
 * where perCall holds only `start` and `out`: the rows of a growing KV
 * cache as its tokens arrive.
 */
class RopeCachePlan {
  #cache;
  #disposed = false;

  constructor(cache) {
    this.#cache = cache;
  }

  rows(positions, perCall) {
    if (this.#disposed)
      throw new Error(
        "sinusoidal-pe: rope cache plan: rows() after dispose(); create a new plan with createRopeCache()",
      );
    return calling("ropeCache", planCacheRows, [
      this.#cache,
      positions,
      perCall,
    ]);
  }

  /** The plan holds no module memory between calls; it cannot be used after. */
  dispose() {
    this.#disposed = true;
  }
}

// A plan's call: its per-call options read once, then ropeCache's rows.
function planCacheRows(cache, positions, perCall) {
  const given =
    perCall === undefined
      ? {}
      : readOptions(
          perCall,
          ["start", "out"],
          "a rope cache plan's rows()",
          "the per-call options",
          "perCall",
        );
  return cacheRows(cache, positions, given.start, given.out);
}

/** A cache plan of these options (all of ropeCache's, but positions, start and out). */
export function createRopeCache(options) {
  const raw = readOptions(
    options,
    CACHE_PLAN_OPTIONS,
    "createRopeCache()",
    undefined,
    undefined,
    CACHE_PLAN_HINTS,
  );
  return new RopeCachePlan(readCache(raw));
}

// The rows of an M-RoPE cache, in blocks: each pair at its own stream's
// position.
function streamCache(spec, streams, streamOf, pointer, attentionFactor, o) {
  const { cos, sin, dtype, layout, width, Typed, scratch } = o;
  const count = streams[0].length;
  const pairs = spec.dim / 2;
  const largest = largestFrequency(pointer, pairs);
  for (const list of streams)
    checkBlockAngles(largest, list, 0, count, "ropeCache");
  const rowBytes = width * Typed.BYTES_PER_ELEMENT;
  const rowsPerBlock = blockRows(count, 2 * rowBytes + 24);
  const positions = scratch(rowsPerBlock * 24, "positions");
  const cosBlock = scratch(rowsPerBlock * rowBytes, "the cos cache");
  const sinBlock = scratch(rowsPerBlock * rowBytes, "the sin cache");
  for (let first = 0; first < count; first += rowsPerBlock) {
    const n = Math.min(rowsPerBlock, count - first);
    const view = new Float64Array(memoryBuffer(), positions, 3 * n);
    streams.forEach((list, k) =>
      view.set(list.subarray(first, first + n), k * n),
    );
    kernels.ropeCacheStreams({
      api: "ropeCache",
      given: spec.given,
      cos: cosBlock,
      sin: sinBlock,
      dtype,
      layout,
      positions,
      count: n,
      streams: streamOf,
      inverseFrequencies: pointer,
      pairs,
      attention: attentionFactor,
    });
    const buffer = memoryBuffer();
    write(cos, new Typed(buffer, cosBlock, n * width), first * width);
    write(sin, new Typed(buffer, sinBlock, n * width), first * width);
  }
}

// The caller's { cos, sin } arrays (each read once), or nulls for new ones,
// and the kind the cache is written in: float16 goes into a caller's
// Float16Arrays (where the engine has them) as it is, the module's bits read
// through the same kind.
function cacheOut(value, Typed, length) {
  if (value === undefined) return { cos: null, sin: null, Typed };
  const given = readOptions(
    value,
    ["cos", "sin"],
    'option "out"',
    'option "out"',
    "out",
  );
  for (const key of ["cos", "sin"])
    if (given[key] === undefined)
      throw typeError(
        `option "out.${key}" is required when "out" is given`,
        `out.${key}`,
        "ERR_REQUIRED",
      );
  const { Float16Array } = CONSTRUCTORS;
  if (
    Typed === Uint16Array &&
    Float16Array !== undefined &&
    kindOf(given.cos) === "Float16Array"
  )
    Typed = Float16Array;
  const cos = outArray(given.cos, Typed, length, { name: "out.cos" });
  const sin = outArray(given.sin, Typed, length, { name: "out.sin" });
  if (overlapping(cos, sin, length * Typed.BYTES_PER_ELEMENT))
    throw rangeError(
      'options "out.cos" and "out.sin" overlap: each needs its own elements',
      "out.sin",
      "ERR_OVERLAP",
    );
  return { cos, sin, Typed };
}
