// The table itself: a heatmap of every position and dimension, the formula
// of the chosen layout and schedule, the period of every pair, and the table
// as CSV or .npy.
import { fileName, saveCsv, saveNpy } from "../export.js";
import { optionsAt } from "../state.js";
import { button, setText } from "../dom.js";
import { heading } from "../parts/section-parts.js";

export const id = "table";

/** The papers the section's claims come from (sources.js). */
export const cites = ["vaswani2017"];

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["preset", "dim", "positions", "base", "layout", "start"],
  attributes: {},
};

export const strings = {
  en: {
    title: "The table",
    lead: "Row p of the table is the encoding of position p; its columns hold sines and cosines of the angles p·ωᵢ, one frequency ωᵢ per (sin, cos) pair. The first pairs turn fast and change from row to row; the last ones turn so slowly that they barely move over thousands of positions. Together they give every position a distinct pattern, the way the hands of a clock with many dials do. In the formulas, d is the dimension (the number of columns), h = ⌊d/2⌋ the number of pairs, i = 0 … h − 1 a pair's index, and b the base, 10000 in the paper.",
    heatmapLabel:
      "Heatmap of the encoding table: positions down, dimensions across",
    position: "position p",
    dimension: "dimension j",
    readout:
      "position {p} · dimension {j} ({kind} of pair {i}) · value {value} · ωᵢ = {omega}",
    readoutExtra:
      "position {p} · dimension {j} ({kind} of pair {i}, which has no partner column) · value {value} · ωᵢ = {omega}",
    readoutPadding:
      "position {p} · dimension {j} (a padding column, always 0) · value {value}",
    downsampled:
      "{rows} × {cols} values shown on {w} × {h} pixels: each pixel is the average of the cells it covers.",
    periodsTitle: "The period 2π/ωᵢ of every pair",
    periodsText:
      "From 2π for the first pair to nearly 2π·base for the last: a geometric series, a straight line on the log scale.",
    pair: "pair i",
    period: "period 2π/ωᵢ",
    periods: "period",
    csv: "Table as CSV",
    npy: "Table as .npy",
    tooBigForCsv:
      "The table has {cells} values, too many for a CSV file in a browser ({max} at most); the .npy file holds it.",
  },
  zh: {
    title: "编码表",
    lead: "表中的第 p 行就是位置 p 的编码；各列是角度 p·ωᵢ 的正弦和余弦，每一对 (sin, cos) 对应一个频率 ωᵢ。前几对转得很快，每一行都不同；最后几对转得极慢，上千个位置也几乎不动。它们合在一起，让每个位置都有独一无二的图案，就像一只有许多表盘的钟。公式中 d 是维度（列数），h = ⌊d/2⌋ 是对数，i = 0 … h − 1 是每一对的编号，b 是底数，论文中为 10000。",
    heatmapLabel: "编码表热力图：纵向为位置，横向为维度",
    position: "位置 p",
    dimension: "维度 j",
    readout:
      "位置 {p} · 维度 {j}（第 {i} 对的 {kind}）· 值 {value} · ωᵢ = {omega}",
    readoutExtra:
      "位置 {p} · 维度 {j}（第 {i} 对的 {kind}，这一对没有配对的列）· 值 {value} · ωᵢ = {omega}",
    readoutPadding: "位置 {p} · 维度 {j}（补零的列，恒为 0）· 值 {value}",
    downsampled:
      "{rows} × {cols} 个数值显示在 {w} × {h} 个像素上：每个像素是它覆盖的单元格的平均值。",
    periodsTitle: "每一对的周期 2π/ωᵢ",
    periodsText:
      "从第一对的 2π 到最后一对接近 2π·底数：一个等比数列，在对数坐标下是一条直线。",
    pair: "频率对 i",
    period: "周期 2π/ωᵢ",
    periods: "周期",
    csv: "下载表格 CSV",
    npy: "下载表格 .npy",
    tooBigForCsv:
      "表格有 {cells} 个数值，在浏览器里生成 CSV 太多了（最多 {max} 个）；.npy 文件可以保存它。",
  },
};

const LAYOUT_FORMULAS = {
  interleaved: [
    String.raw`\PE(p, 2i) = \sin(p\,\omega_i),`,
    String.raw`\PE(p, 2i+1) = \cos(p\,\omega_i)`,
  ],
  "interleaved-cos-first": [
    String.raw`\PE(p, 2i) = \cos(p\,\omega_i),`,
    String.raw`\PE(p, 2i+1) = \sin(p\,\omega_i)`,
  ],
  halves: [
    String.raw`\PE(p, i) = \sin(p\,\omega_i),`,
    String.raw`\PE(p, h+i) = \cos(p\,\omega_i),`,
    String.raw`h = \lfloor d/2 \rfloor`,
  ],
  "halves-cos-first": [
    String.raw`\PE(p, i) = \cos(p\,\omega_i),`,
    String.raw`\PE(p, h+i) = \sin(p\,\omega_i),`,
    String.raw`h = \lfloor d/2 \rfloor`,
  ],
};

