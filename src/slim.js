// Public API of sinusoidal-pe, without the module: `await init(source)` once
// with the shipped sinusoidal-pe.wasm (the default entry, index.js, supplies
// an inline copy; the Node entry, slim-node.js, the file beside it). Every
// other function is synchronous and computes in the WebAssembly module.
import * as kernels from "./kernels.js";
import {
  boolean,
  calling,
  positionList,
  rangeError,
  typeError,
} from "./options.js";
import { paddingRows } from "./presets.js";
import {
  blockRows,
  checkBlockAngles,
  deliver,
  largestFrequency,
  outArray,
  write,
  zero,
} from "./out.js";
import {
  allocateView,
  MAX_REQUEST_BYTES,
  memoryBuffer,
  withScratch,
} from "./runtime.js";
import {
  DTYPES,
  LAYOUTS,
  ODD_DIMS,
  prepare,
  SCHEDULE_OPTIONS,
  writeFrequencies,
} from "./schedule.js";

import { fromConfig as fromConfigOf } from "./config.js";
import {
  dotProducts as dotProductsOf,
  linearRelationError as linearRelationErrorOf,
  rotate as rotateOf,
  rotationMatrix as rotationMatrixOf,
  toeplitzError as toeplitzErrorOf,
} from "./relation.js";
import { rope as ropeOf } from "./rope.js";
import {
  ci as ciOf,
  decayComparison as decayComparisonOf,
  decayIntegral as decayIntegralOf,
  si as siOf,
} from "./decay.js";
import { npyHeader as npyHeaderOf, toNpy as toNpyOf } from "./npy.js";
import { toCsv as toCsvOf } from "./csv.js";
import {
  ropeCache as ropeCacheOf,
  ropeFrequencies as ropeFrequenciesOf,
} from "./rope-scaling.js";

export { init } from "./runtime.js";
export { presets } from "./presets.js";
export { DTYPES, LAYOUTS, MAX_DIM, ODD_DIMS, SCHEDULES } from "./schedule.js";
export { THETAS } from "./decay.js";
export { ROPE_DTYPES, ROPE_LAYOUTS, ROPE_TYPES } from "./rope-scaling.js";

// Every public function names itself in the errors it raises (declared
// as functions, so an app's bundle keeps only those it calls).
export function fromConfig(...args) {
  return calling("fromConfig", fromConfigOf, args);
}
export function dotProducts(...args) {
  return calling("dotProducts", dotProductsOf, args);
}
export function linearRelationError(...args) {
  return calling("linearRelationError", linearRelationErrorOf, args);
}
export function rotate(...args) {
  return calling("rotate", rotateOf, args);
}
export function rotationMatrix(...args) {
  return calling("rotationMatrix", rotationMatrixOf, args);
}
export function toeplitzError(...args) {
  return calling("toeplitzError", toeplitzErrorOf, args);
}
export function rope(...args) {
  return calling("rope", ropeOf, args);
}
export function ci(...args) {
  return calling("ci", ciOf, args);
}
export function si(...args) {
  return calling("si", siOf, args);
}
export function decayIntegral(...args) {
  return calling("decayIntegral", decayIntegralOf, args);
}
export function decayComparison(...args) {
  return calling("decayComparison", decayComparisonOf, args);
}
export function npyHeader(...args) {
  return calling("npyHeader", npyHeaderOf, args);
}
export function toNpy(...args) {
  return calling("toNpy", toNpyOf, args);
}
export function toCsv(...args) {
  return calling("toCsv", toCsvOf, args);
}
export function ropeCache(...args) {
  return calling("ropeCache", ropeCacheOf, args);
}
export function ropeFrequencies(...args) {
  return calling("ropeFrequencies", ropeFrequenciesOf, args);
}
export function frequencies(...args) {
  return calling("frequencies", frequenciesOf, args);
}
export function tableColumns(...args) {
  return calling("tableColumns", tableColumnsOf, args);
}
export function table(...args) {
  return calling("table", tableOf, args);
}

const TABLE_OPTIONS = [
  ...SCHEDULE_OPTIONS,
  "positions",
  "start",
  "layout",
  "scale",
  "outputScale",
  "dtype",
  "view",
  "out",
];

const TABLE_WITH_PRESET = ["positions", "dtype", "view", "out"];

/**
 * The angular frequencies w_i that `table` uses for these options (the angle
 * of pair i at position p is p * scale * w_i).
 */
function frequenciesOf(options) {
  const p = prepare(options, {
    where: "frequencies()",
    allowed: TABLE_OPTIONS,
    withPreset: TABLE_WITH_PRESET,
  });
  const out = outArray(p.options.out, Float64Array, p.pairs);
  return withScratch((scratch) => {
    const { omega } = writeFrequencies(p, scratch);
    return deliver(out, new Float64Array(memoryBuffer(), omega, p.pairs));
  });
}

