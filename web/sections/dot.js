// Relative position and the dot product: g(k) = <PE(p), PE(p+k)> from the
// library's exact finite-d sum, the Gram matrix of a block of the table and
// the library's check that this matrix is Toeplitz.
import {
  GRAM_MAX,
  gramSize,
  offsetGrid,
  plainRows,
  toeplitzTolerance,
} from "../parts/dot-gram.js";
import { rowProducts } from "../parts/row-products.js";
import { showSquareMatrix } from "../parts/square-matrix.js";
import {
  chartBox,
  displayFormula,
  heading,
  paragraph,
  resultRow,
  scientific,
  setText,
} from "../parts/section-parts.js";
import { inWords } from "../parts/library-error.js";

export const id = "dot";

/** The papers the section's claims come from (sources.js). */
export const cites = ["vaswani2017", "su2021"];

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["preset", "dim", "positions", "base", "start"],
  attributes: {},
};

export const strings = {
  en: {
    title: "Relative position and the dot product",
    lead: "Multiply the encodings of two positions m and n component by component and add up. Each (sin, cos) pair contributes sin(mω)·sin(nω) + cos(mω)·cos(nω), which is cos((m − n)·ω): the dot product depends on the distance m − n only, never on where the two positions are. A model that compares positions through dot products, as attention does, can therefore read off relative distance.",
    chartText:
      "g(k) for every offset k that occurs in the current table, computed as the exact finite sum over every (sin, cos) pair (h = {h}). At k = 0 every pair contributes cos 0 = 1, so g(0) = {g0} (h, times the square of the output scale when a preset scales its values). {shape}",
    shapeMany:
      "The curve is symmetric in k and falls off with oscillations as the fast and slow frequencies drift out of phase.",
    shapeFew:
      "With so few pairs, g is a sum of {h} cosines that never drift far apart: it oscillates without falling off. The decay needs many frequencies.",
    shapeOne:
      "With a single pair, g is one cosine, cos(k·ω₀): it oscillates without falling off. The decay needs many frequencies.",
    xLabel: "offset k",
    yLabel: "⟨PE(p), PE(p + k)⟩",
    series: "g(k), exact finite sum",
    chartTextSampled:
      "g(k) at the offsets k = 0, ±{step}, ±2·{step}, … up to ±{reach} (the current table has more offsets than the chart has room for), computed as the exact finite sum over every (sin, cos) pair (h = {h}). At k = 0 every pair contributes cos 0 = 1, so g(0) = {g0} (h, times the square of the output scale when a preset scales its values). {shape}",
    gramText:
      "The Gram matrix ⟨PE(m), PE(n)⟩ for positions {from} … {to} under the current frequencies, computed here as the product of that block of the table with its transpose.",
    gramToeplitz:
      "Every diagonal, where m − n is fixed, holds a single value: the matrix is Toeplitz.",
    gramNotToeplitz:
      "Its diagonals, where m − n is fixed, do not each hold a single value: see the check below.",
    gramNote:
      "The Gram block holds {n} positions at dim {dim}, fewer than {max}, to keep redraws fast.",
    gramLabel: "Gram matrix ⟨PE(m), PE(n)⟩ of a block of positions",
    rowLabel: "position m",
    colLabel: "position n",
    toeplitz: "Checked over the same block: max |⟨PE(m), PE(n)⟩ − g(m − n)| =",
    hood: "g(k) comes from the library's dotProducts, the exact finite sum in double precision; the check is its toeplitzError over the same block of the table, allowed the float64 rounding of h products.",
    tolerance: "tolerance {tolerance} (float64 rounding of the products)",
    pass: "the Gram matrix depends on m − n only",
    fail: "the Gram matrix depends on more than m − n",
    why: "How small is small enough",
    oddExtra:
      "With an odd dim and an extra sin column, that column has no cos partner: it adds sin(mω)·sin(nω), which depends on m and n themselves, so the Gram matrix is not exactly Toeplitz. Choose an even dim to see the property hold.",
    error: "The dot products cannot be computed for these options: {message}",
  },
  zh: {
    title: "相对位置与点积",
    lead: "把位置 m 和 n 的编码逐分量相乘再相加。每一对 (sin, cos) 贡献 sin(mω)·sin(nω) + cos(mω)·cos(nω)，也就是 cos((m − n)·ω)：点积只取决于两者的距离 m − n，与它们各自在哪个位置无关。注意力正是通过点积比较位置的，所以模型可以从中读出相对距离。",
    chartText:
      "当前表格中出现的每个偏移 k 上的 g(k)，对 h = {h} 个频率对精确求和得到。k = 0 时每一对都贡献 cos 0 = 1，所以 g(0) = {g0}（即 h；若预设对数值做了缩放，还要乘以缩放系数的平方）。{shape}",
    shapeMany:
      "曲线关于 k 对称，随着快慢不同的频率逐渐错开相位，一边振荡一边衰减。",
    shapeFew:
      "维度对这么少时，g 只是 {h} 个余弦之和，它们不会彼此错开太远：曲线只振荡，不衰减。衰减需要许多频率。",
    shapeOne:
      "只有一对时，g 就是一个余弦 cos(k·ω₀)：曲线只振荡，不衰减。衰减需要许多频率。",
    xLabel: "偏移 k",
    yLabel: "⟨PE(p), PE(p + k)⟩",
    series: "g(k)，精确的有限项求和",
    chartTextSampled:
      "在偏移 k = 0, ±{step}, ±2·{step}, … 直到 ±{reach} 处的 g(k)（当前表格中的偏移比图表能容纳的多），对 h = {h} 个频率对精确求和得到。k = 0 时每一对都贡献 cos 0 = 1，所以 g(0) = {g0}（即 h；若预设对数值做了缩放，还要乘以缩放系数的平方）。{shape}",
    gramText:
      "当前频率下位置 {from} … {to} 的 Gram 矩阵 ⟨PE(m), PE(n)⟩，这里由表格的这一块与其转置相乘得到。",
    gramToeplitz:
      "每条对角线上 m − n 固定，数值完全相同：这是一个 Toeplitz 矩阵。",
    gramNotToeplitz:
      "它的对角线上（m − n 固定）数值并不完全相同：见下面的检验。",
    gramNote:
      "维度为 {dim} 时，Gram 块只取 {n} 个位置（少于 {max}），以保证重绘流畅。",
    gramLabel: "一段位置上的 Gram 矩阵 ⟨PE(m), PE(n)⟩",
    rowLabel: "位置 m",
    colLabel: "位置 n",
    toeplitz: "在同一块上检验：max |⟨PE(m), PE(n)⟩ − g(m − n)| =",
    hood: "g(k) 来自库函数 dotProducts，即双精度的精确有限和；检验用的是库函数 toeplitzError，作用于表格的同一块，容差为 h 个乘积的 float64 舍入。",
    tolerance: "容差 {tolerance}（各乘积的 float64 舍入）",
    pass: "Gram 矩阵只取决于 m − n",
    fail: "Gram 矩阵不只取决于 m − n",
    why: "多小才算足够小",
    oddExtra:
      "维度为奇数且多出一个 sin 列时，这一列没有配对的 cos：它贡献 sin(mω)·sin(nω)，取决于 m 和 n 本身，因此 Gram 矩阵不再严格是 Toeplitz 的。换成偶数维度，即可看到性质重新成立。",
    error: "这些选项下无法计算点积：{message}",
  },
};

