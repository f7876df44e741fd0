// The zero-configuration entry: the API of the slim entry, whose init() with
// no source compiles the module inlined here.
import { init as initFrom } from "./slim.js";
import { inlineModule } from "./inline-module.js";

export * from "./slim.js";

/**
 * Compiles and instantiates the module (inlined in this entry, or `source`)
 * once; later calls resolve at once.
 */
export function init(source) {
  return initFrom(source, inlineModule);
}
