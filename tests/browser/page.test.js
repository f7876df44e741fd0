// The built page (dist/site, from `make site`) in real Chromium, over http
// under the strict Content-Security-Policy and from file://. Expected values
// come from the package build in Node (dist/index.js) or from formulas
// written here, never from the page's own code.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as pe from "../../dist/index.js";
import { MODULE_FAILURES } from "../../web/parts/library-error.js";
import { launch, siteDir } from "./launch.js";
import { setControl, settle } from "./settle.js";

const SECTIONS = [
  "order",
  "why",
  "table",
  "tokens",
  "curves",
  "relation",
  "dot",
  "crossterms",
  "decay",
  "rope",
  "extension",
  "precision",
];
const TABLE_SECTIONS = ["order", "crossterms"];
const axeSource = fileURLToPath(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url),
);

let chromium;
before(async () => {
  await pe.init();
  chromium = await launch();
});
after(() => chromium?.close());

/** Sum and count of nonbackground pixels of a canvas, by test id. */
function canvasDigest(page, testid) {
  return page.$eval(`[data-testid="${testid}"]`, (canvas) => {
    const data = canvas
      .getContext("2d")
      .getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0;
    for (let i = 0; i < data.length; i += 4)
      hash = (hash * 31 + data[i] * 7 + data[i + 1] * 3 + data[i + 2]) >>> 0;
    return hash;
  });
}

/** Opens a section's download menu, then clicks one of its entries. */
async function openThen(page, section, selector) {
  const menu = page.locator(`${section} [data-testid=downloads]`);
  if ((await menu.getAttribute("open")) === null)
    await menu.locator("summary").click();
  await page.locator(selector).first().click();
}

const hashEntries = (page) =>
  page.evaluate(() =>
    Object.fromEntries(new URLSearchParams(location.hash.slice(1))),
  );

for (const via of ["http", "file"]) {
  test(`${via}: every section renders, with no error and no request outside the site`, async () => {
    const { page, errors, outside, violations, close } = await chromium.open(
      "index.html",
      { via },
    );
    const ids = await page.$$eval("main > section", (nodes) =>
      nodes.map((n) => n.id),
    );
    // The sections, then the sources.
    assert.deepEqual(ids, [...SECTIONS, "sources"]);
    for (const id of SECTIONS) {
      const failed = await page.$$eval(
        `#${id} .note[data-slot=failed]`,
        (n) => n.length,
      );
      assert.equal(failed, 0, `${id} computed`);
      // Two sections compute tables of numbers, not charts.
      if (TABLE_SECTIONS.includes(id)) {
        assert.ok((await page.locator(`#${id} td`).count()) > 4, id);
        continue;
      }
      const drawn = await page.$$eval(`#${id} canvas`, (canvases) =>
        canvases.some((canvas) => {
          const data = canvas
            .getContext("2d")
            .getImageData(0, 0, canvas.width, canvas.height).data;
          for (let i = 4; i < data.length; i += 4)
            if (data[i] !== data[0] || data[i + 1] !== data[1]) return true;
          return false;
        }),
      );
      assert.ok(drawn, `${id} draws a chart`);
    }
    // Formulas are MathML typeset by the build.
    assert.ok((await page.$$("#table math")).length >= 2);
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    if (via === "http") assert.deepEqual(await violations(), []);
    await close();
  });
}

