// The site's scripts from the ES module build: every chunk as a classic
// script in scripts/, which registers its module with the loader instead of
// importing and exporting, and page.js and embed.js, the loader with the
// chunks' import graph and its entry.
import { build, transform } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

// esbuild prints a dynamic import of a chunk as import("./name.js"), and a
// chunk's exports as one statement at its end.
const DYNAMIC_IMPORT = /\bimport\("\.\/([\w.-]+\.js)"\)/g;
const EXPORTS = /\bexport\s*\{([\w$\s,]*)\};?\s*$/;

// The exports as getters on the chunk's exports object, through the
// loader's exportAll: one helper for every chunk, where esbuild's CommonJS
// output would carry its own in each.
function exportsAsGetters(code) {
  return code.replace(EXPORTS, (_, list) => {
    const getters = list
      .split(",")
      .map((item) => item.trim().split(/\s+as\s+/))
      .map(([local, exported = local]) => `${exported}:()=>${local}`);
    return `exportAll(exports,{${getters.join(",")}});`;
  });
}

/** The module as the body of a factory (require, exports, load, exportAll). */
async function classicChunk(name, code, dynamicImports, minify) {
  const loads = [...code.matchAll(DYNAMIC_IMPORT)].map((match) => match[1]);
  if (loads.sort().join() !== dynamicImports.sort().join())
    throw new Error(`${name}: its dynamic imports are not the metafile's`);
  const { code: body } = await transform(
    exportsAsGetters(
      code.replace(
        DYNAMIC_IMPORT,
        (_, file) => `loadChunk(${JSON.stringify(file)})`,
      ),
    ),
    { format: "cjs", minify, target: "es2020", logLevel: "warning" },
  );
  if (
    /\b(import|export)\s*[(.{*]|\bimport\.meta\b|\bmodule\.exports\b/.test(body)
  )
    throw new Error(`${name}: an import or export is left after conversion`);
  return `sinusoidalPESite.define(${JSON.stringify(name)},function(require,exports,loadChunk,exportAll){${body}});\n`;
}

/**
 * Writes `out`/scripts/ from the ES modules in `esmOut` and the loaders
 * `out`/page.js and `out`/embed.js from `loader`.
 */
export async function writeClassicSite({
  esmOut,
  metafile,
  out,
  loader,
  minify,
}) {
  mkdirSync(`${out}/scripts`, { recursive: true });
  const graph = {};
  for (const [path, output] of Object.entries(metafile.outputs)) {
    const name = basename(path);
    if (!name.endsWith(".js")) throw new Error(`${path}: not a script`);
    const imports = (kind) =>
      output.imports
        .filter((i) => i.kind === kind)
        .map((i) => basename(i.path));
    graph[name] = imports("import-statement");
    const code = readFileSync(`${esmOut}/${name}`, "utf8");
    writeFileSync(
      `${out}/scripts/${name}`,
      await classicChunk(name, code, imports("dynamic-import"), minify),
    );
  }
  // The graph as the loader reads it: the chunks' names, and each chunk's
  // imports by index into them.
  const names = Object.keys(graph);
  const chunks = names.map((name) => [
    name,
    graph[name].map((imported) => names.indexOf(imported)),
  ]);
  for (const entry of ["page.js", "embed.js"])
    await build({
      entryPoints: [loader],
      outfile: `${out}/${entry}`,
      bundle: true,
      format: "iife",
      minify,
      target: "es2020",
      logLevel: "warning",
      legalComments: "none",
      define: {
        SITE_CHUNKS: JSON.stringify(chunks),
        SITE_ENTRY: JSON.stringify(entry),
      },
    });
}
