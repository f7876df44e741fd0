// The linear relation PE(p + k) = R(k) PE(p), rotary position embedding
// (RoPE) and the relative-only dot product <PE(m), PE(n)> = g(m - n). All
// arithmetic runs in the C core; this file validates, copies and checks.
import {
  boolean,
  copyFinite,
  finiteNumber,
  grid,
  integer,
  isArrayLike,
  numberList,
  oneOf,
  optionsObject,
  rangeError,
  rejectDetached,
  rejectUnknown,
  typeError,
} from "./options.js";
import { memoryBuffer, wasm, withScratch } from "./runtime.js";
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
import { MAX_DIM, MAX_MATRIX_DIM, PAIRINGS } from "sinusoidal-pe-constants";

const MAX_GRAM_COUNT = 4096;
const MAX_GRAM_ARRAY = 1024;
// Rows are rotated in chunks of about 1 MiB so each chunk is copied in,
// rotated and copied out while it is still in cache.
const CHUNK_BYTES = 2 ** 20;
const RELATION_ROWS = 1024;

const ROTATE_OPTIONS = [...SCHEDULE_OPTIONS, "layout", "scale"];
// rope takes no odd-dim rule: its dim must be even.
const ROPE_OPTIONS = [
  ...SCHEDULE_OPTIONS.filter((key) => key !== "oddDim"),
  "pairing",
  "scale",
  "inPlace",
];

// Resolves a preset (if any) into engine options. Keys in `own` belong to
// the calling function and bypass the preset's parameter check. A preset's
// position offset (startIndex, pastKeyValuesLength, paddingIdx) plays no
// part: every result here depends on the positions the caller gives.
function resolve(options, allowed, own, where) {
  optionsObject(options);
  if (options.preset === undefined) {
    rejectUnknown(options, [...allowed, ...own], where);
    return { engine: options, outputScale: 1 };
  }
  const presetOptions = { positions: 1 };
  for (const key of Object.keys(options))
    if (!own.includes(key)) presetOptions[key] = options[key];
  const { options: resolved, outputScale } = expand(presetOptions);
  const engine = {};
  for (const [key, value] of Object.entries(resolved))
    if (!["positions", "start", "dtype", "view"].includes(key))
      engine[key] = value;
  for (const key of own)
    if (options[key] !== undefined) engine[key] = options[key];
  return { engine, outputScale };
}

// The schedule of R(k): every column needs a partner, so an odd dim is
// allowed only with a zero column (which R leaves at zero).
function relationSpec(engine) {
  const spec = scheduleSpec(engine);
  if (spec.dim % 2 === 1 && spec.oddDim !== 0)
    throw rangeError(
      `option "dim" is odd (${spec.dim}) and oddDim is "extra-sin": its last sin column has no cos partner, so no linear map takes PE(p) to PE(p + k); use an even dim or oddDim "zero-pad"`,
    );
  return spec;
}

// Float32 rows in `vectors`: count = length / dim.
function rowsOf(vectors, dim, inPlace) {
  rejectDetached(vectors, "vectors");
  if (inPlace && !(vectors instanceof Float32Array))
    throw typeError(
      `vectors must be a Float32Array when "inPlace" is true, got ${vectors?.constructor?.name ?? typeof vectors}`,
    );
  if (!isArrayLike(vectors) || typeof vectors === "string")
    throw typeError(
      "vectors must be a Float32Array (or an array of numbers) of rows × dim values",
    );
  if (ArrayBuffer.isView(vectors) && typeof vectors[0] === "bigint")
    throw typeError("vectors must hold numbers, got a BigInt array");
  if (vectors.length % dim !== 0)
    throw rangeError(
      `vectors has ${vectors.length} values, which is not a multiple of dim ${dim} (rows must be row-major [rows, dim])`,
    );
  if (!ArrayBuffer.isView(vectors))
    for (let i = 0; i < vectors.length; i++)
      if (typeof vectors[i] !== "number")
        throw typeError(
          `vectors[${i}] must be a number, got ${typeof vectors[i]}`,
        );
  return vectors.length / dim;
}

// One finite number for every row, or an array of one per row.
function perRow(values, count, name) {
  if (typeof values === "number") {
    if (!Number.isFinite(values))
      throw rangeError(`${name} must be finite, got ${values}`);
    return values;
  }
  if (!isArrayLike(values) || typeof values === "string")
    throw typeError(
      `${name} must be a finite number or an array of ${count} numbers (one per row), got ${values === null ? "null" : typeof values}`,
    );
  if (values.length !== count)
    throw rangeError(
      `${name} must have one entry per row: ${count} rows, got ${values.length}`,
    );
  return values;
}

