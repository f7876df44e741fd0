// The linear relation PE(p+k) = R(k)·PE(p), checked live: both sides drawn
// from the library's plans (a table row at p + k, and the row at p turned
// by RoPE at position k), their largest difference, and a few pairs drawn
// on the unit circle turning by k·ωᵢ.
import { fitCanvas, theme } from "../charts/canvas.js";
import { element, setText } from "../dom.js";
import {
  controlRow,
  field,
  heading,
  numberInput,
  resultRow,
  scientific,
  slider,
} from "../parts/section-parts.js";
import { optionsAt } from "../state.js";
import { inWords } from "../parts/library-error.js";
import { player } from "../parts/player.js";
import { liveField } from "../parts/live-field.js";

export const id = "relation";

/** The papers the section's claims come from (sources.js). */
export const cites = ["vaswani2017"];

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["preset", "dim", "base"],
  attributes: {
    p: "position p, −10⁷ … 10⁷",
    k: "offset k, −10⁶ … 10⁶",
    pairs: "pairs charted from the fastest: `all` or a number from 4",
  },
};

export const strings = {
  en: {
    title: "The linear relation, live",
    lead: "Moving from position p to p + k turns every (sin, cos) pair by the angle k·ωᵢ, whatever p is: PE(p + k) is a fixed linear map R(k) of PE(p), one 2 × 2 rotation per pair. This is why a model can learn to attend by relative position, and it is the mechanism RoPE applies to queries and keys.",
    remark:
      "The entries of R(k) are cos(k·ωᵢ) and sin(k·ωᵢ), with each pair's own frequency. Tutorials often write cos(k) and sin(k): that matrix is not the one that maps PE(p) to PE(p + k).",
    p: "position p, −10⁷ … 10⁷",
    k: "offset k, −10⁶ … 10⁶",
    pSlider: "position p (slider)",
    kSlider: "offset k (slider)",
    pValue: "p = {p}",
    play: "▶ Play: move p",
    pause: "❚❚ Pause",
    playHint:
      "As p moves, both points of every pair turn together and the arc between them (k·ωᵢ) keeps its length: R(k) does not depend on p.",
    sines: "The sines: sin((p + k)·ωᵢ) for every pair i",
    cosines: "The cosines: cos((p + k)·ωᵢ) for every pair i",
    pair: "pair i",
    value: "value",
    pairsShown: "pairs {from} … {to} of {all}, the fastest first",
    zoomIn: "Zoom in: fewer, faster pairs",
    zoomOut: "Zoom out",
    zoomAll: "All pairs",
    direct: "PE(p + k), from the table",
    rotated: "R(k)·PE(p), the row at p rotated",
    mistaken: "with cos(k), sin(k) in R: the common mistake",
    mistakenError:
      "With cos(k) and sin(k) in every block instead, the largest difference is {error}: that matrix does not move PE(p) to PE(p + k).",
    error:
      "largest difference between the two sides, |R(k)·PE(p) − PE(p + k)|:",
    tolerance: "allowed: {tolerance}, the 32-bit float roundings of both sides",
    hood: "Both sides come from the library, through plans made once for the schedule and run on every frame: PE(p + k) is a row of the table plan (createTable), and R(k)·PE(p) is the row at p with each (cos, sin) pair turned by a RoPE plan (createRope) at position k, since RoPE at position k is R(k). Their largest difference is the check linearRelationError() makes in one call, allowed 2⁻²³: the float32 roundings involved (both rows and the turned pairs, each within 2⁻²⁵ for values within ±1) add up to less. The mistaken matrix is the RoPE plan with every frequency set to 1.",
    pass: "the relation holds",
    fail: "the relation does not hold",
    why: "How small is small enough",
    circles:
      "A few pairs (cos, sin) on the unit circle: ○ at p, ● at p + k. Drag a ● to change k.",
    circle: "pair {i}: k·ω{sub} = {angle} rad",
    circleTurns: "pair {i}: k·ω{sub} = {angle} rad {sign} {turns} full turns",
    circleTurn: "pair {i}: k·ω{sub} = {angle} rad {sign} 1 full turn",
    circleLabel: "Pair {i} on the unit circle",
    clamped: "{name} is limited to {min} … {max}; using {used}.",
    oddDim:
      "At an odd dim ({dim}) the last sin column has no cos partner, so no linear map takes PE(p) to PE(p + k): choose an even dim to see the relation.",
    failed: "The relation cannot be computed for these options: {message}",
  },
  zh: {
    title: "线性关系，实时验证",
    lead: "从位置 p 移动到 p + k，每一对 (sin, cos) 都旋转角度 k·ωᵢ，与 p 无关：PE(p + k) 是 PE(p) 经过固定线性映射 R(k) 的结果，每一对是一个 2 × 2 旋转。这就是模型能够按相对位置分配注意力的原因，也正是 RoPE 作用在查询和键上的机制。",
    remark:
      "R(k) 的元素是 cos(k·ωᵢ) 和 sin(k·ωᵢ)，每一对用它自己的频率。教程里常写成 cos(k) 和 sin(k)：那样的矩阵并不能把 PE(p) 映射到 PE(p + k)。",
    p: "位置 p",
    k: "偏移 k",
    pSlider: "位置 p（滑块）",
    kSlider: "偏移 k（滑块）",
    pValue: "p = {p}",
    play: "▶ 播放：移动 p",
    pause: "❚❚ 暂停",
    playHint:
      "p 变化时，每一对的两个点一起转动，它们之间的圆弧（k·ωᵢ）长度不变：R(k) 与 p 无关。",
    sines: "正弦部分：每一对 i 的 sin((p + k)·ωᵢ)",
    cosines: "余弦部分：每一对 i 的 cos((p + k)·ωᵢ)",
    pair: "第 i 对",
    value: "数值",
    pairsShown: "显示第 {from} … {to} 对（共 {all} 对），最快的在前",
    zoomIn: "放大：更少、更快的对",
    zoomOut: "缩小",
    zoomAll: "全部的对",
    direct: "PE(p + k)，取自编码表",
    rotated: "R(k)·PE(p)，位置 p 的行经旋转",
    mistaken: "R 中写成 cos(k)、sin(k)：常见的错误",
    mistakenError:
      "若每个块都写成 cos(k) 和 sin(k)，最大差值为 {error}：那个矩阵并不能把 PE(p) 变成 PE(p + k)。",
    error: "两边的最大差值 |R(k)·PE(p) − PE(p + k)|：",
    tolerance: "容差 {tolerance}：两边舍入到 32 位浮点数的误差",
    hood: "两边都来自库，用的是按当前频率表只创建一次、每一帧只运行的计划：PE(p + k) 是表格计划（createTable）的一行，R(k)·PE(p) 是把位置 p 的行中每一对 (cos, sin) 交给 RoPE 计划（createRope）在位置 k 旋转的结果，因为 RoPE 在位置 k 的旋转就是 R(k)。两者的最大差值就是 linearRelationError() 一次调用所做的检验，容差为 2⁻²³：其中的各次 float32 舍入（两行以及旋转后的各对，对绝对值不超过 1 的数值每次不超过 2⁻²⁵）加起来也小于它。错误的矩阵是把所有频率都设为 1 的 RoPE 计划。",
    pass: "关系成立",
    fail: "关系不成立",
    why: "多小才算足够小",
    circles:
      "几对 (cos, sin) 在单位圆上：○ 为 p，● 为 p + k。拖动 ● 可以改变 k。",
    circle: "第 {i} 对：k·ω{sub} = {angle} 弧度",
    circleTurns: "第 {i} 对：k·ω{sub} = {angle} 弧度 {sign} {turns} 整圈",
    circleTurn: "第 {i} 对：k·ω{sub} = {angle} 弧度 {sign} 1 整圈",
    circleLabel: "第 {i} 对在单位圆上",
    clamped: "{name} 的范围是 {min} … {max}，改用 {used}。",
    oddDim:
      "维度为奇数（{dim}）时，最后一个 sin 列没有配对的 cos，不存在把 PE(p) 变成 PE(p + k) 的线性映射：换成偶数维度即可看到这一关系。",
    failed: "这些选项下无法计算线性关系：{message}",
  },
};

