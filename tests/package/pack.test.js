// The packed tarball: what it holds, its size budget, and what the package
// linters and TypeScript say about it.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { inflateSync } from "node:zlib";
import { bin, installPacked, root, run } from "./packed.js";
import { BUDGETS, budgetTable, measure, documentedTable } from "./sizes.js";

let project, measured;
before(async () => {
  project = installPacked();
  ({ measures: measured } = await measure(project));
});

test("the tarball holds the module file once beside the entry points", () => {
  const paths = project.report.files.map((f) => f.path).sort();
  assert.deepEqual(paths, [
    "LICENSE",
    "README.md",
    "dist/cli.js",
    "dist/config.d.ts",
    "dist/decay.d.ts",
    "dist/error-codes.d.ts",
    "dist/index.d.ts",
    "dist/index.js",
    "dist/library.js",
    "dist/plans.d.ts",
    "dist/relation.d.ts",
    "dist/rope-scaling.d.ts",
    "dist/sinusoidal-pe.global.d.ts",
    "dist/sinusoidal-pe.global.js",
    "dist/sinusoidal-pe.wasm",
    "dist/sinusoidal-pe.wasm.d.ts",
    "dist/slim-node.js",
    "dist/slim.d.ts",
    "dist/slim.js",
    "docs/api.md",
    "docs/models.md",
    "docs/numerics.md",
    "docs/onnxruntime.md",
    "package.json",
  ]);
});

// GitHub's and npm's heading anchors: lower case, punctuation dropped,
// spaces as hyphens.
const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

