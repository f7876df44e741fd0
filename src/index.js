// Public API of sinusoidal-pe. Call `await init()` once; every other function
// is synchronous and computes in the WebAssembly module.
import {
  boolean,
  copyFinite,
  finiteNumber,
  integer,
  isArrayLike,
  oneOf,
  rangeError,
  rejectUnknown,
  typeError,
} from "./options.js";
import { allocateView, memoryBuffer, wasm, withScratch } from "./runtime.js";
import {
  amplitudeOf,
  DTYPES,
  expand,
  LAYOUTS,
  SCHEDULE_OPTIONS,
  scaleOf,
  scheduleSpec,
  writeFrequencies,
} from "./schedule.js";
import { check } from "./status.js";

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
];

/**
 * The angular frequencies w_i that `table` uses for these options (the angle
 * of pair i at position p is p * scale * w_i).
 */
export function frequencies(options) {
  const { options: engine } = expand(options);
  rejectUnknown(engine, TABLE_OPTIONS, "frequencies()");
  const spec = scheduleSpec(engine);
  return withScratch((scratch) => {
    const pointer = writeFrequencies(spec, scratch);
    return new Float64Array(memoryBuffer(), pointer, spec.count).slice();
  });
}

/** The encoding table, row-major [positions, dim]. */
export function table(options) {
  const { options: engine, outputScale, zeroRows } = expand(options);
  rejectUnknown(engine, TABLE_OPTIONS, "table()");
  const spec = scheduleSpec(engine);
  const layout = oneOf(engine.layout ?? "interleaved", "layout", LAYOUTS);
  const dtype = oneOf(engine.dtype ?? "float32", "dtype", DTYPES);
  const view = engine.view === undefined ? false : boolean(engine.view, "view");
  const scale = scaleOf(engine);
  const amplitude = amplitudeOf(engine, outputScale, dtype);

  const positions = engine.positions;
  let count,
    start = 0;
  if (typeof positions === "number") {
    count = integer(positions, "positions", 1, 2 ** 32 - 1);
    if (engine.start !== undefined) start = finiteNumber(engine.start, "start");
  } else if (isArrayLike(positions)) {
    count = positions.length;
    if (engine.start !== undefined)
      throw typeError(
        `option "start" applies only when "positions" is a count`,
      );
  } else {
    throw typeError(
      `option "positions" must be a count (a positive integer) or an array of numbers, got ${positions === undefined ? "nothing" : typeof positions}`,
    );
  }
  const Typed = dtype === 0 ? Float32Array : Float64Array;
  const bytes = count * spec.dim * Typed.BYTES_PER_ELEMENT;
  if (bytes > 2 ** 32 - 2 ** 20)
    throw rangeError(
      `a table of ${count} × ${spec.dim} ${DTYPES[dtype]} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
    );

  return withScratch((scratch) => {
    const omega = writeFrequencies(spec, scratch);
    let positionsPointer = 0;
    if (typeof positions !== "number") {
      positionsPointer = scratch(count * 8, "positions");
      copyFinite(
        positions,
        new Float64Array(memoryBuffer(), positionsPointer, count),
        "positions",
      );
    }
    const out = view
      ? allocateView(bytes, "the table")
      : scratch(bytes, "the table");
    const kernel = dtype === 0 ? wasm().pe_table_f32 : wasm().pe_table_f64;
    check(
      kernel(
        out,
        positionsPointer,
        count,
        start,
        spec.dim,
        layout,
        spec.oddDim,
        omega,
        spec.count,
        scale,
        amplitude,
      ),
      "table",
    );
    const result = new Typed(memoryBuffer(), out, count * spec.dim);
    for (const row of zeroRows)
      result.fill(0, row * spec.dim, (row + 1) * spec.dim);
    return view ? result : result.slice();
  });
}
