// Calls as a user writes them, every option of every function at least once:
// tests/types/hover.js asks the editor's language service what it shows on
// hover over each option key here. Compiled with the other type tests.
import * as pe from "sinusoidal-pe";

const yarn = { type: "yarn", factor: 4, maxPositionEmbeddings: 4096 } as const;
const f32 = new Float32Array(64);
const f64 = new Float64Array(64);
const bits = new Uint16Array(64);

await pe.init();
pe.table({ positions: 4, dim: 8 });
pe.table({ positions: 4, dim: 8, dtype: "float64", layout: "halves" });
pe.table({ positions: 4, start: 2, dim: 8, scale: 2, outputScale: 3 });
pe.table({ positions: 4, dim: 8, schedule: "paper", base: 100, view: true });
pe.table({ positions: 4, dim: 8, scaling: yarn, oddDim: "zero-pad" });
pe.table({ positions: 4, dim: 8, schedule: "timescale", minTimescale: 2 });
pe.table({ positions: 4, dim: 8, schedule: "timescale", maxTimescale: 9 });
pe.table({ positions: 4, dim: 8, schedule: "shifted", shift: 0 });
pe.table({ positions: 4, dim: 8, frequencies: [1, 2, 3, 4] });
pe.table({ positions: 4, dim: 8, out: f32 });
pe.table({ preset: "paper", positions: 4, dim: 8, maxWavelength: 1e4 });
pe.table({ preset: "paper", positions: 4, dim: 8, startIndex: 1 });
pe.table({ preset: "tensor2tensor", positions: 4, dim: 8, minTimescale: 2 });
pe.table({ preset: "tensor2tensor", positions: 4, dim: 8, maxTimescale: 9 });
pe.table({ preset: "fairseq", positions: 4, dim: 8, paddingIdx: 1 });
pe.table({ preset: "whisper", positions: 4, dim: 8, maxTimescale: 9 });
pe.table({ preset: "diffusers", positions: 4, dim: 8, flipSinToCos: true });
pe.table({ preset: "diffusers", positions: 4, dim: 8, downscaleFreqShift: 0 });
pe.table({ preset: "diffusers", positions: 4, dim: 8, scale: 2 });
pe.table({ preset: "diffusers", positions: 4, dim: 8, maxPeriod: 9 });
pe.table({ preset: "guided-diffusion", positions: 4, dim: 8, maxPeriod: 9 });
pe.table({ preset: "marian", positions: 4, dim: 8, pastKeyValuesLength: 2 });
pe.table({ preset: "mlx", positions: 4, dim: 8, minFreq: 0.01, maxFreq: 1 });
pe.table({ preset: "mlx", positions: 4, dim: 8, scale: 0, cosFirst: true });
pe.table({ preset: "mlx", positions: 4, dim: 8, fullTurns: true });
pe.frequencies({ dim: 8, positions: 4, dtype: "float64", view: false });
pe.frequencies({ dim: 8, out: f64, layout: "halves", start: 1 });
pe.frequencies({ dim: 8, scale: 2, outputScale: 3, oddDim: "error" });
pe.frequencies({ dim: 8, schedule: "timescale", minTimescale: 1 });
pe.frequencies({ dim: 8, schedule: "timescale", maxTimescale: 1 });
pe.frequencies({ dim: 8, schedule: "shifted", base: 9, shift: 1 });
pe.frequencies({ dim: 8, frequencies: [1, 2, 3, 4] });
pe.frequencies({ dim: 8, scaling: yarn });
pe.frequencies({ preset: "whisper", dim: 8 });
pe.tableColumns({ dim: 8, layout: "halves", start: 1, oddDim: "zero-pad" });
pe.tableColumns({ dim: 8, scale: 2, outputScale: 3, base: 9 });
pe.tableColumns({ dim: 8, schedule: "timescale", minTimescale: 1 });
pe.tableColumns({ dim: 8, schedule: "timescale", maxTimescale: 1 });
pe.tableColumns({ dim: 8, schedule: "shifted", shift: 1 });
pe.tableColumns({ dim: 8, frequencies: [1, 2, 3, 4] });
pe.tableColumns({ dim: 8, scaling: yarn });
pe.tableColumns({ preset: "marian", dim: 5 });
pe.rotate(f32, 1, { dim: 8, layout: "halves", scale: 2, inPlace: true });
pe.rotate(f32, 1, { dim: 8, out: f32, oddDim: "zero-pad", base: 9 });
pe.rotate(f64, 1, { dim: 8, schedule: "timescale", minTimescale: 1 });
pe.rotate(f64, 1, { dim: 8, schedule: "timescale", maxTimescale: 1 });
pe.rotate(f64, 1, { dim: 8, schedule: "shifted", shift: 1 });
pe.rotate(f64, 1, { dim: 8, frequencies: [1, 2, 3, 4] });
pe.rotate(f64, 1, { dim: 8, scaling: yarn });
pe.rotate(f64, 1, { preset: "whisper", dim: 8 });
pe.rope(f32, 1, { dim: 8, pairing: "halves", scale: 2, inPlace: true });
pe.rope(f32, 1, { dim: 8, out: f32, base: 5e5, scaling: yarn });
pe.rope(f32, 1, { dim: 8, schedule: "timescale", minTimescale: 1 });
pe.rope(f32, 1, { dim: 8, schedule: "timescale", maxTimescale: 1 });
pe.rope(f32, 1, { dim: 8, schedule: "shifted", shift: 1 });
pe.rope(f32, 1, { dim: 8, frequencies: [1, 2, 3, 4] });
pe.rope(f32, 1, { preset: "diffusers", dim: 8, flipSinToCos: true });
pe.rope(f32, 0, { dim: 8, rotaryDim: 4, order: "bshd", heads: 2, batch: 1 });
pe.rope(f32, { t: [0], h: [0], w: [0] }, { dim: 8, mropeSection: [2, 1, 1] });
pe.rope(f32, 0, { dim: 8, mropeSection: [2, 1, 1], mropeInterleaved: true });
pe.rotationMatrix(1, { dim: 8, layout: "halves", scale: 2, out: f64 });
pe.rotationMatrix(1, { dim: 8, oddDim: "zero-pad", base: 9 });
pe.rotationMatrix(1, { dim: 8, schedule: "timescale", minTimescale: 1 });
pe.rotationMatrix(1, { dim: 8, schedule: "timescale", maxTimescale: 1 });
pe.rotationMatrix(1, { dim: 8, schedule: "shifted", shift: 1 });
pe.rotationMatrix(1, { dim: 8, frequencies: [1, 2, 3, 4] });
pe.rotationMatrix(1, { dim: 8, scaling: yarn });
pe.rotationMatrix(1, { preset: "whisper", dim: 8 });
pe.linearRelationError({ dim: 8, positions: 4, start: 1, offsets: [1] });
pe.linearRelationError({ dim: 8, positions: 4, offsets: 1, dtype: "float64" });
pe.linearRelationError({ dim: 8, positions: 4, offsets: 1, outputScale: 2 });
pe.linearRelationError({ dim: 8, positions: 4, offsets: 1, layout: "halves" });
pe.linearRelationError({ dim: 8, positions: 4, offsets: 1, scale: 2 });
pe.linearRelationError({
  dim: 8,
  positions: 4,
  offsets: 1,
  oddDim: "zero-pad",
});
pe.linearRelationError({ dim: 8, positions: 4, offsets: 1, base: 9 });
pe.linearRelationError({ dim: 8, positions: 4, offsets: 1, scaling: yarn });
pe.linearRelationError({ dim: 8, positions: 4, offsets: 1, frequencies: f64 });
pe.linearRelationError({
  dim: 8,
  positions: 4,
  offsets: 1,
  schedule: "timescale",
  minTimescale: 1,
  maxTimescale: 9,
});
pe.linearRelationError({
  dim: 8,
  positions: 4,
  offsets: 1,
  schedule: "shifted",
  shift: 1,
});
pe.linearRelationError({ preset: "whisper", dim: 8, positions: 4, offsets: 1 });
pe.dotProducts({ dim: 8, offsets: [1], outputScale: 2, out: f64 });
pe.dotProducts({ dim: 8, offsets: { from: 0, to: 9, count: 10 } });
pe.dotProducts({ dim: 8, offsets: [1], layout: "halves", scale: 2 });
pe.dotProducts({ dim: 8, offsets: [1], oddDim: "zero-pad", base: 9 });
pe.dotProducts({ dim: 8, offsets: [1], scaling: yarn });
pe.dotProducts({ dim: 8, offsets: [1], frequencies: [1, 2, 3, 4] });
pe.dotProducts({
  dim: 8,
  offsets: [1],
  schedule: "timescale",
  minTimescale: 1,
});
pe.dotProducts({
  dim: 8,
  offsets: [1],
  schedule: "timescale",
  maxTimescale: 1,
});
pe.dotProducts({ dim: 8, offsets: [1], schedule: "shifted", shift: 1 });
pe.dotProducts({ preset: "whisper", dim: 8, offsets: [1] });
pe.toeplitzError({ dim: 8, positions: 4, start: 1, dtype: "float32" });
pe.toeplitzError({ dim: 8, positions: 4, outputScale: 2, layout: "halves" });
pe.toeplitzError({ dim: 8, positions: 4, scale: 2, oddDim: "zero-pad" });
pe.toeplitzError({ dim: 8, positions: 4, base: 9, scaling: yarn });
pe.toeplitzError({ dim: 8, positions: 4, frequencies: [1, 2, 3, 4] });
pe.toeplitzError({
  dim: 8,
  positions: 4,
  schedule: "timescale",
  minTimescale: 1,
});
pe.toeplitzError({
  dim: 8,
  positions: 4,
  schedule: "timescale",
  maxTimescale: 1,
});
pe.toeplitzError({ dim: 8, positions: 4, schedule: "shifted", shift: 1 });
pe.toeplitzError({ preset: "whisper", dim: 8, positions: 4 });
pe.decayIntegral({ x: [1, 2], theta: "exp", base: 9, method: "closed-form" });
pe.decayIntegral({ x: [1, 2], theta: "power", alpha: 0.5, out: f64 });
pe.decayComparison({ dim: 8, x: 1, theta: "power", alpha: 0.5 });
pe.decayComparison({ dim: 8, x: 1, base: 9 });
pe.ci([1, 2], { out: f64 });
pe.si([1, 2], { out: f64 });
pe.ropeFrequencies({ dim: 8, base: 5e5, scaling: yarn, out: f64 });
pe.ropeCache({ positions: 4, start: 1, dim: 8, base: 9, scaling: yarn });
pe.ropeFrequencies({
  dim: 8,
  rotaryDim: 4,
  mropeSection: [1, 1, 0],
  pairing: "halves",
});
pe.ropeFrequencies({ dim: 8, mropeInterleaved: true, mropeSection: [2, 1, 1] });
pe.ropeCache({ positions: 4, dim: 8, rotaryDim: 4, mropeSection: [1, 1, 0] });
pe.ropeCache({
  positions: { t: [0], h: [0], w: [0] },
  dim: 8,
  mropeSection: [2, 1, 1],
  mropeInterleaved: true,
});
const config = JSON.parse('{ "head_dim": 8, "rope_theta": 10000 }');
pe.fromConfig(config, { layerType: "full_attention", pairing: "halves" });
pe.ropeCache({
  positions: 4,
  dim: 8,
  layout: "interleaved",
  dtype: "float64",
  pairing: "interleaved",
});
pe.ropeCache({
  positions: 4,
  dim: 8,
  dtype: "float16",
  out: { cos: bits, sin: bits },
});
pe.createRope({ dim: 8, pairing: "interleaved", rotaryDim: 4, scale: 2 });
pe.createRope({ dim: 8, order: "bshd", heads: 2, batch: 1, base: 9 });
pe.createRope({ dim: 8, mropeSection: [2, 1, 1], mropeInterleaved: true });
pe.createRope({ dim: 8, schedule: "timescale", minTimescale: 1 });
pe.createRope({ dim: 8, schedule: "timescale", maxTimescale: 1 });
pe.createRope({ dim: 8, schedule: "shifted", shift: 1 });
pe.createRope({ dim: 8, frequencies: [1, 2, 3, 4] });
pe.createRope({ dim: 8, scaling: yarn });
pe.createRope({ preset: "whisper", dim: 8 });
pe.createTable({ dim: 8, dtype: "float64", layout: "halves" });
pe.createTable({
  dim: 8,
  outputScale: 3,
  oddDim: "zero-pad",
  scale: 2,
  base: 9,
});
pe.createTable({ dim: 8, schedule: "timescale", minTimescale: 1 });
pe.createTable({ dim: 8, schedule: "timescale", maxTimescale: 1 });
pe.createTable({ dim: 8, schedule: "shifted", shift: 1 });
pe.createTable({ dim: 8, frequencies: [1, 2, 3, 4] });
pe.createTable({ dim: 8, scaling: yarn });
pe.createTable({ preset: "marian", dim: 8 });
pe.createRopeCache({ dim: 8, rotaryDim: 4, base: 9, scaling: yarn });
pe.createRopeCache({ dim: 8, layout: "halves", dtype: "float16" });
pe.createRopeCache({ dim: 8, mropeSection: [2, 1, 1], mropeInterleaved: true });
pe.createRopeCache({ dim: 8, pairing: "interleaved" });
