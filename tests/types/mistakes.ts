// Mistakes that the declarations catch at compile time, each a TypeError at
// run time: every line marked @ts-expect-error must fail to type, and the
// lines around them show the correct forms compile.
import {
  dotProducts,
  frequencies,
  rope,
  ropeCache,
  rotate,
  table,
  toeplitzError,
  type TableOptions,
} from "sinusoidal-pe";

// An unknown key.
table({ positions: 4, dim: 8, layout: "halves" });
// @ts-expect-error: "layot" is no option
table({ positions: 4, dim: 8, layot: "halves" });
// @ts-expect-error: nor beside a preset
table({ preset: "whisper", positions: 4, dim: 8, layot: "halves" });
// @ts-expect-error: "pairing" belongs to rope
dotProducts({ dim: 8, offsets: [1], pairing: "halves" });
// @ts-expect-error: rope has no odd-dim rule (its dim is even)
rope(new Float32Array(8), 1, { dim: 8, oddDim: "zero-pad" });

// A misspelt preset.
table({ preset: "whisper", positions: 4, dim: 8 });
// @ts-expect-error: no preset "whsiper"
table({ preset: "whsiper", positions: 4, dim: 8 });

// A preset's parameter on another preset.
table({ preset: "diffusers", positions: 4, dim: 8, flipSinToCos: true });
// @ts-expect-error: flipSinToCos is diffusers', not whisper's
table({ preset: "whisper", positions: 4, dim: 8, flipSinToCos: true });
// @ts-expect-error: startIndex is paper's and tensor2tensor's, not fairseq's
toeplitzError({ preset: "fairseq", dim: 8, positions: 4, startIndex: 2 });
// @ts-expect-error: a preset's parameter needs its preset
table({ positions: 4, dim: 8, flipSinToCos: true });
// @ts-expect-error: nor in rope
rope(new Float32Array(8), 1, { dim: 8, maxPeriod: 3 });
// @ts-expect-error: a table option is not a preset's parameter
table({ preset: "whisper", positions: 4, dim: 8, layout: "halves" });

// Scaling belongs to the paper schedule.
const linear = { type: "linear", factor: 2 } as const;
table({ positions: 4, dim: 8, scaling: linear });
table({ positions: 4, dim: 8, schedule: "paper", base: 5e5, scaling: linear });
// @ts-expect-error: not with the timescale schedule
table({ positions: 4, dim: 8, schedule: "timescale", scaling: linear });
// @ts-expect-error: nor the shifted one
frequencies({ dim: 8, schedule: "shifted", shift: 0, scaling: linear });
// @ts-expect-error: nor explicit frequencies
rope(new Float32Array(8), 1, {
  dim: 8,
  frequencies: [1, 2, 3, 4],
  scaling: linear,
});
// @ts-expect-error: and each schedule takes its own parameters only
table({ positions: 4, dim: 8, schedule: "timescale", base: 100 });

// An out of the wrong element type.
const f32 = new Float32Array(32);
const f64 = new Float64Array(32);
const f16 = new Float16Array(32);
const bits = new Uint16Array(32);
table({ positions: 4, dim: 8, dtype: "float64", out: f64 });
// @ts-expect-error: float64 is written into a Float64Array
table({ positions: 4, dim: 8, dtype: "float64", out: f32 });
// @ts-expect-error: float32 (the default) into a Float32Array
table({ positions: 4, dim: 8, out: f64 });
// @ts-expect-error: a Float16Array is no table's array
table({ positions: 4, dim: 8, out: f16 });
// @ts-expect-error: nor with a preset
table({ preset: "whisper", positions: 4, dim: 8, dtype: "float64", out: f32 });
// @ts-expect-error: frequencies are float64
frequencies({ dim: 8, out: f32 });
const pairs = {
  bits: { cos: bits, sin: bits },
  f32: { cos: f32, sin: f32 },
  f16: { cos: f16, sin: f16 },
};
const half = { positions: 2, dim: 8, dtype: "float16" } as const;
ropeCache({ ...half, out: pairs.bits });
// @ts-expect-error: float16 caches are Uint16Arrays of half bits
ropeCache({ ...half, out: pairs.f32 });
// Float16Arrays too, where the engine has them
ropeCache({ ...half, out: pairs.f16 });
// @ts-expect-error: float64 caches are Float64Arrays
ropeCache({ positions: 2, dim: 8, dtype: "float64", out: pairs.f32 });
// @ts-expect-error: a Float64Array rotates into a Float64Array
rotate(f64, 1, { dim: 8, out: f32 });

// `out` keeps its own type, also beside spread options.
const options = { positions: 4, dim: 8, layout: "halves" } as const;
const spread: Float32Array<ArrayBuffer> = table({ ...options, out: f32 });
const typed: TableOptions = { positions: 4, dim: 8 };
const fromTyped: Float32Array<ArrayBuffer> = table({ ...typed, out: f32 });
const wide64: Float64Array<ArrayBuffer> = table({
  ...typed,
  dtype: "float64",
  out: f64,
});
const presetSpread: Float32Array<ArrayBuffer> = table({
  ...{ preset: "whisper", positions: 4, dim: 8 },
  out: f32,
} as const);
const cache: Uint16Array<ArrayBuffer> = ropeCache({
  ...{ positions: 2, dim: 8 },
  dtype: "float16",
  out: { cos: bits, sin: bits },
}).sin;
// @ts-expect-error: the result is the Float32Array given
const notWider: Float64Array = table({ ...options, out: f32 });

export { spread, fromTyped, wide64, presetSpread, cache, notWider };
