// The interop examples of the README and docs/api.md, run as written (inside the repository, so
// "sinusoidal-pe" resolves to this package), each followed by checks against
// float64 formulas written here.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const documents = ["README.md", "docs/api.md"].map((path) =>
  readFileSync(join(root, path), "utf8"),
);

function example(name) {
  const marker = `<!-- example: ${name} -->`;
  const text = documents.find((document) => document.includes(marker));
  assert.ok(text, `README.md or docs/api.md has the ${name} example`);
  const match = /```js\n([\s\S]*?)```/.exec(text.slice(text.indexOf(marker)));
  return match[1];
}

// A seeded Math.random, so checks can regenerate an example's inputs.
const SEEDED_RANDOM = `
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
Math.random = seeded(7);
`;

// Runs the example with `checks` appended; returns what the checks print
// last (libraries may log before).
function runExample(name, checks) {
  const dir = join(root, "build/readme-examples");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.mjs`);
  // Imports are hoisted, so the seeded Math.random is in place first.
  writeFileSync(file, `${SEEDED_RANDOM}\n${example(name)}\n${checks}`);
  const lines = execFileSync(process.execPath, [file], {
    cwd: root,
    stdio: ["ignore", "pipe", "ignore"],
  })
    .toString()
    .trim()
    .split("\n");
  return JSON.parse(lines.at(-1));
}

test("README: a tfjs tensor from table() added to token embeddings", () => {
  const result = runExample(
    "tfjs",
    `const sum = await inputs.data();
     const tokens = await embeddings.data();
     let worst = 0;
     for (let p = 0; p < n; p++)
       for (let i = 0; i < d; i++) {
         const angle = p / Math.pow(10000, (2 * Math.floor(i / 2)) / d);
         const want = tokens[p * d + i] + (i % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
         worst = Math.max(worst, Math.abs(sum[p * d + i] - want));
       }
     console.log(JSON.stringify({ shape: inputs.shape, dtype: inputs.dtype, worst }));`,
  );
  assert.deepEqual(result.shape, [128, 512]);
  assert.equal(result.dtype, "float32");
  // one float32 rounding of the encoding and one of the sum (|x| < 8)
  assert.ok(result.worst <= 6e-8 + 4.8e-7, `${result.worst}`);
});

test("README: an onnxruntime-web Tensor wraps Whisper's table without a copy", () => {
  const result = runExample(
    "onnxruntime-web",
    `const d = 384, h = d / 2;
     const increment = Math.log(10000) / (h - 1);
     let worst = 0;
     for (let t = 0; t < 1500; t++)
       for (let i = 0; i < h; i++) {
         const angle = t * Math.exp(-increment * i);
         worst = Math.max(
           worst,
           Math.abs(positional.data[t * d + i] - Math.sin(angle)),
           Math.abs(positional.data[t * d + h + i] - Math.cos(angle)),
         );
       }
     console.log(JSON.stringify({
       type: positional.type,
       dims: positional.dims,
       shared: positional.data === pe,
       worst,
     }));`,
  );
  assert.equal(result.type, "float32");
  assert.deepEqual(result.dims, [1500, 384]);
  assert.equal(result.shared, true);
  assert.ok(result.worst <= 6e-8, `${result.worst}`);
});

test("docs/api.md: RoPE rotates query and key rows in place as HF Llama does", () => {
  const result = runExample(
    "rope",
    `Math.random = seeded(7);
     const original = [0, 1].map(() =>
       Float64Array.from({ length: n * headDim }, () => Math.fround(Math.random() - 0.5)),
     );
     const h = headDim / 2;
     let worst = 0;
     for (const [rows, x] of [[q, original[0]], [k, original[1]]])
       for (let p = 0; p < n; p++)
         for (let i = 0; i < h; i++) {
           const angle = p * Math.pow(10000, (-2 * i) / headDim);
           const [a, b] = [x[p * headDim + i], x[p * headDim + h + i]];
           worst = Math.max(
             worst,
             Math.abs(rows[p * headDim + i] - (a * Math.cos(angle) - b * Math.sin(angle))),
             Math.abs(rows[p * headDim + h + i] - (b * Math.cos(angle) + a * Math.sin(angle))),
           );
         }
     const changed = q.some((v, i) => v !== original[0][i]);
     console.log(JSON.stringify({ worst, changed }));`,
  );
  assert.equal(result.changed, true);
  // |x| ≤ 0.5: a float32 rounding of results below 0.71
  assert.ok(result.worst <= 6e-8, `${result.worst}`);
});
