// Context extension as a section of its own: the stretched RoPE schedules
// of long-context models beside the unscaled one (decay-rope.js).
import * as panel from "./decay-rope.js";
import { heading } from "../parts/section-parts.js";

// Drawn without the preset's table: a preset's refusal leaves it be.
export const presetFree = true;

export const id = "extension";
export const strings = panel.strings;
export const formulas = panel.formulas;

export function mount(root, app) {
  heading(root, app);
  return panel.mountRopePanel(root, app);
}
