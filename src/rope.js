// Rotary position embedding (RoPE) applied to rows or to the flat data of
// 4-D attention tensors, in float32, float64 or float16, over the whole head
// or its first `rotaryDim` columns. The rotation runs in the C core.
import * as kernels from "./kernels.js";
import {
  integer,
  numbers,
  oneOf,
  rangeError,
  snapshot,
  typeError,
} from "./options.js";
import { DTYPE_OF_KIND, outputOf, perRow, rowsOf, turnRows } from "./rows.js";
import {
  isStreams,
  mropeSpec,
  readStreams,
  writeStreams,
} from "./rope-scaling.js";
import { prepare, SCHEDULE_OPTIONS } from "./schedule.js";
import {
  CACHE_DTYPES,
  MAX_COUNT,
  MAX_DIM,
  PAIRINGS,
} from "sinusoidal-pe-constants";

// rope takes no odd-dim rule (its rotary part is even) and no layout:
// pairing.
const ROPE_OPTIONS = [
  ...SCHEDULE_OPTIONS.filter((key) => key !== "oddDim"),
  "pairing",
  "scale",
  "inPlace",
  "out",
];
const OWN = [
  ...["rotaryDim", "heads", "order", "batch"],
  ...["mropeSection", "mropeInterleaved"],
];
const HINTS = {
  layout:
    'rope pairs columns by option "pairing": "halves" (HF Llama rotate_half, the default) or "interleaved" (GPT-J rotate_every_two)',
};

// Tensor orders: batch × heads × seq × head dim, or batch × seq × heads ×
// head dim.
const ORDERS = ["bhsd", "bshd"];

/**
 * The positions of a tensor's tokens: `positions` is the first position (a
 * KV cache's past length; token s is at positions + s), or one per token of
 * the sequence (shared by the batch), or one per token of every batch row.
 * Returns a lookup (b, s) → position.
 */
function tokenPositions(positions, { batch, heads, seq }, name) {
  let perToken;
  if (typeof positions === "number") {
    if (!Number.isFinite(positions))
      throw rangeError(
        `${name} must be finite, got ${positions}`,
        name,
        "ERR_NOT_FINITE",
      );
    perToken = Float64Array.from({ length: seq }, (_, s) => positions + s);
  } else {
    perToken = numbers(positions, name, {
      expected: `the first position or an array of seq (${seq}) or batch × seq (${batch * seq}) positions`,
      bigints: true,
    });
    if (perToken.length !== seq && perToken.length !== batch * seq)
      throw rangeError(
        `${name} must hold seq (${seq}) or batch × seq (${batch * seq}) positions for ${batch} × ${heads} heads × ${seq} tokens, got ${perToken.length}`,
        name,
        "ERR_LENGTH",
      );
  }
  return perToken.length === seq
    ? (b, s) => perToken[s]
    : (b, s) => perToken[b * seq + s];
}

/**
 * Where the angles of a tensor's rows come from: one lookup of token
 * positions, or M-RoPE's three (t, h, w). Every head of a token shares its
 * positions: returns them per token (`width` per token), the heads as the
 * rows of a group, the tokens per sequence and, for bhsd, that the heads
 * of a token are a sequence apart.
 */
function tensorAngles(lookups, { batch, heads, seq, order }) {
  const width = lookups.length;
  const angles = new Float64Array(batch * seq * width);
  let at = 0;
  for (let b = 0; b < batch; b++)
    for (let s = 0; s < seq; s++)
      for (const lookup of lookups) angles[at++] = lookup(b, s);
  return {
    angles,
    width,
    repeat: heads,
    segment: seq,
    apart: order === "bhsd",
  };
}

// M-RoPE positions { t, h, w } for rows (one of each per row), read once:
// the rows' positions in groups of three.
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
  return { angles, width: 3 };
}

// Whether M-RoPE's three streams agree at every token: text positions,
// which are plain RoPE.
const sameStreams = ([t, h, w]) =>
  t.every((p, j) => Object.is(p, h[j]) && Object.is(p, w[j]));

// The tensor's shape from the options and the row count.
function tensorShape(own, count) {
  const order = oneOf(own.order, "order", ORDERS);
  const heads = integer(own.heads, "heads", 1, MAX_COUNT);
  const batch =
    own.batch === undefined ? 1 : integer(own.batch, "batch", 1, MAX_COUNT);
  if (count % (batch * heads) !== 0)
    throw rangeError(
      `vectors holds ${count} rows of dim values, not a multiple of batch × heads = ${batch} × ${heads}`,
      "heads",
      "ERR_HEADS",
    );
  return { order: ORDERS[order], heads, batch, seq: count / (batch * heads) };
}

