import type { RopeScaling } from "./rope-scaling.js";

/** Bytes of the wasm module, a compiled module, or where to fetch it. */
export type WasmSource =
  WebAssembly.Module | ArrayBuffer | ArrayBufferView | URL | string | Response;

/**
 * Compiles and instantiates the module (inlined in this entry) once; later
 * calls resolve at once. Pass `source` to load the shipped
 * `sinusoidal-pe/sinusoidal-pe.wasm` instead (a URL or a Response served as
 * application/wasm compiles while streaming); apps that always do should
 * import `sinusoidal-pe/slim`, which has no inline copy. Under a
 * Content-Security-Policy the compile needs 'wasm-unsafe-eval'. Every other
 * function is synchronous and throws before `init`.
 */
export function init(source?: WasmSource): Promise<void>;

/** Column order of a table: sin and cos per pair, or all sin then all cos. */
export type Layout =
  "interleaved" | "interleaved-cos-first" | "halves" | "halves-cos-first";
/** Frequency schedules; see `ScheduleFields.schedule`. */
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

/** Every schedule option, documented once; each schedule takes some of them. */
export interface ScheduleFields {
  /** Columns of the table, 1 ≤ dim ≤ MAX_DIM. */
  dim: number;
  /** "paper" (default): w_i = base^(−2i/dim); "timescale": minTimescale·exp(−i·ln(maxTimescale/minTimescale)/max(h−1, 1)); "shifted": exp(−ln(base)·i/(h − shift)), h = ⌊dim/2⌋. */
  schedule?: Schedule;
  /** "paper" and "shifted" only: finite and > 1; default 10000. */
  base?: number;
  /** "timescale" only: finite and > 0; default 1. */
  minTimescale?: number;
  /** "timescale" only: finite and > 0; default 10000. */
  maxTimescale?: number;
  /** "shifted" only: finite and below ⌊dim/2⌋; default 1. */
  shift?: number;
  /** Explicit w_i instead of a schedule: one per pair (⌈dim/2⌉ with extra-sin); not with any schedule option. */
  frequencies?: ArrayLike<number>;
  /** Odd dim: "extra-sin" (default; ⌈dim/2⌉ sin columns), "zero-pad" (zero last column) or "error". */
  oddDim?: OddDim;
  /** "paper" only: a RoPE context extension of the schedule (even dim), as `ropeFrequencies` takes it; its attention factor multiplies every table value and every `rope` result. */
  scaling?: RopeScaling;
}

type ScheduleKey = Exclude<keyof ScheduleFields, "dim" | "oddDim">;
/** The options of one schedule: `Keys`, and none of the others. */
type OneSchedule<Keys extends ScheduleKey> = Pick<
  ScheduleFields,
  "dim" | "oddDim" | Keys
> & { [Key in Exclude<ScheduleKey, Keys>]?: never };

/** The "paper" schedule (the default), optionally rescaled by `scaling`. */
export type PaperSchedule = OneSchedule<"schedule" | "base" | "scaling"> & {
  schedule?: "paper";
};
/** tensor2tensor's "timescale" schedule. */
export type TimescaleSchedule = OneSchedule<
  "schedule" | "minTimescale" | "maxTimescale"
> & { schedule: "timescale" };
/** The "shifted" schedule (diffusers' downscale_freq_shift). */
export type ShiftedSchedule = OneSchedule<"schedule" | "base" | "shift"> & {
  schedule: "shifted";
};
/** Explicit frequencies instead of a schedule. */
export type ExplicitFrequencies = OneSchedule<"frequencies"> & {
  frequencies: ArrayLike<number>;
};

/**
 * The frequencies: a schedule and its own parameters, or explicit ones. A
 * parameter of another schedule (`scaling` beside "timescale", say) does not
 * compile, as it is a TypeError at run time.
 */
export type ScheduleOptions =
  PaperSchedule | TimescaleSchedule | ShiftedSchedule | ExplicitFrequencies;

/** The parameters of each preset, with the library's defaults. */
export interface PresetParameters {
  paper: {
    /** keras SinePositionEncoding max_wavelength; default 10000. */
    maxWavelength?: number;
    /** The first position when positions is a count (keras start_index); default 0. */
    startIndex?: number;
  };
  tensor2tensor: {
    /** get_timing_signal_1d min_timescale; default 1. */
    minTimescale?: number;
    /** get_timing_signal_1d max_timescale; default 10000. */
    maxTimescale?: number;
    /** The first position when positions is a count (start_index); default 0. */
    startIndex?: number;
  };
  fairseq: {
    /** The padding index whose row is zeros (models use 1); default null: none. */
    paddingIdx?: number | null;
  };
  whisper: {
    /** sinusoids max_timescale; default 10000. */
    maxTimescale?: number;
  };
  diffusers: {
    /** [cos | sin] instead of [sin | cos]; default false (Stable Diffusion's UNet: true). */
    flipSinToCos?: boolean;
    /** Divides ln(maxPeriod) by h − shift; default 1 (Stable Diffusion's UNet: 0). */
    downscaleFreqShift?: number;
    /** Multiplies every angle; default 1. */
    scale?: number;
    /** The longest period; default 10000. */
    maxPeriod?: number;
  };
  "guided-diffusion": {
    /** timestep_embedding max_period; default 10000. */
    maxPeriod?: number;
  };
  marian: {
    /** The first position when positions is a count (past_key_values_length); default 0. */
    pastKeyValuesLength?: number;
  };
  mlx: {
    /** The lowest frequency; default 0.0001. */
    minFreq?: number;
    /** The highest frequency; default 1. */
    maxFreq?: number;
    /** Multiplies every value; default null: sqrt(2/dim). */
    scale?: number | null;
    /** [cos | sin] instead of [sin | cos]; default false. */
    cosFirst?: boolean;
    /** Frequencies in turns (times 2π); default false. */
    fullTurns?: boolean;
  };
}

