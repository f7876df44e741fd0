// Public API of sinusoidal-pe, without the module: `await init(source)` once
// with the shipped sinusoidal-pe.wasm (the default entry, index.js, supplies
// an inline copy; the Node entry, slim-node.js, the file beside it). Every
// other function is synchronous and computes in the WebAssembly module.
// This file is the index: each function lives in the file of its concern.
import { calling } from "./options.js";
import {
  createTable as createTableOf,
  frequencies as frequenciesOf,
  table as tableOf,
  tableColumns as tableColumnsOf,
} from "./table.js";
import { fromConfig as fromConfigOf } from "./config.js";
import {
  dotProducts as dotProductsOf,
  linearRelationError as linearRelationErrorOf,
  rotate as rotateOf,
  rotationMatrix as rotationMatrixOf,
  toeplitzError as toeplitzErrorOf,
} from "./relation.js";
import { createRope as createRopeOf, rope as ropeOf } from "./rope.js";
import {
  ci as ciOf,
  decayComparison as decayComparisonOf,
  decayIntegral as decayIntegralOf,
  si as siOf,
} from "./decay.js";
import { npyHeader as npyHeaderOf, toNpy as toNpyOf } from "./npy.js";
import { toCsv as toCsvOf } from "./csv.js";
import {
  createRopeCache as createRopeCacheOf,
  ropeCache as ropeCacheOf,
} from "./rope-cache.js";
import { ropeFrequencies as ropeFrequenciesOf } from "./rope-scaling.js";

export { init } from "./runtime.js";
export { presets } from "./presets.js";
export { DTYPES, LAYOUTS, MAX_DIM, ODD_DIMS, SCHEDULES } from "./schedule.js";
export { THETAS } from "./decay.js";
export { ROPE_DTYPES, ROPE_TYPES } from "./rope-scaling.js";
export { ROPE_LAYOUTS } from "./rope-cache.js";

// Every public function names itself in the errors it raises (declared
// as functions, so an app's bundle keeps only those it calls).
export function fromConfig(...args) {
  return calling("fromConfig", fromConfigOf, args);
}
export function dotProducts(...args) {
  return calling("dotProducts", dotProductsOf, args);
}
export function linearRelationError(...args) {
  return calling("linearRelationError", linearRelationErrorOf, args);
}
export function rotate(...args) {
  return calling("rotate", rotateOf, args);
}
export function rotationMatrix(...args) {
  return calling("rotationMatrix", rotationMatrixOf, args);
}
export function toeplitzError(...args) {
  return calling("toeplitzError", toeplitzErrorOf, args);
}
export function rope(...args) {
  return calling("rope", ropeOf, args);
}
export function createRope(...args) {
  return calling("createRope", createRopeOf, args);
}
export function ci(...args) {
  return calling("ci", ciOf, args);
}
export function si(...args) {
  return calling("si", siOf, args);
}
export function decayIntegral(...args) {
  return calling("decayIntegral", decayIntegralOf, args);
}
export function decayComparison(...args) {
  return calling("decayComparison", decayComparisonOf, args);
}
export function npyHeader(...args) {
  return calling("npyHeader", npyHeaderOf, args);
}
export function toNpy(...args) {
  return calling("toNpy", toNpyOf, args);
}
export function toCsv(...args) {
  return calling("toCsv", toCsvOf, args);
}
export function ropeCache(...args) {
  return calling("ropeCache", ropeCacheOf, args);
}
export function createRopeCache(...args) {
  return calling("createRopeCache", createRopeCacheOf, args);
}
export function ropeFrequencies(...args) {
  return calling("ropeFrequencies", ropeFrequenciesOf, args);
}
export function frequencies(...args) {
  return calling("frequencies", frequenciesOf, args);
}
export function tableColumns(...args) {
  return calling("tableColumns", tableColumnsOf, args);
}
export function table(...args) {
  return calling("table", tableOf, args);
}
export function createTable(...args) {
  return calling("createTable", createTableOf, args);
}