/**
 * Rotary position embedding: each pair of the first rotaryDim columns of a
 * row is rotated by +position · scale · w_i, as HF Llama (pairing "halves")
 * or GPT-J (pairing "interleaved") compute it; the other columns pass
 * through. Rows are float32, float64 or float16 (half bits) and stay so;
 * with `order` they are the flat data of a 4-D attention tensor. A preset
 * gives its schedule and scale.
 */
export function rope(vectors, positions, options) {
  const given = snapshot(options);
  const own = {};
  for (const key of OWN)
    if (key in given) {
      own[key] = given[key];
      delete given[key];
    }
  const mrope = mropeSpec(own);
  let streams = null;
  if (isStreams(positions)) {
    if (mrope === null)
      throw typeError(
        'positions as { t, h, w } (M-RoPE) need option "mropeSection" (the pairs of each stream, e.g. fromConfig\'s for a Qwen2-VL config)',
        "mropeSection",
        "ERR_REQUIRED",
      );
    streams = readStreams(positions);
    // Text tokens (t = h = w everywhere) take plain RoPE's path.
    if (sameStreams(streams)) [positions, streams] = [streams[0], null];
  }
  const dim = integer(given.dim, "dim", 1, MAX_DIM);
  let rotary = dim;
  if (own.rotaryDim !== undefined) {
    rotary = integer(own.rotaryDim, "rotaryDim", 2, MAX_DIM);
    if (rotary % 2 === 1 || rotary > dim)
      throw rangeError(
        `option "rotaryDim" must be even and at most dim (${dim}), got ${rotary}`,
        "rotaryDim",
        "ERR_ROTARY_DIM",
      );
  } else if (dim % 2 === 1)
    throw rangeError(
      `option "dim" must be even for rope (pairs of columns are rotated), or give an even "rotaryDim" below it, got ${dim}`,
      "dim",
      "ERR_ODD_DIM",
    );
  if (own.order === undefined && (own.heads ?? own.batch) !== undefined)
    throw typeError(
      `options "heads" and "batch" describe a tensor: give "order" ("bhsd" or "bshd") too`,
      "order",
      "ERR_REQUIRED",
    );
  // The schedule is that of the rotary part.
  const p = prepare(
    { ...given, dim: rotary },
    {
      where: "rope()",
      allowed: ROPE_OPTIONS,
      withPreset: ["pairing", "inPlace", "out"],
      oddDim: "zero-pad",
      hints: HINTS,
    },
  );
  const pairing = oneOf(p.options.pairing, "pairing", PAIRINGS, "halves");
  const { rows, count, Typed, inPlace } = rowsOf(vectors, dim, p.options);
  let layout;
  if (own.order !== undefined) {
    const shape = tensorShape(own, count);
    const lookups =
      streams === null
        ? [tokenPositions(positions, shape, "positions")]
        : streams.map((list, k) =>
            tokenPositions(list, shape, `positions.${"thw"[k]}`),
          );
    layout = tensorAngles(lookups, shape);
  } else
    layout =
      streams === null
        ? { angles: perRow(positions, count, "positions") }
        : rowStreams(streams, count);
  const kernel = streams === null ? kernels.rope : kernels.ropeStreams;
  return turnRows({
    rows,
    Typed,
    count,
    dim,
    ...layout,
    name: "positions",
    api: "rope",
    out: outputOf(p, rows, Typed, count, dim, inPlace),
    prepared: p,
    // The stream of each pair, which also checks the section (the C core's
    // rule), even for text positions.
    setup: (scratch) =>
      mrope === null
        ? {}
        : { streams: writeStreams(mrope, rotary / 2, scratch, "rope") },
    // As transformers multiplies cos and sin by the attention factor.
    kernel: ({ list, one, attention, ...chunk }) =>
      kernel({
        ...p,
        ...chunk,
        dtype: CACHE_DTYPES.indexOf(DTYPE_OF_KIND[Typed.name]),
        dim,
        rotary,
        positions: list,
        position: one,
        pairing,
        amplitude: attention,
      }),
  });
}
