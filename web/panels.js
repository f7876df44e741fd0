// The panels embed.js defines, one per section, and the table that
// documents them: each element, the shared controls it follows and its own
// attributes, from each section's `panel` declaration. The README and
// embed.html carry this table as panel-table.js writes it.
import { sections } from "./sections/index.js";
import { panelTag } from "./panel-tag.js";

/** Attributes every panel takes, with what they set. */
export const COMMON_ATTRIBUTES = {
  lang: "`en` or `zh`; by default the host's `<html lang>`",
  theme:
    "`light`, `dark` or `auto`; by default the host's `color-scheme`, on a transparent background",
  look: "`host` (the host's font and size, the default) or `page`",
  compact: "present: the charts without the prose",
};

/**
 * One row per panel, in the page's order; panels that follow the same
 * controls and have the same attributes (none) share a row.
 */
export function panelRows() {
  const rows = [];
  for (const section of sections) {
    const row = {
      tags: [panelTag(section.id)],
      shared: section.panel.shared,
      attributes: Object.entries(section.panel.attributes),
    };
    const key = JSON.stringify([row.shared, row.attributes]);
    const same = rows.find((r) => r.key === key);
    if (same) same.tags.push(...row.tags);
    else rows.push({ key, ...row });
  }
  return rows;
}

const NONE = "none";

/** The table in Markdown: a row per panel, the last one every panel's. */
export function panelTableMarkdown() {
  const rows = panelRows().map(({ tags, shared, attributes }) => {
    const follows = shared.length
      ? shared.map((k) => `\`${k}\``).join(", ")
      : NONE;
    const own = attributes.length
      ? attributes.map(([k, text]) => `\`${k}\`: ${text}`).join("; ")
      : NONE;
    const names = tags.map((tag) => `\`<${tag}>\``).join(", ");
    return `| ${names} | ${follows} | ${own} |`;
  });
  const common = Object.entries(COMMON_ATTRIBUTES)
    .map(([k, text]) => `\`${k}\`: ${text}`)
    .join("; ");
  return [
    "| element | shared controls it follows | its own attributes |",
    "| --- | --- | --- |",
    ...rows,
    `| every panel | | ${common} |`,
  ].join("\n");
}

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
// `code` spans as <code>, the rest escaped.
const inline = (text) =>
  text
    .split("`")
    .map((part, i) =>
      i % 2 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part),
    )
    .join("");

/** The same table in HTML, for embed.html. */
export function panelTableHtml() {
  const cell = (items) => (items.length ? items.map(inline).join("; ") : NONE);
  const rows = panelRows().map(
    ({ tags, shared, attributes }) =>
      `<tr><th scope="row">${tags.map((tag) => `<code>&lt;${tag}&gt;</code>`).join(", ")}</th>` +
      `<td>${cell(shared.map((k) => `\`${k}\``))}</td>` +
      `<td>${cell(attributes.map(([k, text]) => `\`${k}\`: ${text}`))}</td></tr>`,
  );
  const common = Object.entries(COMMON_ATTRIBUTES)
    .map(([k, text]) => inline(`\`${k}\`: ${text}`))
    .join("; ");
  return [
    "<table>",
    '<thead><tr><th scope="col">element</th><th scope="col">shared controls it follows</th><th scope="col">its own attributes</th></tr></thead>',
    "<tbody>",
    ...rows,
    `<tr><th scope="row">every panel</th><td></td><td>${common}</td></tr>`,
    "</tbody>",
    "</table>",
  ].join("\n");
}

const MARKERS = [
  "<!-- panel table: node web/panel-table.js -->",
  "<!-- /panel table -->",
];

/**
 * `text` with the part between the panel table's markers replaced by
 * `table`; throws if the markers are missing.
 */
export function withPanelTable(text, table) {
  const [open, close] = MARKERS;
  const from = text.indexOf(open);
  const to = text.indexOf(close);
  if (from < 0 || to < from) throw new Error("no panel table markers");
  return `${text.slice(0, from + open.length)}\n${table}\n${text.slice(to)}`;
}
