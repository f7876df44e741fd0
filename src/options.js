// A caller's input read once into JS-owned values: options objects (each
// key once, getters and Proxy traps included), numbers, arrays and typed
// arrays, with every message naming the option and the allowed range. Type
// mistakes are TypeErrors, out-of-range values RangeErrors; both carry
// `option`, `code` and `function`.

import {
  MAX_COUNT,
  MEMORY_BYTES,
  STATUS,
  STATUS_NAMES,
} from "sinusoidal-pe-constants";

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
const isPrototypeOf = Function.prototype.call.bind(
  Object.prototype.isPrototypeOf,
);

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
const NOTHING = Object.freeze([]);
export function readability(typed) {
  try {
    uncurry(setMethod, typed, NOTHING);
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

const PREFIX = "sinusoidal-pe: ";

// The public functions running, innermost last (a getter in the caller's
// options may call the library again): an error names the innermost one.
const running = [];

/**
 * Calls `fn(...args)` as the public function `name`: every error it raises
 * while reading its input names it, as the C core's statuses do.
 */
export function calling(name, fn, args) {
  running.push(name);
  try {
    return fn(...args);
  } finally {
    running.pop();
  }
}

/**
 * `calling` for a plan's method: fn(plan, a, b, c), with no list to spread
 * (a spread copies its list on every call).
 */
export function callingMethod(name, fn, plan, a, b, c) {
  running.push(name);
  try {
    return fn(plan, a, b, c);
  } finally {
    running.pop();
  }
}

/** The public function running, innermost: the one an error names. */
export function runningFunction() {
  return running.at(-1);
}

// "sinusoidal-pe: table: ": the public function running, named here only.
function prefixed(message) {
  const name = running.at(-1);
  return name === undefined ? PREFIX + message : `${PREFIX}${name}: ${message}`;
}

// An error about an input is data as well as text: `option` is the path of
// the option (or argument) as the caller wrote it ("scaling.factor",
// "positions[3]"), `code` the rule it breaks, from the one registry of
// codes (the core's statuses and src/core/error_codes.js), `function` the
// public function that raised it. Callers that speak of the input in
// their own words (fromConfig's config fields, the command line's flags)
// map `option`, never the message.
// `cause`, where given, is the error of the caller's input that the
// refusal explains.
function inputError(Class, message, option, code, cause) {
  const error = new Class(
    prefixed(message),
    cause === undefined ? undefined : { cause },
  );
  error.option = option;
  error.code = code;
  error.function = running.at(-1);
  return error;
}

export function typeError(message, option, code, cause) {
  return inputError(TypeError, message, option, code, cause);
}

export function rangeError(message, option, code) {
  return inputError(RangeError, message, option, code);
}

/**
 * The code of the core's rule on the option at `path`: the first status
 * that names it ("scaling.factor" → "ERR_ROPE_FACTOR"). JS refuses that
 * option's values under the same code, so a rule has one code whichever
 * side detects it.
 */
export function ruleOf(path) {
  const status = STATUS.findIndex(({ options }) => options.includes(path));
  if (status < 0) throw new Error(`no status of the core names ${path}`);
  return STATUS_NAMES[status].replace(/^PE_/, "");
}

export function show(value) {
  if (typeof value === "string") return JSON.stringify(clip(value));
  if (typeof value === "bigint") return `${value}n`;
  if (isRevoked(value)) return "a revoked Proxy";
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") {
    if (kindOf(value) !== undefined) return kindOf(value);
    // Its constructor would name a typed array it only wraps.
    if (inheritsTypedArray(value)) return "a Proxy of a typed array";
    return value.constructor?.name ?? "an object";
  }
  if (typeof value === "function") return "a function";
  return String(value);
}

/**
 * Whether `value`, no typed array itself, has a typed array's prototype on
 * its chain: a Proxy around a typed array, or an object made from one's
 * prototype. Its `length` is the built-in getter's, which refuses any
 * receiver but a typed array.
 */
export function inheritsTypedArray(value) {
  if (kindOf(value) !== undefined) return false;
  try {
    return isPrototypeOf(TypedArray, value);
  } catch {
    return false;
  }
}

// A quoted text of the caller's is cut to a prefix that says its length, so
// no message grows with its input.
const CLIP = 64;

/** `text`, or its first characters and its length when it is long. */
export function clip(text) {
  return text.length <= CLIP
    ? text
    : `${text.slice(0, CLIP)}… (${text.length} characters)`;
}

/** A list of the caller's names for a message: the first few, each clipped, and how many in all. */
export function listing(names, most = 8) {
  const shown = names.slice(0, most).map(clip).join(", ");
  return names.length <= most
    ? shown
    : `${shown} and ${names.length - most} more`;
}

/** Whether `value` is a revoked Proxy, which every operation on it refuses. */
export function isRevoked(value) {
  if (
    value === null ||
    (typeof value !== "object" && typeof value !== "function")
  )
    return false;
  try {
    Array.isArray(value);
    return false;
  } catch {
    return true;
  }
}

// A plain copy of an options object: each getter (or Proxy trap) runs once,
// here, and everything after reads the copy.
const objectKind = Function.prototype.call.bind(Object.prototype.toString);

// Objects of another kind (a Date, a Map, a typed array) are refused rather
// than read as an empty set of options.
function snapshot(options, name = "options", path = "options") {
  requireOptions(options, name, path);
  return { ...options };
}

function requireOptions(options, name, path) {
  if (isRevoked(options))
    throw typeError(
      `${name} is a revoked Proxy, which cannot be read`,
      path,
      "ERR_REVOKED",
    );
  if (
    options === null ||
    typeof options !== "object" ||
    Array.isArray(options) ||
    objectKind(options) !== "[object Object]"
  )
    throw typeError(
      `${name} must be a plain object, got ${show(options)}`,
      path,
      "ERR_NOT_OBJECT",
    );
}

// Refuses keys outside `allowed`: a misspelt option is a mistake, not a no-op.
// `hints` maps a key that belongs elsewhere to the message that says where.
// `path`: the option the keys are under, if any ("scaling"). `options` is a
// plain copy (snapshot's): its own keys are enumerated in place, which runs
// no code and, unlike Object.keys, makes no array.
const NO_HINTS = Object.freeze({});
export function rejectUnknown(options, allowed, where, hints = NO_HINTS, path) {
  for (const key in options)
    if (Object.hasOwn(options, key))
      rejectKey(key, allowed, where, hints, path);
}

function rejectKey(key, allowed, where, hints, path) {
  const option = path === undefined ? key : `${path}.${key}`;
  if (Object.hasOwn(hints, key))
    throw typeError(
      `option "${key}" does not apply to ${where}: ${hints[key]}`,
      option,
      "ERR_NOT_APPLICABLE",
    );
  if (allowed !== null && !allowed.includes(key))
    throw typeError(
      `unknown option "${key}" for ${where}; allowed: ${allowed.join(", ")}`,
      option,
      "ERR_UNKNOWN_OPTION",
    );
}

// What readPerCall read, until the next call of it.
const perCallValues = { first: undefined, second: undefined };

/**
 * A plan method's per-call options, the two `keys` it takes (["start",
 * "out"]), read as readOptions reads options, without copying the object:
 * each own enumerable key's value once (a getter runs once), undefined as
 * absent, any other key refused. So a call per token allocates nothing;
 * a Proxy sees one more getPrototypeOf and getOwnPropertyDescriptor per
 * key than a copy would make. Returns the values of the two keys as
 * `first` and `second`, to be read at once: the next call overwrites them.
 */
export function readPerCall(perCall, keys, where) {
  let first;
  let second;
  if (perCall !== undefined) {
    requireOptions(perCall, "the per-call options", "perCall");
    for (const key in perCall) {
      if (!Object.hasOwn(perCall, key)) continue;
      const value = perCall[key];
      if (key === keys[0]) first = value;
      else if (key === keys[1]) second = value;
      else if (value !== undefined) rejectKey(key, keys, where, NO_HINTS);
    }
  }
  perCallValues.first = first;
  perCallValues.second = second;
  return perCallValues;
}

// A number, any number: the C core owns the rule on its value, and says it
// with the value when the value breaks it.
export function number(value, name) {
  if (typeof value !== "number")
    throw typeError(
      `option "${name}" must be a number, got ${show(value)}`,
      name,
      "ERR_NOT_NUMBER",
    );
  return value;
}

// `code`: the rule's, where the core has one for this option ("ERR_BASE");
// without one, NaN or an infinity and a value out of range have codes of
// their own.
export function finiteNumber(value, name, { min, max, above, code } = {}) {
  if (typeof value !== "number")
    throw typeError(
      `option "${name}" must be a number, got ${show(value)}`,
      name,
      "ERR_NOT_NUMBER",
    );
  const range =
    above !== undefined
      ? `> ${above}` + (max !== undefined ? ` and <= ${max}` : "")
      : `[${min ?? "-Infinity"}, ${max ?? "Infinity"}]`;
  if (
    !Number.isFinite(value) ||
    (above !== undefined && !(value > above)) ||
    (min !== undefined && value < min) ||
    (max !== undefined && value > max)
  )
    throw rangeError(
      `option "${name}" must be a finite number ${range}, got ${show(value)}`,
      name,
      code ?? (Number.isFinite(value) ? "ERR_OUT_OF_RANGE" : "ERR_NOT_FINITE"),
    );
  return value;
}

// `code`: the rule's, where the core has one for this option ("ERR_DIM");
// without one, a fraction and a value out of range have codes of their own.
export function integer(value, name, min = -Infinity, max = Infinity, code) {
  if (typeof value !== "number")
    throw typeError(
      `option "${name}" must be an integer, got ${show(value)}`,
      name,
      "ERR_NOT_NUMBER",
    );
  if (!Number.isInteger(value) || value < min || value > max) {
    const range =
      max !== Infinity
        ? ` in [${min}, ${max}]`
        : min !== -Infinity
          ? ` >= ${min}`
          : "";
    throw rangeError(
      `option "${name}" must be an integer${range}, got ${show(value)}`,
      name,
      code ??
        (Number.isInteger(value) ? "ERR_OUT_OF_RANGE" : "ERR_NOT_INTEGER"),
    );
  }
  return value;
}

// One of `choices` (names), as its index; `fallback` when the option is
// left out (undefined, not null: null is a value, and not one of the
// choices). `code`: the rule's, where the core has one ("ERR_LAYOUT").
export function oneOf(value, name, choices, fallback, code = "ERR_NOT_ONE_OF") {
  if (value === undefined && fallback !== undefined) value = fallback;
  if (!choices.includes(value)) {
    const message = `option "${name}" must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}, got ${show(value)}`;
    throw typeof value === "string"
      ? rangeError(message, name, code)
      : typeError(message, name, "ERR_NOT_STRING");
  }
  return choices.indexOf(value);
}

export function boolean(value, name, code = "ERR_NOT_BOOLEAN") {
  if (typeof value !== "boolean")
    throw typeError(
      `option "${name}" must be true or false, got ${show(value)}`,
      name,
      code,
    );
  return value;
}

// A typed array that cannot be read or written, an input or an `out`, is
// refused by name rather than taken as empty: a detached view (a view result
// that a later call invalidated, or a transferred buffer), or a view past
// the end of a resizable buffer that shrank.
export function requireReadable(value, path, name = path) {
  const state = readability(value);
  if (state === "detached")
    throw typeError(
      `${name} is a detached view: a view result that a later call invalidated, or a transferred buffer; copy views (view.slice()) to keep them`,
      path,
      "ERR_DETACHED",
    );
  if (state === "out-of-bounds")
    throw typeError(
      `${name} is out of bounds: its resizable buffer shrank below the view`,
      path,
      "ERR_OUT_OF_BOUNDS",
    );
}

// The most elements an input array may hold: more could never fit in the
// module's 4 GiB memory as float32.
const MAX_ELEMENTS = MEMORY_BYTES / 4;

/**
 * The length of an array of numbers, read once, or null for anything that
 * is not one. A typed array is checked readable and measured through the
 * intrinsics; a DataView or a string is not an array of numbers, nor a
 * BigInt array unless `bigints` (integer positions, as ONNX Runtime's int64
 * position_ids); an array-like longer than the module could hold is refused,
 * and so is one that cannot be read (a revoked Proxy, or a Proxy around a
 * typed array, whose `length` the engine reads only from a typed array),
 * under `code`: that of anything no array of numbers.
 */
const NO_OPTIONS = Object.freeze({});
export function arrayLength(
  value,
  name,
  { bigints = false, code = "ERR_NOT_ARRAY" } = NO_OPTIONS,
) {
  if (value === null || typeof value !== "object") return null;
  if (isRevoked(value))
    throw typeError(
      `${name} is a revoked Proxy, which cannot be read`,
      name,
      "ERR_REVOKED",
    );
  const kind = kindOf(value);
  if (kind !== undefined) {
    if (kind.startsWith("Big") && !bigints)
      throw typeError(
        `${name} must hold numbers, got a ${kind}`,
        name,
        "ERR_NOT_NUMBER",
      );
    requireReadable(value, name);
    return lengthOf(value);
  }
  if (ArrayBuffer.isView(value)) return null;
  let length;
  try {
    length = value.length;
  } catch (error) {
    // The built-in getter refused the receiver: an error of the engine's,
    // said with the option. A getter of the caller's throws its own error.
    if (error instanceof TypeError && inheritsTypedArray(value))
      throw typeError(
        `${name} is a Proxy of a typed array (or another object with a typed array's prototype), whose length can be read only from the typed array itself: pass the typed array, or an array of numbers`,
        name,
        code,
        error,
      );
    throw error;
  }
  if (!Number.isInteger(length) || length < 0) return null;
  if (length > MAX_ELEMENTS)
    throw rangeError(
      `${name} has ${length} elements, more than the module's memory can hold (${MAX_ELEMENTS})`,
      name,
      "ERR_SIZE",
    );
  return length;
}

// Reads `length` elements of an array-like once each, checked, into `target`.
// Typed arrays are copied whole through the intrinsic: their elements run no
// code. `finite`: the code of a non-finite element, or null where any
// number goes.
function readInto(values, length, target, name, finite) {
  const kind = kindOf(values);
  if (kind?.startsWith("Big")) return readBigInts(values, length, target, name);
  if (kind !== undefined) {
    write(target, values);
    if (finite)
      for (let i = 0; i < length; i++)
        if (!Number.isFinite(target[i]))
          throw rangeError(
            `${name}[${i}] must be finite, got ${target[i]}`,
            `${name}[${i}]`,
            finite,
          );
    return target;
  }
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (typeof v !== "number")
      throw typeError(
        `${name}[${i}] must be a number, got ${show(v)}`,
        `${name}[${i}]`,
        "ERR_NOT_NUMBER",
      );
    if (finite && !Number.isFinite(v))
      throw rangeError(
        `${name}[${i}] must be finite, got ${show(v)}`,
        `${name}[${i}]`,
        finite,
      );
    target[i] = v;
  }
  return target;
}

