// The RoPE declarations as a TypeScript user meets them.
import {
  dotProducts,
  fromConfig,
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
// @ts-expect-error cos and sin are of one type
ropeCache({
  positions: 2,
  dim: 4,
  out: { cos: new Float32Array(4), sin: new Uint16Array(4) },
});
// @ts-expect-error scaling takes a rope type's parameters
table({ positions: 1, dim: 8, scaling: { type: "llama3", factor: 8 } });
// @ts-expect-error linear takes a factor
ropeFrequencies({ dim: 64, scaling: { type: "linear" } });
// One word per placement, as table and rope say it; the older names too.
ropeCache({ positions: 4, dim: 8, layout: "halves" });
ropeCache({ positions: 4, dim: 8, layout: "compact" });
ropeCache({ positions: 4, dim: 8, layout: "duplicated" });
// @ts-expect-error no such layout
ropeCache({ positions: 4, dim: 8, layout: "halves-cos-first" });
const options = fromConfig(
  { rope_theta: 1e6, head_dim: 128, hidden_size: 4096 },
  { layerType: "full_attention" },
);
const fromFile: Float32Array = ropeCache({ ...options, positions: 8 }).cos;
const warned: string[] = ropeFrequencies(options).warnings;
const pairing: "halves" | "interleaved" = options.pairing;
const logged: readonly string[] = options.warnings;
const streams: Float64Array = ropeCache({
  dim: 128,
  mropeSection: [16, 24, 24],
  positions: { t: [0, 4], h: [0, 5], w: [0, 6] },
  dtype: "float64",
}).sin;
const partial: Float64Array = ropeFrequencies({
  dim: 80,
  rotaryDim: 32,
  scaling: { type: "proportional", partialRotaryFactor: 0.25 },
}).inverseFrequencies;
// @ts-expect-error M-RoPE streams are t, h and w
ropeCache({ dim: 8, mropeSection: [2, 1, 1], positions: { t: [1], h: [1] } });
const qwenQuery: Float32Array = rope(
  new Float32Array(2 * 4 * 128),
  { t: [0, 4], h: [0, 5], w: [0, 6] },
  { ...options, heads: 4, order: "bshd" },
);
const int64Streams: Float32Array = rope(
  new Float32Array(2 * 8),
  { t: BigInt64Array.of(0n, 4n), h: BigUint64Array.of(0n, 5n), w: [0, 6] },
  { dim: 8, mropeSection: [2, 1, 1] },
);
// @ts-expect-error an M-RoPE stream holds numbers or int64 ids
rope(f32, { t: ["0"], h: [0], w: [0] }, { dim: 8, mropeSection: [2, 1, 1] });
const twoStreams = { t: [1], h: [1] };
// @ts-expect-error M-RoPE streams are t, h and w
rope(f32, twoStreams, { dim: 8, mropeSection: [2, 1, 1] });
// @ts-expect-error layerType is a string
fromConfig({}, { layerType: 1 });
// @ts-expect-error pairing is one of two
fromConfig({}, { pairing: "pairs" });
export { llama, f32, f16, f64, scaled, rotated, g, into, reused };
export { fromFile, warned, streams, partial, qwenQuery, pairing, logged };
export { int64Streams };
