// First calls: each workload in a fresh process, where V8 has compiled the
// module only in its baseline tier (within a process it may reuse code it
// has optimised for the same bytes, so a second instance can start warm).
// A table is computed in blocks of rows, one call into the module each, and
// V8 moves the table kernel to optimised code after the first blocks: a
// first call costs its baseline-tier blocks, the compiling of the library's
// own JS, and, for a view, the growth of the module's memory. init() itself
// is timed the same way: from the inline module, and from the shipped file.
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { init, table } from "../dist/index.js";

const WASM = new URL("../dist/sinusoidal-pe.wasm", import.meta.url);
const INITS = {
  "init() from the inline module": () => init(),
  "init(await readFile(sinusoidal-pe.wasm))": async () =>
    init(await readFile(WASM)),
  // The path of hosts without Node's zlib: a DecompressionStream.
  "init() from the inline module, without Node's builtins": () => {
    process.getBuiltinModule = undefined;
    return init();
  },
};
const INIT_RUNS = 9;

// Each entry makes its workload; what it sets up is not timed.
const WORKLOADS = {
  "table 512×768, view": () => () =>
    table({ positions: 512, dim: 768, view: true }),
  "table 8192×4096, view": () => () =>
    table({ positions: 8192, dim: 4096, view: true }),
  "table 8192×4096, into a reused out": () => {
    const out = new Float32Array(8192 * 4096).fill(1); // pages touched
    return () => table({ positions: 8192, dim: 4096, out });
  },
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function time(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

const name = process.argv[2];
if (name === undefined) {
  console.log(
    `init (median of ${INIT_RUNS} fresh processes, the module's import not timed)`,
  );
  for (const how of Object.keys(INITS)) {
    const runs = Array.from({ length: INIT_RUNS }, () =>
      Number(
        execFileSync(process.execPath, [
          fileURLToPath(import.meta.url),
          "--init",
          how,
        ]),
      ),
    );
    console.log(`${how}: ${median(runs).toFixed(2)} ms`);
  }
  console.log("first calls (each in a fresh process) and the steady state");
  for (const workload of Object.keys(WORKLOADS))
    process.stdout.write(
      execFileSync(process.execPath, [
        fileURLToPath(import.meta.url),
        workload,
      ]),
    );
} else if (name === "--init") {
  const start = performance.now();
  await INITS[process.argv[3]]();
  console.log(performance.now() - start);
} else {
  await init();
  const fn = WORKLOADS[name]();
  const first = time(fn);
  const second = time(fn);
  const warm = performance.now() + 250;
  while (performance.now() < warm) fn();
  const steady = median(Array.from({ length: 7 }, () => time(fn)));
  console.log(
    `${name}: first call ${first.toFixed(2)} ms, second ${second.toFixed(2)} ms, steady ${steady.toFixed(2)} ms (first ${(first / steady).toFixed(2)}× steady)`,
  );
}
