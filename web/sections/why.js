// Why sinusoids: the obvious ways to tell a model where a token is, and
// what goes wrong with each: the raw integer grows without bound, a
// position divided by the length means something else in every sequence,
// and binary digits jump. The sinusoidal table is the binary counter made
// smooth. The bits are the position's own digits; the last heatmap is the
// module's table at the same size.
import { element } from "../dom.js";
import { heading, paragraph } from "../parts/section-parts.js";

// Drawn without the preset's table: a preset's refusal leaves it be.
export const presetFree = true;

export const id = "why";

/** The papers the section's claims come from (sources.js). */
export const cites = ["vaswani2017"];

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
    title: "Why sines and cosines?",
    lead: "A Transformer compares every token with every other and has no idea of order unless the input carries it. The input is a vector per token, so the position must become a vector too: bounded, the same for a position in any sequence, different for every position, and smooth, so that nearby positions look alike and a shift of position is easy to compute. The obvious candidates each fail one of these.",
    rawTitle: "1. The position itself, p",
    rawText:
      "Add p to the vector and position 500 outweighs everything the token says: values grow without bound, and a model trained on short sequences never saw the large ones.",
    normTitle: "2. The position divided by the length, p / (n − 1)",
    normText:
      "Bounded, but a value means a different place in every sequence: 0.5 is position {a} in a sequence of {na} tokens and position {b} in one of {nb}. The distance between neighbours shrinks as sequences grow.",
    normLabel: "p / (n − 1) for two sequence lengths",
    binaryTitle: "3. The position's binary digits",
    binaryText:
      "Bounded, the same in every sequence and different for every position: each dimension is one bit of p, the lowest flipping at every step, the next every two steps, and so on. But bits jump: neighbours such as 127 and 128 differ in every digit, and nothing in between is defined.",
    binaryLabel: "Bits of p: positions down, bit k across (lowest first)",
    sineTitle: "4. A smooth binary counter: sines and cosines",
    sineText:
      "Replace each bit by a sine and a cosine of the position, the fastest turning once every 2π positions and each next one more slowly, by a constant factor (the base to the power 2/d). Every value stays in [−1, 1], every position has its own pattern, neighbours look alike, and, because each pair turns at a fixed rate, moving by k positions is the same rotation wherever it starts. This is the sinusoidal encoding table.",
    sineSize:
      "Drawn here at d = {dim} with base {base}, so that, like the highest bit, the slowest pair turns once in 256 positions.",
    sineLabel: "The sinusoidal table: positions down, dimensions across",
    position: "position p",
    value: "value",
    bit: "bit k",
    dimension: "dimension j",
    lengthSeries: "n = {n}",
    bitReadout: "position {p} · bit {k} = {bit}",
  },
  zh: {
    title: "为什么用正弦和余弦？",
    lead: "Transformer 把每个词元与其他所有词元比较，除非输入本身带着顺序信息，它并不知道顺序。输入是每个词元一个向量，所以位置也必须变成向量：有界；同一个位置在任何序列中都相同；每个位置都不同；并且平滑，使相邻的位置彼此相似，位置的平移也容易计算。显而易见的几种做法都不满足其中某一条。",
    rawTitle: "1. 直接用位置 p",
    rawText:
      "把 p 加到向量上，位置 500 就会压过词元本身的全部信息：数值无界增长，而在短序列上训练的模型从未见过大的数值。",
    normTitle: "2. 位置除以长度，p / (n − 1)",
    normText:
      "有界了，但同一个数值在不同序列中代表不同的位置：0.5 在 {na} 个词元的序列中是位置 {a}，在 {nb} 个词元的序列中是位置 {b}。序列越长，相邻位置之间的差距越小。",
    normLabel: "两种序列长度下的 p / (n − 1)",
    binaryTitle: "3. 位置的二进制位",
    binaryText:
      "有界、在任何序列中都相同、每个位置都不同：每一维是 p 的一个二进制位，最低位每一步翻转一次，下一位每两步翻转一次，依此类推。但二进制位会跳变：像 127 和 128 这样的相邻位置每一位都不同，而两者之间没有任何定义。",
    binaryLabel: "p 的二进制位：纵向为位置，横向为第 k 位（最低位在前）",
    sineTitle: "4. 平滑的二进制计数器：正弦和余弦",
    sineText:
      "把每一位换成位置的一个正弦和一个余弦，最快的一对每 2π 个位置转一圈，之后每一对按固定的倍数（底数的 2/d 次方）变慢。所有数值都在 [−1, 1] 之内，每个位置都有自己的图案，相邻位置彼此相似；而且因为每一对以固定的速率转动，移动 k 个位置在任何起点都是同一个旋转。这就是正弦位置编码表。",
    sineSize:
      "这里取 d = {dim}、底数 {base}，使最慢的一对像最高位一样，在 256 个位置内转一圈。",
    sineLabel: "正弦编码表：纵向为位置，横向为维度",
    position: "位置 p",
    value: "数值",
    bit: "第 k 位",
    dimension: "维度 j",
    lengthSeries: "n = {n}",
    bitReadout: "位置 {p} · 第 {k} 位 = {bit}",
  },
};

