// Waiting for the page as a reader would: after a change it draws the
// sections on screen over a few frames, marks the body ready once each of
// them has the latest state, and bins its largest heatmaps over more frames
// still. Sections off screen draw the change when they come into view.

/** Resolves once the sections on screen and every heatmap are drawn. */
export function settleInView(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const check = () =>
          document.body.dataset.ready === "true" &&
          !document.querySelector("canvas[data-complete=false]")
            ? resolve()
            : requestAnimationFrame(check);
        requestAnimationFrame(() => requestAnimationFrame(check));
      }),
  );
}

/**
 * Resolves once every section and every heatmap shows the latest state: the
 * sections left stale off screen are scrolled into view one by one, as a
 * reader would go to them, and the window then goes back where it was.
 */
export async function settle(page) {
  await settleInView(page);
  const stale = await page.$$eval("section[data-stale]", (list) =>
    list.map((section) => section.id),
  );
  if (stale.length === 0) return;
  const at = await page.evaluate(() => scrollY);
  for (const id of stale) {
    await page.evaluate(
      (id) => document.getElementById(id).scrollIntoView(),
      id,
    );
    await page.waitForFunction(
      (id) => !document.getElementById(id).hasAttribute("data-stale"),
      id,
    );
    await settleInView(page);
  }
  await page.evaluate((y) => scrollTo(0, y), at);
  await settleInView(page);
}

/** Sets a shared control as a user would (type, then Enter), and settles. */
export async function setControl(page, name, value) {
  const selector = `[data-testid="control-${name}"]`;
  if ((await page.$eval(selector, (e) => e.tagName)) === "SELECT")
    await page.selectOption(selector, value);
  else {
    await page.fill(selector, String(value));
    await page.press(selector, "Enter");
  }
  await settle(page);
}
