// The `out` option: results written into a typed array of the caller's.
// Its value is read once with the other options; it is checked here, after
// every other input has been read (so no user code can run between the check
// and the writes) and before module memory is touched. The typed array
// intrinsics are used, not the array's own properties, so a shadowed
// `length` or `set` cannot mislead the checks or the writes.
import { rangeError, requireReadable, typeError } from "./options.js";
import { memoryBuffer } from "./runtime.js";
import {
  bufferOf,
  byteLengthOf,
  byteOffsetOf,
  kindOf,
  lengthOf,
  write,
} from "./typed-arrays.js";

export { write, zero } from "./typed-arrays.js";

/**
 * The caller's `out` checked to take `length` elements of type `Typed`, or
 * null when it is undefined. `view` is the function's own view option;
 * `name` the option's name in messages.
 */
export function outArray(
  out,
  Typed,
  length,
  { view = false, name = "out" } = {},
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
      `option "${name}" must be a ${Typed.name} for this result, got ${out === null ? "null" : (kindOf(out) ?? out?.constructor?.name ?? typeof out)}`,
      name,
      "ERR_TYPE",
    );
  requireReadable(out, name, `option "${name}"`);
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

/** Whether the first `bytes` bytes of typed arrays a and b overlap. */
export function overlapping(a, b, bytes) {
  if (bufferOf(a) !== bufferOf(b)) return false;
  const start = byteOffsetOf(a);
  const other = byteOffsetOf(b);
  return bytes > 0 && start < other + bytes && other < start + bytes;
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
