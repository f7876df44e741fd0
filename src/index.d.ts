import type { RopeScaling } from "./rope-scaling.js";

// Results are new typed arrays on plain ArrayBuffers (a view too: the module's
// memory is one), typed so (TypeScript ≥ 5.7): Blob, Response, fetch bodies
// and GPUQueue.writeBuffer take them as they are. An `out` keeps its own type.

declare global {
  /**
   * TypeScript's lib "esnext.float16" declares Float16Array in full; this
   * part of it lets these declarations compile without that lib, where no
   * value has the type.
   */
  interface Float16Array<
    TArrayBuffer extends ArrayBufferLike = ArrayBufferLike,
  > {
    readonly [Symbol.toStringTag]: "Float16Array";
  }
}

/** float16 values: IEEE half bits in a Uint16Array (what WebGPU and onnxruntime-web hold), or a Float16Array. */
export type Float16Data<B extends ArrayBufferLike = ArrayBufferLike> =
  Uint16Array<B> | Float16Array<B>;

/** The float typed arrays the library reads and writes: float32, float64 and float16. */
export type FloatArray<B extends ArrayBufferLike = ArrayBufferLike> =
  Float32Array<B> | Float64Array<B> | Float16Data<B>;

/** Bytes of the wasm module, a compiled module, or where to fetch it. */
export type WasmSource =
  WebAssembly.Module | ArrayBuffer | ArrayBufferView | URL | string | Response;

/**
 * Compiles and instantiates the module (inlined in this entry) once; later
 * calls resolve at once. Pass `source` to load the shipped
 * `sinusoidal-pe/sinusoidal-pe.wasm` instead (a URL or a Response served as
 * application/wasm compiles while streaming); apps that always do should
 * import `sinusoidal-pe/slim`, which has no inline copy. Under a
 * Content-Security-Policy the compile needs 'wasm-unsafe-eval' (refused, it
 * rejects with code `ERR_CSP`). Every other function is synchronous and
 * throws before `init`.
 */
export function init(source?: WasmSource): Promise<void>;

/** Column order of a table: sin and cos per pair, or all sin then all cos. */
export type Layout =
  "interleaved" | "interleaved-cos-first" | "halves" | "halves-cos-first";
/** Frequency schedules; see `PaperSchedule`, `TimescaleSchedule`, `ShiftedSchedule`. */
export type Schedule = "paper" | "timescale" | "shifted";
/** What an odd dim does with its last column. */
export type OddDim = "zero-pad" | "extra-sin" | "error";
/** Element type of a table: Float32Array or Float64Array. */
export type DType = "float32" | "float64";
/** Libraries whose sinusoidal embedding a preset reproduces. */
export type PresetName =
  | "paper"
  | "tensor2tensor"
  | "fairseq"
  | "whisper"
  | "diffusers"
  | "guided-diffusion"
  | "marian"
  | "mlx";

/** The largest dim a table takes (2^20). */
export const MAX_DIM: number;
/** Every `layout`, in the C core's order. */
export const LAYOUTS: readonly Layout[];
/** Every `schedule`, in the C core's order. */
export const SCHEDULES: readonly Schedule[];
/** Every `oddDim`, in the C core's order. */
export const ODD_DIMS: readonly OddDim[];
/** Every table `dtype`. */
export const DTYPES: readonly DType[];

// Each option is declared once, in one interface that every union member
// with it shares, so that an editor finds its documentation inside a call.

/** The width of the encoding. */
export interface DimOption {
  /** Columns of the table (rope: the even head dimension), 1 ≤ dim ≤ MAX_DIM. */
  dim: number;
}

/** What an odd dim does. */
export interface OddDimOption {
  /** Odd dim: "extra-sin" (default; ⌈dim/2⌉ sin columns), "zero-pad" (zero last column) or "error". */
  oddDim?: OddDim;
}

/** The base of the "paper" and "shifted" schedules. */
export interface BaseOption {
  /** "paper" and "shifted" schedules: finite and > 1; default 10000. */
  base?: number;
}

/** The "paper" schedule (the default), optionally rescaled by `scaling`. */
export interface PaperSchedule extends BaseOption {
  /** "paper" (default): w_i = base^(−2i/dim); "timescale": minTimescale·exp(−i·ln(maxTimescale/minTimescale)/max(h−1, 1)); "shifted": exp(−ln(base)·i/(h − shift)), h = ⌊dim/2⌋. */
  schedule?: "paper";
  /** "paper" schedule only: a RoPE context extension of it (even dim), as `ropeFrequencies` takes it; its attention factor multiplies every table value and every `rope` result. */
  scaling?: RopeScaling;
  minTimescale?: never;
  maxTimescale?: never;
  shift?: never;
  frequencies?: never;
}

