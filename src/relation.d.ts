import type { DType, Layout, PresetName, ScheduleOptions } from "./index.js";

/** Pairs rotated by rope: "halves" = (i, i + dim/2), "interleaved" = (2i, 2i + 1). */
export type Pairing = "interleaved" | "halves";

export interface RelationOptions extends ScheduleOptions {
  /** Layout of the table whose relation R(k) is meant. Default "interleaved". */
  layout?: Layout;
  /** Multiplies every angle, as in `table`. Default 1. */
  scale?: number;
}

export interface PresetRelationOptions {
  preset: PresetName;
  dim: number;
  /** The library's own parameters; position offsets (startIndex, …) play no part. */
  [parameter: string]: unknown;
}

/**
 * Applies R(k) (R(k)·PE(p) = PE(p+k) in the chosen layout and schedule) to
 * each row of a row-major [rows, dim] array. `offsets`: one number, or one
 * per row; real, negative and fractional values allowed. An odd dim needs
 * oddDim "zero-pad" (the zero column stays as it is); "extra-sin" is a
 * RangeError. Angles and products are formed in float64; a Float64Array is
 * rotated in float64 and gives a Float64Array, anything else is rounded once
 * to a Float32Array. With `inPlace`, `vectors` (a Float32Array or
 * Float64Array of the caller's, not a view) is written and returned.
 */
export function rotate<Out extends Float64Array>(
  vectors: Float64Array,
  offsets: number | ArrayLike<number>,
  options: RotateOptions & { out: Out },
): Out;
export function rotate<Out extends Uint16Array>(
  vectors: Uint16Array,
  offsets: number | ArrayLike<number>,
  options: RotateOptions & { out: Out },
): Out;
export function rotate<Out extends Float32Array>(
  vectors: Float32Array | ArrayLike<number>,
  offsets: number | ArrayLike<number>,
  options: RotateOptions & { out: Out },
): Out;
export function rotate(
  vectors: Float64Array,
  offsets: number | ArrayLike<number>,
  options: RotateOptions,
): Float64Array;
/** float16 rows as IEEE half bits: each value turned in double, rounded once. */
export function rotate(
  vectors: Uint16Array,
  offsets: number | ArrayLike<number>,
  options: RotateOptions,
): Uint16Array;
export function rotate(
  vectors: Float32Array | ArrayLike<number>,
  offsets: number | ArrayLike<number>,
  options: RotateOptions,
): Float32Array;

export type RotateOptions = (RelationOptions | PresetRelationOptions) & {
  inPlace?: boolean;
  /**
   * Write the rows here (the type of the result, at least rows × dim long)
   * and return it. It may be `vectors` itself (the same as inPlace), or not
   * overlap it at all; not with `inPlace`.
   */
  out?: Float32Array | Float64Array | Uint16Array;
};

/** The shape of a 4-D attention tensor given to `rope` as its flat data. */
export interface RopeTensorOptions {
  /** "bhsd": batch × heads × seq × head dim; "bshd": batch × seq × heads × head dim. */
  order?: "bhsd" | "bshd";
  /** Attention heads (required with `order`). */
  heads?: number;
  /** Batch rows; default 1. The sequence length is rows / (batch · heads). */
  batch?: number;
}

export interface RopeOptions extends RopeTensorOptions {
  /** Head dimension: the length of each row (even unless `rotaryDim` is given). */
  dim: number;
  /** The rotated columns: the first rotaryDim of each row (even, ≤ dim; default dim); the others pass through. The schedule is that of rotaryDim: w_i = base^(−2i/rotaryDim). */
  rotaryDim?: number;
  /** "halves" (default): HF Llama rotate_half; "interleaved": GPT-J rotate_every_two. */
  pairing?: Pairing;
  /** Default schedule "paper", base 10000: w_i = base^(−2i/dim), HF inv_freq. */
  schedule?: ScheduleOptions["schedule"];
  base?: number;
  minTimescale?: number;
  maxTimescale?: number;
  shift?: number;
  /** Explicit w_i, rotaryDim / 2 of them. */
  frequencies?: ArrayLike<number>;
  /** A RoPE context extension of the "paper" schedule; its attention factor multiplies the result, as transformers multiplies cos and sin. */
  scaling?: ScheduleOptions["scaling"];
  /** Multiplies every angle (1 / scaling_factor for linear position scaling). */
  scale?: number;
  inPlace?: boolean;
  /** An array of the input's type for the rows (a Float32Array for plain arrays). */
  out?: RopeData;
  /** Not a rope option: columns are paired by `pairing`. */
  layout?: never;
}

/** A preset's schedule and angle scale; its layout and offsets play no part. */
export interface PresetRopeOptions extends RopeTensorOptions {
  preset: PresetName;
  /** Head dimension. */
  dim: number;
  rotaryDim?: number;
  pairing?: Pairing;
  inPlace?: boolean;
  out?: RopeData;
  /** The library's own parameters; see `presets`. */
  [parameter: string]: unknown;
}

