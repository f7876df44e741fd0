// The RoPE schedule the benchmarks time: Llama 3.1's (rope_theta 500000,
// rope_type llama3), as fromConfig reads it; each workload adds its dim.
export const LLAMA3 = Object.freeze({
  base: 500000,
  scaling: Object.freeze({
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  }),
});