/**
 * A preset and its own parameters beside a function's `Own` options; a
 * misspelt preset, or a parameter of another preset, does not compile.
 */
export type PresetOptions<Own = unknown> = {
  [Name in PresetName]: {
    /** The library whose embedding to reproduce; see `presets`. */
    preset: Name;
  } & Pick<ScheduleFields, "dim"> &
    PresetParameters[Name] &
    Own;
}[PresetName];

/** Every table option, documented once. */
export interface TableFields {
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
  /** "float32" (default): a Float32Array; "float64": a Float64Array. */
  dtype?: DType;
  /**
   * Return a zero-copy view of the module's memory instead of a copy. The
   * view stays valid until the next call that returns a view; memory growth
   * by any call also ends it. An invalidated view is detached: its length
   * is 0 and its methods and iteration throw a TypeError. Not with `out`.
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

/** A copy, a view, or the caller's `out` (never a view and `out` at once). */
export type TableDelivery =
  | (Pick<TableFields, "view" | "out"> & { view?: false })
  | (Pick<TableFields, "view"> & { view: true; out?: undefined });

/** The options of `table` without a preset. */
export type TableOptions = ScheduleOptions &
  Pick<
    TableFields,
    "positions" | "start" | "layout" | "scale" | "outputScale" | "dtype"
  > &
  TableDelivery & { preset?: undefined };

/** The options of `table` with a preset: its parameters, positions, dtype and delivery. */
export type PresetTableOptions = PresetOptions<
  Pick<TableFields, "positions" | "dtype"> & TableDelivery
>;

/** The array type of a dtype (both for a dtype not known until run time). */
export type TableArray<D extends DType> = D extends "float64"
  ? Float64Array
  : Float32Array;

/** The encoding table, row-major [positions, dim]: float32 by default. */
export function table(
  options: (TableOptions | PresetTableOptions) & {
    dtype?: "float32";
    out?: undefined;
  },
): Float32Array;
/** The encoding table, row-major [positions, dim], in float64. */
export function table(
  options: (TableOptions | PresetTableOptions) & {
    dtype: "float64";
    out?: undefined;
  },
): Float64Array;
/**
 * The encoding table, row-major [positions, dim], written into `out` and
 * returned (`out` has the array type of the dtype), or of the options' dtype.
 */
export function table<
  Out extends Float32Array | Float64Array,
  D extends DType = "float32",
>(
  options: (TableOptions | PresetTableOptions) & {
    dtype?: D;
    out?: Out & TableArray<D>;
  },
): Out;

/** The options of `frequencies`: a table's, with `out` a Float64Array of the w_i. */
export type FrequencyOptions =
  | (ScheduleOptions &
      Partial<
        Pick<
          TableFields,
          | "positions"
          | "start"
          | "layout"
          | "scale"
          | "outputScale"
          | "dtype"
          | "view"
        >
      > & {
        preset?: undefined;
        /** A Float64Array of at least one element per pair to fill and return. */
        out?: Float64Array;
      })
  | PresetOptions<
      Partial<Pick<TableFields, "positions" | "dtype" | "view">> & {
        /** A Float64Array of at least one element per pair to fill and return. */
        out?: Float64Array;
      }
    >;

/** The w_i that `table` uses for these options (scale not applied), written into `out`. */
export function frequencies<Out extends Float64Array>(
  options: FrequencyOptions & { out: Out },
): Out;
/** The w_i that `table` uses for these options (scale not applied). */
export function frequencies(options: FrequencyOptions): Float64Array;

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
  };
  /** The preset's parameters and their defaults. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The frequency formula. */
  readonly frequency: string;
  /** The column layout. */
  readonly layout: string;
  /** What an odd dim gives. */
  readonly oddDim: string;
  /** Anything else the source does. */
  readonly notes?: string;
}

/** What each preset reproduces, with its source and defaults. */
export const presets: Readonly<Record<PresetName, PresetDescription>>;
export * from "./relation.js";
export * from "./decay.js";
export * from "./rope-scaling.js";

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
