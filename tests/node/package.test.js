// The package as consumers get it: its file list, a bundler's output, a
// worker thread, and the declared exports.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const root = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

test("package.json: ESM, types first, no runtime dependencies", () => {
  assert.equal(manifest.type, "module");
  assert.deepEqual(Object.keys(manifest.exports["."]), ["types", "default"]);
  assert.equal(manifest.sideEffects, false);
  assert.equal(manifest.dependencies, undefined);
});

test("npm pack ships the built files only", () => {
  const [pack] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    }).toString(),
  );
  const files = pack.files.map((f) => f.path).sort();
  for (const file of [
    "dist/index.js",
    "dist/index.d.ts",
    "dist/relation.d.ts",
    "dist/decay.d.ts",
    "dist/sinusoidal-pe.global.js",
    "package.json",
    "README.md",
  ])
    assert.ok(files.includes(file), `${file} is packed`);
  // Of docs/, the documents the README links (development notes stay in
  // the repository).
  assert.ok(
    files.every(
      (f) =>
        !/^(src|tests)\//.test(f) &&
        (!f.startsWith("docs/") ||
          /^docs\/(api|models|numerics|onnxruntime)\.md$/.test(f)),
    ),
    files.join(", "),
  );
});

test("a bundler inlines everything: the bundle runs with no files around it", () => {
  const dir = mkdtempSync(join(tmpdir(), "pe-bundle-"));
  const entry = join(dir, "app.js");
  writeFileSync(
    entry,
    `import { init, table } from ${JSON.stringify(join(root, "dist/index.js"))};
     await init();
     console.log(JSON.stringify(Array.from(table({ positions: [1], dim: 2, dtype: "float64" }))));`,
  );
  const bundle = join(dir, "bundle.mjs");
  execFileSync(join(root, "node_modules/.bin/esbuild"), [
    entry,
    "--bundle",
    "--format=esm",
    "--platform=neutral",
    "--log-level=error",
    `--outfile=${bundle}`,
  ]);
  const output = execFileSync(process.execPath, [bundle], { cwd: dir });
  assert.deepEqual(JSON.parse(output.toString()), [Math.sin(1), Math.cos(1)]);
});

test("works in a worker thread", async () => {
  const script = join(mkdtempSync(join(tmpdir(), "pe-worker-")), "worker.mjs");
  writeFileSync(
    script,
    `import { init, table } from ${JSON.stringify(join(root, "dist/index.js"))};
     import { parentPort } from "node:worker_threads";
     await init();
     parentPort.postMessage(table({ positions: [2], dim: 2, dtype: "float64" }));`,
  );
  const worker = new Worker(script);
  const message = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  await worker.terminate();
  const want = [Math.sin(2), Math.cos(2)];
  assert.ok(
    Array.from(message).every((v, i) => Math.abs(v - want[i]) <= 2.3e-16),
  );
});