// Integers of a BigInt64Array or BigUint64Array (whose elements run no
// code), each of which must be a double exactly.
const EXACT = 2n ** 53n;
function readBigInts(values, length, target, name) {
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v > EXACT || v < -EXACT)
      throw rangeError(
        `${name}[${i}] must be within ±2^53 (an exact double), got ${v}n`,
        `${name}[${i}]`,
        "ERR_OUT_OF_RANGE",
      );
    target[i] = Number(v);
  }
  return target;
}

// Whether positions are M-RoPE's { t, h, w } (read in mrope.js): an
// object that is no array.
export function isStreams(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    !isRevoked(value) &&
    !ArrayBuffer.isView(value) &&
    !Array.isArray(value) &&
    !("length" in value)
  );
}

/**
 * An array-like of finite numbers read once (its length, then each element)
 * into a new Float64Array that nothing else can reach: later calls into the
 * module, or user code, cannot change what the kernel reads. `code`: that
 * of a non-finite element, the rule's where the core has one
 * ("ERR_POSITIONS").
 */
export function numbers(
  value,
  name,
  {
    min = 0,
    max = Infinity,
    expected = "an array of numbers",
    bigints = false,
    code = "ERR_NOT_FINITE",
  } = {},
) {
  const length = arrayLength(value, name, { bigints });
  if (length === null)
    throw typeError(
      `option "${name}" must be ${expected}, got ${value === undefined ? "nothing" : show(value)}`,
      name,
      "ERR_NOT_ARRAY",
    );
  if (length < min)
    throw rangeError(
      `option "${name}" must hold at least ${min === 1 ? "one number" : `${min} numbers`}, got ${length}`,
      name,
      "ERR_LENGTH",
    );
  if (length > max)
    throw rangeError(
      `option "${name}" must hold ${min} to ${max} numbers, got ${length}`,
      name,
      "ERR_LENGTH",
    );
  return readInto(value, length, new Float64Array(length), name, code);
}

