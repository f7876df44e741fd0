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
  out?: Float32Array | Float64Array;
};

export interface RopeOptions {
  /** Even head dimension: the length of each row. */
  dim: number;
  /** "halves" (default): HF Llama rotate_half; "interleaved": GPT-J rotate_every_two. */
  pairing?: Pairing;
  /** Default schedule "paper", base 10000: w_i = base^(−2i/dim), HF inv_freq. */
  schedule?: ScheduleOptions["schedule"];
  base?: number;
  minTimescale?: number;
  maxTimescale?: number;
  shift?: number;
  /** Explicit w_i, dim / 2 of them. */
  frequencies?: ArrayLike<number>;
  /** A RoPE context extension of the "paper" schedule; its attention factor multiplies the result, as transformers multiplies cos and sin. */
  scaling?: ScheduleOptions["scaling"];
  /** Multiplies every angle (1 / scaling_factor for linear position scaling). */
  scale?: number;
  inPlace?: boolean;
  /** A Float32Array for the rows, as for `rotate`. */
  out?: Float32Array;
  /** Not a rope option: columns are paired by `pairing`. */
  layout?: never;
}

/** A preset's schedule and angle scale; its layout and offsets play no part. */
export interface PresetRopeOptions {
  preset: PresetName;
  /** Even head dimension. */
  dim: number;
  pairing?: Pairing;
  inPlace?: boolean;
  out?: Float32Array;
  /** The library's own parameters; see `presets`. */
  [parameter: string]: unknown;
}

/**
 * Rotary position embedding: each pair (x, y) of a row becomes
 * (x cos a − y sin a, y cos a + x sin a), a = position · scale · w_i.
 * `positions`: one number or one per row. Computed in float32: a
 * Float64Array is rounded to float32 first. With a preset, its schedule and
 * scale apply.
 */
export function rope<Out extends Float32Array>(
  vectors: Float32Array | ArrayLike<number>,
  positions: number | ArrayLike<number>,
  options: (RopeOptions | PresetRopeOptions) & { out: Out },
): Out;
export function rope(
  vectors: Float32Array | ArrayLike<number>,
  positions: number | ArrayLike<number>,
  options: RopeOptions | PresetRopeOptions,
): Float32Array;

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
