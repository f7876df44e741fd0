// The source files whose functions run during one call: what a reader
// tracing the call from the entry to the kernel passes through. Node's
// precise coverage counts calls per function; the counters are reset just
// before the call and read just after it. Prints one JSON line:
// { case: [file, ...] } for a RoPE call on each model config named in argv.
import { register } from "node:module";
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

register("./source-hooks.js", import.meta.url);
const source = new URL("../../src/", import.meta.url).href;
const pe = await import(new URL("index.js", source).href);
await pe.init();

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", {
  callCount: true,
  detailed: false,
});

// The files of src/ with a function (not a module's top level) that ran.
async function filesRunBy(call) {
  await session.post("Profiler.takePreciseCoverage");
  call();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  return result
    .filter(
      ({ url, functions }) =>
        url.startsWith(source) &&
        functions.some((f) => f.functionName !== "" && f.ranges[0].count > 0),
    )
    .map(({ url }) => url.slice(source.length))
    .sort();
}

const traces = {};
for (const name of process.argv.slice(2)) {
  const config = JSON.parse(
    readFileSync(new URL(`../vectors/configs/${name}`, import.meta.url)),
  );
  const options = pe.fromConfig(config);
  const heads = 4;
  const order = "bshd";
  const step = new Float32Array(heads * options.dim).fill(0.5);
  const prefill = new Float32Array(16 * heads * options.dim).fill(0.5);
  const positions = Int32Array.from({ length: 16 }, (_, i) => i);
  const all = { ...options, heads, order };
  traces[`${name}: rope, one token`] = await filesRunBy(() =>
    pe.rope(step, 7, all),
  );
  traces[`${name}: rope, 16 tokens`] = await filesRunBy(() =>
    pe.rope(prefill, positions, all),
  );
  const plan = pe.createRope(all);
  traces[`${name}: plan.apply, one token`] = await filesRunBy(() =>
    plan.apply(step, 7, { inPlace: true }),
  );
  plan.dispose();
  const { dim, rotaryDim, base, scaling } = options;
  const rows = pe.createTable({ dim, base, scaling, dtype: "float64" });
  const row = new Float64Array(dim);
  traces[`${name}: table plan.rows, one row`] = await filesRunBy(() =>
    rows.rows(1, { start: 7, out: row }),
  );
  const cache = pe.createRopeCache({ dim, rotaryDim, base, scaling });
  traces[`${name}: cache plan.rows, one row`] = await filesRunBy(() =>
    cache.rows(1, { start: 7 }),
  );
}
console.log(JSON.stringify(traces));
