// The encoding table, its frequencies and its column map. Options are read,
// checked and resolved once (prepare); `table` runs them once,
// `createTable` keeps them for many calls of rows at new positions.
import * as kernels from "./core.js";
import { paddingRows, presets } from "./presets.js";
import { blockRows, checkAngles, inBlocks } from "./blocks.js";
import { deliver, outArray } from "./rows.js";
import {
  allocateView,
  MAX_REQUEST_BYTES,
  memoryBuffer,
  Reservation,
  withScratch,
} from "./core.js";
import {
  boolean,
  calling,
  positionList,
  rangeError,
  readOptions,
  typeError,
  write,
  zero,
} from "./options.js";
import {
  amplitudeOf,
  DTYPES,
  followsFrom,
  LAYOUTS,
  ODD_DIMS,
  prepare,
  SCHEDULE_OPTIONS,
  scheduleFrequencies,
} from "./schedule.js";

const TABLE_OPTIONS = [
  ...SCHEDULE_OPTIONS,
  "positions",
  "start",
  "layout",
  "scale",
  "outputScale",
  "dtype",
  "view",
  "out",
];
const TABLE_WITH_PRESET = ["positions", "dtype", "view", "out"];
// What a table plan takes per call, and the options that stay fixed.
const PER_CALL = ["positions", "start", "out"];
const PLAN_OPTIONS = TABLE_OPTIONS.filter(
  (key) => !PER_CALL.includes(key) && key !== "view",
);
const PLAN_HINTS = {
  positions: "it is given per call: plan.rows(positions, { start, out })",
  start: "it is given per call: plan.rows(count, { start })",
  out: "it is given per call: plan.rows(positions, { out })",
  view: "a plan's rows go to a new array or to out",
};

// Blocks of a view: large enough that setting up each call costs nothing
// measurable, small enough that a first call soon runs optimised code.
const VIEW_BLOCK_BYTES = 16 * 2 ** 20;

const prepareTable = (options, where) =>
  prepare(options, {
    where,
    allowed: TABLE_OPTIONS,
    withPreset: TABLE_WITH_PRESET,
  });

/**
 * The angular frequencies w_i that `table` uses for these options (the angle
 * of pair i at position p is p * scale * w_i).
 */
function frequenciesOf(options) {
  const p = prepareTable(options, "frequencies()");
  const out = outArray(p.options.out, Float64Array, p.pairs);
  return deliver(out, scheduleFrequencies(p).omega);
}

/**
 * What each column of a table row holds under these options (a preset's
 * own layout and odd-dim rule included), as the C core places it: kinds[c]
 * is "sin", "cos" or "zero", pairs[c] the pair i whose frequency w_i it
 * takes (-1 for a zero column).
 */
function tableColumnsOf(options) {
  const p = prepareTable(options, "tableColumns()");
  return withScratch((scratch) => {
    const out = scratch(p.dim * 4, "the column map");
    kernels.tableColumns({
      api: p.api,
      given: p,
      out,
      dim: p.dim,
      layout: p.layout,
      oddDim: p.oddDim,
      pairs: p.pairs,
    });
    const codes = new Int32Array(memoryBuffer(), out, p.dim).slice();
    return {
      layout: LAYOUTS[p.layout],
      oddDim: ODD_DIMS[p.oddDim],
      kinds: Array.from(codes, (c) => (c < 0 ? "zero" : c % 2 ? "cos" : "sin")),
      pairs: codes.map((c) => (c < 0 ? -1 : c >> 1)),
    };
  });
}

/** The encoding table, row-major [positions, dim]. */
function tableOf(options) {
  const p = prepareTable(options, "table()");
  const { positions, start, out, view = false } = p.options;
  return run(p, positions, start, out, boolean(view, "view"));
}

/**
 * A table plan: `createTable(options)` reads, checks and resolves every
 * option but the positions once; `rows(positions, perCall?)` then equals
 * `table({ ...options, positions, ...perCall })` bit for bit, where
 * perCall holds only `start` and `out`. The plan keeps its frequencies and
 * its module memory (a block of rows) between calls; `dispose()` frees it.
 */
