// Parts shared by the sections: headings, formulas, labelled inputs, the
// result row of a check, and number formatting.
import { superscript } from "../charts/canvas.js";
import { button, element, setText } from "../dom.js";

export { button, element, setText };

/** The section's title and lead paragraph. */
export function heading(root, app) {
  root.append(
    element("h2", { text: app.t("title") }),
    element("p", { className: "lead", text: app.t("lead") }),
  );
}

export function paragraph(text, className = "sec-text") {
  return element("p", { className, text });
}

export function displayFormula(app, tex) {
  const box = element("div", { className: "formula" }, [app.displayMath(tex)]);
  // Room for the limits of a display-style sum, which the box scrolls.
  box.style.padding = "0.25rem 0";
  return box;
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
  // Long choices must not widen a phone-sized page.
  input.style.maxWidth = "100%";
  const label = element("label", { className: "sec-field" }, [text, input]);
  label.style.maxWidth = "100%";
  return label;
}

export function numberField(text, { value, min, max, step }, onChange, testid) {
  const input = element("input", {
    type: "number",
    min,
    max,
    step,
    testid,
    inputmode: "decimal",
  });
  input.value = String(value);
  input.addEventListener("change", () => onChange(input));
  return element("label", { className: "sec-field" }, [text, input]);
}

/** A container the charts draw into, with its export button beside it. */
export function chartBox(className = "chart") {
  return element("div", { className });
}

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
 * The row that reports a check: its label, the value measured, a pass or
 * fail badge and the tolerance. show({ value, text, pass, label, tolerance })
 * fills it (text: the value as shown); clear() empties it when nothing was
 * measured.
 */
export function resultRow(label, { testid, badgeTestid } = {}) {
  const value = element("span", { className: "number", testid });
  const badge = element("span", { className: "badge", testid: badgeTestid });
  const tolerance = element("span", { className: "caption" });
  const node = element("p", { className: "result" }, [
    label,
    " ",
    value,
    " ",
    badge,
    " ",
    tolerance,
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
