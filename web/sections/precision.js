// Precision: the float32 angle that typical framework code forms, against
// the library's float32 table, over positions 1 … 10^6, with the library's
// stated error bound.
import {
  BANDS_PER_DECADE,
  bandErrors,
  DECADES,
  MODULE_BOUND,
  positionBands,
  REFERENCE_ERROR,
  rowsPerBand,
} from "../parts/precision-errors.js";
import {
  chartBox,
  displayFormula,
  element,
  heading,
  paragraph,
  scientific,
  setText,
} from "../parts/section-parts.js";
import { inWords } from "../parts/library-error.js";

export const id = "precision";

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["preset", "dim", "base"],
  attributes: {},
};

export const strings = {
  en: {
    title: "Precision at large positions",
    lead: "Most framework code builds the table the direct way: positions and frequencies as float32 tensors, their product p·ωᵢ in float32, then sin and cos. Rounding the product to float32 moves the angle by up to about p·ωᵢ·10⁻⁷, and sin and cos pass that error straight on, so the error grows in proportion to the position. Forming p·ωᵢ in double precision and rounding only the final value to float32 keeps the error within one float32 rounding of the value (about 6·10⁻⁸) at every position; this page's tables are made that way.",
    methodText:
      "For each band of positions, the largest error over {positions} in the band and all {pairs} pairs of the current schedule. Float32 angle: ωᵢ and p·ωᵢ rounded to float32, then sin and cos rounded to float32, as a float32 framework computes them. Rounded once: this page's float32 table. The reference for both is the sine and cosine of the angle p·ωᵢ in double precision; its own error, at most about 10⁻¹⁰ at p = 10⁶, is far below both curves.",
    summary:
      "Near position {position}, the float32 angle is off by {naive}; rounded once, the largest error anywhere on the chart is {module}, within one float32 rounding of the value ({bound}).",
    summaryOver:
      "Near position {position}, the float32 angle is off by {naive}; rounded once, the largest error on the chart is {module}, more than one float32 rounding of the value ({bound}).",
    xLabel: "position p",
    yLabel: "largest |error|",
    naive: "float32 angle (framework code)",
    module: "angle in double, rounded once (float32)",
    bound: "one float32 rounding of a value below 1: 2⁻²⁴ ≈ 6·10⁻⁸",
    capped:
      "At dim {dim}, each band is measured at {positions}, to keep redraws fast.",
    onePosition: "1 position",
    manyPositions: "{rows} positions",
    hood: "The float32 table is the library's table() with dtype float32. The framework's way is reproduced with Math.fround on ωᵢ and on p·ωᵢ, then Math.sin and Math.cos rounded with Math.fround. Both are measured against Math.sin and Math.cos of the double-precision angle with the library's ωᵢ. The library's float32 values are correctly rounded: each is the float32 nearest the exact value, within half a unit in the last place (ulp), at most 2⁻²⁵ for a value below 1 (except within a millionth of an ulp of a tie between two floats). The chart checks the looser 2⁻²⁴, which leaves room for the error of its double-precision reference.",
    error: "The errors cannot be measured for these options: {message}",
  },
  zh: {
    title: "大位置处的精度",
    lead: "大多数框架代码用最直接的方法生成表格：位置和频率都是 float32 张量，乘积 p·ωᵢ 也用 float32 计算，然后取 sin 和 cos。把乘积舍入到 float32 会让角度偏移多达约 p·ωᵢ·10⁻⁷，sin 和 cos 会原样继承这个误差，所以误差与位置成正比地增长。若用双精度计算 p·ωᵢ，只在最后把结果舍入到 float32，那么在任何位置，误差都不超过该值的一次 float32 舍入（约 6·10⁻⁸）；本页的表格就是这样算出来的。",
    methodText:
      "在每个位置区间内，取区间中 {positions}、当前频率设置下全部 {pairs} 个频率对上的最大误差。float32 角度：把 ωᵢ 和 p·ωᵢ 舍入到 float32，再把 sin 和 cos 的结果舍入到 float32，与 float32 框架的算法相同。只舍入一次：本页的 float32 表格。两者的参考值都是双精度角度 p·ωᵢ 的正弦和余弦；参考值自身的误差在 p = 10⁶ 时也不超过约 10⁻¹⁰，远低于两条曲线。",
    summary:
      "在位置 {position} 附近，float32 角度的误差达到 {naive}；只舍入一次时，整幅图上的最大误差为 {module}，不超过该值的一次 float32 舍入（{bound}）。",
    summaryOver:
      "在位置 {position} 附近，float32 角度的误差达到 {naive}；只舍入一次时，图上的最大误差为 {module}，超过了该值的一次 float32 舍入（{bound}）。",
    xLabel: "位置 p",
    yLabel: "最大 |误差|",
    naive: "float32 角度（框架代码）",
    module: "双精度角度，只舍入一次（float32）",
    bound: "小于 1 的值的一次 float32 舍入：2⁻²⁴ ≈ 6·10⁻⁸",
    capped: "维度为 {dim} 时，每个区间只测量 {positions}，以保证重绘流畅。",
    onePosition: "1 个位置",
    manyPositions: "{rows} 个位置",
    hood: "float32 表格来自库函数 table()，dtype 为 float32。框架的算法用 Math.fround 复现：先舍入 ωᵢ 和 p·ωᵢ，再用 Math.fround 舍入 Math.sin 和 Math.cos 的结果。两者都与双精度角度（使用库给出的 ωᵢ）的 Math.sin、Math.cos 比较。库给出的 float32 值是正确舍入的：每个值都是离精确值最近的 float32，误差不超过最后一位单位（ulp）的一半，对小于 1 的值至多 2⁻²⁵（只有离两个浮点数正中间不到百万分之一 ulp 的值除外）。图表检查的是更宽的 2⁻²⁴，为它的双精度参考值自身的误差留出余地。",
    error: "这些选项下无法测量误差：{message}",
  },
};

