import type { DType, Layout, PresetOptions, ScheduleOptions } from "./index.js";

/** Pairs rotated by rope: "halves" = (i, i + dim/2), "interleaved" = (2i, 2i + 1). */
export type Pairing = "interleaved" | "halves";

/** The table whose relation R(k) is meant: its schedule, layout and angle scale. */
export type RelationOptions = ScheduleOptions & {
  /** Layout of the table whose relation R(k) is meant. Default "interleaved". */
  layout?: Layout;
  /** Multiplies every angle, as in `table`. Default 1. */
  scale?: number;
  preset?: undefined;
};

/** A preset's table instead: its parameters (position offsets such as startIndex play no part). */
export type PresetRelationOptions = PresetOptions;

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
/** Applies R(k) to each row (see the first signature), rounded once to float32, written into `out`. */
export function rotate<
  Vectors extends ArrayLike<number>,
  Out extends Float32Array,
>(
  vectors: Vectors extends Float64Array ? never : Vectors,
  offsets: number | ArrayLike<number>,
  options: RotateOptions & { out: Out },
): Out;
/** Applies R(k) to each row of a Float64Array (see the first signature), in float64. */
export function rotate(
  vectors: Float64Array,
  offsets: number | ArrayLike<number>,
  options: RotateOptions & { out?: Float64Array },
): Float64Array;
/** Applies R(k) to each row (see the first signature), rounded once to float32. */
export function rotate<Vectors extends ArrayLike<number>>(
  vectors: Vectors extends Float64Array ? never : Vectors,
  offsets: number | ArrayLike<number>,
  options: RotateOptions & { out?: Float32Array },
): Float32Array;

/** The options of `rotate` besides the table's. */
export interface RotateFields {
  /** Rotate `vectors` (a Float32Array or Float64Array of the caller's, not a view) in place and return it. Default false. */
  inPlace?: boolean;
  /**
   * Write the rows here (the type of the result, at least rows × dim long)
   * and return it. It may be `vectors` itself (the same as inPlace), or not
   * overlap it at all; not with `inPlace`.
   */
  out?: Float32Array | Float64Array;
}

/** The options of `rotate`: a table's (or a preset's), inPlace and out. */
export type RotateOptions =
  (RelationOptions & RotateFields) | PresetOptions<RotateFields>;

/** The schedule options that rope takes: a table's, without oddDim (its dim is even). */
type RopeSchedule = ScheduleOptions extends infer Each
  ? Each extends unknown
    ? Omit<Each, "oddDim">
    : never
  : never;

/** The options of `rope` besides its schedule. */
export interface RopeFields {
  /** Even head dimension: the length of each row. */
  dim: number;
  /** "halves" (default): HF Llama rotate_half; "interleaved": GPT-J rotate_every_two. */
  pairing?: Pairing;
  /** Multiplies every angle (1 / scaling_factor for linear position scaling). Default 1. */
  scale?: number;
  /** Rotate `vectors` (a Float32Array of the caller's, not a view) in place and return it. Default false. */
  inPlace?: boolean;
  /** A Float32Array for the rows, as for `rotate`. */
  out?: Float32Array;
  /** Not a rope option: columns are paired by `pairing`. */
  layout?: never;
}

/** The options of `rope` without a preset. Default schedule "paper", base 10000: w_i = base^(−2i/dim), HF inv_freq. */
export type RopeOptions = RopeSchedule & RopeFields & { preset?: undefined };

/** A preset's schedule and angle scale; its layout and offsets play no part. */
export type PresetRopeOptions = PresetOptions<
  Pick<RopeFields, "pairing" | "inPlace" | "out">
>;

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
/**
 * Rotary position embedding: each pair (x, y) of a row becomes
 * (x cos a − y sin a, y cos a + x sin a), a = position · scale · w_i, in
 * float32.
 */
export function rope(
  vectors: Float32Array | ArrayLike<number>,
  positions: number | ArrayLike<number>,
  options: RopeOptions | PresetRopeOptions,
): Float32Array;

/** Dense R(k), dim × dim row-major, dim ≤ 1024 (a RangeError above), written into `out`. */
export function rotationMatrix<Out extends Float64Array>(
  k: number,
  options: RelationOptions & {
    /** At least dim × dim elements, filled and returned. */
    out: Out;
  },
): Out;
/** Dense R(k), dim × dim row-major, dim ≤ 1024 (a RangeError above). */
export function rotationMatrix(
  k: number,
  options:
    | (RelationOptions & {
        /** At least dim × dim elements, filled and returned. */
        out?: Float64Array;
      })
    | PresetRelationOptions,
): Float64Array;

/** The options of `linearRelationError` besides the table's. */
export interface LinearRelationFields {
  /** A count (rows start, start + 1, …) or explicit positions. */
  positions: number | ArrayLike<number>;
  /** First position when positions is a count; default 0. */
  start?: number;
  /** Offsets k to test: a number or a list (negative, fractional allowed). */
  offsets: number | ArrayLike<number>;
  /** Dtype of the tables compared. Default "float32". */
  dtype?: DType;
  /** Multiplies every value, as in `table`. Default 1. */
  outputScale?: number;
}

/** The options of `linearRelationError` without a preset. */
export type LinearRelationOptions = RelationOptions & LinearRelationFields;

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
  options:
    | LinearRelationOptions
    | PresetOptions<
        Pick<LinearRelationFields, "positions" | "start" | "offsets" | "dtype">
      >,
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

/** The options of `dotProducts` besides the table's. */
export interface DotProductFields {
  /** The offsets k: a list, or an evenly spaced range. */
  offsets: ArrayLike<number> | OffsetRange;
  /** Multiplies every table value (so g by its square). Default 1. */
  outputScale?: number;
  /** A Float64Array of at least one element per offset to fill and return. */
  out?: Float64Array;
}

/** The options of `dotProducts` without a preset. */
export type DotProductOptions = RelationOptions & DotProductFields;

/** The options of `dotProducts`, with a preset or without. */
export type AnyDotProductOptions =
  DotProductOptions | PresetOptions<Pick<DotProductFields, "offsets" | "out">>;

/**
 * g(k) = ⟨PE(0), PE(k)⟩ = Σ_i cos(k · scale · w_i) at every offset (an extra
 * sin column adds sin(0)·sin(k w) = 0, a zero column 0), times
 * outputScale², written into `out`.
 */
export function dotProducts<Out extends Float64Array>(
  options: AnyDotProductOptions & { out: Out },
): Out;
/**
 * g(k) = ⟨PE(0), PE(k)⟩ = Σ_i cos(k · scale · w_i) at every offset (an extra
 * sin column adds sin(0)·sin(k w) = 0, a zero column 0), times outputScale².
 */
export function dotProducts(options: AnyDotProductOptions): Float64Array;

/** The options of `toeplitzError` besides the table's. */
export interface ToeplitzFields {
  /** A count ≤ 4096 (rows start, start + 1, …) or up to 1024 explicit positions. */
  positions: number | ArrayLike<number>;
  /** First position when positions is a count; default 0. */
  start?: number;
  /** Dtype of the table whose Gram matrix is checked. Default "float64". */
  dtype?: DType;
  /** Multiplies every value, as in `table`. Default 1. */
  outputScale?: number;
}

/** The options of `toeplitzError` without a preset. */
export type ToeplitzOptions = RelationOptions & ToeplitzFields;

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
  options:
    | ToeplitzOptions
    | PresetOptions<Pick<ToeplitzFields, "positions" | "start" | "dtype">>,
): ToeplitzResult;
