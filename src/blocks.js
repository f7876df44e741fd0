// Results written in blocks: a large result is computed block by block in
// module memory, each block copied out while it is still in cache, so no
// full-size temporary is needed and module memory stays small. Every angle
// is checked before the first block, so that an error leaves the result
// untouched.
import { RESEED, STATUS_NAMES } from "sinusoidal-pe-constants";
import * as kernels from "./kernels.js";
import { rangeError } from "./options.js";
import { memoryBuffer } from "./runtime.js";
import { check } from "./status.js";

const STATUS_POSITIONS = STATUS_NAMES.indexOf("PE_ERR_POSITIONS");
const STATUS_OFFSETS = STATUS_NAMES.indexOf("PE_ERR_OFFSETS");

// A block is a multiple of the core's re-seeding interval (PE_RESEED rows),
// so with integer positions from a count its rows are those of one call over
// all rows, bit for bit.
export const BLOCK_BYTES = 2 ** 20;

/**
 * Rows per block of about `blockBytes` for rows of `rowBytes` bytes, at most
 * `count`.
 */
export function blockRows(count, rowBytes, blockBytes = BLOCK_BYTES) {
  const reseeds = Math.max(1, Math.floor(blockBytes / (RESEED * rowBytes)));
  return Math.min(count, RESEED * reseeds);
}

/**
 * The one block loop: [first, n] for blocks of at most `rowsPerBlock` of
 * `count` rows, in order (`for (const [first, n] of inBlocks(...))`, in
 * sync and async code alike). No block crosses a multiple of `segment` (a
 * new sequence of a tensor, whose angles restart).
 */
export function* inBlocks(count, rowsPerBlock, segment = Infinity) {
  for (let first = 0, end; first < count; first = end) {
    const next = (Math.floor(first / segment) + 1) * segment;
    end = Math.min(first + rowsPerBlock, count, next);
    yield [first, end - first];
  }
}

/**
 * Every angle x · scale · w_i of a call that writes its result in blocks,
 * checked by the core before the first block, so that an error leaves the
 * result untouched: x = xs[j] (`xs` a pointer to `count` values in module
 * memory) or start + j (`xs` 0). `name` is the option x belongs to,
 * "positions" or "offsets"; the core finds the first bad x, and the message
 * quotes it. A scale or frequencies whose products are not finite are left
 * to the first block, whose kernel names them.
 */
export function checkAngles(
  scratch,
  { api, xs = 0, count, start = 0, omega, pairs, scale, name = "positions" },
) {
  const report = scratch(16, "the angle check");
  const bad = name === "offsets" ? STATUS_OFFSETS : STATUS_POSITIONS;
  const status = kernels.checkAngles({
    api,
    xs,
    count,
    start,
    omega,
    pairs,
    scale,
    bad,
    report,
  });
  if (status === 0) return;
  if (status !== bad) check(status, api);
  const [j, largest] = new Float64Array(memoryBuffer(), report, 2);
  const x =
    xs === 0 ? start + j : new Float64Array(memoryBuffer(), xs, count)[j];
  const frequency =
    scale === 1
      ? "the largest frequency"
      : `the largest frequency times option "scale" (${scale})`;
  throw rangeError(
    `${api}: ${name} × ${frequency} must be a finite angle: ${x} × ${largest} is not finite`,
    name,
    STATUS_NAMES[status].replace(/^PE_/, ""),
  );
}
