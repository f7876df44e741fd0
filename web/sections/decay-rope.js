// The decay section's RoPE panel: the rescaled schedules long-context models
// ship with, beside the unscaled one at the same base. Frequencies come from
// the library's ropeFrequencies, the decay from its dotProducts given them as
// explicit frequencies; the page only turns ω into the wavelength 2π/ω.
import { pointCount } from "../parts/decay-families.js";
import {
  chartBox,
  controlRow,
  displayFormula,
  element,
  paragraph,
  select,
} from "../parts/section-parts.js";
import { inWords } from "../parts/library-error.js";

/** Each scheme with its model's rope_theta and original context length. */
export const SCHEMES = {
  linear: {
    base: 10000,
    context: 4096,
    scaling: { type: "linear", factor: 4 },
  },
  dynamic: {
    base: 10000,
    context: 4096,
    scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 4096 },
  },
  yarn: {
    base: 1e6,
    context: 32768,
    scaling: { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 32768 },
  },
  llama3: {
    base: 500000,
    context: 8192,
    scaling: {
      type: "llama3",
      factor: 8,
      lowFreqFactor: 1,
      highFreqFactor: 4,
      originalMaxPositionEmbeddings: 8192,
    },
  },
};
export const SEQ_LENS = [4096, 8192, 16384, 32768];
export const ROPE_RANGES = [16384, 131072, 1048576];

/** ropeFrequencies' options for a scheme (dynamic also takes seqLen). */
export function schemeOptions(key, dim, seqLen) {
  const { base, scaling } = SCHEMES[key];
  return {
    dim,
    base,
    scaling: key === "dynamic" ? { ...scaling, seqLen } : scaling,
  };
}

/**
 * Relative distances 1 … range on a logarithmic grid, rounded to whole
 * positions (duplicates at the short end dropped).
 */
export function distanceGrid(range, count) {
  const top = Math.log10(range);
  const x = new Set();
  for (let j = 0; j < count; j++)
    x.add(Math.round(10 ** ((top * j) / (count - 1))));
  return Float64Array.from(x);
}

