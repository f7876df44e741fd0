// The table of panels in README.md and web/embed.html is the one panels.js
// writes from each section's declaration, and every declared attribute is
// one the section reads (the browser tests check the reverse: a section
// reading an undeclared one throws).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { FILES, withCurrentTable } from "../../web/panel-table.js";
import { sections } from "../../web/sections/index.js";

const root = new URL("../../", import.meta.url);

for (const file of Object.keys(FILES))
  test(`${file} holds the current table of panels`, async () => {
    const text = readFileSync(new URL(file, root), "utf8");
    assert.equal(
      text,
      await withCurrentTable(file),
      "run node web/panel-table.js",
    );
  });

test("the table names every panel, and each section's attributes are read in its code", () => {
  const readme = readFileSync(new URL("README.md", root), "utf8");
  for (const section of sections) {
    const tag = section.id === "table" ? "pe-heatmap" : `pe-${section.id}`;
    assert.match(readme, new RegExp(`\`<${tag}>\``));
    // The section's sources (and a panel's shared module) ask for each.
    const files = [`web/sections/${section.id}.js`];
    if (section.id === "rope") files.push("web/sections/rope-head.js");
    if (section.id === "extension") files.push("web/sections/decay-rope.js");
    const code = files
      .map((f) => readFileSync(new URL(f, root), "utf8"))
      .join("");
    for (const name of Object.keys(section.panel.attributes))
      assert.ok(
        code.includes(`param("${name}"`) ||
          code.includes(`param("${section.id}.${name}"`) ||
          (section.id === "curves" && ["rows", "dims"].includes(name)),
        `${section.id}: ${name}`,
      );
  }
});
