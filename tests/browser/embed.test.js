// Embedded panels in Chromium: notes that speak of attributes, the theme
// and compact attributes, attribute changes drawn with the latest values
// only, and the panels of a page drawn from one queue, a step at a time.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

/** Adds a panel to the example page and waits until it has drawn. */
async function addPanel(page, tag, attributes) {
  await page.evaluate(
    ([tag, attributes]) => {
      const panel = document.createElement(tag);
      panel.id = "added";
      for (const [key, value] of Object.entries(attributes))
        panel.setAttribute(key, value);
      document.querySelector("main").prepend(panel);
    },
    [tag, attributes],
  );
  await page.waitForSelector("#added[data-ready=true]");
}

const frames = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(resolve)),
      ),
  );

/** Waits until every panel has drawn its latest attributes. */
const drawn = (page) =>
  page.waitForFunction(() =>
    Array.from(document.querySelectorAll(".pe-embed")).every(
      (panel) => panel.dataset.ready === "true",
    ),
  );

test("bad attributes get notes that name the attribute, and defaults", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  await addPanel(page, "pe-heatmap", {
    dim: "3.5",
    base: "-1",
    lang: "fr",
    theme: "sepia",
    positions: "ten",
  });
  const note = await page.textContent("#added .note[data-slot=attributes]");
  assert.match(note, /attribute dim="3\.5" is not a whole number; using 4/);
  assert.match(
    note,
    /attribute base="-1" is outside 1\.001 … 1000000000; using the default 10000/,
  );
  assert.match(note, /attribute lang="fr" names a language .*; using en/);
  assert.match(note, /attribute theme="sepia" is not light, dark or auto/);
  assert.match(
    note,
    /attribute positions="ten" is not valid; using the default 512/,
  );
  assert.doesNotMatch(note, /link/i);
  // The panel draws at the values the notes name.
  assert.match(
    await page.$eval("#added [data-testid=heatmap]", (c) => c.dataset.colTicks),
    /^0 /,
  );
  assert.deepEqual(errors, []);
  await close();
});

/** The chart background's colour, from a pixel in the canvas's corner. */
const background = (page, selector) =>
  page.$eval(selector, (canvas) =>
    Array.from(
      canvas.getContext("2d").getImageData(1, 1, 1, 1).data.slice(0, 3),
    ),
  );

test("theme: light by default inside any host, dark or following the scheme on request", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
    colorScheme: "dark",
  });
  const light = [255, 255, 255];
  const dark = [0x1b, 0x1d, 0x22];
  await addPanel(page, "pe-heatmap", { dim: "16" });
  assert.deepEqual(await background(page, "#added canvas"), light);
  await page.evaluate(() => document.getElementById("added").remove());
  await addPanel(page, "pe-heatmap", { dim: "16", theme: "dark" });
  assert.deepEqual(await background(page, "#added canvas"), dark);
  await page.evaluate(() => document.getElementById("added").remove());
  await addPanel(page, "pe-heatmap", { dim: "16", theme: "auto" });
  assert.deepEqual(await background(page, "#added canvas"), dark);
  // Switched on the element, the theme follows.
  await page.evaluate(() =>
    document.getElementById("added").setAttribute("theme", "light"),
  );
  await drawn(page);
  assert.deepEqual(await background(page, "#added canvas"), light);
  await page.emulateMedia({ colorScheme: "light" });
  await page.evaluate(() =>
    document.getElementById("added").setAttribute("theme", "auto"),
  );
  await drawn(page);
  assert.deepEqual(await background(page, "#added canvas"), light);
  assert.deepEqual(errors, []);
  await close();
});

test("a panel leaves the headings to its host; compact shows the charts without prose", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  // The host page's outline is its own: no panel adds a heading to it, and
  // each panel is named by its title instead.
  assert.equal(await page.locator(".pe-embed h2").count(), 0);
  assert.equal(
    await page.getAttribute("pe-heatmap section", "aria-label"),
    "The table",
  );
  assert.ok(await page.locator("pe-heatmap .lead").isVisible());
  await addPanel(page, "pe-relation", { compact: "" });
  assert.equal(await page.locator("#added h2").count(), 0);
  assert.ok(await page.locator("#added .lead").isHidden());
  assert.ok(await page.locator("#added .formula").first().isHidden());
  assert.ok(await page.locator("#added canvas").first().isVisible());
  assert.ok(
    await page.locator("[data-testid=relation-badge]").first().isVisible(),
  );
  await page.evaluate(() =>
    document.getElementById("added").removeAttribute("compact"),
  );
  await drawn(page);
  assert.ok(await page.locator("#added .lead").isVisible());
  assert.equal(await page.locator("#added h2").count(), 0);
  assert.deepEqual(errors, []);
  await close();
});

