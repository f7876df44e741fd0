// Writes rows of values, produced block by block, in every output format,
// with a progress bar on a terminal.
import { encodeRows } from "../csv.js";
import {
  DESCRIPTORS,
  float16ToFloat32,
  littleEndianBytes,
  npyHeader,
} from "../npy.js";
import { blockRows, inBlocks } from "../blocks.js";

const BLOCK_BYTES = 2 ** 24;
const TEXT_BLOCK_VALUES = 2 ** 18;

function progress(total) {
  if (!process.stderr.isTTY) return { update() {}, done() {} };
  const started = Date.now();
  let shown = false;
  return {
    update(done) {
      if (!shown && Date.now() - started < 500) return;
      shown = true;
      const width = 30;
      const filled = Math.round((done / total) * width);
      process.stderr.write(
        `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.floor((100 * done) / total)}% ${done}/${total} rows`,
      );
    },
    done() {
      if (shown) process.stderr.write("\n");
    },
  };
}

// Writes `parts` (one for a table; cos and sin for a cache), each `rows` ×
// `columns` values produced block by block by `rowsAt(first, count)`, in the
// chosen format: npy and f32 as [parts…, rows, columns], csv as the rows of
// each part in turn, json as nested arrays.
export async function writeRows(
  out,
  format,
  { kind, rows, columns, parts, block },
) {
  const nested = parts.length > 1;
  const bar = progress(rows * parts.length);
  if (format === "npy")
    await out.write(
      npyHeader(
        DESCRIPTORS[kind],
        nested ? [parts.length, rows, columns] : [rows, columns],
      ),
    );
  if (format === "json") await out.write(nested ? "[[" : "[");
  for (const [part, rowsAt] of parts.entries()) {
    if (format === "json" && part > 0) await out.write("],\n[");
    for (const [first, count] of inBlocks(rows, block)) {
      let values = rowsAt(first, count);
      // float16 is written as bits in .npy, else as its float32 values.
      if (kind === "Uint16Array" && format !== "npy")
        values = float16ToFloat32(values);
      else if (format === "f32" && kind !== "Float32Array")
        values = Float32Array.from(values);
      if (format === "npy" || format === "f32")
        await out.write(littleEndianBytes(values));
      else
        await out.write(
          encodeRows(values, columns, {
            json: format === "json",
            continued: first > 0,
          }),
        );
      bar.update(part * rows + first + count);
    }
  }
  if (format === "json") await out.write(nested ? "]]\n" : "]\n");
  bar.done();
}

// Rows per block: the library's own block rule (whole re-seed periods, so
// blocks of integer positions give the values of one call) at about 16 MiB,
// or 2^18 values of text.
export function blockRowsFor(format, rows, rowBytes, bytesPerValue, asked) {
  if (asked !== undefined) return asked;
  const budget =
    format === "csv" || format === "json"
      ? TEXT_BLOCK_VALUES * bytesPerValue
      : BLOCK_BYTES;
  return Math.max(1, blockRows(rows, rowBytes, budget));
}

// The library's checks of a count of rows, run without computing them: the
// probe's `out` fits no result, and the library refuses it only after every
// check of the count (or refuses a result too large for one call, which