export const formulas = {
  naive: String.raw`\tilde{a} = \mathrm{fl}_{32}\big(\mathrm{fl}_{32}(p)\cdot \mathrm{fl}_{32}(\omega_i)\big),`,
  naiveBound: String.raw`|\tilde{a} - p\,\omega_i| \lesssim 2^{-23}\, p\,\omega_i`,
  module: String.raw`\PE(p, 2i) = \mathrm{fl}_{32}\big(\sin(p\,\omega_i)\big),`,
  moduleBound: String.raw`|\mathrm{error}| \le \tfrac{1}{2}\,\mathrm{ulp}_{32}(\PE) < 2^{-24}`,
};

export function mount(root, app) {
  const lib = app.lib;
  heading(root, app);
  // Each formula beside its bound, or below it where the page is narrow.
  root.append(
    ...[
      [formulas.naive, formulas.naiveBound],
      [formulas.module, formulas.moduleBound],
    ].map((pair) =>
      element(
        "div",
        { className: "sec-formula-pair" },
        pair.map((tex) => displayFormula(app, tex)),
      ),
    ),
  );
  const countPositions = (rows) =>
    app.t(rows === 1 ? "onePosition" : "manyPositions", { rows });
  const methodText = paragraph("");
  const box = chartBox();
  const summary = element("p", { className: "result" });
  const message = paragraph("", "sec-text sec-warning");
  root.append(methodText, box, summary, message);
  const chart = app.lineChart(box, {
    testid: "precision-chart",
    xLabel: app.t("xLabel"),
    yLabel: app.t("yLabel"),
    logX: true,
    logY: true,
    series: [
      { label: app.t("naive") },
      { label: app.t("module") },
      { label: app.t("bound"), dash: [6, 4] },
    ],
  });
  app.exportable(box, chart.canvas, "precision");

  let shown = "";
  // The positions depend on the number of pairs only, not on the base.
  let bands = {};
  const bound = new Float64Array(DECADES * BANDS_PER_DECADE).fill(MODULE_BOUND);
  return {
    // In steps of one decade of positions; shown once every step ran.
    *update(state) {
      const key = JSON.stringify(state.schedule);
      if (key === shown) return;
      try {
        yield* draw(state);
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

  function* draw(state) {
    // The schedule's frequencies, applied as plain p·ω_i: presets' position
    // offsets and output scales play no part in the rounding shown here.
    const omega = state.frequencies();
    const rows = rowsPerBand(omega.length);
    if (bands.rows !== rows) bands = { rows, ...positionBands(rows) };
    const { centres, positions } = bands;
    const moduleTable = lib.table({
      dim: 2 * omega.length,
      frequencies: omega,
      positions,
    });
    const bandCount = DECADES * BANDS_PER_DECADE;
    const naive = new Float64Array(bandCount);
    const module = new Float64Array(bandCount);
    for (let first = 0; first < bandCount; first += BANDS_PER_DECADE) {
      if (first > 0) yield;
      const [from, to] = [first * rows, (first + BANDS_PER_DECADE) * rows];
      const errors = bandErrors(
        omega,
        positions.subarray(from, to),
        rows,
        moduleTable.subarray(from * 2 * omega.length, to * 2 * omega.length),
      );
      naive.set(errors.naive, first);
      module.set(errors.module, first);
    }
    chart.set(centres, [naive, module, bound]);
    setText(
      methodText,
      app.t("methodText", {
        positions: countPositions(rows),
        pairs: omega.length,
      }),
    );
    const worst = module.reduce((a, b) => Math.max(a, b));
    setText(
      summary,
      app.t(
        worst <= MODULE_BOUND + REFERENCE_ERROR ? "summary" : "summaryOver",
        {
          position: scientific(centres[centres.length - 1]),
          naive: scientific(naive[naive.length - 1]),
          module: scientific(worst),
          bound: scientific(MODULE_BOUND),
        },
      ),
    );
    summary.dataset.naive = String(naive[naive.length - 1]);
    summary.dataset.module = String(worst);
    const capped = rows < 2;
    app.note(
      root,
      capped
        ? app.t("capped", {
            dim: state.dim,
            positions: countPositions(rows),
          })
        : "",
    );
  }
}
