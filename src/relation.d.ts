import type {
  DimOption,
  DType,
  FloatArray,
  Frequencies,
  Layout,
  NoPreset,
  PresetOptions,
  ScaleOption,
  ScheduleOptions,
} from "./index.js";
import type { RopePositions } from "./rope-scaling.js";

// As in index.d.ts, each option is declared once, in one interface that
// every union member with it shares.

/** Pairs rotated by rope: "halves" = (i, i + dim/2), "interleaved" = (2i, 2i + 1). */
export type Pairing = "interleaved" | "halves";

/** The layout and angle scale of the table whose relation R(k) is meant. */
export interface RelationPlacement extends ScaleOption {
  /** Layout of the table whose relation R(k) is meant. Default "interleaved". */
  layout?: Layout;
}

/** The table whose relation R(k) is meant: its schedule, layout and angle scale. */
export type RelationOptions = ScheduleOptions & RelationPlacement & NoPreset;

/** A preset's table instead: its parameters (position offsets such as startIndex play no part). */
export type PresetRelationOptions = PresetOptions;

/** A table's values multiplied, without a preset. */
export interface OutputScaleOption {
  /** Multiplies every value, as in `table`. Default 1. */
  outputScale?: number;
}

/**
 * Rows that `rotate` and `rope` take: a float typed array (float32, float64,
 * or float16 as half bits in a Uint16Array or as a Float16Array), or plain
 * numbers. Other typed arrays (Int8Array, Uint8Array…) are refused.
 */
export type RowInput = FloatArray | readonly number[];

/**
 * The array type `rotate` and `rope` return for rows of type Rows, on buffer
 * B: the rows' own kind (float16 bits stay a Uint16Array, a Float16Array a
 * Float16Array), or a Float32Array for plain numbers.
 */
export type RowResult<Rows, B extends ArrayBufferLike = ArrayBuffer> =
  Rows extends Float64Array<ArrayBufferLike>
    ? Float64Array<B>
    : Rows extends Uint16Array<ArrayBufferLike>
      ? Uint16Array<B>
      : Rows extends Float16Array<ArrayBufferLike>
        ? Float16Array<B>
        : Float32Array<B>;

/** The options of `rotate` besides the table's. */
export interface RotateFields<Out> {
  /** Rotate `vectors` (a typed array of the caller's, not a view) in place and return it. Default false. */
  inPlace?: boolean;
  /**
   * Write the rows here (the type of the result, at least rows × dim long)
   * and return it. It may be `vectors` itself (the same as inPlace), or not
   * overlap it at all; not with `inPlace`.
   */
  out?: Out;
}

/** The options of `rotate`: a table's (or a preset's), inPlace and out. */
export type RotateOptions<Out = FloatArray> = RotateFields<Out> &
  (RelationOptions | PresetOptions);

/**
 * Applies R(k) to the rows of `vectors` (a float typed array of the
 * caller's, not a view) in place, and returns `vectors` itself.
 */
export function rotate<Rows extends FloatArray>(
  vectors: Rows,
  offsets: number | ArrayLike<number>,
  options: InPlace & (RelationOptions | PresetOptions),
): Rows;
/**
 * Applies R(k) (R(k)·PE(p) = PE(p+k) in the chosen layout and schedule) to
 * each row of a row-major [rows, dim] array: angles and products are formed
 * in float64 and each value is rounded once to the rows' type (float16 to
 * nearest, ties to even); plain numbers give a Float32Array. `offsets`: one
 * number, or one per row; real, negative and fractional values allowed. An
 * odd dim needs oddDim "zero-pad" (the zero column stays as it is);
 * "extra-sin" is a RangeError. With `inPlace`, `vectors` (a typed array of
 * the caller's, not a view) is written and returned; with `out`, `out`.
 */
export function rotate<
  Rows extends RowInput,
  Out extends RowResult<Rows, ArrayBufferLike> = RowResult<Rows>,
>(
  vectors: Rows,
  offsets: number | ArrayLike<number>,
  options: RotateOptions<Out>,
): NoInfer<Out>;

