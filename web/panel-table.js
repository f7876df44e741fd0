// Writes the table of panels (panels.js) into README.md and web/embed.html,
// between their markers, formatted as the repository formats them.
// Usage: node web/panel-table.js
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import prettier from "prettier";
import {
  panelTableHtml,
  panelTableMarkdown,
  withPanelTable,
} from "./panels.js";

const root = fileURLToPath(new URL("..", import.meta.url));

export const FILES = {
  "README.md": { table: panelTableMarkdown, parser: "markdown" },
  "web/embed.html": { table: panelTableHtml, parser: "html" },
};

/** What the file should hold: its text with today's table, formatted. */
export async function withCurrentTable(file) {
  const { table, parser } = FILES[file];
  const text = readFileSync(root + file, "utf8");
  const options = (await prettier.resolveConfig(root + file)) ?? {};
  return prettier.format(withPanelTable(text, table()), {
    ...options,
    parser,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  for (const file of Object.keys(FILES))
    writeFileSync(root + file, await withCurrentTable(file));
