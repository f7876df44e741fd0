// The shared controls: labelled inputs for the preset, dim, positions, base,
// layout and first position. Typing reports every change; leaving a field
// (or Enter) writes the clamped value back into it.
import { element } from "./dom.js";
import { baseParameter, CONTROLS } from "./state.js";

/**
 * Builds the form into `root`. onInput(key, text, committed) receives every
 * edit; the returned `show(values)` puts values into the fields.
 */
export function mountControls(root, t, values, layout, onInput) {
  const form = element("form", "controls");
  form.setAttribute("aria-label", t("controls"));
  form.addEventListener("submit", (event) => event.preventDefault());
  const fields = {};
  for (const [key, control] of Object.entries(CONTROLS)) {
    const id = `control-${key}`;
    let input;
    if (control.kind === "choice") {
      input = document.createElement("select");
      for (const choice of control.choices) {
        const option = document.createElement("option");
        option.value = choice;
        // Presets keep their libraries' names; the others are words.
        option.textContent =
          choice === "custom"
            ? t("custom")
            : key === "layout"
              ? t(`layout-${choice}`)
              : choice;
        input.append(option);
      }
    } else {
      // Text, not type=number: a number field reports "" for text it cannot
      // read, and the note must quote what the reader typed.
      input = document.createElement("input");
      input.type = "text";
      input.inputMode = control.kind === "integer" ? "numeric" : "decimal";
      input.autocomplete = "off";
      input.spellcheck = false;
      input.classList.add("number-field");
    }
    input.id = id;
    input.name = key;
    input.dataset.testid = id;
    const label = element("label", "", [t(key)]);
    label.htmlFor = id;
    const hint = element("span", "hint");
    hint.id = `${id}-hint`;
    form.append(element("div", "field", [label, input, hint]));
    input.addEventListener("input", () => onInput(key, input.value, false));
    input.addEventListener("change", () => onInput(key, input.value, true));
    fields[key] = { input, hint };
  }
  root.append(form);

  /** Puts values into the fields; `layout` is the one a preset fixes. */
  function show(next, layout = next.layout) {
    for (const [key, { input }] of Object.entries(fields))
      if (document.activeElement !== input || input.tagName === "SELECT")
        input.value = String(next[key]);
    const preset = next.preset;
    const fixedBase = preset !== "custom" && !baseParameter(preset);
    fields.base.input.disabled = fixedBase;
    fields.base.hint.textContent = fixedBase ? t("presetFixes") : "";
    const fixedLayout = preset !== "custom";
    fields.layout.input.disabled = fixedLayout;
    if (fixedLayout) fields.layout.input.value = layout;
    fields.layout.hint.textContent = fixedLayout ? t("presetFixes") : "";
  }

  /**
   * Marks a field whose value the options refuse, with a short hint (the
   * notes say why); "" clears it.
   */
  function mark(key, hint) {
    const { input, hint: node } = fields[key];
    if (hint) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", node.id);
    } else {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
    input.classList.toggle("invalid", Boolean(hint));
    node.textContent = hint;
  }

  /** Writes a committed (clamped) value into its field. */
  function commit(key, value) {
    fields[key].input.value = String(value);
  }

  show(values, layout);
  return { show, commit, mark };
}