/** tensor2tensor's "timescale" schedule. */
export interface TimescaleSchedule
  extends MinTimescaleOption, MaxTimescaleOption {
  /** "timescale": w_i = minTimescale·exp(−i·ln(maxTimescale/minTimescale)/max(h−1, 1)), h = ⌊dim/2⌋. */
  schedule: "timescale";
  base?: never;
  shift?: never;
  frequencies?: never;
  scaling?: never;
}

/** The "shifted" schedule (diffusers' downscale_freq_shift). */
export interface ShiftedSchedule extends BaseOption {
  /** "shifted": w_i = exp(−ln(base)·i/(h − shift)), h = ⌊dim/2⌋. */
  schedule: "shifted";
  /** "shifted" schedule only: finite and below ⌊dim/2⌋; default 1. */
  shift?: number;
  minTimescale?: never;
  maxTimescale?: never;
  frequencies?: never;
  scaling?: never;
}

/** Explicit frequencies instead of a schedule. */
export interface ExplicitFrequencies {
  /** Explicit w_i instead of a schedule: one per pair (⌈dim/2⌉ with extra-sin); not with any schedule option. */
  frequencies: ArrayLike<number>;
  schedule?: never;
  base?: never;
  minTimescale?: never;
  maxTimescale?: never;
  shift?: never;
  scaling?: never;
}

/** A schedule and its own parameters, or explicit frequencies. */
export type Frequencies =
  PaperSchedule | TimescaleSchedule | ShiftedSchedule | ExplicitFrequencies;

/**
 * The frequencies of a table of `dim` columns: a schedule and its own
 * parameters, or explicit ones. A parameter of another schedule (`scaling`
 * beside "timescale", say) does not compile, as it is a TypeError at run
 * time.
 */
export type ScheduleOptions = Frequencies & DimOption & OddDimOption;

/** The shortest timescale of tensor2tensor's schedule. */
export interface MinTimescaleOption {
  /** The shortest timescale ("timescale" schedule, preset "tensor2tensor"): finite and > 0; default 1. */
  minTimescale?: number;
}

/** The longest timescale of tensor2tensor's schedule. */
export interface MaxTimescaleOption {
  /** The longest timescale ("timescale" schedule, presets "tensor2tensor" and "whisper"): finite and > 0; default 10000. */
  maxTimescale?: number;
}

/** A multiplier of every angle. */
export interface ScaleOption {
  /** Multiplies every angle: angle = position · scale · w_i; default 1. With preset "mlx", multiplies every value instead; default (and 0) sqrt(2/dim). */
  scale?: number;
}

/** keras SinePositionEncoding. */
export interface PaperPreset {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "paper";
  /** keras SinePositionEncoding max_wavelength; default 10000. */
  maxWavelength?: number;
  /** The first position when positions is a count (keras start_index, tensor2tensor start_index); default 0. */
  startIndex?: number;
}

/** tensor2tensor get_timing_signal_1d. */
export interface Tensor2tensorPreset
  extends MinTimescaleOption, MaxTimescaleOption {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "tensor2tensor";
  /** The first position when positions is a count (keras start_index, tensor2tensor start_index); default 0. */
  startIndex?: number;
}

/** fairseq SinusoidalPositionalEmbedding. */
export interface FairseqPreset {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "fairseq";
  /** The padding index whose row is zeros (models use 1); default null: none. */
  paddingIdx?: number | null;
}

/** whisper sinusoids. */
export interface WhisperPreset extends MaxTimescaleOption {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "whisper";
}

/** diffusers get_timestep_embedding. */
export interface DiffusersPreset extends ScaleOption {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "diffusers";
  /** [cos | sin] instead of [sin | cos]; default false (Stable Diffusion's UNet: true). */
  flipSinToCos?: boolean;
  /** Divides ln(maxPeriod) by h − shift; default 1 (Stable Diffusion's UNet: 0). */
  downscaleFreqShift?: number;
  /** The longest period (diffusers max_period, guided-diffusion max_period); default 10000. */
  maxPeriod?: number;
}

/** guided-diffusion timestep_embedding. */
export interface GuidedDiffusionPreset {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "guided-diffusion";
  /** The longest period (diffusers max_period, guided-diffusion max_period); default 10000. */
  maxPeriod?: number;
}

/** transformers MarianSinusoidalPositionalEmbedding. */
export interface MarianPreset {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "marian";
  /** The first position when positions is a count (past_key_values_length); default 0. */
  pastKeyValuesLength?: number;
}

/** mlx SinusoidalPositionalEncoding. */
export interface MlxPreset extends ScaleOption {
  /** The library whose embedding to reproduce; see `presets`. */
  preset: "mlx";
  /** The lowest frequency; default 0.0001. */
  minFreq?: number;
  /** The highest frequency; default 1. */
  maxFreq?: number;
  /** [cos | sin] instead of [sin | cos]; default false. */
  cosFirst?: boolean;
  /** Frequencies in turns (times 2π); default false. */
  fullTurns?: boolean;
}

