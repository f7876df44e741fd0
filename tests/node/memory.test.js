// Module memory stays bounded under long mixed use, large requests work or
// fail cleanly before allocating, and concurrent initialisation is safe.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import * as pe from "../../dist/index.js";

await pe.init();

// The module's memory size: a view is a typed array over that memory.
const memoryBytes = () =>
  pe.table({ positions: 1, dim: 2, view: true }).buffer.byteLength;

const MiB = 2 ** 20;

test("10^5 calls of mixed sizes leave memory bounded by the largest request plus a margin", (t) => {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const largest = 2048 * 256 * 8; // the largest request below: 4 MiB
  const start = memoryBytes();
  const vectors = new Float32Array(64 * 128).fill(0.5);
  for (let call = 0; call < 1e5; call++) {
    const size = random();
    const dim = 2 * (1 + Math.floor(random() * 127));
    switch (call % 6) {
      case 0:
        pe.table({
          positions: size < 0.01 ? 2048 : 1 + Math.floor(size * 64),
          dim: size < 0.01 ? 256 : dim,
          dtype: size < 0.005 ? "float64" : "float32",
        });
        break;
      case 1:
        pe.table({ positions: [size * 1e5, -size], dim, view: random() < 0.5 });
        break;
      case 2:
        pe.rope(vectors.subarray(0, 4 * 128), [1, 2, 3, 4], { dim: 128 });
        break;
      case 3:
        pe.dotProducts({
          dim,
          offsets: { from: 0, to: 100, count: 2 + Math.floor(size * 500) },
        });
        break;
      case 4:
        pe.decayIntegral({ theta: "exp", x: [size * 100, 1] });
        break;
      case 5:
        // an error path in the mix: it must free what it allocated
        assert.throws(() => pe.table({ positions: [1, NaN], dim }), RangeError);
        break;
    }
  }
  const grown = memoryBytes() - start;
  t.diagnostic(
    `memory after 10^5 calls: ${memoryBytes() / MiB} MiB, grown by ${grown / MiB} MiB`,
  );
  assert.ok(grown <= largest + 16 * MiB, `memory grew by ${grown / MiB} MiB`);
});

test("a 1 GiB table works", () => {
  const view = pe.table({ positions: 2 ** 18, dim: 1024, view: true });
  assert.equal(view.byteLength, 2 ** 30);
  // spot checks against the formula at the first, a middle and the last row
  for (const row of [0, 77777, 2 ** 18 - 1]) {
    const angle = row * Math.pow(10000, -2 / 1024);
    assert.ok(Math.abs(view[row * 1024 + 2] - Math.sin(angle)) < 1e-7);
    assert.ok(Math.abs(view[row * 1024 + 3] - Math.cos(angle)) < 1e-7);
  }
  pe.table({ positions: 1, dim: 2, view: true }); // release the large view
});

test("a request beyond wasm32's 4 GiB fails before any allocation, and the module goes on", () => {
  const before = memoryBytes();
  for (const options of [
    { positions: 2 ** 20, dim: 2 ** 12, dtype: "float64" },
    { positions: 2 ** 30, dim: 8 },
    { positions: 2 ** 21, dim: 2 ** 10, view: true },
  ])
    assert.throws(() => pe.table(options), {
      name: "RangeError",
      code: "ERR_SIZE",
      option: "positions",
    });
  assert.equal(memoryBytes(), before);
  assert.equal(pe.table({ positions: [0], dim: 2 })[1], 1);
});

function inWorker(source) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, type: "module" });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

const workerScript = (body) => `
  import { parentPort } from "node:worker_threads";
  import * as pe from ${JSON.stringify(new URL("../../dist/index.js", import.meta.url).href)};
  ${body}
`;

test("init racing from several callers resolves once for all of them", async () => {
  const result = await inWorker(
    workerScript(`
      const calls = await Promise.allSettled([pe.init(), pe.init(), pe.init(), pe.init()]);
      const row = pe.table({ positions: [1], dim: 2, dtype: "float64" });
      parentPort.postMessage({ states: calls.map((c) => c.status), row: Array.from(row) });
    `),
  );
  assert.deepEqual(result.states, [
    "fulfilled",
    "fulfilled",
    "fulfilled",
    "fulfilled",
  ]);
  assert.deepEqual(result.row, [Math.sin(1), Math.cos(1)]);
});

test("several workers, each with its own instance, compute at once", async () => {
  const positions = [5, 1000, 123456];
  const results = await Promise.all(
    positions.map((p) =>
      inWorker(
        workerScript(`
          await pe.init();
          let row;
          for (let i = 0; i < 200; i++) row = pe.table({ positions: [${p}], dim: 64, dtype: "float64" });
          parentPort.postMessage(Array.from(row.subarray(0, 2)));
        `),
      ),
    ),
  );
  results.forEach((row, j) => {
    assert.ok(Math.abs(row[0] - Math.sin(positions[j])) < 1e-15);
    assert.ok(Math.abs(row[1] - Math.cos(positions[j])) < 1e-15);
  });
});
