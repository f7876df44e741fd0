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

// What a test can change of a page beyond its document, by owner: a page
// that met one of these is not opened again for another test. The pointer
// is among them: it stays where a click left it, and hovers the next
// document. Locators click through the frame; element handles' own input
// methods are not watched, and the tests do not use them.
const LASTING = {
  page: [
    "setViewportSize",
    "emulateMedia",
    "route",
    "routeFromHAR",
    "addInitScript",
    "exposeFunction",
    "exposeBinding",
    "setExtraHTTPHeaders",
    "on",
    "once",
    "addListener",
    "prependListener",
  ],
  frame: ["click", "dblclick", "hover", "tap", "dragAndDrop"],
  mouse: ["move", "down", "up", "click", "dblclick", "wheel"],
  touchscreen: ["tap"],
};

// Makes the calls of LASTING methods call `mark` first; the returned
// function undoes it.
function watchLasting(page, mark) {
  const owners = {
    page,
    frame: page.mainFrame(),
    mouse: page.mouse,
    touchscreen: page.touchscreen,
  };
  for (const [owner, names] of Object.entries(LASTING)) {
    const object = owners[owner];
    for (const name of names)
      object[name] = (...args) => {
        mark();
        return Object.getPrototypeOf(object)[name].apply(object, args);
      };
  }
  return () => {
    for (const [owner, names] of Object.entries(LASTING))
      for (const name of names) delete owners[owner][name];
  };
}

/**
 * Starts the server and Chromium. Returns { origin, open, close, browser },
 * where open(path, { via, hash, init, ready, ...contextOptions }) opens a
 * site page ("index.html", "embed.html") and waits for it to be ready;
 * init, if given, runs in the page before any of its scripts.
 *
 * A closed page is kept and navigated anew by the next open() with the same
 * context options: a new document, with the page's module and scripts
 * compiled once per renderer rather than once per test, which halves the
 * cost of an open. A page opened with `init`, or changed by a test beyond
 * its document (LASTING), is closed for good instead.
 */
export async function launch() {
  const server = createServer(serve);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  const idle = new Map(); // context options, as JSON → pages to open again

  async function newPage(options) {
    const context = await browser.newContext({
      locale: "en-US",
      acceptDownloads: true,
      ...options,
    });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (event) =>
        window.cspViolations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      );
    });
    return page;
  }

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
    const key = init === undefined ? JSON.stringify(options) : undefined;
    let page = key === undefined ? undefined : idle.get(key)?.pop();
    if (page) await page.goto("about:blank");
    else page = await newPage(options);
    const errors = [];
    const outside = [];
    const base = via === "http" ? `${origin}/` : `file://${siteDir}`;
    // Errors count from the test's own document on: a reused page's
    // about:blank may still report a request of the document before it
    // (its favicon, refused from the null origin).
    let live = false;
    const listeners = {
      framenavigated: (frame) => {
        if (frame === page.mainFrame() && frame.url() !== "about:blank")
          live = true;
      },
      pageerror: (error) => {
        if (live) errors.push(error.message);
      },
      console: (message) => {
        if (live && message.type() === "error") errors.push(message.text());
      },
      request: (request) => {
        const url = request.url();
        if (!url.startsWith(base) && !/^(data|blob):/.test(url))
          outside.push(url);
      },
    };
    for (const [event, listener] of Object.entries(listeners))
      page.on(event, listener);
    if (init) await page.addInitScript(init);
    // The test's own calls of LASTING methods mark the page as changed.
    let lasting = key === undefined;
    const unwatch = watchLasting(page, () => (lasting = true));
    await page.goto(base + path + hash);
    if (ready) await page.waitForSelector(ready, { timeout: 30000 });

    let closed = false;
    async function close() {
      if (closed) return;
      closed = true;
      unwatch();
      for (const [event, listener] of Object.entries(listeners))
        page.off(event, listener);
      if (lasting || page.isClosed()) return page.context().close();
      if (!idle.has(key)) idle.set(key, []);
      idle.get(key).push(page);
    }
    return {
      page,
      errors,
      outside,
      violations: () => page.evaluate(() => window.cspViolations),
      close,
    };
  }

  async function close() {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }

  return { origin, open, close, browser };
}
