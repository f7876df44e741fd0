// The packed tarball: what it holds, its size budget, and what the package
// linters and TypeScript say about it.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { inflateSync } from "node:zlib";
import { bin, installPacked, root, run } from "./packed.js";
import { BUDGET, documentedTable, table } from "./sizes.js";

let project;
before(() => {
  project = installPacked();
});

test("the tarball holds the module file once beside the entry points", () => {
  const paths = project.report.files.map((f) => f.path).sort();
  assert.deepEqual(paths, [
    "README.md",
    "dist/cli.js",
    "dist/decay.d.ts",
    "dist/index.d.ts",
    "dist/index.js",
    "dist/relation.d.ts",
    "dist/rope-scaling.d.ts",
    "dist/sinusoidal-pe.global.js",
    "dist/sinusoidal-pe.wasm",
    "package.json",
  ]);
});

test(`the packed tarball stays within ${BUDGET} bytes`, () => {
  assert.ok(
    project.report.size <= BUDGET,
    `tarball is ${project.report.size} bytes`,
  );
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

test("the sizes table of docs/sizes.md is the measured one", () => {
  assert.equal(
    documentedTable(),
    table(),
    "docs/sizes.md is stale: run `make sizes`",
  );
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
    "./sinusoidal-pe.global.js",
    "./package.json",
  ]);
  // attw exits non-zero on a problem; warnings must be the ignored CommonJS
  // one (require of ES modules is tested in Node itself).
  assert.doesNotMatch(output, /💀|❌/u, output);
  for (const line of output.split("\n").filter((l) => l.includes("⚠️")))
    assert.match(line, /ignored/, output);
});

for (const moduleResolution of ["node16", "bundler"]) {
  test(`the types compile under tsc --strict, moduleResolution ${moduleResolution}`, () => {
    const dir = join(project.dir, `types-${moduleResolution}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, "consumer.mts"),
      `import { init, table, rope, decayIntegral, type TableOptions } from "sinusoidal-pe";
await init(new URL("https://example.org/sinusoidal-pe.wasm"));
const options: TableOptions = { positions: 4, dim: 8, layout: "halves" };
const any: Float32Array | Float64Array = table(options);
const pe: Float32Array = table({ positions: 4, dim: 8 });
const wide: Float64Array = table({ positions: [0.5], dim: 8, dtype: "float64" });
const q: Float32Array = rope(pe, [0, 1, 2, 3], { dim: 8, inPlace: true });
const f: Float64Array = decayIntegral({ theta: "exp", x: [1, 2] });
// @ts-expect-error: layouts are checked
table({ positions: 4, dim: 8, layout: "rows" });
export { any, pe, wide, q, f };
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
