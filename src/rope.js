// Rotary position embedding (RoPE) applied to rows or to the flat data of
// attention tensors, in float32, float64 or float16, over the whole head or
// its first `rotaryDim` columns. Options are read, checked and resolved
// once into a plan (schedule, frequencies, attention factor, tensor shape,
// M-RoPE streams); `createRope` keeps it for many calls, `rope` makes one
// and runs it once. The rotation runs in the C core.
import * as kernels from "./core.js";
import {
  calling,
  callingMethod,
  integer,
  isStreams,
  numbers,
  oneOf,
  rangeError,
  readOptions,
  readPerCall,
  typeError,
} from "./options.js";
import {
  DTYPE_OF_KIND,
  outputOf,
  perRow,
  readRows,
  resolveRows,
} from "./rows.js";
import { mropeSpec, readStreams, writeStreams } from "./mrope.js";
import { turnRows } from "./blocks.js";
import {
  Plan,
  disposePlan,
  memoryBuffer,
  openPlan,
  slotsOf,
  withScratch,
} from "./core.js";
import { CACHE_DTYPES, MAX_COUNT, PAIRINGS } from "sinusoidal-pe-constants";
import {
  followsFrom,
  prepare,
  ropeDims,
  SCHEDULE_OPTIONS,
  scheduleFrequencies,
} from "./schedule.js";

// rope takes no odd-dim rule (its rotary part is even) and no layout:
// pairing.
const ROPE_OPTIONS = [
  ...SCHEDULE_OPTIONS.filter((key) => key !== "oddDim"),
  "pairing",
  "scale",
];
const PER_CALL = ["inPlace", "out"];
const OWN = [
  ...["rotaryDim", "heads", "order", "batch"],
  ...["mropeSection", "mropeInterleaved"],
];
const HINTS = {
  layout:
    'rope pairs columns by option "pairing": "halves" (HF Llama rotate_half, the default) or "interleaved" (GPT-J rotate_every_two)',
};
const PLAN_HINTS = {
  ...HINTS,
  out: "it is given per call: plan.apply(vectors, positions, { out })",
  inPlace:
    "it is given per call: plan.apply(vectors, positions, { inPlace: true })",
};

// Tensor orders: batch × heads × seq × head dim, or batch × seq × heads ×
// head dim.
const ORDERS = ["bhsd", "bshd"];
const ROWS = -1;

/**
 * A plan's options, read and resolved once: every field is a number, an
 * enum, a JS-owned array or the prepared schedule (which builds the values
 * a message quotes only for an error). `omega` and `attention` are the
 * frequencies within the original context; a dynamic or longrope scaling
 * given no seqLen follows a call's positions from `followsFrom` on.
 */
class RopeSpec {
  constructor(dim, rotary, prepared, pairing, order, heads, batch) {
    const { omega, attention } = scheduleFrequencies(prepared);
    this.followsFrom =
      prepared.rope === null ? Infinity : followsFrom(prepared.rope);
    this.dim = dim;
    this.rotary = rotary;
    this.pairs = rotary / 2;
    this.prepared = prepared;
    this.pairing = pairing;
    this.order = order;
    this.heads = heads;
    this.batch = batch;
    this.omega = omega;
    this.attention = attention;
    this.scale = prepared.scale;
    this.streams = null;
  }
}

