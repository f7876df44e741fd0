// Compiled with `tsc --noEmit` against dist/*.d.ts: the declared API as a
// TypeScript user meets it. Lines marked @ts-expect-error must fail to type.
import {
  ci,
  decayComparison,
  decayIntegral,
  dotProducts,
  frequencies,
  init,
  linearRelationError,
  presets,
  rope,
  rotate,
  rotationMatrix,
  si,
  table,
  toeplitzError,
  type TableOptions,
} from "sinusoidal-pe";

await init();
await init(new Uint8Array(0));

const f32: Float32Array = table({ positions: 4, dim: 8 });
const f64: Float64Array = table({
  positions: [0.5, 1],
  dim: 8,
  dtype: "float64",
});
const view: Float32Array | Float64Array = table({
  positions: 2,
  dim: 4,
  layout: "halves-cos-first",
  schedule: "timescale",
  minTimescale: 1,
  maxTimescale: 1e4,
  oddDim: "zero-pad",
  view: true,
});
const whisper = table({ preset: "whisper", dim: 512, positions: 1500 });
const w: Float64Array = frequencies({ dim: 8 });
const source: string = presets.fairseq.source.repository;

const moved: Float32Array = rotate(f32, 3, { dim: 8 });
const q: Float32Array = rope(f32, [0, 1, 2, 3], {
  dim: 8,
  pairing: "interleaved",
});
const r: Float64Array = rotationMatrix(2, { dim: 8 });
const e: number = linearRelationError({
  dim: 8,
  positions: 10,
  offsets: [1, -2],
}).maxAbsError;
const g: Float64Array = dotProducts({
  dim: 8,
  offsets: { from: 0, to: 9, count: 10 },
});
const m: number = toeplitzError({ dim: 8, positions: 10 }).m;

const fx: Float64Array = decayIntegral({
  theta: "power",
  alpha: 0.5,
  x: [1, 2],
});
const { values, errors } = decayIntegral({ x: [1], method: "quadrature" });
const both = decayComparison({ dim: 768, x: { from: 0, to: 10, count: 11 } });
const c: number = ci(1);
const cs: Float64Array = si([1, 2]);

const moved64: Float64Array = rotate(f64, [1, 2], { dim: 8 });
const movedList: Float32Array = rotate([1, 2, 3, 4], 1, {
  preset: "whisper",
  dim: 4,
  inPlace: false,
});
const qPreset: Float32Array = rope(f32, 3, {
  preset: "diffusers",
  dim: 8,
  pairing: "halves",
  flipSinToCos: true,
});
// @ts-expect-error: a Float64Array is rotated into a Float64Array
const narrowed: Float32Array = rotate(f64, 1, { dim: 8 });
// @ts-expect-error: rope pairs columns by "pairing", not "layout"
rope(f32, 1, { dim: 8, layout: "halves" });

// @ts-expect-error: dim is required
table({ positions: 4 });
// @ts-expect-error: unknown layout
table({ positions: 4, dim: 8, layout: "rows" });
// @ts-expect-error: float64 tables are not Float32Array
const wrong: Float32Array = table({ positions: 4, dim: 8, dtype: "float64" });

export {
  f32,
  f64,
  view,
  whisper,
  w,
  source,
  moved,
  q,
  r,
  e,
  g,
  m,
  fx,
  values,
  errors,
  both,
  c,
  cs,
  wrong,
  moved64,
  movedList,
  qPreset,
  narrowed,
};

// `out`: the result is the caller's own array, with its own type.
const outF32 = new Float32Array(32);
const outF64 = new Float64Array(new SharedArrayBuffer(8 * 32));
const filled: Float32Array<ArrayBuffer> = table({
  positions: 4,
  dim: 8,
  out: outF32,
});
const filled64: Float64Array<SharedArrayBuffer> = table({
  positions: 4,
  dim: 8,
  dtype: "float64",
  out: outF64,
});
const presetFilled: Float32Array<ArrayBuffer> = table({
  preset: "whisper",
  dim: 8,
  positions: 4,
  out: outF32.subarray(0, 32),
});
const wOut: Float64Array<SharedArrayBuffer> = frequencies({
  dim: 8,
  out: outF64,
});
const movedOut: Float32Array<ArrayBuffer> = rotate(f32, 3, {
  dim: 8,
  out: outF32,
});
const moved64Out: Float64Array<SharedArrayBuffer> = rotate(f64, 3, {
  dim: 8,
  out: outF64,
});
const qOut: Float32Array<ArrayBuffer> = rope(f32, 1, { dim: 8, out: outF32 });
const rOut: Float64Array<SharedArrayBuffer> = rotationMatrix(1, {
  dim: 4,
  out: outF64,
});
const gOut: Float64Array<SharedArrayBuffer> = dotProducts({
  dim: 8,
  offsets: [0, 1],
  out: outF64,
});
const fOut: Float64Array<SharedArrayBuffer> = decayIntegral({
  x: [1, 2],
  out: outF64,
});
const ciOut: Float64Array<SharedArrayBuffer> = ci([1, 2], { out: outF64 });
const siOut: Float64Array<SharedArrayBuffer> = si([1, 2], { out: outF64 });
// @ts-expect-error: rope writes the type of its rows
rope(f32, 1, { dim: 8, out: outF64 });
const ropeF64: Float64Array = rope(new Float64Array(8), 1, { dim: 8 });
const ropeF16: Uint16Array = rope(new Uint16Array(8), 1, {
  dim: 8,
  rotaryDim: 4,
});
const ropeTensor: Float32Array = rope([1, 2, 3, 4], 0, {
  dim: 2,
  heads: 2,
  order: "bshd",
});
// @ts-expect-error: the quadrature returns { values, errors }, not into out
decayIntegral({ x: [1], method: "quadrature", out: outF64 });
// @ts-expect-error: out is not combined with view: true
table({ positions: 4, dim: 8, view: true, out: outF32 });
// @ts-expect-error: nor in float64
table({ positions: 4, dim: 8, dtype: "float64", view: true, out: outF64 });
// @ts-expect-error: nor with a preset
table({ preset: "whisper", dim: 8, positions: 4, view: true, out: outF32 });
// An options object typed as the interface takes the general overload.
const typed: TableOptions = { positions: 4, dim: 8, out: outF32 };
const general: Float32Array | Float64Array = table(typed);
const typedView: TableOptions = { positions: 4, dim: 8, view: false };
const generalView: Float32Array | Float64Array = table(typedView);
const anyDtype = "float64" as "float32" | "float64";
const either: Float32Array | Float64Array = table({
  positions: 4,
  dim: 8,
  dtype: anyDtype,
});
export { either, general, generalView };