// A plan collected without dispose() gives its module memory back.
const unreleased = new FinalizationRegistry((memory) => memory.release());

class TablePlan {
  #prepared;
  #kept = { memory: new Reservation("a table plan"), schedule: null };
  #disposed = false;

  constructor(prepared) {
    this.#prepared = prepared;
    unreleased.register(this, this.#kept.memory, this);
  }

  rows(positions, perCall) {
    if (this.#disposed)
      throw Object.assign(
        new Error(
          "sinusoidal-pe: table plan: rows() after dispose(); create a new plan with createTable()",
        ),
        { code: "ERR_DISPOSED" },
      );
    return calling("table", planRows, [
      this.#prepared,
      positions,
      perCall,
      this.#kept,
    ]);
  }

  /** Frees the plan's module memory; the plan cannot be used after. */
  dispose() {
    this.#disposed = true;
    this.#kept.memory.release();
    unreleased.unregister(this);
  }
}

// A plan's call: its per-call options read once, then table's run in the
// plan's own memory.
function planRows(p, positions, perCall, kept) {
  let start, out;
  if (perCall !== undefined) {
    const given = readOptions(
      perCall,
      ["start", "out"],
      "a table plan's rows()",
      {
        name: "the per-call options",
        path: "perCall",
      },
    );
    ({ start, out } = given);
  }
  // A preset's first position is a parameter of its own (as table says).
  if (start !== undefined && p.preset !== null)
    throw typeError(
      `option "start" is not a parameter of preset "${p.preset}" (its parameters: ${Object.keys(presets[p.preset].parameters).join(", ")})`,
      "start",
      "ERR_NOT_APPLICABLE",
    );
  return run(p, positions, start, out, false, kept);
}

/** A table plan of these options (all of table's, but positions, start, out and view). */
function createTableOf(options) {
  const p = prepare(options, {
    where: "createTable()",
    allowed: PLAN_OPTIONS,
    withPreset: ["dtype"],
    hints: PLAN_HINTS,
  });
  // The plan's rows are table's: their errors say so.
  p.api = "table";
  return new TablePlan(p);
}

/** The rows of a prepared table at `positions` (a count from `start`, or a list). */
function run(p, positions, startOption, outOption, view, kept = null) {
  const rows = positionList(positions, startOption, {
    min: 0,
    maxCount: 2 ** 32 - 1,
    maxArray: 2 ** 32 - 1,
  });
  let { start } = rows;
  if (p.presetStart !== null) {
    if (rows.values !== null && p.presetStart.value !== 0)
      throw typeError(
        `option "${p.presetStart.key}" applies when "positions" is a count; add it to the explicit positions instead`,
        p.presetStart.key,
        "ERR_NOT_APPLICABLE",
      );
    start = p.presetStart.value;
  }
  const { count, values } = rows;
  const zeroRows = paddingRows(p.padding, count, values);
  const Typed = p.float32 ? Float32Array : Float64Array;
  const bytes = count * p.dim * Typed.BYTES_PER_ELEMENT;
  if (bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `a table of ${count} × ${p.dim} ${DTYPES[p.dtype]} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
      "positions",
      "ERR_SIZE",
    );

  const out = outArray(outOption, Typed, count * p.dim, { view });
  const kernel = p.float32 ? kernels.tableF32 : kernels.tableF64;
  // The largest position sets the sequence length of a scaling that
  // follows it.
  let largest = values === null && count > 0 ? start + count - 1 : -Infinity;
  if (values !== null) for (const v of values) if (v > largest) largest = v;
  // A plan keeps its schedule's frequencies from its first call, unless a
  // scaling follows each call's positions.
  const fixed = p.rope === null || followsFrom(p.rope) === Infinity;
  const { omega: frequencyValues, attention } =
    kept !== null && fixed
      ? (kept.schedule ??= scheduleFrequencies(p, largest))
      : scheduleFrequencies(p, largest);
  const amplitude = amplitudeOf(p, attention);
  const args = {
    api: p.api,
    given: p,
    out: 0,
    positions: 0,
    count: 0,
    start,
    dim: p.dim,
    layout: p.layout,
    oddDim: p.oddDim,
    omega: 0,
    pairs: p.pairs,
    scale: p.scale,
    amplitude,
  };
  const rowBytes = p.dim * Typed.BYTES_PER_ELEMENT;
  // A view takes larger blocks (each call sets up its frequencies anew)
  // where the blocks cannot change a value: rows at exact integers,
  // advanced from the same re-seeded rows whatever the block size.
  // Elsewhere (a fractional start, explicit positions) where a block
  // begins can decide which rows the core advances, so a view takes the
  // blocks of a copied result, and the two always hold the same values,
  // bit for bit. A view is computed in blocks too: V8 runs a call that
  // started in its baseline tier to the end there, and blocks let a long
  // first call move on to optimised code.
  const integerRows =
    values === null &&
    Number.isSafeInteger(start) &&
    Number.isSafeInteger(start + count - 1);
  const rowsPerBlock =
    view && integerRows
      ? blockRows(count, rowBytes, VIEW_BLOCK_BYTES)
      : blockRows(count, rowBytes);
  // One block of module memory: the frequencies, the angle check's report,
  // the positions, the rows.
  const pointsBytes = values === null ? 0 : count * 8;
  const blockBytes =
    p.pairs * 8 + 16 + pointsBytes + (view ? 0 : rowsPerBlock * rowBytes);
  const fill = (base, frequenciesKept) => {
    args.omega = base;
    if (!frequenciesKept)
      new Float64Array(memoryBuffer(), base, p.pairs).set(frequencyValues);
    const report = base + p.pairs * 8;
    // The first block checks option "scale" and the output scale before it
    // writes; a view is allocated before it, and no rows have no block, so
    // a call of no rows checks them there.
    if (view || count === 0) kernel(args);
    let pointer = 0;
    if (values !== null) {
      pointer = report + 16;
      new Float64Array(memoryBuffer(), pointer, count).set(values);
    }
    const angles = {
      api: p.api,
      xs: pointer,
      count,
      start,
      omega: base,
      pairs: p.pairs,
      scale: p.scale,
    };
    // Rows of one block reach the result only after the kernel has taken
    // them all: its refusal leaves the result untouched, and the angle
    // check, which the kernel's own checks imply, then finds the position
    // to quote. Rows of several blocks are checked before the first.
    const oneBlock = !view && count <= rowsPerBlock;
    if (!oneBlock) checkAngles(report, angles);
    const at = view
      ? allocateView(bytes, "the table")
      : report + 16 + pointsBytes;
    const result = view ? null : (out ?? new Typed(count * p.dim));
    for (const [first, n] of inBlocks(count, rowsPerBlock)) {
      args.out = view ? at + first * rowBytes : at;
      args.positions = pointer === 0 ? 0 : pointer + first * 8;
      args.count = n;
      args.start = start + first;
      try {
        kernel(args);
      } catch (error) {
        if (oneBlock) checkAngles(report, angles);
        throw error;
      }
      if (!view)
        write(
          result,
          new Typed(memoryBuffer(), args.out, n * p.dim),
          first * p.dim,
        );
    }
    const filled = result ?? new Typed(memoryBuffer(), at, count * p.dim);
    for (const row of zeroRows) zero(filled, row * p.dim, (row + 1) * p.dim);
    return filled;
  };
  // A plan keeps its block between calls, and its frequencies in it where
  // they are fixed.
  if (kept !== null)
    return fill(kept.memory.reserve(blockBytes), fixed && !kept.memory.fresh);
  return withScratch((scratch) =>
    fill(scratch(blockBytes, "the table"), false),
  );
}

// The public functions, each naming itself in the errors it raises.
export function frequencies(...args) {
  return calling("frequencies", frequenciesOf, args);
}
export function tableColumns(...args) {
  return calling("tableColumns", tableColumnsOf, args);
}
export function table(...args) {
  return calling("table", tableOf, args);
}
export function createTable(...args) {
  return calling("createTable", createTableOf, args);
}
