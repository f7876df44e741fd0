// Debian's Chromium through playwright-core, and the built site (dist/site)
// opened over http from a small server in this process or from file://.
// Every page records its console errors, uncaught exceptions, requests that
// leave the site, and Content-Security-Policy violations.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { launch as launchChromium } from "../package/chromium.js";

export const siteDir = fileURLToPath(
  new URL("../../dist/site/", import.meta.url),
);
const distDir = fileURLToPath(new URL("../../dist/", import.meta.url));

/** The policy the site is served under: nothing but its own files. */
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
  "style-src 'self'; img-src 'self' data: blob:";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
};

// "/" is the site, under the strict policy; "/lib/" the package build, for
// tests of the library itself.
function serve(request, response) {
  const path = normalize(
    decodeURIComponent(new URL(request.url, "http://x").pathname),
  );
  const inLib = path.startsWith("/lib/");
  const file = inLib
    ? join(distDir, path.slice(5))
    : join(siteDir, path.endsWith("/") ? path + "index.html" : path);
  try {
    const body = readFileSync(file);
    const headers = {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    };
    if (!inLib) headers["content-security-policy"] = CSP;
    response.writeHead(200, headers);
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
}

/**
 * Starts the server and Chromium. Returns { origin, open, close }, where
 * open(path, { via, hash, init, ...contextOptions }) opens a site page
 * ("index.html", "embed.html") and waits for it to be ready; init, if
 * given, runs in the page before any of its scripts.
 */
export async function launch() {
  const server = createServer(serve);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();

  async function open(
    path = "index.html",
    {
      via = "http",
      hash = "",
      ready = "body[data-ready=true]",
      init,
      ...options
    } = {},
  ) {
    const context = await browser.newContext({
      locale: "en-US",
      acceptDownloads: true,
      ...options,
    });
    const page = await context.newPage();
    const errors = [];
    const outside = [];
    const base = via === "http" ? `${origin}/` : `file://${siteDir}`;
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(base) && !/^(data|blob):/.test(url))
        outside.push(url);
    });
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (event) =>
        window.cspViolations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      );
    });
    if (init) await page.addInitScript(init);
    await page.goto(base + path + hash);
    if (ready) await page.waitForSelector(ready, { timeout: 30000 });
    return {
      page,
      errors,
      outside,
      violations: () => page.evaluate(() => window.cspViolations),
      close: () => context.close(),
    };
  }

  async function close() {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }

  return { origin, open, close, browser };
}
