// The RoPE declarations as a TypeScript user meets them.
import { init, ropeCache, ropeFrequencies } from "sinusoidal-pe";

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
// @ts-expect-error linear takes a factor
ropeFrequencies({ dim: 64, scaling: { type: "linear" } });
// @ts-expect-error no such layout
ropeCache({ positions: 4, dim: 8, layout: "halves" });
export { llama, f32, f16, f64 };
