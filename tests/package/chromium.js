// Chromium for the package tests: a headless browser, static servers of
// built apps, and the result an app publishes as `window.result`.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";

const TYPES = {
  ".html": "text/html",
  ".css": "text/css",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
};

/** Headless Chromium with the flags the machine needs. */
export function launch() {
  return chromium.launch({
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
}

const servers = [];

/** Serves `dir` over http; returns its origin and the paths requested. */
export async function serve(dir, headers = {}) {
  const requested = [];
  const server = createServer((request, response) => {
    const path = normalize(
      decodeURIComponent(new URL(request.url, "http://x").pathname),
    );
    requested.push(path);
    try {
      const body = readFileSync(
        join(dir, path.endsWith("/") ? path + "index.html" : path),
      );
      response.writeHead(200, {
        "content-type":
          TYPES[extname(path) || ".html"] ?? "application/octet-stream",
        ...headers,
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  servers.push(server);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, requested };
}

/** Stops every server started by serve(). */
export function closeServers() {
  for (const server of servers.splice(0)) server.close();
}

/** Opens the page and waits for the app to publish `window.result`. */
export async function resultOf(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  try {
    await page.goto(url);
    await page
      .waitForFunction(() => window.result !== undefined, null, {
        timeout: 30000,
      })
      .catch((error) => {
        error.message += `\npage errors: ${errors.join("\n")}`;
        throw error;
      });
    return await page.evaluate(() => window.result);
  } finally {
    await page.close();
  }
}

/** A page with `body` and nothing else. */
export const html = (body) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`;