test("attribute changes draw once with the latest values, without re-mounting", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  const tags = [
    "pe-heatmap",
    "pe-curves",
    "pe-relation",
    "pe-dot",
    "pe-rope",
    "pe-decay",
    "pe-precision",
  ];
  await page.evaluate((tags) => {
    for (const tag of tags) {
      const panel = document.createElement(tag);
      panel.className = "burst";
      panel.setAttribute("dim", "16");
      document.querySelector("main").append(panel);
    }
  }, tags);
  await page.waitForFunction(
    () => document.querySelectorAll(".burst[data-ready=true]").length === 7,
  );
  const before = await page.$$eval(".burst", (list) =>
    list.map((panel) => {
      panel.firstElementChild.dataset.original = "yes";
      return Number(panel.dataset.renders);
    }),
  );
  // Ten bursts of four attributes in one task: one redraw per panel.
  await page.evaluate(() => {
    for (let burst = 0; burst < 10; burst++)
      for (const panel of document.querySelectorAll(".burst")) {
        panel.setAttribute("dim", String(16 + 2 * burst));
        panel.setAttribute("positions", String(64 + burst));
        panel.setAttribute("base", String(1000 + burst));
        panel.setAttribute("start", String(burst));
      }
  });
  await drawn(page);
  const after = await page.$$eval(".burst", (list) =>
    list.map((panel) => ({
      renders: Number(panel.dataset.renders),
      same: panel.firstElementChild.dataset.original === "yes",
    })),
  );
  after.forEach(({ renders, same }, i) => {
    assert.equal(renders, before[i] + 1, tags[i]);
    assert.ok(same, `${tags[i]} was mounted again`);
  });
  // The last values are the ones drawn: dim 34, positions 73 from 9.
  const ticks = await page.$eval(".burst [data-testid=heatmap]", (c) => [
    c.dataset.colTicks,
    c.dataset.rowTicks,
  ]);
  assert.match(ticks[0], /\b30\b/);
  // Positions 9 … 81 (from 0 they would end at 72: ticks 0 … 60).
  assert.equal(ticks[1], "20 40 60 80");
  // Bursts a frame apart: at most one redraw each.
  const start = await page.$$eval(".burst", (list) =>
    list.map((p) => Number(p.dataset.renders)),
  );
  for (let burst = 0; burst < 5; burst++) {
    await page.evaluate((burst) => {
      for (const panel of document.querySelectorAll(".burst")) {
        panel.setAttribute("dim", String(20 + 2 * burst));
        panel.setAttribute("base", String(2000 + burst));
      }
    }, burst);
    await frames(page);
  }
  const end = await page.$$eval(".burst", (list) =>
    list.map((p) => Number(p.dataset.renders)),
  );
  end.forEach((renders, i) => assert.ok(renders - start[i] <= 5, tags[i]));
  assert.deepEqual(errors, []);
  await close();
});

test("the panels of a page share one queue: a step a frame when every step overruns the budget", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-relation[data-ready=true]",
  });
  // A clock on which every call is 7 ms later: each step of drawing then
  // overruns the frame's budget, and a queue that spreads its work over
  // frames draws one step a frame. Panels drawn each in one go would all
  // finish in the frame after they were connected.
  const finished = await page.evaluate(async () => {
    const now = performance.now.bind(performance);
    let skew = 0;
    performance.now = () => now() + (skew += 7);
    let frame = 0;
    const count = () => {
      frame++;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    const tags = ["pe-heatmap", "pe-heatmap", "pe-dot", "pe-curves"];
    const panels = tags.map((tag) => {
      const panel = document.createElement(tag);
      panel.className = "large";
      panel.setAttribute("dim", "4096");
      panel.setAttribute("positions", "1024");
      return panel;
    });
    const connectedAt = frame;
    document.querySelector("main").prepend(...panels);
    const frames = new Map();
    await new Promise((resolve) => {
      new MutationObserver(() => {
        for (const panel of panels)
          if (panel.dataset.ready === "true" && !frames.has(panel))
            frames.set(panel, frame - connectedAt);
        if (frames.size === panels.length) resolve();
      }).observe(document.querySelector("main"), {
        attributes: true,
        subtree: true,
        attributeFilter: ["data-ready"],
      });
    });
    performance.now = now;
    return panels.map((panel) => frames.get(panel));
  });
  // Every panel finished in a frame of its own, each after several steps.
  assert.equal(new Set(finished).size, finished.length, String(finished));
  for (const at of finished) assert.ok(at >= 2, String(finished));
  assert.deepEqual(errors, []);
  await close();
});
