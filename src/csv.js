// Comma-separated text of a row-major table, one row per line. Values keep
// the digits that round-trip to the same number in the array's precision.
import { integer, rangeError, typeError } from "./options.js";

function digits(values) {
  if (values instanceof Float32Array) return (v) => shortestFloat32(v);
  if (values instanceof Float64Array || Array.isArray(values)) return String;
  throw typeError("values must be a Float32Array, a Float64Array or an array");
}

// The shortest decimal that rounds back to the same float32.
function shortestFloat32(v) {
  for (let precision = 1; precision < 9; precision++) {
    const text = v.toPrecision(precision);
    if (Math.fround(Number(text)) === v) return String(Number(text));
  }
  return String(Number(v.toPrecision(9)));
}

/** CSV of `values` as `rows` × `columns`, with an optional header row. */
export function toCsv(values, columns, header) {
  const format = digits(values);
  const width = integer(columns, "columns", 1, 2 ** 32 - 1);
  if (values.length % width !== 0)
    throw rangeError(
      `values has ${values.length} entries, not a multiple of ${width} columns`,
    );
  const lines = header === undefined ? [] : [header.join(",")];
  for (let start = 0; start < values.length; start += width) {
    const row = new Array(width);
    for (let c = 0; c < width; c++) row[c] = format(values[start + c]);
    lines.push(row.join(","));
  }
  return lines.join("\n") + "\n";
}
