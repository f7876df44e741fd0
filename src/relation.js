// The linear relation PE(p + k) = R(k) PE(p) and the relative-only dot
// product <PE(m), PE(n)> = g(m - n). All arithmetic runs in the C core; this
// file validates, copies and checks.
import * as kernels from "./core.js";
import {
  calling,
  grid,
  numberList,
  positionList,
  rangeError,
  typeError,
} from "./options.js";
import { BLOCK_BYTES, inBlocks, turnRows } from "./blocks.js";
import {
  deliver,
  DTYPE_OF_KIND,
  outArray,
  outputOf,
  perRow,
  perRowInput,
  readRows,
  resolveRows,
} from "./rows.js";
import { memoryBuffer, withScratch } from "./core.js";
import { MAX_MATRIX_DIM } from "sinusoidal-pe-constants";
import {
  prepare,
  SCHEDULE_OPTIONS,
  scheduleFrequencies,
  writeFrequencies,
} from "./schedule.js";

const MAX_GRAM_COUNT = 4096;
const MAX_GRAM_ARRAY = 1024;
// linearRelationError compares tables in blocks of at most this many rows.
const RELATION_ROWS = 1024;

const ROTATE_OPTIONS = [...SCHEDULE_OPTIONS, "layout", "scale"];
const ROTATE_KERNELS = {
  float32: kernels.rotateF32,
  float64: kernels.rotateF64,
  float16: kernels.rotateF16,
};

/**
 * Applies R(k), the map with R(k) PE(p) = PE(p + k) in the chosen layout and
 * schedule, to every row of a row-major [rows, dim] array: a Float64Array
 * in float64 (a Float64Array result), anything else in float32.
 */
function rotateOf(vectors, offsets, options) {
  const p = prepare(options, {
    where: "rotate()",
    allowed: [...ROTATE_OPTIONS, "inPlace", "out"],
    withPreset: ["inPlace", "out"],
  });
  const { omega } = scheduleFrequencies(p);
  const input = readRows(vectors, p.options.inPlace);
  const angles = perRowInput(offsets, "offsets");
  const { rows, count, Typed, inPlace } = resolveRows(
    input,
    p.dim,
    p.options.out,
    p.options.inPlace,
  );
  const kernel = ROTATE_KERNELS[DTYPE_OF_KIND[Typed.name]];
  return turnRows({
    rows,
    Typed,
    count,
    dim: p.dim,
    angles: perRow(angles, count, "offsets"),
    width: 1,
    repeat: 1,
    segment: Infinity,
    apart: false,
    name: "offsets",
    api: "rotate",
    out: outputOf(p.options.out, rows, Typed, count, p.dim, inPlace),
    omega,
    streams: null,
    tag: null,
    scale: p.scale,
    // R(k) is a rotation whatever the attention factor: a scaled table
    // keeps PE(p + k) = R(k) PE(p).
    kernel: (chunk) =>
      kernel({
        api: p.api,
        given: p,
        out: chunk.data,
        input: chunk.data,
        count: chunk.count,
        dim: p.dim,
        offsets: chunk.list,
        offset: chunk.one,
        layout: p.layout,
        oddDim: p.oddDim,
        omega: chunk.omega,
        pairs: p.pairs,
        scale: p.scale,
      }),
  });
}

/** The dense dim × dim matrix R(k), row-major, for dim ≤ 1024. */
function rotationMatrixOf(k, options) {
  const p = prepare(options, {
    where: "rotationMatrix()",
    allowed: [...ROTATE_OPTIONS, "out"],
  });
  // The matrix takes dim² doubles of module memory: its bound comes first.
  if (p.dim > MAX_MATRIX_DIM)
    throw rangeError(
      `option "dim" must be at most ${MAX_MATRIX_DIM} for a dense rotation matrix (use rotate for larger dims), got ${p.dim}`,
      "dim",
      "ERR_OUT_OF_RANGE",
    );
  // k is read as each offset is: a finite number (the core's rule on offsets
  // would name "offsets", which rotationMatrix does not take).
  if (typeof k !== "number")
    throw typeError(
      `k must be a number, got ${typeof k}`,
      "k",
      "ERR_NOT_NUMBER",
    );
  if (!Number.isFinite(k))
    throw rangeError(`k must be finite, got ${k}`, "k", "ERR_NOT_FINITE");
  const out = outArray(p.options.out, Float64Array, p.dim * p.dim);
  return withScratch((scratch) => {
    const { omega } = writeFrequencies(p, scratch);
    const matrix = scratch(p.dim * p.dim * 8, "the matrix");
    kernels.rotationMatrixF64({ ...p, out: matrix, offset: k, omega });
    return deliver(out, new Float64Array(memoryBuffer(), matrix, p.dim ** 2));
  });
}

/**
 * The largest |R(k) PE(p) − PE(p + k)| over the given positions and offsets,
 * both sides computed by the library in the chosen dtype.
 */