/** Rows turned in place. */
export interface InPlace {
  /** Turn `vectors` (a typed array of the caller's, not a view) in place and return it. */
  inPlace: true;
  /** Not with `inPlace`. */
  out?: undefined;
}

/** The options of `rope` that combine with a preset, besides where the rows go. */
export interface RopeShape {
  /** "halves" (default): HF Llama rotate_half; "interleaved": GPT-J rotate_every_two. */
  pairing?: Pairing;
  /** The rotated columns: the first rotaryDim of each row (even, ≤ dim; default dim), paired within them, with the schedule of rotaryDim (w_i = base^(−2i/rotaryDim)); the other columns pass through. */
  rotaryDim?: number;
  /** The rows are a 4-D attention tensor's flat data: "bhsd" (batch × heads × seq × head dim) or "bshd" (batch × seq × heads × head dim). `positions` is then the first position (token s at positions + s), or one per token, or one per token of every batch row. */
  order?: "bhsd" | "bshd";
  /** Attention heads of the tensor (with `order`). */
  heads?: number;
  /** Batch rows of the tensor (with `order`); default 1. */
  batch?: number;
  /** M-RoPE: the pairs of the t, h and w streams (integers summing to rotaryDim / 2), as fromConfig reads a Qwen2-VL or Qwen3-VL config. Positions may then be { t, h, w }; plain positions are text tokens (t = h = w), plain RoPE. */
  mropeSection?: ArrayLike<number>;
  /** M-RoPE pairs interleaved as Qwen3-VL's apply_interleaved_mrope, rather than chunked as Qwen2-VL's; default false. */
  mropeInterleaved?: boolean;
}

/** The options of `rope` that combine with a preset. */
export interface RopeFields<Out> extends RopeShape {
  /** Rotate `vectors` (a typed array of the caller's, not a view) in place and return it. Default false. */
  inPlace?: boolean;
  /** An array of the rows' kind (a Float32Array for plain numbers), at least rows × dim long, filled and returned. */
  out?: Out;
}

/** The angle scale of `rope`, without a preset (its columns are paired by `pairing`, not a table's `layout`). */
export type RopeScale = ScaleOption;

/** The options of `rope` without a preset. Default schedule "paper", base 10000: w_i = base^(−2i/rotaryDim), HF inv_freq. */
export type RopeOptions<Out = FloatArray> = RopeFields<Out> &
  Frequencies &
  DimOption &
  RopeScale &
  NoPreset;

/** A preset's schedule and angle scale; its layout and offsets play no part. */
export type PresetRopeOptions<Out = FloatArray> = PresetOptions<
  RopeFields<Out>
>;

/** The type `rope` returns for rows of type Rows (see RowResult). */
export type RopeResult<Rows> = RowResult<Rows>;

/**
 * Rotary position embedding of the rows of `vectors` (a float typed array of
 * the caller's, not a view) in place: returns `vectors` itself.
 */
export function rope<Rows extends FloatArray>(
  vectors: Rows,
  positions: RopePositions,
  options: RopeShape &
    InPlace &
    ((Frequencies & DimOption & RopeScale & NoPreset) | PresetOptions),
): Rows;
/**
 * Rotary position embedding: each pair (x, y) of the first rotaryDim
 * columns of a row becomes (x cos a − y sin a, y cos a + x sin a),
 * a = position · scale · w_i, computed in float64 and rounded once to the
 * rows' type. `positions`: one number or one per row (see `order` for
 * tensors), or with `mropeSection` M-RoPE's { t, h, w }, each pair at its
 * own stream's position. With a preset, its schedule and scale apply. Returns a new
 * array of the rows' type, `vectors` with `inPlace`, or `out`.
 */
export function rope<
  Rows extends RowInput,
  Out extends RowResult<Rows, ArrayBufferLike> = RowResult<Rows>,
>(
  vectors: Rows,
  positions: RopePositions,
  options: RopeFields<Out> &
    ((Frequencies & DimOption & RopeScale & NoPreset) | PresetOptions),
): NoInfer<Out>;

