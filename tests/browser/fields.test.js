// Every typed field takes its text the same way, in Chromium: a value that
// reads applies as it is typed, text that does not is left as typed and
// marked invalid while nothing changes, and leaving the field (or Enter)
// puts back the value in use with a note. Checked on a shared control, a
// list field and a position field of two sections.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { setControl, settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

const invalid = (field) => field.getAttribute("aria-invalid");
// The link is written once changes pause; this waits for it.
const linkHas = (page, text) =>
  page.waitForFunction((t) => location.hash.includes(t), text);

test("the shared dim field applies as typed and leaves half-typed text alone", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  await setControl(page, "dim", 64);
  const dim = page.locator("[data-testid=control-dim]");
  // Typed, no Enter: applied.
  await dim.fill("96");
  await settle(page);
  await linkHas(page, "dim=96");
  assert.equal(await invalid(dim), null);
  // Text that is no number yet: marked, nothing applied, the text kept.
  await dim.fill("9x");
  await page.waitForTimeout(400);
  assert.equal(await invalid(dim), "true");
  assert.equal(await dim.inputValue(), "9x");
  assert.match(await page.evaluate(() => location.hash), /dim=96/);
  assert.equal(await page.textContent("[data-testid=notes]"), "");
  // Enter commits: the value in use comes back, with a note saying so.
  await dim.press("Enter");
  assert.equal(await dim.inputValue(), "96");
  assert.equal(await invalid(dim), null);
  assert.match(
    await page.textContent("[data-testid=notes]"),
    /“9x” is not a number; using 96/,
  );
  // Out of range while typing is marked; committed, it is clamped.
  await dim.fill("99999");
  assert.equal(await invalid(dim), "true");
  await dim.press("Tab");
  assert.equal(await invalid(dim), null);
  assert.match(await page.textContent("[data-testid=notes]"), /using 4096/);
  assert.equal(await dim.inputValue(), "4096");
  assert.deepEqual(errors, []);
  await close();
});

test("the curves' list of dimensions applies as typed; a list that does not read waits for the commit", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  const dims = page.locator("[data-testid=curves-dimensions]");
  const note = page.locator("[data-testid=curves-dimensions-note]");
  const column = (j) => page.locator(`[data-testid=curves-column-${j}]`);
  await dims.fill("1, 2");
  await settle(page);
  assert.equal(await column(1).count(), 1);
  assert.equal(await column(2).count(), 1);
  await linkHas(page, "curves.dims=1%2C2");
  await dims.fill("1, x");
  assert.equal(await invalid(dims), "true");
  assert.ok(await note.isHidden());
  assert.equal(await column(1).count(), 1);
  assert.equal(await dims.inputValue(), "1, x");
  await dims.press("Enter");
  assert.equal(await invalid(dims), null);
  assert.equal(await dims.inputValue(), "1, 2");
  assert.match(await note.textContent(), /“x” is not a number/);
  // A list that reads again clears the note as it is typed.
  await dims.fill("3");
  assert.ok(await note.isHidden());
  assert.equal(await column(3).count(), 1);
  assert.deepEqual(errors, []);
  await close();
});

test("RoPE's m and decay's α apply as typed; empty text is marked and put back on leaving", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&rope.m=5&rope.n=2",
  });
  const m = page.locator("[data-testid=rope-m]");
  const after = () =>
    page.getAttribute("[data-testid=rope-qk]", "data-after").then(Number);
  const first = await after();
  await m.fill("9");
  await settle(page);
  assert.notEqual(await after(), first);
  await linkHas(page, "rope.m=9");
  await m.fill("");
  assert.equal(await invalid(m), "true");
  await m.press("Tab");
  assert.equal(await m.inputValue(), "9");
  assert.equal(await invalid(m), null);

  const alpha = page.locator("[data-testid=decay-alpha]");
  await alpha.fill("3");
  await linkHas(page, "decay.alpha=3");
  await alpha.fill("9");
  assert.equal(await invalid(alpha), "true");
  await alpha.press("Enter");
  assert.equal(await alpha.inputValue(), "3");
  assert.match(await page.textContent("#decay"), /α must be a number/);
  assert.deepEqual(errors, []);
  await close();
});
