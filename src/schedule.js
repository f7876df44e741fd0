// The frequency schedule options shared by every function: validated here,
// then written into module memory by the C core (the one definition of w_i).
import {
  copyFinite,
  finiteNumber,
  integer,
  isArrayLike,
  oneOf,
  optionsObject,
  rangeError,
  typeError,
} from "./options.js";
import { resolvePreset } from "./presets.js";
import { memoryBuffer, wasm } from "./runtime.js";
import { check } from "./status.js";
import {
  DTYPES,
  LAYOUTS,
  MAX_DIM,
  ODD_DIMS,
  SCHEDULES,
} from "sinusoidal-pe-constants";

export { DTYPES, LAYOUTS, MAX_DIM, ODD_DIMS, SCHEDULES };

export const SCHEDULE_OPTIONS = [
  "dim",
  "base",
  "schedule",
  "minTimescale",
  "maxTimescale",
  "shift",
  "frequencies",
  "oddDim",
];

// A preset is expanded into engine options first; its own parameters are
// checked by resolvePreset.
export function expand(options) {
  optionsObject(options);
  if (options.preset === undefined)
    return { options, outputScale: 1, zeroRows: [] };
  return resolvePreset(options);
}

export function scheduleSpec(options) {
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
export function writeFrequencies(spec, scratch) {
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

// The angle scale (default 1).
export function scaleOf(engine) {
  return engine.scale === undefined ? 1 : finiteNumber(engine.scale, "scale");
}

const FLOAT32_MAX = 3.4028234663852886e38;

// The output scale: a preset's (outputScale) times the caller's option;
// values up to its size must fit the output dtype (index into DTYPES).
export function amplitudeOf(engine, outputScale, dtype = 1) {
  const amplitude =
    outputScale *
    (engine.outputScale === undefined
      ? 1
      : finiteNumber(engine.outputScale, "outputScale"));
  if (DTYPES[dtype] === "float32" && !(Math.abs(amplitude) <= FLOAT32_MAX))
    throw rangeError(
      `option "outputScale" must stay within ±${FLOAT32_MAX} for float32 output, got ${amplitude}`,
    );
  return amplitude;
}
