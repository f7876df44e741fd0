// Builds the site into dist/site/ and the same code as ES modules into
// dist/site-esm/, for bundlers. One esbuild run splits the page (main.js)
// and the embedding script (embed.js) into shared chunks, each section its
// own, so the page and the panels carry one copy of the module and of every
// section, and a panel loads only its section's chunks. Pages opened from
// file:// refuse module scripts: the site's chunks are those modules as
// classic scripts (site-chunks.js), loaded by page.js and embed.js
// (site-loader.js). Every section's formulas (a TeX string or a list of
// parts) are typeset to MathML here, once, and go with the section, so the
// page needs no fonts and no typesetting at run time.
// Usage: node web/build.js [outdir] [esm outdir]; PE_NO_MINIFY=1 keeps the
// scripts readable, for profiles of the page.
import { build } from "esbuild";
import katex from "katex";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { strings as pageStrings } from "./i18n.js";
import { sections } from "./sections/index.js";
import { writeClassicSite } from "./site-chunks.js";

const web = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("..", import.meta.url));
const out = process.argv[2] ?? `${root}dist/site`;
const esmOut = process.argv[3] ?? `${root}dist/site-esm`;
const minify = !process.env.PE_NO_MINIFY;

// Every string table must have the same keys in every language.
function checkStrings(name, table) {
  const keys = (lang) =>
    Object.keys(table[lang] ?? {})
      .sort()
      .join(",");
  if (keys("en") !== keys("zh"))
    throw new Error(`${name}: the English and Chinese strings differ in keys`);
}

function typeset(tex) {
  // KaTeX's MathML output: no fonts, no style attributes.
  const markup = katex.renderToString(tex, {
    output: "mathml",
    throwOnError: true,
    macros: { "\\PE": "\\operatorname{PE}" },
  });
  return (
    markup
      .replace(/^<span class="katex">|<\/span>$/g, "")
      // MathML Core gives the invisible function application no space, so
      // "ln b" would read "lnb": a thin space unless a bracket follows.
      .replace(
        /<mo>\u2061<\/mo>(?!<mo[^>]*>[([{])/g,
        '<mo lspace="0" rspace="0.1667em">\u2061</mo>',
      )
  );
}

checkStrings("page", pageStrings);
// Each section's module file, with its typeset formulas: the module is
// web/sections/<id>.js, which the build checks.
const sectionFiles = new Map();
for (const section of sections) {
  checkStrings(section.id, section.strings);
  const file = `${web}sections/${section.id}.js`;
  if ((await import(file)) !== section)
    throw new Error(`section ${section.id}: not the module ${file}`);
  const formulas = {};
  for (const tex of Object.values(section.formulas ?? {}).flat())
    formulas[tex] = typeset(tex);
  sectionFiles.set(file, { id: section.id, formulas });
}

const sitePlugin = {
  name: "site",
  setup(builder) {
    // The panels' sections, each loaded on its first panel.
    builder.onResolve({ filter: /^site:panels$/ }, () => ({
      path: "panels",
      namespace: "site",
    }));
    builder.onLoad({ filter: /.*/, namespace: "site" }, () => ({
      contents: `export default [${[...sectionFiles]
        .map(
          ([file, { id }]) =>
            `[${JSON.stringify(id)}, () => import(${JSON.stringify(file)})]`,
        )
        .join(",")}];`,
      loader: "js",
      resolveDir: web,
    }));
    // A section module hands its typeset formulas to math.js when it runs.
    builder.onLoad(
      { filter: /[\\/]web[\\/]sections[\\/][^\\/]+\.js$/ },
      async ({ path }) => {
        const section = sectionFiles.get(path);
        if (!section) return undefined;
        const source = await readFile(path, "utf8");
        return {
          contents: `${source}
import { addFormulas as addTypesetFormulas } from "../math.js";
addTypesetFormulas(${JSON.stringify(section.formulas)});
`,
          loader: "js",
        };
      },
    );
  },
};

rmSync(out, { recursive: true, force: true });
rmSync(esmOut, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const { metafile } = await build({
  entryPoints: { page: `${web}main.js`, embed: `${web}embed.js` },
  outdir: esmOut,
  bundle: true,
  splitting: true,
  format: "esm",
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  minify,
  target: "es2020",
  logLevel: "warning",
  legalComments: "none",
  metafile: true,
  // The embedding script carries the style sheet, adopted by each panel's
  // shadow root.
  loader: { ".css": "text" },
  alias: {
    "sinusoidal-pe": `${root}src/index.js`,
    "sinusoidal-pe-wasm": `${root}build/wasm-base64.js`,
    "sinusoidal-pe-constants": `${root}build/constants.js`,
  },
  plugins: [sitePlugin],
});
await writeClassicSite({
  esmOut,
  metafile,
  out,
  loader: `${web}site-loader.js`,
  minify,
});
for (const file of ["index.html", "embed.html", "style.css", "favicon.svg"])
  copyFileSync(`${web}${file}`, `${out}/${file}`);
