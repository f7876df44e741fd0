import type { Float16Data } from "./index.js";

/** Rope types of Hugging Face transformers (`rope_scaling.rope_type`). */
export type RopeType =
  | "default"
  | "linear"
  | "dynamic"
  | "yarn"
  | "longrope"
  | "llama3"
  | "proportional";
/**
 * Where a cache row puts pair i's value, in the words of table's `layout`
 * and rope's `pairing`: "compact" once, [n, rotaryDim/2] (onnxruntime's
 * cos_cache/sin_cache, for either pairing); "halves" at i and
 * i + rotaryDim/2, [n, rotaryDim] (HF's cat(freqs, freqs)); "interleaved"
 * at 2i and 2i + 1, [n, rotaryDim] (GPT-J).
 */
export type RopeLayout = "compact" | "halves" | "interleaved";
/** The older names of two cache layouts, still accepted: "half" is "compact", "duplicated" is "halves". */
export type RopeLayoutAlias = "half" | "duplicated";
/** "float16" results are Uint16Arrays of IEEE half bits (an `out` may be a Float16Array). */
export type RopeDType = "float32" | "float64" | "float16";

/** Every rope `scaling.type`. */
export const ROPE_TYPES: readonly RopeType[];
/** Every `ropeCache` layout ("compact", "halves", "interleaved"). */
export const ROPE_LAYOUTS: readonly RopeLayout[];
/** Every `ropeCache` dtype. */
export const ROPE_DTYPES: readonly RopeDType[];

/** `rope_scaling` in camelCase; each type takes only its own parameters. A factor below 1 is computed as transformers computes it, with a warning in the result. */
export type RopeScaling =
  | { type: "default" }
  /** w_i / factor. */
  | { type: "linear"; factor: number }
  /** NTK-aware: base · (factor·L/max − (factor − 1))^(dim/(dim−2)), L = max(seqLen, maxPositionEmbeddings). Without seqLen, rope, table and ropeCache (and their plans) take a call's largest position + 1, as transformers' forward does. */
  | {
      type: "dynamic";
      factor: number;
      maxPositionEmbeddings: number;
      seqLen?: number;
    }
  /** YaRN; originalMaxPositionEmbeddings defaults to maxPositionEmbeddings (one is required); betaFast 32, betaSlow 1, truncate true; attentionFactor defaults to 0.1·ln(factor) + 1, or the mscale/mscaleAllDim ratio. */
  | {
      type: "yarn";
      factor: number;
      originalMaxPositionEmbeddings?: number;
      maxPositionEmbeddings?: number;
      betaFast?: number;
      betaSlow?: number;
      attentionFactor?: number;
      mscale?: number;
      mscaleAllDim?: number;
      truncate?: boolean;
    }
  /** LongRoPE: w_i / longFactor[i] when seqLen > the original length (originalMaxPositionEmbeddings, else maxPositionEmbeddings), else / shortFactor[i]; factor defaults to maxPositionEmbeddings / originalMaxPositionEmbeddings; attentionFactor defaults to sqrt(1 + ln(factor)/ln(original)). Without seqLen, rope, table and ropeCache (and their plans) take a call's largest position + 1, as transformers' forward does. */
  | {
      type: "longrope";
      shortFactor: ArrayLike<number>;
      longFactor: ArrayLike<number>;
      maxPositionEmbeddings: number;
      originalMaxPositionEmbeddings?: number;
      factor?: number;
      attentionFactor?: number;
      seqLen?: number;
    }
  /** Llama 3.1: wavelengths above original/lowFreqFactor divided by factor, below original/highFreqFactor kept, smooth in between (highFreqFactor not above lowFreqFactor computes, with a warning: equal factors smooth no band, as transformers' torch.where drops it). */
  | {
      type: "llama3";
      factor: number;
      lowFreqFactor: number;
      highFreqFactor: number;
      originalMaxPositionEmbeddings: number;
    }
  /** Gemma 4: base^(-2i/dim) for the first floor(partialRotaryFactor · dim / 2) pairs, 0 for the rest, all divided by factor; partialRotaryFactor in [0, 1], default 1; factor default 1. */
  | {
      type: "proportional";
      factor?: number;
      partialRotaryFactor?: number;
    };

/** The options of `ropeFrequencies`. */
export interface RopeFrequencyOptions {
  /** The head dim: even, 2 ≤ dim ≤ 2^20. */
  dim: number;
  /** The rotated part of the head (transformers' int(head_dim · partial_rotary_factor)): even, 2 ≤ rotaryDim ≤ dim; default dim. The frequencies are base^(-2i/rotaryDim), rotaryDim / 2 of them, and cache rows have rotaryDim / 2 or rotaryDim columns. */
  rotaryDim?: number;
  /** rope_theta, finite and > 1; default 10000. */
  base?: number;
  /** rope_scaling in camelCase; default { type: "default" }. */
  scaling?: RopeScaling;
  /** M-RoPE: the pairs of the t, h and w position streams, summing to rotaryDim / 2. */
  mropeSection?: ArrayLike<number>;
  /** M-RoPE pairs interleaved as Qwen3-VL's apply_interleaved_mrope (pairs 1, 4, 7, … below 3·s1 take h; 2, 5, 8, … below 3·s2 take w; the rest t), rather than chunked as Qwen2-VL's; default false. */
  mropeInterleaved?: boolean;
  /** The model's pairing, as `rope` takes it (fromConfig gives it): accepted and checked here, where the values do not depend on it. */
  pairing?: "halves" | "interleaved";
}