test("every relative link of the packed README and docs resolves to a packed file and heading", () => {
  const packed = new Set(project.report.files.map((f) => f.path));
  const documents = [...packed].filter((path) => path.endsWith(".md"));
  const checked = [];
  for (const document of documents) {
    const text = readFileSync(join(project.installed, document), "utf8")
      .replace(/^```[\s\S]*?^```$/gm, "")
      .replace(/`[^`\n]*`/g, "");
    const base = new URL(document, "file:///package/");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // absolute URLs
      const url = new URL(target, base);
      const path = decodeURIComponent(url.pathname.slice("/package/".length));
      assert.ok(
        packed.has(path),
        `${document}: ${target} is not in the tarball`,
      );
      if (url.hash !== "") {
        const headings = readFileSync(join(project.installed, path), "utf8")
          .split("\n")
          .filter((line) => /^#{1,6} /.test(line))
          .map((line) => anchorOf(line.replace(/^#+ /, "")));
        assert.ok(
          headings.includes(url.hash.slice(1)),
          `${document}: ${target} names no heading of ${path}`,
        );
      }
      checked.push(`${document} → ${target}`);
    }
  }
  // The README links the documents that ship with it.
  assert.ok(checked.length >= 15, checked.join("\n"));
  for (const doc of ["docs/api.md", "docs/numerics.md", "docs/onnxruntime.md"])
    assert.ok(
      checked.some((c) => c.startsWith("README.md → " + doc)),
      doc,
    );
});

test("the LICENSE is MIT's, and package.json says so", () => {
  const text = readFileSync(join(project.installed, "LICENSE"), "utf8");
  assert.match(
    text,
    /^MIT License\n\nCopyright \(c\) \d{4} sinusoidal-pe authors\n/,
  );
  assert.match(
    text,
    /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/,
  );
  const manifest = JSON.parse(
    readFileSync(join(project.installed, "package.json"), "utf8"),
  );
  assert.equal(manifest.license, "MIT");
});

for (const [key, budget] of Object.entries(BUDGETS))
  test(`within budget: ${budget.what} ≤ ${budget.bytes} bytes`, () => {
    assert.ok(
      measured[key] <= budget.bytes,
      `${budget.what}: ${measured[key]} bytes`,
    );
  });

test("the library's code is packed once: the entries and the command line import it", () => {
  const dist = join(project.installed, "dist");
  const read = (file) => readFileSync(join(dist, file), "utf8");
  const library = read("library.js");
  assert.doesNotMatch(library, /[A-Za-z0-9+/]{1000}/);
  const entry = read("index.js");
  const withoutModule = entry.replace(/"[A-Za-z0-9+/]{1000,}=*"/, '""');
  assert.ok(withoutModule.length < 1500, `${withoutModule.length} characters`);
  assert.match(entry, /from"\.\/slim\.js"/);
  const slim = read("slim.js");
  assert.ok(slim.length < 1500, `${slim.length} characters`);
  assert.match(slim, /from"\.\/library\.js"/);
  assert.match(read("cli.js"), /from"\.\/library\.js"/);
  const node = read("slim-node.js");
  assert.ok(node.length < 500, `${node.length} characters`);
  // The library's longer texts (messages, the presets' notes), each found
  // in no other file.
  const texts = [...library.matchAll(/"([^"\\]{40,})"/g)].map((m) => m[1]);
  assert.ok(texts.length > 40, `${texts.length} texts`);
  for (const file of ["index.js", "slim.js", "slim-node.js", "cli.js"]) {
    const code = read(file);
    const repeated = texts.filter((text) => code.includes(text));
    assert.deepEqual(repeated, [], `dist/${file} repeats the library`);
  }
});

test("the inline module is the shipped .wasm, byte for byte", () => {
  const dist = join(project.installed, "dist");
  const wasm = readFileSync(join(dist, "sinusoidal-pe.wasm"));
  assert.deepEqual(wasm.subarray(0, 4), Buffer.from([0, 0x61, 0x73, 0x6d]));
  const entry = readFileSync(join(dist, "index.js"), "utf8");
  const inline = entry.match(/"([A-Za-z0-9+/]{1000,}=*)"/);
  assert.ok(inline, "dist/index.js holds one long base64 string");
  assert.ok(inflateSync(Buffer.from(inline[1], "base64")).equals(wasm));
  // The classic script shares the module build instead of a copy.
  const global = readFileSync(join(dist, "sinusoidal-pe.global.js"), "utf8");
  assert.ok(global.length < 1000, `${global.length} characters`);
});

test("docs/sizes.md states the budgets that these tests hold", () => {
  assert.equal(documentedTable(), budgetTable());
});

test("publint finds nothing to report", () => {
  const output = run(bin("publint"), ["run", "--strict", project.installed]);
  assert.match(output, /All good/, output);
});

test("are-the-types-wrong finds no problem for an ESM-only package", () => {
  const output = run(bin("attw"), [
    project.tarball,
    "--profile",
    "esm-only",
    "--format",
    "ascii",
    "--exclude-entrypoints",
    "./sinusoidal-pe.wasm",
    "./package.json",
  ]);
  // attw exits non-zero on a problem; what it reports must be in the
  // resolutions an ESM-only package leaves out: CommonJS (whose require of ES
  // modules is tested in Node itself) and node10, which knows no subpath
  // exports such as "./slim".
  for (const line of output.split("\n").filter((l) => /💀|❌|⚠️/u.test(l)))
    assert.match(line, /ignored/, output);
});

// node10 (TypeScript's "node") knows no exports map: typesVersions gives it
// the subpaths.
for (const moduleResolution of ["node16", "bundler", "node10"]) {
  test(`the types compile under tsc --strict, moduleResolution ${moduleResolution}`, () => {
    const dir = join(project.dir, `types-${moduleResolution}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, "consumer.mts"),
      `import { init, table, rope, ropeCache, toNpy, decayIntegral, type TableOptions } from "sinusoidal-pe";
import * as slim from "sinusoidal-pe/slim";
import wasmUrl from "sinusoidal-pe/sinusoidal-pe.wasm";
await slim.init(new URL(wasmUrl, "https://example.org/"));
await init(new URL("https://example.org/sinusoidal-pe.wasm"));
// Results are on plain ArrayBuffers: the DOM's BufferSource and BlobPart.
const cache = ropeCache({ dim: 8, positions: 4, dtype: "float16" });
new Blob([toNpy(cache.cos, cache.shape), table({ positions: 4, dim: 8 })]);
new Response(slim.table({ positions: 4, dim: 8, dtype: "float64" }));
// @ts-expect-error: integer rows are refused
rope(new Int8Array(8), 1, { dim: 8 });
const options: TableOptions = { positions: 4, dim: 8, layout: "halves" };
const any: Float32Array | Float64Array = table(options);
const pe: Float32Array = table({ positions: 4, dim: 8 });
const wide: Float64Array = table({ positions: [0.5], dim: 8, dtype: "float64" });
const q: Float32Array = rope(pe, [0, 1, 2, 3], { dim: 8, inPlace: true });
const f: Float64Array = decayIntegral({ theta: "exp", x: [1, 2] });
// @ts-expect-error: layouts are checked
table({ positions: 4, dim: 8, layout: "rows" });
// The classic script's global, typed as the default entry.
import "sinusoidal-pe/sinusoidal-pe.global.js";
await SinusoidalPE.init();
const global: Float32Array = SinusoidalPE.table({ positions: 4, dim: 8 });
export { any, pe, wide, q, f, global };
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module: moduleResolution === "node16" ? "node16" : "esnext",
          moduleResolution,
          lib: ["es2022", "dom"],
          types: [],
          skipLibCheck: false,
        },
        files: ["consumer.mts"],
      }),
    );
    run(bin("tsc"), ["-p", dir], { cwd: dir });
  });
}

// CommonJS TypeScript: `import()` of either entry and type-only imports in
// import resolution mode compile under node16 and nodenext; nodenext, which
// knows require of ES modules, also takes a plain import.
for (const module of ["node16", "nodenext"]) {
  test(`a CommonJS TypeScript project compiles, module ${module}`, () => {
    const dir = join(project.dir, `types-cjs-${module}`);
    mkdirSync(dir);
    const files = {
      "consumer.cts": `import type { TableOptions } from "sinusoidal-pe" with { "resolution-mode": "import" };
async function main(): Promise<void> {
  const { init, table } = await import("sinusoidal-pe");
  const slim = await import("sinusoidal-pe/slim");
  await init();
  const options: TableOptions = { positions: 4, dim: 8 };
  const any: Float32Array | Float64Array = table(options);
  const pe: Float32Array = slim.table({ positions: 4, dim: 8 });
  // @ts-expect-error: the types are the package's own, not any
  table({ positions: 4, dim: 8, layout: "rows" });
  console.log(any.length, pe.length);
}
void main();
`,
    };
    if (module === "nodenext")
      files["static.cts"] = `import { table } from "sinusoidal-pe";
export const pe: Float32Array = table({ positions: 4, dim: 8 });
`;
    for (const [name, text] of Object.entries(files))
      writeFileSync(join(dir, name), text);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module,
          moduleResolution: module,
          lib: ["es2022", "dom"],
          types: [],
          skipLibCheck: false,
        },
        files: Object.keys(files),
      }),
    );
    run(bin("tsc"), ["-p", dir], { cwd: dir });
  });
}