export const formulas = {};

const ROWS = 256;
const BITS = 8;
const LENGTHS = [11, 101];

export function mount(root, app) {
  const lib = app.lib;
  heading(root, app);

  const rawBox = element("figure", "chart", [
    element("figcaption", { text: app.t("rawTitle") }),
  ]);
  const raw = app.lineChart(rawBox, {
    xLabel: app.t("position"),
    yLabel: app.t("value"),
    height: 160,
    series: [{ label: "p" }],
  });
  rawBox.append(paragraph(app.t("rawText")));

  const normBox = element("figure", "chart", [
    element("figcaption", { text: app.t("normTitle") }),
  ]);
  const norm = app.lineChart(normBox, {
    label: app.t("normLabel"),
    xLabel: app.t("position"),
    yLabel: app.t("value"),
    height: 160,
    series: LENGTHS.map((n, s) => ({
      label: app.t("lengthSeries", { n }),
      colour: s + 1,
    })),
  });
  normBox.append(
    paragraph(
      app.t("normText", {
        a: (LENGTHS[0] - 1) / 2,
        na: LENGTHS[0],
        b: (LENGTHS[1] - 1) / 2,
        nb: LENGTHS[1],
      }),
    ),
  );

  const bitsBox = element("figure", "chart", [
    element("figcaption", { text: app.t("binaryTitle") }),
  ]);
  const bits = app.heatmap(bitsBox, {
    label: app.t("binaryLabel"),
    testid: "why-bits",
    square: false,
    // Bits are 0 or 1: drawn as the map's two ends, read as themselves.
    readout: (r, c, v) =>
      app.t("bitReadout", { p: r, k: c, bit: v > 0 ? 1 : 0 }),
  });
  bitsBox.append(paragraph(app.t("binaryText")));

  const sineBox = element("figure", "chart", [
    element("figcaption", { text: app.t("sineTitle") }),
  ]);
  const sines = app.heatmap(sineBox, {
    label: app.t("sineLabel"),
    testid: "why-sines",
    square: false,
  });
  sineBox.append(paragraph(app.t("sineText")));

  // Sixteen columns, like two per bit, with the base chosen so that the
  // slowest pair turns once in ROWS positions, as the highest bit does:
  // (2π)·base^((d − 2)/d) = ROWS.
  const dim = 2 * BITS;
  const base = (ROWS / (2 * Math.PI)) ** (dim / (dim - 2));
  sineBox.append(
    paragraph(app.t("sineSize", { dim, base: Number(base.toPrecision(4)) })),
  );

  root.append(
    element("div", "figure-row", [rawBox, normBox]),
    element("div", "figure-row", [bitsBox, sineBox]),
  );

  // Nothing here follows the shared controls: the charts are drawn once,
  // one a step.
  let drawn = false;
  function* draw() {
    const ps = Float64Array.from({ length: 512 }, (_, p) => p);
    raw.set(ps, [ps]);
    yield;
    const longest = Math.max(...LENGTHS);
    const xs = Float64Array.from({ length: longest }, (_, p) => p);
    norm.set(
      xs,
      LENGTHS.map((n) =>
        Float64Array.from(xs, (p) => (p < n ? p / (n - 1) : NaN)),
      ),
    );
    yield;
    const digits = new Float64Array(ROWS * BITS);
    for (let p = 0; p < ROWS; p++)
      for (let k = 0; k < BITS; k++)
        digits[p * BITS + k] = ((p >> k) & 1) * 2 - 1;
    bits.set(digits, ROWS, BITS, {
      rowLabel: app.t("position"),
      colLabel: app.t("bit"),
      scale: ["1", "", "0"],
    });
    yield;
    const sineTable = lib.table({
      dim,
      base,
      positions: ROWS,
      dtype: "float64",
    });
    sines.set(sineTable, ROWS, dim, {
      rowLabel: app.t("position"),
      colLabel: app.t("dimension"),
    });
    drawn = true;
  }
  return {
    update() {
      return drawn ? undefined : draw();
    },
  };
}
