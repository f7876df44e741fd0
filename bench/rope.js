// ropeCache against filling its output: two fresh typed arrays of the same
// bytes (what any function returning new arrays must pay), and the same
// bytes filled in the module's memory. bench/run.js calls run({ measure,
// report }).
import { init, ropeCache, table } from "../dist/index.js";
import { LLAMA3 } from "./llama3.js";

export async function run({ measure, report }) {
  await init();
  const count = 131072;
  const dim = 128;
  const llama3 = { positions: count, dim, ...LLAMA3 };
  for (const [layout, dtype, Typed] of [
    ["duplicated", "float32", Float32Array],
    ["half", "float32", Float32Array],
    ["interleaved", "float32", Float32Array],
    ["duplicated", "float16", Uint16Array],
    ["duplicated", "float64", Float64Array],
  ]) {
    const length = count * (layout === "half" ? dim / 2 : dim);
    const fresh = measure(
      () => {
        new Typed(length).fill(1);
        new Typed(length).fill(1);
      },
      { runs: 5 },
    );
    // The same bytes in module memory (a float32 table view as the buffer).
    const bytes = 2 * length * Typed.BYTES_PER_ELEMENT;
    const view = table({ positions: bytes / 4 / dim, dim, view: true });
    const inModule = measure(() => view.fill(0.5), { runs: 5 });
    const ms = measure(() => ropeCache({ ...llama3, layout, dtype }), {
      runs: 5,
    });
    report(`ropeCache ${count}×${dim} llama3, ${layout} ${dtype}`, ms, {
      // The target is float32's: float64 seeds every row from an exact
      // sin/cos, and float16 rounds every value from a double.
      "fill of its output (2 fresh arrays)": {
        ms: fresh,
        max: dtype === "float32" ? 2 : undefined,
      },
      "fill of the same bytes in module memory": { ms: inModule },
    });
  }

  // Into reused buffers (no fresh pages), against a table of as many
  // values into a reused out: what the cache costs beyond the table's
  // sin/cos.
  const half = count * (dim / 2);
  const reused = { cos: new Float32Array(half), sin: new Float32Array(half) };
  const tableOut = new Float32Array(count * dim);
  const sameValues = measure(
    () => table({ positions: count, dim, out: tableOut }),
    { runs: 7 },
  );
  report(
    `ropeCache ${count}×${dim} llama3, half float32, into reused buffers`,
    measure(() => ropeCache({ ...llama3, out: reused }), { runs: 7 }),
    {
      "a table of as many values into a reused out": {
        ms: sameValues,
        max: 1.3,
      },
    },
  );

  // M-RoPE (Qwen2-VL's sections): each pair seeded at its stream's position,
  // against the plain cache of the t stream, whose uneven positions are
  // seeded at every row too; both into reused buffers.
  const rows = 16384;
  const t = Float64Array.from({ length: rows }, (_, j) => j + (j % 7) / 8);
  const h = t.map((p, j) => p + (j % 3));
  const w = t.map((p, j) => p + (j % 5));
  const out = {
    cos: new Float32Array(rows * (dim / 2)),
    sin: new Float32Array(rows * (dim / 2)),
  };
  const mrope = { dim, base: 1e6, mropeSection: [16, 24, 24], out };
  const plain = measure(() => ropeCache({ ...mrope, positions: t }), {
    runs: 5,
  });
  const streams = measure(
    () => ropeCache({ ...mrope, positions: { t, h, w } }),
    { runs: 5 },
  );
  report(
    `ropeCache ${rows}×${dim} M-RoPE { t, h, w }, half float32, into reused buffers`,
    streams,
    { "the same cache of one stream's positions": { ms: plain } },
  );
}
