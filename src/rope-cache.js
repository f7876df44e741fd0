// cos/sin caches of a RoPE schedule in the layouts inference runtimes
// consume, at counts, lists or M-RoPE's streams of positions; `ropeCache`
// computes one, `createRopeCache` keeps its options for the rows of a growing
// KV cache. The C core computes; this file reads, checks and copies.
import { CACHE_DTYPES, CACHE_LAYOUTS } from "sinusoidal-pe-constants";
import * as kernels from "./core.js";
import { mropeSpec, readStreams, writeStreams } from "./mrope.js";
import { blockRows, checkAngles, inBlocks } from "./blocks.js";
import { outArray, overlapping } from "./rows.js";
import {
  disposePlan,
  MAX_REQUEST_BYTES,
  memoryBuffer,
  openPlan,
  Plan,
  withScratch,
  withWorkspace,
} from "./core.js";
import {
  calling,
  callingMethod,
  CONSTRUCTORS,
  isStreams,
  kindOf,
  oneOf,
  positionList,
  rangeError,
  readOptions,
  readPerCall,
  typeError,
  write,
} from "./options.js";
import { followsFrom, ropeFrequenciesAt, ropeSpec } from "./schedule.js";

// The cache layouts in the words of table's `layout` and rope's `pairing`:
// "halves" puts pair i's value at columns i and i + rotaryDim / 2 (HF's
// cat(freqs, freqs)), "interleaved" at 2i and 2i + 1; "compact" holds it
// once, rotaryDim / 2 columns (onnxruntime's caches, for either pairing).
// The core's own names stay accepted as aliases.
const LAYOUT_ALIASES = { half: "compact", duplicated: "halves" };
export const ROPE_LAYOUTS = Object.freeze(
  CACHE_LAYOUTS.map((core) => LAYOUT_ALIASES[core] ?? core),
);

// The largest of the positions a cache serves.
function largestOf(lists) {
  let largest = -Infinity;
  for (const list of lists)
    for (let i = 0; i < list.length; i++)
      if (list[i] > largest) largest = list[i];
  return largest;
}

const ARRAYS = [Float32Array, Float64Array, Uint16Array];

/**
 * cos and sin caches, rows of positions: "compact" [n, dim/2], "halves"
 * [n, dim] (cat(freqs, freqs)) or "interleaved" [n, dim], multiplied by the
 * attention factor; float16 is a Uint16Array of IEEE half bits.
 */
