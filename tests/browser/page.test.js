// The page in real Chromium, served over http and opened from file://.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const webRoot = fileURLToPath(new URL("../../web/", import.meta.url));
const types = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
};
// Playwright gives every launch a fresh, temporary profile.
let server, browser, origin;

before(async () => {
  server = createServer((request, response) => {
    const path = normalize(
      decodeURIComponent(new URL(request.url, "http://x").pathname),
    );
    try {
      const body = readFileSync(
        join(webRoot, path.endsWith("/") ? path + "index.html" : path),
      );
      response.writeHead(200, {
        "content-type":
          types[extname(path) || ".html"] ?? "application/octet-stream",
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function openPage(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
  return { page, errors };
}

// Colour of the canvas pixel at a fraction (x, y) of its size.
function pixelAt(page, x, y) {
  return page.evaluate(
    ([fx, fy]) => {
      const canvas = document.getElementById("heatmap");
      const context = canvas.getContext("2d");
      const data = context.getImageData(
        Math.floor(fx * canvas.width),
        Math.floor(fy * canvas.height),
        1,
        1,
      ).data;
      return Array.from(data.slice(0, 3));
    },
    [x, y],
  );
}

test("served over http: the heatmap shows the table and follows the controls", async () => {
  const { page, errors } = await openPage(`${origin}/`);
  // The module computes in Chromium exactly as in Node.
  const row = await page.evaluate(() =>
    Array.from(
      window.SinusoidalPE.table({ positions: [1], dim: 2, dtype: "float64" }),
    ),
  );
  assert.deepEqual(row, [Math.sin(1), Math.cos(1)]);

  await page.fill("input[name=dim]", "2");
  await page.fill("input[name=positions]", "1");
  await page.waitForFunction(() =>
    document.getElementById("status").textContent.startsWith("1 × 2"),
  );
  // Row 0: sin 0 = 0 (white) in column 0, cos 0 = 1 (red) in column 1.
  assert.deepEqual(await pixelAt(page, 0.25, 0.5), [255, 255, 255]);
  assert.deepEqual(await pixelAt(page, 0.75, 0.5), [255, 0, 0]);

  await page.fill("input[name=base]", "1");
  await page.waitForFunction(() =>
    document.getElementById("status").classList.contains("error"),
  );
  assert.match(
    await page.textContent("#status"),
    /"base" must be a finite number > 1/,
  );
  await page.fill("input[name=base]", "10000");
  await page.waitForFunction(
    () => !document.getElementById("status").classList.contains("error"),
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("opened from file:// with no server", async () => {
  const { page, errors } = await openPage(`file://${webRoot}index.html`);
  assert.match(await page.textContent("#status"), /512 × 128 table/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("every part of the API computes in Chromium, in a worker too", async () => {
  const { page, errors } = await openPage(`${origin}/`);
  const results = await page.evaluate(async (base) => {
    const pe = window.SinusoidalPE;
    const worker = new Worker(
      URL.createObjectURL(
        new Blob(
          [
            `importScripts(${JSON.stringify(base + "vendor/sinusoidal-pe.global.js")});
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
    const pe5 = pe.table({ positions: [5], dim: 8, dtype: "float64" });
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
      pe5: Array.from(pe5.slice(0, 2)),
    };
  }, `${origin}/`);
  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 2.3e-16);
  assert.ok(near(results.fromWorker, [Math.sin(3), Math.cos(3)]));
  assert.ok(results.rotateError <= 1.2e-7, `rotate: ${results.rotateError}`);
  assert.equal(results.g0, 4);
  assert.equal(results.f0, 1);
  assert.ok(Math.abs(results.linear - Math.sin(2) / 2) <= 1e-16);
  assert.ok(near(results.pe5, [Math.sin(5), Math.cos(5)]));
  assert.deepEqual(errors, []);
  await page.close();
});
