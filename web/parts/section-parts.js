// Parts shared by the sections: headings, formulas, labelled inputs, the
// result row of a check, and number formatting.
import { citations } from "../sources.js";
import { superscript } from "../charts/canvas.js";
import { button, element, setText } from "../dom.js";

export { button, element, setText };

/**
 * The section's title and lead paragraph. A panel embedded in another page
 * leaves the headings to that page, whose author has written one: there the
 * title only names the panel (for assistive technology, and in its PNGs).
 */
export function heading(root, app) {
  if (app.embedded) root.setAttribute("aria-label", app.t("title"));
  else root.append(element("h2", { text: app.t("title") }));
  const lead = element("p", { className: "lead", text: app.t("lead") });
  // The papers its claims come from, cited where they are made.
  if (app.cites.length) lead.append(citations(app.cites, app.embedded));
  root.append(lead);
}

export function paragraph(text, className = "sec-text") {
  return element("p", { className, text });
}

/** A formula in its own box, with room for a display-style sum's limits. */
export function displayFormula(app, tex) {
  return element("div", { className: "formula formula-display" }, [
    app.displayMath(tex),
  ]);
}

export function controlRow(children) {
  return element("div", { className: "sec-controls" }, children);
}

export function checkbox(text, checked, onChange, testid) {
  const input = element("input", { type: "checkbox", testid });
  input.checked = checked;
  input.addEventListener("change", () => onChange(input.checked));
  return element("label", { className: "sec-check" }, [input, text]);
}

export function select(text, choices, value, onChange, testid) {
  const input = element(
    "select",
    { testid },
    choices.map(([key, label]) =>
      element("option", { value: key, text: label }),
    ),
  );
  input.value = value;
  input.addEventListener("change", () => onChange(input.value));
  return element("label", { className: "field" }, [text, input]);
}

/** A number input (any step unless one is given). */
export function numberInput({ value, min, max, step = "any" }, testid) {
  const input = element("input", {
    type: "number",
    min,
    max,
    step,
    testid,
    inputmode: "decimal",
  });
  input.value = String(value);
  return input;
}

/** A slider, named for assistive technology by `label`. */
export function slider({ value, min, max, step }, label) {
  const input = element("input", {
    type: "range",
    min,
    max,
    step,
    "aria-label": label,
  });
  input.value = String(value);
  return input;
}

/** A text input for a list of numbers. */
export function listInput(values, testid) {
  const input = element("input", {
    type: "text",
    testid,
    inputmode: "decimal",
  });
  input.value = values.join(", ");
  return input;
}

/** An input with its label text. */
export function field(text, input) {
  return element("label", { className: "field" }, [text, input]);
}

/** A note that says what became of a field's value; hidden while empty. */
export function fieldNote(testid) {
  const note = element("p", { className: "note", role: "status", testid });
  note.hidden = true;
  return note;
}

/** A container a chart draws into (app.exportable adds its PNG button). */
export function chartBox(className = "chart") {
  return element("div", { className });
}

/** A number's text with a true minus sign (−), as the prose writes it. */
export const minus = (text) => text.replace(/^-/, "\u2212");

/** 3.2 × 10⁻¹², the way errors are read; 0 and non-finite values as such. */
export function scientific(value, digits = 2) {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const [text, exponent] = value.toExponential(digits - 1).split("e");
  const mantissa = text.replace(/\.0+$/, "");
  const power = Number(exponent);
  if (power >= -2 && power <= 3)
    return String(Number(value.toPrecision(digits)));
  return `${mantissa} × 10${superscript(String(power))}`;
}

/**
 * The row that reports a check, as a sentence: its label, the value
 * measured and what it means in words (the badge); the tolerance and why,
 * folded under `why` for readers who want them. show({ value, text, pass,
 * label, tolerance }) fills it (text: the value as shown); clear() empties
 * it when nothing was measured.
 */
export function resultRow(label, { testid, badgeTestid, why } = {}) {
  const value = element("span", { className: "number", testid });
  const badge = element("span", { className: "badge", testid: badgeTestid });
  const tolerance = element("span", { className: "caption" });
  const node = element("div", { className: "result" }, [
    element("p", {}, [label, " ", value, " — ", badge]),
    element("details", { className: "tolerance" }, [
      element("summary", { text: why }),
      tolerance,
    ]),
  ]);
  return {
    node,
    show(result) {
      value.dataset.value = String(result.value);
      setText(value, result.text);
      setText(badge, result.label);
      badge.className = `badge ${result.pass ? "pass" : "fail"}`;
      setText(tolerance, result.tolerance);
    },
    clear() {
      value.dataset.value = "";
      setText(value, "—");
      setText(badge, "");
      badge.className = "badge";
    },
  };
}