// Runs kernel(pointer, rows, anglesPointer, angle) over chunks of the rows,
// in place in module memory, and returns the result as a new Float32Array
// or written back into `vectors`. Every angle is checked first, so an error
// leaves `vectors` untouched even in place.
function rotateRows(
  vectors,
  dim,
  count,
  angles,
  name,
  inPlace,
  frequencies,
  kernel,
) {
  const all =
    typeof angles === "number"
      ? null
      : copyFinite(angles, new Float64Array(count), name);
  const { pointer, count: n, scale } = frequencies;
  let maxFrequency = 0;
  for (const w of new Float64Array(memoryBuffer(), pointer, n))
    maxFrequency = Math.max(maxFrequency, Math.abs(scale * w));
  for (const angle of all ?? [angles])
    if (!Number.isFinite(angle * maxFrequency))
      throw rangeError(
        `${name}: ${angle} × the largest frequency ${maxFrequency} is not a finite angle`,
      );
  const result = inPlace ? vectors : new Float32Array(count * dim);
  if (count === 0) return result;
  const chunk = Math.max(1, Math.floor(CHUNK_BYTES / (4 * dim)));
  return withScratch((scratch) => {
    const rows = Math.min(chunk, count);
    const data = scratch(rows * dim * 4, "the rows");
    const anglesPointer = all === null ? 0 : scratch(rows * 8, name);
    for (let start = 0; start < count; start += chunk) {
      const n = Math.min(chunk, count - start);
      const view = new Float32Array(memoryBuffer(), data, n * dim);
      const source = ArrayBuffer.isView(vectors)
        ? vectors.subarray(start * dim, (start + n) * dim)
        : Array.prototype.slice.call(vectors, start * dim, (start + n) * dim);
      view.set(source);
      if (all !== null)
        new Float64Array(memoryBuffer(), anglesPointer, n).set(
          all.subarray(start, start + n),
        );
      kernel(data, n, anglesPointer, all === null ? angles : 0);
      result.set(new Float32Array(memoryBuffer(), data, n * dim), start * dim);
    }
    return result;
  });
}

/**
 * Applies R(k), the map with R(k) PE(p) = PE(p + k) in the chosen layout and
 * schedule, to every row of a row-major [rows, dim] Float32Array.
 */
export function rotate(vectors, offsets, options) {
  const { engine } = resolve(options, ROTATE_OPTIONS, ["inPlace"], "rotate()");
  const spec = relationSpec(engine);
  const layout = oneOf(engine.layout ?? "interleaved", "layout", LAYOUTS);
  const scale = scaleOf(engine);
  const inPlace =
    engine.inPlace === undefined ? false : boolean(engine.inPlace, "inPlace");
  const count = rowsOf(vectors, spec.dim, inPlace);
  const k = perRow(offsets, count, "offsets");
  return withScratch((scratch) => {
    const omega = writeFrequencies(spec, scratch);
    return rotateRows(
      vectors,
      spec.dim,
      count,
      k,
      "offsets",
      inPlace,
      { pointer: omega, count: spec.count, scale },
      (d, n, p, x) =>
        check(
          wasm().pe_rotate_f32(
            d,
            d,
            n,
            spec.dim,
            p,
            x,
            layout,
            spec.oddDim,
            omega,
            spec.count,
            scale,
          ),
          "rotate",
        ),
    );
  });
}

/**
 * Rotary position embedding: each pair of a row is rotated by
 * +position · scale · w_i, as HF Llama (pairing "halves") or GPT-J
 * (pairing "interleaved") compute it.
 */
export function rope(vectors, positions, options) {
  optionsObject(options);
  rejectUnknown(options, ROPE_OPTIONS, "rope()");
  const dim = integer(options.dim, "dim", 1, MAX_DIM);
  if (dim % 2 === 1)
    throw rangeError(
      `option "dim" must be even for rope (pairs of columns are rotated), got ${dim}`,
    );
  const spec = scheduleSpec({ ...options, oddDim: "zero-pad" });
  const pairing = oneOf(options.pairing ?? "halves", "pairing", PAIRINGS);
  const scale = scaleOf(options);
  const inPlace =
    options.inPlace === undefined ? false : boolean(options.inPlace, "inPlace");
  const count = rowsOf(vectors, dim, inPlace);
  const p = perRow(positions, count, "positions");
  return withScratch((scratch) => {
    const omega = writeFrequencies(spec, scratch);
    return rotateRows(
      vectors,
      dim,
      count,
      p,
      "positions",
      inPlace,
      { pointer: omega, count: spec.count, scale },
      (d, n, a, x) =>
        check(
          wasm().pe_rope_f32(
            d,
            d,
            n,
            dim,
            a,
            x,
            pairing,
            omega,
            spec.count,
            scale,
          ),
          "rope",
        ),
    );
  });
}

