// Why adding the encoding does not make attention relative: the score
// (W_Q(x_m + PE(m)))·(W_K(x_n + PE(n))) splits into four terms, three of
// which mix a word with an absolute position. Shifting both positions by the
// same amount changes that score; with RoPE, the library's rotation of the
// projected query and key, it does not. Word vectors and weights are seeded;
// the encoding and the rotation come from the module.
import { generator } from "../parts/rope-scores.js";
import {
  element,
  field,
  heading,
  minus,
  paragraph,
  scientific,
  setText,
  slider,
} from "../parts/section-parts.js";
import { randomMatrix } from "./order.js";
import { positionsFigure } from "../parts/positions-figure.js";

// Drawn without the preset's table: a preset's refusal leaves it be.
export const presetFree = true;

export const id = "crossterms";

/** The papers the section's claims come from (sources.js). */
export const cites = ["shaw2018", "su2021"];

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: [],
  attributes: {},
};

export const strings = {
  en: {
    title: "Why adding is not enough: the cross terms",
    lead: "Attention does not compare the input vectors themselves but their images under two learned matrices, the query weights and the key weights. With the encoding added, the score of a word at position m against a word at position n takes the query of its vector x plus PE(m) and the key of the other's vector plus PE(n); below, A stands for both weight matrices together. Multiplied out, the score has four terms: word with word, word with position twice, and position with position. Only the last involves two encodings at all, and even that one passes through the weights, so the tidy ⟨PE(m), PE(n)⟩ = g(m − n) of the encoding alone does not survive. Move both words by the same amount and watch the score change: the model sees absolute positions mixed into the words. RoPE removes the mixing.",
    shift: "move both words by s",
    shiftValue: "s = {s}, m = {m}, n = {n}",
    shiftShown: "s = {s}",
    term: "term",
    value: "value",
    wordWord: "word · word",
    wordPos: "word at m · position n",
    posWord: "position m · word at n",
    posPos: "position · position",
    total: "score with positions added",
    rope: "score with RoPE instead",
    positions: "query at m = {m}, key at n = {n} (m − n = {diff})",
    summary:
      "Compared with s = 0, the added-position score has changed by {added}; the RoPE score by {rope}, the rounding of 32-bit floats.",
    summarySame:
      "Compared with s = 0, the added-position score has changed by {added}; the RoPE score has not changed at all.",
    summaryStart:
      "At s = 0 both words stand at their first positions, so both scores are the ones the comparison starts from: move the slider to shift the words.",
    tableLabel: "The four terms of the attention score",
    chartCaption:
      "Both scores for every shift s from 0 to {reach}: the one with positions added wanders, RoPE's stays put.",
    shiftAxis: "shift s",
    scoreAxis: "score",
    setup:
      "Two random word vectors and random weights of width {dim}; the encoding and the rotation are the page's, at the same width.",
    figCaption:
      "Read each stack from the bottom up. With the added encoding, the table is added once, to the token embeddings at the input; every later layer sees positions only through what its weights carry along, mixed with the words. With RoPE, nothing is added at the input; every attention layer turns its queries and keys by their positions before comparing them.",
    "fig-added": "Added encoding: once, at the input",
    "fig-rope": "RoPE: inside every attention layer",
    figLayer: "layer {n}",
    figLastLayer: "layer N",
    figOutput: "output",
    figMlp: "feed-forward (MLP)",
    figAddOnce: "+ PE(position): the table, added once",
    figTokens: "token embeddings",
    figAttentionPlain:
      "attention: q · k, positions mixed into words (cross terms)",
    figAttentionRope:
      "attention: q turned by R(m), k by R(n); q · k sees m − n",
  },
  zh: {
    title: "只加位置还不够：交叉项",
    lead: "注意力比较的不是输入向量本身，而是它们经过两个学习得到的矩阵（查询权重和键权重）之后的像。加上编码后，位置 m 上的词对位置 n 上的词的得分，取的是它的词向量 x 加上 PE(m) 之后的查询，以及另一个词的向量加上 PE(n) 之后的键；下面用 A 代表这两个权重矩阵的合成。展开后得分有四项：词与词、词与位置（两项）、位置与位置。只有最后一项同时含有两个编码，而且它也要经过权重，所以编码本身整齐的 ⟨PE(m), PE(n)⟩ = g(m − n) 不再成立。把两个词同时移动相同的距离，看得分如何变化：模型看到的是混进词里的绝对位置。RoPE 消除了这种混合。",
    shift: "两个词同时移动 s",
    shiftValue: "s = {s}，m = {m}，n = {n}",
    shiftShown: "s = {s}",
    term: "项",
    value: "数值",
    wordWord: "词 · 词",
    wordPos: "位置 m 的词 · 位置 n",
    posWord: "位置 m · 位置 n 的词",
    posPos: "位置 · 位置",
    total: "加上位置后的得分",
    rope: "改用 RoPE 的得分",
    positions: "查询在 m = {m}，键在 n = {n}（m − n = {diff}）",
    summary:
      "与 s = 0 时相比，加上位置的得分变化了 {added}；RoPE 的得分只变化了 {rope}，即 32 位浮点数的舍入。",
    summarySame:
      "与 s = 0 时相比，加上位置的得分变化了 {added}；RoPE 的得分完全没有变化。",
    summaryStart:
      "s = 0 时两个词都在起始位置，两个得分就是比较的起点：拖动滑块，让两个词一起移动。",
    tableLabel: "注意力得分的四项",
    chartCaption:
      "s 从 0 到 {reach} 时的两种得分：加上位置的得分随之起伏，RoPE 的得分保持不变。",
    shiftAxis: "平移 s",
    scoreAxis: "得分",
    setup:
      "两个随机词向量和宽度为 {dim} 的随机权重；编码和旋转都取自本页，宽度相同。",
    figCaption:
      "每一列都自下而上阅读。加法编码只在输入处把编码表加到词元嵌入上一次；之后的每一层只能通过权重带上来的东西看到位置，而且位置和词混在一起。RoPE 在输入处什么也不加；每个注意力层在比较查询和键之前，先按它们的位置旋转它们。",
    "fig-added": "加法编码：只在输入处加一次",
    "fig-rope": "RoPE：在每个注意力层内部",
    figLayer: "第 {n} 层",
    figLastLayer: "第 N 层",
    figOutput: "输出",
    figMlp: "前馈网络（MLP）",
    figAddOnce: "+ PE(位置)：编码表，只加一次",
    figTokens: "词元嵌入",
    figAttentionPlain: "注意力：q · k，位置混进了词（交叉项）",
    figAttentionRope:
      "注意力：q 按 R(m) 旋转，k 按 R(n) 旋转；q · k 只看到 m − n",
  },
};