/**
 * Rows of numbers (any number, finite or not) read once into a new typed
 * array of the given type; `length` was read before.
 */
export function rowValues(values, length, Typed, name) {
  return readInto(values, length, new Typed(length), name, null);
}

// A number or a non-empty array-like of finite numbers, as a Float64Array.
export function numberList(value, name, max = Infinity, code) {
  return numbers(typeof value === "number" ? [value] : value, name, {
    min: 1,
    max,
    expected: "a number or an array of numbers",
    code,
  });
}

// positions: a count (rows start, start + 1, ...) of at least `min` rows, or
// explicit positions read once; start applies to a count only.
export function positionList(positions, start, limits) {
  if (typeof positions !== "number")
    return listedPositions(positions, start, limits);
  const count = integer(positions, "positions", limits.min, limits.maxCount);
  return { count, start: firstPosition(start), values: null };
}

// The option "start" of a count: its first position, 0 by default. The
// rule on positions is its own.
const START = { code: "ERR_POSITIONS" };
export function firstPosition(start) {
  return start === undefined ? 0 : finiteNumber(start, "start", START);
}

// Explicit positions, read once into a new JS-owned array.
function listedPositions(positions, start, { min, maxArray }) {
  const values = numbers(positions, "positions", {
    min,
    max: maxArray,
    expected: `a count (an integer >= ${min}) or an array of numbers`,
    bigints: true,
    code: "ERR_POSITIONS",
  });
  if (start !== undefined)
    throw typeError(
      `option "start" applies only when "positions" is a count`,
      "start",
      "ERR_NOT_APPLICABLE",
    );
  return { count: values.length, start: 0, values };
}