export const formulas = {
  relation: [
    String.raw`\begin{pmatrix} \sin((p+k)\,\omega_i) \\ \cos((p+k)\,\omega_i) \end{pmatrix}`,
    String.raw`= \begin{pmatrix} \cos(k\,\omega_i) & \sin(k\,\omega_i) \\ -\sin(k\,\omega_i) & \cos(k\,\omega_i) \end{pmatrix}`,
    String.raw`\begin{pmatrix} \sin(p\,\omega_i) \\ \cos(p\,\omega_i) \end{pmatrix}`,
  ],
  blocks: [
    String.raw`\PE(p+k) = R(k)\,\PE(p),`,
    String.raw`R(k) = \operatorname{diag}\big(R_0(k), \dots, R_{h-1}(k)\big)`,
  ],
};

// The float32 roundings of the two rows and of the turned pairs, each at
// most 2^-25 for values in [-1, 1]: a pair's rounding turned with it moves
// a component by at most √2 · 2^-25, so the sides differ by at most
// (2 + √2) · 2^-25, less than 2^-23.
export const TOLERANCE = 2 ** -23;
const P_RANGE = { min: -1e7, max: 1e7 };
const K_RANGE = { min: -1e6, max: 1e6, slider: [-100, 100] };

// The p slider is logarithmic in 1 + p/P_KNEE: about one position per
// pixel near 0 on a 226 px track, where a reader follows single turns of
// the fast pairs, and still 100000 at its end. Slider positions give whole
// positions.
const TRAVEL = 1000;
const P_KNEE = 20;
const P_TOP = 100000;
const GROWTH = Math.log1p(P_TOP / P_KNEE);
export function sliderToP(s) {
  return Math.round(P_KNEE * Math.expm1((s / TRAVEL) * GROWTH));
}
export function pToSlider(p) {
  if (p <= 0) return 0;
  if (p >= P_TOP) return TRAVEL;
  return (Math.log1p(p / P_KNEE) / GROWTH) * TRAVEL;
}
/**
 * An arrow key's step at p: the unit of p's second significant digit, at
 * least 1 (1 below 100, 10 up to 1000, …). Going down from a power of ten
 * takes the smaller step of the values just below it.
 */