/** The `out` of `rotationMatrix`. */
export interface MatrixOut<Out> {
  /** At least dim × dim elements, filled and returned. */
  out?: Out;
}

/** Dense R(k), dim × dim row-major, dim ≤ 1024 (a RangeError above); in `out` when given. */
export function rotationMatrix<
  Out extends Float64Array = Float64Array<ArrayBuffer>,
>(
  k: number,
  options: (RelationOptions & MatrixOut<Out>) | PresetOptions,
): NoInfer<Out>;

/** The options of `linearRelationError` that combine with a preset. */
export interface LinearRelationFields {
  /** A count (rows start, start + 1, …) or explicit positions. */
  positions: number | ArrayLike<number>;
  /** First position when positions is a count; default 0. */
  start?: number;
  /** Offsets k to test: a number or a list (negative, fractional allowed). */
  offsets: number | ArrayLike<number>;
  /** Dtype of the tables compared. Default "float32". */
  dtype?: DType;
}

/** The options of `linearRelationError` without a preset. */
export type LinearRelationOptions = RelationOptions &
  LinearRelationFields &
  OutputScaleOption;

/** The worst case of `linearRelationError`. */
export interface LinearRelationResult {
  /** The largest |R(k)·PE(p) − PE(p + k)| found. */
  maxAbsError: number;
  /** The position p where it occurred. */
  position: number;
  /** The offset k where it occurred. */
  offset: number;
  /** The column where it occurred. */
  index: number;
}

/** max |R(k)·PE(p) − PE(p + k)| over the positions and offsets, both from the library. */
export function linearRelationError(
  options: LinearRelationFields &
    ((RelationOptions & OutputScaleOption) | PresetOptions),
): LinearRelationResult;

/** Evenly spaced offsets. */
export interface OffsetRange {
  /** The first offset. */
  from: number;
  /** The last offset. */
  to: number;
  /** Number of evenly spaced offsets from `from` to `to`, ≥ 1. */
  count: number;
}

/** The options of `dotProducts` that combine with a preset. */
export interface DotProductFields<Out> {
  /** The offsets k: a list, or an evenly spaced range. */
  offsets: ArrayLike<number> | OffsetRange;
  /** A Float64Array of at least one element per offset to fill and return. */
  out?: Out;
}

/** The options of `dotProducts` without a preset. */
export type DotProductOptions = RelationOptions &
  DotProductFields<Float64Array> &
  OutputScaleOption;

/**
 * g(k) = ⟨PE(0), PE(k)⟩ = Σ_i cos(k · scale · w_i) at every offset (an extra
 * sin column adds sin(0)·sin(k w) = 0, a zero column 0), times
 * outputScale²; in `out` when given.
 */
export function dotProducts<
  Out extends Float64Array = Float64Array<ArrayBuffer>,
>(
  options: DotProductFields<Out> &
    ((RelationOptions & OutputScaleOption) | PresetOptions),
): NoInfer<Out>;

/** The options of `toeplitzError` that combine with a preset. */
export interface ToeplitzFields {
  /** A count ≤ 4096 (rows start, start + 1, …) or up to 1024 explicit positions. */
  positions: number | ArrayLike<number>;
  /** First position when positions is a count; default 0. */
  start?: number;
  /** Dtype of the table whose Gram matrix is checked. Default "float64". */
  dtype?: DType;
}

/** The options of `toeplitzError` without a preset. */
export type ToeplitzOptions = RelationOptions &
  ToeplitzFields &
  OutputScaleOption;

/** The worst entry of `toeplitzError`. */
export interface ToeplitzResult {
  /** The largest |⟨PE(m), PE(n)⟩ − g(m − n)| found. */
  maxAbsError: number;
  /** The first position of the worst entry. */
  m: number;
  /** The second position of the worst entry. */
  n: number;
}

/** max |⟨PE(m), PE(n)⟩ − g(m − n)| over all pairs of positions. */
export function toeplitzError(
  options: ToeplitzFields &
    ((RelationOptions & OutputScaleOption) | PresetOptions),
): ToeplitzResult;