/** What `ropeFrequencies` returns. */
export interface RopeFrequencies {
  /** rotaryDim/2 inverse frequencies, float64 (transformers' inv_freq); `out` when given. */
  inverseFrequencies: Float64Array<ArrayBuffer>;
  /** The multiplier of cos and sin (1 unless the type has one). */
  attentionFactor: number;
  /** What transformers would log as a warning while computing these parameters (a factor below 1; betaFast below betaSlow; highFreqFactor not above lowFreqFactor); empty for ordinary input. A cache adds one when its largest position + 1, taken as seqLen, goes beyond the original context. */
  warnings: string[];
}

/**
 * The inverse frequencies of a rotary embedding and its attention factor, as
 * transformers' ROPE_INIT_FUNCTIONS compute them for `scaling`.
 */
export function ropeFrequencies(
  options: RopeFrequencyOptions & {
    /** A Float64Array of at least rotaryDim/2 elements to fill and return as inverseFrequencies. */
    out?: Float64Array<ArrayBufferLike>;
  },
): RopeFrequencies;

/** The cos and sin caches, each row-major [positions, width] (width rotaryDim/2 for "compact", rotaryDim otherwise). */
export interface RopeCacheOut<T> {
  /** cos(position · w_i) · attentionFactor. */
  cos: T;
  /** sin(position · w_i) · attentionFactor. */
  sin: T;
}

/** A cache, with its shape and the warnings of its parameters (see RopeFrequencies). */
export interface RopeCacheResult<T> extends RopeCacheOut<T> {
  /** [rows, width] of each of cos and sin: width is rotaryDim / 2 ("compact") or rotaryDim; what a tensor of either takes as its dims. */
  shape: [rows: number, width: number];
  /** What transformers would log as a warning for these parameters; empty for ordinary input. */
  warnings: string[];
}

/** One M-RoPE stream: numbers, or int64 ids (each within ±2^53, an exact double). */
export type MropeStream = ArrayLike<number> | BigInt64Array | BigUint64Array;

/** M-RoPE positions: one per row in each stream, all three of one length; with `mropeSection`. Text tokens (t = h = w) give plain RoPE. */
export interface MropePositions {
  /** Temporal positions. */
  t: MropeStream;
  /** Height positions. */
  h: MropeStream;
  /** Width positions. */
  w: MropeStream;
}

/** Positions of RoPE rows: a count or first position, one per row (int64 ids included), or M-RoPE's streams. */
export type RopePositions =
  number | ArrayLike<number> | BigInt64Array | BigUint64Array | MropePositions;

/** The typed array of a cache dtype on buffer B (float16: IEEE half bits in a Uint16Array; an `out` may be a Float16Array). */
export type RopeCacheArray<
  D extends RopeDType,
  B extends ArrayBufferLike = ArrayBuffer,
> = D extends "float64"
  ? Float64Array<B>
  : D extends "float16"
    ? Uint16Array<B>
    : Float32Array<B>;

/** What an `out` of a cache dtype may be: the dtype's array, or a Float16Array for float16. */
export type RopeCacheOutArray<D extends RopeDType> = D extends "float16"
  ? Float16Data
  : RopeCacheArray<D, ArrayBufferLike>;

/** The options of `ropeCache`. */
export interface RopeCacheOptions<
  D extends RopeDType = RopeDType,
  Out = RopeCacheOut<RopeCacheOutArray<RopeDType>>,
> extends RopeFrequencyOptions {
  /** A count of rows (from `start`), the positions themselves, or M-RoPE's { t, h, w } streams. */
  positions: RopePositions;
  /** First position when `positions` is a count; default 0. */
  start?: number;
  /** "compact" (default; [rows, rotaryDim/2], onnxruntime's), "halves" or "interleaved" ([rows, rotaryDim]); the older "half" and "duplicated" are "compact" and "halves". */
  layout?: RopeLayout | RopeLayoutAlias;
  /** "float32" (default): Float32Arrays; "float64": Float64Arrays; "float16": Uint16Arrays of half bits. */
  dtype?: D;
  /** Arrays of the caller's to fill and return as cos and sin: of the dtype's type (float16: a Uint16Array or a Float16Array), each of at least rows × width elements, not overlapping. */
  out?: Out;
}

/**
 * The cos and sin caches of a rotary embedding at the given positions (the
 * inputs of onnxruntime's RotaryEmbedding and of transformers' attention),
 * attention factor applied, with their shape: new arrays of the dtype's type
 * ("float16": Uint16Arrays of half bits), or `out`'s, written and returned.
 */
export function ropeCache<
  D extends RopeDType,
  Out extends RopeCacheOut<RopeCacheOutArray<RopeDType>> = RopeCacheOut<
    RopeCacheArray<D>
  >,
>(
  options: RopeCacheOptions<D, Out & RopeCacheOut<RopeCacheOutArray<D>>> & {
    dtype: D;
  },
): RopeCacheResult<NoInfer<Out>["cos"]>;
/**
 * The cos and sin caches of a rotary embedding at the given positions,
 * attention factor applied, with their shape: new Float32Arrays, or `out`'s.
 */
export function ropeCache<
  Out extends RopeCacheOut<Float32Array<ArrayBufferLike>> = RopeCacheOut<
    Float32Array<ArrayBuffer>
  >,
>(
  options: RopeCacheOptions<"float32", Out>,
): RopeCacheResult<NoInfer<Out>["cos"]>;
/**
 * The cos and sin caches of options whose dtype is known only at run time
 * (a `RopeCacheOptions`), attention factor applied, with their shape.
 */
export function ropeCache<
  D extends RopeDType = "float32",
  Out extends RopeCacheOut<RopeCacheOutArray<RopeDType>> = RopeCacheOut<
    RopeCacheArray<D>
  >,
>(
  options: RopeCacheOptions<D, Out & RopeCacheOut<RopeCacheOutArray<D>>>,
): RopeCacheResult<NoInfer<Out>["cos"]>;
