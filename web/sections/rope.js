// RoPE: random q and k rotated by the library's rope to positions m and n;
// their score depends on m − n only, for both pairings of the components.
import {
  diagonalError,
  largestDifference,
  randomPair,
  SCORE_MAX,
  SCORE_TOLERANCE,
  scoreMatrix,
  scoreSize,
} from "../parts/rope-scores.js";
import { mountHead } from "./rope-head.js";
import { showSquareMatrix } from "../parts/square-matrix.js";
import {
  button,
  chartBox,
  controlRow,
  displayFormula,
  element,
  heading,
  paragraph,
  resultRow,
  scientific,
  select,
  setText,
} from "../parts/section-parts.js";
import { inWords } from "../parts/library-error.js";

export const id = "rope";

/** The papers the section's claims come from (sources.js). */
export const cites = ["su2021"];

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["preset", "dim", "base", "start"],
  attributes: {
    pairing: "`halves` or `interleaved`",
    seed: "the random q and k's seed, 0 … 2³¹ − 1",
    m: "the query's position, −10⁶ … 10⁶",
    n: "the key's position, −10⁶ … 10⁶",
  },
};

const PAIRINGS = ["halves", "interleaved"];
const SEED_LIMIT = 2 ** 31;

export const strings = {
  en: {
    title: "RoPE: rotating queries and keys",
    lead: "Rotary position embedding (RoPE) adds nothing to the input. It rotates queries and keys instead: pair i of a query at position m turns by the angle m·ωᵢ, pair i of a key at position n by n·ωᵢ, with the same frequencies ωᵢ as the sinusoidal table. Rotations compose, so the score qₘ · kₙ only sees the difference of the two angles, (m − n)·ωᵢ: it depends on the relative position alone, whatever q and k are.",
    pairingTitle: "Which components form a pair",
    pairingText:
      "The rotation acts on pairs of components, and which components are paired is a convention. The two conventions in use are not interchangeable. “halves” pairs component i with i + d/2: the rotate_half of Hugging Face's Llama and most models in transformers. “interleaved” pairs 2i with 2i + 1: GPT-J's rotate_every_two, RoFormer, and Meta's original Llama code, which treats each pair as one complex number. Both make the score relative, as the matrix below shows for either choice. But a checkpoint expects the pairing it was trained with: converting Meta's Llama weights to transformers permutes the rows of the query and key projections so that rotate_half reproduces the interleaved model. Apply the wrong pairing and nothing fails loudly; the scores are simply different.",
    diagramHalves: "halves, d = 8: colour = pair",
    diagramInterleaved: "interleaved, d = 8: colour = pair",
    pairing: "pairing",
    halves: "halves (i, i + d/2): HF Llama rotate_half",
    interleaved: "interleaved (2i, 2i + 1): GPT-J, RoFormer",
    newVectors: "new vectors",
    matrixText:
      "A random query q and key k (unit vectors of dimension {dim}, seed {seed}) rotated to positions {from} … {to} and multiplied: entry (m, n) is qₘ · kₙ. Every diagonal, where m − n is fixed, holds one value.",
    scoreLabel: "scores qₘ · kₙ of the rotated query and key",
    rowLabel: "query position m",
    colLabel: "key position n",
    deviation: "Largest deviation along the diagonals:",
    tolerance:
      "tolerance {tolerance}: each rotated component is rounded once to float32",
    pass: "the score depends on m − n only",
    fail: "the score depends on more than m − n",
    why: "How small is small enough",
    other:
      "The same q and k with the other pairing give scores that differ by up to {difference}: both are relative, but they are different functions.",
    oddDim:
      "RoPE rotates pairs, so it needs an even dimension: the last of the {dim} components is left out here.",
    capped:
      "The score matrix holds {n} positions at dim {dim}, fewer than {max}, to keep redraws fast.",
    error: "RoPE cannot be computed for these options: {message}",
    headTitle: "A head of dimension 8, at positions m and n",
    headText:
      "Four pairs, each a hand on its own dial: the query's pair (blue) turned by m·ωᵢ, the key's (orange) by n·ωᵢ, dashed before the turn and solid after, with the section's pairing and the shared base. The score after rotation is the sum of the pairs' contributions, and each contribution depends on the angle between the two hands. Rotation adds (m − n)·ωᵢ to the angle the hands had before it (each caption shows both, less whole turns), so that angle depends on m − n alone: move m and n together and nothing changes.",
    headM: "query position m",
    headN: "key position n",
    headShift: "move m and n together",
    headShiftValue: "m = {m}, n = {n}",
    headPlay: "▶ Play: move m and n",
    headPause: "❚❚ Pause",
    headBad:
      "“{value}” is not a whole position in {min} … {max}; keeping {kept}.",
    dialLabel:
      "Pair {i}: the query's and the key's hands before and after rotation",
    dialCaption:
      "pair {i}, ω = {omega}\n(m − n)·ω = {turn} rad\napart: {before} → {between} rad",
    dialDrag: "Drag a blue hand to turn the query, which changes m.",
    tableLabel: "Each pair's frequency, angles and components",
    "col pair i": "pair i",
    "col (a, b)": "components (a, b)",
    "col ωᵢ": "ωᵢ",
    "col mωᵢ · nωᵢ": "angles m·ωᵢ, n·ωᵢ, less whole turns (rad)",
    "col q": "q (a, b)",
    "col R(m) q": "rotated to m",
    "col k": "k (a, b)",
    "col R(n) k": "rotated to n",
    "col contribution": "contribution to q·k",
    complexTitle: "The same turn with complex numbers",
    complexText:
      "Read pair i as one complex number, z = a + b·i. Turning it by the angle m·ωᵢ multiplies it by e^(i·m·ωᵢ), and its contribution to q · k is the real part of z_q · conj(z_k). Since e^(i·m·ω) · conj(e^(i·n·ω)) = e^(i·(m − n)·ω), only m − n is left. Meta's original Llama code computes RoPE this way.",
    complexRow:
      "pair {i}: e^(i·{angle}) · ({z}) = {turned}; contribution {contribution}",
    codeTitle: "The rotation in a few lines of JavaScript",
    codeText:
      "The loop turns the query q to position m as the dials show, with the library's frequencies; the last line is the library's call, which gives the same numbers rounded to float32.",
    codeResult: "At m = {m} and base {base}, rope gives: {values}.",
    headScores:
      "q · k before rotation: {before}. After rotation to m = {m} and n = {n}: {after}. Both shifted by the same amount, to {mShift} and {nShift}: {shifted}, the same score up to float32 rounding, since m − n = {diff} in both.",
  },
  zh: {
    title: "RoPE：旋转查询与键",
    lead: "旋转位置编码（RoPE）不往输入上加任何东西，而是旋转查询和键：位置 m 上查询的第 i 对分量转过角度 m·ωᵢ，位置 n 上键的第 i 对分量转过 n·ωᵢ，频率 ωᵢ 与正弦编码表相同。旋转可以合成，所以得分 qₘ · kₙ 只看到两个角度之差 (m − n)·ωᵢ：无论 q 和 k 是什么，它都只取决于相对位置。",
    pairingTitle: "哪些分量配成一对",
    pairingText:
      "旋转作用在成对的分量上，而哪两个分量配对只是一种约定。现有的两种约定不能互换。“halves（对半）”把第 i 个分量与第 i + d/2 个配对：Hugging Face 的 Llama 以及 transformers 里大多数模型使用的 rotate_half。“interleaved（交错）”把第 2i 个与第 2i + 1 个配对：GPT-J 的 rotate_every_two、RoFormer，以及 Meta 最初的 Llama 代码（它把每一对看作一个复数）。两种方式都让得分只取决于相对位置，下面的矩阵对任一选择都能看到这一点。但检查点只认它训练时用的配对方式：把 Meta 的 Llama 权重转换到 transformers 时，会重新排列查询和键投影矩阵的行，好让 rotate_half 复现交错配对的模型。如果用错了配对方式，程序不会报错，只是得分悄悄变了。",
    diagramHalves: "halves，d = 8：颜色表示配对",
    diagramInterleaved: "interleaved，d = 8：颜色表示配对",
    pairing: "配对方式",
    halves: "对半配对 (i, i + d/2)：Hugging Face 的 Llama（rotate_half）",
    interleaved: "交错配对 (2i, 2i + 1)：GPT-J、RoFormer",
    newVectors: "换一组向量",
    matrixText:
      "随机的查询 q 和键 k（维度为 {dim} 的单位向量，种子 {seed}），旋转到位置 {from} … {to} 后相乘：矩阵第 (m, n) 项是 qₘ · kₙ。每条对角线上 m − n 固定，数值都相同。",
    scoreLabel: "旋转后的查询与键的得分 qₘ · kₙ",
    rowLabel: "查询位置 m",
    colLabel: "键位置 n",
    deviation: "沿对角线的最大偏差：",
    tolerance: "容差 {tolerance}：每个旋转后的分量舍入一次到 float32",
    pass: "得分只取决于 m − n",
    fail: "得分不只取决于 m − n",
    why: "多小才算足够小",
    other:
      "同样的 q 和 k 换用另一种配对方式，得分最多相差 {difference}：两者都只取决于相对位置，但并不是同一个函数。",
    oddDim:
      "RoPE 旋转的是成对的分量，需要偶数维度：这里略去了 {dim} 个分量中的最后一个。",
    capped:
      "维度为 {dim} 时，得分矩阵只取 {n} 个位置（少于 {max}），以保证重绘流畅。",
    error: "这些选项下无法计算 RoPE：{message}",
    headTitle: "维度为 8 的注意力头，位于位置 m 和 n",
    headText:
      "四对分量，每对是各自表盘上的一根指针：查询的一对（蓝色）转过 m·ωᵢ，键的一对（橙色）转过 n·ωᵢ，虚线为旋转前，实线为旋转后；配对方式取本节的选择，底数取共享控件的值。旋转后的得分是各对贡献之和，而每一对的贡献取决于两根指针之间的夹角。旋转在两根指针原有的夹角上加上 (m − n)·ωᵢ（每个表盘下方都标出了旋转前后的夹角，去掉整圈），所以这个夹角只取决于 m − n：让 m 和 n 一起移动，什么都不会变。",
    headM: "查询位置 m",
    headN: "键位置 n",
    headShift: "同时移动 m 和 n",
    headShiftValue: "m = {m}，n = {n}",
    headPlay: "▶ 播放：移动 m 和 n",
    headPause: "❚❚ 暂停",
    headBad: "“{value}” 不是 {min} … {max} 之间的整数位置；保留 {kept}。",
    dialLabel: "第 {i} 对：查询和键的指针在旋转前后的位置",
    dialCaption:
      "第 {i} 对，ω = {omega}\n(m − n)·ω = {turn} 弧度\n夹角：{before} → {between} 弧度",
    dialDrag: "拖动蓝色指针可以转动查询，也就改变了 m。",
    tableLabel: "各对的频率、角度与分量",
    "col pair i": "第 i 对",
    "col (a, b)": "分量 (a, b)",
    "col ωᵢ": "ωᵢ",
    "col mωᵢ · nωᵢ": "角度 m·ωᵢ、n·ωᵢ，去掉整圈（弧度）",
    "col q": "q (a, b)",
    "col R(m) q": "旋转到 m",
    "col k": "k (a, b)",
    "col R(n) k": "旋转到 n",
    "col contribution": "对 q·k 的贡献",
    complexTitle: "用复数表示同样的旋转",
    complexText:
      "把第 i 对看作一个复数 z = a + b·i。把它转过角度 m·ωᵢ，就是乘以 e^(i·m·ωᵢ)；它对 q · k 的贡献是 z_q · conj(z_k) 的实部。因为 e^(i·m·ω) · conj(e^(i·n·ω)) = e^(i·(m − n)·ω)，最后只剩下 m − n。Meta 最初的 Llama 代码就是这样计算 RoPE 的。",
    complexRow:
      "第 {i} 对：e^(i·{angle}) · ({z}) = {turned}；贡献 {contribution}",
    codeTitle: "几行 JavaScript 写出的旋转",
    codeText:
      "这段循环用库给出的频率，像表盘显示的那样把查询 q 旋转到位置 m；最后一行是库自己的调用，结果相同，只是舍入到 float32。",
    codeResult: "在 m = {m}、底数 {base} 时，rope 给出：{values}。",
    headScores:
      "旋转前 q · k = {before}。旋转到 m = {m} 和 n = {n} 后：{after}。两者平移同样的距离，到 {mShift} 和 {nShift}：{shifted}，在 float32 舍入误差内得分相同，因为两种情况下 m − n 都是 {diff}。",
  },
};