export function keyStep(p, up) {
  const size = Math.abs(p);
  if (size < 1) return 1;
  const power = Math.floor(Math.log10(size));
  const below = !up && size === 10 ** power ? 1 : 0;
  return 10 ** Math.max(0, power - 1 - below);
}
// A value the page itself set (slider, keys, play), shown without
// floating-point noise: at most two decimals.
const tidy = (value) => String(Number(value.toFixed(2)));

// The fewest pairs the charts zoom in to.
const MIN_PAIRS = 4;
const parsePairs = (text) => {
  if (text === "all") return "all";
  const value = Number(text);
  return Number.isInteger(value) && value >= MIN_PAIRS && value <= 2048
    ? value
    : undefined;
};

// Play moves p by this much a frame: a slow turn of the fastest pair.
const PLAY_STEP = 0.05;

// A number as typed ("1e3", " 12 "), or undefined.
const readNumber = (text) => {
  const value = Number(text);
  return text.trim() !== "" && Number.isFinite(value) ? value : undefined;
};
const parseIn = (range) => (text) => {
  const value = readNumber(text);
  return value >= range.min && value <= range.max ? value : undefined;
};

const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";
const subscript = (i) => String(i).replace(/\d/g, (d) => SUBSCRIPT[d]);

/**
 * An angle as a reader counts it: the whole turns it makes and what is left,
 * both with the angle's sign (5 rad stays 5 rad; 10⁶ rad is 159154 turns
 * and 6.0 rad). { reduced, turns } with angle = reduced + 2π·turns.
 */
export function reduceAngle(angle) {
  const turns = Math.trunc(angle / (2 * Math.PI));
  return { reduced: angle - turns * 2 * Math.PI, turns };
}

