// Validation of user options: every message names the option and the
// allowed range. Type mistakes are TypeErrors, out-of-range values RangeErrors.

import { MAX_COUNT, MEMORY_BYTES } from "sinusoidal-pe-constants";
import { kindOf, lengthOf, readability, write } from "./typed-arrays.js";

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

// "sinusoidal-pe: table: " unless the message names its function already.
function prefixed(message) {
  const name = running.at(-1);
  return name === undefined || message.startsWith(`${name}: `)
    ? PREFIX + message
    : `${PREFIX}${name}: ${message}`;
}

export function typeError(message) {
  return new TypeError(prefixed(message));
}

export function rangeError(message) {
  return new RangeError(prefixed(message));
}

export function show(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object")
    return kindOf(value) ?? value.constructor?.name ?? "an object";
  return String(value);
}

// A plain copy of an options object: each getter (or Proxy trap) runs once,
// here, and everything after reads the copy.
const objectKind = Function.prototype.call.bind(Object.prototype.toString);

// Objects of another kind (a Date, a Map, a typed array) are refused rather
// than read as an empty set of options.
export function snapshot(options, name = "options") {
  if (
    options === null ||
    typeof options !== "object" ||
    Array.isArray(options) ||
    objectKind(options) !== "[object Object]"
  )
    throw typeError(`${name} must be a plain object, got ${show(options)}`);
  return { ...options };
}

// Refuses keys outside `allowed`: a misspelt option is a mistake, not a no-op.
// `hints` maps a key that belongs elsewhere to the message that says where.
export function rejectUnknown(options, allowed, where, hints = {}) {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(hints, key))
      throw typeError(
        `option "${key}" does not apply to ${where}: ${hints[key]}`,
      );
    if (!allowed.includes(key))
      throw typeError(
        `unknown option "${key}" for ${where}; allowed: ${allowed.join(", ")}`,
      );
  }
}

// A number, any number: the C core owns the rule on its value, and says it
// with the value when the value breaks it.
export function number(value, name) {
  if (typeof value !== "number")
    throw typeError(`option "${name}" must be a number, got ${show(value)}`);
  return value;
}

export function finiteNumber(value, name, { min, max, above } = {}) {
  if (typeof value !== "number")
    throw typeError(`option "${name}" must be a number, got ${show(value)}`);
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
    );
  return value;
}

export function integer(value, name, min = -Infinity, max = Infinity) {
  if (typeof value !== "number")
    throw typeError(`option "${name}" must be an integer, got ${show(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    const range =
      max !== Infinity
        ? ` in [${min}, ${max}]`
        : min !== -Infinity
          ? ` >= ${min}`
          : "";
    throw rangeError(
      `option "${name}" must be an integer${range}, got ${show(value)}`,
    );
  }
  return value;
}

// One of `choices`, as its index; `fallback` when the option is left out
// (undefined, not null: null is a value, and not one of the choices).
export function oneOf(value, name, choices, fallback) {
  if (value === undefined && fallback !== undefined) value = fallback;
  if (!choices.includes(value))
    throw (typeof value === "string" ? rangeError : typeError)(
      `option "${name}" must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}, got ${show(value)}`,
    );
  return choices.indexOf(value);
}

export function boolean(value, name) {
  if (typeof value !== "boolean")
    throw typeError(
      `option "${name}" must be true or false, got ${show(value)}`,
    );
  return value;
}

// A typed array that cannot be read or written, an input or an `out`, is
// refused by name rather than taken as empty: a detached view (a view result
// that a later call invalidated, or a transferred buffer), or a view past
// the end of a resizable buffer that shrank.
export function requireReadable(value, name) {
  const state = readability(value);
  if (state === "detached")
    throw typeError(
      `${name} is a detached view: a view result that a later call invalidated, or a transferred buffer; copy views (view.slice()) to keep them`,
    );
  if (state === "out-of-bounds")
    throw typeError(
      `${name} is out of bounds: its resizable buffer shrank below the view`,
    );
}

// The most elements an input array may hold: more could never fit in the
// module's 4 GiB memory as float32.
const MAX_ELEMENTS = MEMORY_BYTES / 4;

/**
 * The length of an array of numbers, read once, or null for anything that
 * is not one. A typed array is checked readable and measured through the
 * intrinsics; a DataView, a string or a BigInt array is not an array of
 * numbers; an array-like longer than the module could hold is refused.
 */
export function arrayLength(value, name) {
  if (value === null || typeof value !== "object") return null;
  const kind = kindOf(value);
  if (kind !== undefined) {
    if (kind.startsWith("Big"))
      throw typeError(`${name} must hold numbers, got a ${kind}`);
    requireReadable(value, name);
    return lengthOf(value);
  }
  if (ArrayBuffer.isView(value)) return null;
  const length = value.length;
  if (!Number.isInteger(length) || length < 0) return null;
  if (length > MAX_ELEMENTS)
    throw rangeError(
      `${name} has ${length} elements, more than the module's memory can hold (${MAX_ELEMENTS})`,
    );
  return length;
}

