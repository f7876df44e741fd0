// Benchmarks of the decay integral's closed forms against Math.sin on the
// same points, timed in the same process by bench/run.js.
import { decayIntegral } from "../dist/index.js";

export async function run({ measure, report }) {
  const count = 1e5;
  const x = Float64Array.from({ length: count }, (_, j) => j * 0.37 + 0.01);
  const sines = new Float64Array(count);
  const sin = {
    ms: measure(() => {
      for (let j = 0; j < count; j++) sines[j] = Math.sin(x[j]);
      return sines;
    }),
  };
  for (const [name, options, max] of [
    ["exp, base 10000", { theta: "exp", base: 10000 }, 10],
    ["exp, base 1.0001", { theta: "exp", base: 1.0001 }, 10],
    ["power, alpha 0.5", { theta: "power", alpha: 0.5 }, 20],
    ["power, alpha 2", { theta: "power", alpha: 2 }, 20],
  ])
    report(
      `decayIntegral ${name}, 1e5 points in [0, 37000]`,
      measure(() => decayIntegral({ ...options, x })),
      { "Math.sin": { ...sin, max } },
    );
}
