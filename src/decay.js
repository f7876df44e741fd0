// The decay integral f(x) = ∫₀¹ cos(x·θ(t)) dt of a frequency family θ, which
// the relative-only dot product approximates: Σ_i cos(x·θ_i) ≈ (d/2)·f(x);
// and the cosine and sine integrals Ci and Si. All arithmetic runs in C.
import * as kernels from "./core.js";
import {
  calling,
  grid,
  integer,
  number,
  numberList,
  oneOf,
  rangeError,
  readOptions,
  typeError,
} from "./options.js";
import { deliver, outArray } from "./rows.js";
import { memoryBuffer, withScratch } from "./core.js";
import {
  MAX_COUNT as MAX_POINTS,
  MAX_DIM,
  METHODS,
  ODD_DIMS,
  THETAS,
} from "sinusoidal-pe-constants";

export { THETAS };
const ODD_DIM_ZERO_PAD = ODD_DIMS.indexOf("zero-pad");

// theta, base (exp only, default 10000) and alpha (power only, required),
// type-checked: the C core owns their ranges. `api` and `given` name the
// function and the values for its messages.
function familyOf(options, api) {
  const theta = oneOf(options.theta, "theta", THETAS, "exp", "ERR_THETA");
  const name = THETAS[theta];
  if (options.base !== undefined && name !== "exp")
    throw typeError(
      `option "base" applies only to theta "exp"`,
      "base",
      "ERR_NOT_APPLICABLE",
    );
  if (options.alpha !== undefined && name !== "power")
    throw typeError(
      `option "alpha" applies only to theta "power"`,
      "alpha",
      "ERR_NOT_APPLICABLE",
    );
  const base =
    options.base === undefined ? 10000 : number(options.base, "base");
  let alpha = 1;
  if (name === "power") {
    if (options.alpha === undefined)
      throw typeError(
        `option "alpha" is required for theta "power"`,
        "alpha",
        "ERR_REQUIRED",
      );
    alpha = number(options.alpha, "alpha");
  }
  return { theta, base, alpha, api, given: { ...options, base, alpha } };
}

// Writes the grid's points into module memory; returns the pointer.
function writePoints(points, scratch) {
  const pointer = scratch(points.count * 8, "x");
  const target = new Float64Array(memoryBuffer(), pointer, points.count);
  if (points.values !== null) target.set(points.values);
  else
    for (let j = 0; j < points.count; j++)
      target[j] = points.from + j * points.step;
  return pointer;
}

/**
 * f(x) for each x. `method: "closed-form"` (default) returns a Float64Array
 * (or `out`, filled); `"quadrature"` returns { values, errors }, an
 * independent estimate with a bound on its error per point.
 */
function decayIntegralOf(options) {
  options = readOptions(
    options,
    ["theta", "base", "alpha", "x", "method", "out"],
    "decayIntegral()",
  );
  const family = familyOf(options, "decayIntegral");
  const method = oneOf(options.method, "method", METHODS, "closed-form");
  const quadrature = METHODS[method] === "quadrature";
  const points = grid(options.x, "x", MAX_POINTS);
  const n = points.count;
  if (quadrature && options.out !== undefined)
    throw typeError(
      `option "out" applies to method "closed-form" only (the quadrature returns { values, errors })`,
      "out",
      "ERR_NOT_APPLICABLE",
    );
  const out = outArray(options.out, Float64Array, n);
  return withScratch((scratch) => {
    const x = writePoints(points, scratch);
    const values = scratch(n * 8, "the values");
    if (!quadrature) {
      kernels.decayIntegral({ ...family, x, count: n, out: values });
      return deliver(out, new Float64Array(memoryBuffer(), values, n));
    }
    const errors = scratch(n * 8, "the error estimates");
    kernels.decayIntegralQuadrature({
      ...family,
      x,
      count: n,
      values,
      errors,
    });
    return {
      values: new Float64Array(memoryBuffer(), values, n).slice(),
      errors: new Float64Array(memoryBuffer(), errors, n).slice(),
    };
  });
}

// The options of ci and si: only `out`, for an array x.
function specialOut(options, scalar, where) {
  if (options === undefined) return undefined;
  const given = readOptions(options, ["out"], `${where}()`);
  const { out } = given;
  if (scalar && out !== undefined)
    throw typeError(
      `option "out" applies only when x is an array (${where} of a number returns a number)`,
      "out",
      "ERR_NOT_APPLICABLE",
    );
  return out;
}

// values: a Float64Array of the caller's points, read once.
function special(kernel, values, scalar, given, where) {
  if (values.length > MAX_POINTS)
    throw rangeError(`at most ${MAX_POINTS} points`, "x", "ERR_LENGTH");
  const out = outArray(given, Float64Array, values.length);
  const result = withScratch((scratch) => {
    const x = scratch(values.length * 8, "x");
    new Float64Array(memoryBuffer(), x, values.length).set(values);
    const api = { api: where, given: { x: scalar ? values[0] : values } };
    kernel({ ...api, x, count: values.length, out: x });
    return deliver(out, new Float64Array(memoryBuffer(), x, values.length));
  });
  return scalar ? result[0] : result;
}

/** Cosine integral Ci(x) = −∫ₓ^∞ cos t / t dt, for x > 0. */
function ciOf(x, options) {
  const scalar = typeof x === "number";
  const out = specialOut(options, scalar, "ci");
  return special(kernels.ci, numberList(x, "x"), scalar, out, "ci");
}

/** Sine integral Si(x) = ∫₀ˣ sin t / t dt, for any finite x. */
function siOf(x, options) {
  const scalar = typeof x === "number";
  const out = specialOut(options, scalar, "si");
  return special(kernels.si, numberList(x, "x"), scalar, out, "si");
}

/**
 * The exact finite-d sum beside the integral on the same grid:
 * sum[j] = Σ_i cos(x_j·θ_i), θ_i = θ(2i/d), i < ⌊d/2⌋, and
 * integral[j] = (d/2)·f(x_j). For theta "exp" the θ_i are the paper
 * schedule, so sum equals dotProducts({ dim, base, offsets: x }).
 */
function decayComparisonOf(options) {
  options = readOptions(
    options,
    ["dim", "theta", "base", "alpha", "x"],
    "decayComparison()",
  );
  // dim sizes the frequencies' buffer.
  const dim = integer(options.dim, "dim", 2, MAX_DIM, "ERR_DIM");
  const family = familyOf(options, "decayComparison");
  const points = grid(options.x, "x", MAX_POINTS);
  const n = points.count;
  const h = Math.floor(dim / 2);
  return withScratch((scratch) => {
    const x = writePoints(points, scratch);
    const frequencies = scratch(h * 8, "the frequencies");
    kernels.decayFrequencies({ ...family, dim, out: frequencies, count: h });
    const sum = scratch(n * 8, "the sums");
    kernels.dotProducts({
      api: "decayComparison",
      out: sum,
      offsets: x,
      count: n,
      dim,
      oddDim: ODD_DIM_ZERO_PAD,
      omega: frequencies,
      pairs: h,
      scale: 1,
      amplitude: 1,
    });
    const integral = scratch(n * 8, "the integral");
    kernels.decayIntegral({ ...family, x, count: n, out: integral });
    const f = new Float64Array(memoryBuffer(), integral, n);
    return {
      x: new Float64Array(memoryBuffer(), x, n).slice(),
      sum: new Float64Array(memoryBuffer(), sum, n).slice(),
      integral: f.map((v) => (dim / 2) * v),
    };
  });
}

// The public functions, each naming itself in the errors it raises.
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
