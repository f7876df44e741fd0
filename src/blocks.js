// Results written in blocks: a large result is computed block by block in
// module memory (rows turned by R(k) or RoPE chunk by chunk), each block
// copied out while it is still in cache, so no full-size temporary is
// needed and module memory stays small. Every angle is checked before the
// first block, so that an error leaves the result untouched.
import { RESEED, STATUS_NAMES } from "sinusoidal-pe-constants";
import * as kernels from "./core.js";
import { copyOf, lengthOf, rangeError, section, write } from "./options.js";
import { mayShareMemory } from "./rows.js";
import {
  memoryBuffer,
  moduleView,
  withScratch,
  withWorkspace,
} from "./core.js";

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
 * to the first block, whose kernel names them. `report` points to the two
 * doubles the core reports in (scratch of 16 bytes, reused for every check
 * of a call).
 */
export function checkAngles(
  report,
  { api, xs = 0, count, start = 0, omega, pairs, scale, name = "positions" },
) {
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
  if (status !== bad) kernels.check(status, api);
  const [j, largest] = new Float64Array(memoryBuffer(), report, 2);
  const x =
    xs === 0 ? start + j : new Float64Array(memoryBuffer(), xs, count)[j];
  const frequency =
    scale === 1
      ? "the largest frequency"
      : `the largest frequency times option "scale" (${scale})`;
  throw rangeError(
    kernels.named(
      api,
      `${name} × ${frequency} must be a finite angle: ${x} × ${largest} is not finite`,
    ),
    name,
    STATUS_NAMES[status].replace(/^PE_/, ""),
  );
}

/**
 * Turns the rows of `task` in module memory with task.kernel(chunk, task),
 * chunk = { data, count, repeat, span, list, one, omega, streams }: `data`
 * the chunk's rows, turned in place; `omega` the frequencies (written from
 * the JS-owned `omega`); `streams` M-RoPE's stream of each pair (written
 * from the JS-owned `streams`), or 0. The task: `rows` (`count` rows of
 * `dim` values of `Typed`), in groups of `repeat` rows that share an
 * angle: `angles` is one number for every row, or a Float64Array of
 * `width` per group (M-RoPE's t, h and w: width 3). The angle sequence
 * restarts every `segment` groups (a new sequence of a tensor), and each
 * kernel call stays within one, where evenly spaced angles take the core's
 * recurrence. With `apart` (a batch × heads × seq tensor) the rows of a
 * group are `segment` rows apart in `rows`. `list` points to the chunk's
 * angles or is 0, `one` is the angle of every row. `name` is the option
 * the angles come from, `api` the public function, `scale` the frequencies'
 * scale; `tag` (or null) marks a plan's frequencies, `out` (or null) is
 * where the rows go. Returns `out`, or a new array of the same type. An
 * error leaves `rows` and `out` untouched.
 *
 * The one driver of every rotation: rows that fit one block are copied in
 * whole, turned by a kernel call per sequence (a head's rows `segment`
 * apart, `span`), and copied out after the last, with the frequencies and
 * streams first in the block, where a plan's next call (`tag`) finds them;
 * larger rows go chunk by chunk, every angle checked first. A caller may
 * fill one task object for every call: no code of the caller's runs
 * between its filling and the return, and nothing here allocates for rows
 * that fit one block.
 */
export function turnRows(task) {
  const { count, dim, Typed } = task;
  if (count !== 0 && Typed.BYTES_PER_ELEMENT * count * dim <= BLOCK_BYTES)
    return withWorkspace(turnInOneBlock, task.tag, task);
  // Blocks written out before later ones are read in need rows apart from
  // the result: shared memory may be the same through another object.
  if (task.out !== null && mayShareMemory(task.out, task.rows))
    task.rows = copyOf(task.rows);
  return withWorkspace(turnInChunks, null, task);
}

// The chunk a kernel call turns, filled anew for each call.
const chunk = {
  data: 0,
  count: 0,
  repeat: 1,
  span: 1,
  list: 0,
  one: 0,
  omega: 0,
  streams: 0,
};

// Every angle of n groups of the task, checked as checkAngles does: at xs
// (a pointer) or from start.
function checkTask(task, report, omega, xs, n, start) {
  checkAngles(report, {
    api: task.api,
    xs,
    count: n,
    start,
    omega,
    pairs: task.omega.length,
    scale: task.scale,
    name: task.name,
  });
}