test("the heatmap shows the table's values and follows dim, base and preset", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#preset=custom&dim=2&positions=1&layout=interleaved",
  });
  // One row: sin 0 = 0 (the map's middle, light grey) then cos 0 = 1 (its
  // red end): Moreland's cool-to-warm end points.
  const colours = await page.$eval('[data-testid="heatmap"]', (canvas) => {
    const context = canvas.getContext("2d");
    const box = canvas.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    // The plot spans the canvas between its margins; sample its quarters.
    const at = (fx) =>
      Array.from(
        context
          .getImageData(
            Math.round((58 + fx * (box.width - 128)) * ratio),
            Math.round(60 * ratio),
            1,
            1,
          )
          .data.slice(0, 3),
      );
    return [at(0.25), at(0.75)];
  });
  assert.deepEqual(colours, [
    [221, 221, 221],
    [180, 4, 38],
  ]);

  await setControl(page, "dim", 64);
  await setControl(page, "positions", 256);
  const before = await canvasDigest(page, "heatmap");
  await setControl(page, "dim", 96);
  const wider = await canvasDigest(page, "heatmap");
  assert.notEqual(wider, before, "dim");
  await setControl(page, "base", 100);
  const base = await canvasDigest(page, "heatmap");
  assert.notEqual(base, wider, "base");
  await setControl(page, "preset", "whisper");
  const preset = await canvasDigest(page, "heatmap");
  assert.notEqual(preset, base, "preset");
  await page.waitForFunction(() => location.hash.includes("preset=whisper"));

  // Out of range: clamped, with a note, and the field shows what is used.
  await setControl(page, "positions", 20000);
  assert.equal(
    await page.inputValue('[data-testid="control-positions"]'),
    "16384",
  );
  assert.match(
    await page.textContent('[data-testid="notes"]'),
    /20000 is outside 1 … 16384; using 16384/,
  );
  await setControl(page, "positions", 256);

  // The readout gives the library's value and frequency of the cell.
  await page.focus('[data-testid="heatmap"]');
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowRight");
  const readout = await page.textContent("#table .readout");
  const row = pe.table({
    preset: "whisper",
    dim: 96,
    positions: [1],
    maxTimescale: 100,
  });
  const omega = pe.frequencies({
    preset: "whisper",
    dim: 96,
    maxTimescale: 100,
  });
  assert.match(readout, /position 1 · dimension 1 /);
  assert.ok(
    readout.includes(`value ${Number(row[1].toPrecision(7))}`),
    readout,
  );
  assert.ok(readout.includes(`${Number(omega[1].toPrecision(7))}`), readout);
  assert.deepEqual(errors, []);
  await close();
});

test("the relation error shown is linearRelationError's and within tolerance", async () => {
  const cases = [
    ["custom", 100, 3],
    ["custom", 0, -7.5],
    ["custom", 12345.25, 0.125],
    ["custom", 99999.5, -3.25],
    ["custom", 100000, 64],
    ["whisper", 99990, -0.5],
  ];
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#dim=128&base=10000&layout=halves",
  });
  for (const [preset, p, k] of cases) {
    await setControl(page, "preset", preset);
    await page.fill('[data-testid="relation-p"]', String(p));
    await page.fill('[data-testid="relation-k"]', String(k));
    await settle(page);
    const shown = Number(
      await page.getAttribute(
        '[data-testid="relation-max-error"]',
        "data-value",
      ),
    );
    const schedule =
      preset === "custom"
        ? { dim: 128, base: 10000, layout: "halves" }
        : { preset, dim: 128, maxTimescale: 10000 };
    const expected = pe.linearRelationError({
      ...schedule,
      positions: [p],
      offsets: [k],
    }).maxAbsError;
    assert.equal(shown, expected, `${preset} p ${p} k ${k}`);
    // Both sides are float32 roundings of values in [-1, 1].
    assert.ok(shown <= 2 ** -23, `${shown} at p ${p} k ${k}`);
    assert.equal(
      await page.textContent('[data-testid="relation-badge"]'),
      "the relation holds",
    );
  }
  assert.deepEqual(errors, []);
  await close();
});

test("the URL hash round-trips", async () => {
  const hash =
    "#lang=en&preset=custom&dim=64&positions=100&base=500&layout=halves&start=5&relation.p=42&relation.k=-2.5";
  const first = await chromium.open("index.html", { hash });
  const { page } = first;
  const read = (name) => page.inputValue(`[data-testid="control-${name}"]`);
  assert.deepEqual(
    [await read("dim"), await read("positions"), await read("base")],
    ["64", "100", "500"],
  );
  assert.equal(await read("layout"), "halves");
  assert.equal(await page.inputValue('[data-testid="relation-k"]'), "-2.5");
  assert.deepEqual(await hashEntries(page), {
    lang: "en",
    preset: "custom",
    dim: "64",
    positions: "100",
    base: "500",
    layout: "halves",
    start: "5",
    "relation.p": "42",
    "relation.k": "-2.5",
  });
  await setControl(page, "dim", 80);
  await page.waitForFunction(() => location.hash.includes("dim=80"));
  const link = await page.evaluate(() => location.hash);
  const digest = await canvasDigest(page, "heatmap");
  await first.close();

  const second = await chromium.open("index.html", { hash: link });
  assert.equal(
    await second.page.inputValue('[data-testid="control-dim"]'),
    "80",
  );
  assert.equal(await canvasDigest(second.page, "heatmap"), digest);
  // A link followed on the open page, while a field is being edited.
  await second.page.fill('[data-testid="control-dim"]', "70");
  await second.page.evaluate(() => (location.hash = "#dim=90&lang=zh"));
  await second.page.waitForFunction(
    () => document.documentElement.lang === "zh-Hans",
  );
  assert.equal(
    await second.page.inputValue('[data-testid="control-dim"]'),
    "90",
  );
  assert.deepEqual(second.errors, []);
  await second.close();
});