export const strings = {
  en: {
    title: "Context extension: stretching RoPE",
    lead: "A model trained on sequences of a few thousand tokens has never seen its slowest pairs turn far. To read a longer context, long-context models stretch their RoPE frequencies. Linear interpolation divides every ω by a factor; dynamic NTK raises the base instead, more as the sequence grows; YaRN and Llama 3 leave the fast pairs alone, stretch the slowest fully and blend in between. Llama 3.1, trained on 8192 positions, starts stretching pairs whose wavelength exceeds 2048 positions (a quarter of its original context) and stretches fully those longer than 8192; YaRN blends between pairs that turn 32 times and once over the original context. Each schedule below uses its model's base, the unscaled curve the same base; the dim d is the shared control.",
    hood: "The frequencies come from the library's ropeFrequencies, given each model's configuration: rope_theta as the base and its rope_scaling (type, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings); the decay curves from dotProducts given those frequencies. The page only turns ω into the wavelength 2π/ω.",
    scheme: "schedule",
    linearScheme: "linear ×4 (Llama 2, base 10⁴)",
    dynamicScheme: "dynamic NTK ×2 (Llama 2, base 10⁴)",
    yarnScheme: "YaRN ×4 (Qwen2.5, base 10⁶)",
    llama3Scheme: "llama3 ×8 (Llama 3.1, base 5·10⁵)",
    seqLen: "sequence length",
    ropeRange: "up to",
    unscaled: "unscaled",
    context: "original context {context}",
    attention:
      "Attention factor of this schedule: {factor} (cos and sin are multiplied by it).",
    spectrumText:
      "Wavelength 2π/ωᵢ of each pair i, on a logarithmic axis; the dashed line is the original context length.",
    decayText:
      "The exact finite sum g(x) = Σ cos(x·ωᵢ), not normalised (g(0) = d/2 = {pairs}), at whole distances x from 1 to {range} on a logarithmic axis ({points} points).",
    pairIndex: "pair i",
    wavelength: "wavelength 2π/ωᵢ",
    distance: "relative distance x",
    decaySum: "g(x) = Σ cos(x ωᵢ)",
    oddDim: "RoPE needs an even dim: the shared dim d = {dim} is odd.",
  },
  zh: {
    title: "上下文扩展：拉伸 RoPE",
    lead: "在几千个词元的序列上训练的模型，从未见过它最慢的那些维度对转出很远。为了读取更长的上下文，长上下文模型会拉伸 RoPE 的频率。线性插值把每个 ω 除以一个倍数；动态 NTK 则增大底数，序列越长增得越多；YaRN 和 Llama 3 保持转得快的维度对不变，完全拉伸最慢的，中间平滑过渡。Llama 3.1 在 8192 个位置上训练，波长超过 2048 个位置（原始上下文的四分之一）的维度对开始被拉伸，超过 8192 的完全拉伸；YaRN 在原始上下文内转 32 圈与转 1 圈的维度对之间过渡。下面每种频率表都使用其模型的底数，未缩放的曲线使用同一底数；维度 d 取共享控件的值。",
    hood: "频率来自库函数 ropeFrequencies，参数取自各模型的配置：rope_theta 作为底数，以及 rope_scaling（type、factor、low_freq_factor、high_freq_factor、original_max_position_embeddings）；衰减曲线来自 dotProducts，输入就是这些频率。页面只把 ω 换算成波长 2π/ω。",
    scheme: "频率表",
    linearScheme: "线性 ×4（Llama 2，底数 10⁴）",
    dynamicScheme: "动态 NTK ×2（Llama 2，底数 10⁴）",
    yarnScheme: "YaRN ×4（Qwen2.5，底数 10⁶）",
    llama3Scheme: "llama3 ×8（Llama 3.1，底数 5·10⁵）",
    seqLen: "序列长度",
    ropeRange: "最远到",
    unscaled: "未缩放",
    context: "原始上下文 {context}",
    attention: "此频率表的注意力因子：{factor}（cos 与 sin 都乘以它）。",
    spectrumText:
      "每个维度对 i 的波长 2π/ωᵢ，纵轴取对数；虚线是原始上下文长度。",
    decayText:
      "精确有限和 g(x) = Σ cos(x·ωᵢ)，未归一化（g(0) = d/2 = {pairs}），x 取 1 到 {range} 的整数距离，横轴取对数（{points} 个点）。",
    pairIndex: "维度对 i",
    wavelength: "波长 2π/ωᵢ",
    distance: "相对距离 x",
    decaySum: "g(x) = Σ cos(x ωᵢ)",
    oddDim: "RoPE 需要偶数维度：共享维度 d = {dim} 是奇数。",
  },
};

export const formulas = {
  wavelength: String.raw`\displaystyle \lambda_i = \frac{2\pi}{\omega_i}, \qquad g(x) = \sum_{i=0}^{d/2-1} \cos(x\,\omega_i)`,
};

