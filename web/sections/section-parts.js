// DOM parts shared by the sections: headings, formulas, labelled inputs, text
// updates and number formatting. Styles come from classes (the page's CSP
// forbids inline style attributes).
import { superscript } from "../charts/canvas.js";

export function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined) continue;
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "testid") node.dataset.testid = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/** The section's title and lead paragraph. */
export function heading(root, app) {
  root.append(
    element("h2", { text: app.t("title") }),
    element("p", { className: "sec-lead", text: app.t("lead") }),
  );
}

/**
 * Replaces a node's text only if it differs: the same text written again
 * still replaces the text node, and the page is laid out again.
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function paragraph(text, className = "sec-text") {
  return element("p", { className, text });
}

export function displayFormula(app, tex) {
  const box = element("div", { className: "sec-formula" }, [
    app.displayMath(tex),
  ]);
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

export function button(text, onClick, testid) {
  const node = element("button", { type: "button", testid, text });
  node.addEventListener("click", onClick);
  return node;
}

/** A container the charts draw into, with its export button beside it. */
export function chartBox(className = "sec-chart") {
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