// The plan's options from a snapshot. With `perCall` (the one-shot
// function) the snapshot may also hold the call's own keys, out and
// inPlace, which the plan leaves to the call.
function readSpec(given, api, perCall) {
  const own = {};
  const schedule = {};
  for (const key of Object.keys(given))
    if (OWN.includes(key)) own[key] = given[key];
    else if (!perCall || !PER_CALL.includes(key)) schedule[key] = given[key];
  // M-RoPE's options are read only when given: plain RoPE needs none of it.
  const mrope =
    own.mropeSection === undefined && own.mropeInterleaved === undefined
      ? null
      : mropeSpec(own);
  const { dim, rotary } = ropeDims(given);
  if (own.order === undefined && (own.heads ?? own.batch) !== undefined)
    throw typeError(
      `options "heads" and "batch" describe a tensor: give "order" ("bhsd" or "bshd") too`,
      "order",
      "ERR_REQUIRED",
    );
  let order = ROWS;
  let heads = 1;
  let batch = 1;
  if (own.order !== undefined) {
    order = oneOf(own.order, "order", ORDERS);
    heads = integer(own.heads, "heads", 1, MAX_COUNT, "ERR_HEADS");
    if (own.batch !== undefined)
      batch = integer(own.batch, "batch", 1, MAX_COUNT);
  }
  // The schedule is that of the rotary part.
  schedule.dim = rotary;
  const prepared = prepare(schedule, {
    where: `${api}()`,
    allowed: ROPE_OPTIONS,
    withPreset: ["pairing"],
    oddDim: "zero-pad",
    hints: perCall ? HINTS : PLAN_HINTS,
  });
  // A plan's calls are rope's: its kernels' errors say so.
  prepared.api = "rope";
  const pairing = oneOf(
    prepared.options.pairing,
    "pairing",
    PAIRINGS,
    "halves",
    "ERR_PAIRING",
  );
  const spec = new RopeSpec(
    dim,
    rotary,
    prepared,
    pairing,
    order,
    heads,
    batch,
  );
  if (mrope !== null)
    // The stream of each pair; the C core checks the section.
    spec.streams = withScratch((scratch) => {
      const pointer = writeStreams(mrope, spec.pairs, scratch, "rope");
      return new Uint8Array(memoryBuffer(), pointer, spec.pairs).slice();
    });
  return spec;
}

/**
 * A call's positions read once into JS-owned values, before anything is
 * checked against the rows: a number or a Float64Array (plain RoPE), or
 * M-RoPE's three streams, an array of three Float64Arrays (a plain list
 * when they agree everywhere, as text tokens do). A call per token makes
 * no object here.
 */
function readPositions(spec, positions) {
  if (typeof positions === "number") {
    if (!Number.isFinite(positions))
      throw rangeError(
        `positions must be finite, got ${positions}`,
        "positions",
        "ERR_POSITIONS",
      );
    return positions;
  }
  if (positions === null || typeof positions !== "object")
    throw typeError(
      `positions must be a finite number or an array of numbers, got ${positions === null ? "null" : typeof positions}`,
      "positions",
      "ERR_TYPE",
    );
  if (isStreams(positions)) {
    if (spec.streams === null)
      throw typeError(
        'positions as { t, h, w } (M-RoPE) need option "mropeSection" (the pairs of each stream, e.g. fromConfig\'s for a Qwen2-VL config)',
        "mropeSection",
        "ERR_REQUIRED",
      );
    const streams = readStreams(positions);
    const [t, h, w] = streams;
    for (let j = 0; j < t.length; j++)
      if (!Object.is(t[j], h[j]) || !Object.is(t[j], w[j])) return streams;
    return t;
  }
  return numbers(positions, "positions", {
    bigints: true,
    code: "ERR_POSITIONS",
  });
}

// One angle list of `width` per group (token) for a tensor: the first
// position (a KV cache's past length: token s is at position + s), one per
// token of the sequence (shared by the batch), or one per token of every
// batch row; M-RoPE's three streams each so, interleaved.
function tensorAngles(spec, lists, seq) {
  const { batch, heads } = spec;
  const width = lists.length;
  const angles = new Float64Array(batch * seq * width);
  for (let k = 0; k < width; k++) {
    const list = lists[k];
    const name = width === 1 ? "positions" : `positions.${"thw"[k]}`;
    if (typeof list === "number") {
      for (let b = 0; b < batch; b++)
        for (let s = 0; s < seq; s++)
          angles[(b * seq + s) * width + k] = list + s;
      continue;
    }
    if (list.length !== seq && list.length !== batch * seq)
      throw rangeError(
        `${name} must hold seq (${seq}) or batch × seq (${batch * seq}) positions for ${batch} × ${heads} heads × ${seq} tokens, got ${list.length}`,
        name,
        "ERR_LENGTH",
      );
    const shared = list.length === seq;
    for (let b = 0; b < batch; b++)
      for (let s = 0; s < seq; s++)
        angles[(b * seq + s) * width + k] = list[shared ? s : b * seq + s];
  }
  return angles;
}