test("a drag writes the link once it pauses, not every frame", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  await page.evaluate(() => {
    window.linkWrites = 0;
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => {
      window.linkWrites++;
      return replace(...args);
    };
  });
  const updates = 20;
  await page.evaluate(async (updates) => {
    const base = document.querySelector('[data-testid="control-base"]');
    for (let u = 1; u <= updates; u++) {
      base.value = String(10000 + u);
      base.dispatchEvent(new Event("input", { bubbles: true }));
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  }, updates);
  await page.waitForFunction(
    (last) => location.hash.includes(`base=${last}`),
    10000 + updates,
  );
  // Frames slowed by a busy machine may let a write through mid-drag.
  const writes = await page.evaluate(() => window.linkWrites);
  assert.ok(writes >= 1 && writes < updates / 2, `${writes} writes`);
  assert.deepEqual(errors, []);
  await close();
});

test("a hostile hash is inert and falls back with a note", async () => {
  const hostile = [
    "dim=" + encodeURIComponent("<img src=x onerror=window.pwned=1>"),
    "positions=1e308",
    "base=-5",
    "start=NaN",
    "layout=" + encodeURIComponent("<script>window.pwned=1</script>"),
    "relation.k=Infinity",
    "relation.zz=1",
    "evil=" + encodeURIComponent('"><script>window.pwned=1</script>'),
    encodeURIComponent("<b>x</b>") + "=1",
    "__proto__=1",
  ].join("&");
  const { page, errors, outside, close } = await chromium.open("index.html", {
    hash: "#" + hostile,
  });
  const read = (name) => page.inputValue(`[data-testid="control-${name}"]`);
  assert.equal(await read("dim"), "128");
  assert.equal(await read("positions"), "16384");
  assert.equal(await read("base"), "1.001");
  assert.equal(await read("start"), "0");
  assert.equal(await read("layout"), "interleaved");
  assert.equal(await page.inputValue('[data-testid="relation-k"]'), "3");
  const notes = await page.$$eval(".note", (n) => n.map((e) => e.textContent));
  for (const word of [
    "relation.zz",
    "dim",
    "positions",
    "base",
    "start",
    "layout",
    "evil",
    "relation.k",
  ])
    assert.ok(
      notes.some((text) => text.includes(word)),
      `a note names ${word}: ${notes.join(" | ")}`,
    );
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.$$eval("script", (s) => s.length), 1);
  assert.equal(await page.$$eval("img", (s) => s.length), 0);
  // The rewritten link keeps only valid settings.
  const entries = await hashEntries(page);
  assert.equal(entries.evil, undefined);
  assert.equal(entries.dim, "128");
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await close();

  const long = await chromium.open("index.html", {
    hash: "#dim=64&x=" + "a".repeat(10000),
  });
  assert.equal(
    await long.page.inputValue('[data-testid="control-dim"]'),
    "128",
  );
  assert.match(
    await long.page.textContent('[data-testid="notes"]'),
    /too long/,
  );
  assert.deepEqual(long.errors, []);
  await long.close();
});