export function mountRopePanel(root, app) {
  const lib = app.lib;
  const settings = {
    scheme: app.param("rope", "llama3", (v) =>
      Object.hasOwn(SCHEMES, v) ? v : undefined,
    ),
    seqLen: app.param("seqLen", 16384, (v) =>
      SEQ_LENS.includes(Number(v)) ? Number(v) : undefined,
    ),
    range: app.param("ropeRange", ROPE_RANGES[1], (v) =>
      ROPE_RANGES.includes(Number(v)) ? Number(v) : undefined,
    ),
  };
  const change = (key, value) => {
    settings[key] = value;
    app.setParam(key === "scheme" ? "rope" : key, value);
    redraw();
  };
  const choices = (list) =>
    list.map((v) => [String(v), v.toLocaleString("en")]);
  const seqLenField = select(
    app.t("seqLen"),
    choices(SEQ_LENS),
    String(settings.seqLen),
    (v) => change("seqLen", Number(v)),
    "scaling-seqlen",
  );
  const attention = paragraph("");
  attention.dataset.testid = "scaling-attention";
  const spectrumText = paragraph(app.t("spectrumText"));
  const spectrumBox = chartBox();
  const decayText = paragraph("");
  const decayBox = chartBox();
  const warning = paragraph("", "sec-text sec-warning");
  warning.setAttribute("role", "status");
  const charts = element("div", {}, [
    attention,
    spectrumText,
    spectrumBox,
    decayText,
    decayBox,
  ]);
  root.append(
    displayFormula(app, formulas.wavelength),
    controlRow([
      select(
        app.t("scheme"),
        Object.keys(SCHEMES).map((k) => [k, app.t(`${k}Scheme`)]),
        settings.scheme,
        (v) => change("scheme", v),
        "scaling-scheme",
      ),
      seqLenField,
      select(
        app.t("ropeRange"),
        choices(ROPE_RANGES),
        String(settings.range),
        (v) => change("range", Number(v)),
        "scaling-range",
      ),
    ]),
    warning,
    charts,
  );

  // The series (and the context line) change with the scheme.
  let spectrum = null;
  let decay = null;
  let chartScheme = "";
  function chartsFor(scheme) {
    if (scheme === chartScheme) return;
    chartScheme = scheme;
    const series = [
      { label: app.t("unscaled"), colour: 0 },
      { label: app.t(`${scheme}Scheme`), colour: 1 },
    ];
    const context = SCHEMES[scheme].context.toLocaleString("en");
    spectrumBox.replaceChildren();
    spectrum = app.lineChart(spectrumBox, {
      testid: "scaling-spectrum",
      xLabel: app.t("pairIndex"),
      yLabel: app.t("wavelength"),
      logY: true,
      series: [
        ...series,
        { label: app.t("context", { context }), colour: 2, dash: true },
      ],
    });
    app.exportable(spectrumBox, spectrum.canvas, "rope-scaling-spectrum");
    decayBox.replaceChildren();
    decay = app.lineChart(decayBox, {
      testid: "scaling-decay",
      xLabel: app.t("distance"),
      yLabel: app.t("decaySum"),
      logX: true,
      series,
    });
    app.exportable(decayBox, decay.canvas, "rope-scaling-decay");
  }

  let dim = null;
  let shown = "";
  function redraw() {
    for (const _ of redrawSteps());
  }

  // The spectrum, then the decay sums: two steps.
  function* redrawSteps() {
    if (dim === null) return;
    const key = JSON.stringify([dim, settings]);
    if (key === shown) return;
    seqLenField.hidden = settings.scheme !== "dynamic";
    // RoPE turns pairs: an odd dim has no schedule to show.
    const problem =
      dim % 2 === 1 ? app.t("oddDim", { dim }) : yield* draw(settings);
    warning.textContent = problem;
    warning.hidden = problem === "";
    charts.hidden = problem !== "";
    shown = key;
  }

  /** Draws both charts; "" or the library's reason why it cannot. */
  function* draw({ scheme, seqLen, range }) {
    let scaled, plain;
    try {
      scaled = lib.ropeFrequencies(schemeOptions(scheme, dim, seqLen));
      plain = lib.ropeFrequencies({
        dim,
        base: SCHEMES[scheme].base,
        scaling: { type: "default" },
      });
    } catch (error) {
      return app.t("error", { message: inWords(error, app.lang) });
    }
    const pairs = dim / 2;
    chartsFor(scheme);
    const wavelength = (omega) => omega.map((w) => (2 * Math.PI) / w);
    spectrum.set(
      Float64Array.from({ length: pairs }, (_, i) => i),
      [
        wavelength(plain.inverseFrequencies),
        wavelength(scaled.inverseFrequencies),
        new Float64Array(pairs).fill(SCHEMES[scheme].context),
      ],
    );
    attention.textContent = app.t("attention", {
      factor: Number(scaled.attentionFactor.toPrecision(6)),
    });
    yield;
    let x, sums;
    try {
      x = distanceGrid(range, pointCount(dim, 2));
      sums = [plain, scaled].map(({ inverseFrequencies }) =>
        lib.dotProducts({ dim, frequencies: inverseFrequencies, offsets: x }),
      );
    } catch (error) {
      return app.t("error", { message: inWords(error, app.lang) });
    }
    decay.set(x, sums);
    decayText.textContent = app.t("decayText", {
      pairs,
      range: range.toLocaleString("en"),
      points: x.length,
    });
    return "";
  }

  return {
    /** The panel's drawing, in steps. */
    update(state) {
      dim = state.dim;
      return redrawSteps();
    },
  };
}
