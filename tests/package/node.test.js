// The installed package in Node: ES modules, CommonJS, a worker thread, the
// slim entry, the shipped .wasm through the exports map, and the command line
// through npx.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { installPacked, run } from "./packed.js";

let project;
before(() => {
  project = installPacked();
});

// Runs `source` as a file of the consumer project; returns its JSON output.
function consumer(name, source) {
  const file = join(project.dir, name);
  writeFileSync(file, source);
  return JSON.parse(run(process.execPath, [file], { cwd: project.dir }));
}

const SIN_COS_1 = [Math.sin(1), Math.cos(1)];

test("an ES module imports the package and computes with the inline module", () => {
  const values = consumer(
    "esm.mjs",
    `import { init, table } from "sinusoidal-pe";
     await init();
     console.log(JSON.stringify(Array.from(table({ positions: [1], dim: 2, dtype: "float64" }))));`,
  );
  assert.deepEqual(values, SIN_COS_1);
});

test("the packed README's first example runs as an ES module of the consumer", () => {
  const readme = readFileSync(join(project.installed, "README.md"), "utf8");
  const [, first] = /^```js\n([\s\S]*?)^```$/m.exec(readme);
  assert.match(first, /from "sinusoidal-pe"/);
  const file = join(project.dir, "readme-first.mjs");
  writeFileSync(file, `${first}\nconsole.log(JSON.stringify(pe.length));\n`);
  assert.equal(
    run(process.execPath, [file], { cwd: project.dir }).trim(),
    "393216",
  );
});

test("the slim entry reads the shipped .wasm in Node, and shares one instance with the default entry", () => {
  const values = consumer(
    "slim.mjs",
    `import { init, table } from "sinusoidal-pe/slim";
     import * as whole from "sinusoidal-pe";
     const resolved = import.meta.resolve("sinusoidal-pe/slim");
     await init();
     console.log(JSON.stringify({
       resolved,
       values: Array.from(table({ positions: [1], dim: 2, dtype: "float64" })),
       shared: whole.table === table,
     }));`,
  );
  assert.match(values.resolved, /\/dist\/slim-node\.js$/);
  assert.deepEqual(values.values, SIN_COS_1);
  assert.equal(values.shared, true);
});

const requiresEsm = process.features.require_module === true;
test(
  "CommonJS requires the package (Node's require of ES modules)",
  {
    skip: requiresEsm
      ? false
      : `Node ${process.version} cannot require ES modules`,
  },
  () => {
    const values = consumer(
      "cjs.cjs",
      `const { init, table } = require("sinusoidal-pe");
       init().then(() => console.log(JSON.stringify(Array.from(table({ positions: [1], dim: 2, dtype: "float64" })))));`,
    );
    assert.deepEqual(values, SIN_COS_1);
  },
);

test("a worker thread loads the package on its own", () => {
  writeFileSync(
    join(project.dir, "worker.mjs"),
    `import { init, table } from "sinusoidal-pe";
     import { parentPort } from "node:worker_threads";
     await init();
     parentPort.postMessage(Array.from(table({ positions: [1], dim: 2, dtype: "float64" })));`,
  );
  const values = consumer(
    "main.mjs",
    `import { Worker } from "node:worker_threads";
     const worker = new Worker(new URL("./worker.mjs", import.meta.url));
     worker.once("message", (m) => { console.log(JSON.stringify(m)); worker.terminate(); });`,
  );
  assert.deepEqual(values, SIN_COS_1);
});

// Each source in a process of its own, so that each init() compiles it.
const SOURCES = {
  bytes: "bytes",
  module: "await WebAssembly.compile(bytes)",
  response:
    'new Response(bytes, { headers: { "content-type": "application/wasm" } })',
};
for (const [kind, expression] of Object.entries(SOURCES))
  test(`the shipped .wasm loads through the exports map: init() takes its ${kind}`, () => {
    const values = consumer(
      `asset-${kind}.mjs`,
      `import { readFile } from "node:fs/promises";
       import { init, table } from "sinusoidal-pe/slim";
       const url = new URL(import.meta.resolve("sinusoidal-pe/sinusoidal-pe.wasm"));
       const bytes = await readFile(url);
       await init(${expression});
       console.log(JSON.stringify({
         path: url.pathname,
         values: Array.from(table({ positions: [1], dim: 2, dtype: "float64" })),
       }));`,
    );
    assert.match(
      values.path,
      /node_modules\/sinusoidal-pe\/dist\/sinusoidal-pe\.wasm$/,
    );
    assert.deepEqual(values.values, SIN_COS_1);
  });

test("npx runs the command line from the installed package", () => {
  const csv = run(
    "npx",
    [
      "--offline",
      "--no-install",
      "sinusoidal-pe",
      "table",
      "--positions",
      "2",
      "--dim",
      "2",
      "--dtype",
      "float64",
      "--format",
      "csv",
    ],
    {
      cwd: project.dir,
    },
  );
  assert.deepEqual(
    csv
      .trim()
      .split("\n")
      .map((line) => line.split(",").map(Number)),
    [[0, 1], SIN_COS_1],
  );
  const help = run(
    join(project.dir, "node_modules/.bin/sinusoidal-pe"),
    ["--help"],
    { cwd: project.dir },
  );
  assert.match(help, /^Usage: sinusoidal-pe/);
});