test("the language toggle switches every title, label and chart text", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en",
  });
  const texts = () =>
    page.evaluate(() => ({
      h1: document.querySelector("h1").textContent,
      h2: Array.from(document.querySelectorAll("h2"), (h) => h.textContent),
      labels: Array.from(document.querySelectorAll("label"), (l) =>
        l.textContent.trim(),
      ),
      legends: Array.from(document.querySelectorAll(".legend li"), (l) =>
        l.textContent.trim(),
      ),
      captions: Array.from(document.querySelectorAll("figcaption"), (c) =>
        c.textContent.trim(),
      ),
      lang: document.documentElement.lang,
    }));
  const english = await texts();
  await page.click('[data-testid="lang-toggle"]');
  await settle(page);
  const chinese = await texts();
  assert.equal(chinese.lang, "zh-Hans");
  assert.match(chinese.h1, /[\u4e00-\u9fff]/);
  // Every section's title, and the sources'.
  assert.equal(chinese.h2.length, SECTIONS.length + 1);
  chinese.h2.forEach((title, i) => {
    assert.match(title, /[\u4e00-\u9fff]/, title);
    assert.notEqual(title, english.h2[i]);
  });
  for (const label of chinese.labels)
    assert.doesNotMatch(label, /^[A-Za-z ]+$/, `untranslated label ${label}`);
  // A caption with English words in it (beyond sin, cos and symbols) is
  // prose left untranslated.
  for (const caption of chinese.captions)
    if (/[A-Za-z]{4,}/.test(caption.replace(/linear\w*|PE\(|sin|cos/g, "")))
      assert.match(
        caption,
        /[\u4e00-\u9fff]/,
        `untranslated caption ${caption}`,
      );
  assert.notDeepEqual(chinese.legends, english.legends);
  assert.equal((await hashEntries(page)).lang, "zh");
  assert.deepEqual(errors, []);
  await close();

  // Without a link, the browser's language decides.
  const fromBrowser = await chromium.open("index.html", { locale: "zh-CN" });
  assert.equal(
    await fromBrowser.page.evaluate(() => document.documentElement.lang),
    "zh-Hans",
  );
  await fromBrowser.close();
});

test("the CSV and .npy exports parse back to the library's table", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#preset=custom&dim=6&positions=5&base=100&layout=halves&start=2",
  });
  const expected = pe.table({
    dim: 6,
    positions: 5,
    base: 100,
    layout: "halves",
    start: 2,
  });

  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.click('[data-testid="export-csv"]'),
  ]);
  assert.match(
    csv.suggestedFilename(),
    /^pe-custom-d6-n5-base100-halves-start2-table\.csv$/,
  );
  const lines = readFileSync(await csv.path(), "utf8")
    .trim()
    .split("\n");
  assert.equal(lines[0], "position,d0,d1,d2,d3,d4,d5");
  const rows = lines.slice(1).map((line) => line.split(",").map(Number));
  assert.deepEqual(
    rows.map((row) => row[0]),
    [2, 3, 4, 5, 6],
  );
  const values = rows.flatMap((row) => row.slice(1));
  assert.deepEqual(Float32Array.from(values), expected);

  const [npy] = await Promise.all([
    page.waitForEvent("download"),
    page.click('[data-testid="export-npy"]'),
  ]);
  assert.match(npy.suggestedFilename(), /\.npy$/);
  const bytes = readFileSync(await npy.path());
  assert.deepEqual([...bytes.subarray(0, 8)], [0x93, 78, 85, 77, 80, 89, 1, 0]);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString("latin1");
  assert.match(header, /'descr': '<f4'/);
  assert.match(header, /'fortran_order': False/);
  assert.match(header, /'shape': \(5, 6\)/);
  assert.equal((10 + headerLength) % 64, 0);
  const data = bytes.subarray(10 + headerLength);
  const parsed = new Float32Array(
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
  );
  assert.deepEqual(parsed, expected);

  const [png] = await Promise.all([
    page.waitForEvent("download"),
    openThen(page, "#table", "#table .png-button"),
  ]);
  const image = readFileSync(await png.path());
  assert.deepEqual([...image.subarray(1, 4)], [80, 78, 71]);
  // The file holds the chart and a title band above it.
  const canvasHeight = await page.$eval(
    '[data-testid="heatmap"]',
    (c) => c.height,
  );
  assert.ok(image.readUInt32BE(20) > canvasHeight);

  // A line chart's file holds its legend too: taller still than its title
  // band alone; the RoPE scores are named by their pairing.
  const [periods] = await Promise.all([
    page.waitForEvent("download"),
    openThen(page, "#table", '[data-testid="png-periods"]'),
  ]);
  const periodsImage = readFileSync(await periods.path());
  const periodsCanvas = await page.$eval(
    "#table figure:nth-of-type(2) canvas",
    (canvas) => canvas.height,
  );
  assert.ok(periodsImage.readUInt32BE(20) > periodsCanvas + 30);
  const [rope] = await Promise.all([
    page.waitForEvent("download"),
    openThen(page, "#rope", '[data-testid="png-rope-scores"]'),
  ]);
  assert.match(rope.suggestedFilename(), /-pairing-halves-.*rope-scores\.png$/);
  assert.deepEqual(errors, []);
  await close();
});

