import type { RopeScaling } from "./rope-scaling.js";

/** Bytes of the wasm module, a compiled module, or where to fetch it. */
export type WasmSource =
  WebAssembly.Module | ArrayBuffer | ArrayBufferView | URL | string | Response;

/**
 * Compiles and instantiates the module (inlined in this file) once; later
 * calls resolve at once. Pass `source` to load the shipped
 * `sinusoidal-pe/sinusoidal-pe.wasm` instead (a URL or a Response served as
 * application/wasm compiles while streaming). Under a Content-Security-Policy
 * the compile needs 'wasm-unsafe-eval'. Every other function is synchronous
 * and throws before `init`.
 */
export function init(source?: WasmSource): Promise<void>;

export type Layout =
  "interleaved" | "interleaved-cos-first" | "halves" | "halves-cos-first";
export type Schedule = "paper" | "timescale" | "shifted";
export type OddDim = "zero-pad" | "extra-sin" | "error";
export type DType = "float32" | "float64";
export type PresetName =
  | "paper"
  | "tensor2tensor"
  | "fairseq"
  | "whisper"
  | "diffusers"
  | "guided-diffusion"
  | "marian"
  | "mlx";

export const MAX_DIM: number;
export const LAYOUTS: readonly Layout[];
export const SCHEDULES: readonly Schedule[];
export const ODD_DIMS: readonly OddDim[];
export const DTYPES: readonly DType[];

export interface ScheduleOptions {
  /** Columns of the table, 1 ≤ dim ≤ MAX_DIM. */
  dim: number;
  /** "paper" (default): w_i = base^(−2i/dim); "timescale": minTimescale·exp(−i·ln(maxTimescale/minTimescale)/max(h−1, 1)); "shifted": exp(−ln(base)·i/(h − shift)), h = ⌊dim/2⌋. */
  schedule?: Schedule;
  /** Finite and > 1; default 10000 ("paper" and "shifted"). */
  base?: number;
  /** "timescale" only; finite and > 0; defaults 1 and 10000. */
  minTimescale?: number;
  maxTimescale?: number;
  /** "shifted" only; finite and below ⌊dim/2⌋; default 1. */
  shift?: number;
  /** Explicit w_i instead of a schedule: one per pair (⌈dim/2⌉ with extra-sin). */
  frequencies?: ArrayLike<number>;
  /** Odd dim: "extra-sin" (default; ⌈dim/2⌉ sin columns), "zero-pad" (zero last column) or "error". */
  oddDim?: OddDim;
  /** A RoPE context extension of the "paper" schedule (even dim), as `ropeFrequencies` takes it; its attention factor multiplies every table value and every `rope` result. */
  scaling?: RopeScaling;
}

export interface TableOptions extends ScheduleOptions {
  /** A count (rows at start, start+1, …) or explicit finite positions (fractional allowed); 0 and [] give an empty table. */
  positions: number | ArrayLike<number>;
  /** First position when positions is a count; default 0. */
  start?: number;
  /** Default "interleaved" (sin, cos per pair, as in the paper). */
  layout?: Layout;
  /** Multiplies every angle: angle = position · scale · w_i. Default 1. */
  scale?: number;
  /** Multiplies every value before rounding. Default 1. */
  outputScale?: number;
  /** Default "float32". */
  dtype?: DType;
  /**
   * Return a zero-copy view of the module's memory instead of a copy. The
   * view stays valid until the next call that returns a view; memory growth
   * by any call also ends it. An invalidated view is detached: its length
   * is 0 and its methods and iteration throw a TypeError.
   */
  view?: boolean;
  /**
   * Write the table into this array (a Float32Array for float32, a
   * Float64Array for float64; a subarray of a larger buffer works) and
   * return it. At least positions × dim long: elements past the table are
   * left as they were. Not a view of the module's memory; not with `view`.
   */
  out?: Float32Array | Float64Array;
}

export interface PresetTableOptions {
  preset: PresetName;
  positions: number | ArrayLike<number>;
  dim: number;
  dtype?: DType;
  view?: boolean;
  out?: Float32Array | Float64Array;
  /** The library's own parameters, in camelCase; see `presets`. */
  [parameter: string]: unknown;
}

/** The encoding table, row-major [positions, dim], written into `out`. */
export function table<Out extends Float32Array>(
  options: (TableOptions | PresetTableOptions) & {
    dtype?: "float32";
    view?: false;
    out: Out;
  },
): Out;
export function table<Out extends Float64Array>(
  options: (TableOptions | PresetTableOptions) & {
    dtype: "float64";
    view?: false;
    out: Out;
  },
): Out;
/** The encoding table, row-major [positions, dim]. */
export function table<Options extends TableOptions | PresetTableOptions>(
  options: Options & { dtype?: "float32"; out?: undefined },
): Float32Array;
export function table<Options extends TableOptions | PresetTableOptions>(
  options: Options & { dtype: "float64"; out?: undefined },
): Float64Array;
export function table<Options extends TableOptions | PresetTableOptions>(
  options: Options & OutWithoutView<Options>,
): Float32Array | Float64Array;

/** `out` beside a literal `view: true` does not compile (a TypeError at run time). */
type OutWithoutView<Options> = Options extends {
  view: true;
  out: Float32Array | Float64Array;
}
  ? { out?: never }
  : unknown;

/** The w_i that `table` uses for these options (scale not applied). */
export function frequencies<Out extends Float64Array>(
  options: (ScheduleOptions | TableOptions | PresetTableOptions) & {
    out: Out;
  },
): Out;
export function frequencies(
  options: ScheduleOptions | TableOptions | PresetTableOptions,
): Float64Array;

export interface PresetDescription {
  readonly source: {
    readonly repository: string;
    readonly file: string;
    readonly function: string;
  };
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly frequency: string;
  readonly layout: string;
  readonly oddDim: string;
  readonly notes?: string;
}

/** What each preset reproduces, with its source and defaults. */
export const presets: Readonly<Record<PresetName, PresetDescription>>;
export * from "./relation.js";
export * from "./decay.js";
export * from "./rope-scaling.js";
export * from "./config.js";

/** A typed array that `toNpy` can write: float32, float64, or float16 bits. */
export type NpyArray = Float32Array | Float64Array | Uint16Array;

/**
 * A complete NumPy `.npy` file (format 1.0, C order, little-endian) of
 * `values` with `shape`; a Uint16Array is written as float16 bits ("<f2").
 */
export function toNpy(values: NpyArray, shape: readonly number[]): Uint8Array;

/** The header alone, for writing a large array in blocks after it. */
export function npyHeader(
  descriptor: "<f4" | "<f8" | "<f2",
  shape: readonly number[],
): Uint8Array;

/**
 * CSV text of a row-major table with `columns` values per row, each value
 * in the fewest digits that round-trip in the array's precision.
 */
export function toCsv(
  values: Float32Array | Float64Array | readonly number[],
  columns: number,
  header?: readonly string[],
): string;
