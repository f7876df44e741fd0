// RoPE context extension: the rope types of Hugging Face transformers
// (inverse frequencies and attention factor) and cos/sin caches in the
// layouts inference runtimes consume. Every input is read once into
// JS-owned values before any module memory is touched; the C core computes.
import {
  CACHE_DTYPES,
  CACHE_LAYOUTS,
  MAX_DIM,
  ROPE_PARAMETER_SLOTS,
  ROPE_TYPE_PARAMETERS,
  ROPE_TYPES,
  ROPE_WARNINGS,
} from "sinusoidal-pe-constants";
import * as kernels from "./kernels.js";
import {
  boolean,
  integer,
  number,
  numbers,
  oneOf,
  positionList,
  rangeError,
  rejectUnknown,
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

// Reads each own enumerable key once into a plain object; undefined values
// count as absent.
function readOptions(object, allowed, where, name) {
  const copy = Object.fromEntries(
    Object.entries(snapshot(object, name)).filter(([, v]) => v !== undefined),
  );
  rejectUnknown(copy, allowed, where);
  return copy;
}

// dim, rotaryDim, base and scaling as JS-owned values: the parameter array
// of the C core (NaN = absent) and longrope's factors. spec.dim is the
// rotary dim, over which the frequencies are computed; spec.given the
// caller's options, for messages. Only types and presence are checked here:
// the C core owns every rule on values (pe_rope_frequencies), and its status
// names the option, the rule and the value.
export function ropeSpec(raw) {
  // The dims size the memory of the frequencies (rotaryDim / 2 of them), so
  // they are checked before any is allocated.
  const headDim = integer(raw.dim, "dim", 2, MAX_DIM);
  if (headDim % 2 !== 0)
    throw rangeError(`option "dim" must be even, got ${headDim}`);
  const dim =
    raw.rotaryDim === undefined
      ? headDim
      : integer(raw.rotaryDim, "rotaryDim", 2, headDim);
  if (dim % 2 !== 0)
    throw rangeError(`option "rotaryDim" must be even, got ${dim}`);
  const base = raw.base === undefined ? 10000 : number(raw.base, "base");
  const scaling =
    raw.scaling === undefined
      ? { type: "default" }
      : readOptions(
          raw.scaling,
          ["type", ...new Set(Object.values(PARAMETERS).flat())],
          'option "scaling"',
          'option "scaling"',
        );
  // A rope_scaling without a type is the default, as transformers reads it.
  const typeName = scaling.type === undefined ? "default" : scaling.type;
  const type = oneOf(typeName, "scaling.type", ROPE_TYPES);
  const { takes, requires } = ROPE_TYPE_PARAMETERS[typeName];
  for (const key of Object.keys(scaling))
    if (key !== "type" && !takes.includes(key))
      throw typeError(
        `option "scaling.${key}" does not apply to rope type "${typeName}" (it takes ${takes.join(", ") || "no parameters"})`,
      );
  for (const key of requires)
    if (scaling[key] === undefined)
      throw typeError(
        `option "scaling.${key}" is required by rope type "${typeName}"`,
      );

  const p = Object.fromEntries(ROPE_PARAMETER_SLOTS.map((key) => [key, NaN]));
  for (const key of ROPE_PARAMETER_SLOTS)
    if (scaling[key] !== undefined)
      p[key] =
        key === "truncate"
          ? boolean(scaling.truncate, "scaling.truncate")
            ? 1
            : 0
          : number(scaling[key], `scaling.${key}`);

  let factors = new Float64Array(0);
  if (
    ROPE_TYPES[type] === "yarn" &&
    Number.isNaN(p.originalMaxPositionEmbeddings) &&
    Number.isNaN(p.maxPositionEmbeddings)
  )
    throw typeError(
      'rope type "yarn" requires option "scaling.originalMaxPositionEmbeddings" (or "scaling.maxPositionEmbeddings")',
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
        );
    factors = new Float64Array(dim);
    factors.set(short);
    factors.set(long, dim / 2);
    const original = p.originalMaxPositionEmbeddings;
    if (!Number.isNaN(original) && !Number.isNaN(p.factor))
      throw typeError(
        'options "scaling.factor" and "scaling.originalMaxPositionEmbeddings" exclude each other for rope type "longrope" (the factor is maxPositionEmbeddings / originalMaxPositionEmbeddings)',
      );
    if (
      Number.isNaN(original) &&
      Number.isNaN(p.factor) &&
      Number.isNaN(p.attentionFactor)
    )
      throw typeError(
        'rope type "longrope" requires option "scaling.factor", "scaling.originalMaxPositionEmbeddings" or "scaling.attentionFactor"',
      );
  }
  return {
    dim,
    base,
    type,
    params: Float64Array.from(ROPE_PARAMETER_SLOTS, (key) => p[key]),
    factors,
    given: { dim: headDim, rotaryDim: dim, base, scaling },
  };
}

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
  );
  kernels.ropeFrequencies({
    api,
    given: spec.given,
    type: spec.type,
    dim: spec.dim,
    base: spec.base,
    params,
    paramCount: ROPE_PARAMETER_SLOTS.length,
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
      );
    return null;
  }
  const section = numbers(raw.mropeSection, "mropeSection");
  if (section.length !== 3)
    throw rangeError(
      `option "mropeSection" must hold 3 numbers (t, h, w pairs), got ${section.length}`,
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
  );
  const streams = ["t", "h", "w"].map((key) => {
    if (given[key] === undefined)
      throw typeError(
        `option "positions.${key}" is required when "positions" is { t, h, w }`,
      );
    return numbers(given[key], `positions.${key}`);
  });
  const count = streams[0].length;
  streams.forEach((list, k) => {
    if (list.length !== count)
      throw rangeError(
        `option "positions.${"thw"[k]}" must have as many positions as "positions.t" (${count}), got ${list.length}`,
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
  const raw = readOptions(
    options,
    [
      ["positions", "start", "dim", "rotaryDim", "base", "scaling"],
      ["mropeSection", "mropeInterleaved", "layout", "dtype", "out"],
    ].flat(),
    "ropeCache()",
  );
  const spec = ropeSpec(raw);
  const mrope = mropeSpec(raw);
  const named =
    typeof raw.layout === "string" && Object.hasOwn(LAYOUT_ALIASES, raw.layout)
      ? LAYOUT_ALIASES[raw.layout]
      : raw.layout;
  const layout = oneOf(named, "layout", ROPE_LAYOUTS, "compact");
  const dtype = oneOf(raw.dtype, "dtype", CACHE_DTYPES, "float32");
  let count,
    start = 0,
    positions = null,
    streams = null;
  if (isStreams(raw.positions)) {
    if (mrope === null)
      throw typeError(
        'option "positions" as { t, h, w } needs "mropeSection" (the pairs of each stream)',
      );
    if (raw.start !== undefined)
      throw typeError(
        `option "start" applies only when "positions" is a count`,
      );
    streams = readStreams(raw.positions);
    count = streams[0].length;
  } else {
    const rows = positionList(raw.positions, raw.start, {
      min: 0,
      maxCount: 2 ** 32 - 1,
      maxArray: 2 ** 32 - 1,
    });
    ({ count, start, values: positions } = rows);
  }
  const width = ROPE_LAYOUTS[layout] === "compact" ? spec.dim / 2 : spec.dim;
  const shape = [count, width];
  const bytes = count * width * ARRAYS[dtype].BYTES_PER_ELEMENT;
  if (2 * bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `a cos/sin cache of ${count} × ${width} ${CACHE_DTYPES[dtype]} needs 2 × ${bytes} bytes, more than the module's 4 GiB address space allows`,
    );
  const out = cacheOut(raw.out, ARRAYS[dtype], count * width);
  const { Typed } = out;

  const where = { api: "ropeCache", given: spec.given };
  return withScratch((scratch) => {
    const streamOf =
      mrope === null
        ? 0
        : writeStreams(mrope, spec.dim / 2, scratch, "ropeCache");
    const { pointer, attentionFactor, warnings } = writeRopeFrequencies(
      spec,
      scratch,
      "ropeCache",
    );
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
        pairs: spec.dim / 2,
        attention: attentionFactor,
      });
    const length = count * width;
    const cos = out.cos ?? new Typed(length);
    const sin = out.sin ?? new Typed(length);
    if (count === 0) return { cos, sin, shape, warnings };
    if (streams !== null) {
      const target = { cos, sin, dtype, layout, width, Typed, scratch };
      streamCache(spec, streams, streamOf, pointer, attentionFactor, target);
      return { cos, sin, shape, warnings };
    }
    checkBlockAngles(
      largestFrequency(pointer, spec.dim / 2),
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
        pairs: spec.dim / 2,
        attention: attentionFactor,
      });
      const buffer = memoryBuffer();
      write(cos, new Typed(buffer, cosBlock, n * width), first * width);
      write(sin, new Typed(buffer, sinBlock, n * width), first * width);
    }
    return { cos, sin, shape, warnings };
  });
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
  );
  for (const key of ["cos", "sin"])
    if (given[key] === undefined)
      throw typeError(`option "out.${key}" is required when "out" is given`);
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
    );
  return { cos, sin, Typed };
}