/** The dense dim × dim matrix R(k), row-major, for dim ≤ 1024. */
export function rotationMatrix(k, options) {
  const { engine } = resolve(options, ROTATE_OPTIONS, [], "rotationMatrix()");
  const dim = integer(engine.dim, "dim", 1, MAX_DIM);
  if (dim > MAX_MATRIX_DIM)
    throw rangeError(
      `option "dim" must be at most ${MAX_MATRIX_DIM} for a dense rotation matrix (use rotate for larger dims), got ${dim}`,
    );
  const spec = relationSpec(engine);
  const layout = oneOf(engine.layout ?? "interleaved", "layout", LAYOUTS);
  const scale = scaleOf(engine);
  if (typeof k !== "number")
    throw typeError(`k must be a number, got ${typeof k}`);
  if (!Number.isFinite(k)) throw rangeError(`k must be finite, got ${k}`);
  return withScratch((scratch) => {
    const omega = writeFrequencies(spec, scratch);
    const out = scratch(dim * dim * 8, "the matrix");
    check(
      wasm().pe_rotation_matrix_f64(
        out,
        k,
        dim,
        layout,
        spec.oddDim,
        omega,
        spec.count,
        scale,
      ),
      "rotationMatrix",
    );
    return new Float64Array(memoryBuffer(), out, dim * dim).slice();
  });
}

// positions: a count (rows start, start + 1, ...) or an array.
function positionList(engine, maxCount, maxArray) {
  const { positions } = engine;
  if (typeof positions === "number") {
    const count = integer(positions, "positions", 1, maxCount);
    const start =
      engine.start === undefined ? 0 : finiteNumber(engine.start, "start");
    return { count, start, values: null };
  }
  if (!isArrayLike(positions) || typeof positions === "string")
    throw typeError(
      `option "positions" must be a count (a positive integer) or an array of numbers, got ${positions === undefined ? "nothing" : typeof positions}`,
    );
  if (engine.start !== undefined)
    throw typeError(`option "start" applies only when "positions" is a count`);
  if (positions.length < 1 || positions.length > maxArray)
    throw rangeError(
      `option "positions" must hold 1 to ${maxArray} numbers, got ${positions.length}`,
    );
  const values = copyFinite(
    positions,
    new Float64Array(positions.length),
    "positions",
  );
  return { count: values.length, start: 0, values };
}

/**
 * The largest |R(k) PE(p) − PE(p + k)| over the given positions and offsets,
 * both sides computed by the library in the chosen dtype.
 */
