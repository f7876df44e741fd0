// Rows of a caller's array turned by the C core (R(k) for `rotate`, RoPE for
// `rope`): read once, copied through module memory in chunks, written to
// the result. The arithmetic is the core's; this file reads, checks and
// copies.
import {
  arrayLength,
  boolean,
  numbers,
  rangeError,
  rowValues,
  show,
  typeError,
} from "./options.js";
import { checkAngles, inBlocks } from "./blocks.js";
import { aliasing, outArray, write } from "./out.js";
import { memoryBuffer, withScratch } from "./runtime.js";
import {
  bufferOf,
  CONSTRUCTORS,
  copyOf,
  kindOf,
  section,
} from "./typed-arrays.js";

// Rows are turned in chunks of about 1 MiB so each chunk is copied in,
// turned and copied out while it is still in cache.
const CHUNK_BYTES = 2 ** 20;

/**
 * The element types rows are read and written in, with the core's dtype of
 * each: float16 is IEEE half bits, in a Uint16Array or a Float16Array.
 */
export const DTYPE_OF_KIND = {
  Float32Array: "float32",
  Float64Array: "float64",
  Uint16Array: "float16",
  Float16Array: "float16",
};
const ROW_KINDS = Object.keys(DTYPE_OF_KIND).filter(
  (kind) => kind in CONSTRUCTORS,
);
const ROW_NAMES = ROW_KINDS.join(" or ");

/**
 * The rows of a row-major array, read once: a typed array of the caller's
 * is kept as it is (its elements run no code, and it is checked only after
 * every input was read); a plain array-like is copied into a new
 * Float32Array here, its elements read once each. `inPlace` is the
 * documented shorthand for `out: vectors`, which needs a typed array of the
 * caller's.
 */
export function readRows(vectors, inPlace) {
  if (inPlace !== undefined) boolean(inPlace, "inPlace");
  const kind = kindOf(vectors);
  if (kind !== undefined) return { vectors, kind, values: null };
  if (inPlace)
    throw typeError(
      `vectors must be a ${ROW_NAMES} when "inPlace" is true, got ${show(vectors)}`,
      "vectors",
      "ERR_TYPE",
    );
  const length = arrayLength(vectors, "vectors");
  if (length === null)
    throw typeError(
      `vectors must be a ${ROW_NAMES} (or an array of numbers) of rows × dim values, got ${show(vectors)}`,
      "vectors",
      "ERR_TYPE",
    );
  return {
    vectors,
    kind: undefined,
    values: rowValues(vectors, length, Float32Array, "vectors"),
  };
}

/**
 * The rows that readRows read, checked against `dim` through the
 * typed-array intrinsics: a typed array of the caller's of one of ROW_KINDS
 * is used as it is, unless it views the module's memory, which the call may
 * move. Returns the rows, their count, their constructor and inPlace.
 */
export function resolveRows({ vectors, kind, values }, dim, { out, inPlace }) {
  inPlace ??= false;
  if (inPlace && out !== undefined)
    throw typeError(
      `option "out" cannot be combined with "inPlace: true"; pass out: vectors to rotate in place`,
      "out",
      "ERR_COMBINATION",
    );
  const native = ROW_KINDS.includes(kind);
  if (inPlace && !native)
    throw typeError(
      `vectors must be a ${ROW_NAMES} when "inPlace" is true, got ${kind}`,
      "vectors",
      "ERR_TYPE",
    );
  // Integer arrays are refused: a Uint16Array is read as float16 bits, so
  // another integer array is more likely a mistake than data.
  if (kind !== undefined && !native)
    throw typeError(
      `vectors must be a ${ROW_NAMES} or an array of numbers, got a ${kind}`,
      "vectors",
      "ERR_TYPE",
    );
  const length =
    values === null ? arrayLength(vectors, "vectors") : values.length;
  if (length % dim !== 0)
    throw rangeError(
      `vectors has ${length} values, which is not a multiple of dim ${dim} (rows must be row-major [rows, dim])`,
      "vectors",
      "ERR_LENGTH",
    );
  const Typed = CONSTRUCTORS[native ? kind : "Float32Array"];
  const inModule = native && bufferOf(vectors) === memoryBuffer();
  if (inPlace && inModule)
    throw typeError(
      `vectors is a view of the module's memory, which the call may move; "inPlace" needs an array of your own (view.slice())`,
      "vectors",
      "ERR_MODULE_MEMORY",
    );
  const rows = values ?? (inModule ? copyOf(vectors) : vectors);
  return { rows, count: length / dim, Typed, inPlace };
}

/**
 * One finite number for every row, or an array of numbers (int64 ones
 * included), read once; its length is checked by perRow.
 */
export function perRowInput(values, name) {
  if (typeof values === "number") {
    if (!Number.isFinite(values))
      throw rangeError(
        `${name} must be finite, got ${values}`,
        name,
        "ERR_NOT_FINITE",
      );
    return values;
  }
  if (values === null || typeof values !== "object")
    throw typeError(
      `${name} must be a finite number or an array of numbers (one per row), got ${values === null ? "null" : typeof values}`,
      name,
      "ERR_TYPE",
    );
  return numbers(values, name, { bigints: true });
}

