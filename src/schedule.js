// The frequency schedule options shared by every function: read and
// type-checked here, then written into module memory by the C core, the one
// definition of w_i and of the rules on every value (its status names the
// option, the rule and the value got).
import * as kernels from "./kernels.js";
import {
  integer,
  number,
  numbers,
  oneOf,
  rangeError,
  rejectUnknown,
  readOptions,
  typeError,
} from "./options.js";
import { resolvePreset } from "./presets.js";
import { cachedRopeFrequencies, ropeSpec } from "./rope-scaling.js";
import { cachedFrequencies, scheduleKey } from "./frequency-cache.js";
import { memoryBuffer, withScratch } from "./runtime.js";
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
// and padding row for tables, `options`: the snapshot, preset expanded, and
// for every kernel call `api`, the function's name, and `given`: the values
// the C core's messages quote, defaults filled in.
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
  const given = readOptions(options, null, where, { hints });
  // With a preset, the preset itself refuses what is not its parameter.
  if (given.preset === undefined) rejectUnknown(given, allowed, where, hints);
  const preset =
    given.preset === undefined ? null : expandPreset(given, withPreset);
  const engine = preset === null ? given : preset.engine;
  const p = new Prepared(scheduleOf(engine, oddDim));
  p.layout = oneOf(engine.layout, "layout", LAYOUTS, "interleaved");
  p.scale = engine.scale === undefined ? 1 : number(engine.scale, "scale");
  p.amplitude =
    (preset === null ? 1 : preset.outputScale) *
    (engine.outputScale === undefined
      ? 1
      : number(engine.outputScale, "outputScale"));
  p.dtype = oneOf(engine.dtype, "dtype", DTYPES, dtype);
  p.float32 = DTYPES[p.dtype] === "float32";
  p.preset = preset === null ? null : given.preset;
  p.presetStart = preset === null ? null : preset.start;
  p.padding = preset === null ? null : preset.padding;
  p.options = engine;
  p.api = where.replace("()", "");
  return p;
}

// A call's resolved options, every field present from the start (one
// shape for every call). `given` is the object itself: the values that the
// C core's messages quote are built from it only when a status is an error.
class Prepared {
  constructor(schedule) {
    this.dim = schedule.dim;
    this.oddDim = schedule.oddDim;
    this.pairs = schedule.pairs;
    this.schedule = schedule.schedule;
    this.base = schedule.base;
    this.minTimescale = schedule.minTimescale;
    this.maxTimescale = schedule.maxTimescale;
    this.shift = schedule.shift;
    this.explicit = schedule.explicit;
    this.rope = schedule.rope;
    this.layout = 0;
    this.scale = 1;
    this.amplitude = 1;
    this.dtype = 0;
    this.float32 = true;
    this.preset = null;
    this.presetStart = null;
    this.padding = null;
    this.options = null;
    this.api = "";
    this.given = this;
  }

  // The caller's options with defaults filled in, as messages quote them.
  describe() {
    return {
      ...this.options,
      dim: this.dim,
      base: this.base,
      minTimescale: this.minTimescale,
      maxTimescale: this.maxTimescale,
      shift: this.shift,
      ...this.rope?.given,
      oddDim: ODD_DIMS[this.oddDim],
      schedule: SCHEDULES[this.schedule],
      scale: this.scale,
      outputScale: this.amplitude,
    };
  }
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
  // dim sizes every buffer (pairs frequencies, rows of dim values), so it is
  // checked before any is allocated.
  const dim = integer(options.dim, "dim", 1, MAX_DIM);
  const oddDim = oneOf(options.oddDim, "oddDim", ODD_DIMS, defaultOddDim);
  const pairs =
    Math.floor(dim / 2) +
    (dim % 2 === 1 && ODD_DIMS[oddDim] === "extra-sin" ? 1 : 0);
  const spec = {
    dim,
    oddDim,
    pairs,
    schedule: SCHEDULES.indexOf("paper"),
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
          key,
          "ERR_COMBINATION",
        );
    const explicit = numbers(options.frequencies, "frequencies");
    // They are copied into a buffer of `pairs` numbers.
    if (explicit.length !== pairs)
      throw rangeError(
        `option "frequencies" must have ${pairs} entries for dim ${dim}, got ${explicit.length}`,
        "frequencies",
        "ERR_LENGTH",
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
        key,
        "ERR_NOT_APPLICABLE",
      );
  for (const key of ["base", "minTimescale", "maxTimescale", "shift"])
    if (options[key] !== undefined) spec[key] = number(options[key], key);
  if (options.scaling !== undefined) {
    if (name !== "paper")
      throw typeError(
        `option "scaling" rescales the paper schedule (RoPE's), not schedule "${name}"`,
        "scaling",
        "ERR_NOT_APPLICABLE",
      );
    spec.rope = ropeSpec({ dim, base: spec.base, scaling: options.scaling });
  }
  return spec;
}

// The frequencies of a prepared schedule, JS-owned, computed by the C core
// once per schedule: { omega, attention, warnings }, where attention is the
// attention factor of a RoPE scaling (1 without), which multiplies cos and
// sin.
export function frequenciesOf(prepared) {
  if (prepared.explicit !== null)
    return { omega: prepared.explicit, attention: 1, warnings: [] };
  if (prepared.rope !== null)
    return cachedRopeFrequencies(prepared.rope, prepared.api);
  const p = prepared;
  return cachedFrequencies(
    scheduleKey([
      p.dim,
      p.oddDim,
      p.schedule,
      p.base,
      p.minTimescale,
      p.maxTimescale,
      p.shift,
    ]),
    () =>
      withScratch((scratch) => {
        const out = scratch(p.pairs * 8, "frequencies");
        kernels.frequencies({ ...p, out, count: p.pairs });
        return {
          omega: new Float64Array(memoryBuffer(), out, p.pairs).slice(),
          attention: 1,
          warnings: [],
        };
      }),
  );
}

// The amplitude of every value of a table: the output scale times the
// attention factor. The attention factor is named, not outputScale, when it
// takes a valid output scale out of float32 (the C core names an output
// scale that is out of range by itself).
export function amplitudeOf(prepared, attention) {
  const amplitude = prepared.amplitude * attention;
  if (
    prepared.float32 &&
    Math.abs(prepared.amplitude) <= FLOAT32_MAX &&
    !(Math.abs(amplitude) <= FLOAT32_MAX)
  )
    throw rangeError(
      `the attention factor of option "scaling" (${attention}, from its attentionFactor, mscale or mscaleAllDim) times the output scale ${prepared.amplitude} exceeds float32's largest value ${FLOAT32_MAX}`,
      "scaling",
      "ERR_ATTENTION_OVERFLOW",
    );
  return amplitude;
}

// Writes the frequencies of a prepared schedule into module memory. Returns
// `omega`, their pointer; `attention`, the attention factor; and
// `amplitude`, the output scale times it, the factor of every table value.
export function writeFrequencies(prepared, scratch) {
  const { omega: values, attention } = frequenciesOf(prepared);
  const omega = scratch(prepared.pairs * 8, "frequencies");
  new Float64Array(memoryBuffer(), omega, prepared.pairs).set(values);
  return { omega, attention, amplitude: amplitudeOf(prepared, attention) };
}
