// The shared controls: labelled inputs for the preset, dim, positions, base,
// layout and first position. Their number fields take text as every field
// of the page does (parts/live-field.js): a value that reads applies as it
// is typed, and leaving the field (or Enter) clamps or rounds what needs it
// and writes the value in use back into it.
import { element } from "./dom.js";
import { liveField, markInvalid } from "./parts/live-field.js";
import { baseParameter, CONTROLS, readControl } from "./state.js";

// The fields a narrow screen folds away: the table's size and arrangement,
// changed less often than the schedule.
const MORE = ["positions", "layout", "start"];

/**
 * Builds the form into `root`. onChange(key, value) receives every value to
 * use; onProblem(key, problem, text, used) what a commit did with text that
 * needed a correction (problem: "clamped", "rounded" or "invalid"), or
 * problem null once a field's text reads. The returned `show(values)` puts
 * values into the fields.
 */
export function mountControls(
  root,
  t,
  values,
  layout,
  { onChange, onProblem },
) {
  let current = values;
  const form = element("form", "controls");
  form.setAttribute("aria-label", t("controls"));
  form.addEventListener("submit", (event) => event.preventDefault());
  const fields = {};
  // On a narrow screen the bar is one row: the secondary fields fold behind
  // a toggle (the style sheet shows it only there); on a wide one they sit
  // in the row as the others do.
  const more = element("div", "controls-more");
  more.id = "controls-more";
  const toggle = element("button", "controls-more-toggle", [t("moreControls")]);
  toggle.type = "button";
  toggle.dataset.testid = "controls-more";
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", more.id);
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    form.classList.toggle("open", open);
  });
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
    const box = element("div", `field field-${key}`, [label, input, hint]);
    (MORE.includes(key) ? more : form).append(box);
    const entry = { input, hint, typed: false, refused: "" };
    fields[key] = entry;
    if (control.kind === "choice") {
      input.addEventListener("change", () => onChange(key, input.value));
      continue;
    }
    liveField(input, {
      read(text) {
        const read = readControl(key, text);
        // Text that is no number leaves the value in use.
        return read.problem === "invalid" ? { problem: "invalid" } : read;
      },
      apply: (value) => onChange(key, value),
      shown: () => String(current[key]),
      report: (problem, text) => onProblem(key, problem, text, current[key]),
      mark(bad) {
        entry.typed = bad;
        showMark(entry);
      },
    });
  }
  form.append(more, toggle);
  root.append(form);

  // A field is marked while its text does not read, or while the options
  // refuse its value; the hint says why only for the latter.
  function showMark(entry) {
    markInvalid(entry.input, entry.typed || Boolean(entry.refused));
    if (entry.refused)
      entry.input.setAttribute("aria-describedby", entry.hint.id);
    else entry.input.removeAttribute("aria-describedby");
  }

  /** Puts values into the fields; `layout` is the one a preset fixes. */
  function show(next, layout = next.layout) {
    current = next;
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
    fields[key].refused = hint;
    fields[key].hint.textContent = hint;
    showMark(fields[key]);
  }

  show(values, layout);
  return { show, mark };
}
