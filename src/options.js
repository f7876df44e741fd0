// Validation of user options: every message names the option and the
// allowed range. Type mistakes are TypeErrors, out-of-range values RangeErrors.

const PREFIX = "sinusoidal-pe: ";

export function typeError(message) {
  return new TypeError(PREFIX + message);
}

export function rangeError(message) {
  return new RangeError(PREFIX + message);
}

function show(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "an object";
  return String(value);
}

export function optionsObject(options, name = "options") {
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw typeError(`${name} must be an object, got ${show(options)}`);
  return options;
}

// Refuses keys outside `allowed`: a misspelt option is a mistake, not a no-op.
export function rejectUnknown(options, allowed, where) {
  for (const key of Object.keys(options))
    if (!allowed.includes(key))
      throw typeError(
        `unknown option "${key}" for ${where}; allowed: ${allowed.join(", ")}`,
      );
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

export function integer(value, name, min, max) {
  if (typeof value !== "number")
    throw typeError(`option "${name}" must be an integer, got ${show(value)}`);
  if (!Number.isInteger(value) || value < min || value > max)
    throw rangeError(
      `option "${name}" must be an integer in [${min}, ${max}], got ${show(value)}`,
    );
  return value;
}

export function oneOf(value, name, choices) {
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

export function isArrayLike(value) {
  return (
    Array.isArray(value) ||
    ArrayBuffer.isView(value) ||
    (value !== null &&
      typeof value === "object" &&
      Number.isInteger(value.length) &&
      value.length >= 0)
  );
}

// A view of the module's memory that a later call invalidated is detached:
// refuse it rather than read it as empty. Only a zero-length buffer can be
// detached, and cloning one is free.
export function rejectDetached(value, name) {
  if (!ArrayBuffer.isView(value) || value.buffer.byteLength !== 0) return;
  let detached = value.buffer.detached;
  if (detached === undefined)
    try {
      structuredClone(value.buffer);
      detached = false;
    } catch {
      detached = true;
    }
  if (detached)
    throw typeError(
      `${name} is a detached view: a view result that a later call invalidated; copy views (view.slice()) to keep them`,
    );
}

// Copies an array-like of finite numbers into `target` (a Float64Array).
export function copyFinite(values, target, name) {
  rejectDetached(values, name);
  if (ArrayBuffer.isView(values) && typeof values[0] === "bigint")
    throw typeError(`option "${name}" must hold numbers, got a BigInt array`);
  for (let i = 0; i < target.length; i++) {
    const v = values[i];
    if (typeof v !== "number")
      throw typeError(`${name}[${i}] must be a number, got ${show(v)}`);
    if (!Number.isFinite(v))
      throw rangeError(`${name}[${i}] must be finite, got ${show(v)}`);
    target[i] = v;
  }
  return target;
}

// A number or a non-empty array-like of finite numbers, as a Float64Array.
export function numberList(value, name) {
  rejectDetached(value, name);
  if (typeof value === "number") value = [value];
  if (!isArrayLike(value) || typeof value === "string")
    throw typeError(
      `option "${name}" must be a number or an array of numbers, got ${value === undefined ? "nothing" : show(value)}`,
    );
  if (value.length < 1)
    throw rangeError(`option "${name}" must hold at least one number`);
  return copyFinite(value, new Float64Array(value.length), name);
}

// Evenly spaced points { from, to, count } or a list of numbers. Returns
// { count, from, step, values }: values is null for an even grid.
export function grid(value, name, maxCount = 2 ** 28) {
  if (value !== null && typeof value === "object" && !isArrayLike(value)) {
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
  const values = numberList(value, name);
  if (values.length > maxCount)
    throw rangeError(
      `option "${name}" must hold at most ${maxCount} numbers, got ${values.length}`,
    );
  return { count: values.length, from: 0, step: 0, values };
}
