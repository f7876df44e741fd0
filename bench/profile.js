// Where the time of a call goes: V8's sampling profiler over the library
// running on a build of the module that keeps its function names (the same
// code section as the shipped .wasm, byte for byte, which this checks).
// For each workload: self time by function of the module, the library's own
// JS (options, checks, the copies in and out of module memory), and the
// rest. `node bench/profile.js` (make bench); not a test.
import { Session } from "node:inspector/promises";
import { readFileSync } from "node:fs";
import { init, createRope, createTable, ropeCache } from "../dist/slim.js";
import { LLAMA3 } from "./llama3.js";

const NAMED = new URL("../build/sinusoidal-pe.profiling.wasm", import.meta.url);
const SHIPPED = new URL("../build/sinusoidal-pe.wasm", import.meta.url);

// The code section of a module (id 10), by walking its sections.
function codeSection(bytes) {
  for (let at = 8; at < bytes.length;) {
    const id = bytes[at++];
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      size += (byte & 127) * 2 ** shift;
      if (byte < 128) break;
    }
    if (id === 10) return bytes.subarray(at, at + size);
    at += size;
  }
  throw new Error("no code section");
}

const named = readFileSync(NAMED);
if (!codeSection(named).equals(codeSection(readFileSync(SHIPPED))))
  throw new Error(`${NAMED.pathname} does not hold the shipped module's code`);
await init(named);

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 50 });

// What a sample's function is counted as.
function groupOf({ functionName, url }) {
  if (functionName.startsWith("js-to-wasm") || functionName === "")
    return "calls into the module, and V8's builtins";
  if (url.startsWith("wasm://")) return `module: ${functionName}`;
  if (url.endsWith("/library.js") || url.endsWith("/slim.js"))
    return "the library's JS (options, checks, copies in and out)";
  if (functionName === "(garbage collector)") return "garbage collection";
  if (url.endsWith("/profile.js")) return "this benchmark's loop";
  return "other";
}

// Runs fn for `ms` under the profiler; prints µs per call and the shares.
async function profile(title, fn, ms = 2500) {
  const warm = performance.now() + 300;
  while (performance.now() < warm) fn();
  await session.post("Profiler.start");
  let calls = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 16; i++) fn();
    calls += 16;
  }
  const perCall = ((performance.now() - start) * 1000) / calls;
  const { profile: result } = await session.post("Profiler.stop");
  const byId = new Map(result.nodes.map((node) => [node.id, node]));
  const shares = new Map();
  let total = 0;
  for (const id of result.samples) {
    const group = groupOf(byId.get(id).callFrame);
    shares.set(group, (shares.get(group) ?? 0) + 1);
    total++;
  }
  const time = (us) =>
    us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`;
  console.log(`\n${title}: ${time(perCall)} a call, ${total} samples`);
  console.log("| share | per call | where |");
  console.log("|---|---|---|");
  for (const [group, count] of [...shares].sort((a, b) => b[1] - a[1]))
    if (count / total >= 0.005)
      console.log(
        `| ${((100 * count) / total).toFixed(1)}% | ${time((perCall * count) / total)} | ${group} |`,
      );
}

const HEADS = 32;
const DIM = 128;
const x = Float32Array.from(
  { length: HEADS * DIM },
  (_, i) => Math.sin(i) / 64,
);
const plan = createRope({ dim: DIM, ...LLAMA3, heads: HEADS, order: "bshd" });
const inPlace = { inPlace: true };
let p = 1000;
await profile(
  `a decode token through a plan (${HEADS} heads × ${DIM}, llama3, in place)`,
  () => plan.apply(x, (p = (p + 1) & 4095), inPlace),
);

const row = new Float32Array(DIM);
const tablePlan = createTable({ dim: DIM });
const rowCall = { out: row };
await profile(`one table row of ${DIM} through a plan, into out`, () =>
  tablePlan.rows([(p = (p + 1) & 4095)], rowCall),
);

const out = new Float32Array(8192 * 768);
const table8192 = createTable({ dim: 768 });
const tableCall = { start: 0, out };
await profile("table 8192 × 768 from a count, into out", () =>
  table8192.rows(8192, tableCall),
);

const cos = new Float32Array(32768 * 32);
const sin = new Float32Array(32768 * 32);
const cacheOptions = {
  positions: 32768,
  dim: 64,
  ...LLAMA3,
  layout: "half",
  out: { cos, sin },
};
await profile("ropeCache llama3 32768 × 64, half, into out", () =>
  ropeCache(cacheOptions),
);

const rows = new Float32Array(2048 * DIM).fill(0.5);
const oneHead = createRope({ dim: DIM, ...LLAMA3, heads: 1, order: "bshd" });
const rowsCall = { out: rows };
await profile(`rope 2048 tokens × 1 head × ${DIM}, positions 0…2047`, () =>
  oneHead.apply(rows, 0, rowsCall),
);
session.disconnect();