export function linearRelationError(options) {
  const { engine, outputScale } = resolve(
    options,
    [...ROTATE_OPTIONS, "outputScale"],
    ["positions", "start", "offsets", "dtype"],
    "linearRelationError()",
  );
  const spec = relationSpec(engine);
  const layout = oneOf(engine.layout ?? "interleaved", "layout", LAYOUTS);
  const scale = scaleOf(engine);
  const dtype = oneOf(engine.dtype ?? "float32", "dtype", DTYPES);
  const amplitude = amplitudeOf(engine, outputScale, dtype);
  const { count, start, values } = positionList(engine, 2 ** 24, 2 ** 24);
  const offsets = numberList(engine.offsets, "offsets");
  const Typed = dtype === 0 ? Float32Array : Float64Array;
  const [table, rotation] =
    dtype === 0
      ? [wasm().pe_table_f32, wasm().pe_rotate_f32]
      : [wasm().pe_table_f64, wasm().pe_rotate_f64];
  const dim = spec.dim;
  const rowsPerChunk = Math.min(
    count,
    RELATION_ROWS,
    Math.max(1, Math.floor(CHUNK_BYTES / (Typed.BYTES_PER_ELEMENT * dim))),
  );
  const worst = { maxAbsError: 0, position: 0, offset: offsets[0], index: 0 };
  withScratch((scratch) => {
    const omega = writeFrequencies(spec, scratch);
    const bytes = rowsPerChunk * dim * Typed.BYTES_PER_ELEMENT;
    const rotated = scratch(bytes, "rotated rows");
    const shifted = scratch(bytes, "shifted rows");
    const here = scratch(rowsPerChunk * 8, "positions");
    const there = scratch(rowsPerChunk * 8, "positions");
    for (let first = 0; first < count; first += rowsPerChunk) {
      const n = Math.min(rowsPerChunk, count - first);
      const p = new Float64Array(memoryBuffer(), here, n);
      for (let j = 0; j < n; j++)
        p[j] = values === null ? start + (first + j) : values[first + j];
      for (const k of offsets) {
        const shiftedPositions = new Float64Array(memoryBuffer(), there, n);
        for (let j = 0; j < n; j++) shiftedPositions[j] = p[j] + k;
        const args = [dim, layout, spec.oddDim, omega, spec.count, scale];
        check(table(rotated, here, n, 0, ...args, amplitude), "table");
        check(
          rotation(
            rotated,
            rotated,
            n,
            dim,
            0,
            k,
            layout,
            spec.oddDim,
            omega,
            spec.count,
            scale,
          ),
          "rotate",
        );
        check(table(shifted, there, n, 0, ...args, amplitude), "table");
        const a = new Typed(memoryBuffer(), rotated, n * dim);
        const b = new Typed(memoryBuffer(), shifted, n * dim);
        const positions = new Float64Array(memoryBuffer(), here, n);
        for (let e = 0; e < n * dim; e++) {
          const error = Math.abs(a[e] - b[e]);
          if (!(error <= worst.maxAbsError)) {
            worst.maxAbsError = Number.isNaN(error) ? Infinity : error;
            worst.position = positions[Math.floor(e / dim)];
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
export function dotProducts(options) {
  const { engine, outputScale } = resolve(
    options,
    [...SCHEDULE_OPTIONS, "layout", "scale", "outputScale"],
    ["offsets"],
    "dotProducts()",
  );
  const spec = scheduleSpec(engine);
  if (engine.layout !== undefined) oneOf(engine.layout, "layout", LAYOUTS);
  const scale = scaleOf(engine);
  const amplitude = amplitudeOf(engine, outputScale);
  const { count, from, step, values } = grid(engine.offsets, "offsets");
  return withScratch((scratch) => {
    const omega = writeFrequencies(spec, scratch);
    const out = scratch(count * 8, "the dot products");
    let pointer = 0;
    if (values !== null) {
      pointer = scratch(count * 8, "offsets");
      new Float64Array(memoryBuffer(), pointer, count).set(values);
    }
    check(
      wasm().pe_dot_products(
        out,
        pointer,
        count,
        from,
        step,
        spec.dim,
        spec.oddDim,
        omega,
        spec.count,
        scale,
        amplitude,
      ),
      "dotProducts",
    );
    return new Float64Array(memoryBuffer(), out, count).slice();
  });
}

/**
 * The largest |<PE(m), PE(n)> − g(m − n)| over every pair of the given
 * positions: the Gram matrix of the table against the relative-only dot
 * product.
 */
export function toeplitzError(options) {
  const { engine, outputScale } = resolve(
    options,
    [...SCHEDULE_OPTIONS, "layout", "scale", "outputScale"],
    ["positions", "start", "dtype"],
    "toeplitzError()",
  );
  const spec = scheduleSpec(engine);
  const layout = oneOf(engine.layout ?? "interleaved", "layout", LAYOUTS);
  const scale = scaleOf(engine);
  const dtype = oneOf(engine.dtype ?? "float64", "dtype", DTYPES);
  const amplitude = amplitudeOf(engine, outputScale, dtype);
  const { count, start, values } = positionList(
    engine,
    MAX_GRAM_COUNT,
    MAX_GRAM_ARRAY,
  );
  const dim = spec.dim;
  const size = dtype === 0 ? 4 : 8;
  return withScratch((scratch) => {
    const omega = writeFrequencies(spec, scratch);
    const table = scratch(count * dim * size, "the table");
    let positions = 0;
    if (values !== null) {
      positions = scratch(count * 8, "positions");
      new Float64Array(memoryBuffer(), positions, count).set(values);
    }
    check(
      (dtype === 0 ? wasm().pe_table_f32 : wasm().pe_table_f64)(
        table,
        positions,
        count,
        start,
        dim,
        layout,
        spec.oddDim,
        omega,
        spec.count,
        scale,
        amplitude,
      ),
      "table",
    );
    // Evenly spaced rows need g at the 2 count - 1 differences only.
    const toeplitz = values === null ? 1 : 0;
    const gCount = toeplitz ? 2 * count - 1 : count * count;
    const g = scratch(gCount * 8, "dot products");
    let differences = 0;
    if (!toeplitz) {
      differences = scratch(gCount * 8, "offsets");
      const d = new Float64Array(memoryBuffer(), differences, gCount);
      for (let a = 0; a < count; a++)
        for (let b = 0; b < count; b++)
          d[a * count + b] = values[a] - values[b];
    }
    check(
      wasm().pe_dot_products(
        g,
        differences,
        gCount,
        -(count - 1),
        1,
        dim,
        spec.oddDim,
        omega,
        spec.count,
        scale,
        amplitude,
      ),
      "dot products",
    );
    const result = scratch(24, "the result");
    check(
      (dtype === 0
        ? wasm().pe_gram_deviation_f32
        : wasm().pe_gram_deviation_f64)(result, table, count, dim, g, toeplitz),
      "toeplitzError",
    );
    const [maxAbsError, a, b] = new Float64Array(memoryBuffer(), result, 3);
    const at = (row) => (values === null ? start + row : values[row]);
    return { maxAbsError, m: at(a), n: at(b) };
  });
}
