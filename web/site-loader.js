// page.js and embed.js: the loader of the site's chunks (scripts/ beside
// it), each a classic script that registers its module. An entry's chunks
// and every chunk they import load in parallel, then run in their modules'
// order; a section's chunks load at its first import(). The build defines
// SITE_CHUNKS ([name, indices of the chunks it imports] for every chunk) and
// SITE_ENTRY.
/* global SITE_CHUNKS, SITE_ENTRY */
const imports = new Map(
  SITE_CHUNKS.map(([name, imported]) => [
    name,
    imported.map((index) => SITE_CHUNKS[index][0]),
  ]),
);
const scripts = new URL("scripts/", document.currentScript.src);
// One registry for every loader on a page: each chunk loads and runs once.
const site = (globalThis.sinusoidalPESite ??= {
  factories: new Map(),
  modules: new Map(),
  requested: new Map(),
});
site.define ??= (name, factory) => site.factories.set(name, factory);

function fetchChunk(name) {
  let loaded = site.requested.get(name);
  if (!loaded) {
    loaded = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL(name, scripts).href;
      // Run, the script has done its part: the host's document keeps none.
      script.onload = () => {
        script.remove();
        resolve();
      };
      script.onerror = () => {
        script.remove();
        reject(new Error(`sinusoidal-pe: ${script.src} did not load`));
      };
      (document.head ?? document.documentElement).append(script);
    });
    site.requested.set(name, loaded);
  }
  return loaded;
}

// The chunk and every chunk it imports.
function closure(name, seen = new Set()) {
  if (!seen.has(name)) {
    seen.add(name);
    for (const imported of imports.get(name)) closure(imported, seen);
  }
  return seen;
}

// A chunk's exports, read through getters as an ES module's bindings are.
function exportAll(exports, getters) {
  for (const [name, get] of Object.entries(getters))
    Object.defineProperty(exports, name, { get, enumerable: true });
}

function run(name) {
  let exports = site.modules.get(name);
  if (!exports) {
    exports = {};
    site.modules.set(name, exports);
    site.factories.get(name)(require, exports, loadChunk, exportAll);
  }
  return exports;
}

function require(specifier) {
  return run(specifier.replace(/^\.\//, ""));
}

function loadChunk(name) {
  return Promise.all(Array.from(closure(name), fetchChunk)).then(() =>
    run(name),
  );
}

loadChunk(SITE_ENTRY);