export function mount(root, app) {
  const { lib } = app;
  let p = app.param("p", 100, parseIn(P_RANGE));
  let k = app.param("k", 3, parseIn(K_RANGE));
  // How many pairs the charts show, from pair 0, the fastest: at a large dim
  // the fast pairs' turns are readable only zoomed in.
  let zoom = app.param("pairs", "all", parsePairs);
  let state = null;

  heading(root, app);
  root.append(
    element("div", "formula", [
      app.displayMath(formulas.relation),
      app.displayMath(formulas.blocks),
    ]),
    element("p", "remark", [app.t("remark")]),
  );

  const pInput = numberInput({ value: p }, "relation-p");
  const kInput = numberInput({ value: k }, "relation-k");
  const [kLow, kHigh] = K_RANGE.slider;
  const pSlider = slider(
    { value: pToSlider(p), min: 0, max: TRAVEL, step: "any" },
    app.t("pSlider"),
  );
  pSlider.dataset.testid = "relation-p-slider";
  const kSlider = slider(
    { value: k, min: kLow, max: kHigh, step: 0.25 },
    app.t("kSlider"),
  );
  kSlider.dataset.testid = "relation-k-slider";
  const playButton = element("button", {
    type: "button",
    testid: "relation-play",
    "aria-pressed": "false",
    text: app.t("play"),
  });
  // Each number beside its slider.
  const group = (text, input, track) =>
    element("div", "field-group", [field(text, input), track]);
  const circles = element("div", "sec-wrap");
  // The circles sit beside the sliders, in view while one is dragged.
  root.append(
    element("div", "relation-live", [
      element("div", "relation-controls", [
        controlRow([
          group(app.t("p"), pInput, pSlider),
          group(app.t("k"), kInput, kSlider),
        ]),
        controlRow([playButton]),
      ]),
      element("figure", "chart relation-circles", [
        element("figcaption", "", [app.t("circles")]),
        circles,
      ]),
    ]),
    element("p", "caption", [app.t("playHint")]),
  );

  // The sines and the cosines of the row, each against the pair index: one
  // smooth curve each, at any dim, instead of a zigzag between the two.
  const figures = element("div", "small-multiples");
  // The zoom, above the charts it changes.
  const zoomRow = controlRow([]);
  root.append(zoomRow, figures);
  const part = (which) => {
    const box = element("figure", "chart", [
      element("figcaption", "", [app.t(which)]),
    ]);
    figures.append(box);
    const chart = app.lineChart(box, {
      testid: `relation-${which}`,
      xLabel: app.t("pair"),
      yLabel: app.t("value"),
      // Pairs are whole numbers: zoomed in, points rather than lines.
      discrete: true,
      // The two sides first, drawn over each other; the mistake last, in a
      // colour of its own.
      series: [
        { label: app.t("direct"), colour: 0 },
        { label: app.t("rotated"), dash: true, colour: 1 },
        { label: app.t("mistaken"), colour: 6 },
      ],
    });
    app.exportable(box, chart.canvas, `relation-${which}`);
    return chart;
  };
  const charts = [part("sines"), part("cosines")];
  const zoomText = element("span", {
    className: "caption",
    testid: "relation-pairs",
  });
  const zoomButton = (text, testid, next) => {
    const node = element("button", { type: "button", testid, text });
    node.addEventListener("click", () => {
      if (!plans) return;
      zoom = next(shownPairs(plans.h), plans.h);
      app.setParam("pairs", zoom);
      redraw();
    });
    return node;
  };
  const zoomIn = zoomButton(app.t("zoomIn"), "relation-zoom-in", (n) =>
    Math.max(MIN_PAIRS, Math.ceil(n / 2)),
  );
  const zoomOut = zoomButton(app.t("zoomOut"), "relation-zoom-out", (n, h) =>
    2 * n >= h ? "all" : 2 * n,
  );
  const zoomAll = zoomButton(
    app.t("zoomAll"),
    "relation-zoom-all",
    () => "all",
  );
  zoomRow.append(zoomText, zoomIn, zoomOut, zoomAll);
  // The pairs shown of h.
  const shownPairs = (h) => (zoom === "all" ? h : Math.min(h, zoom));

  const check = resultRow(app.t("error"), {
    why: app.t("why"),
    testid: "relation-max-error",
    badgeTestid: "relation-badge",
  });
  root.append(check.node);

  const problemNote = element("p", "note");
  problemNote.setAttribute("role", "status");
  problemNote.dataset.testid = "relation-problem";
  problemNote.hidden = true;
  root.append(problemNote);
  const mistakenText = element("p", "caption");
  root.append(mistakenText);

  const showP = () =>
    pSlider.setAttribute("aria-valuetext", app.t("pValue", { p }));
  showP();

  function set(which, value, source) {
    const range = which === "p" ? P_RANGE : K_RANGE;
    const used = Math.min(range.max, Math.max(range.min, value));
    app.note(
      root,
      used === value
        ? ""
        : app.t("clamped", {
            name: app.t(which),
            min: range.min,
            max: range.max,
            used,
          }),
    );
    if (which === "p") p = used;
    else k = used;
    if (which === "p") {
      if (source !== pInput) pInput.value = tidy(used);
      if (source !== pSlider) pSlider.value = String(pToSlider(used));
      showP();
    } else {
      if (source !== kInput) kInput.value = String(used);
      if (source !== kSlider) kSlider.value = String(used);
    }
    app.setParam(which, used);
    app.frames.later(redraw);
  }
  // At most once a frame, however many changes came in it.
  function redraw() {
    if (state && plans && problemNote.hidden) draw(state);
  }

  for (const [which, input] of [
    ["p", pInput],
    ["k", kInput],
  ]) {
    const range = which === "p" ? P_RANGE : K_RANGE;
    input.addEventListener("focus", () => play.stop());
    input.addEventListener("input", () => play.stop());
    // Out of range applies once committed, clamped with a note (set's).
    liveField(input, {
      read(text) {
        const value = readNumber(text);
        if (value === undefined) return { problem: "invalid" };
        const inRange = value >= range.min && value <= range.max;
        return inRange ? { value } : { value, problem: "clamped" };
      },
      apply: (value) => set(which, value, input),
      shown: () => String(which === "p" ? p : k),
    });
  }
  pSlider.addEventListener("input", () => {
    play.stop();
    set("p", sliderToP(Number(pSlider.value)), pSlider);
  });
  // Arrow keys step by what suits p's size, Page Up and Down ten times that;
  // either stops on a multiple of its step.
  const KEYS = {
    ArrowRight: [1, 1],
    ArrowUp: [1, 1],
    ArrowLeft: [-1, 1],
    ArrowDown: [-1, 1],
    PageUp: [1, 10],
    PageDown: [-1, 10],
  };
  pSlider.addEventListener("keydown", (event) => {
    const key = KEYS[event.key];
    if (!key) return;
    event.preventDefault();
    play.stop();
    const [direction, times] = key;
    const step = keyStep(p, direction > 0) * times;
    const next =
      direction > 0
        ? (Math.floor(p / step) + 1) * step
        : (Math.ceil(p / step) - 1) * step;
    set("p", next);
  });
  kSlider.addEventListener("input", () => {
    play.stop();
    set("k", Number(kSlider.value), kSlider);
  });

  const play = player(playButton, {
    frames: app.frames,
    labels: { play: app.t("play"), pause: app.t("pause") },
    step: () => set("p", Math.round((p + PLAY_STEP) * 100) / 100),
    alive: () => root.isConnected,
  });

  // The plans of the current schedule, made when it changes and run on
  // every frame of a drag: the table's rows, and RoPE's rotation of each
  // (cos, sin) pair by k·ωᵢ (RoPE at position k is R(k)), with the pairs'
  // own frequencies and with every frequency 1, the tutorials' matrix.
  let plans = null;
  function makePlans(next) {
    endPlans();
    const map = next.columns();
    const h = Math.floor(next.dim / 2);
    const { positions, ...schedule } = optionsAt(next, [0]);
    const turn = (frequencies) =>
      lib.createRope({ dim: 2 * h, frequencies, pairing: "interleaved" });
    plans = {
      h,
      map,
      dim: next.dim,
      table: lib.createTable(schedule),
      rotation: turn(next.frequencies().slice(0, h)),
      mistaken: turn(new Float64Array(h).fill(1)),
      // The row at p as (cos, sin) pairs, and the pairs turned.
      pairs: new Float32Array(2 * h),
      moved: new Float32Array(2 * h),
      wrong: new Float32Array(2 * h),
    };
  }
  function endPlans() {
    if (!plans) return;
    for (const plan of [plans.table, plans.rotation, plans.mistaken])
      plan.dispose();
    plans = null;
  }

  function draw(next) {
    state = next;
    const { h, map, dim, pairs, moved, wrong } = plans;
    const rows = plans.table.rows([p, p + k]);
    const here = rows.subarray(0, dim);
    const there = rows.subarray(dim);
    for (let i = 0; i < h; i++) {
      const { sin, cos } = map.columnsOf(i);
      pairs[2 * i] = cos < 0 ? 0 : here[cos];
      pairs[2 * i + 1] = sin < 0 ? 0 : here[sin];
    }
    plans.rotation.apply(pairs, [k], { out: moved });
    plans.mistaken.apply(pairs, [k], { out: wrong });
    const shown = shownPairs(h);
    const xs = Float64Array.from({ length: shown }, (_, i) => i);
    setText(zoomText, app.t("pairsShown", { from: 0, to: shown - 1, all: h }));
    zoomIn.disabled = shown <= MIN_PAIRS;
    zoomOut.disabled = zoomAll.disabled = shown >= h;
    // Column `which` of the table row, or of turned pairs (sin at 2i + 1).
    const ofRow = (which) =>
      Float64Array.from(xs, (i) => {
        const column = map.columnsOf(i)[which];
        return column < 0 ? NaN : there[column];
      });
    const ofPairs = (turned, which) =>
      Float64Array.from(xs, (i) =>
        map.columnsOf(i)[which] < 0
          ? NaN
          : turned[2 * i + (which === "sin" ? 1 : 0)],
      );
    for (const [chart, which] of [
      [charts[0], "sin"],
      [charts[1], "cos"],
    ])
      chart.set(xs, [
        ofRow(which),
        ofPairs(moved, which),
        ofPairs(wrong, which),
      ]);
    // The largest differences from PE(p + k), over every column with a
    // partner.
    let error = 0;
    let mistake = 0;
    for (let i = 0; i < h; i++) {
      if (!map.complete(i)) continue;
      const { sin, cos } = map.columnsOf(i);
      error = Math.max(
        error,
        Math.abs(moved[2 * i] - there[cos]),
        Math.abs(moved[2 * i + 1] - there[sin]),
      );
      mistake = Math.max(
        mistake,
        Math.abs(wrong[2 * i] - there[cos]),
        Math.abs(wrong[2 * i + 1] - there[sin]),
      );
    }
    setText(
      mistakenText,
      app.t("mistakenError", {
        error: Number(mistake.toPrecision(3)),
      }),
    );
    const pass = error <= TOLERANCE;
    check.show({
      value: error,
      text: scientific(error, 3),
      pass,
      label: app.t(pass ? "pass" : "fail"),
      tolerance: app.t("tolerance", { tolerance: scientific(TOLERANCE, 3) }),
    });

    drawCircles(next, pairs, moved);
  }

  // Dragging a ● turns its pair to the angle pointed at: k changes by the
  // smallest turn that gets there, so a drag round and round counts turns.
  let dragged = null;
  function dragTo(event) {
    const { canvas, i } = dragged;
    const omega = state.frequencies()[i];
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left - box.width / 2;
    const y = box.top + box.height / 2 - event.clientY;
    if (x === 0 && y === 0) return;
    const target = Math.atan2(y, x);
    const now = Math.atan2(dragged.to[1], dragged.to[0]);
    let turn = target - now;
    turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));
    set("k", Math.round((k + turn / omega) * 100) / 100, canvas);
  }

  function drawCircles(next, here, moved) {
    const omega = next.frequencies();
    const h = omega.length;
    const chosen = [
      ...new Set([0, 1, 2, Math.floor(h / 8), Math.floor(h / 2)]),
    ].filter((i) => i < h);
    if (circles.childElementCount !== chosen.length) {
      circles.replaceChildren(
        ...chosen.map(() => {
          const canvas = document.createElement("canvas");
          canvas.className = "draggable";
          canvas.addEventListener("pointerdown", (event) => {
            play.stop();
            canvas.setPointerCapture(event.pointerId);
            dragged = canvas.drag;
            dragTo(event);
          });
          canvas.addEventListener("pointermove", (event) => {
            if (dragged?.canvas === canvas) dragTo(event);
          });
          const release = () => (dragged = null);
          canvas.addEventListener("pointerup", release);
          canvas.addEventListener("pointercancel", release);
          return element("figure", "circle", [canvas, element("figcaption")]);
        }),
      );
    }
    const colours = theme(circles);
    chosen.forEach((i, n) => {
      const figure = circles.children[n];
      const canvas = figure.firstChild;
      canvas.setAttribute("role", "img");
      canvas.setAttribute("aria-label", app.t("circleLabel", { i }));
      canvas.dataset.pair = String(i);
      const angle = k * omega[i];
      const { reduced, turns } = reduceAngle(angle);
      const key =
        turns === 0
          ? "circle"
          : Math.abs(turns) === 1
            ? "circleTurn"
            : "circleTurns";
      setText(
        figure.lastChild,
        app.t(key, {
          i,
          sub: subscript(i),
          angle: Number(reduced.toFixed(3)),
          sign: turns < 0 ? "−" : "+",
          turns: Math.abs(turns),
        }),
      );
      const to = [moved[2 * i], moved[2 * i + 1]];
      canvas.drag = { canvas, i, to };
      if (dragged?.canvas === canvas) dragged = canvas.drag;
      unitCircle(canvas, colours, [here[2 * i], here[2 * i + 1]], to, reduced);
    });
  }

  // Shown at its own p and k, the relation does not follow the shared
  // positions or first position.
  let shown = "";
  return {
    update(next) {
      const key = JSON.stringify([next.schedule, next.layout]);
      if (key === shown) return;
      shown = key;
      state = next;
      // With an odd dim the relation does not hold, and nothing of the last
      // drawing may stay beside the message that says so.
      let problem =
        next.dim % 2 === 1 ? app.t("oddDim", { dim: next.dim }) : "";
      if (problem) endPlans();
      else
        try {
          makePlans(next);
          draw(next);
        } catch (error) {
          endPlans();
          problem = app.t("failed", { message: inWords(error, app.lang) });
        }
      if (problem) {
        for (const chart of charts) chart.set(new Float64Array(0), []);
        check.clear();
        setText(mistakenText, "");
        circles.replaceChildren();
      }
      setText(problemNote, problem);
      problemNote.hidden = !problem;
    },
  };
}

