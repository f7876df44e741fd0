// Formulas as MathML, typeset once by the build (web/build.js) from every
// section's `formulas`: the page carries no fonts and no typesetting script.
// Each section's module hands its own over as it runs.
const typeset = {};

/** Adds typeset formulas, MathML markup by TeX. */
export function addFormulas(markup) {
  Object.assign(typeset, markup);
}

/** The formula as a MathML element; its TeX as code if the build missed it. */
export function math(tex, { display = false } = {}) {
  const markup = typeset[tex];
  if (markup === undefined) {
    const code = document.createElement("code");
    code.textContent = tex;
    return code;
  }
  const template = document.createElement("template");
  template.innerHTML = markup;
  const node = template.content.firstElementChild;
  if (display) node.setAttribute("display", "block");
  return node;
}

/**
 * A display formula. Given a list of parts, a row of them that breaks
 * between parts where the page is narrow: MathML has no line breaking.
 */
export function displayMath(tex) {
  if (!Array.isArray(tex)) return math(tex, { display: true });
  const row = document.createElement("div");
  row.className = "formula-parts";
  row.append(...tex.map((part) => math(part)));
  return row;
}

/**
 * Watches the formula boxes in `root`: one whose formula is wider than the
 * box scrolls sideways, reachable by keyboard and labelled; the others are
 * no scrollers at all.
 */
export function fitFormulas(root, label) {
  const observer = new ResizeObserver((entries) => {
    for (const { target: box } of entries) {
      box.classList.remove("formula-wide");
      const wide = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("formula-wide", wide);
      if (wide) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", label);
      } else {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  });
  for (const box of root.querySelectorAll(".formula, .formula"))
    observer.observe(box);
  return observer;
}
