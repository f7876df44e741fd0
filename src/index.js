// Public API of sinusoidal-pe. Call `await init()` once; every other function
// is synchronous and computes in the WebAssembly module.
import {
  boolean,
  copyFinite,
  finiteNumber,
  integer,
  isArrayLike,
  oneOf,
  optionsObject,
  rangeError,
  rejectUnknown,
  typeError,
} from "./options.js";
import { resolvePreset } from "./presets.js";
import { allocateView, memoryBuffer, wasm, withScratch } from "./runtime.js";
import { check } from "./status.js";

export { init } from "./runtime.js";
export { presets } from "./presets.js";

export const MAX_DIM = 2 ** 20;
export const LAYOUTS = Object.freeze([
  "interleaved",
  "interleaved-cos-first",
  "halves",
  "halves-cos-first",
]);
export const SCHEDULES = Object.freeze(["paper", "timescale", "shifted"]);
export const ODD_DIMS = Object.freeze(["zero-pad", "extra-sin", "error"]);
export const DTYPES = Object.freeze(["float32", "float64"]);

const SCHEDULE_OPTIONS = [
  "dim",
  "base",
  "schedule",
  "minTimescale",
  "maxTimescale",
  "shift",
  "frequencies",
  "oddDim",
];
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

// A preset is expanded into engine options first; its own parameters are
// checked by resolvePreset.
function expand(options) {
  optionsObject(options);
  if (options.preset === undefined)
    return { options, outputScale: 1, zeroRows: [] };
  return resolvePreset(options);
}

function scheduleSpec(options) {
  const dim = integer(options.dim, "dim", 1, MAX_DIM);
  const oddDim = oneOf(options.oddDim ?? "extra-sin", "oddDim", ODD_DIMS);
  if (dim % 2 === 1 && ODD_DIMS[oddDim] === "error")
    throw rangeError(
      `option "dim" must be even when oddDim is "error", got ${dim}`,
    );
  const count = Math.floor(dim / 2) + (dim % 2 === 1 && oddDim === 1 ? 1 : 0);
  const spec = {
    dim,
    oddDim,
    count,
    schedule: 0,
    base: 10000,
    minTimescale: 1,
    maxTimescale: 10000,
    shift: 1,
    frequencies: null,
  };
  if (options.frequencies !== undefined) {
    for (const key of [
      "schedule",
      "base",
      "minTimescale",
      "maxTimescale",
      "shift",
    ])
      if (options[key] !== undefined)
        throw typeError(
          `option "${key}" cannot be combined with explicit "frequencies"`,
        );
    if (!isArrayLike(options.frequencies))
      throw typeError(`option "frequencies" must be an array of numbers`);
    if (options.frequencies.length !== count)
      throw rangeError(
        `option "frequencies" must have ${count} entries for dim ${dim}, got ${options.frequencies.length}`,
      );
    spec.frequencies = options.frequencies;
    return spec;
  }
  spec.schedule = oneOf(options.schedule ?? "paper", "schedule", SCHEDULES);
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
      );
  if (options.base !== undefined)
    spec.base = finiteNumber(options.base, "base", { above: 1 });
  if (options.minTimescale !== undefined)
    spec.minTimescale = finiteNumber(options.minTimescale, "minTimescale", {
      above: 0,
    });
  if (options.maxTimescale !== undefined)
    spec.maxTimescale = finiteNumber(options.maxTimescale, "maxTimescale", {
      above: 0,
    });
  if (options.shift !== undefined)
    spec.shift = finiteNumber(options.shift, "shift");
  const h = Math.floor(dim / 2);
  if (name === "shifted" && count > 0 && !(h - spec.shift > 0))
    throw rangeError(
      `option "shift" must be below dim / 2 = ${h} for the shifted schedule, got ${spec.shift}`,
    );
  return spec;
}

// Writes the frequencies of spec into module memory; returns the pointer.
function writeFrequencies(spec, scratch) {
  const pointer = scratch(spec.count * 8, "frequencies");
  if (spec.frequencies !== null) {
    copyFinite(
      spec.frequencies,
      new Float64Array(memoryBuffer(), pointer, spec.count),
      "frequencies",
    );
  } else {
    check(
      wasm().pe_frequencies(
        spec.schedule,
        spec.dim,
        spec.oddDim,
        spec.base,
        spec.minTimescale,
        spec.maxTimescale,
        spec.shift,
        pointer,
        spec.count,
      ),
      "frequencies",
    );
  }
  return pointer;
}

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
  const scale =
    engine.scale === undefined ? 1 : finiteNumber(engine.scale, "scale");
  const amplitude =
    outputScale *
    (engine.outputScale === undefined
      ? 1
      : finiteNumber(engine.outputScale, "outputScale"));

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
