// A sentence the reader types: its tokens with their positions, each
// token's encoding as a barcode, and the encoding added to a stand-in token
// vector. Hovering (or the arrow keys) picks a token and a dimension in every
// view at once, and the formula is shown with that position and dimension
// substituted, beside the module's value.
import { colourStrip } from "../charts/heatmap.js";
import { element, setText } from "../dom.js";
import { generator } from "../parts/rope-scores.js";
import { heading } from "../parts/section-parts.js";
import { optionsAt } from "../state.js";

export const id = "tokens";

/**
 * As a panel: the shared controls it follows, and its own attributes (its
 * link parameters without the section), each with what it sets.
 */
export const panel = {
  shared: ["preset", "dim", "base", "layout", "start"],
  attributes: {
    text: "the sentence whose words get positions (up to 200 characters)",
  },
};

export const strings = {
  en: {
    title: "A sentence, position by position",
    lead: "A model reads tokens, not positions: type a sentence and each token gets its position p and the row p of the table. Below, each row is drawn as a barcode, one stripe per dimension; beside it, a vector standing in for the token's learned embedding, and their sum, which is what the first layer sees.",
    input: "sentence",
    placeholder: "type a sentence",
    // A word comes twice, at two positions: the same vector, two encodings.
    defaultText: "the cat sat on the mat",
    standIn:
      "The token vectors are stand-ins, not a trained embedding: pseudo-random values seeded by each token's text, so that the same word always gets the same vector and different words differ. Each row of the table has length √(d/2), since every pair adds sin² + cos² = 1; the Transformer multiplies its learned embeddings by √d_model before adding the table, so that the word is not drowned by its position. These stand-ins are not scaled, which is why the position dominates the sum here.",
    token: "token",
    encoding: "PE(p)",
    vector: "stand-in vector x",
    sum: "x + PE(p)",
    barcodeLabel: "Barcodes of {token} at position {p}",
    formulaSin:
      "{token} at p = {p}, dimension j = {j}: PE(p, j) = sin(p·ω{sub}) = sin({p} × {omega}) = {value}; x_j = {x}; x_j + PE(p, j) = {sum}",
    formulaCos:
      "{token} at p = {p}, dimension j = {j}: PE(p, j) = cos(p·ω{sub}) = cos({p} × {omega}) = {value}; x_j = {x}; x_j + PE(p, j) = {sum}",
    formulaPadding:
      "{token} at p = {p}, dimension j = {j}: a padding column, PE(p, j) = {value}; x_j = {x}; x_j + PE(p, j) = {sum}",
    hint: "Point at a barcode, or focus it and use the arrow keys, to read one dimension; the table's heatmap above marks the same cell, and pointing at its rows picks the token there.",
    hintAlone:
      "Point at a barcode, or focus it and use the arrow keys, to read one dimension.",
    tooMany: "Only the first {max} tokens are shown.",
    empty: "Type a sentence to see its tokens.",
  },
  zh: {
    title: "一句话，逐个位置",
    lead: "模型读的是词元，不是位置：输入一句话，每个词元得到它的位置 p 以及表中的第 p 行。下面把每一行画成条形码，每个维度一条；旁边是代替词元学习嵌入的向量，以及两者之和，也就是第一层看到的输入。",
    input: "句子",
    placeholder: "输入一句话",
    defaultText: "小 猫 看 着 小 狗",
    standIn:
      "词元向量只是替身，不是训练得到的嵌入：以每个词元的文本为种子生成的伪随机数，所以同一个词总是得到同一个向量，不同的词各不相同。编码表每一行的长度是 √(d/2)，因为每一对都贡献 sin² + cos² = 1；Transformer 在加上编码表之前会把学到的嵌入乘以 √d_model，以免词被位置淹没。这里的替身向量没有缩放，所以和里面位置占了上风。",
    token: "词元",
    encoding: "PE(p)",
    vector: "替身向量 x",
    sum: "x + PE(p)",
    barcodeLabel: "{token}（位置 {p}）的条形码",
    formulaSin:
      "{token}，p = {p}，维度 j = {j}：PE(p, j) = sin(p·ω{sub}) = sin({p} × {omega}) = {value}；x_j = {x}；x_j + PE(p, j) = {sum}",
    formulaCos:
      "{token}，p = {p}，维度 j = {j}：PE(p, j) = cos(p·ω{sub}) = cos({p} × {omega}) = {value}；x_j = {x}；x_j + PE(p, j) = {sum}",
    formulaPadding:
      "{token}，p = {p}，维度 j = {j}：补零的列，PE(p, j) = {value}；x_j = {x}；x_j + PE(p, j) = {sum}",
    hint: "指向条形码，或聚焦后用方向键，读出某一维；上面编码表的热力图会标出同一个单元格，指向热力图的某一行也会选中那里的词元。",
    hintAlone: "指向条形码，或聚焦后用方向键，读出某一维。",
    tooMany: "只显示前 {max} 个词元。",
    empty: "输入一句话，就能看到它的词元。",
  },
};

