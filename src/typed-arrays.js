// A caller's typed array is read only through intrinsics captured when this
// module loads. An instance's own `length`, `buffer`, `byteOffset`,
// `constructor`, `subarray` or Symbol.species can be overridden, and methods
// that make new arrays (`slice`, `subarray`) call the instance's species
// constructor: none of them is ever read or called on an input. The
// built-in getters read internal slots, which no user code can change.

const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
const uncurry = Function.prototype.call.bind(Function.prototype.call);
const intrinsic = (key) => {
  const get = Object.getOwnPropertyDescriptor(TypedArray, key).get;
  return (value) => uncurry(get, value);
};
const kindGetter = Object.getOwnPropertyDescriptor(
  TypedArray,
  Symbol.toStringTag,
).get;
const setMethod = TypedArray.set;
const fillMethod = TypedArray.fill;
const bufferByteLength = Object.getOwnPropertyDescriptor(
  ArrayBuffer.prototype,
  "byteLength",
).get;
const bufferDetached = Object.getOwnPropertyDescriptor(
  ArrayBuffer.prototype,
  "detached",
)?.get;
const isArrayBuffer = (value) => {
  try {
    uncurry(bufferByteLength, value);
    return true;
  } catch {
    return false;
  }
};
const { structuredClone } = globalThis;

/** The typed array's kind ("Float32Array", ...), or undefined for anything else. */
export const kindOf = (value) => uncurry(kindGetter, value);
export const lengthOf = intrinsic("length");
export const bufferOf = intrinsic("buffer");
export const byteOffsetOf = intrinsic("byteOffset");
export const byteLengthOf = intrinsic("byteLength");

/** The constructors of the kinds the library reads and writes, by name. */
export const CONSTRUCTORS = Object.freeze({
  __proto__: null,
  Float32Array,
  Float64Array,
  Uint16Array,
  ...(typeof Float16Array === "function" ? { Float16Array } : {}),
});

/** Copies `source` (an array or typed array) into `target` from element `at`. */
export function write(target, source, at = 0) {
  uncurry(setMethod, target, source, at);
}

/** Sets elements [from, to) of `target` to zero. */
export function zero(target, from, to) {
  uncurry(fillMethod, target, 0, from, to);
}

/**
 * Whether `buffer` (an ArrayBuffer or SharedArrayBuffer) is detached: only
 * a zero-length ArrayBuffer can be, and cloning one is free.
 */
export function isDetached(buffer) {
  if (!isArrayBuffer(buffer) || uncurry(bufferByteLength, buffer) !== 0)
    return false;
  if (bufferDetached !== undefined) return uncurry(bufferDetached, buffer);
  try {
    structuredClone(buffer);
    return false;
  } catch {
    return true;
  }
}

/**
 * How a typed array can be read: "ok", "detached" (its buffer was
 * transferred, or it is a view that a later call invalidated) or
 * "out-of-bounds" (a view past the end of a resizable buffer that shrank).
 * `set` validates its target as every reading method does, so an empty
 * write tells an unreadable array without touching its elements.
 */
export function readability(typed) {
  try {
    uncurry(setMethod, typed, []);
    return "ok";
  } catch {
    return isDetached(bufferOf(typed)) ? "detached" : "out-of-bounds";
  }
}

/**
 * A view of elements [first, first + count) of `typed` made with the
 * library's own constructor, never the instance's: a subarray that runs no
 * user code.
 */
export function section(typed, first, count) {
  const Typed = CONSTRUCTORS[kindOf(typed)];
  return new Typed(
    bufferOf(typed),
    byteOffsetOf(typed) + first * Typed.BYTES_PER_ELEMENT,
    count,
  );
}

/** A copy of `typed` in a new array of the same kind, made without its species. */
export function copyOf(typed) {
  const copy = new CONSTRUCTORS[kindOf(typed)](lengthOf(typed));
  write(copy, typed);
  return copy;
}