/** Each preset with its parameters, by name. */
export interface PresetParameters {
  paper: PaperPreset;
  tensor2tensor: Tensor2tensorPreset;
  fairseq: FairseqPreset;
  whisper: WhisperPreset;
  diffusers: DiffusersPreset;
  "guided-diffusion": GuidedDiffusionPreset;
  marian: MarianPreset;
  mlx: MlxPreset;
}

/** No preset: the options give the schedule (a preset's own parameters need its `preset`). */
export interface NoPreset {
  /** The library whose embedding to reproduce; see `presets`. */
  preset?: undefined;
  maxWavelength?: never;
  startIndex?: never;
  paddingIdx?: never;
  flipSinToCos?: never;
  downscaleFreqShift?: never;
  maxPeriod?: never;
  pastKeyValuesLength?: never;
  minFreq?: never;
  maxFreq?: never;
  cosFirst?: never;
  fullTurns?: never;
}

/**
 * A preset and its own parameters beside a function's `Own` options; a
 * misspelt preset, or a parameter of another preset, does not compile.
 */
export type PresetOptions<Own = unknown> = {
  [Name in PresetName]: PresetParameters[Name] & DimOption & Own;
}[PresetName];

/** The rows of a table. */
export interface PositionsOption {
  /** A count (rows at start, start+1, …) or explicit finite positions (fractional allowed); 0 and [] give an empty table. */
  positions: number | ArrayLike<number> | BigInt64Array | BigUint64Array;
}

/** The rows of a table and its dtype. */
export interface TableRows<D extends DType = DType> extends PositionsOption {
  /** "float32" (default): a Float32Array; "float64": a Float64Array. */
  dtype?: D;
}

/** How a table's values are placed, without a preset. */
export interface TablePlacement extends ScaleOption {
  /** First position when positions is a count; default 0. */
  start?: number;
  /** Default "interleaved" (sin, cos per pair, as in the paper). */
  layout?: Layout;
  /** Multiplies every value before rounding. Default 1. */
  outputScale?: number;
}

/** A copy of the table, or the caller's `out`. */
export interface CopyOrOut<Out> {
  /** Default false: a copy (or `out`). true: a zero-copy view of the module's memory; not with `out`. */
  view?: false;
  /**
   * Write the table into this array (a Float32Array for float32, a
   * Float64Array for float64; a subarray of a larger buffer works) and
   * return it. At least positions × dim long: elements past the table are
   * left as they were. Not a view of the module's memory; not with `view`.
   */
  out?: Out;
}

/** A view of the module's memory. */
export interface InView {
  /**
   * Return a zero-copy view of the module's memory instead of a copy. The
   * view stays valid until the next call that returns a view; memory growth
   * by any call also ends it. An invalidated view is detached: its length
   * is 0 and its methods and iteration throw a TypeError. Not with `out`.
   */
  view: true;
  /** Not with `view: true`. */
  out?: undefined;
}

/** The options of `table`, with a preset or without, for rows and an `out`. */
export type TableInput<Rows, Out> = Rows &
  (CopyOrOut<Out> | InView) &
  ((ScheduleOptions & TablePlacement & NoPreset) | PresetOptions);

/** The options of `table` without a preset. */
export type TableOptions = ScheduleOptions &
  TablePlacement &
  NoPreset &
  TableRows &
  (CopyOrOut<Float32Array | Float64Array> | InView);

/** The options of `table` with a preset: its parameters, positions, dtype and delivery. */
export type PresetTableOptions = PresetOptions<
  TableRows & (CopyOrOut<Float32Array | Float64Array> | InView)
>;

/** The array type of a dtype on buffer B (both for a dtype not known until run time). */
export type TableArray<
  D extends DType,
  B extends ArrayBufferLike = ArrayBuffer,
> = D extends "float64" ? Float64Array<B> : Float32Array<B>;

/**
 * The encoding table, row-major [positions, dim], of the dtype's array type
 * (a Float32Array or a Float64Array), or `out`, written and returned.
 */
export function table<
  D extends DType,
  Out extends TableArray<D, ArrayBufferLike> = TableArray<D>,
>(options: TableInput<TableRows<D> & { dtype: D }, Out>): NoInfer<Out>;
/**
 * The encoding table, row-major [positions, dim]: a new Float32Array, or
 * `out` (a Float32Array), written and returned.
 */
export function table<
  Out extends Float32Array<ArrayBufferLike> = Float32Array<ArrayBuffer>,
>(options: TableInput<TableRows<"float32">, Out>): NoInfer<Out>;
/**
 * The encoding table, row-major [positions, dim], of options whose dtype is
 * known only at run time (a `TableOptions`): a Float32Array or a
 * Float64Array, or `out`.
 */
