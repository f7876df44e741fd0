// Builds the site into dist/site/: the page and the embedding script, each
// one classic script (pages opened from file:// refuse module scripts), with
// every section's formulas (a TeX string or a list of parts) typeset to
// MathML here, once, so the page needs no fonts and no typesetting at run
// time. Usage: node web/build.js [outdir]; PE_NO_MINIFY=1 keeps the scripts
// readable, for profiles of the page.
import { build } from "esbuild";
import katex from "katex";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { strings as pageStrings } from "./i18n.js";
import { sections } from "./sections/index.js";

const web = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("..", import.meta.url));
const out = process.argv[2] ?? `${root}dist/site`;

// Every string table must have the same keys in every language.
function checkStrings(name, table) {
  const keys = (lang) =>
    Object.keys(table[lang] ?? {})
      .sort()
      .join(",");
  if (keys("en") !== keys("zh"))
    throw new Error(`${name}: the English and Chinese strings differ in keys`);
}

checkStrings("page", pageStrings);
const typeset = {};
for (const section of sections) {
  checkStrings(section.id, section.strings);
  for (const tex of Object.values(section.formulas ?? {}).flat()) {
    // KaTeX's MathML output: no fonts, no style attributes.
    const markup = katex.renderToString(tex, {
      output: "mathml",
      throwOnError: true,
      macros: { "\\PE": "\\operatorname{PE}" },
    });
    typeset[tex] = markup
      .replace(/^<span class="katex">|<\/span>$/g, "")
      // MathML Core gives the invisible function application no space, so
      // "ln b" would read "lnb": a thin space unless a bracket follows.
      .replace(
        /<mo>\u2061<\/mo>(?!<mo[^>]*>[([{])/g,
        '<mo lspace="0" rspace="0.1667em">\u2061</mo>',
      );
  }
}

const formulasModule = {
  name: "formulas",
  setup(builder) {
    builder.onResolve({ filter: /^site:formulas$/ }, () => ({
      path: "formulas",
      namespace: "site",
    }));
    builder.onLoad({ filter: /.*/, namespace: "site" }, () => ({
      contents: `export default ${JSON.stringify(typeset)};`,
      loader: "js",
    }));
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { page: `${web}main.js`, embed: `${web}embed.js` },
  outdir: out,
  bundle: true,
  format: "iife",
  minify: !process.env.PE_NO_MINIFY,
  target: "es2020",
  logLevel: "warning",
  legalComments: "none",
  // The embedding script carries the style sheet, adopted by each panel's
  // shadow root.
  loader: { ".css": "text" },
  alias: {
    "sinusoidal-pe": `${root}src/index.js`,
    "sinusoidal-pe-wasm": `${root}build/wasm-base64.js`,
    "sinusoidal-pe-constants": `${root}build/constants.js`,
  },
  plugins: [formulasModule],
});
for (const file of ["index.html", "embed.html", "style.css"])
  copyFileSync(`${web}${file}`, `${out}/${file}`);