/**
 * What each column of a table row holds under these options (a preset's
 * own layout and odd-dim rule included), as the C core places it: kinds[c]
 * is "sin", "cos" or "zero", pairs[c] the pair i whose frequency w_i it
 * takes (-1 for a zero column).
 */
function tableColumnsOf(options) {
  const p = prepare(options, {
    where: "tableColumns()",
    allowed: TABLE_OPTIONS,
    withPreset: TABLE_WITH_PRESET,
  });
  return withScratch((scratch) => {
    const out = scratch(p.dim * 4, "the column map");
    kernels.tableColumns({ ...p, out });
    const codes = new Int32Array(memoryBuffer(), out, p.dim).slice();
    return {
      layout: LAYOUTS[p.layout],
      oddDim: ODD_DIMS[p.oddDim],
      kinds: Array.from(codes, (c) => (c < 0 ? "zero" : c % 2 ? "cos" : "sin")),
      pairs: codes.map((c) => (c < 0 ? -1 : c >> 1)),
    };
  });
}

// Blocks of a view: large enough that setting up each call costs nothing
// measurable, small enough that a first call soon runs optimised code.
const VIEW_BLOCK_BYTES = 16 * 2 ** 20;

/** The encoding table, row-major [positions, dim]. */
function tableOf(options) {
  const p = prepare(options, {
    where: "table()",
    allowed: TABLE_OPTIONS,
    withPreset: TABLE_WITH_PRESET,
  });
  const { positions, view = false } = p.options;
  boolean(view, "view");
  const rows = positionList(positions, p.options.start, {
    min: 0,
    maxCount: 2 ** 32 - 1,
    maxArray: 2 ** 32 - 1,
  });
  let { start } = rows;
  if (p.presetStart !== null) {
    if (rows.values !== null && p.presetStart.value !== 0)
      throw typeError(
        `option "${p.presetStart.key}" applies when "positions" is a count; add it to the explicit positions instead`,
        p.presetStart.key,
        "ERR_NOT_APPLICABLE",
      );
    start = p.presetStart.value;
  }
  const { count, values } = rows;
  const zeroRows = paddingRows(p.padding, count, values);
  const Typed = p.float32 ? Float32Array : Float64Array;
  const bytes = count * p.dim * Typed.BYTES_PER_ELEMENT;
  if (bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `a table of ${count} × ${p.dim} ${DTYPES[p.dtype]} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
      "positions",
      "ERR_SIZE",
    );

  const out = outArray(p.options.out, Typed, count * p.dim, { view });
  const kernel = p.float32 ? kernels.tableF32 : kernels.tableF64;
  return withScratch((scratch) => {
    const { omega, amplitude } = writeFrequencies(p, scratch);
    // The first block checks option "scale" and the output scale before it
    // writes; a view is allocated before it, and no rows have no block, so
    // a call of no rows checks them there.
    if (view || count === 0)
      kernel({ ...p, out: 0, count: 0, omega, amplitude });
    let pointer = 0;
    if (values !== null) {
      pointer = scratch(count * 8, "positions");
      new Float64Array(memoryBuffer(), pointer, count).set(values);
    }
    checkBlockAngles(
      largestFrequency(omega, p.pairs, p.scale),
      values,
      start,
      count,
      "table",
      { scale: p.scale },
    );
    // A view is computed in place, in blocks too: V8 runs a call that
    // started in its baseline tier to the end there, and blocks let a long
    // first call move on to optimised code. A view takes larger blocks (each
    // call sets up its frequencies anew) where the blocks cannot change a
    // value: rows at exact integers, advanced from the same re-seeded rows
    // whatever the block size. Elsewhere (a fractional start, explicit
    // positions) where a block begins can decide which rows the core
    // advances, so a view takes the blocks of a copied result, and the two
    // always hold the same values, bit for bit.
    const rowBytes = p.dim * Typed.BYTES_PER_ELEMENT;
    const integerRows =
      values === null &&
      Number.isSafeInteger(start) &&
      Number.isSafeInteger(start + count - 1);
    const rowsPerBlock =
      view && integerRows
        ? blockRows(count, rowBytes, VIEW_BLOCK_BYTES)
        : blockRows(count, rowBytes);
    const at = view
      ? allocateView(bytes, "the table")
      : scratch(rowsPerBlock * rowBytes, "the table");
    const result = view ? null : (out ?? new Typed(count * p.dim));
    for (let first = 0; first < count; first += rowsPerBlock) {
      const n = Math.min(rowsPerBlock, count - first);
      const data = view ? at + first * rowBytes : at;
      kernel({
        ...p,
        out: data,
        positions: pointer === 0 ? 0 : pointer + first * 8,
        count: n,
        start: start + first,
        omega,
        amplitude,
      });
      if (!view)
        write(
          result,
          new Typed(memoryBuffer(), data, n * p.dim),
          first * p.dim,
        );
    }
    const filled = result ?? new Typed(memoryBuffer(), at, count * p.dim);
    for (const row of zeroRows) zero(filled, row * p.dim, (row + 1) * p.dim);
    return filled;
  });
}
