// Embedded panels in Chromium: notes that speak of attributes, the theme
// and compact attributes, attribute changes drawn with the latest values
// only, a panel's plans ended with its mount, and the panels of a page drawn
// from one queue, a step at a time.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CSP, launch } from "./launch.js";
import { count, recordTimeline, timelineSeen } from "./timeline.js";

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
    Array.from(document.querySelectorAll("[data-ready]")).every(
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
    /attribute base="-1" is outside 1\.001 … 1000000000; using 1\.001/,
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
      panel.shadowRoot.firstElementChild.dataset.original = "yes";
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
      same: panel.shadowRoot.firstElementChild.dataset.original === "yes",
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

test("a panel's section ends with its mount: a new language, or the panel's removal, disposes its plans", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
    init: recordTimeline,
  });
  await drawn(page);
  // The plans made and disposed from the `from`-th entry of the timeline on.
  const plans = async (from) => {
    const seen = (await timelineSeen(page)).slice(from);
    const made = count(seen, "pe-call:");
    for (const name of Object.keys(made))
      if (!name.startsWith("create")) delete made[name];
    return {
      made,
      ended: count(seen, "pe-dispose:"),
      next: from + seen.length,
    };
  };
  const start = (await timelineSeen(page)).length;
  await addPanel(page, "pe-relation", { dim: "16", lang: "en" });
  const first = await plans(start);
  assert.deepEqual(first.made, { createTable: 1, createRope: 2 });
  assert.deepEqual(first.ended, {});
  await page.evaluate(() =>
    document.getElementById("added").setAttribute("lang", "zh"),
  );
  await drawn(page);
  const second = await plans(first.next);
  assert.deepEqual(second.made, first.made);
  assert.deepEqual(second.ended, first.made);
  await page.evaluate(() => document.getElementById("added").remove());
  const removed = await plans(second.next);
  assert.deepEqual(removed.ended, second.made);
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

// A tutorial's own page: serif type at 20 px, and elements whose class names
// the panels also use. Served with the site's policy.
const HOST = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A tutorial</title></head>
<body>
  <article id="article">
    <p class="lead">A lead of the host's own.</p>
    <p class="note">A note.</p> <span class="badge">badge</span>
    <p class="caption">A caption.</p>
    <ul class="legend"><li>one</li><li>two</li></ul>
    <canvas width="40" height="20"></canvas>
    <math><mi>x</mi><mo>+</mo><mn>1</mn></math>
    <h2>The relation</h2>
    <div id="slot"></div>
  </article>