test("an embedded panel renders on the example page", async () => {
  for (const via of ["http", "file"]) {
    const { page, errors, outside, violations, close } = await chromium.open(
      "embed.html",
      { via, ready: "pe-heatmap[data-ready=true]" },
    );
    await page.waitForSelector("pe-relation[data-ready=true]");
    assert.notEqual(await canvasDigest(page, "heatmap"), 0);
    const rows = await page.$eval("pe-heatmap", (e) =>
      e.shadowRoot.querySelector(".readout") ? 1 : 0,
    );
    assert.equal(rows, 1);
    assert.match(
      await page.getAttribute("pe-relation[lang=zh] section", "aria-label"),
      /[\u4e00-\u9fff]/,
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    if (via === "http") assert.deepEqual(await violations(), []);
    await close();
  }
});

test("one script tag and one element are all an embedding page needs", async () => {
  const folder = mkdtempSync(join(tmpdir(), "pe-embed-"));
  const host = join(folder, "tutorial.html");
  writeFileSync(
    host,
    `<!doctype html><title>t</title>
     <pe-heatmap dim="16" positions="32" lang="zh"></pe-heatmap>
     <script src="file://${siteDir}embed.js"></script>`,
  );
  const context = await chromium.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`file://${host}`);
  await page.waitForSelector("pe-heatmap[data-ready=true]");
  assert.notEqual(await canvasDigest(page, "heatmap"), 0);
  assert.equal(
    await page.getAttribute("pe-heatmap section", "aria-label"),
    "编码表",
  );
  // The script carries its style sheet, into the panel's shadow root only.
  assert.equal(await page.locator("link[rel=stylesheet]").count(), 0);
  assert.equal(
    await page.$eval(
      "pe-heatmap",
      (e) => e.shadowRoot.adoptedStyleSheets.length,
    ),
    1,
  );
  assert.deepEqual(errors, []);
  await context.close();
  rmSync(folder, { recursive: true });
});

test("under the README's policy the page and the panels' page load with no violation", async () => {
  // The README's script-src, with nothing else allowed: what a host that
  // follows it sends.
  const readme = readFileSync(
    new URL("../../README.md", import.meta.url),
    "utf8",
  );
  const scripts = readme.match(/`(script-src 'self' 'wasm-unsafe-eval')`/)[1];
  const policy = `default-src 'self'; ${scripts}`;
  for (const path of ["index.html", "embed.html"]) {
    const context = await chromium.browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript(() => {
      window.violations = [];
      document.addEventListener("securitypolicyviolation", (event) =>
        window.violations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      );
    });
    await page.route(`${chromium.origin}/**`, async (route) => {
      const response = await route.fetch();
      route.fulfill({
        response,
        headers: { ...response.headers(), "content-security-policy": policy },
      });
    });
    await page.goto(`${chromium.origin}/${path}`);
    await page.waitForSelector(
      path === "index.html"
        ? "body[data-ready=true]"
        : "pe-heatmap[data-ready=true]",
    );
    // The icon is requested after the load: wait until it has been.
    await page.waitForTimeout(500);
    assert.deepEqual(await page.evaluate(() => window.violations), [], path);
    assert.deepEqual(errors, [], path);
    await context.close();
  }
});

test("under a policy without 'wasm-unsafe-eval' the page and its panels say why, in their language", async () => {
  const policy = "default-src 'self'; script-src 'self'";
  const context = await chromium.browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await page.route(`${chromium.origin}/**`, async (route) => {
    const response = await route.fetch();
    route.fulfill({
      response,
      headers: { ...response.headers(), "content-security-policy": policy },
    });
  });
  await page.goto(`${chromium.origin}/index.html#lang=zh`);
  const said = await page.waitForSelector("#page > p.note");
  assert.equal(await said.textContent(), MODULE_FAILURES.zh.ERR_CSP);
  await page.goto(`${chromium.origin}/embed.html`);
  await page.waitForSelector("pe-heatmap[data-ready=true]");
  const panels = await page.$$eval("pe-heatmap, pe-relation", (list) =>
    list.map((panel) => [
      panel.getAttribute("lang") ?? "en",
      panel.dataset.error,
      panel.shadowRoot.querySelector(".note")?.textContent,
    ]),
  );
  assert.deepEqual(panels.map(([lang]) => lang).sort(), ["en", "en", "zh"]);
  for (const [lang, code, text] of panels) {
    assert.equal(code, "ERR_CSP");
    assert.equal(text, MODULE_FAILURES[lang].ERR_CSP);
    assert.match(text, /'wasm-unsafe-eval'/);
  }
  await context.close();
});

