// Why order must be encoded: a single attention head over a short sentence,
// computed here in float64 from seeded word vectors and weights. Without
// positions, a shuffled sentence gives every word exactly the output it had
// (attention sees a set, not a sequence); with the module's encoding added
// to each word's vector, the outputs change with the order. Then the two
// design questions every reader asks: why add the code rather than append
// it, and why a formula rather than a learned table.
import { generator } from "../parts/rope-scores.js";
import {
  element,
  heading,
  paragraph,
  setText,
  scientific,
} from "../parts/section-parts.js";

// Drawn without the preset's table: a preset's refusal leaves it be.
export const presetFree = true;

export const id = "order";

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
    title: "Attention cannot see order",
    lead: "In self-attention, every token asks every other token how relevant it is (the score of a query against a key) and takes a weighted average of what they carry (their values). Nothing in that calculation looks at where a token stands. Shuffle the words below: each word's output stays exactly what it was, only listed in another order, so “the dog chased the cat” and “the cat chased the dog” look alike to the model.",
    sentence: "the dog chased the cat",
    shuffle: "Shuffle the words",
    reset: "Back to the first order",
    word: "word",
    position: "now at",
    plain: "without positions: change of its output",
    encoded: "with positions added: change of its output",
    tableLabel:
      "Each word's attention output after shuffling, compared with the first order",
    same: "the same",
    summaryPlain:
      "Without positions the largest change over all words is {plain}: only the rounding of sums taken in another order.",
    summaryEncoded:
      "With the encoding added to each word's vector, the largest change is {encoded}: now the order matters.",
    unchanged: "This is the first order: shuffle to compare.",
    setup:
      "A single attention head of width {dim}: every word has a random vector, the same for both “the”, and the query, key and value weights are random too; the encoding added is the sinusoidal table at d = {dim}.",
    addTitle: "Add it, or append it?",
    addText:
      "The position's vector is added to the word's vector rather than appended to it. Appending would make every vector, and every weight matrix that reads it, wider. Adding keeps the width: in a space of hundreds of dimensions, randomly chosen directions are nearly perpendicular, so the model can keep position in some directions and meaning in others without either drowning the other. The price is that the two are mixed once the vector is multiplied by the query and key weights, which is where RoPE comes in, further down.",
    learnedTitle: "Learned, or computed?",
    learnedText:
      "A model can also learn one vector per position (BERT and GPT-2 do). Vaswani et al. tried both and report nearly identical results; a learned table, however, has no row for a position beyond the longest it was trained on, while the sinusoidal one is defined for every position, and a shift of position is always the same rotation. The rest of this page is about that table.",
  },
  zh: {
    title: "注意力看不见顺序",
    lead: "在自注意力中，每个词元都要问其他每个词元“你和我有多相关”（查询与键的得分），再对它们携带的内容（值）做加权平均。整个计算中没有任何一步看词元所处的位置。把下面的词打乱：每个词的输出与原来完全相同，只是排列顺序不同，所以在模型看来，“狗 追 猫”和“猫 追 狗”没有区别。",
    sentence: "那只 狗 追 那只 猫",
    shuffle: "打乱词序",
    reset: "恢复原来的顺序",
    word: "词",
    position: "现在的位置",
    plain: "不加位置：输出的变化",
    encoded: "加上位置编码：输出的变化",
    tableLabel: "打乱后每个词的注意力输出，与原顺序相比",
    same: "完全相同",
    summaryPlain:
      "不加位置时，所有词中最大的变化为 {plain}：只是求和顺序不同带来的舍入差异。",
    summaryEncoded:
      "把位置编码加到每个词的向量上后，最大的变化为 {encoded}：顺序变得重要了。",
    unchanged: "这是原来的顺序：打乱后再比较。",
    setup:
      "一个宽度为 {dim} 的注意力头：每个词有一个随机向量，两个“那只”的向量相同；查询、键和值的权重也是随机的。加上的编码是 d = {dim} 的正弦编码表。",
    addTitle: "相加，还是拼接？",
    addText:
      "位置向量是加到词向量上，而不是拼接在后面。拼接会让每个向量以及读取它的每个权重矩阵都变宽；相加则保持宽度不变：在几百维的空间里，随机方向几乎两两垂直，模型可以用一些方向表示位置、用另一些方向表示词义，两者互不淹没。代价是向量乘上查询和键的权重之后，两者就混在了一起，这正是下文 RoPE 要解决的问题。",
    learnedTitle: "学出来，还是算出来？",
    learnedText:
      "模型也可以为每个位置学习一个向量（BERT 和 GPT-2 就是这样）。Vaswani 等人两种都试过，结果几乎相同；但学习得到的表没有超出训练时最长序列的位置，而正弦编码对每个位置都有定义，而且位置的平移始终是同一个旋转。本页其余部分讲的就是这张表。",
  },
};

export const formulas = {
  attention: [
    String.raw`\operatorname{out}_t = \sum_s \operatorname{softmax}_s\!\Big(\frac{q_t \cdot k_s}{\sqrt{d}}\Big)\, v_s,`,
    String.raw`q_t = W_Q x_t,\; k_s = W_K x_s,\; v_s = W_V x_s`,
  ],
};

const DIM = 16;
const SEED = 7;

/** A seeded matrix of rows × cols normal values, scaled by 1/√cols. */
export function randomMatrix(next, rows, cols) {
  const normal = () =>
    Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Array.from({ length: rows }, () =>
    Float64Array.from({ length: cols }, () => normal() / Math.sqrt(cols)),
  );
}

const times = (matrix, x) =>
  Float64Array.from(matrix, (row) => row.reduce((s, w, j) => s + w * x[j], 0));

