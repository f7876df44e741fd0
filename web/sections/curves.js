// The classic row and column plots: the encoding of a few positions across
// the dimensions, and a few dimensions across the positions.
import { element, setText } from "../dom.js";
import {
  controlRow,
  field,
  fieldNote,
  heading,
  listInput,
  select,
} from "../parts/section-parts.js";
import { optionsAt } from "../state.js";
import { liveField } from "../parts/live-field.js";

export const id = "curves";

/** The papers the section's claims come from (sources.js). */
export const cites = ["vaswani2017"];

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["preset", "dim", "positions", "base", "layout", "start"],
  attributes: {
    rows: "positions whose rows are drawn, a list",
    dims: "dimensions whose columns are drawn, a list",
    span: "`fit` (a few periods per column) or `all` positions",
  },
};

export const strings = {
  en: {
    title: "Rows and columns",
    lead: "Cut the table along a row and you see one position's code: fast oscillations in the first dimensions that slow down to constant sin 0 = 0 and cos 0 = 1 values in the last ones. Cut it along a column and you see one frequency: a pure sine or cosine of the position, with a period that grows from 2π to 2π·base across the dimensions.",
    byDimension:
      "A row: its sines and its cosines against the pair, for the positions",
    byPosition: "A column: value against position, one chart per dimension",
    positionsField: "positions (up to 6, comma-separated)",
    dimensionsField: "dimensions (up to 6, comma-separated)",
    dimension: "dimension j",
    position: "position p",
    value: "value",
    rowSin: "p = {p}, sin",
    rowCos: "p = {p}, cos",
    pair: "pair i",
    column: "j = {j}",
    columnCaption: "j = {j}: {kind} of pair {i}, period {period}",
    span: "positions shown",
    spanFit: "about {periods} periods of each column",
    spanAll: "all positions",
    spanPart: "{caption}; positions {from} … {to}",
    columnPadding: "j = {j}: a padding column, always 0",
    outside: "Dimensions beyond d − 1 = {last} were left out.",
    listEmpty: "The field is empty; keeping {kept}.",
    listTooLong:
      "The field holds {count} values, more than {max}; keeping {kept}.",
    listNotNumber: "“{value}” is not a number; keeping {kept}.",
    listOutside: "{value} is outside {min} … {max}; keeping {kept}.",
    listNotWhole: "{value} is not a whole dimension; keeping {kept}.",
  },
  zh: {
    title: "行与列",
    lead: "沿着一行切开表格，看到的是一个位置的编码：前几个维度振荡得很快，越往后越慢，最后几维几乎就是常数 sin 0 = 0 和 cos 0 = 1。沿着一列切开，看到的是一个频率：位置的纯正弦或余弦，周期随维度从 2π 增长到 2π·底数。",
    byDimension: "一行：各对的正弦和余弦随频率对变化，位置为",
    byPosition: "一列：数值随位置变化，每个维度一张图",
    positionsField: "位置（最多 6 个，用逗号分隔）",
    dimensionsField: "维度（最多 6 个，用逗号分隔）",
    dimension: "维度 j",
    position: "位置 p",
    value: "数值",
    rowSin: "p = {p}, sin",
    rowCos: "p = {p}, cos",
    pair: "频率对 i",
    column: "j = {j}",
    columnCaption: "j = {j}：第 {i} 对的 {kind}，周期 {period}",
    span: "显示的位置",
    spanFit: "每列约 {periods} 个周期",
    spanAll: "全部位置",
    spanPart: "{caption}；位置 {from} … {to}",
    columnPadding: "j = {j}：补齐的一列，恒为 0",
    outside: "超过 d − 1 = {last} 的维度已略去。",
    listEmpty: "输入框是空的；保留 {kept}。",
    listTooLong: "输入了 {count} 个值，多于 {max} 个；保留 {kept}。",
    listNotNumber: "“{value}” 不是数字；保留 {kept}。",
    listOutside: "{value} 超出 {min} … {max}；保留 {kept}。",
    listNotWhole: "{value} 不是整数维度；保留 {kept}。",
  },
};

export const formulas = {
  row: String.raw`j \mapsto \PE(p, j)`,
  column: String.raw`p \mapsto \PE(p, j)`,
};

const MAX_CURVES = 6;

// The two lists: positions (any number within ±10⁷) for the row chart,
// whole dimensions for the column charts.
const LISTS = {
  rows: {
    integer: false,
    limit: 1e7,
    fallback: [0, 10, 50],
    testid: "curves-positions",
  },
  dims: {
    integer: true,
    limit: 4095,
    fallback: [0, 4, 16, 40],
    testid: "curves-dimensions",
  },
};

/**
 * Up to six numbers from text like "0, 10, 50": `{ values }`, or
 * `{ problem, vars }` naming the first thing wrong, for a note.
 */
