// The RoPE declarations as a TypeScript user meets them.
import {
  dotProducts,
  init,
  rope,
  ropeCache,
  ropeFrequencies,
  table,
} from "sinusoidal-pe";

await init();

const llama: Float64Array = ropeFrequencies({
  dim: 128,
  base: 500000,
  scaling: {
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  },
}).inverseFrequencies;
const f32: Float32Array = ropeCache({ positions: 16, dim: 64 }).cos;
const f16: Uint16Array = ropeCache({
  positions: [0, 5],
  dim: 64,
  dtype: "float16",
  layout: "interleaved",
}).sin;
const f64: Float64Array = ropeCache({
  positions: 4,
  dim: 8,
  dtype: "float64",
}).cos;
const yarn = {
  type: "yarn",
  factor: 4,
  originalMaxPositionEmbeddings: 32768,
} as const;
const scaled: Float32Array = table({
  positions: 8,
  dim: 128,
  base: 1e6,
  scaling: yarn,
});
const rotated: Float32Array = rope(new Float32Array(128), 3, {
  dim: 128,
  base: 1e6,
  scaling: yarn,
});
const g: Float64Array = dotProducts({ dim: 128, offsets: [1], scaling: yarn });
const mine = { cos: new Uint16Array(64), sin: new Uint16Array(64) };
const into: Uint16Array = ropeCache({
  positions: 2,
  dim: 64,
  dtype: "float16",
  out: mine,
}).cos;
const reused: Float64Array = ropeFrequencies({
  dim: 8,
  out: new Float64Array(4),
}).inverseFrequencies;
ropeCache({
  positions: 2,
  dim: 4,
  // @ts-expect-error cos and sin are of one type
  out: { cos: new Float32Array(4), sin: new Uint16Array(4) },
});
// @ts-expect-error scaling takes a rope type's parameters
table({ positions: 1, dim: 8, scaling: { type: "llama3", factor: 8 } });
// @ts-expect-error linear takes a factor
ropeFrequencies({ dim: 64, scaling: { type: "linear" } });
// @ts-expect-error no such layout
ropeCache({ positions: 4, dim: 8, layout: "halves" });
export { llama, f32, f16, f64, scaled, rotated, g, into, reused };
