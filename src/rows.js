// A call's rows in and out: the rows of a caller's array that the C core
// turns (R(k) for `rotate`, RoPE for `rope`), read once before they are
// checked, and the `out` option, the caller's typed array a result is
// written into. An `out` is read once with the other options and checked
// after every other input has been read (so no user code can run between
// the check and the writes), before module memory is touched. The typed
// array intrinsics are used, not the array's own properties, so a shadowed
// `length` or `set` cannot mislead the checks or the writes.
import {
  arrayLength,
  boolean,
  bufferOf,
  byteLengthOf,
  byteOffsetOf,
  CONSTRUCTORS,
  copyOf,
  kindOf,
  lengthOf,
  numbers,
  rangeError,
  requireReadable,
  rowValues,
  ruleOf,
  show,
  typeError,
  write,
} from "./options.js";
import { memoryBuffer } from "./core.js";

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
 * Float32Array here, its elements read once each, and counts from then on
 * as the caller's Float32Array would. `inPlace` is the documented
 * shorthand for `out: vectors`, which needs a typed array of the caller's.
 */
export function readRows(vectors, inPlace) {
  if (inPlace !== undefined) boolean(inPlace, "inPlace");
  if (kindOf(vectors) !== undefined) return vectors;
  if (inPlace)
    throw typeError(
      `vectors must be a ${ROW_NAMES} when "inPlace" is true, got ${show(vectors)}`,
      "vectors",
      "ERR_TYPE",
    );
  const length = arrayLength(vectors, "vectors", { code: "ERR_TYPE" });
  if (length === null)
    throw typeError(
      `vectors must be a ${ROW_NAMES} (or an array of numbers) of rows × dim values, got ${show(vectors)}`,
      "vectors",
      "ERR_TYPE",
    );
  return rowValues(vectors, length, Float32Array, "vectors");
}

/**
 * The rows that readRows read, checked against `dim` through the
 * typed-array intrinsics: a typed array of one of ROW_KINDS is used as it
 * is, unless it views the module's memory, which the call may move.
 * Returns the rows, their count, their constructor and inPlace.
 */
export function resolveRows(vectors, dim, out, inPlace) {
  inPlace ??= false;
  if (inPlace && out !== undefined)
    throw typeError(
      `option "out" cannot be combined with "inPlace: true"; pass out: vectors to rotate in place`,
      "out",
      "ERR_COMBINATION",
    );
  const kind = kindOf(vectors);
  const native = ROW_KINDS.includes(kind);
  if (inPlace && !native)
    throw typeError(
      `vectors must be a ${ROW_NAMES} when "inPlace" is true, got ${kind}`,
      "vectors",
      "ERR_TYPE",
    );
  // Integer arrays are refused: a Uint16Array is read as float16 bits, so
  // another integer array is more likely a mistake than data.
  if (!native)
    throw typeError(
      `vectors must be a ${ROW_NAMES} or an array of numbers, got a ${kind}`,
      "vectors",
      "ERR_TYPE",
    );
  const length = arrayLength(vectors, "vectors");
  if (length % dim !== 0)
    throw rangeError(
      `vectors has ${length} values, which is not a multiple of dim ${dim} (rows must be row-major [rows, dim])`,
      "vectors",
      "ERR_LENGTH",
    );
  const Typed = CONSTRUCTORS[kind];
  const inModule = bufferOf(vectors) === memoryBuffer();
  if (inPlace && inModule)
    throw typeError(
      `vectors is a view of the module's memory, which the call may move; "inPlace" needs an array of your own (view.slice())`,
      "vectors",
      "ERR_MODULE_MEMORY",
    );
  const rows = inModule ? copyOf(vectors) : vectors;
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
        ruleOf(name),
      );
    return values;
  }
  if (values === null || typeof values !== "object")
    throw typeError(
      `${name} must be a finite number or an array of numbers (one per row), got ${values === null ? "null" : typeof values}`,
      name,
      "ERR_TYPE",
    );
  return numbers(values, name, { bigints: true, code: ruleOf(name) });
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
 * The caller's `out` checked to take `length` elements of type `Typed`, or
 * null when it is undefined. `view` is the function's own view option;
 * `name` the option's name in messages.
 */