// The frequencies of a call whose positions give these angles: the plan's,
// unless the call's sequence reaches past the original context of a
// scaling that follows it.
function callFrequencies(spec, angles) {
  if (spec.followsFrom === Infinity) return spec;
  let largest = -Infinity;
  if (typeof angles === "number") largest = angles;
  else for (const p of angles) if (p > largest) largest = p;
  return largest >= spec.followsFrom
    ? scheduleFrequencies(spec.prepared, largest)
    : spec;
}

// M-RoPE positions { t, h, w } for rows (one of each per row): the rows'
// positions in groups of three.
function rowStreams(streams, count) {
  if (streams[0].length !== count)
    throw rangeError(
      `positions.t, .h and .w must have one entry per row: ${count} rows, got ${streams[0].length}`,
      "positions.t",
      "ERR_LENGTH",
    );
  const angles = new Float64Array(3 * count);
  for (let j = 0; j < count; j++)
    for (let k = 0; k < 3; k++) angles[3 * j + k] = streams[k][j];
  return angles;
}

/**
 * Runs the plan `spec` on a call's inputs, read in this order: the per-call
 * options, the positions, the rows (a plain array's elements); only then is
 * any typed array checked readable and measured, so that user code run
 * while reading (a getter, a Proxy) cannot leave the call a stale view.
 * The call's module memory is the workspace's, tagged with the spec: a
 * plan's next call finds its frequencies there.
 */
function run(spec, vectors, positions, outOption, inPlaceOption) {
  const read = readPositions(spec, positions);
  const streams = Array.isArray(read) ? read : null;
  const plain = streams === null ? read : null;
  const input = readRows(vectors, inPlaceOption);
  const { rows, count, Typed, inPlace } = resolveRows(
    input,
    spec.dim,
    outOption,
    inPlaceOption,
  );
  const out = outputOf(outOption, rows, Typed, count, spec.dim, inPlace);
  let angles;
  let width = 1;
  let seq = count;
  if (spec.order !== ROWS) {
    const { batch, heads } = spec;
    if (count % (batch * heads) !== 0)
      throw rangeError(
        `vectors holds ${count} rows of dim values, not a multiple of batch × heads = ${batch} × ${heads}`,
        "heads",
        "ERR_HEADS",
      );
    seq = count / (batch * heads);
    width = streams === null ? 1 : 3;
    // One token at one position (a decode step): one angle for every row.
    angles =
      seq === 1 && batch === 1 && typeof plain === "number"
        ? plain
        : tensorAngles(spec, streams ?? [plain], seq);
  } else if (streams !== null) {
    angles = rowStreams(streams, count);
    width = 3;
  } else angles = perRow(plain, count, "positions");
  const dtype = CACHE_DTYPES.indexOf(DTYPE_OF_KIND[Typed.name]);
  const { omega, attention } = callFrequencies(spec, angles);
  // Filled after every input was read: no code of the caller's runs from
  // here to the return, so one task serves every call.
  task.rows = rows;
  task.Typed = Typed;
  task.count = count;
  task.dim = spec.dim;
  task.angles = angles;
  task.width = width;
  task.repeat = spec.order === ROWS ? 1 : spec.heads;
  task.segment = spec.order === ROWS ? Infinity : seq;
  task.apart = spec.order === 0;
  task.api = spec.prepared.api;
  task.out = out ?? new Typed(count * spec.dim);
  task.omega = omega;
  task.streams = width === 1 ? null : spec.streams;
  // The plan's own frequencies stay in the workspace for its next call;
  // those that follow a call's sequence are written every call.
  task.tag = spec.followsFrom === Infinity ? spec : null;
  task.scale = spec.scale;
  task.spec = spec;
  task.dtype = dtype;
  task.attention = attention;
  return turnRows(task);
}

// The task of every call's turnRows (see there), with the kernel's own
// fields: the plan's spec, the rows' dtype and the attention factor; run
// fills the rest, in one order every call.
const task = {
  name: "positions",
  kernel: (chunk, { spec, dtype, attention }) =>
    turn(spec, chunk, dtype, attention),
};

