// Plans: options read, checked and resolved once, then run many times.
/// <reference lib="esnext.disposable" />
import type {
  DimOption,
  DType,
  Frequencies,
  NoPreset,
  PresetOptions,
  ScheduleOptions,
  TableArray,
  TablePlacement,
} from "./index.js";
import type { ErrorCode } from "./error-codes.js";
import type { RopeFields, RopeResult, RopeScale } from "./relation.js";
import type {
  RopePositions,
  RopeCacheArray,
  RopeCacheOut,
  RopeCacheResult,
  RopeDType,
  RopeFrequencyOptions,
  RopeLayout,
} from "./rope-scaling.js";

/** The options of `createRope`: rope's, without the per-call `out` and `inPlace`. */
export type RopePlanOptions = Omit<RopeFields<never>, "out" | "inPlace"> & {
  out?: never;
  inPlace?: never;
} & ((Frequencies & DimOption & RopeScale & NoPreset) | PresetOptions);

/** What one call of a rope plan takes besides its rows and positions. */
export interface RopeCall<Out> {
  /** Rotate the rows (a typed array of the caller's, not a view) in place and return them. Default false. */
  inPlace?: boolean;
  /** An array of the rows' type (a Float32Array for plain arrays), at least rows × dim long. */
  out?: Out;
}

/**
 * A RoPE plan: options read once, for a loop of calls (a decode step's
 * queries and keys, layer after layer).
 */
export interface RopePlan extends Disposable {
  /**
   * Equals `rope(vectors, positions, { ...options, ...perCall })` bit for
   * bit, where `options` are the plan's. A dynamic or longrope scaling with
   * seqLen is fixed when the plan is made; without, each call's largest
   * position + 1 decides its frequencies, as in the one-shot call.
   */
  apply<
    Rows extends ArrayLike<number>,
    Out extends RopeResult<Rows> = RopeResult<Rows>,
  >(
    vectors: Rows,
    positions: RopePositions,
    perCall?: RopeCall<Out>,
  ): Out;
  /**
   * Ends the plan (it holds no module memory between calls): `apply` then
   * throws an error of code "ERR_DISPOSED". `using` calls it through
   * `[Symbol.dispose]`.
   */
  dispose(): void;
}

/**
 * Reads, checks and resolves rope's options once (the schedule and its
 * frequencies, the attention factor, the tensor shape, M-RoPE's streams):
 * a refusal is raised here, naming the option.
 */
export function createRope(options: RopePlanOptions): RopePlan;

/** The options of `createTable`: table's, without positions, start, out and view. */
export interface TablePlanFields {
  /** Given per call: `plan.rows(positions)`. */
  positions?: never;
  /** Given per call: `plan.rows(count, { start })`. */
  start?: never;
  /** Given per call: `plan.rows(positions, { out })`. */
  out?: never;
  /** A plan's rows go to a new array or to `out`. */
  view?: never;
}

/** A float32 table plan's dtype. */
export interface Float32Plan {
  /** "float32" (default): rows in Float32Arrays; "float64": in Float64Arrays. */
  dtype?: "float32";
}

/** A float64 table plan's dtype. */
export interface Float64Plan {
  /** "float32" (default): rows in Float32Arrays; "float64": in Float64Arrays. */
  dtype: "float64";
}

/** The options of `createTable`, with a preset or without. */
export type TablePlanOptions = TablePlanFields &
  ((ScheduleOptions & TablePlacement & NoPreset) | PresetOptions);

/** What one call of a table plan takes besides its positions. */
export interface TableCall<Out> {
  /** First position when positions is a count; default 0 (not with a preset). */
  start?: number;
  /** Write the rows into this array (of the plan's dtype) and return it. */
  out?: Out;
}

/** A table plan: rows at new positions, for a loop of calls (a growing cache). */
export interface TablePlan<D extends DType = "float32"> extends Disposable {
  /**
   * Equals `table({ ...options, positions, ...perCall })` bit for bit,
   * where `options` are the plan's. A dynamic or longrope scaling with
   * seqLen is fixed when the plan is made; without, each call's largest
   * position + 1 decides its frequencies, as in the one-shot call.
   */
  rows<Out extends TableArray<D> = TableArray<D>>(
    positions: number | ArrayLike<number> | BigInt64Array | BigUint64Array,
    perCall?: TableCall<Out>,
  ): Out;
  /**
   * Ends the plan (it holds no module memory): `rows` then throws an error
   * of code "ERR_DISPOSED". `using` calls it through `[Symbol.dispose]`.
   */
  dispose(): void;
}

/** Reads, checks and resolves table's options once, but the positions: float64 rows. */
export function createTable(
  options: TablePlanOptions & Float64Plan,
): TablePlan<"float64">;
/** Reads, checks and resolves table's options once, but the positions: float32 rows by default. */
export function createTable(
  options: TablePlanOptions & Float32Plan,
): TablePlan<"float32">;

/** The options of `createRopeCache`: ropeCache's, without positions, start and out. */
export interface RopeCachePlanOptions<
  D extends RopeDType = "float32",
> extends RopeFrequencyOptions {
  /** Default "compact". */
  layout?: RopeLayout;
  /** "float32" (default), "float64", or "float16" (Uint16Arrays of half bits). */
  dtype?: D;
  /** Given per call: `plan.rows(positions)`. */
  positions?: never;
  /** Given per call: `plan.rows(count, { start })`. */
  start?: never;
  /** Given per call: `plan.rows(positions, { out: { cos, sin } })`. */
  out?: never;
}

/** What one call of a cache plan takes besides its positions. */
export interface RopeCacheCall<Out> {
  /** First position when positions is a count; default 0. */
  start?: number;
  /** Arrays of the plan's dtype to fill and return as cos and sin. */
  out?: Out;
}

/** A cache plan: the cos and sin rows of a growing KV cache as its tokens arrive. */
export interface RopeCachePlan<
  D extends RopeDType = "float32",
> extends Disposable {
  /**
   * Equals `ropeCache({ ...options, positions, ...perCall })` bit for bit,
   * where `options` are the plan's. A dynamic or longrope scaling with
   * seqLen is fixed when the plan is made; without, each call's largest
   * position + 1 decides its frequencies, as in the one-shot call.
   */
  rows(
    positions: RopePositions,
    perCall?: RopeCacheCall<RopeCacheOut<RopeCacheArray<D>>>,
  ): RopeCacheResult<RopeCacheArray<D>>;
  /**
   * Ends the plan (it holds no module memory): `rows` then throws an error
   * of code "ERR_DISPOSED". `using` calls it through `[Symbol.dispose]`.
   */
  dispose(): void;
}

/** Reads, checks and resolves ropeCache's options once, but the positions. */
export function createRopeCache<D extends RopeDType = "float32">(
  options: RopeCachePlanOptions<D>,
): RopeCachePlan<D>;

/**
 * Every TypeError or RangeError about an input carries these: the option's
 * path as the caller wrote it ("scaling.factor", "positions[3]"), a stable
 * code of the rule it breaks ("ERR_BASE", "ERR_NOT_FINITE", …) and the
 * public function that raised it.
 */
export interface InputErrorFields {
  option: string | undefined;
  code: ErrorCode;
  function: string | undefined;
}