/** Rows rope reads and writes: float32, float64, or float16 as IEEE half bits (a Uint16Array). */
export type RopeData = Float32Array | Float64Array | Uint16Array;

/**
 * Rotary position embedding: each pair (x, y) of the first rotaryDim columns
 * of a row becomes (x cos a − y sin a, y cos a + x sin a), a = position ·
 * scale · w_i, computed in double and rounded once to the rows' type, which
 * the result keeps (float16 as half bits in a Uint16Array). `positions`: one
 * number or one per row; with `order`, the first position (token s at
 * positions + s, as after a KV cache's past length) or one per token of the
 * sequence (shared by the batch) or of every batch row. With a preset, its
 * schedule and scale apply.
 */
export function rope<
  Rows extends RopeData | ArrayLike<number>,
  Out extends RopeResult<Rows>,
>(
  vectors: Rows,
  positions: number | ArrayLike<number>,
  options: (RopeOptions | PresetRopeOptions) & { out: Out },
): Out;
export function rope<Rows extends RopeData | ArrayLike<number>>(
  vectors: Rows,
  positions: number | ArrayLike<number>,
  options: (RopeOptions | PresetRopeOptions) & { out?: undefined },
): RopeResult<Rows>;

/** The type rope returns for rows of type Rows: the same, or float32 for plain arrays. */
export type RopeResult<Rows> = Rows extends Float64Array
  ? Float64Array
  : Rows extends Uint16Array
    ? Uint16Array
    : Float32Array;

/** Dense R(k), dim × dim row-major, dim ≤ 1024 (a RangeError above). */
export function rotationMatrix<Out extends Float64Array>(
  k: number,
  options: (RelationOptions | PresetRelationOptions) & {
    /** At least dim × dim elements, filled and returned. */
    out: Out;
  },
): Out;
export function rotationMatrix(
  k: number,
  options: RelationOptions | PresetRelationOptions,
): Float64Array;

export interface LinearRelationOptions extends RelationOptions {
  /** A count (rows start, start + 1, …) or explicit positions. */
  positions: number | ArrayLike<number>;
  start?: number;
  /** Offsets k to test: a number or a list (negative, fractional allowed). */
  offsets: number | ArrayLike<number>;
  /** Default "float32". */
  dtype?: DType;
  outputScale?: number;
}

export interface LinearRelationResult {
  maxAbsError: number;
  /** Where the largest error occurred: position p, offset k, column index. */
  position: number;
  offset: number;
  index: number;
}

/** max |R(k)·PE(p) − PE(p + k)| over the positions and offsets, both from the library. */
export function linearRelationError(
  options:
    | LinearRelationOptions
    | (PresetRelationOptions &
        Pick<
          LinearRelationOptions,
          "positions" | "start" | "offsets" | "dtype"
        >),
): LinearRelationResult;

export interface OffsetRange {
  from: number;
  to: number;
  /** Number of evenly spaced offsets from `from` to `to`, ≥ 1. */
  count: number;
}

export interface DotProductOptions extends RelationOptions {
  offsets: ArrayLike<number> | OffsetRange;
  outputScale?: number;
  /** A Float64Array of at least one element per offset to fill and return. */
  out?: Float64Array;
}

/**
 * g(k) = ⟨PE(0), PE(k)⟩ = Σ_i cos(k · scale · w_i) at every offset (an extra
 * sin column adds sin(0)·sin(k w) = 0, a zero column 0), times outputScale².
 */
export function dotProducts<Out extends Float64Array>(
  options: (
    | DotProductOptions
    | (PresetRelationOptions & Pick<DotProductOptions, "offsets">)
  ) & { out: Out },
): Out;
export function dotProducts(
  options:
    | DotProductOptions
    | (PresetRelationOptions & Pick<DotProductOptions, "offsets">),
): Float64Array;

export interface ToeplitzOptions extends RelationOptions {
  /** A count ≤ 4096 (rows start, start + 1, …) or up to 1024 explicit positions. */
  positions: number | ArrayLike<number>;
  start?: number;
  /** Dtype of the table whose Gram matrix is checked. Default "float64". */
  dtype?: DType;
  outputScale?: number;
}

export interface ToeplitzResult {
  maxAbsError: number;
  /** The positions of the worst entry. */
  m: number;
  n: number;
}

/** max |⟨PE(m), PE(n)⟩ − g(m − n)| over all pairs of positions. */
export function toeplitzError(
  options:
    | ToeplitzOptions
    | (PresetRelationOptions &
        Pick<ToeplitzOptions, "positions" | "start" | "dtype">),
): ToeplitzResult;
