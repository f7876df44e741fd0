// Long-range decay: (d/2)·f(x) for several θ families beside the exact
// finite-d sum Σ cos(x·θᵢ), both from the library's decayComparison, at
// short range (|x| ≤ 128) and long range.
import {
  ALPHA,
  DEFAULT_FAMILIES,
  FAMILIES,
  familyOptions,
  parseAlpha,
  parseFamilies,
  pointCount,
  POINTS,
  RANGES,
  SHORT_RANGE,
  xGrid,
} from "../parts/decay-families.js";
import {
  chartBox,
  checkbox,
  controlRow,
  displayFormula,
  element,
  field,
  heading,
  numberInput,
  paragraph,
  select,
} from "../parts/section-parts.js";
import { inWords } from "../parts/library-error.js";
import { liveField } from "../parts/live-field.js";

// Drawn without the preset's table: a preset's refusal leaves it be.
export const presetFree = true;

export const id = "decay";

/** The papers the section's claims come from (sources.js). */
export const cites = ["su2021"];

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["dim"],
  attributes: {
    families: `the frequency spreads compared, a list of ${FAMILIES.map((f) => `\`${f.key}\``).join(", ")}`,
    alpha: "the power of the power-law spread, 0.25 … 4",
    view: "`short` or `long` distances",
    range: "the long view's reach: 10000, 100000 or 1000000",
    log: "`1` for a log distance axis",
    sums: "`0` to hide the finite-d sums",
  },
};

export const strings = {
  en: {
    title: "Long-range decay",
    lead: "Back to the encoding alone: why does the dot product of two of its rows fall off with distance? Each pair adds cos(x·ωᵢ) to it, for a distance x. At x = 0 every term is 1; as x grows, the fast pairs swing through whole turns while the slow ones barely move, and the terms stop agreeing. How fast the sum falls depends on how the frequencies are spread. Write pair i's frequency as θ(t) at t = 2i/d, a point between 0 and 1: the sum is then close to (d/2)·f(x), where f(x) is the average of cos(x·θ(t)) over t, which shows the shape of the decay without the detail of a particular d. The sinusoidal encoding spreads its frequencies geometrically, θ(t) = b⁻ᵗ with base b = 10000; the curves compare it with narrower spreads and with powers of t.",
    chartText:
      "Solid lines: (d/2)·f(x) from exact formulas. Dashed, in the same colour: the exact finite sum at the current dim d = {dim}, from the same call. At short range the two agree closely. At long range the integral goes to zero, while the finite sum keeps fluctuating at a level of order √h: a smooth decay holds only on average there. That difference is real, not a plotting artefact.",
    familyText:
      "A smaller base packs the frequencies into a narrower band, from 1 down to 1/b. Its integral falls faster and first crosses zero at x ≈ {zeroSmall} for b = 100, about {ratio}·b, then oscillates about zero; with b = 10000 the first zero lies at x ≈ {zeroLarge}, beyond the short range where the decay is read. The power family tᵅ decays like x^(−1/α) and stays positive for α > 1; for α ≤ 1 it oscillates about zero, and α = 1 is the linear family, whose integral is sin x / x.",
    hood: "Both curves come from the library's decayComparison, one call per family: the integral in closed form (for the exponential family (Ci(x) − Ci(x/b))/ln b, with Ci the cosine integral; for powers of t a ₁F₂ hypergeometric series, or an asymptotic form at large x) and the finite sum in double precision. The first zeros quoted are found with decayIntegral.",
    families: "families",
    exp10000: "exp, b = 10000 (the paper)",
    exp1000: "exp, b = 1000",
    exp100: "exp, b = 100",
    power: "power tᵅ",
    linear: "linear t",
    alpha: "α",
    view: "view",
    short: "short range, x ≤ 128",
    long: "long range",
    range: "up to",
    logX: "logarithmic x axis",
    sums: "exact finite sums",
    xLabel: "relative distance x",
    yLabel: "Σ cos(x θᵢ)  and  (d/2)·f(x)",
    integral: "(d/2)·f: {family}",
    sum: "sum: {family}",
    badAlpha: "α must be a number from {min} to {max}.",
    capped:
      "{points} points per curve at dim {dim}, so that redraws stay fast: at long range the grid samples the fast oscillations of the sum.",
    none: "Choose at least one family.",
    error: "The decay cannot be computed for these options: {message}",
  },
  zh: {
    title: "远程衰减",
    hood: "两条曲线都来自库函数 decayComparison，每族调用一次：积分用闭式解（指数族为 (Ci(x) − Ci(x/b))/ln b，Ci 为余弦积分；t 的幂次族为 ₁F₂ 超几何级数，x 较大时用渐近式），有限和用双精度计算。文中的第一个零点由 decayIntegral 求得。",
    lead: "回到编码本身：它的两行的点积为什么会随距离衰减？对距离 x，每一对给点积贡献 cos(x·ωᵢ)。x = 0 时每一项都是 1；x 增大后，快的维度对转过一圈又一圈，慢的几乎不动，各项就不再一致。点积衰减得多快，取决于频率如何分布。把第 i 对的频率写成 θ(t)，其中 t = 2i/d 是 0 到 1 之间的一个点：点积就近似等于 (d/2)·f(x)，f(x) 是 cos(x·θ(t)) 对 t 的平均，它去掉了具体维度 d 的细节，只留下衰减的形状。正弦位置编码的频率按几何级数分布，θ(t) = b⁻ᵗ，底数 b = 10000；下面的曲线把它与更窄的分布以及 t 的幂次相比较。",
    chartText:
      "实线：用精确公式算出的 (d/2)·f(x)。同色虚线：当前维度 d = {dim} 下的精确有限和，来自同一次调用。近距离时两者吻合得很好。远距离时积分趋于零，而有限和仍在 √h 量级上起伏：那里的平滑衰减只在平均意义上成立。这个差异是真实存在的，不是绘图造成的。",
    familyText:
      "底数越小，频率越集中在从 1 到 1/b 的窄带里。它的积分下降得更快，b = 100 时在 x ≈ {zeroSmall}（约 {ratio}·b）处第一次变为零，之后在零附近振荡；b = 10000 时第一个零点在 x ≈ {zeroLarge}，远在读取衰减的短距离范围之外。幂函数族 tᵅ 按 x^(−1/α) 衰减，α > 1 时保持为正；α ≤ 1 时在零附近振荡，α = 1 就是线性族，其积分为 sin x / x。",
    families: "函数族",
    exp10000: "指数，b = 10000（原论文）",
    exp1000: "指数，b = 1000",
    exp100: "指数，b = 100",
    power: "幂函数 tᵅ",
    linear: "线性 t",
    alpha: "α",
    view: "视图",
    short: "近距离，x ≤ 128",
    long: "远距离",
    range: "最远到",
    logX: "x 轴取对数",
    sums: "精确有限和",
    xLabel: "相对距离 x",
    yLabel: "Σ cos(x θᵢ) 与 (d/2)·f(x)",
    integral: "(d/2)·f：{family}",
    sum: "求和：{family}",
    badAlpha: "α 必须是 {min} 到 {max} 之间的数。",
    capped:
      "维度为 {dim} 时每条曲线只取 {points} 个点，以保证重绘流畅：远距离时网格只是对求和的快速振荡进行采样。",
    none: "请至少选择一个函数族。",
    error: "这些选项下无法计算衰减：{message}",
  },
};

export const formulas = {
  riemann: String.raw`\displaystyle \sum_{i=0}^{h-1} \cos(x\,\theta_i) \;\approx\; \frac{d}{2}\, f(x), \qquad \theta_i = \theta\!\left(\tfrac{2i}{d}\right)`,
  integral: String.raw`\displaystyle f(x) = \int_0^1 \cos\big(x\,\theta(t)\big)\, dt`,
  exp: String.raw`\displaystyle \theta(t) = b^{-t}: \quad f(x) = \frac{\operatorname{Ci}(x) - \operatorname{Ci}(x/b)}{\ln b}`,
  power: [
    String.raw`\theta(t) = t^{\alpha}:`,
    String.raw`\displaystyle f(x) = {}_1F_2\!\left(\tfrac{s}{2};\ \tfrac12,\ 1 + \tfrac{s}{2};\ -\tfrac{x^2}{4}\right),`,
    String.raw`\displaystyle s = \tfrac{1}{\alpha}`,
  ],
  linear: String.raw`\displaystyle \theta(t) = t: \quad f(x) = \frac{\sin x}{x}`,
};

const VIEWS = ["short", "long"];
const POWERS_OF_TEN = { 1e4: "10⁴", 1e5: "10⁵", 1e6: "10⁶" };

export function mount(root, app) {
  const lib = app.lib;
  const bool = (v) => (v === "1" ? true : v === "0" ? false : undefined);
  const settings = {
    families: app.param("decay.families", DEFAULT_FAMILIES.join(","), (v) =>
      parseFamilies(v)?.join(","),
    ),
    alpha: app.param("decay.alpha", ALPHA.fallback, parseAlpha),
    view: app.param("decay.view", "short", (v) =>
      VIEWS.includes(v) ? v : undefined,
    ),
    range: app.param("decay.range", RANGES[0], (v) =>
      RANGES.includes(Number(v)) ? Number(v) : undefined,
    ),
    logX: app.param("decay.log", false, bool),
    sums: app.param("decay.sums", true, bool),
  };
  const chosen = new Set(parseFamilies(settings.families));
  const change = (key, value, text = String(value)) => {
    settings[key] = value;
    app.setParam(`decay.${key === "logX" ? "log" : key}`, text);
    redraw();
  };

  heading(root, app);
  // Filled at the first update, a step of its own: the zeros take a pass
  // over 40002 values of the integral.
  const familyText = paragraph("");
  root.append(
    ...Object.values(formulas).map((tex) => displayFormula(app, tex)),
    familyText,
  );

  const familyBoxes = FAMILIES.map((family) =>
    checkbox(
      app.t(family.key),
      chosen.has(family.key),
      (on) => {
        if (on) chosen.add(family.key);
        else chosen.delete(family.key);
        const list = FAMILIES.filter((f) => chosen.has(f.key)).map(
          (f) => f.key,
        );
        change("families", list.join(","));
      },
      `decay-family-${family.key}`,
    ),
  );
  const alphaInput = numberInput(
    { value: settings.alpha, min: ALPHA.min, max: ALPHA.max, step: 0.25 },
    "decay-alpha",
  );
  liveField(alphaInput, {
    read(text) {
      const alpha = parseAlpha(text.trim());
      return alpha === undefined ? { problem: "badAlpha" } : { value: alpha };
    },
    apply: (alpha) => change("alpha", alpha),
    shown: () => String(settings.alpha),
    report: (problem) => app.note(notes, problem ? app.t(problem, ALPHA) : ""),
  });
  const alphaField = field(app.t("alpha"), alphaInput);
  const rangeChoices = RANGES.map((r) => [String(r), POWERS_OF_TEN[r]]);
  const rangeField = select(
    app.t("range"),
    rangeChoices,
    String(settings.range),
    (v) => change("range", Number(v)),
    "decay-range",
  );
  const familySet = element(
    "fieldset",
    { className: "sec-controls sec-fieldset" },
    [
      element("legend", { text: app.t("families") }),
      ...familyBoxes,
      alphaField,
    ],
  );
  root.append(
    familySet,
    controlRow([
      select(
        app.t("view"),
        VIEWS.map((v) => [v, app.t(v)]),
        settings.view,
        (v) => change("view", v),
        "decay-view",
      ),
      rangeField,
      checkbox(
        app.t("logX"),
        settings.logX,
        (on) => change("logX", on, on ? "1" : "0"),
        "decay-log",
      ),
      checkbox(
        app.t("sums"),
        settings.sums,
        (on) => change("sums", on, on ? "1" : "0"),
        "decay-sums",
      ),
    ]),
  );

  const chartText = paragraph("");
  const box = chartBox();
  const message = paragraph("", "sec-text sec-warning");
  // The families' notes stay beside their chart.
  const notes = element("div");
  root.append(chartText, box, message, notes);

  let chart = null;
  let chartKey = "";
  let last = null;
  let shown = "";

  // The series change with the chosen families, so the chart is rebuilt then.
  function chartFor(families) {
    const key = JSON.stringify([families, settings]);
    if (key === chartKey) return chart;
    chartKey = key;
    box.replaceChildren();
    // A family's integral and sum share a colour, the same whichever other
    // families are shown.
    const series = [];
    for (const family of families) {
      const name = familyName(family);
      const colour = FAMILIES.findIndex((f) => f.key === family);
      series.push({ label: app.t("integral", { family: name }), colour });
      if (settings.sums)
        series.push({
          label: app.t("sum", { family: name }),
          dash: [5, 4],
          colour,
        });
    }
    chart = app.lineChart(box, {
      testid: "decay-chart",
      xLabel: app.t("xLabel"),
      yLabel: app.t("yLabel"),
      logX: settings.logX,
      series,
    });
    app.exportable(box, chart.canvas, "decay");
    return chart;
  }

  function familyName(key) {
    return key === "power"
      ? `${app.t("power")}, α = ${settings.alpha}`
      : app.t(key);
  }

  function redraw() {
    for (const _ of redrawSteps());
  }

  // One family's curves a step.
  function* redrawSteps() {
    if (last === null) return;
    const dim = Math.max(2, last.dim);
    const families = FAMILIES.filter((f) => chosen.has(f.key)).map(
      (f) => f.key,
    );
    const key = JSON.stringify([dim, families, settings]);
    if (key === shown) return;
    rangeField.hidden = settings.view !== "long";
    chartText.textContent = app.t("chartText", { dim });
    try {
      const reach = settings.view === "short" ? SHORT_RANGE : settings.range;
      const points = pointCount(dim, families.length);
      const x = xGrid(reach, points, settings.logX);
      const curves = [];
      let xs = null;
      for (const family of families) {
        if (xs) yield;
        const result = lib.decayComparison({
          dim,
          x,
          ...familyOptions(family, settings.alpha),
        });
        xs = result.x;
        curves.push(result.integral);
        if (settings.sums) curves.push(result.sum);
      }
      const target = chartFor(families);
      target.set(xs ?? new Float64Array(0), curves);
      message.textContent = families.length === 0 ? app.t("none") : "";
      message.hidden = families.length > 0;
      const capped = points < POINTS.max;
      app.note(notes, capped ? app.t("capped", { points, dim }) : "");
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
      if (!familyText.textContent) {
        familyText.textContent = app.t("familyText", firstZeros(lib));
        yield;
      }
      last = state;
      yield* redrawSteps();
    },
  };
}

/**
 * Where the exponential family's integral first crosses zero, for b = 100
 * and b = 10000: the first sign change on a grid of step b/10000 over
 * [0, 2b], refined linearly between its two points. The grid is searched
 * coarse first, a tenth of its points, then finely inside the coarse
 * interval that changes sign: f varies on the scale of b, far wider.
 */
function firstZeros(lib) {
  const integral = (base, from, to, count) =>
    lib.decayIntegral({ theta: "exp", base, x: { from, to, count } });
  const zero = (base) => {
    const step = base / 10000;
    const coarse = integral(base, 0, 2 * base, 2001);
    for (let k = 1; k < coarse.length; k++) {
      if (coarse[k] > 0) continue;
      const from = (k - 1) * 10 * step;
      const f = integral(base, from, from + 10 * step, 11);
      for (let j = 1; j < f.length; j++)
        if (f[j] <= 0)
          return from + (j - 1 + f[j - 1] / (f[j - 1] - f[j])) * step;
    }
    return NaN;
  };
  const small = zero(100);
  const large = zero(10000);
  return {
    zeroSmall: Number(small.toPrecision(3)),
    zeroLarge: Math.round(large),
    ratio: Number((small / 100).toPrecision(2)),
  };
}