// Evenly spaced points { from, to, count } or a list of numbers. Returns
// { count, from, step, values }: values is null for an even grid. `code`:
// that of a point that is not finite, the rule's where the core has one.
export function grid(value, name, maxCount = MAX_COUNT, code) {
  if (
    value !== null &&
    typeof value === "object" &&
    !isRevoked(value) &&
    !ArrayBuffer.isView(value) &&
    !("length" in value)
  ) {
    value = readOptions(value, ["from", "to", "count"], `option "${name}"`, {
      name: `option "${name}"`,
      path: name,
      nested: true,
    });
    const count = integer(value.count, `${name}.count`, 1, maxCount);
    const from = finiteNumber(value.from, `${name}.from`, { code });
    const to = finiteNumber(value.to, `${name}.to`, { code });
    if (count === 1 && to !== from)
      throw rangeError(
        `option "${name}.count" is 1, so "${name}.to" must equal "${name}.from" (${from}), got ${to}`,
        `${name}.to`,
        "ERR_OUT_OF_RANGE",
      );
    const step = count === 1 ? 0 : (to - from) / (count - 1);
    if (!Number.isFinite(step))
      throw rangeError(
        `option "${name}": (to - from) must be finite`,
        name,
        code ?? "ERR_NOT_FINITE",
      );
    return { count, from, step, values: null };
  }
  const values = numberList(value, name, maxCount, code);
  return { count: values.length, from: 0, step: 0, values };
}

/**
 * The one reader of an options object, for every function: each own
 * enumerable key read once (a getter or Proxy trap runs once, here) into a
 * plain copy, where undefined counts as absent; then every key outside
 * `allowed` is refused (none is when `allowed` is null: a preset refuses
 * what is not its parameter). `name` is what messages call the object and
 * `path` its own option path; `nested` puts its keys under that path
 * ("scaling.facter"); `hints` maps a key that belongs to another option to
 * the message that says which.
 */
export function readOptions(
  object,
  allowed,
  where,
  {
    name = "options",
    path = "options",
    nested = false,
    hints = NO_HINTS,
  } = NO_OPTIONS,
) {
  const copy = snapshot(object, name, path);
  for (const key in copy)
    if (Object.hasOwn(copy, key) && copy[key] === undefined) delete copy[key];
  const under = allowed !== null && nested ? path : undefined;
  rejectUnknown(copy, allowed, where, hints, under);
  return copy;
}
