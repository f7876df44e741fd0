// Two more views of the RoPE head's rotation: each pair as a complex number
// multiplied by e^{i·m·ωᵢ}, and the rotation as a few lines of plain
// JavaScript beside the library call that computes it. Both show the
// library's numbers; the code is text for the reader (the tests run it).
import { element, setText } from "../dom.js";
import { minus, scientific } from "./section-parts.js";

// Values as the page writes them: 0.5533, −0.25, and 4.654 × 10⁻⁵ when
// small.
const short = (v, digits = 4) =>
  minus(
    v !== 0 && Math.abs(v) < 1e-3
      ? scientific(v, digits)
      : String(Number(v.toPrecision(digits))),
  );
/** a + bi as read: "0.25 − 0.5i". */
export const complex = (re, im) =>
  `${short(re)} ${im < 0 ? "−" : "+"} ${short(Math.abs(im))}i`;

/**
 * The complex view: one line per pair. show({ pairs }) takes, per pair,
 * { i, angle (m·ωᵢ), q: [a, b], turned: [a, b], contribution }.
 */
export function complexView(app) {
  const list = element("ul", {
    className: "rope-complex",
    testid: "rope-complex",
  });
  const node = element("div", { className: "rope-complex-box" }, [
    element("h4", { text: app.t("complexTitle") }),
    element("p", { className: "caption", text: app.t("complexText") }),
    list,
  ]);
  function show(pairs) {
    if (list.childElementCount !== pairs.length)
      list.replaceChildren(...pairs.map(() => element("li")));
    pairs.forEach((pair, r) => {
      const item = list.children[r];
      setText(
        item,
        app.t("complexRow", {
          i: pair.i,
          angle: short(pair.angle),
          z: complex(...pair.q),
          turned: complex(...pair.turned),
          contribution: short(pair.contribution),
        }),
      );
      item.dataset.angle = String(pair.angle);
    });
  }
  return { node, show };
}

/** The loop as the reader sees it, for a pairing. */
export function ropeCode(pairing) {
  const pair = pairing === "halves" ? "[i, i + d / 2]" : "[2 * i, 2 * i + 1]";
  return [
    "const d = 8;",
    "const omega = frequencies({ dim: d, base });",
    "const turned = new Float64Array(d);",
    "for (let i = 0; i < d / 2; i++) {",
    `  const [a, b] = ${pair};`,
    "  const c = Math.cos(m * omega[i]);",
    "  const s = Math.sin(m * omega[i]);",
    "  turned[a] = q[a] * c - q[b] * s;",
    "  turned[b] = q[b] * c + q[a] * s;",
    "}",
    `const fromLibrary = rope(q, [m], { dim: d, base, pairing: "${pairing}" });`,
  ].join("\n");
}

/** The code view. show({ pairing, base, m, q, library }) fills it. */
export function codeView(app) {
  const code = element("code", { testid: "rope-code" });
  const result = element("p", {
    className: "caption",
    testid: "rope-code-result",
  });
  const node = element("div", { className: "rope-code-box" }, [
    element("h4", { text: app.t("codeTitle") }),
    element("p", { className: "caption", text: app.t("codeText") }),
    element("pre", {}, [code]),
    result,
  ]);
  function show({ pairing, base, m, q, library }) {
    setText(code, ropeCode(pairing));
    code.dataset.base = String(base);
    code.dataset.m = String(m);
    code.dataset.q = Array.from(q).join(" ");
    setText(
      result,
      app.t("codeResult", {
        m,
        base,
        values: Array.from(library, (v) => short(v)).join(", "),
      }),
    );
    result.dataset.values = Array.from(library).join(" ");
  }
  return { node, show };
}
