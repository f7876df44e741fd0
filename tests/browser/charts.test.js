// Readable charts, in Chromium: RoPE dials large enough to read, with the
// angle between the hands shown and a hand that drags; bits on a 0/1 scale;
// one download menu per section.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

test("RoPE dials: at least 120 px, the angle between the hands, a drag that moves m", async () => {
  for (const scheme of ["light", "dark"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: "#lang=en&rope.m=5&rope.n=2",
      viewport: { width: 1400, height: 900 },
      colorScheme: scheme,
    });
    const dial = page.locator("[data-testid=rope-dial-0]");
    const box = await dial.boundingBox();
    assert.ok(box.width >= 120 && box.height >= 120, `${box.width}`);
    // Pair 0 turns by ω₀ = 1 per position: rotation moves the hands
    // (m − n)·1 = 3 rad further apart than they were.
    const between = Number(await dial.getAttribute("data-between"));
    const before = Number(await dial.getAttribute("data-before"));
    let change = between - before - 3;
    change -= 2 * Math.PI * Math.round(change / (2 * Math.PI));
    assert.ok(Math.abs(change) < 1e-4, `${between} ${before}`);
    // The ring is drawn in a colour apart from the background in both themes.
    const ring = await dial.evaluate((canvas) => {
      const context = canvas.getContext("2d");
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const corner = context.getImageData(1, 1, 1, 1).data;
      const edge = context.getImageData(
        Math.round((canvas.width / ratio / 2) * ratio),
        Math.round(6 * ratio),
        1,
        1,
      ).data;
      return Math.abs(edge[0] - corner[0]) + Math.abs(edge[1] - corner[1]);
    });
    assert.ok(ring > 30, `${scheme}: ring contrast ${ring}`);
    // Drag the query's solid hand a quarter turn on: m grows by about π/2.
    await dial.scrollIntoViewIfNeeded();
    const at = await dial.boundingBox();
    const cx = at.x + at.width / 2;
    const cy = at.y + at.height / 2;
    const qAngle = await page.evaluate(() => {
      const q = document
        .querySelector("[data-testid=rope-qk]")
        .dataset.q.split(" ")
        .map(Number);
      return Math.atan2(q[4], q[0]) + 5;
    });
    const r = at.width / 4;
    await page.mouse.move(cx + r * Math.cos(qAngle), cy - r * Math.sin(qAngle));
    await page.mouse.down();
    const target = qAngle + 1.5;
    await page.mouse.move(
      cx + r * Math.cos(target),
      cy - r * Math.sin(target),
      { steps: 4 },
    );
    await page.mouse.up();
    await settle(page);
    const m = Number(await page.inputValue("[data-testid=rope-m]"));
    assert.ok(m >= 6 && m <= 7, `m = ${m}`);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("the binary digits are on a 0/1 scale", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  assert.equal(
    await page.getAttribute("[data-testid=why-bits]", "data-scale"),
    "1  0",
  );
  assert.deepEqual(errors, []);
  await close();
});

test("one download menu per section, listing each chart", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  const menus = await page.$$eval("main > section", (sections) =>
    sections.map((section) => ({
      id: section.id,
      menus: section.querySelectorAll("[data-testid=downloads]").length,
      buttons: section.querySelectorAll(".png-button").length,
      loose: Array.from(section.querySelectorAll(".png-button")).filter(
        (b) => !b.closest("[data-testid=downloads]"),
      ).length,
    })),
  );
  for (const { id, menus: count, buttons, loose } of menus) {
    assert.ok(count <= 1, id);
    assert.equal(loose, 0, id);
    if (buttons > 0) assert.equal(count, 1, id);
  }
  assert.ok(menus.find((m) => m.id === "table").buttons >= 2);
  assert.deepEqual(errors, []);
  await close();
});

test("column charts show about twelve of their own periods, or every position on request", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&positions=512",
  });
  // Column 0 is sin(p·ω₀) with ω₀ = 1: period 2π.
  const shown = () =>
    page
      .getAttribute("[data-testid=curves-column-0]", "data-shown")
      .then(Number);
  const fit = await shown();
  assert.ok(
    fit >= 12 * 2 * Math.PI && fit <= 12 * 2 * Math.PI + 1,
    String(fit),
  );
  assert.match(
    await page.textContent(
      "#curves figure.small-multiple:has([data-testid=curves-column-0]) figcaption",
    ),
    /positions 0 … 75/,
  );
  await page.selectOption("[data-testid=curves-span]", "all");
  await settle(page);
  assert.equal(await shown(), 512);
  await page.waitForFunction(() => location.hash.includes("curves.span=all"));
  assert.deepEqual(errors, []);
  await close();
});

test("RoPE's table shows each angle as the hand does, less its whole turns", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&rope.m=1000000&rope.n=2",
  });
  const cell = await page.textContent(
    "[data-testid=rope-pairs] tbody tr:first-child td:nth-child(4)",
  );
  const [m, n] = cell.split(", ").map(Number);
  // Pair 0: ω₀ = 1, so the angle is 10⁶ less its whole turns.
  const expected = 1e6 - 2 * Math.PI * Math.trunc(1e6 / (2 * Math.PI));
  assert.ok(Math.abs(m - expected) < 1e-3, cell);
  assert.equal(n, 2);
  assert.deepEqual(errors, []);
  await close();
});

test("each section ends with its downloads, then under the hood, then embed this", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  const orders = await page.$$eval("main > section", (sections) =>
    sections.map((section) => [
      section.id,
      Array.from(section.children)
        .map((child) =>
          child.matches("[data-testid=downloads]")
            ? "downloads"
            : child.matches(".under-hood")
              ? "hood"
              : child.matches(".embed-this")
                ? "embed"
                : "",
        )
        .filter(Boolean)
        .join(" "),
    ]),
  );
  for (const [id, order] of orders)
    assert.match(order, /^(downloads )?(hood )?(embed)?$/, `${id}: ${order}`);
  assert.deepEqual(errors, []);
  await close();
});
