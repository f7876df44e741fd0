// Comma-separated text of a row-major table, one row per line. Values keep
// the digits that round-trip to the same number in the array's precision:
// the shortest for float32, JavaScript's own (also the shortest) for
// float64; -0 keeps its sign. Text is written as ASCII bytes into one buffer
// per call, so a large table costs no string per value.
import {
  calling,
  integer,
  isRevoked,
  kindOf,
  lengthOf,
  rangeError,
  typeError,
} from "./options.js";

// 10^0 ... 10^22, each exact in float64: products and quotients with them
// are correctly rounded, as a decimal's parse is.
const POWERS = [1];
for (let i = 1; i <= 22; i++) POWERS.push(POWERS[i - 1] * 10);

// The largest number of bytes one value takes: a sign, 17 digits, a point,
// and either an exponent (e-324) or the zeros of fixed notation (0.000000).
const VALUE_BYTES = 26;

const COMMA = 44;
const NEWLINE = 10;
const OPEN = 91;
const CLOSE = 93;

function kind(values) {
  const name = kindOf(values);
  if (name === "Float32Array" || name === "Float64Array") return name;
  if (isRevoked(values))
    throw typeError(
      "values is a revoked Proxy, which cannot be read",
      "values",
      "ERR_REVOKED",
    );
  if (Array.isArray(values)) return "Array";
  throw typeError(
    "values must be a Float32Array, a Float64Array or an array",
    "values",
    "ERR_TYPE",
  );
}

// ASCII text into `bytes` from `at`; returns the next free index.
function writeText(bytes, at, text) {
  for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
  return at;
}

// The shortest decimal that rounds back to the same float32, found with
// toPrecision: the reference path, for magnitudes outside the fast path's.
function shortestFloat32Text(v) {
  for (let precision = 1; precision < 9; precision++) {
    const text = v.toPrecision(precision);
    if (Math.fround(Number(text)) === v) return String(Number(text));
  }
  return String(Number(v.toPrecision(9)));
}

// Writes the decimal digits × 10^(exponent10 − n + 1), `digits` an integer
// of n ≤ 9 digits without trailing zeros, as Number#toString would: fixed
// notation for decimal exponents −6 … 20, else d.ddde±x. Digits are written
// from the last, where the layout puts them.
function writeDecimal(bytes, at, digits, n, exponent10) {
  let point = -1; // index of the point among the characters, or none
  let zeros = 0; // zeros before the digits (0.000ddd) or after (ddd000)
  let exponent = false;
  if (exponent10 >= 0 && exponent10 < 21) {
    if (n <= exponent10 + 1) zeros = exponent10 + 1 - n;
    else point = exponent10 + 1;
  } else if (exponent10 < 0 && exponent10 >= -6) {
    bytes[at++] = 48;
    bytes[at++] = 46;
    for (let i = 1; i < -exponent10; i++) bytes[at++] = 48;
  } else {
    exponent = true;
    if (n > 1) point = 1;
  }
  const end = at + n + (point >= 0 ? 1 : 0);
  for (let i = end - 1, d = n - 1; d >= 0; d--) {
    if (d + 1 === point) bytes[i--] = 46;
    const q = (digits / 10) | 0;
    bytes[i--] = 48 + digits - q * 10;
    digits = q;
  }
  at = end;
  if (!exponent) {
    for (let i = 0; i < zeros; i++) bytes[at++] = 48;
    return at;
  }
  bytes[at++] = 101; // e
  bytes[at++] = exponent10 < 0 ? 45 : 43;
  return writeText(bytes, at, String(Math.abs(exponent10)));
}

const BITS = new Float64Array(1);
const HIGH_WORD = new Uint32Array(BITS.buffer);
const LOG10_2 = Math.log10(2);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

// The decimal c × 10^−s as a parse reads it: one correctly rounded operation
// on exact operands, so the value Number(text) gives.
const parsed = (c, s) => (s >= 0 ? c / POWERS[s] : c * POWERS[-s]);
const scaled = (a, s) => Math.round(s >= 0 ? a * POWERS[s] : a / POWERS[-s]);

