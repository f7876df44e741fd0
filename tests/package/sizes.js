// The packages' size budgets, as docs/sizes.md states them, and what they
// measure: the packed tarball, a minified app that calls `table` through
// each entry (the default one with its inline module, the slim one with the
// shipped .wasm as an asset), and the site of sinusoidal-pe-page: all its
// files, what the page loads and what a page with one panel loads (the
// loader and the chunks it needs, each chunk naming those it requires).
// The package tests hold every measure within its budget; `make sizes`
// prints the measures.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { installPacked, pack, pageRoot, root } from "./packed.js";

const BEGIN =
  "<!-- sizes: budgets held by `make test`; `make sizes` measures -->";
const END = "<!-- /sizes -->";

// The tarball carries the module twice, the types, the README and the
// documents the README links (see docs/sizes.md).
export const BUDGETS = {
  tarball: { what: "the packed tarball", bytes: 176_000 },
  default: {
    what: "an app that calls `table` through `sinusoidal-pe`, gzip",
    bytes: 52_500,
  },
  slimScript: {
    what: "the same through `sinusoidal-pe/slim`: its script, gzip",
    bytes: 17_100,
  },
  slim: {
    what: "the same through `sinusoidal-pe/slim`: script and .wasm, gzip",
    bytes: 53_000,
  },
  site: { what: "the site of `sinusoidal-pe-page`: its files", bytes: 456_000 },
  siteGzip: { what: "the same, each file gzip", bytes: 184_200 },
  page: { what: "the scripts the page loads, gzip", bytes: 165_000 },
  panel: {
    what: "the scripts a page with one `<pe-relation>` loads, gzip",
    bytes: 110_000,
  },
  pageTarball: {
    what: "the packed tarball of `sinusoidal-pe-page`",
    bytes: 274_500,
  },
};

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;

// The app, bundled and minified by esbuild for browsers: each output file
// and its gzip size.
async function appFiles(project, name, entry, source) {
  const dir = join(project.dir, "size-apps", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "main.js"),
    `import { init, table } from "${entry}";
${source ? `import wasmUrl from "sinusoidal-pe/sinusoidal-pe.wasm";` : ""}
await init(${source ? "new URL(wasmUrl, import.meta.url)" : ""});
document.body.textContent = table({ positions: 4, dim: 8 }).join(" ");
`,
  );
  const out = join(dir, "out");
  await esbuild.build({
    entryPoints: [join(dir, "main.js")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    loader: { ".wasm": "file" },
    outdir: out,
    logLevel: "error",
  });
  return readdirSync(out).map((file) => ({
    file,
    gzip: gzip(readFileSync(join(out, file))),
  }));
}

export const siteDir = join(root, "dist/site");

/** Every file under `dir`, as paths relative to it. */
export function filesOf(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
}

/**
 * The site's scripts that `loader` (page.js or embed.js) and the sections'
 * chunks `sections` (named by their ids) load: the loader, and each chunk
 * with the chunks it requires. Paths relative to the site.
 */
export function scriptsLoaded(loader, sections = []) {
  const scripts = join(siteDir, "scripts");
  const chunks = readdirSync(scripts);
  const loaded = new Set();
  const add = (name) => {
    if (loaded.has(name)) return;
    loaded.add(name);
    const code = readFileSync(join(scripts, name), "utf8");
    for (const [, required] of code.matchAll(/require\("\.\/([\w.-]+)"\)/g))
      add(required);
  };
  add(loader);
  for (const id of sections)
    add(chunks.find((name) => name.startsWith(`${id}-`)));
  return [loader, ...[...loaded].map((name) => `scripts/${name}`)];
}

function siteMeasures() {
  const bytes = (path) => readFileSync(join(siteDir, path));
  const sum = (paths, size) =>
    paths.reduce((total, path) => total + size(bytes(path)), 0);
  const files = filesOf(siteDir);
  return {
    site: sum(files, (b) => b.length),
    siteGzip: sum(files, gzip),
    page: sum(scriptsLoaded("page.js"), gzip),
    panel: sum(scriptsLoaded("embed.js", ["relation"]), gzip),
    pageTarball: pack(pageRoot).report.size,
  };
}

/** Each budget's measure in bytes, and the files of each app. */
export async function measure(project = installPacked()) {
  const apps = {
    default: await appFiles(project, "default", "sinusoidal-pe", false),
    slim: await appFiles(project, "slim", "sinusoidal-pe/slim", true),
  };
  const total = (files) => files.reduce((sum, f) => sum + f.gzip, 0);
  const scripts = (files) => files.filter((f) => f.file.endsWith(".js"));
  return {
    measures: {
      tarball: project.report.size,
      default: total(apps.default),
      slimScript: total(scripts(apps.slim)),
      slim: total(apps.slim),
      ...siteMeasures(),
    },
    apps,
    report: project.report,
  };
}

// The budgets as docs/sizes.md states them: a Markdown table laid out as
// prettier lays it out.
export function budgetTable() {
  const all = [
    ["measure", "budget"],
    ...Object.values(BUDGETS).map((b) => [b.what, `≤ ${kb(b.bytes)}`]),
  ];
  const widths = all[0].map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (cells) =>
    `| ${cells.map((x, c) => x.padEnd(widths[c])).join(" | ")} |`;
  return [
    line(all[0]),
    line(widths.map((w) => "-".repeat(w))),
    ...all.slice(1).map(line),
  ].join("\n");
}

export function documentedTable() {
  const text = readFileSync(join(root, "docs", "sizes.md"), "utf8");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return null;
  return text.slice(start + BEGIN.length, end).trim();
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const project = installPacked();
  const { measures, apps, report } = await measure(project);
  for (const [key, budget] of Object.entries(BUDGETS))
    console.log(
      `${budget.what}: ${kb(measures[key])} (budget ${kb(budget.bytes)})`,
    );
  for (const [name, files] of Object.entries(apps))
    console.log(
      `  ${name} app: ${files.map((f) => `${f.file} ${kb(f.gzip)}`).join(", ")}`,
    );
  console.log("the tarball's files (uncompressed, and gzip alone):");
  for (const { path, size } of report.files)
    console.log(
      `  ${path} ${kb(size)}, ${kb(gzip(readFileSync(join(project.installed, path))))}`,
    );
  console.log(`  unpacked ${kb(report.unpackedSize)}`);
  const scripts = filesOf(siteDir).filter((path) => path.endsWith(".js"));
  const sectionScripts = (id) => scriptsLoaded("embed.js", [id]).length;
  console.log(
    `the site: ${scripts.length} scripts, the loader (page.js, embed.js) ` +
      `${kb(statSync(join(siteDir, "page.js")).size)}; the page loads ${scriptsLoaded("page.js").length}, ` +
      `a page with one <pe-relation> ${sectionScripts("relation")}, with one <pe-heatmap> ${sectionScripts("table")}`,
  );
}
