// Waiting for the page as a reader would: after a change it draws its
// sections over a few frames, marks the body ready once every one has the
// latest state, and bins its largest heatmaps over more frames still.

/** Resolves once every section and every heatmap shows the latest state. */
export function settle(page) {
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
