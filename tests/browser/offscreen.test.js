// Rendering what is on screen, in Chromium: sections far from the viewport
// are skipped (neither laid out nor painted) while a slider is dragged, and
// are drawn when the reader comes back to them.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

test("a drag in one section renders the sections on screen only; the rest on return", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
    viewport: { width: 1400, height: 900 },
    // Each section's last skipped state, as Chromium reports it.
    init: () => {
      window.skipped = {};
      document.addEventListener(
        "contentvisibilityautostatechange",
        (event) => {
          if (event.target.id) window.skipped[event.target.id] = event.skipped;
        },
        true,
      );
    },
  });
  await settle(page);
  const slider = page.locator("[data-testid=relation-p-slider]");
  await slider.scrollIntoViewIfNeeded();
  await settle(page);
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++)
    await page.mouse.move(box.x + 4 + i * 10, box.y + box.height / 2);
  await page.mouse.up();
  await settle(page);
  const skipped = await page.evaluate(() => window.skipped);
  assert.equal(skipped.relation, false);
  for (const far of ["rope", "extension", "precision", "order"])
    assert.equal(skipped[far], true, `${far}: ${JSON.stringify(skipped)}`);
  // Back at a far section, it is rendered, its charts drawn.
  await page.locator("#precision canvas").first().scrollIntoViewIfNeeded();
  await settle(page);
  assert.equal(await page.evaluate(() => window.skipped.precision), false);
  assert.ok(await page.locator("#precision canvas").first().isVisible());
  assert.deepEqual(errors, []);
  await close();
});