function turnInOneBlock(scratch, keptAt, task) {
  const { rows, Typed, count, dim, angles, streams, repeat } = task;
  const list = typeof angles === "number" ? null : angles;
  const pairs = task.omega.length;
  // One block: the frequencies and streams first (kept there between a
  // plan's calls), then the angles and rows.
  const size = count * dim;
  const streamsBytes = streams === null ? 0 : (pairs + 7) & ~7;
  const anglesBytes = list === null ? 0 : list.length * 8;
  const omega = scratch(
    pairs * 8 + streamsBytes + anglesBytes + size * Typed.BYTES_PER_ELEMENT,
    "the rows",
  );
  const streamsAt = omega + pairs * 8;
  const anglesAt = streamsAt + streamsBytes;
  const data = anglesAt + anglesBytes;
  if (!keptAt(omega)) {
    write(moduleView(Float64Array, omega, pairs), task.omega);
    if (streams !== null)
      write(moduleView(Uint8Array, streamsAt, pairs), streams);
  }
  if (list !== null)
    write(moduleView(Float64Array, anglesAt, list.length), list);
  const region = moduleView(Typed, data, size);
  write(region, lengthOf(rows) === size ? rows : section(rows, 0, size));
  // A tensor's sequences are contiguous in both orders.
  const groups = count / repeat;
  const sequences = task.segment === Infinity ? 1 : groups / task.segment;
  const perSequence = count / sequences;
  chunk.count = perSequence;
  chunk.repeat = repeat;
  chunk.span = task.apart ? task.segment : 1;
  chunk.one = list === null ? angles : 0;
  chunk.omega = omega;
  chunk.streams = streams === null ? 0 : streamsAt;
  // The core checks the angles of each call before turning any row; its
  // refusal leaves the caller's rows untouched, and the angle check then
  // finds the value to quote.
  try {
    for (let b = 0; b < sequences; b++) {
      chunk.data = data + b * perSequence * dim * Typed.BYTES_PER_ELEMENT;
      chunk.list =
        list === null ? 0 : anglesAt + ((b * list.length) / sequences) * 8;
      task.kernel(chunk, task);
    }
  } catch (error) {
    if (
      error.code === (task.name === "offsets" ? "ERR_OFFSETS" : "ERR_POSITIONS")
    )
      withScratch((scratch) =>
        checkTask(
          task,
          scratch(16, "the angle check"),
          omega,
          list === null ? 0 : anglesAt,
          list === null ? 1 : list.length,
          list === null ? angles : 0,
        ),
      );
    throw error;
  }
  const result = task.out ?? new Typed(size);
  write(result, region);
  return result;
}

function turnInChunks(scratch, keptAt, task) {
  const { Typed, count, dim, angles, repeat, width, segment, apart } = task;
  const list = typeof angles === "number" ? null : angles;
  const pairs = task.omega.length;
  const result = task.out ?? new Typed(count * dim);
  const groupBytes = Typed.BYTES_PER_ELEMENT * dim * repeat;
  const perChunk = Math.max(1, Math.floor(BLOCK_BYTES / groupBytes));
  const groups = count / repeat;
  const omega = scratch(pairs * 8, "frequencies");
  new Float64Array(memoryBuffer(), omega, pairs).set(task.omega);
  const report = scratch(16, "the angle check");
  if (list === null) checkTask(task, report, omega, 0, 1, angles);
  let streamsAt = 0;
  if (task.streams !== null) {
    streamsAt = scratch(pairs, "M-RoPE streams");
    new Uint8Array(memoryBuffer(), streamsAt, pairs).set(task.streams);
  }
  if (count === 0) return result;
  const n = Math.min(perChunk, groups);
  const data = scratch(n * groupBytes, "the rows");
  const anglesPointer = list === null ? 0 : scratch(n * width * 8, task.name);
  const anglesOf = (first, m) =>
    write(
      new Float64Array(memoryBuffer(), anglesPointer, m * width),
      list.subarray(first * width, (first + m) * width),
    );
  // Every angle is checked before the first chunk is turned.
  if (list !== null)
    for (const [first, m] of inBlocks(groups, n)) {
      anglesOf(first, m);
      checkTask(task, report, omega, anglesPointer, m * width, 0);
    }
  chunk.data = data;
  chunk.repeat = repeat;
  chunk.list = anglesPointer;
  chunk.one = list === null ? angles : 0;
  chunk.omega = omega;
  chunk.streams = streamsAt;
  for (const [first, m] of inBlocks(groups, perChunk, segment)) {
    const sequence = Math.floor(first / segment);
    // Where the chunk's rows are in `rows`: one run, or one per head.
    const runs = apart ? repeat : 1;
    const size = m * (apart ? 1 : repeat) * dim;
    const at = (r) =>
      apart
        ? ((sequence * repeat + r) * segment + first - sequence * segment) * dim
        : first * repeat * dim;
    let into = data;
    for (let r = 0; r < runs; r++) {
      write(
        new Typed(memoryBuffer(), into, size),
        section(task.rows, at(r), size),
      );
      into += size * Typed.BYTES_PER_ELEMENT;
    }
    if (list !== null) anglesOf(first, m);
    chunk.count = m * repeat;
    chunk.span = apart ? m : 1;
    task.kernel(chunk, task);
    into = data;
    for (let r = 0; r < runs; r++) {
      write(result, new Typed(memoryBuffer(), into, size), at(r));
      into += size * Typed.BYTES_PER_ELEMENT;
    }
  }
  return result;
}