/** One head of self-attention over the rows xs: each row's output. */
function attention(xs, weights) {
  const q = xs.map((x) => times(weights.q, x));
  const k = xs.map((x) => times(weights.k, x));
  const v = xs.map((x) => times(weights.v, x));
  return q.map((qt) => {
    const scores = k.map(
      (ks) => qt.reduce((s, a, j) => s + a * ks[j], 0) / Math.sqrt(DIM),
    );
    const top = Math.max(...scores);
    const w = scores.map((s) => Math.exp(s - top));
    const total = w.reduce((a, b) => a + b, 0);
    const out = new Float64Array(DIM);
    v.forEach((vs, s) => {
      for (let j = 0; j < DIM; j++) out[j] += (w[s] / total) * vs[j];
    });
    return out;
  });
}

const largestChange = (a, b) =>
  a.reduce((m, x, j) => Math.max(m, Math.abs(x - b[j])), 0);

const short = (v) =>
  v === 0 ? "0" : v < 1e-3 ? scientific(v) : String(Number(v.toPrecision(3)));

export function mount(root, app) {
  const { lib } = app;
  heading(root, app);
  root.append(
    element("div", "formula formula-display", [
      app.displayMath(formulas.attention),
    ]),
  );
  const words = app.t("sentence").split(" ");
  const next = generator(SEED);
  const vocabulary = new Map();
  for (const word of words)
    if (!vocabulary.has(word))
      vocabulary.set(word, randomMatrix(next, 1, DIM)[0]);
  const weights = {
    q: randomMatrix(next, DIM, DIM),
    k: randomMatrix(next, DIM, DIM),
    v: randomMatrix(next, DIM, DIM),
  };
  // The encoding from the module, one row per position.
  const table = lib.table({
    dim: DIM,
    positions: words.length,
    dtype: "float64",
  });
  const pe = (p) => table.subarray(p * DIM, (p + 1) * DIM);
  const withPositions = (order) =>
    order.map((w, p) =>
      Float64Array.from(vocabulary.get(words[w]), (x, j) => x + pe(p)[j]),
    );
  const first = words.map((_, w) => w);
  const plainFirst = attention(
    first.map((w) => vocabulary.get(words[w])),
    weights,
  );
  const encodedFirst = attention(withPositions(first), weights);

  let order = first;
  const sentence = element("p", {
    className: "token-sentence",
    testid: "order-sentence",
  });
  const shuffle = element("button", {
    type: "button",
    testid: "shuffle-tokens",
    text: app.t("shuffle"),
  });
  const reset = element("button", {
    type: "button",
    testid: "order-reset",
    text: app.t("reset"),
  });
  const body = element("tbody");
  const summary = element("p", {
    className: "result",
    testid: "order-summary",
    role: "status",
  });
  root.append(
    element("div", "sec-controls", [sentence, shuffle, reset]),
    element(
      "div",
      {
        className: "pair-table-box",
        tabindex: "0",
        role: "region",
        "aria-label": app.t("tableLabel"),
      },
      [
        element("table", { className: "pair-table", testid: "order-table" }, [
          element("thead", {}, [
            element(
              "tr",
              {},
              ["word", "position", "plain", "encoded"].map((key) =>
                element("th", { scope: "col", text: app.t(key) }),
              ),
            ),
          ]),
          body,
        ]),
      ],
    ),
    summary,
    paragraph(app.t("setup", { dim: DIM }), "caption"),
    element("h3", { text: app.t("addTitle") }),
    paragraph(app.t("addText")),
    element("h3", { text: app.t("learnedTitle") }),
    paragraph(app.t("learnedText")),
  );

  function show() {
    const plain = attention(
      order.map((w) => vocabulary.get(words[w])),
      weights,
    );
    const encoded = attention(withPositions(order), weights);
    setText(sentence, order.map((w) => words[w]).join(" "));
    let worstPlain = 0;
    let worstEncoded = 0;
    const rows = order.map((w, p) => {
      const changePlain = largestChange(plain[p], plainFirst[w]);
      const changeEncoded = largestChange(encoded[p], encodedFirst[w]);
      worstPlain = Math.max(worstPlain, changePlain);
      worstEncoded = Math.max(worstEncoded, changeEncoded);
      const row = element("tr", {}, [
        element("td", { text: words[w] }),
        element("td", { text: String(p) }),
        element("td", { text: short(changePlain) }),
        element("td", { text: short(changeEncoded) }),
      ]);
      row.dataset.plain = String(changePlain);
      row.dataset.encoded = String(changeEncoded);
      return row;
    });
    body.replaceChildren(...rows);
    const moved = order.some((w, p) => w !== p);
    summary.dataset.plain = String(worstPlain);
    summary.dataset.encoded = String(worstEncoded);
    setText(
      summary,
      moved
        ? `${app.t("summaryPlain", { plain: short(worstPlain) })} ${app.t("summaryEncoded", { encoded: short(worstEncoded) })}`
        : app.t("unchanged"),
    );
  }

  // A shuffle always gives a new sentence, neither the last nor the first.
  const same = (a, b) => a.every((w, p) => words[w] === words[b[p]]);
  const random = generator(Date.now() >>> 0);
  shuffle.addEventListener("click", () => {
    let next;
    do {
      next = [...order];
      for (let i = next.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [next[i], next[j]] = [next[j], next[i]];
      }
    } while (same(next, order) || same(next, first));
    order = next;
    show();
  });
  reset.addEventListener("click", () => {
    order = first;
    show();
  });
  show();
  return { update() {} };
}