// One kernel call on a chunk in module memory: { data, count, repeat,
// span, list, one, omega, streams }, with the attention factor of its
// frequencies; `api` names the public function in a refusal. The argument
// list is filled in place (a call per token reads no argument by name):
// no code of the caller's runs between filling it and the call.
let slots = null;
const argumentList = [];
function turn(spec, chunk, dtype, attention, api = spec.prepared.api) {
  const kernel = chunk.streams === 0 ? kernels.rope : kernels.ropeStreams;
  slots ??= {
    rope: slotsOf(kernels.rope),
    streams: slotsOf(kernels.ropeStreams),
  };
  const at = chunk.streams === 0 ? slots.rope : slots.streams;
  const list = argumentList;
  list[at.out] = chunk.data;
  list[at.input] = chunk.data;
  list[at.dtype] = dtype;
  list[at.count] = chunk.count;
  list[at.dim] = spec.dim;
  list[at.rotary] = spec.rotary;
  list[at.repeat] = chunk.repeat;
  list[at.span] = chunk.span;
  list[at.positions] = chunk.list;
  if (chunk.streams === 0) list[at.position] = chunk.one;
  else list[at.streams] = chunk.streams;
  list[at.pairing] = spec.pairing;
  list[at.omega] = chunk.omega;
  list[at.pairs] = spec.pairs;
  list[at.scale] = spec.scale;
  list[at.amplitude] = attention;
  kernel.withList(list, api, spec.prepared);
}

/**
 * Rotary position embedding: each pair of the first rotaryDim columns of a
 * row is rotated by +position · scale · w_i, as HF Llama (pairing "halves")
 * or GPT-J (pairing "interleaved") compute it; the other columns pass
 * through. Rows are float32, float64 or float16 (half bits) and stay so;
 * with `order` they are the flat data of a 4-D attention tensor. A preset
 * gives its schedule and scale.
 */
function ropeOf(vectors, positions, options) {
  const given = readOptions(options, null, "rope()");
  const spec = readSpec(given, "rope", true);
  return run(spec, vectors, positions, given.out, given.inPlace);
}

const ROPE_PLAN = { kind: "rope plan", create: "createRope", api: "rope" };

/**
 * A RoPE plan: `createRope(options)` reads, checks and resolves the options
 * once; `apply(vectors, positions, perCall?)` then equals `rope(vectors,
 * positions, { ...options, ...perCall })` bit for bit, where perCall holds
 * only `out` or `inPlace`. The plan holds no module memory: its calls run
 * in the workspace, where the last one's frequencies stay while no other
 * call has used it.
 */
class RopePlan extends Plan {
  apply(vectors, positions, perCall) {
    return callingMethod("rope", applyPlan, this, vectors, positions, perCall);
  }

  /** Ends the plan: apply() then throws; a second dispose() does nothing. */
  dispose() {
    disposePlan(this, ROPE_PLAN);
  }
}

// A plan's call: the plan's spec, its per-call options, then rope's run.
function applyPlan(plan, vectors, positions, perCall) {
  const spec = openPlan(plan, ROPE_PLAN, "apply");
  const given = readPerCall(perCall, PER_CALL, "a rope plan's apply()");
  return run(spec, vectors, positions, given.second, given.first);
}

/**
 * A RoPE plan of these options (all of rope's, but out and inPlace). The C
 * core checks the plan's values here, in a call of no rows, so that a plan
 * that is made runs.
 */
function createRopeOf(options) {
  const spec = readSpec(
    readOptions(options, null, "createRope()"),
    "createRope",
    false,
  );
  withScratch((scratch) => {
    const omega = scratch(spec.pairs * 8, "frequencies");
    new Float64Array(memoryBuffer(), omega, spec.pairs).set(spec.omega);
    turn(
      spec,
      {
        data: 0,
        count: 0,
        repeat: spec.heads,
        span: 1,
        list: 0,
        one: 0,
        omega,
        streams: 0,
      },
      0,
      spec.attention,
      "createRope",
    );
  });
  return new RopePlan(ROPE_PLAN, spec);
}

// The public functions, each naming itself in the errors it raises.
export function rope(...args) {
  return calling("rope", ropeOf, args);
}
export function createRope(...args) {
  return calling("createRope", createRopeOf, args);
}
