// The frequency schedule options shared by every function: validated here,
// then written into module memory by the C core (the one definition of w_i).
import * as kernels from "./kernels.js";
import {
  finiteNumber,
  integer,
  numbers,
  oneOf,
  rangeError,
  rejectUnknown,
  snapshot,
  typeError,
} from "./options.js";
import { resolvePreset } from "./presets.js";
import { ropeSpec, writeRopeFrequencies } from "./rope-scaling.js";
import { memoryBuffer } from "./runtime.js";
import {
  DTYPES,
  LAYOUTS,
  MAX_DIM,
  ODD_DIMS,
  SCHEDULES,
} from "sinusoidal-pe-constants";

export { DTYPES, LAYOUTS, MAX_DIM, ODD_DIMS, SCHEDULES };

const FLOAT32_MAX = 3.4028234663852886e38;

export const SCHEDULE_OPTIONS = [
  "dim",
  "base",
  "schedule",
  "minTimescale",
  "maxTimescale",
  "shift",
  "frequencies",
  "oddDim",
  "scaling",
];

// Reads a public function's options once (a snapshot, so each getter runs
// once) and resolves, in this order, what every function shares: preset →
// schedule → layout → scale → amplitude. Nothing here touches module memory.
// `allowed`: the function's options; `withPreset`: those of them that combine
// with a preset besides dim (the rest come from the preset); `hints`: keys
// that belong to another option, with the message that says which. Returns
// the schedule (fields named as the kernels' parameters: dim, oddDim, pairs,
// schedule, base, ..., explicit frequencies or null), layout, scale,
// amplitude and dtype (indices as the C enums), the preset's first position
// and padding row for tables, and `options`: the snapshot, preset expanded.
export function prepare(
  options,
  {
    where,
    allowed,
    withPreset = [],
    dtype = "float32",
    oddDim = "extra-sin",
    hints = {},
  },
) {
  const given = snapshot(options);
  // With a preset, the preset itself refuses what is not its parameter.
  const known = given.preset === undefined ? allowed : Object.keys(given);
  rejectUnknown(given, [...known, "preset"], where, hints);
  const { engine, outputScale, start, padding } =
    given.preset === undefined
      ? { engine: given, outputScale: 1, start: null, padding: null }
      : expandPreset(given, withPreset);
  const schedule = scheduleOf(engine, oddDim);
  const dtypeIndex = oneOf(engine.dtype, "dtype", DTYPES, dtype);
  return {
    ...schedule,
    layout: oneOf(engine.layout, "layout", LAYOUTS, "interleaved"),
    scale: engine.scale === undefined ? 1 : finiteNumber(engine.scale, "scale"),
    amplitude: amplitudeOf(engine.outputScale, outputScale, dtypeIndex),
    dtype: dtypeIndex,
    float32: DTYPES[dtypeIndex] === "float32",
    presetStart: start,
    padding,
    options: engine,
  };
}

// The preset's engine options, plus the caller's dim and `withPreset` keys;
// every other key goes to the preset as its parameter.
function expandPreset(given, withPreset) {
  const dim = integer(given.dim, "dim", 1, MAX_DIM);
  const own = { dim };
  const parameters = {};
  for (const [key, value] of Object.entries(given))
    if (withPreset.includes(key)) own[key] = value;
    else if (key !== "preset" && key !== "dim") parameters[key] = value;
  const resolved = resolvePreset(given.preset, parameters, dim);
  return { ...resolved, engine: { ...resolved.engine, ...own } };
}

// The frequency schedule: explicit frequencies (read once into a Float64Array),
// a schedule and its parameters, or the paper schedule rescaled by a RoPE
// `scaling` (read once into `rope`, the C core's parameters).
function scheduleOf(options, defaultOddDim) {
  const dim = integer(options.dim, "dim", 1, MAX_DIM);
  const oddDim = oneOf(options.oddDim, "oddDim", ODD_DIMS, defaultOddDim);
  if (dim % 2 === 1 && ODD_DIMS[oddDim] === "error")
    throw rangeError(
      `option "dim" must be even when oddDim is "error", got ${dim}`,
    );
  const pairs =
    Math.floor(dim / 2) +
    (dim % 2 === 1 && ODD_DIMS[oddDim] === "extra-sin" ? 1 : 0);
  const spec = {
    dim,
    oddDim,
    pairs,
    schedule: 0,
    base: 10000,
    minTimescale: 1,
    maxTimescale: 10000,
    shift: 1,
    explicit: null,
    rope: null,
  };
  if (options.frequencies !== undefined) {
    for (const key of [
      "schedule",
      "base",
      "minTimescale",
      "maxTimescale",
      "shift",
      "scaling",
    ])
      if (options[key] !== undefined)
        throw typeError(
          `option "${key}" cannot be combined with explicit "frequencies"`,
        );
    const explicit = numbers(options.frequencies, "frequencies");
    if (explicit.length !== pairs)
      throw rangeError(
        `option "frequencies" must have ${pairs} entries for dim ${dim}, got ${explicit.length}`,
      );
    spec.explicit = explicit;
    return spec;
  }
  spec.schedule = oneOf(options.schedule, "schedule", SCHEDULES, "paper");
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
  if (options.scaling !== undefined) {
    if (name !== "paper")
      throw typeError(
        `option "scaling" rescales the paper schedule (RoPE's), not schedule "${name}"`,
      );
    if (dim % 2 === 1)
      throw rangeError(
        `option "dim" must be even with "scaling" (the rotary dim), got ${dim}`,
      );
    spec.rope = ropeSpec({ dim, base: spec.base, scaling: options.scaling });
  }
  return spec;
}

// Writes the frequencies of a prepared schedule into module memory. Returns
// `omega`, their pointer; `attention`, the attention factor of a RoPE
// scaling (1 without), which multiplies cos and sin; and `amplitude`, the
// output scale times it, the factor of every table value.
export function writeFrequencies(prepared, scratch) {
  if (prepared.rope !== null) {
    const { pointer, attentionFactor } = writeRopeFrequencies(
      prepared.rope,
      scratch,
    );
    const amplitude = prepared.amplitude * attentionFactor;
    // The attention factor multiplies every value: name it, not outputScale,
    // when the product leaves float32.
    if (prepared.float32 && !(Math.abs(amplitude) <= FLOAT32_MAX))
      throw rangeError(
        `the attention factor of option "scaling" (${attentionFactor}, from its attentionFactor, mscale or mscaleAllDim) times the output scale ${prepared.amplitude} exceeds float32's largest value ${FLOAT32_MAX}`,
      );
    return { omega: pointer, attention: attentionFactor, amplitude };
  }
  const omega = scratch(prepared.pairs * 8, "frequencies");
  if (prepared.explicit !== null)
    new Float64Array(memoryBuffer(), omega, prepared.pairs).set(
      prepared.explicit,
    );
  else kernels.frequencies({ ...prepared, out: omega, count: prepared.pairs });
  return { omega, attention: 1, amplitude: prepared.amplitude };
}

// The output scale: the caller's option times a preset's; values up to its
// size must fit the output dtype (index into DTYPES).
function amplitudeOf(option, outputScale, dtype) {
  const amplitude =
    outputScale *
    (option === undefined ? 1 : finiteNumber(option, "outputScale"));
  if (DTYPES[dtype] === "float32" && !(Math.abs(amplitude) <= FLOAT32_MAX))
    throw rangeError(
      `option "outputScale" must stay within ±${FLOAT32_MAX} for float32 output, got ${amplitude}`,
    );
  return amplitude;
}
