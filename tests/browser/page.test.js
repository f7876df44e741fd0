// The built page (dist/site) in real Chromium, over http and from file://.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

for (const via of ["http", "file"]) {
  test(`${via}: every section renders with no error and no outside request`, async () => {
    const { page, errors, outside, close } = await chromium.open("index.html", {
      via,
    });
    const sections = await page.$$eval("main > section", (nodes) =>
      nodes.map((n) => n.id),
    );
    assert.deepEqual(sections, [
      "table",
      "curves",
      "relation",
      "dot",
      "rope",
      "decay",
      "precision",
    ]);
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    await close();
  });
}