</body></html>`;
const HOST_CSS = "article { font: 20px/1.4 Georgia, serif; color: #222; }";

async function openHost(attributes = {}) {
  const context = await chromium.browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.route("**/tutorial/*", (route) => {
    const css = route.request().url().endsWith(".css");
    route.fulfill({
      status: 200,
      contentType: css ? "text/css" : "text/html",
      headers: { "content-security-policy": CSP },
      body: css
        ? HOST_CSS
        : HOST.replace(
            "</head>",
            '<link rel="stylesheet" href="host.css"></head>',
          ),
    });
  });
  await page.goto(`${chromium.origin}/tutorial/index.html`);
  const styles = () =>
    page.evaluate(() => {
      const picked = [
        ".lead",
        ".note",
        ".badge",
        ".caption",
        ".legend",
        ".legend li",
        "canvas",
        "math",
        "article",
        "h2",
        "body",
      ];
      return Object.fromEntries(
        picked.map((selector) => {
          const style = getComputedStyle(document.querySelector(selector));
          return [
            selector,
            Object.fromEntries(
              Array.from(style, (name) => [name, style.getPropertyValue(name)]),
            ),
          ];
        }),
      );
    });
  const add = async () => {
    await page.evaluate((attributes) => {
      const panel = document.createElement("pe-relation");
      for (const [key, value] of Object.entries(attributes))
        panel.setAttribute(key, value);
      document.getElementById("slot").append(panel);
      const script = document.createElement("script");
      script.src = "/embed.js";
      document.body.append(script);
    }, attributes);
    await page.waitForSelector("pe-relation[data-ready=true]");
  };
  return { page, errors, styles, add, close: () => context.close() };
}

test("a panel changes the style of nothing on its host page", async () => {
  const host = await openHost({ p: "3", k: "5" });
  const before = await host.styles();
  await host.add();
  const after = await host.styles();
  // The containers grow by the panel: their sizes, and what derives from
  // them, may change; nothing else of any element may.
  const grows = /^(height|block-size|perspective-origin|transform-origin)$/;
  for (const selector of Object.keys(before))
    for (const [name, value] of Object.entries(before[selector]))
      if (!(["article", "body"].includes(selector) && grows.test(name)))
        assert.equal(after[selector][name], value, `${selector} ${name}`);
  // Nor did it add a style sheet to the host document.
  assert.equal(await host.page.evaluate(() => document.styleSheets.length), 1);
  const violations = await host.page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => !e.name.startsWith(location.origin))
      .map((e) => e.name),
  );
  assert.deepEqual(violations, []);
  assert.deepEqual(host.errors, []);
  await host.close();
});

test("a panel's type follows its host, or the page's own on request; no band above it", async () => {
  const host = await openHost();
  await host.add();
  const measure = () =>
    host.page.$eval("pe-relation", (panel) => {
      const root = panel.shadowRoot;
      const lead = getComputedStyle(root.querySelector(".lead"));
      const math = root.querySelector(".formula math");
      const top = panel.getBoundingClientRect().top;
      const first = root.querySelector(".lead").getBoundingClientRect().top;
      return {
        family: lead.fontFamily,
        size: parseFloat(lead.fontSize),
        math: parseFloat(getComputedStyle(math).fontSize),
        band: first - top,
      };
    });
  const inherited = await measure();
  assert.match(inherited.family, /Georgia/);
  assert.equal(inherited.size, 20);
  // Formulas at least the prose's size, not shrunk to the root's 16 px.
  assert.ok(inherited.math >= 20, String(inherited.math));
  assert.ok(inherited.band <= 2, `band ${inherited.band}`);
  await host.page.evaluate(() =>
    document.querySelector("pe-relation").setAttribute("look", "page"),
  );
  await host.page.waitForSelector("pe-relation[data-ready=true]");
  const own = await measure();
  assert.match(own.family, /system-ui/);
  assert.equal(own.size, 16);
  assert.ok(own.band <= 10, `band ${own.band}`);
  assert.deepEqual(host.errors, []);
  await host.close();
});

test("a section's link parameters are attributes of its panel, with notes at its top", async () => {
  const host = await openHost({ p: "3", k: "5", positions: "99999" });
  await host.add();
  const read = () =>
    host.page.$eval("pe-relation", (panel) => {
      const root = panel.shadowRoot;
      return {
        p: root.querySelector("[data-testid=relation-p]").value,
        k: root.querySelector("[data-testid=relation-k]").value,
      };
    });
  assert.deepEqual(await read(), { p: "3", k: "5" });
  // Changed on the element, the panel follows.
  await host.page.evaluate(() =>
    document.querySelector("pe-relation").setAttribute("k", "-2"),
  );
  await host.page.waitForFunction(
    () =>
      document
        .querySelector("pe-relation")
        .shadowRoot.querySelector("[data-testid=relation-k]")?.value === "-2",
  );
  assert.deepEqual(await read(), { p: "3", k: "-2" });
  await host.page.evaluate(() =>
    document.querySelector("pe-relation").setAttribute("p", "lots"),
  );
  await host.page.waitForFunction(
    () =>
      document.querySelector("pe-relation").dataset.ready === "true" &&
      document
        .querySelector("pe-relation")
        .shadowRoot.querySelector(".note[data-slot='param-relation.p']"),
  );
  // The notes open the panel, and speak of attributes, not links.
  const notes = await host.page.$eval("pe-relation", (panel) => {
    const section = panel.shadowRoot.querySelector("section");
    return Array.from(section.children)
      .slice(0, 2)
      .map((child) => [child.className, child.textContent]);
  });
  const text = notes.map(([, t]) => t).join(" ");
  assert.ok(
    notes.every(([className]) => className === "note"),
    text,
  );
  assert.match(text, /attribute p="lots" is not valid; using the default 100/);
  // positions is clamped as on the page, not reset to the default.
  assert.match(text, /positions="99999" is outside 1 … 16384; using 16384/);
  assert.doesNotMatch(text, /link/i);
  assert.deepEqual(host.errors, []);
  await host.close();
});

test("each section's 'embed this' snippet, pasted into a host, shows the same state", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=zh&dim=64&relation.p=7&relation.k=-4",
  });
  const snippet = await page.textContent("[data-testid=embed-relation]");
  await close();
  const lines = snippet.split("\n");
  assert.equal(lines[0], '<script src="embed.js"></script>');
  const element = lines[1].match(
    /^<pe-relation((?: [a-z]+="[^"]*")*)><\/pe-relation>$/,
  );
  assert.ok(element, snippet);
  const attributes = Object.fromEntries(
    Array.from(element[1].matchAll(/([a-z]+)="([^"]*)"/g), ([, k, v]) => [
      k,
      v,
    ]),
  );
  assert.deepEqual(attributes, { dim: "64", p: "7", k: "-4", lang: "zh" });
  const host = await openHost(attributes);
  await host.add();
  const shown = await host.page.$eval("pe-relation", (panel) => {
    const root = panel.shadowRoot;
    return [
      root.querySelector("[data-testid=relation-p]").value,
      root.querySelector("[data-testid=relation-k]").value,
      root.querySelector("section").getAttribute("aria-label"),
    ];
  });
  assert.deepEqual(shown.slice(0, 2), ["7", "-4"]);
  assert.match(shown[2], /[\u4e00-\u9fff]/);
  assert.deepEqual(errors, []);
  assert.deepEqual(host.errors, []);
  await host.close();
});

test("a panel whose preset refuses its dim says why at its top, in its language, and draws nothing stale", async () => {
  const host = await openHost({ preset: "whisper", dim: "65", lang: "zh" });
  await host.add();
  const shown = await host.page.$eval("pe-relation", (panel) => {
    const section = panel.shadowRoot.querySelector("section");
    const first = section.firstElementChild;
    return {
      first: [first.className, first.textContent],
      canvases: Array.from(section.querySelectorAll("canvas")).filter(
        (c) => c.getClientRects().length > 0,
      ).length,
      text: section.textContent,
    };
  });
  assert.equal(shown.first[0], "note");
  assert.match(shown.first[1], /whisper 预设只支持偶数维度.*64 或 66/);
  assert.equal(shown.canvases, 0);
  assert.doesNotMatch(shown.text, /sinusoidal-pe:|refuses/);
  assert.deepEqual(host.errors, []);
  await host.close();
});