export const formulas = {
  expand: [
    String.raw`(x_m + \PE(m))^{\top} A\, (x_n + \PE(n)) =`,
    String.raw`x_m^{\top} A\, x_n + x_m^{\top} A \PE(n)`,
    String.raw`{} + \PE(m)^{\top} A\, x_n + \PE(m)^{\top} A \PE(n),`,
    String.raw`A = W_Q^{\top} W_K`,
  ],
};

const DIM = 16;
const SEED = 11;
const M = 5;
const N = 2;
const REACH = 200;

const dot = (a, b) => a.reduce((s, v, j) => s + v * b[j], 0);
const times = (matrix, x) => Float64Array.from(matrix, (row) => dot(row, x));
// Small values as the page writes them everywhere: 1.8 × 10⁻⁷, −0.25.
const short = (v) =>
  minus(
    Math.abs(v) < 1e-3 && v !== 0
      ? scientific(v)
      : String(Number(v.toPrecision(4))),
  );

export function mount(root, app) {
  const { lib } = app;
  heading(root, app);
  root.append(
    positionsFigure(app.t, !app.embedded),
    element("div", "formula formula-display", [
      app.displayMath(formulas.expand),
    ]),
  );
  const next = generator(SEED);
  const [xm, xn] = randomMatrix(next, 2, DIM).map((row) =>
    row.map((v) => v * 4),
  );
  const wq = randomMatrix(next, DIM, DIM);
  const wk = randomMatrix(next, DIM, DIM);
  const shift = slider(
    { value: 0, min: 0, max: REACH, step: 1 },
    app.t("shift"),
  );
  shift.dataset.testid = "crossterm-shift";
  const where = element("p", { className: "caption" });
  // The slider's value beside it, as the other sliders show theirs.
  const shiftShown = element("output", {
    className: "number",
    testid: "crossterm-shift-value",
  });
  const body = element("tbody");
  const summary = element("p", {
    className: "result",
    testid: "crossterm-summary",
    role: "status",
  });
  root.append(
    element("div", "sec-controls", [
      field(app.t("shift"), shift),
      shiftShown,
      where,
    ]),
    element(
      "div",
      {
        className: "pair-table-box",
        tabindex: "0",
        role: "region",
        "aria-label": app.t("tableLabel"),
      },
      [
        element(
          "table",
          { className: "pair-table", testid: "crossterm-table" },
          [
            element("thead", {}, [
              element("tr", {}, [
                element("th", { scope: "col", text: app.t("term") }),
                element("th", { scope: "col", text: app.t("value") }),
              ]),
            ]),
            body,
          ],
        ),
      ],
    ),
    summary,
    paragraph(app.t("setup", { dim: DIM }), "caption"),
  );

  // Plans of the section's fixed schedule, made once: a shift's frame runs
  // them, no more.
  const tablePlan = lib.createTable({ dim: DIM, dtype: "float64" });
  const ropePlan = lib.createRope({ dim: DIM, base: 10000 });
  function scores(s) {
    const m = M + s;
    const n = N + s;
    const table = tablePlan.rows([m, n]);
    const pm = table.subarray(0, DIM);
    const pn = table.subarray(DIM);
    const q = (x) => times(wq, x);
    const k = (x) => times(wk, x);
    const terms = {
      wordWord: dot(q(xm), k(xn)),
      wordPos: dot(q(xm), k(pn)),
      posWord: dot(q(pm), k(xn)),
      posPos: dot(q(pm), k(pn)),
    };
    const total = dot(
      q(xm.map((v, j) => v + pm[j])),
      k(xn.map((v, j) => v + pn[j])),
    );
    const rope = dot(
      ropePlan.apply(Float32Array.from(q(xm)), [m]),
      ropePlan.apply(Float32Array.from(k(xn)), [n]),
    );
    return { m, n, terms, total, rope };
  }
  const start = scores(0);

  // Both scores against every shift, drawn once: the weights are fixed.
  const chartBox = element("figure", { className: "chart" }, [
    element("figcaption", {
      text: app.t("chartCaption", { reach: REACH }),
    }),
  ]);
  summary.after(chartBox);
  const chart = app.lineChart(chartBox, {
    testid: "crossterm-chart",
    xLabel: app.t("shiftAxis"),
    yLabel: app.t("scoreAxis"),
    series: [
      { label: app.t("total"), colour: 1 },
      { label: app.t("rope"), colour: 0 },
    ],
  });
  app.exportable(chartBox, chart.canvas, "crossterm-scores");
  const shifts = Float64Array.from({ length: REACH + 1 }, (_, s) => s);
  const all = Array.from(shifts, (s) => scores(s));
  chart.set(shifts, [
    Float64Array.from(all, (r) => r.total),
    Float64Array.from(all, (r) => r.rope),
  ]);

  function show() {
    const s = Number(shift.value);
    const now = scores(s);
    shift.setAttribute("aria-valuetext", app.t("shiftValue", { s, ...now }));
    setText(shiftShown, app.t("shiftShown", { s }));
    setText(
      where,
      app.t("positions", { m: now.m, n: now.n, diff: now.m - now.n }),
    );
    const rows = [
      ...Object.entries(now.terms).map(([key, v]) => [app.t(key), v, key]),
      [app.t("total"), now.total, "total"],
      [app.t("rope"), now.rope, "rope"],
    ];
    body.replaceChildren(
      ...rows.map(([label, v, key]) => {
        const row = element("tr", {}, [
          element("td", { text: label }),
          element("td", { text: short(v) }),
        ]);
        row.dataset.term = key;
        row.dataset.value = String(v);
        return row;
      }),
    );
    const added = Math.abs(now.total - start.total);
    const rope = Math.abs(now.rope - start.rope);
    summary.dataset.added = String(added);
    summary.dataset.rope = String(rope);
    // Unmoved, there is nothing to compare yet; moved, RoPE's score may
    // round to exactly the same float.
    const key =
      s === 0 ? "summaryStart" : rope === 0 ? "summarySame" : "summary";
    setText(summary, app.t(key, { added: short(added), rope: short(rope) }));
  }
  shift.addEventListener("input", show);
  show();
  return { update() {} };
}