// Reads `length` elements of an array-like once each, checked, into `target`.
// Typed arrays are copied whole through the intrinsic: their elements run no
// code.
function readInto(values, length, target, name, finite) {
  if (kindOf(values) !== undefined) {
    write(target, values);
    if (finite)
      for (let i = 0; i < length; i++)
        if (!Number.isFinite(target[i]))
          throw rangeError(`${name}[${i}] must be finite, got ${target[i]}`);
    return target;
  }
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (typeof v !== "number")
      throw typeError(`${name}[${i}] must be a number, got ${show(v)}`);
    if (finite && !Number.isFinite(v))
      throw rangeError(`${name}[${i}] must be finite, got ${show(v)}`);
    target[i] = v;
  }
  return target;
}

/**
 * An array-like of finite numbers read once (its length, then each element)
 * into a new Float64Array that nothing else can reach: later calls into the
 * module, or user code, cannot change what the kernel reads.
 */
export function numbers(
  value,
  name,
  { min = 0, max = Infinity, expected = "an array of numbers" } = {},
) {
  const length = arrayLength(value, name);
  if (length === null)
    throw typeError(
      `option "${name}" must be ${expected}, got ${value === undefined ? "nothing" : show(value)}`,
    );
  if (length < min)
    throw rangeError(
      `option "${name}" must hold at least ${min === 1 ? "one number" : `${min} numbers`}, got ${length}`,
    );
  if (length > max)
    throw rangeError(
      `option "${name}" must hold ${min} to ${max} numbers, got ${length}`,
    );
  return readInto(value, length, new Float64Array(length), name, true);
}

/**
 * Rows of numbers (any number, finite or not) read once into a new typed
 * array of the given type; `length` was read before.
 */
export function rowValues(values, length, Typed, name) {
  return readInto(values, length, new Typed(length), name, false);
}

// A number or a non-empty array-like of finite numbers, as a Float64Array.
export function numberList(value, name, max = Infinity) {
  return numbers(typeof value === "number" ? [value] : value, name, {
    min: 1,
    max,
    expected: "a number or an array of numbers",
  });
}

// positions: a count (rows start, start + 1, ...) of at least `min` rows, or
// explicit positions read once; start applies to a count only.
export function positionList(positions, start, { min, maxCount, maxArray }) {
  if (typeof positions === "number") {
    const count = integer(positions, "positions", min, maxCount);
    const first = start === undefined ? 0 : finiteNumber(start, "start");
    return { count, start: first, values: null };
  }
  const values = numbers(positions, "positions", {
    min,
    max: maxArray,
    expected: `a count (an integer >= ${min}) or an array of numbers`,
  });
  if (start !== undefined)
    throw typeError(`option "start" applies only when "positions" is a count`);
  return { count: values.length, start: 0, values };
}

// Evenly spaced points { from, to, count } or a list of numbers. Returns
// { count, from, step, values }: values is null for an even grid.
export function grid(value, name, maxCount = MAX_COUNT) {
  if (
    value !== null &&
    typeof value === "object" &&
    !ArrayBuffer.isView(value) &&
    !("length" in value)
  ) {
    value = snapshot(value, `option "${name}"`);
    rejectUnknown(value, ["from", "to", "count"], `option "${name}"`);
    const count = integer(value.count, `${name}.count`, 1, maxCount);
    const from = finiteNumber(value.from, `${name}.from`);
    const to = finiteNumber(value.to, `${name}.to`);
    if (count === 1 && to !== from)
      throw rangeError(
        `option "${name}.count" is 1, so "${name}.to" must equal "${name}.from" (${from}), got ${to}`,
      );
    const step = count === 1 ? 0 : (to - from) / (count - 1);
    if (!Number.isFinite(step))
      throw rangeError(`option "${name}": (to - from) must be finite`);
    return { count, from, step, values: null };
  }
  const values = numberList(value, name, maxCount);
  return { count: values.length, from: 0, step: 0, values };
}