function numberList(text, integer, limit) {
  const parts = String(text)
    .split(/[\s,;]+/)
    .filter(Boolean);
  if (parts.length === 0) return { problem: "listEmpty", vars: {} };
  if (parts.length > MAX_CURVES)
    return {
      problem: "listTooLong",
      vars: { count: parts.length, max: MAX_CURVES },
    };
  const low = integer ? 0 : -limit;
  for (const part of parts) {
    const v = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(part)
      ? Number(part)
      : NaN;
    const value = part.length > 20 ? part.slice(0, 19) + "…" : part;
    if (!Number.isFinite(v))
      return { problem: "listNotNumber", vars: { value } };
    if (v < low || v > limit)
      return { problem: "listOutside", vars: { value, min: low, max: limit } };
    if (integer && !Number.isInteger(v))
      return { problem: "listNotWhole", vars: { value } };
  }
  // A value given twice is one curve, with one legend entry.
  return { values: [...new Set(parts.map(Number))] };
}

// Periods of each column a chart shows by default, and its fewest positions.
const PERIODS = 12;
const MIN_SHOWN = 32;
const SPANS = ["fit", "all"];

export function mount(root, app) {
  const { lib } = app;
  heading(root, app);

  // The reader's lists, each read by its own rule from the link.
  const chosen = {};
  for (const [key, list] of Object.entries(LISTS))
    chosen[key] = app.param(
      key,
      list.fallback,
      (text) => numberList(text, list.integer, list.limit).values,
    );

  const rowFigure = figure(root, app.t("byDimension"), app.math(formulas.row));
  const rowField = listField(app.t("positionsField"), chosen.rows, "rows");
  const rowHost = document.createElement("div");
  rowFigure.append(rowField.label, rowField.note, rowHost);
  let rowChart = null;

  const colFigure = figure(
    root,
    app.t("byPosition"),
    app.math(formulas.column),
  );
  const colField = listField(app.t("dimensionsField"), chosen.dims, "dims");
  const colHost = element("div", "small-multiples");
  // A fast column over hundreds of positions is a solid block: by default
  // each chart shows about PERIODS of its own periods.
  let span = app.param("span", "fit", (v) =>
    SPANS.includes(v) ? v : undefined,
  );
  const spanField = select(
    app.t("span"),
    SPANS.map((v) => [
      v,
      app.t(v === "fit" ? "spanFit" : "spanAll", { periods: PERIODS }),
    ]),
    span,
    (v) => {
      span = v;
      app.setParam("span", v);
      if (state) for (const _ of drawColumns(state));
    },
    "curves-span",
  );
  colFigure.append(
    colField.label,
    colField.note,
    controlRow([spanField]),
    colHost,
  );

  let state = null;
  let rowsShown = "";
  let colCharts = [];
  // The legends name the curves, so a new list needs new charts. A row is
  // drawn as two curves against the pair index, its sines and its cosines
  // (one colour per position, cosines dashed), not as one curve zigzagging
  // between the two; each column gets a chart of its own.
  function rowCharts() {
    rowsShown = "";
    rowHost.replaceChildren();
    rowChart = app.lineChart(rowHost, {
      testid: "curves-rows",
      xLabel: app.t("pair"),
      yLabel: app.t("value"),
      series: chosen.rows.flatMap((p, r) => [
        { label: app.t("rowSin", { p }), colour: r },
        { label: app.t("rowCos", { p }), colour: r, dash: true },
      ]),
    });
    app.exportable(rowHost, rowChart.canvas, "rows");
  }
  function columnCharts() {
    colHost.replaceChildren();
    colCharts = chosen.dims.map((j, n) => {
      const box = element("figure", "chart small-multiple", [
        element("figcaption"),
      ]);
      colHost.append(box);
      const chart = app.lineChart(box, {
        testid: `curves-column-${j}`,
        xLabel: app.t("position"),
        yLabel: app.t("value"),
        height: 130,
        series: [{ label: app.t("column", { j }), colour: n }],
      });
      app.exportable(box, chart.canvas, `column-${j}`);
      return { j, box, chart };
    });
  }
  rowCharts();
  columnCharts();

  // One handler for both lists: a list that reads is kept, linked and
  // drawn as it is typed; one that cannot be read is put back when the
  // field is left, with a note saying why.
  function listChanged(key, field, redraw) {
    const { integer, limit } = LISTS[key];
    let vars = {};
    liveField(field.input, {
      read(text) {
        const read = numberList(text, integer, limit);
        vars = read.vars;
        return read.values ? { value: read.values } : { problem: read.problem };
      },
      apply(values) {
        if (values.join(",") === chosen[key].join(",")) return;
        chosen[key] = values;
        app.setParam(key, values.join(","));
        redraw();
      },
      shown: () => chosen[key].join(", "),
      report(problem) {
        field.note.hidden = !problem;
        field.note.textContent = problem
          ? app.t(problem, { ...vars, kept: chosen[key].join(", ") })
          : "";
      },
    });
  }
  listChanged("rows", rowField, () => {
    rowCharts();
    if (state) drawRows(state);
  });
  listChanged("dims", colField, () => {
    columnCharts();
    if (state) for (const _ of drawColumns(state));
  });

  // In steps: the row chart, then one column chart per step.
  function* draw(next) {
    state = next;
    drawRows(next);
    yield* drawColumns(next);
  }

  function drawRows(next) {
    const { dim } = next;
    // The rows are the reader's own positions: the shared positions and
    // first position play no part in them.
    const rowOptions = optionsAt(next, chosen.rows);
    const rowKey = JSON.stringify(rowOptions);
    const map = next.columns();
    const pairs = next.frequencies().length;
    if (rowKey !== rowsShown) {
      const block = lib.table({ ...rowOptions, dtype: "float64" });
      const xs = Float64Array.from({ length: pairs }, (_, i) => i);
      const pick = (r, which) =>
        Float64Array.from({ length: pairs }, (_, i) => {
          const column = map.columnsOf(i)[which];
          return column < 0 ? NaN : block[r * dim + column];
        });
      rowChart.set(
        xs,
        chosen.rows.flatMap((_, r) => [pick(r, "sin"), pick(r, "cos")]),
      );
      rowsShown = rowKey;
    }
  }

  function* drawColumns(next) {
    const { dim, positions } = next;
    const map = next.columns();
    const shown = chosen.dims.filter((j) => j < dim);
    app.note(
      colFigure,
      shown.length < chosen.dims.length
        ? app.t("outside", { last: dim - 1 })
        : "",
    );
    const ps = Float64Array.from(
      { length: positions },
      (_, r) => next.start + r,
    );
    const omega = next.frequencies();
    const columnOf = columnReader(next, map, ps);
    for (const { j, box, chart } of colCharts) {
      box.hidden = j >= dim;
      if (j >= dim) continue;
      yield;
      const kind = map.kinds[j];
      const i = map.pairs[j];
      const period = (2 * Math.PI) / omega[i];
      const count =
        span === "all" || kind === "zero"
          ? positions
          : Math.min(
              positions,
              Math.max(MIN_SHOWN, Math.ceil(PERIODS * period)),
            );
      const caption =
        kind === "zero"
          ? app.t("columnPadding", { j })
          : app.t("columnCaption", {
              j,
              kind,
              i,
              period: Number(period.toPrecision(4)),
            });
      setText(
        box.firstChild,
        count < positions
          ? app.t("spanPart", {
              caption,
              from: ps[0],
              to: ps[count - 1],
            })
          : caption,
      );
      chart.canvas.dataset.shown = String(count);
      chart.set(ps.subarray(0, count), [columnOf(j).subarray(0, count)]);
    }
  }

  // Reads a chosen column over the shared positions. Each comes from a
  // one-pair table of its own frequency (the whole table at the largest
  // size would hold 67 million values), times the output scale; its first
  // value is checked against the full table's row, and a column that
  // differs is read from the full table instead.
  function columnReader(next, map, ps) {
    const { dim, positions } = next;
    const first = lib.table({
      ...optionsAt(next, [next.start]),
      dtype: "float64",
    });
    const omega = next.frequencies();
    const pairTables = new Map();
    let full = null;
    return (j) => {
      const column = new Float64Array(positions).fill(NaN);
      if (j >= dim) return column;
      const kind = map.kinds[j];
      const i = map.pairs[j];
      if (kind === "zero") return column.fill(0);
      if (!pairTables.has(i))
        pairTables.set(
          i,
          lib.table({
            dim: 2,
            frequencies: Float64Array.of(omega[i]),
            layout: "interleaved",
            positions: ps,
            dtype: "float64",
          }),
        );
      const pair = pairTables.get(i);
      const offset = kind === "sin" ? 0 : 1;
      for (let r = 0; r < positions; r++)
        column[r] = pair[2 * r + offset] * map.amplitude;
      if (Math.abs(column[0] - first[j]) > 1e-6 * Math.max(1, map.amplitude)) {
        full ??= lib.table(next.options);
        for (let r = 0; r < positions; r++) column[r] = full[r * dim + j];
      }
      return column;
    };
  }

  return { update: draw };
}

function figure(root, text, formula) {
  const node = document.createElement("figure");
  node.className = "chart";
  const caption = document.createElement("figcaption");
  caption.append(text, " ", formula);
  node.append(caption);
  root.append(node);
  return node;
}

// A list's field, its input and its note (test ids curves-positions and
// curves-dimensions, and their notes).
function listField(text, values, key) {
  const testid = LISTS[key].testid;
  const input = listInput(values, testid);
  return {
    label: field(text, input),
    input,
    note: fieldNote(`${testid}-note`),
  };
}
