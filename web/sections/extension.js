// Context extension as a section of its own: the stretched RoPE schedules
// of long-context models beside the unscaled one (decay-rope.js).
import * as rope from "./decay-rope.js";
import { heading } from "../parts/section-parts.js";

// Drawn without the preset's table: a preset's refusal leaves it be.
export const presetFree = true;

export const id = "extension";

/** The papers the section's claims come from (sources.js). */
export const cites = [
  "chen2023",
  "bloc97-2023",
  "emozilla2023",
  "peng2023",
  "llama2024",
];

/** As a panel: the shared dim, and the schedule, sequence and reach shown. */
export const panel = {
  shared: ["dim"],
  attributes: {
    rope: `the stretched schedule: ${Object.keys(rope.SCHEMES)
      .map((k) => `\`${k}\``)
      .join(", ")}`,
    seqLen: `dynamic NTK's sequence length: ${rope.SEQ_LENS.join(", ")}`,
    ropeRange: `the distances' reach: ${rope.ROPE_RANGES.join(", ")}`,
  },
};
export const strings = rope.strings;
export const formulas = rope.formulas;

export function mount(root, app) {
  heading(root, app);
  return rope.mountRopePanel(root, app);
}
