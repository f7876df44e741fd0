// The shared controls' bar in Chromium, at the widths of a tablet and a
// phone: it stays at the top of the window while the sections it changes
// are read, takes at most an eighth of the window's height, and folds its
// secondary fields behind a toggle; a wide screen shows every field.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

const SIZES = [
  [800, 600],
  [600, 800],
  [360, 740],
];

test("below 1000 px the bar is a compact row that stays in view over RoPE; wider, it shows every field", async () => {
  for (const [width, height] of SIZES)
    for (const lang of ["en", "zh"]) {
      const where = `${lang} ${width} × ${height}`;
      const { page, errors, close } = await chromium.open("index.html", {
        hash: `#lang=${lang}`,
        viewport: { width, height },
      });
      await page.evaluate(() =>
        document.getElementById("rope").scrollIntoView(),
      );
      const bar = await page.$eval(".controls-bar", (node) => {
        const box = node.getBoundingClientRect();
        return { top: box.top, height: box.height };
      });
      assert.ok(
        Math.abs(bar.top) <= 1,
        `${where}: the bar's top at ${bar.top}`,
      );
      assert.ok(
        bar.height <= 0.12 * height,
        `${where}: ${bar.height} px of ${height}`,
      );
      // The section starts below the bar, not under it.
      const rope = await page.$eval(
        "#rope",
        (node) => node.getBoundingClientRect().top,
      );
      assert.ok(rope >= bar.top + bar.height - 1, `${where}: RoPE at ${rope}`);
      // Reached from there: dim is typed in, the link follows.
      const dim = page.locator("[data-testid=control-dim]");
      assert.ok(await dim.isVisible(), where);
      await dim.fill("64");
      await page.waitForFunction(() => location.hash.includes("dim=64"));
      // The folded fields open with the toggle.
      const positions = page.locator("[data-testid=control-positions]");
      const toggle = page.locator("[data-testid=controls-more]");
      assert.ok(await positions.isHidden(), where);
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      await toggle.click();
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      assert.ok(await positions.isVisible(), where);
      await positions.fill("100");
      await page.waitForFunction(() => location.hash.includes("positions=100"));
      await toggle.click();
      assert.ok(await positions.isHidden(), where);
      // Widened past 1000 px: every field in the row, folded or not, and
      // no toggle.
      await page.setViewportSize({ width: 1400, height: 900 });
      for (const key of ["preset", "dim", "positions", "layout", "start"])
        assert.ok(
          await page.locator(`[data-testid=control-${key}]`).isVisible(),
          `${where}, widened: ${key}`,
        );
      assert.ok(await toggle.isHidden(), where);
      assert.deepEqual(errors, []);
      await close();
    }
});