const DEFAULTS = Object.freeze({});
const OUT = 'option "out"';
export function outArray(
  out,
  Typed,
  length,
  { view = false, name = "out" } = DEFAULTS,
) {
  if (out === undefined) return null;
  if (view)
    throw typeError(
      `option "${name}" cannot be combined with "view: true": a view lives in the module's memory, "${name}" in yours`,
      name,
      "ERR_COMBINATION",
    );
  if (kindOf(out) !== Typed.name)
    throw typeError(
      `option "${name}" must be a ${Typed.name} for this result, got ${show(out)}`,
      name,
      "ERR_TYPE",
    );
  requireReadable(out, name, name === "out" ? OUT : `option "${name}"`);
  if (bufferOf(out) === memoryBuffer())
    throw typeError(
      `option "${name}" is a view of the module's memory, which the call may grow or reuse; pass an array of your own`,
      name,
      "ERR_MODULE_MEMORY",
    );
  const available = lengthOf(out);
  if (available < length)
    throw rangeError(
      `option "${name}" must hold at least ${length} elements, got ${available}`,
      name,
      "ERR_LENGTH",
    );
  return out;
}

// The byteLength getters of ArrayBuffer and SharedArrayBuffer, brand
// checks, and Uint8Array, captured at load.
const lengthGetter = (Buffer) =>
  Object.getOwnPropertyDescriptor(Buffer.prototype, "byteLength").get;
const plainLength = lengthGetter(ArrayBuffer);
const sharedLength =
  typeof SharedArrayBuffer === "function"
    ? lengthGetter(SharedArrayBuffer)
    : undefined;
const { apply } = Reflect;
const Bytes = Uint8Array;

// Whether `getter` accepts `buffer`: a brand check that throws otherwise.
function branded(getter, buffer) {
  try {
    apply(getter, buffer, []);
    return true;
  } catch {
    return false;
  }
}

// A typed array's buffer is an ArrayBuffer or a SharedArrayBuffer: the
// plain one, the common case, is told without an exception.
function isShared(buffer) {
  if (sharedLength === undefined || branded(plainLength, buffer)) return false;
  return branded(sharedLength, buffer);
}

/**
 * Whether typed arrays a and b may view the same memory through two buffer
 * objects: both on SharedArrayBuffers, as a structuredClone of one, or one
 * posted to a worker and back, shares its memory and is another object.
 */
export function mayShareMemory(a, b) {
  const one = bufferOf(a);
  const other = bufferOf(b);
  return one !== other && isShared(one) && isShared(other);
}

/**
 * Whether the first `bytes` bytes of typed arrays a and b, both about to be
 * written, overlap. Of two SharedArrayBuffers the byte where they would
 * meet is changed through one and read through the other, then restored:
 * only the same memory shows the change.
 */
export function overlapping(a, b, bytes) {
  const start = byteOffsetOf(a);
  const other = byteOffsetOf(b);
  const meet = bytes > 0 && start < other + bytes && other < start + bytes;
  if (!meet || bufferOf(a) === bufferOf(b)) return meet;
  if (!mayShareMemory(a, b)) return false;
  const at = Math.max(start, other);
  const one = new Bytes(bufferOf(a), at, 1);
  const two = new Bytes(bufferOf(b), at, 1);
  const kept = one[0];
  one[0] = kept ^ 0xff;
  const same = two[0] === (kept ^ 0xff);
  one[0] = kept;
  return same;
}

/** `values` (a view of module memory) written into `out`, or a copy. */
export function deliver(out, values) {
  if (out === null) return values.slice();
  write(out, values);
  return out;
}

/**
 * How `out` meets an input array `rows`: "same" elements (the call is then
 * in place), "apart", or a partial overlap, which is refused: the rows are
 * processed in blocks and an overlap would overwrite rows not yet read.
 */
export function aliasing(out, rows) {
  const buffer = bufferOf(out);
  if (buffer !== bufferOf(rows)) return "apart";
  const start = byteOffsetOf(out);
  const end = start + byteLengthOf(out);
  const rowsStart = byteOffsetOf(rows);
  const rowsEnd = rowsStart + byteLengthOf(rows);
  if (start === rowsStart) return "same";
  if (end <= rowsStart || rowsEnd <= start) return "apart";
  throw rangeError(
    `option "out" overlaps the input rows without starting at the same element; pass the input itself (in place) or a separate array`,
    "out",
    "ERR_OVERLAP",
  );
}
