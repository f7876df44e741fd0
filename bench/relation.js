// Benchmarks of rotate, rope and dotProducts against baselines timed in the
// same process: copying the same bytes, or a plain JS loop. bench/run.js
// calls run({ measure, report }).
import { dotProducts, frequencies, init, rope, rotate } from "../dist/index.js";
import { LLAMA3 } from "./llama3.js";

export async function run({ measure, report }) {
  await init();

  const rows = 4096;
  const dim = 4096;
  const x = new Float32Array(rows * dim);
  for (let i = 0; i < x.length; i++) x[i] = Math.sin(i);
  const even = Float64Array.from({ length: rows }, (_, j) => j);
  const scattered = Float64Array.from(
    { length: rows },
    (_, j) => (j * 7919) % 100003,
  );
  const copy = { ms: measure(() => x.slice(), { runs: 9 }), max: 3 };
  const target = new Float32Array(x.length);
  const memcpy = { ms: measure(() => target.set(x), { runs: 9 }) };
  for (const [name, fn] of [
    ["rope halves, positions 0…4095", () => rope(x, even, { dim })],
    [
      "rope interleaved, positions 0…4095",
      () => rope(x, even, { dim, pairing: "interleaved" }),
    ],
    [
      "rope in place, positions 0…4095",
      () => rope(x, even, { dim, inPlace: true }),
    ],
    [
      "rope into a reused out, positions 0…4095",
      () => rope(x, even, { dim, out: target }),
    ],
    ["rope halves, scattered positions", () => rope(x, scattered, { dim })],
    [
      "rotate halves, offsets 0…4095",
      () => rotate(x, even, { dim, layout: "halves" }),
    ],
    ["rotate interleaved, one offset", () => rotate(x, 12.5, { dim })],
  ])
    report(`${name}, 4096×4096 float32`, measure(fn, { runs: 7 }), {
      "copy (x.slice())": copy,
      "copy into an existing array": memcpy,
    });

  // An attention tensor: 32 heads × 2048 tokens × head dim 128 with the
  // llama3 schedule, in place into the same array (no fresh pages), in each
  // order and as contiguous rows with one position per row.
  const [heads, seq, headDim] = [32, 2048, 128];
  const tensor = x.subarray(0, heads * seq * headDim);
  const perRow = Float64Array.from({ length: heads * seq }, (_, r) => r % seq);
  const contiguous = measure(
    () => rope(tensor, perRow, { dim: headDim, ...LLAMA3, out: tensor }),
    { runs: 9 },
  );
  const oneRowEach = { ms: contiguous, max: 1.3 };
  const orders = {};
  for (const order of ["bhsd", "bshd"]) {
    orders[order] = measure(
      () =>
        rope(tensor, 0, {
          dim: headDim,
          heads,
          order,
          ...LLAMA3,
          out: tensor,
        }),
      { runs: 9 },
    );
    report(
      `rope ${order} tensor 32 heads × 2048 × 128, llama3, in place`,
      orders[order],
      {
        "contiguous rows, one position per row": oneRowEach,
        ...(order === "bshd" && {
          "the same tensor in bhsd": { ms: orders.bhsd, max: 1.3 },
        }),
      },
    );
  }
  // M-RoPE (Qwen2-VL's sections) on the same tensor: image tokens whose
  // t, h and w differ, each pair at its own stream's position, against the
  // plain rotation at uneven positions (both seed every token).
  const t = Float64Array.from({ length: seq }, (_, s) => s + (s % 7) / 8);
  const streams = {
    t,
    h: t.map((p, s) => p + (s % 3)),
    w: t.map((p, s) => p + (s % 5)),
  };
  const qwen = { dim: headDim, base: 1e6, heads, order: "bshd", out: tensor };
  report(
    "rope bshd tensor 32 heads × 2048 × 128, M-RoPE { t, h, w }, in place",
    measure(
      () => rope(tensor, streams, { ...qwen, mropeSection: [16, 24, 24] }),
      {
        runs: 9,
      },
    ),
    {
      "plain RoPE at the t positions": {
        ms: measure(() => rope(tensor, t, qwen), { runs: 9 }),
      },
    },
  );

  const d = 768;
  const count = 1e5;
  const offsets = Float64Array.from({ length: count }, (_, k) => k);
  const spread = Float64Array.from(
    { length: count },
    (_, j) => (j * 7919) % 100003,
  );
  const w = frequencies({ dim: d });
  const plain = {
    ms: measure(
      () => {
        const g = new Float64Array(count);
        for (let j = 0; j < count; j++) {
          let s = 0;
          for (let i = 0; i < w.length; i++) s += Math.cos(offsets[j] * w[i]);
          g[j] = s;
        }
        return g;
      },
      { runs: 3 },
    ),
    max: 1 / 30,
  };
  // The 30× target is for integer offsets, where a recurrence replaces the
  // cosines; scattered offsets need one cosine per term, as the loop does.
  for (const [name, fn, baseline] of [
    ["integer offsets (array)", () => dotProducts({ dim: d, offsets }), plain],
    [
      "integer offsets ({ from, to, count })",
      () => dotProducts({ dim: d, offsets: { from: 0, to: count - 1, count } }),
      plain,
    ],
    [
      "scattered offsets",
      () => dotProducts({ dim: d, offsets: spread }),
      { ms: plain.ms },
    ],
  ])
    report(`dotProducts, 1e5 ${name}, d = 768`, measure(fn, { runs: 5 }), {
      "JS loop": baseline,
    });
}