// The circle, the arc turned through (the part of a turn), and both points.
function unitCircle(canvas, colours, from, to, turn) {
  const size = 132;
  const { context } = fitCanvas(canvas, size, size);
  const c = size / 2;
  const r = size / 2 - 10;
  context.fillStyle = colours.background;
  context.fillRect(0, 0, size, size);
  context.strokeStyle = colours.grid;
  context.lineWidth = 1;
  context.beginPath();
  context.moveTo(4, c);
  context.lineTo(size - 4, c);
  context.moveTo(c, 4);
  context.lineTo(c, size - 4);
  context.stroke();
  context.strokeStyle = colours.axis;
  context.beginPath();
  context.arc(c, c, r, 0, 2 * Math.PI);
  context.stroke();
  const start = Math.atan2(from[1], from[0]);
  context.strokeStyle = colours.series[1];
  context.lineWidth = 3;
  context.beginPath();
  // Canvas angles run clockwise: negate to draw counter-clockwise from +x.
  context.arc(c, c, r, -start, -(start + turn), turn > 0);
  context.stroke();
  const point = ([x, y], filled) => {
    context.beginPath();
    context.arc(c + x * r, c - y * r, filled ? 7 : 5, 0, 2 * Math.PI);
    context.fillStyle = filled ? colours.series[0] : colours.background;
    context.strokeStyle = colours.series[0];
    context.lineWidth = 2;
    context.fill();
    context.stroke();
  };
  point(from, false);
  point(to, true);
}