function linearRelationErrorOf(options) {
  const own = ["positions", "start", "offsets", "dtype"];
  const p = prepare(options, {
    where: "linearRelationError()",
    allowed: [...ROTATE_OPTIONS, "outputScale", ...own],
    withPreset: own,
  });
  const { count, start, values } = positionList(
    p.options.positions,
    p.options.start,
    { min: 1, maxCount: 2 ** 24, maxArray: 2 ** 24 },
  );
  const offsets = numberList(
    p.options.offsets,
    "offsets",
    undefined,
    "ERR_OFFSETS",
  );
  const [Typed, table, rotation] = p.float32
    ? [Float32Array, kernels.tableF32, kernels.rotateF32]
    : [Float64Array, kernels.tableF64, kernels.rotateF64];
  const dim = p.dim;
  const rowsPerChunk = Math.min(
    count,
    RELATION_ROWS,
    Math.max(1, Math.floor(BLOCK_BYTES / (Typed.BYTES_PER_ELEMENT * dim))),
  );
  const worst = { maxAbsError: 0, position: 0, offset: offsets[0], index: 0 };
  const here = new Float64Array(rowsPerChunk);
  const there = new Float64Array(rowsPerChunk);
  withScratch((scratch) => {
    const { omega, amplitude } = writeFrequencies(p, scratch);
    const bytes = rowsPerChunk * dim * Typed.BYTES_PER_ELEMENT;
    const rotated = scratch(bytes, "rotated rows");
    const shifted = scratch(bytes, "shifted rows");
    const positions = scratch(rowsPerChunk * 8, "positions");
    for (const [first, n] of inBlocks(count, rowsPerChunk)) {
      for (let j = 0; j < n; j++)
        here[j] = values === null ? start + (first + j) : values[first + j];
      for (const k of offsets) {
        for (let j = 0; j < n; j++) there[j] = here[j] + k;
        const rowsAt = (out, at) => {
          new Float64Array(memoryBuffer(), positions, n).set(at.subarray(0, n));
          table({ ...p, out, positions, count: n, omega, amplitude });
        };
        rowsAt(rotated, here);
        rotation({
          ...p,
          out: rotated,
          input: rotated,
          count: n,
          offset: k,
          omega,
        });
        rowsAt(shifted, there);
        const a = new Typed(memoryBuffer(), rotated, n * dim);
        const b = new Typed(memoryBuffer(), shifted, n * dim);
        for (let e = 0; e < n * dim; e++) {
          const error = Math.abs(a[e] - b[e]);
          if (!(error <= worst.maxAbsError)) {
            worst.maxAbsError = Number.isNaN(error) ? Infinity : error;
            worst.position = here[Math.floor(e / dim)];
            worst.offset = k;
            worst.index = e % dim;
          }
        }
      }
    }
  });
  return worst;
}

/**
 * g(k) = <PE(0), PE(k)> = Σ_i cos(k · scale · w_i) (times outputScale²) at
 * each offset: an array, or { from, to, count } evenly spaced.
 */
function dotProductsOf(options) {
  const p = prepare(options, {
    where: "dotProducts()",
    allowed: [...ROTATE_OPTIONS, "outputScale", "offsets", "out"],
    withPreset: ["offsets", "out"],
    dtype: "float64",
  });
  const { count, from, step, values } = grid(
    p.options.offsets,
    "offsets",
    undefined,
    "ERR_OFFSETS",
  );
  const result = outArray(p.options.out, Float64Array, count);
  return withScratch((scratch) => {
    const { omega, amplitude } = writeFrequencies(p, scratch);
    const out = scratch(count * 8, "the dot products");
    let offsets = 0;
    if (values !== null) {
      offsets = scratch(count * 8, "offsets");
      new Float64Array(memoryBuffer(), offsets, count).set(values);
    }
    kernels.dotProducts({
      ...p,
      out,
      offsets,
      count,
      from,
      step,
      omega,
      amplitude,
    });
    return deliver(result, new Float64Array(memoryBuffer(), out, count));
  });
}

/**
 * The largest |<PE(m), PE(n)> − g(m − n)| over every pair of the given
 * positions: the Gram matrix of the table against the relative-only dot
 * product.
 */
function toeplitzErrorOf(options) {
  const own = ["positions", "start", "dtype"];
  const p = prepare(options, {
    where: "toeplitzError()",
    allowed: [...ROTATE_OPTIONS, "outputScale", ...own],
    withPreset: own,
    dtype: "float64",
  });
  const { count, start, values } = positionList(
    p.options.positions,
    p.options.start,
    { min: 1, maxCount: MAX_GRAM_COUNT, maxArray: MAX_GRAM_ARRAY },
  );
  const dim = p.dim;
  const [size, tableKernel, gramKernel] = p.float32
    ? [4, kernels.tableF32, kernels.gramDeviationF32]
    : [8, kernels.tableF64, kernels.gramDeviationF64];
  // Evenly spaced rows need g at the 2 count - 1 differences only.
  const toeplitz = values === null;
  const gCount = toeplitz ? 2 * count - 1 : count * count;
  return withScratch((scratch) => {
    const { omega, amplitude } = writeFrequencies(p, scratch);
    const table = scratch(count * dim * size, "the table");
    let positions = 0;
    if (values !== null) {
      positions = scratch(count * 8, "positions");
      new Float64Array(memoryBuffer(), positions, count).set(values);
    }
    tableKernel({
      ...p,
      out: table,
      positions,
      count,
      start,
      omega,
      amplitude,
    });
    const g = scratch(gCount * 8, "dot products");
    let differences = 0;
    if (!toeplitz) {
      differences = scratch(gCount * 8, "offsets");
      const d = new Float64Array(memoryBuffer(), differences, gCount);
      for (let a = 0; a < count; a++)
        for (let b = 0; b < count; b++)
          d[a * count + b] = values[a] - values[b];
    }
    kernels.dotProducts({
      ...p,
      out: g,
      offsets: differences,
      count: gCount,
      from: -(count - 1),
      step: 1,
      omega,
      amplitude,
    });
    const result = scratch(24, "the result");
    gramKernel({ api: p.api, result, table, count, dim, g, toeplitz });
    const [maxAbsError, a, b] = new Float64Array(memoryBuffer(), result, 3);
    const at = (row) => (values === null ? start + row : values[row]);
    return { maxAbsError, m: at(a), n: at(b) };
  });
}

// The public functions, each naming itself in the errors it raises.
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
