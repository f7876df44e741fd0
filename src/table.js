// The encoding table, its frequencies and its column map. Options are read,
// checked and resolved once (prepare); `table` runs them once,
// `createTable` keeps them for many calls of rows at new positions.
import * as kernels from "./core.js";
import { paddingRows, presets } from "./presets.js";
import { blockRows, checkAngles } from "./blocks.js";
import { deliver, outArray } from "./rows.js";
import {
  allocateView,
  disposePlan,
  MAX_REQUEST_BYTES,
  memoryBuffer,
  moduleView,
  openPlan,
  Plan,
  slotsOf,
  withScratch,
  withWorkspace,
} from "./core.js";
import {
  boolean,
  calling,
  callingMethod,
  firstPosition,
  integer,
  positionList,
  rangeError,
  readOptions,
  readPerCall,
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

/**
 * A prepared table's frequencies, resolved once: { omega, amplitude,
 * followsFrom }, the amplitude that of every value; a call reaching
 * position followsFrom (a dynamic or longrope scaling given no seqLen)
 * takes its own.
 */
function resolve(p, largest = -Infinity) {
  const { omega, attention } = scheduleFrequencies(p, largest);
  const from = p.rope === null ? Infinity : followsFrom(p.rope);
  return { omega, amplitude: amplitudeOf(p, attention), followsFrom: from };
}

/** The encoding table, row-major [positions, dim]. */
function tableOf(options) {
  const p = prepareTable(options, "table()");
  const { positions, start, out, view = false } = p.options;
  return run(p, resolve(p), positions, start, out, boolean(view, "view"));
}

const TABLE_PLAN = { kind: "table plan", create: "createTable", api: "table" };

/**
 * A table plan: `createTable(options)` reads, checks and resolves every
 * option but the positions once; `rows(positions, perCall?)` then equals
 * `table({ ...options, positions, ...perCall })` bit for bit, where
 * perCall holds only `start` and `out`. It holds no module memory.
 */
class TablePlan extends Plan {
  rows(positions, perCall) {
    return callingMethod("table", planRows, this, positions, perCall);
  }

  /** Ends the plan: rows() then throws; a second dispose() does nothing. */
  dispose() {
    disposePlan(this, TABLE_PLAN);
  }
}

const PLAN_PER_CALL = ["start", "out"];

// A plan's call: the plan's options, its per-call options read once, then
// table's run.
function planRows(plan, positions, perCall) {
  const { prepared: p, resolved } = openPlan(plan, TABLE_PLAN, "rows");
  const given = readPerCall(perCall, PLAN_PER_CALL, "a table plan's rows()");
  const start = given.first;
  const out = given.second;
  // A preset's first position is a parameter of its own (as table says).
  if (start !== undefined && p.preset !== null)
    throw typeError(
      `option "start" is not a parameter of preset "${p.preset}" (its parameters: ${Object.keys(presets[p.preset].parameters).join(", ")})`,
      "start",
      "ERR_NOT_APPLICABLE",
    );
  return run(p, resolved, positions, start, out, false);
}

/**
 * A table plan of these options (all of table's, but positions, start,
 * out and view): its frequencies resolved and its values checked by the C
 * core here, in a call of no rows, so that a plan that is made runs.
 */
function createTableOf(options) {
  const p = prepare(options, {
    where: "createTable()",
    allowed: PLAN_OPTIONS,
    withPreset: ["dtype"],
    hints: PLAN_HINTS,
  });
  // The plan's rows are table's: a fault names it.
  p.api = "table";
  const resolved = resolve(p);
  run(p, resolved, 0, undefined, undefined, false);
  return new TablePlan(TABLE_PLAN, { prepared: p, resolved });
}

// The positions a table takes: a count, or a list of at most as many.
const MAX_ROWS = 2 ** 32 - 1;
const POSITIONS = { min: 0, maxCount: MAX_ROWS, maxArray: MAX_ROWS };
const NO_ROWS = Object.freeze([]);
const AS_VIEW = Object.freeze({ view: true });

/** The rows of a prepared table at `positions` (a count from `start`, or a list). */
function run(p, resolved, positions, startOption, outOption, view) {
  // A count is read here, into no object: a plan's row per token
  // allocates nothing.
  const rows =
    typeof positions === "number"
      ? null
      : positionList(positions, startOption, POSITIONS);
  const count =
    rows === null ? integer(positions, "positions", 0, MAX_ROWS) : rows.count;
  let start = rows === null ? firstPosition(startOption) : rows.start;
  const values = rows === null ? null : rows.values;
  if (p.presetStart !== null) {
    if (values !== null && p.presetStart.value !== 0)
      throw typeError(
        `option "${p.presetStart.key}" applies when "positions" is a count; add it to the explicit positions instead`,
        p.presetStart.key,
        "ERR_NOT_APPLICABLE",
      );
    start = p.presetStart.value;
  }
  const zeroRows =
    p.padding === null ? NO_ROWS : paddingRows(p.padding, count, values);
  const Typed = p.float32 ? Float32Array : Float64Array;
  const bytes = count * p.dim * Typed.BYTES_PER_ELEMENT;
  if (bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `a table of ${count} × ${p.dim} ${DTYPES[p.dtype]} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
      "positions",
      "ERR_SIZE",
    );

  const out = outArray(
    outOption,
    Typed,
    count * p.dim,
    view ? AS_VIEW : undefined,
  );
  // The largest position sets the sequence length of a scaling that
  // follows it.
  let largest = values === null && count > 0 ? start + count - 1 : -Infinity;
  if (values !== null)
    for (let k = 0; k < values.length; k++)
      if (values[k] > largest) largest = values[k];
  const { omega, amplitude } =
    largest >= resolved.followsFrom ? resolve(p, largest) : resolved;
  // Filled after every input was read: no code of the caller's runs from
  // here to the return, so one task serves every call.
  task.p = p;
  task.count = count;
  task.start = start;
  task.values = values;
  task.zeroRows = zeroRows;
  task.Typed = Typed;
  task.bytes = bytes;
  task.out = out;
  task.view = view;
  task.omega = omega;
  task.kernel = p.float32 ? kernels.tableF32 : kernels.tableF64;
  // The kernel's arguments, in a list filled in place (a call per token
  // reads no argument by name).
  const at = (slots ??= slotsOf(kernels.tableF32));
  const list = argumentList;
  list[at.positions] = 0;
  list[at.dim] = p.dim;
  list[at.layout] = p.layout;
  list[at.oddDim] = p.oddDim;
  list[at.pairs] = p.pairs;
  list[at.scale] = p.scale;
  list[at.amplitude] = amplitude;
  // The plan's own frequencies stay in the workspace between its calls
  // while no other call has used it.
  const tag = omega === resolved.omega ? resolved : null;
  return withWorkspace(tableInWorkspace, tag, task);
}

// The task of every call's tableInWorkspace: run's inputs, read and
// checked, filled in one order every call.
const task = {};

// The kernel's argument positions and the one list a call fills: no code
// of the caller's runs between filling it and the call.
let slots = null;
const argumentList = [];

// One kernel call of the task: `count` rows at `out` (a pointer), at the
// positions at `positions` (a pointer) or from `first`.
function runKernel({ kernel, p }, out, positions, count, first) {
  const at = slots;
  const list = argumentList;
  list[at.out] = out;
  list[at.positions] = positions;
  list[at.count] = count;
  list[at.start] = first;
  kernel.withList(list, p.api, p);
}

// Every angle of the task, checked before its rows are written (or to
// find the one to quote).
function checkAll(scratch, { p, count, start }, pointer, omega) {
  checkAngles(scratch(16, "the angle check"), {
    api: p.api,
    xs: pointer,
    count,
    start,
    omega,
    pairs: p.pairs,
    scale: p.scale,
  });
}

function tableInWorkspace(scratch, kept, task) {
  const { p, count, start, values, Typed, view, out } = task;
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
  // One block of scratch: the frequencies, the positions, the rows.
  const pointsBytes = values === null ? 0 : count * 8;
  const base = scratch(
    p.pairs * 8 + pointsBytes + (view ? 0 : rowsPerBlock * rowBytes),
    "the table",
  );
  argumentList[slots.omega] = base;
  if (!kept(base)) write(moduleView(Float64Array, base, p.pairs), task.omega);
  // The first block checks option "scale" and the output scale before it
  // writes; a view is allocated before it, and no rows have no block, so
  // a call of no rows checks them there.
  if (view || count === 0) runKernel(task, 0, 0, 0, start);
  let pointer = 0;
  if (values !== null) {
    pointer = base + p.pairs * 8;
    write(moduleView(Float64Array, pointer, count), values);
  }
  // Rows of one block reach the result only after the kernel has taken
  // them all: its refusal leaves the result untouched, and the angle
  // check, which the kernel's own checks imply, then finds the position
  // to quote. Rows of several blocks are checked before the first.
  const oneBlock = !view && count <= rowsPerBlock;
  if (!oneBlock) checkAll(scratch, task, pointer, base);
  const rowsAt = view
    ? allocateView(task.bytes, "the table")
    : base + p.pairs * 8 + pointsBytes;
  const result = view ? null : (out ?? new Typed(count * p.dim));
  for (let first = 0, n; first < count; first += n) {
    n = Math.min(rowsPerBlock, count - first);
    const block = view ? rowsAt + first * rowBytes : rowsAt;
    try {
      runKernel(
        task,
        block,
        pointer === 0 ? 0 : pointer + first * 8,
        n,
        start + first,
      );
    } catch (error) {
      if (oneBlock) checkAll(scratch, task, pointer, base);
      throw error;
    }
    if (!view)
      write(result, moduleView(Typed, block, n * p.dim), first * p.dim);
  }
  const filled = result ?? new Typed(memoryBuffer(), rowsAt, count * p.dim);
  const { zeroRows } = task;
  for (let k = 0; k < zeroRows.length; k++)
    zero(filled, zeroRows[k] * p.dim, (zeroRows[k] + 1) * p.dim);
  return filled;
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
