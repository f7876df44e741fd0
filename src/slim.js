// Public API of sinusoidal-pe, without the module: `await init(source)` once
// with the shipped sinusoidal-pe.wasm (the default entry, index.js, supplies
// an inline copy; the Node entry, slim-node.js, the file beside it). Every
// other function is synchronous and computes in the WebAssembly module.
// This file is the index: each function lives in the file of its concern,
// and names itself there in the errors it raises.
export { init } from "./core.js";
export { errorCodes } from "./error-codes.js";
export { fromConfig } from "./config.js";
export { ci, decayComparison, decayIntegral, si, THETAS } from "./decay.js";
export { npyHeader, toNpy } from "./npy.js";
export { toCsv } from "./csv.js";
export { presets } from "./presets.js";
export {
  dotProducts,
  linearRelationError,
  rotate,
  rotationMatrix,
  toeplitzError,
} from "./relation.js";
export { createRope, rope } from "./rope.js";
export { createRopeCache, ROPE_LAYOUTS, ropeCache } from "./rope-cache.js";
export {
  DTYPES,
  LAYOUTS,
  MAX_DIM,
  ODD_DIMS,
  ROPE_DTYPES,
  ROPE_TYPES,
  ropeFrequencies,
  SCHEDULES,
} from "./schedule.js";
export { createTable, frequencies, table, tableColumns } from "./table.js";