// The frequencies as each preset's source code writes them (b: the base).
const SCHEDULE_FORMULAS = {
  custom: String.raw`\omega_i = b^{-2i/d}, \quad i = 0, \dots, h-1`,
  paper: String.raw`\omega_i = b^{-2i/d}, \quad i = 0, \dots, h-1`,
  tensor2tensor: String.raw`\omega_i = \exp\!\Big(-\frac{i \ln b}{\max(h-1,\,1)}\Big)`,
  fairseq: String.raw`\omega_i = \exp\!\Big(-\frac{i \ln 10000}{h-1}\Big)`,
  whisper: String.raw`\omega_i = \exp\!\Big(-\frac{i \ln b}{h-1}\Big)`,
  diffusers: String.raw`\omega_i = \exp\!\Big(-\frac{i \ln b}{h-1}\Big)`,
  "guided-diffusion": String.raw`\omega_i = \exp\!\Big(-\frac{i \ln b}{h}\Big)`,
  marian: String.raw`\omega_i = 10000^{-2i/d}`,
  mlx: String.raw`\omega_i = 10^{-4 i/(h-1)}, \quad \text{values} \times \sqrt{2/d}`,
};

export const formulas = {
  ...Object.fromEntries(
    Object.entries(LAYOUT_FORMULAS).map(([k, v]) => [`layout-${k}`, v]),
  ),
  ...Object.fromEntries(
    Object.entries(SCHEDULE_FORMULAS).map(([k, v]) => [`schedule-${k}`, v]),
  ),
  period: String.raw`T_i = \frac{2\pi}{\omega_i}`,
};

// Beyond this many values a CSV string would exhaust a tab's memory.
const MAX_CSV = 2 ** 22;