/** perRowInput's value checked to give one angle for each of `count` rows. */
export function perRow(values, count, name) {
  if (typeof values === "number") return values;
  if (values.length !== count)
    throw rangeError(
      `${name} must have one entry per row: ${count} rows, got ${values.length}`,
      name,
      "ERR_LENGTH",
    );
  return values;
}

/**
 * Where turned rows go: `rows` itself when inPlace (as resolveRows resolved
 * it), the caller's `out` (which may be the input itself, the same as
 * inPlace), or null for a new array. Checked after every input was read.
 */
export function outputOf(out, rows, Typed, count, dim, inPlace) {
  if (inPlace) return rows;
  const array = outArray(out, Typed, count * dim);
  if (array !== null) aliasing(array, rows);
  return array;
}

/**
 * Turns `rows` (`count` rows of `dim` values of `Typed`) in chunks in module
 * memory with kernel(chunk), chunk = { data, count, repeat, span, list,
 * one, omega, streams }: `data` the chunk's rows, turned in place; `omega`
 * the frequencies (written from the JS-owned `omega`); `streams` what
 * setup(scratch) returned. Rows come in groups of `repeat` rows that share
 * an angle: `angles` is one number for every row, or a Float64Array of
 * `width` per group (M-RoPE's t, h and w: width 3). The angle sequence
 * restarts every `segment` groups (a new sequence of a tensor), and each
 * kernel call stays within one, where evenly spaced angles take the core's
 * recurrence. With `apart` (a batch × heads × seq tensor) the rows of a
 * group are `segment` rows apart in `rows`: a chunk gathers the same
 * tokens of every head, so the core computes each token's angles once.
 * `list` points to the chunk's angles or is 0, `one` is the angle of every
 * row. Returns `out`, or a new array of the same type. The core checks
 * every angle before the first chunk, so an error leaves `rows` and `out`
 * untouched.
 */
export function turnRows({
  rows,
  Typed,
  count,
  dim,
  angles,
  repeat = 1,
  width = 1,
  segment = Infinity,
  apart = false,
  name,
  api,
  out,
  omega: frequencies,
  scale,
  kernel,
  setup = () => 0,
}) {
  const result = out ?? new Typed(count * dim);
  const groupBytes = Typed.BYTES_PER_ELEMENT * dim * repeat;
  const chunk = Math.max(1, Math.floor(CHUNK_BYTES / groupBytes));
  const groups = count / repeat;
  const list = typeof angles === "number" ? null : angles;
  return withScratch((scratch) => {
    const pairs = frequencies.length;
    const omega = scratch(pairs * 8, "frequencies");
    new Float64Array(memoryBuffer(), omega, pairs).set(frequencies);
    const check = (xs, n, start) =>
      checkAngles(scratch, {
        api,
        xs,
        count: n,
        start,
        omega,
        pairs,
        scale,
        name,
      });
    if (list === null) check(0, 1, angles);
    const streams = setup(scratch);
    if (count === 0) return result;
    const n = Math.min(chunk, groups);
    const data = scratch(n * groupBytes, "the rows");
    const anglesPointer = list === null ? 0 : scratch(n * width * 8, name);
    const anglesOf = (first, m) =>
      write(
        new Float64Array(memoryBuffer(), anglesPointer, m * width),
        list.subarray(first * width, (first + m) * width),
      );
    // Every angle is checked before the first chunk is turned.
    if (list !== null)
      for (const [first, m] of inBlocks(groups, n)) {
        anglesOf(first, m);
        check(anglesPointer, m * width, 0);
      }
    const call = {
      data,
      count: 0,
      repeat,
      span: 1,
      list: anglesPointer,
      one: list === null ? angles : 0,
      omega,
      streams,
    };
    for (const [first, m] of inBlocks(groups, chunk, segment)) {
      const sequence = Math.floor(first / segment);
      // Where the chunk's rows are in `rows`: one run, or one per head.
      const runs = apart ? repeat : 1;
      const size = m * (apart ? 1 : repeat) * dim;
      const at = (r) =>
        apart
          ? ((sequence * repeat + r) * segment + first - sequence * segment) *
            dim
          : first * repeat * dim;
      let into = data;
      for (let r = 0; r < runs; r++) {
        write(
          new Typed(memoryBuffer(), into, size),
          section(rows, at(r), size),
        );
        into += size * Typed.BYTES_PER_ELEMENT;
      }
      if (list !== null) anglesOf(first, m);
      call.count = m * repeat;
      call.span = apart ? m : 1;
      kernel(call);
      into = data;
      for (let r = 0; r < runs; r++) {
        write(result, new Typed(memoryBuffer(), into, size), at(r));
        into += size * Typed.BYTES_PER_ELEMENT;
      }
    }
    return result;
  });
}
