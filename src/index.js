// Public API of sinusoidal-pe. Call `await init()` once; every other function
// is synchronous and computes in the WebAssembly module.
import * as kernels from "./kernels.js";
import { boolean, positionList, rangeError, typeError } from "./options.js";
import { paddingRows } from "./presets.js";
import { deliver, outArray, write, zero } from "./out.js";
import { RESEED } from "sinusoidal-pe-constants";
import {
  allocateView,
  MAX_REQUEST_BYTES,
  memoryBuffer,
  withScratch,
} from "./runtime.js";
import {
  DTYPES,
  largestFrequency,
  prepare,
  SCHEDULE_OPTIONS,
  writeFrequencies,
} from "./schedule.js";

export { init } from "./runtime.js";
export { presets } from "./presets.js";
export { DTYPES, LAYOUTS, MAX_DIM, ODD_DIMS, SCHEDULES } from "./schedule.js";
export {
  dotProducts,
  linearRelationError,
  rope,
  rotate,
  rotationMatrix,
  toeplitzError,
} from "./relation.js";
export { ci, decayComparison, decayIntegral, si, THETAS } from "./decay.js";
export { npyHeader, toNpy } from "./npy.js";
export { toCsv } from "./csv.js";
export {
  ROPE_DTYPES,
  ROPE_LAYOUTS,
  ROPE_TYPES,
  ropeCache,
  ropeFrequencies,
} from "./rope-scaling.js";

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

// Tables that are not views are computed in blocks of rows in module memory,
// each copied out while it is still in cache: no full-size temporary. A block
// is a multiple of the core's re-seeding interval (PE_RESEED rows), so the
// rows are the same, bit for bit, as those of one call over the whole table.
const BLOCK_BYTES = 2 ** 20;

/**
 * The angular frequencies w_i that `table` uses for these options (the angle
 * of pair i at position p is p * scale * w_i).
 */
export function frequencies(options) {
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

/** The encoding table, row-major [positions, dim]. */
export function table(options) {
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
    );

  const out = outArray(p.options.out, Typed, count * p.dim, { view });
  const kernel = p.float32 ? kernels.tableF32 : kernels.tableF64;
  return withScratch((scratch) => {
    const { omega, amplitude } = writeFrequencies(p, scratch);
    let pointer = 0;
    if (values !== null) {
      pointer = scratch(count * 8, "positions");
      new Float64Array(memoryBuffer(), pointer, count).set(values);
    }
    if (view) {
      const at = allocateView(bytes, "the table");
      kernel({
        ...p,
        out: at,
        positions: pointer,
        count,
        start,
        omega,
        amplitude,
      });
      const result = new Typed(memoryBuffer(), at, count * p.dim);
      for (const row of zeroRows)
        result.fill(0, row * p.dim, (row + 1) * p.dim);
      return result;
    }
    const rowBytes = p.dim * Typed.BYTES_PER_ELEMENT;
    const blockRows = Math.min(
      count,
      RESEED * Math.max(1, Math.floor(BLOCK_BYTES / (RESEED * rowBytes))),
    );
    const result = out ?? new Typed(count * p.dim);
    if (count === 0) return result;
    checkAngles(p, omega, values, start, count);
    const data = scratch(blockRows * rowBytes, "the table");
    for (let first = 0; first < count; first += blockRows) {
      const n = Math.min(blockRows, count - first);
      kernel({
        ...p,
        out: data,
        positions: pointer === 0 ? 0 : pointer + first * 8,
        count: n,
        start: start + first,
        omega,
        amplitude,
      });
      write(result, new Typed(memoryBuffer(), data, n * p.dim), first * p.dim);
    }
    for (const row of zeroRows) zero(result, row * p.dim, (row + 1) * p.dim);
    return result;
  });
}

// The core checks every angle of a call before it writes; a table written in
// blocks checks them all before its first block, so an error in a later
// block cannot leave `out` half written. A non-finite frequency is left to
// the first block, which reports it.
function checkAngles(p, omega, values, start, count) {
  const maxFrequency = largestFrequency(p, omega);
  if (!Number.isFinite(maxFrequency)) return;
  for (const position of values ?? [start, start + (count - 1)])
    if (!Number.isFinite(position * maxFrequency))
      throw rangeError(
        `table: positions must be finite, and position × frequency too: ${position} × ${maxFrequency} is not finite`,
      );
}