export const formulas = {
  pair: [
    String.raw`\sin(m\omega_i)\sin(n\omega_i) + \cos(m\omega_i)\cos(n\omega_i)`,
    String.raw`= \cos\big((m-n)\,\omega_i\big)`,
  ],
  g: String.raw`\displaystyle g(k) = \langle \PE(p), \PE(p+k) \rangle = \sum_{i=0}^{h-1} \cos(k\,\omega_i)`,
  gram: String.raw`\langle \PE(m), \PE(n) \rangle = g(m-n)`,
};

export function mount(root, app) {
  const lib = app.lib;
  heading(root, app);
  root.append(
    ...Object.values(formulas).map((tex) => displayFormula(app, tex)),
  );

  const chartText = paragraph("");
  const lineBox = chartBox();
  root.append(chartText, lineBox);
  const chart = app.lineChart(lineBox, {
    testid: "dot-chart",
    xLabel: app.t("xLabel"),
    yLabel: app.t("yLabel"),
    series: [{ label: app.t("series") }],
  });
  app.exportable(lineBox, chart.canvas, "dot-products");

  const gramText = paragraph("");
  const gramBox = chartBox("chart sec-square");
  root.append(gramText, gramBox);
  const heatmap = app.heatmap(gramBox, { label: app.t("gramLabel") });
  app.exportable(gramBox, heatmap.canvas, "gram-matrix");

  const result = resultRow(app.t("toeplitz"), {
    testid: "toeplitz-max-error",
    why: app.t("why"),
  });
  const oddText = paragraph(app.t("oddExtra"), "sec-text sec-warning");
  const message = paragraph("", "sec-text sec-warning");
  root.append(result.node, oddText, message);

  let shown = "";
  return {
    // In steps: g(k) over a few hundred offsets at a time, then the Gram
    // block and its check. The drawing counts as shown once every step ran.
    *update(state) {
      const n = gramSize(state.dim);
      const start = state.start ?? 0;
      const key = JSON.stringify([state.options, state.schedule, n]);
      if (key === shown) return;
      try {
        yield* draw(state, n, start);
        message.hidden = true;
      } catch (error) {
        message.textContent = app.t("error", {
          message: inWords(error, app.lang),
        });
        message.hidden = false;
      }
      shown = key;
    },
  };

  function* draw(state, n, start) {
    const grid = offsetGrid(state.positions);
    const { step } = grid;
    const ks = new Float64Array(grid.count);
    for (let j = 0; j < grid.count; j++) ks[j] = grid.from + j * step;
    // g at every offset costs offsets × pairs cosines: a block of offsets
    // per step keeps each step to about 2^17 of them.
    const h = Math.floor(state.dim / 2);
    const perStep = Math.max(16, Math.floor(2 ** 17 / Math.max(1, h)));
    const g = new Float64Array(grid.count);
    for (let first = 0; first < grid.count; first += perStep) {
      const count = Math.min(perStep, grid.count - first);
      g.set(
        lib.dotProducts({
          ...state.schedule,
          offsets: ks.subarray(first, first + count),
        }),
        first,
      );
      if (first + count < grid.count) yield;
    }
    const g0 = g[(grid.count - 1) / 2];
    chart.set(ks, [g]);
    setText(
      chartText,
      app.t(step === 1 ? "chartText" : "chartTextSampled", {
        h,
        step,
        reach: grid.to,
        g0: Number(g0.toPrecision(6)),
        shape: app.t(h === 1 ? "shapeOne" : h <= 3 ? "shapeFew" : "shapeMany", {
          h,
        }),
      }),
    );

    // Rows sin, cos of p·ω_i at the block's positions, for the schedule's ω_i:
    // the heatmap and the module's check see the same rows (a preset's
    // position offsets and padding rows play no part).
    yield;
    const rows = plainRows(state.frequencies(), state.dim);
    // Evenly spaced rows (a count and a start) let the check compare with g
    // at the 2n − 1 differences only.
    const block = { ...rows, positions: n, start };
    const values = lib.table({ ...block, dtype: "float64" });
    const dim = state.dim;
    const gram = rowProducts(values, values, n, dim);
    showSquareMatrix(heatmap, gram, n, start, {
      row: app.t("rowLabel"),
      col: app.t("colLabel"),
    });

    const capped = n < GRAM_MAX;
    app.note(root, capped ? app.t("gramNote", { n, dim, max: GRAM_MAX }) : "");

    const check = lib.toeplitzError(block);
    const limit = toeplitzTolerance(Math.floor(dim / 2));
    const pass = check.maxAbsError <= limit;
    result.show({
      value: check.maxAbsError,
      text: scientific(check.maxAbsError),
      pass,
      label: app.t(pass ? "pass" : "fail"),
      tolerance: app.t("tolerance", {
        tolerance: scientific(limit),
        h: Math.floor(dim / 2),
      }),
    });
    oddText.hidden = pass || dim % 2 === 0;
    setText(
      gramText,
      `${app.t("gramText", { from: start, to: start + n - 1 })} ${app.t(
        pass ? "gramToeplitz" : "gramNotToeplitz",
      )}`,
    );
  }
}