// Over http the page's policy would refuse the injected axe script: that
// context alone bypasses it (the other tests keep the policy strict).
test("axe-core finds no serious or critical violation", async () => {
  for (const [via, path, scheme] of [
    ["file", "index.html", "light"],
    ["file", "index.html", "dark"],
    ["file", "embed.html", "light"],
    ["http", "index.html", "light"],
    ["http", "index.html", "dark"],
    ["http", "embed.html", "light"],
  ]) {
    const { page, close } = await chromium.open(path, {
      via,
      bypassCSP: via === "http",
      colorScheme: scheme,
      ready: path === "embed.html" ? "pe-heatmap[data-ready=true]" : undefined,
    });
    await page.addScriptTag({ path: axeSource });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, {
        resultTypes: ["violations"],
      });
      return result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`);
    });
    assert.deepEqual(violations, [], `${via} ${path} ${scheme}`);
    await close();
  }
});

test("the period formula stands clear of the period chart", async () => {
  for (const width of [1100, 700, 360]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: "#lang=en",
      viewport: { width, height: 900 },
    });
    const [formula, chart] = await page.$$eval(
      "#table figure:nth-of-type(2) :is(math, canvas)",
      (nodes) => nodes.map((node) => node.getBoundingClientRect()),
    );
    // Glyphs reach slightly past the formula's box: a clear gap, not contact.
    assert.ok(
      chart.top - formula.bottom >= 4,
      `${width}: formula ends at ${formula.bottom}, chart starts at ${chart.top}`,
    );
    assert.deepEqual(errors, []);
    await close();
  }
});

test("a 360-pixel phone has no horizontal scrolling", async () => {
  for (const lang of ["en", "zh"]) {
    const { page, errors, close } = await chromium.open("index.html", {
      hash: `#lang=${lang}`,
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
    });
    const widths = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    assert.ok(widths[0] <= widths[1], `${lang}: ${widths}`);
    // Nor does any formula scroll inside its box.
    const scrolling = await page.$$eval(".formula, .formula", (boxes) =>
      boxes
        .filter((box) => box.scrollWidth > box.clientWidth)
        .map((box) => `${box.closest("section")?.id}: ${box.textContent}`),
    );
    assert.deepEqual(scrolling, [], lang);
    // HiDPI: the heatmap's backing store has twice its CSS pixels.
    const ratio = await page.$eval(
      '[data-testid="heatmap"]',
      (c) => c.width / c.getBoundingClientRect().width,
    );
    assert.ok(Math.abs(ratio - 2) < 0.02, `ratio ${ratio}`);
    assert.deepEqual(errors, []);
    await close();
  }
});

test("every part of the API computes in Chromium, in a worker too", async () => {
  const context = await chromium.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${chromium.origin}/lib/index.js`);
  const script = `${chromium.origin}/lib/sinusoidal-pe.global.js`;
  await page.addScriptTag({ url: script });
  const results = await page.evaluate(async (script) => {
    const pe = window.SinusoidalPE;
    await pe.init();
    const worker = new Worker(
      URL.createObjectURL(
        new Blob(
          [
            `importScripts(${JSON.stringify(script)});
             SinusoidalPE.init().then(() => postMessage(
               Array.from(SinusoidalPE.table({ positions: [3], dim: 2, dtype: "float64" }))));`,
          ],
          { type: "text/javascript" },
        ),
      ),
    );
    const fromWorker = await new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
    });
    worker.terminate();
    const pe8 = pe.table({ positions: [8], dim: 8, dtype: "float64" });
    const moved = pe.rotate(pe.table({ positions: [5], dim: 8 }), 3, {
      dim: 8,
    });
    return {
      fromWorker,
      rotateError: Math.max(
        ...Array.from(moved, (v, i) => Math.abs(v - pe8[i])),
      ),
      g0: pe.dotProducts({ dim: 8, offsets: [0] })[0],
      f0: pe.decayIntegral({ x: [0] })[0],
      linear: pe.decayIntegral({ theta: "linear", x: [2] })[0],
    };
  }, script);
  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 2.3e-16);
  assert.ok(near(results.fromWorker, [Math.sin(3), Math.cos(3)]));
  assert.ok(results.rotateError <= 1.2e-7, `rotate: ${results.rotateError}`);
  assert.equal(results.g0, 4);
  assert.equal(results.f0, 1);
  assert.ok(Math.abs(results.linear - Math.sin(2) / 2) <= 1e-16);
  assert.deepEqual(errors, []);
  await context.close();
});