function ropeCacheOf(options) {
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

// A cache's options but its rows, read, checked and resolved once: its
// frequencies within the original context, which a call reaching
// `followsFrom` (a dynamic or longrope scaling given no seqLen) replaces by
// its own.
function readCache(raw) {
  const spec = ropeSpec(raw);
  const mrope = mropeSpec(raw);
  const named =
    typeof raw.layout === "string" && Object.hasOwn(LAYOUT_ALIASES, raw.layout)
      ? LAYOUT_ALIASES[raw.layout]
      : raw.layout;
  const layout = oneOf(named, "layout", ROPE_LAYOUTS, "compact", "ERR_LAYOUT");
  const dtype = oneOf(raw.dtype, "dtype", CACHE_DTYPES, "float32", "ERR_DTYPE");
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
  const frequencies = ropeFrequenciesAt(spec, -Infinity, "ropeCache");
  const from = followsFrom(spec);
  return { spec, streamOf, layout, dtype, frequencies, followsFrom: from };
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
  const largest =
    count === 0
      ? -Infinity
      : streams !== null
        ? largestOf(streams)
        : positions !== null
          ? largestOf([positions])
          : start + count - 1;
  const frequencies =
    largest >= cache.followsFrom
      ? ropeFrequenciesAt(cache.spec, largest, "ropeCache")
      : cache.frequencies;
  const { spec } = cache;
  const width = ROPE_LAYOUTS[layout] === "compact" ? spec.dim / 2 : spec.dim;
  const shape = [count, width];
  const bytes = count * width * ARRAYS[dtype].BYTES_PER_ELEMENT;
  if (2 * bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `a cos/sin cache of ${count} × ${width} ${CACHE_DTYPES[dtype]} needs 2 × ${bytes} bytes, more than the module's 4 GiB address space allows`,
      "positions",
      "ERR_SIZE",
    );
  const out = cacheOut(outOption, ARRAYS[dtype], count * width);
  const { Typed } = out;
  const warnings = frequencies.warnings.slice();

  const where = { api: "ropeCache", given: spec.given };
  return withWorkspace((scratch) => {
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
      const target = {
        cos,
        sin,
        dtype,
        layout,
        width,
        Typed,
        scratch,
      };
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
    let positionsPointer = 0;
    if (positions !== null) {
      positionsPointer = scratch(count * 8, "positions");
      new Float64Array(memoryBuffer(), positionsPointer, count).set(positions);
    }
    checkAngles(scratch(16, "the angle check"), {
      api: "ropeCache",
      xs: positionsPointer,
      count,
      start,
      omega: pointer,
      pairs,
      scale: 1,
    });
    const rowBytes = width * Typed.BYTES_PER_ELEMENT;
    const rowsPerBlock = blockRows(count, 2 * rowBytes);
    const cosBlock = scratch(rowsPerBlock * rowBytes, "the cos cache");
    const sinBlock = scratch(rowsPerBlock * rowBytes, "the sin cache");
    for (const [first, n] of inBlocks(count, rowsPerBlock)) {
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

const CACHE_PLAN = {
  kind: "rope cache plan",
  create: "createRopeCache",
  api: "ropeCache",
};

/**
 * A cache plan: `createRopeCache(options)` reads, checks and resolves every
 * option of ropeCache but the rows once; `rows(positions, perCall?)` then
 * equals `ropeCache({ ...options, positions, ...perCall })` bit for bit,
 * where perCall holds only `start` and `out`: the rows of a growing KV
 * cache as its tokens arrive. It holds no module memory.
 */
class RopeCachePlan extends Plan {
  rows(positions, perCall) {
    return callingMethod("ropeCache", planCacheRows, this, positions, perCall);
  }

  /** Ends the plan: rows() then throws; a second dispose() does nothing. */
  dispose() {
    disposePlan(this, CACHE_PLAN);
  }
}

// A plan's call: the plan's cache, its per-call options read once, then
// ropeCache's rows.
const PLAN_PER_CALL = ["start", "out"];
function planCacheRows(plan, positions, perCall) {
  const cache = openPlan(plan, CACHE_PLAN, "rows");
  const given = readPerCall(
    perCall,
    PLAN_PER_CALL,
    "a rope cache plan's rows()",
  );
  return cacheRows(cache, positions, given.first, given.second);
}

/**
 * A cache plan of these options (all of ropeCache's, but positions, start
 * and out), checked by the C core here, in a call of no rows, so that a
 * plan that is made runs.
 */
function createRopeCacheOf(options) {
  const raw = readOptions(options, CACHE_PLAN_OPTIONS, "createRopeCache()", {
    hints: CACHE_PLAN_HINTS,
  });
  const cache = readCache(raw);
  cacheRows(cache, 0, undefined, undefined);
  return new RopeCachePlan(CACHE_PLAN, cache);
}

// The rows of an M-RoPE cache, in blocks: each pair at its own stream's
// position.
function streamCache(spec, streams, streamOf, pointer, attentionFactor, o) {
  const { cos, sin, dtype, layout, width, Typed, scratch } = o;
  const count = streams[0].length;
  const pairs = spec.dim / 2;
  // Each stream's angles, checked in turn in one buffer.
  const each = scratch(count * 8, "positions");
  const report = scratch(16, "the angle check");
  for (const values of streams) {
    new Float64Array(memoryBuffer(), each, count).set(values);
    checkAngles(report, {
      api: "ropeCache",
      xs: each,
      count,
      omega: pointer,
      pairs,
      scale: 1,
    });
  }
  const rowBytes = width * Typed.BYTES_PER_ELEMENT;
  const rowsPerBlock = blockRows(count, 2 * rowBytes + 24);
  const positions = scratch(rowsPerBlock * 24, "positions");
  const cosBlock = scratch(rowsPerBlock * rowBytes, "the cos cache");
  const sinBlock = scratch(rowsPerBlock * rowBytes, "the sin cache");
  for (const [first, n] of inBlocks(count, rowsPerBlock)) {
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
  const given = readOptions(value, ["cos", "sin"], 'option "out"', {
    name: 'option "out"',
    path: "out",
    nested: true,
  });
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

// The public functions, each naming itself in the errors it raises.
export function ropeCache(...args) {
  return calling("ropeCache", ropeCacheOf, args);
}
export function createRopeCache(...args) {
  return calling("createRopeCache", createRopeCacheOf, args);
}
