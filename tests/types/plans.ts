// Plans as a TypeScript user writes them: a decode loop's rope plan and a
// table plan's rows, with their results typed; mistakes that must not
// compile are marked.
import {
  createRope,
  createRopeCache,
  createTable,
  type InputErrorFields,
  type RopePlan,
} from "sinusoidal-pe";

const plan: RopePlan = createRope({
  dim: 128,
  base: 500000,
  heads: 32,
  order: "bshd",
});
const q = new Float32Array(32 * 128);
const rotated: Float32Array = plan.apply(q, 10, { inPlace: true });
const half: Uint16Array = plan.apply(new Uint16Array(32 * 128), [10]);
const wide: Float64Array = plan.apply(new Float64Array(32 * 128), 3);
plan.apply(q, BigInt64Array.of(10n));
plan.dispose();

const rows = createTable({ dim: 64 });
const first: Float32Array = rows.rows(4, { start: 100 });
const double = createTable({ dim: 64, dtype: "float64" });
const exact: Float64Array = double.rows([0.5, 2]);

// @ts-expect-error out is given per call, not to the plan
createRope({ dim: 8, out: new Float32Array(8) });
// @ts-expect-error positions are given per call
createTable({ dim: 8, positions: 4 });
// @ts-expect-error a plan call takes only out and inPlace
plan.apply(q, 1, { dim: 16 });

function describe(error: unknown): string {
  const { option, code } = error as InputErrorFields;
  return `${code} ${option}`;
}

export { rotated, half, wide, first, exact, describe };

const caches = createRopeCache({ dim: 128, base: 500000, dtype: "float16" });
const next: Uint16Array = caches.rows([4096]).cos;
const halfOut = { cos: new Uint16Array(64), sin: new Uint16Array(64) };
caches.rows(1, { start: 4097, out: halfOut });
// @ts-expect-error a float16 plan's rows are not a Float32Array
const wrong: Float32Array = caches.rows(1).sin;

export { next, wrong };

// Plan results are backed by plain ArrayBuffers, as the browser's APIs take.
new Blob([rows.rows(4)]);
new Blob([caches.rows(2).cos]);
new Response(createRope({ dim: 8 }).apply(new Float32Array(8), 1));

// int64 position ids, as ONNX Runtime holds them.
import { rope, ropeCache, table } from "sinusoidal-pe";
const ids = BigInt64Array.of(0n, 1n);
table({ positions: ids, dim: 8 });
ropeCache({ positions: ids, dim: 8 });
rope(new Float32Array(16), ids, { dim: 8 });

// A plan ends with its scope: `using` calls its Symbol.dispose, typed for a
// consumer whose lib predates it.
function decodeStep(x: Float32Array): Float32Array {
  using step = createRope({ dim: 8 });
  using cosSin = createRopeCache({ dim: 8 });
  using tableRows = createTable({ dim: 8 });
  cosSin.rows(1);
  tableRows.rows(1);
  return step.apply(x, 1);
}
const disposable: Disposable = createTable({ dim: 8, dtype: "float64" });
// @ts-expect-error a plan's dispose takes no arguments
disposable[Symbol.dispose](true);

export { decodeStep };
