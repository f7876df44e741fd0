// One named wrapper per function the C core exports, so each long positional
// call is written once. Pointers are byte offsets into module memory; every
// status is turned into an exception by `check`.
import { wasm } from "./runtime.js";
import { check } from "./status.js";

export function frequencies({
  out,
  count,
  schedule,
  dim,
  oddDim,
  base,
  minTimescale,
  maxTimescale,
  shift,
}) {
  check(
    wasm().pe_frequencies(
      schedule,
      dim,
      oddDim,
      base,
      minTimescale,
      maxTimescale,
      shift,
      out,
      count,
    ),
    "frequencies",
  );
}

// positions: a pointer, or 0 for rows at start, start + 1, ...
function tableKernel(name) {
  return ({
    out,
    positions = 0,
    count,
    start = 0,
    dim,
    layout,
    oddDim,
    omega,
    pairs,
    scale,
    amplitude,
  }) =>
    check(
      wasm()[name](
        out,
        positions,
        count,
        start,
        dim,
        layout,
        oddDim,
        omega,
        pairs,
        scale,
        amplitude,
      ),
      "table",
    );
}
export const tableF32 = tableKernel("pe_table_f32");
export const tableF64 = tableKernel("pe_table_f64");

// offsets: a pointer to one per row, or 0 for `offset` on every row.
function rotateKernel(name) {
  return ({
    out,
    input,
    count,
    dim,
    offsets = 0,
    offset = 0,
    layout,
    oddDim,
    omega,
    pairs,
    scale,
  }) =>
    check(
      wasm()[name](
        out,
        input,
        count,
        dim,
        offsets,
        offset,
        layout,
        oddDim,
        omega,
        pairs,
        scale,
      ),
      "rotate",
    );
}
export const rotateF32 = rotateKernel("pe_rotate_f32");
export const rotateF64 = rotateKernel("pe_rotate_f64");

export function ropeF32({
  out,
  input,
  count,
  dim,
  positions = 0,
  position = 0,
  pairing,
  omega,
  pairs,
  scale,
  amplitude,
}) {
  check(
    wasm().pe_rope_f32(
      out,
      input,
      count,
      dim,
      positions,
      position,
      pairing,
      omega,
      pairs,
      scale,
      amplitude,
    ),
    "rope",
  );
}

export function rotationMatrixF64({
  out,
  offset,
  dim,
  layout,
  oddDim,
  omega,
  pairs,
  scale,
}) {
  check(
    wasm().pe_rotation_matrix_f64(
      out,
      offset,
      dim,
      layout,
      oddDim,
      omega,
      pairs,
      scale,
    ),
    "rotationMatrix",
  );
}

// offsets: a pointer, or 0 for from, from + step, ...
export function dotProducts({
  out,
  offsets = 0,
  count,
  from = 0,
  step = 0,
  dim,
  oddDim,
  omega,
  pairs,
  scale,
  amplitude,
}) {
  check(
    wasm().pe_dot_products(
      out,
      offsets,
      count,
      from,
      step,
      dim,
      oddDim,
      omega,
      pairs,
      scale,
      amplitude,
    ),
    "dotProducts",
  );
}

function gramKernel(name) {
  return ({ result, table, count, dim, g, toeplitz }) =>
    check(
      wasm()[name](result, table, count, dim, g, toeplitz ? 1 : 0),
      "toeplitzError",
    );
}
export const gramDeviationF32 = gramKernel("pe_gram_deviation_f32");
export const gramDeviationF64 = gramKernel("pe_gram_deviation_f64");

export function decayIntegral({ theta, base, alpha, x, count, out }) {
  check(
    wasm().pe_decay_integral(theta, base, alpha, x, count, out),
    "decayIntegral",
  );
}

export function decayIntegralQuadrature({
  theta,
  base,
  alpha,
  x,
  count,
  values,
  errors,
}) {
  check(
    wasm().pe_decay_integral_quadrature(
      theta,
      base,
      alpha,
      x,
      count,
      values,
      errors,
    ),
    "decayIntegral",
  );
}

export function decayFrequencies({ theta, base, alpha, dim, out, count }) {
  check(
    wasm().pe_decay_frequencies(theta, base, alpha, dim, out, count),
    "decayComparison",
  );
}

export function ci({ x, count, out }) {
  check(wasm().pe_ci(x, count, out), "ci");
}

export function si({ x, count, out }) {
  check(wasm().pe_si(x, count, out), "si");
}

export function ropeFrequencies({
  type,
  dim,
  base,
  params,
  paramCount,
  factors = 0,
  factorCount = 0,
  out,
  count,
  attention,
}) {
  check(
    wasm().pe_rope_frequencies(
      type,
      dim,
      base,
      params,
      paramCount,
      factors,
      factorCount,
      out,
      count,
      attention,
    ),
    "ropeFrequencies",
  );
}

// positions: a pointer, or 0 for rows at start, start + 1, ...
export function ropeCache({
  cos,
  sin,
  dtype,
  layout,
  positions = 0,
  count,
  start = 0,
  inverseFrequencies,
  pairs,
  attention,
}) {
  check(
    wasm().pe_rope_cache(
      cos,
      sin,
      dtype,
      layout,
      positions,
      count,
      start,
      inverseFrequencies,
      pairs,
      attention,
    ),
    "ropeCache",
  );
}