export const formulas = {};

const MAX_TOKENS = 16;

/** Words and punctuation marks, each a token. */
export function tokenize(text) {
  return String(text).match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [];
}

/** A stand-in vector for a token: normal values seeded by its text. */
function standIn(token, dim) {
  let hash = 2166136261;
  for (const c of token) {
    hash ^= c.codePointAt(0);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  const next = generator(hash);
  return Float64Array.from(
    { length: dim },
    () =>
      0.5 *
      Math.sqrt(-2 * Math.log(1 - next())) *
      Math.cos(2 * Math.PI * next()),
  );
}

const short = (v) => String(Number(v.toPrecision(6)));
const subscript = (i) => String(i).replace(/\d/g, (d) => "₀₁₂₃₄₅₆₇₈₉"[d]);

export function mount(root, app) {
  const lib = app.lib;
  let text = app.param("text", app.t("defaultText"), (v) =>
    v.length <= 200 ? v : undefined,
  );
  heading(root, app);
  const input = element("input", {
    type: "text",
    testid: "tokens-input",
    placeholder: app.t("placeholder"),
    maxlength: "200",
  });
  input.value = text;
  const label = element("label", "field", [app.t("input"), input]);
  const note = element("p", { className: "note", role: "status" });
  note.hidden = true;
  const grid = element("div", { className: "token-grid", testid: "tokens" });
  const readout = element("p", {
    className: "readout",
    testid: "tokens-formula",
    "aria-live": "polite",
  });
  root.append(
    label,
    note,
    element("p", { className: "caption", text: app.t("standIn") }),
    grid,
    element("p", {
      className: "caption",
      text: app.t(app.embedded ? "hintAlone" : "hint"),
    }),
    readout,
  );

  let state = null;
  let rows = [];
  let hover = { t: -1, j: -1 };
  // The grid's rows, built again only when the tokens change: a change of
  // the shared controls repaints the barcodes in place.
  let built = null;

  input.addEventListener("input", () => {
    text = input.value;
    app.setParam("text", text);
    if (state) draw(state);
  });

  // A cell picked elsewhere (the table's heatmap) is picked here too when
  // one of these tokens sits at its position.
  app.onPoint?.((point) => {
    const t = rows.findIndex((row) => row.p === point?.position);
    if (t < 0 || point.dimension >= (state?.dim ?? 0)) show(-1, -1);
    else show(t, point.dimension);
  });

  function draw(next) {
    for (const _ of drawSteps(next));
  }

  // Two steps: the rows and their numbers, then the barcodes painted.
  function* drawSteps(next) {
    state = next;
    const all = tokenize(text);
    const tokens = all.slice(0, MAX_TOKENS);
    setText(
      note,
      all.length > MAX_TOKENS
        ? app.t("tooMany", { max: MAX_TOKENS })
        : tokens.length
          ? ""
          : app.t("empty"),
    );
    note.hidden = note.textContent === "";
    const dim = next.dim;
    // The sentence starts at the table's first position: token t sits at
    // row start + t.
    const positions = tokens.map((_, t) => next.start + t);
    const table = tokens.length
      ? lib.table({ ...optionsAt(next, positions), dtype: "float64" })
      : new Float64Array(0);
    rows = tokens.map((token, t) => {
      const encoding = table.subarray(t * dim, (t + 1) * dim);
      const vector = standIn(token, dim);
      const sum = Float64Array.from(vector, (x, j) => x + encoding[j]);
      return { token, p: positions[t], encoding, vector, sum };
    });
    if (hover.t >= rows.length || hover.j >= dim) hover = { t: -1, j: -1 };
    const key = tokens.join("\u0000");
    if (built !== key) {
      built = key;
      build(tokens);
    }
    rows.forEach((row, t) => setText(numberOf(t), String(row.p)));
    describe();
    yield;
    paint();
  }

  const numberOf = (t) => grid.children[t + 1].querySelector(".number");

  function build(tokens) {
    const header = element("div", "token-row token-head", [
      element("span", { text: app.t("token") }),
      element("span", { text: "p" }),
      element("span", { text: app.t("encoding") }),
      element("span", { text: app.t("vector") }),
      element("span", { text: app.t("sum") }),
    ]);
    grid.replaceChildren(
      header,
      ...tokens.map((token, t) => {
        const chip = element("span", { className: "token-chip", text: token });
        const strips = ["encoding", "vector", "sum"].map((which) => {
          const canvas = element("canvas", {
            tabindex: "0",
            role: "img",
            width: "1",
            height: "1",
          });
          canvas.dataset.which = which;
          canvas.addEventListener("pointermove", (event) => {
            const box = canvas.getBoundingClientRect();
            const dim = rows[t].encoding.length;
            const j = Math.floor(
              ((event.clientX - box.left) / box.width) * dim,
            );
            pick(t, Math.min(dim - 1, Math.max(0, j)));
          });
          canvas.addEventListener("focus", () =>
            pick(t, hover.t === t ? hover.j : 0),
          );
          canvas.addEventListener("keydown", (event) => {
            const step = event.shiftKey ? 10 : 1;
            let { j } = hover;
            if (event.key === "ArrowRight") j += step;
            else if (event.key === "ArrowLeft") j -= step;
            else return;
            event.preventDefault();
            pick(t, Math.min(rows[t].encoding.length - 1, Math.max(0, j)));
          });
          const marker = element("span", "token-marker");
          marker.hidden = true;
          return element("span", "token-cell", [canvas, marker]);
        });
        return element(
          "div",
          { className: "token-row", testid: `token-${t}` },
          [chip, element("span", { className: "number" }), ...strips],
        );
      }),
    );
  }

  // Every barcode: one pixel per dimension, stretched by the style sheet
  // (no layout is read), with the picked dimension marked on the picked
  // token's barcodes.
  function paint() {
    rows.forEach((row, t) => {
      const line = grid.children[t + 1];
      for (const canvas of line.querySelectorAll("canvas")) {
        const values = row[canvas.dataset.which];
        const label = app.t("barcodeLabel", { token: row.token, p: row.p });
        if (canvas.getAttribute("aria-label") !== label)
          canvas.setAttribute("aria-label", label);
        if (canvas.width !== values.length) {
          canvas.width = values.length;
          canvas.height = 1;
        }
        const reach = canvas.dataset.which === "encoding" ? 1 : 2.5;
        canvas.getContext("2d").putImageData(colourStrip(values, reach), 0, 0);
      }
    });
    mark();
  }

  // The picked dimension's marker: a style change, no repaint of the strips.
  function mark() {
    rows.forEach((row, t) => {
      const line = grid.children[t + 1];
      line.classList.toggle("picked", t === hover.t);
      for (const marker of line.querySelectorAll(".token-marker")) {
        marker.hidden = !(t === hover.t && hover.j >= 0);
        if (!marker.hidden)
          marker.style.left = `${((hover.j + 0.5) / row.encoding.length) * 100}%`;
      }
    });
  }

  /** Picks a token's dimension here and in the other views. */
  function pick(t, j) {
    if (hover.t === t && hover.j === j) return;
    show(t, j);
    app.point?.({ position: rows[t].p, dimension: j });
  }

  function show(t, j) {
    if (hover.t === t && hover.j === j) return;
    hover = { t, j };
    mark();
    describe();
  }

  function describe() {
    if (hover.t < 0 || !state) {
      setText(readout, "");
      return;
    }
    const row = rows[hover.t];
    const j = hover.j;
    const map = state.columns();
    const kind = map.kinds[j];
    const i = map.pairs[j];
    const omega = state.frequencies();
    const vars = {
      token: `“${row.token}”`,
      p: row.p,
      j,
      sub: subscript(i),
      omega: i >= 0 ? short(omega[i]) : "",
      value: short(row.encoding[j]),
      x: short(row.vector[j]),
      sum: short(row.sum[j]),
    };
    setText(
      readout,
      app.t(
        kind === "sin"
          ? "formulaSin"
          : kind === "cos"
            ? "formulaCos"
            : "formulaPadding",
        vars,
      ),
    );
    readout.dataset.value = String(row.encoding[j]);
  }

  return { update: drawSteps };
}