export function mount(root, app) {
  const { lib } = app;
  heading(root, app);
  const formula = document.createElement("div");
  formula.className = "formula";
  const figures = document.createElement("div");
  figures.className = "figure-row";
  const tableBox = document.createElement("figure");
  tableBox.className = "chart";
  const periodBox = document.createElement("figure");
  periodBox.className = "chart";
  figures.append(tableBox, periodBox);
  const caption = document.createElement("p");
  caption.className = "caption";
  const downloads = document.createElement("div");
  downloads.className = "sec-controls";
  root.append(formula, figures, caption, downloads);

  let state = null;
  let omega = new Float64Array(0);
  const chart = app.heatmap(tableBox, {
    testid: "heatmap",
    label: app.t("heatmapLabel"),
    square: false,
    // The cell under the pointer is shown in the other views too (the
    // sentence's barcodes), and theirs here.
    onCursor(cell) {
      app.point(cell && { position: state.start + cell.r, dimension: cell.c });
    },
    readout(r, c) {
      const p = state.start + r;
      const row = rowsPlan.plan.rows([p]);
      const map = state.columns();
      const kind = map.kinds[c];
      const i = map.pairs[c];
      const value = Number(row[c].toPrecision(7));
      if (kind === "zero") return app.t("readoutPadding", { p, j: c, value });
      if (!map.complete(i))
        return app.t("readoutExtra", {
          p,
          j: c,
          kind,
          i,
          value,
          omega: Number(omega[i].toPrecision(7)),
        });
      return app.t("readout", {
        p,
        j: c,
        i,
        kind,
        value,
        omega: Number(omega[i].toPrecision(7)),
      });
    },
  });
  app.exportable(tableBox, chart.canvas, "heatmap");
  app.onPoint((point) =>
    chart.mark(
      point && state && { r: point.position - state.start, c: point.dimension },
    ),
  );

  const periodTitle = document.createElement("figcaption");
  periodTitle.textContent = app.t("periodsTitle");
  // In its own box, so that the fraction's depth cannot reach the chart.
  const periodFormula = document.createElement("div");
  periodFormula.className = "formula";
  periodFormula.append(app.displayMath(formulas.period));
  periodBox.append(periodTitle, periodFormula);
  const periods = app.lineChart(periodBox, {
    xLabel: app.t("pair"),
    yLabel: app.t("period"),
    logY: true,
    height: 220,
    series: [{ label: app.t("periods") }],
  });
  const periodText = document.createElement("p");
  periodText.className = "caption";
  periodText.textContent = app.t("periodsText");
  periodBox.append(periodText);
  app.exportable(periodBox, periods.canvas, "periods");

  const csvButton = button(app.t("csv"), () => {
    const cells = state.positions * state.dim;
    if (cells > MAX_CSV) {
      app.note(downloads, app.t("tooBigForCsv", { cells, max: MAX_CSV }));
      return;
    }
    app.note(downloads, "");
    const values = lib.table(state.options);
    const positions = Float64Array.from(
      { length: state.positions },
      (_, r) => state.start + r,
    );
    saveCsv(lib, values, positions, state.dim, fileName(state, "table"));
  });
  const npyButton = button(app.t("npy"), () => {
    const values = lib.table(state.options);
    saveNpy(lib, values, state.positions, state.dim, fileName(state, "table"));
  });
  csvButton.dataset.testid = "export-csv";
  npyButton.dataset.testid = "export-npy";
  downloads.append(csvButton, npyButton);

  // The table's plan, made when the schedule or layout changes: the
  // heatmap's blocks of rows, its amplitude and the readout run it. The plan
  // whose rows the heatmap bins stays until a newer one takes its place.
  let rowsPlan = null;
  let binnedPlan = null;
  function planOf(next) {
    const { positions, ...options } = optionsAt(next, [0]);
    const key = JSON.stringify(options);
    if (rowsPlan?.key !== key) {
      if (rowsPlan && rowsPlan.plan !== binnedPlan) rowsPlan.plan.dispose();
      rowsPlan = { key, plan: lib.createTable(options) };
    }
    return rowsPlan.plan;
  }
  function binWith(plan) {
    if (binnedPlan && binnedPlan !== plan) binnedPlan.dispose();
    binnedPlan = plan;
  }
  // One block of rows at a time, into the same memory.
  let block = new Float32Array(0);

  let shownFormula = "";
  let shownSchedule = "";
  // Drawn in three steps: the formula and the periods, the amplitude, and
  // the heatmap, which bins a large table over frames of its own.
  function* draw(next) {
    state = next;
    const key = `${next.layout} ${next.preset}`;
    if (key !== shownFormula) {
      shownFormula = key;
      formula.replaceChildren(
        app.displayMath(formulas[`layout-${next.layout}`]),
        app.displayMath(formulas[`schedule-${next.preset}`]),
      );
    }
    // The frequencies and their periods follow the schedule only.
    const schedule = JSON.stringify(next.schedule);
    if (schedule !== shownSchedule) {
      omega = next.frequencies();
      const pairs = Float64Array.from(omega, (_, i) => i);
      const period = Float64Array.from(omega, (w) => (2 * Math.PI) / w);
      periods.set(pairs, [period]);
      shownSchedule = schedule;
      yield;
    }
    const plan = planOf(next);
    const reach = amplitude(plan, next);
    yield;
    // Rows are fetched a block at a time as the chart bins them, each into
    // the one block, read before the next is fetched.
    binWith(plan);
    const shown = chart.setRows(
      next.positions,
      next.dim,
      (first, count) => {
        if (block.length < count * next.dim)
          block = new Float32Array(count * next.dim);
        return rowsOf(plan, next, first, count, block);
      },
      {
        min: -reach,
        max: reach,
        rowLabel: app.t("position"),
        colLabel: app.t("dimension"),
        rowStart: next.start,
      },
    );
    setText(
      caption,
      shown.w < next.dim || shown.h < next.positions
        ? app.t("downsampled", {
            rows: next.positions,
            cols: next.dim,
            w: shown.w,
            h: shown.h,
          })
        : "",
    );
  }

  return { update: draw };
}

// The largest |value| over up to 64 evenly spread rows: every row of a table
// reaches the same amplitude, so a sample finds it without a full pass.
function amplitude(plan, state) {
  const step = Math.max(1, Math.floor(state.positions / 64));
  const rows = [];
  for (let r = 0; r < state.positions; r += step) rows.push(state.start + r);
  const values = plan.rows(rows);
  let reach = 0;
  for (let i = 0; i < values.length; i++) {
    const v = Math.abs(values[i]);
    if (v > reach) reach = v;
  }
  return reach || 1;
}

// Rows first … first + count − 1 of the shown table, into `out`.
function rowsOf(plan, state, first, count, out) {
  const start = state.start + first;
  // A preset counts its positions its own way: they are given one by one.
  const positions =
    state.preset === "custom"
      ? count
      : Float64Array.from({ length: count }, (_, r) => start + r);
  return plan.rows(positions, {
    start: state.preset === "custom" ? start : undefined,
    out,
  });
}