// A float32 value (held in a number) as its shortest round-tripping digits.
// For magnitudes whose scaling by 10^s stays within exact powers (about
// 1e-13 to 1e13), p-digit candidates are tested from 9 digits down: a
// p-digit decimal is also a (p+1)-digit one, so the nearest (p+1)-digit
// decimal is at least as close, and the first p that fails ends the
// search. Every candidate is checked as a parse would read it.
function writeFloat32(bytes, at, v) {
  if (v === 0) {
    if (Object.is(v, -0)) bytes[at++] = 45;
    bytes[at] = 48;
    return at + 1;
  }
  if (!Number.isFinite(v)) return writeText(bytes, at, String(v));
  const a = Math.abs(v);
  // The decimal exponent k of a, from its binary one, corrected so the
  // nine-digit candidate has nine digits.
  BITS[0] = a;
  let k = Math.floor(((HIGH_WORD[HIGH] >>> 20) - 1023) * LOG10_2);
  if (k < -13 || k > 13) return writeText(bytes, at, shortestFloat32Text(v));
  let c = scaled(a, 8 - k);
  if (c >= 1e9) c = scaled(a, 8 - ++k);
  else if (c < 1e8) c = scaled(a, 8 - --k);
  // Nine digits always round-trip (a float32's neighbours are at least
  // 6e-8 apart, relative; nine digits are within 5e-9, or a hair more when
  // the scaling rounded a tie).
  let p = 9;
  for (; p > 1; p--) {
    const shorter = scaled(a, p - 2 - k);
    if (Math.fround(parsed(shorter, p - 2 - k)) !== a) break;
    c = shorter;
  }
  let s = p - 1 - k;
  let n = c >= POWERS[p] ? p + 1 : p;
  while ((c | 0) % 10 === 0) {
    c = ((c | 0) / 10) | 0;
    s--;
    n--;
  }
  if (v < 0) bytes[at++] = 45;
  return writeDecimal(bytes, at, c, n, n - 1 - s);
}

function writeFloat64(bytes, at, v) {
  if (Object.is(v, -0)) return writeText(bytes, at, "-0");
  return writeText(bytes, at, String(v));
}

function checkedWidth(values, columns) {
  const width = integer(columns, "columns", 1, 2 ** 32 - 1);
  const length = Array.isArray(values) ? values.length : lengthOf(values);
  if (length % width !== 0)
    throw rangeError(
      `values has ${length} entries, not a multiple of ${width} columns`,
      "values",
      "ERR_LENGTH",
    );
  return { width, length };
}

/**
 * The rows of `values` (`columns` per row) as ASCII bytes: "a,b\n" per row,
 * or with `json`, "[a,b]" rows joined by ",\n" (preceded by ",\n" when
 * `continued`, for rows that follow earlier ones).
 */
export function encodeRows(
  values,
  columns,
  { json = false, continued = false } = {},
) {
  const name = kind(values);
  const { width, length } = checkedWidth(values, columns);
  let typed = values;
  if (name === "Array") {
    typed = new Float64Array(length);
    for (let i = 0; i < length; i++) {
      const v = values[i];
      if (typeof v !== "number")
        throw typeError(
          `values[${i}] must be a number, got ${typeof v}`,
          `values[${i}]`,
          "ERR_NOT_NUMBER",
        );
      typed[i] = v;
    }
  }
  const rows = length / width;
  const bytes = new Uint8Array(length * (VALUE_BYTES + 1) + rows * 3 + 2);
  // One function per kind, so each reads one kind of array and calls one
  // writer.
  const at = (name === "Float32Array" ? float32Rows : float64Rows)(
    bytes,
    typed,
    width,
    rows,
    json,
    continued,
  );
  return bytes.subarray(0, at);
}

function float32Rows(bytes, values, width, rows, json, continued) {
  let at = 0;
  for (let row = 0, i = 0; row < rows; row++) {
    if (json) at = openRow(bytes, at, row > 0 || continued);
    for (let c = 0; c < width; c++, i++) {
      if (c > 0) bytes[at++] = COMMA;
      at = writeFloat32(bytes, at, values[i]);
    }
    bytes[at++] = json ? CLOSE : NEWLINE;
  }
  return at;
}

function float64Rows(bytes, values, width, rows, json, continued) {
  let at = 0;
  for (let row = 0, i = 0; row < rows; row++) {
    if (json) at = openRow(bytes, at, row > 0 || continued);
    for (let c = 0; c < width; c++, i++) {
      if (c > 0) bytes[at++] = COMMA;
      at = writeFloat64(bytes, at, values[i]);
    }
    bytes[at++] = json ? CLOSE : NEWLINE;
  }
  return at;
}

// A JSON row's "[", after ",\n" when rows precede it.
function openRow(bytes, at, separated) {
  if (separated) {
    bytes[at++] = COMMA;
    bytes[at++] = NEWLINE;
  }
  bytes[at++] = OPEN;
  return at;
}

// ASCII is UTF-8: its decoder is the fast one everywhere.
const ascii = new TextDecoder();

/** CSV of `values` as `rows` × `columns`, with an optional header row. */
function toCsvOf(values, columns, header) {
  const body = ascii.decode(encodeRows(values, columns));
  return header === undefined ? body || "\n" : header.join(",") + "\n" + body;
}

// The public functions, each naming itself in the errors it raises.
export function toCsv(...args) {
  return calling("toCsv", toCsvOf, args);
}