export const formulas = {
  rotateA: String.raw`x'_a = x_a \cos(m\omega_i) - x_b \sin(m\omega_i)`,
  rotateB: String.raw`x'_b = x_b \cos(m\omega_i) + x_a \sin(m\omega_i)`,
  score: String.raw`\langle R(m)\,q,\ R(n)\,k \rangle = \langle q,\ R(n-m)\,k \rangle`,
  halves: String.raw`\text{halves: } (a, b) = (i,\ i + d/2)`,
  interleaved: String.raw`\text{interleaved: } (a, b) = (2i,\ 2i + 1)`,
};

/** Eight cells coloured (by the style sheet) by the pair each belongs to. */
function pairDiagram(caption, pairOf) {
  const cells = Array.from({ length: 8 }, (_, c) =>
    element("span", { className: `sec-cell pair-${pairOf(c)}`, text: c }),
  );
  return element("figure", { className: "sec-pairs" }, [
    element("div", { className: "sec-cells" }, cells),
    element("figcaption", { className: "caption", text: caption }),
  ]);
}

export function mount(root, app) {
  const lib = app.lib;
  let pairing = app.param("rope.pairing", "halves", (v) =>
    PAIRINGS.includes(v) ? v : undefined,
  );
  let seed = app.param("rope.seed", 1, (v) => {
    const s = Number(v);
    return Number.isInteger(s) && s >= 0 && s < SEED_LIMIT ? s : undefined;
  });

  heading(root, app);
  root.append(
    displayFormula(app, formulas.rotateA),
    displayFormula(app, formulas.rotateB),
    displayFormula(app, formulas.score),
    element("h3", { text: app.t("pairingTitle") }),
    paragraph(app.t("pairingText")),
    element("div", { className: "sec-wrap" }, [
      pairDiagram(app.t("diagramHalves"), (c) => c % 4),
      pairDiagram(app.t("diagramInterleaved"), (c) => c >> 1),
    ]),
    displayFormula(app, formulas.halves),
    displayFormula(app, formulas.interleaved),
  );

  const choices = PAIRINGS.map((p) => [p, app.t(p)]);
  root.append(
    controlRow([
      select(
        app.t("pairing"),
        choices,
        pairing,
        (value) => {
          pairing = value;
          app.setParam("rope.pairing", value);
          redraw();
          head.redraw();
        },
        "rope-pairing",
      ),
      button(
        app.t("newVectors"),
        () => {
          seed = (seed + 1) % SEED_LIMIT;
          app.setParam("rope.seed", String(seed));
          redraw();
          head.redraw();
        },
        "rope-new-vectors",
      ),
    ]),
  );

  const headBox = element("div", { className: "sec-head" });
  root.append(headBox);
  const head = mountHead(headBox, app, {
    pairing: () => pairing,
    seed: () => seed,
  });

  const matrixText = paragraph("");
  const box = chartBox("chart sec-square");
  root.append(matrixText, box);
  const heatmap = app.heatmap(box, { label: app.t("scoreLabel") });
  app.exportable(
    box,
    heatmap.canvas,
    "rope-scores",
    () => `pairing-${pairing}`,
  );

  const check = resultRow(app.t("deviation"), {
    testid: "rope-max-error",
    why: app.t("why"),
  });
  const otherText = paragraph("");
  const oddText = paragraph("", "sec-text caption");
  const message = paragraph("", "sec-text sec-warning");
  root.append(check.node, otherText, oddText, message);

  let last = null;
  let shown = "";
  // q and k change with the seed and dim only, not with the schedule.
  let vectors = {};

  function redraw() {
    for (const _ of steps());
  }

  // In steps: the matrix of the pairing shown, then the other pairing's.
  // The drawing counts as shown once both ran; a newer drawing (a pairing
  // chosen meanwhile) ends an older one's steps.
  let drawing = 0;
  function* steps() {
    if (last === null) return;
    const state = last;
    const dim = 2 * Math.floor(state.dim / 2);
    const n = scoreSize(dim);
    const start = state.start ?? 0;
    const key = JSON.stringify([state.schedule, start, pairing, seed]);
    if (key === shown) return;
    const mine = ++drawing;
    try {
      // The frequencies of the current schedule, one per pair that rope turns.
      const omega = state.frequencies().slice(0, dim / 2);
      if (vectors.seed !== seed || vectors.dim !== dim)
        vectors = { seed, dim, ...randomPair(seed, dim) };
      const { q, k } = vectors;
      const scores = (p) =>
        scoreMatrix(lib, q, k, n, start, { pairing: p, frequencies: omega });
      const chosen = pairing;
      const shownScores = scores(chosen);
      yield;
      if (mine !== drawing) return;
      const other = scores(PAIRINGS.find((p) => p !== chosen));
      showSquareMatrix(heatmap, shownScores, n, start, {
        row: app.t("rowLabel"),
        col: app.t("colLabel"),
      });
      setText(
        matrixText,
        app.t("matrixText", {
          dim,
          seed,
          from: start,
          to: start + n - 1,
        }),
      );
      const deviation = diagonalError(shownScores, n);
      const pass = deviation <= SCORE_TOLERANCE;
      check.show({
        value: deviation,
        text: scientific(deviation),
        pass,
        label: app.t(pass ? "pass" : "fail"),
        tolerance: app.t("tolerance", {
          tolerance: scientific(SCORE_TOLERANCE),
        }),
      });
      setText(
        otherText,
        app.t("other", {
          difference: scientific(largestDifference(shownScores, other), 3),
        }),
      );
      setText(oddText, app.t("oddDim", { dim: state.dim }));
      oddText.hidden = dim === state.dim;
      const capped = n < SCORE_MAX;
      app.note(root, capped ? app.t("capped", { n, dim, max: SCORE_MAX }) : "");
      message.hidden = true;
    } catch (error) {
      message.textContent = app.t("error", {
        message: inWords(error, app.lang),
      });
      message.hidden = false;
    }
    shown = key;
  }

  return {
    *update(state) {
      last = state;
      yield* steps();
      yield;
      head.update(state);
    },
  };
}
