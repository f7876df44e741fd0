/** Rope types of Hugging Face transformers (`rope_scaling.rope_type`). */
export type RopeType =
  "default" | "linear" | "dynamic" | "yarn" | "longrope" | "llama3";
/** "half": [n, dim/2] (onnxruntime cos_cache/sin_cache); "duplicated": [n, dim], cat(freqs, freqs) (HF); "interleaved": [n, dim], each value twice (GPT-J). */
export type RopeLayout = "half" | "duplicated" | "interleaved";
/** "float16" results are Uint16Arrays of IEEE half bits. */
export type RopeDType = "float32" | "float64" | "float16";

/** Every rope `scaling.type`. */
export const ROPE_TYPES: readonly RopeType[];
/** Every `ropeCache` layout. */
export const ROPE_LAYOUTS: readonly RopeLayout[];
/** Every `ropeCache` dtype. */
export const ROPE_DTYPES: readonly RopeDType[];

/** `rope_scaling` in camelCase; each type takes only its own parameters. */
export type RopeScaling =
  | { type: "default" }
  /** w_i / factor. */
  | { type: "linear"; factor: number }
  /** NTK-aware: base · (factor·L/max − (factor − 1))^(dim/(dim−2)), L = max(seqLen, maxPositionEmbeddings). */
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
  /** LongRoPE: w_i / longFactor[i] when seqLen > the original length, else / shortFactor[i]; with originalMaxPositionEmbeddings (Phi-3) the factor is maxPositionEmbeddings / originalMaxPositionEmbeddings; attentionFactor defaults to sqrt(1 + ln(factor)/ln(original)). */
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
  /** Llama 3.1: wavelengths above original/lowFreqFactor divided by factor, below original/highFreqFactor kept, smooth in between. */
  | {
      type: "llama3";
      factor: number;
      lowFreqFactor: number;
      highFreqFactor: number;
      originalMaxPositionEmbeddings: number;
    };

/** The options of `ropeFrequencies`. */
export interface RopeFrequencyOptions {
  /** The rotary dim: even, 2 ≤ dim ≤ 2^20. */
  dim: number;
  /** rope_theta, finite and > 1; default 10000. */
  base?: number;
  /** rope_scaling in camelCase; default { type: "default" }. */
  scaling?: RopeScaling;
}

/** What `ropeFrequencies` returns. */
export interface RopeFrequencies {
  /** dim/2 inverse frequencies, float64 (transformers' inv_freq). */
  inverseFrequencies: Float64Array;
  /** The multiplier of cos and sin (1 unless the type has one). */
  attentionFactor: number;
}

/**
 * The inverse frequencies of a rotary embedding and its attention factor, as
 * transformers' ROPE_INIT_FUNCTIONS compute them for `scaling`.
 */
export function ropeFrequencies(
  options: RopeFrequencyOptions & {
    /** A Float64Array of at least dim/2 elements to fill and return as inverseFrequencies. */
    out?: Float64Array;
  },
): RopeFrequencies;

/** The cos and sin caches, each row-major [positions, width] (width dim/2 for "half", dim otherwise). */
export interface RopeCacheOut<T> {
  /** cos(position · w_i) · attentionFactor. */
  cos: T;
  /** sin(position · w_i) · attentionFactor. */
  sin: T;
}

/** The typed array of a cache dtype (float16: IEEE half bits in a Uint16Array). */
export type RopeCacheArray<D extends RopeDType> = D extends "float64"
  ? Float64Array
  : D extends "float16"
    ? Uint16Array
    : Float32Array;

/** The options of `ropeCache`. */
export interface RopeCacheOptions extends RopeFrequencyOptions {
  /** A count of rows (from `start`) or the positions themselves. */
  positions: number | ArrayLike<number>;
  /** First position when `positions` is a count; default 0. */
  start?: number;
  /** Default "half". */
  layout?: RopeLayout;
  /** "float32" (default), "float64", or "float16" (Uint16Arrays of half bits). */
  dtype?: RopeDType;
  /** Arrays of the caller's to fill and return as cos and sin: of the dtype's type, each of at least rows × width elements, not overlapping. */
  out?:
    | RopeCacheOut<Float32Array>
    | RopeCacheOut<Float64Array>
    | RopeCacheOut<Uint16Array>;
}

/**
 * The cos and sin caches of a rotary embedding at the given positions (the
 * inputs of onnxruntime's RotaryEmbedding and of transformers' attention),
 * attention factor applied: float32 by default.
 */
export function ropeCache(
  options: RopeCacheOptions & { dtype?: "float32"; out?: undefined },
): RopeCacheOut<Float32Array>;
/** The cos and sin caches of a rotary embedding at the given positions, in float64. */
export function ropeCache(
  options: RopeCacheOptions & { dtype: "float64"; out?: undefined },
): RopeCacheOut<Float64Array>;
/** The cos and sin caches of a rotary embedding at the given positions, as float16 bits. */
export function ropeCache(
  options: RopeCacheOptions & { dtype: "float16"; out?: undefined },
): RopeCacheOut<Uint16Array>;
/**
 * The cos and sin caches written into `out` and returned (its arrays have
 * the type of the dtype's), or of the options' dtype.
 */
export function ropeCache<
  Out extends
    | RopeCacheOut<Float32Array>
    | RopeCacheOut<Float64Array>
    | RopeCacheOut<Uint16Array>,
  D extends RopeDType = "float32",
>(
  options: RopeCacheOptions & {
    dtype?: D;
    out?: Out & RopeCacheOut<RopeCacheArray<D>>;
  },
): Out;