export function table<
  D extends DType = "float32",
  Out extends TableArray<D, ArrayBufferLike> = TableArray<D>,
>(
  options: TableInput<TableRows<D>, Out & TableArray<D, ArrayBufferLike>>,
): NoInfer<Out>;

/** What each column of a table row holds, as the C core places it. */
export interface TableColumns {
  /** The layout the columns follow (a preset's own, or the option's). */
  layout: Layout;
  /** The odd-dim rule they follow. */
  oddDim: OddDim;
  /** kinds[c]: "sin" or "cos" of a pair's angle, or "zero" (zero-pad's column). */
  kinds: ("sin" | "cos" | "zero")[];
  /** pairs[c]: the pair i whose w_i column c takes, -1 for a zero column. */
  pairs: Int32Array<ArrayBuffer>;
}

/**
 * What each column of a table row holds under these options (a table's
 * schedule and placement, or a preset and its parameters): the sin or cos of
 * which pair, or zero.
 */
export function tableColumns(
  options: (ScheduleOptions & TablePlacement & NoPreset) | PresetOptions,
): TableColumns;

/** What `frequencies` takes besides the schedule. */
export interface FrequencyExtras<Out> {
  /** As for `table`; w_i do not depend on it. */
  positions?: number | ArrayLike<number>;
  /** As for `table`; w_i are float64 whatever it is. */
  dtype?: DType;
  /** As for `table`; w_i are a copy (or `out`) whatever it is. */
  view?: boolean;
  /** A Float64Array of at least one element per pair to fill and return. */
  out?: Out;
}

/** The options of `frequencies`: a table's, with `out` a Float64Array of the w_i. */
export type FrequencyOptions<
  Out extends Float64Array = Float64Array<ArrayBuffer>,
> = FrequencyExtras<Out> &
  ((ScheduleOptions & TablePlacement & NoPreset) | PresetOptions);

/** The w_i that `table` uses for these options (scale not applied), in `out` when given. */
export function frequencies<
  Out extends Float64Array = Float64Array<ArrayBuffer>,
>(options: FrequencyOptions<Out>): NoInfer<Out>;

/** A preset's columns in machine-readable form. */
export interface PresetColumns {
  /** The layout at the preset's default parameters. */
  readonly layout: Layout;
  /** What an odd dim does ("error": the preset refuses odd dims). */
  readonly oddDim: OddDim;
  /** The boolean parameter that, when true, puts the cos block first ("halves-cos-first"). */
  readonly cosFirstWhen?: string;
}

/** What a preset reproduces. */
export interface PresetDescription {
  /** Where the reproduced code lives. */
  readonly source: {
    /** GitHub owner/name. */
    readonly repository: string;
    /** The file's path in the repository. */
    readonly file: string;
    /** The function or class reproduced. */
    readonly function: string;
    /** The release (and commit) followed, where the source's behaviour changed between releases. */
    readonly release?: string;
  };
  /** The preset's parameters and their defaults. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The frequency formula. */
  readonly frequency: string;
  /** The column layout. */
  readonly layout: string;
  /** What an odd dim gives. */
  readonly oddDim: string;
  /** The column layout and odd-dim rule as table options name them, which `tableColumns({ preset })` reports. */
  readonly columns: PresetColumns;
  /** Anything else the source does. */
  readonly notes?: string;
}

/** What each preset reproduces, with its source and defaults. */
export const presets: Readonly<Record<PresetName, PresetDescription>>;
export * from "./relation.js";
export * from "./decay.js";
export * from "./rope-scaling.js";
export * from "./config.js";
export * from "./plans.js";

/** A typed array that `toNpy` can write: float32, float64, or float16 (half bits in a Uint16Array, or a Float16Array). */
export type NpyArray = FloatArray;

/**
 * A complete NumPy `.npy` file (C order, little-endian) of `values` with
 * `shape`; a Uint16Array is written as float16 bits ("<f2"). The header is
 * format 1.0, or format 2.0 when it passes 65535 bytes (a shape of
 * thousands of dimensions), as NumPy writes it.
 */
export function toNpy(
  values: NpyArray,
  shape: readonly number[],
): Uint8Array<ArrayBuffer>;

/**
 * The header alone (format 1.0, or 2.0 past 65535 bytes), for writing a
 * large array in blocks after it.
 */
export function npyHeader(
  descriptor: "<f4" | "<f8" | "<f2",
  shape: readonly number[],
): Uint8Array<ArrayBuffer>;

/**
 * CSV text of a row-major table with `columns` values per row, each value
 * in the fewest digits that round-trip in the array's precision.
 */
export function toCsv(
  values: Float32Array | Float64Array | readonly number[],
  columns: number,
  header?: readonly string[],
): string;
export * from "./error-codes.js";
