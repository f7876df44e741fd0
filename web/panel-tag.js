// The element that shows a section in another page: its own module, so
// that embed.js names its panels without loading the sections.

/** The panel element of section `id`. */
export const panelTag = (id) => (id === "table" ? "pe-heatmap" : `pe-${id}`);
