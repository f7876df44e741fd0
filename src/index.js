// Public API of sinusoidal-pe. Call `await init()` once; every other function
// is synchronous and computes in the WebAssembly module.
import * as kernels from "./kernels.js";
import { boolean, positionList, rangeError, typeError } from "./options.js";
import { paddingRows } from "./presets.js";
import { allocateView, memoryBuffer, withScratch } from "./runtime.js";
import {
  DTYPES,
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

const TABLE_OPTIONS = [
  ...SCHEDULE_OPTIONS,
  "positions",
  "start",
  "layout",
  "scale",
  "outputScale",
  "dtype",
  "view",
];

const TABLE_WITH_PRESET = ["positions", "dtype", "view"];

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
  return withScratch((scratch) => {
    const pointer = writeFrequencies(p, scratch);
    return new Float64Array(memoryBuffer(), pointer, p.pairs).slice();
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
  const Typed = p.dtype === 0 ? Float32Array : Float64Array;
  const bytes = count * p.dim * Typed.BYTES_PER_ELEMENT;
  if (bytes > 2 ** 32 - 2 ** 20)
    throw rangeError(
      `a table of ${count} × ${p.dim} ${DTYPES[p.dtype]} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
    );

  return withScratch((scratch) => {
    const omega = writeFrequencies(p, scratch);
    let pointer = 0;
    if (values !== null) {
      pointer = scratch(count * 8, "positions");
      new Float64Array(memoryBuffer(), pointer, count).set(values);
    }
    const out = view
      ? allocateView(bytes, "the table")
      : scratch(bytes, "the table");
    const kernel = p.dtype === 0 ? kernels.tableF32 : kernels.tableF64;
    kernel({ ...p, out, positions: pointer, count, start, omega });
    const result = new Typed(memoryBuffer(), out, count * p.dim);
    for (const row of zeroRows) result.fill(0, row * p.dim, (row + 1) * p.dim);
    return view ? result : result.slice();
  });
}
