// The page's package, sinusoidal-pe-page, packed and installed into a
// scratch project: the README's three routes in Chromium (the site written
// by npx, from file:// and from a server under the strict policy; an app
// bundled by Vite, esbuild and webpack that imports the panels; a plain page's
// script tag), what a page with one panel loads, and the package's version
// and links.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, test } from "node:test";
import * as esbuild from "esbuild";
import { build as viteBuild } from "vite";
import webpack from "webpack";
import { closeServers, launch, serve } from "./chromium.js";
import { bin, installPacked, pageRoot, root, run } from "./packed.js";
import { filesOf, scriptsLoaded } from "./sizes.js";

// The policy the library's README gives the site.
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
  "style-src 'self'; img-src 'self' data: blob:";
const BASE64 = /[A-Za-z0-9+/]{1000}/;

let project, readme, browser;

before(async () => {
  project = installPacked({ type: "module" }, pageRoot);
  readme = readFileSync(join(project.installed, "README.md"), "utf8");
  browser = await launch();
});

after(async () => {
  await browser?.close();
  closeServers();
});

// The README's three lines, each used as written.
function readmeLine(pattern) {
  const match = readme.match(pattern);
  assert.ok(match, `the README lacks ${pattern}`);
  return match[1];
}
const npxLine = () => readmeLine(/`(npx sinusoidal-pe-page [\w-]+)`/);
const importLine = () => readmeLine(/`(import "sinusoidal-pe-page\/embed";)`/);
const scriptLine = () => readmeLine(/`(<script src="[\w./-]+"><\/script>)`/);
const panelLine = () => readmeLine(/`(<pe-relation [^`]*><\/pe-relation>)`/);

/** The npx line run in the project; returns the folder it wrote. */
let written = null;
function writeSite() {
  if (written) return written;
  const [command, ...args] = npxLine().split(" ");
  run(command, ["--offline", "--no-install", ...args], { cwd: project.dir });
  written = join(project.dir, args[1]);
  return written;
}

/**
 * Opens `url`, waits for `ready`; returns the page's errors, the requests
 * it made, the policy's violations and whether each panel has drawn.
 */
async function visit(url, ready) {
  const page = await browser.newPage();
  const errors = [];
  const requests = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("request", (request) => requests.push(request.url()));
  page.on("response", (response) => {
    if (response.status() >= 400)
      errors.push(`${response.status()} ${response.url()}`);
  });
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener("securitypolicyviolation", (event) =>
      window.violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  try {
    await page.goto(url);
    await page.waitForSelector(ready, { timeout: 60000 }).catch((error) => {
      error.message += `\npage errors: ${errors.join("\n")}`;
      throw error;
    });
    // A panel has drawn when its first canvas has an opaque pixel.
    const panels = await page.$$eval("pe-heatmap, pe-relation", (elements) =>
      elements.map((element) => {
        const canvas = element.shadowRoot?.querySelector("canvas");
        const pixels = canvas
          ?.getContext("2d")
          .getImageData(0, 0, canvas.width, canvas.height).data;
        return {
          label: element.shadowRoot?.querySelector("section")?.ariaLabel,
          drawn: pixels ? pixels.some((v, i) => i % 4 === 3 && v > 0) : false,
        };
      }),
    );
    const violations = await page.evaluate(() => window.violations);
    return { errors, requests, violations, panels };
  } finally {
    await page.close();
  }
}

test("the package has the library's version", () => {
  const version = (dir) =>
    JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
  assert.equal(version(project.installed), version(root));
  assert.equal(version(join(root, "web", "package")), version(root));
});

test("the tarball holds the site, its ES modules for bundlers, the command and the README", () => {
  const paths = project.report.files.map((f) => f.path);
  for (const path of [
    "README.md",
    "LICENSE",
    "package.json",
    "bin/sinusoidal-pe-page.js",
    "embed.d.ts",
    "esm/embed.js",
    "site/index.html",
    "site/embed.html",
    "site/embed.js",
    "site/page.js",
    "site/style.css",
  ])
    assert.ok(paths.includes(path), `${path} is not packed`);
  const other = paths.filter(
    (path) => !/^(site|esm)\/|^(bin|README|LICENSE|package|embed)\b/.test(path),
  );
  assert.deepEqual(other, []);
  // The module once in the site, and once in its ES modules.
  for (const dir of ["site", "esm"]) {
    const withModule = paths.filter(
      (path) =>
        path.startsWith(`${dir}/`) &&
        BASE64.test(readFileSync(join(project.installed, path), "utf8")),
    );
    assert.equal(withModule.length, 1, withModule.join(" "));
  }
  // The site's files are those the build wrote, and only those.
  assert.deepEqual(
    paths
      .filter((p) => p.startsWith("site/"))
      .map((p) => p.slice(5))
      .sort(),
    filesOf(join(root, "dist/site")),
  );
});

test("publint finds nothing to report", () => {
  const output = run(bin("publint"), ["run", "--strict", project.installed]);
  assert.match(output, /All good/, output);
});

test("each package's README points to the other, with no link that fails from the tarball", () => {
  const library = readFileSync(join(root, "README.md"), "utf8");
  assert.match(
    library,
    /\]\(https:\/\/www\.npmjs\.com\/package\/sinusoidal-pe-page\)/,
  );
  assert.match(
    readme,
    /\]\(https:\/\/www\.npmjs\.com\/package\/sinusoidal-pe\)/,
  );
  const packed = new Set(project.report.files.map((f) => f.path));
  for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^https:\/\//.test(target)) continue;
    assert.ok(packed.has(target.replace(/#.*/, "")), `${target} is not packed`);
  }
  // Anchors into the library's README name one of its headings.
  for (const [, anchor] of readme.matchAll(
    /npmjs\.com\/package\/sinusoidal-pe#([\w-]+)/g,
  ))
    assert.ok(
      library
        .split("\n")
        .some(
          (line) =>
            line.startsWith("## ") &&
            line.slice(3).toLowerCase().replace(/\s/g, "-") === anchor,
        ),
      `#${anchor} names no heading of the library's README`,
    );
});

test("npx writes the whole site into the folder named, and refuses what it cannot use", () => {
  const dir = writeSite();
  const site = join(project.installed, "site");
  assert.deepEqual(filesOf(dir), filesOf(site));
  for (const file of filesOf(site))
    assert.ok(
      readFileSync(join(dir, file)).equals(readFileSync(join(site, file))),
      file,
    );
  const refuse = (args, status, pattern) => {
    assert.throws(
      () =>
        run(
          "npx",
          ["--offline", "--no-install", "sinusoidal-pe-page", ...args],
          {
            cwd: project.dir,
          },
        ),
      (error) => error.status === status && pattern.test(error.message),
    );
  };
  refuse([], 2, /one argument, the folder to write\n\nUsage:/);
  refuse(["a", "b"], 2, /one argument/);
  refuse(["package.json"], 1, /package\.json is a file, not a folder/);
});

test("the site written by npx opens from file://, requesting nothing but its own files", async () => {
  const dir = writeSite();
  for (const [path, ready] of [
    ["index.html", "body[data-ready=true]"],
    ["embed.html", "pe-relation[data-ready=true]"],
  ]) {
    const { errors, requests, panels } = await visit(
      `file://${dir}/${path}`,
      ready,
    );
    assert.deepEqual(errors, []);
    const outside = requests.filter(
      (url) => !url.startsWith(`file://${dir}/`) && !/^(data|blob):/.test(url),
    );
    assert.deepEqual(outside, [], path);
    if (path === "embed.html")
      assert.ok(
        panels.every((p) => p.drawn),
        path,
      );
  }
});

test("the site written by npx works from a static server under the strict policy", async () => {
  const { origin, requested } = await serve(writeSite(), {
    "content-security-policy": CSP,
  });
  const { errors, requests, violations } = await visit(
    `${origin}/index.html`,
    "body[data-ready=true]",
  );
  assert.deepEqual(errors, []);
  assert.deepEqual(violations, []);
  assert.deepEqual(
    requests.filter(
      (url) => !url.startsWith(origin) && !/^(data|blob):/.test(url),
    ),
    [],
  );
  // The page and every chunk it loads, as the size budget counts them, the
  // module in one of them.
  const scripts = requested.filter((path) => path.endsWith(".js"));
  assert.deepEqual(
    scripts.sort(),
    scriptsLoaded("page.js")
      .map((path) => `/${path}`)
      .sort(),
  );
  const withModule = scripts.filter((path) =>
    BASE64.test(readFileSync(join(written, path), "utf8")),
  );
  assert.equal(withModule.length, 1, withModule.join(" "));
});

// A host page with one panel, the README's element (and no favicon to
// request).
const host = (body) =>
  `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${body}</body></html>`;

function hostPage(name, head) {
  const dir = join(project.dir, "apps", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.html"), host(`${panelLine()}\n${head}`));
  return dir;
}

async function assertPanelShown(out, root = out) {
  const { origin, requested } = await serve(root, {
    "content-security-policy": CSP,
  });
  const { errors, violations, panels } = await visit(
    `${origin}/${relative(root, out) ? relative(root, out) + "/" : ""}index.html`,
    "pe-relation[data-ready=true]",
  );
  assert.deepEqual(errors, []);
  assert.deepEqual(violations, []);
  assert.equal(panels.length, 1);
  assert.ok(panels[0].drawn);
  assert.match(panels[0].label, /^The linear relation/);
  return requested;
}

test("Vite: an app that imports the embed shows its panel", async () => {
  const dir = hostPage(
    "vite",
    `<script type="module" src="./main.js"></script>`,
  );
  writeFileSync(join(dir, "main.js"), `${importLine()}\n`);
  const out = join(dir, "out");
  await viteBuild({
    root: dir,
    base: "./",
    logLevel: "error",
    configFile: false,
    build: { outDir: out, emptyOutDir: true },
  });
  await assertPanelShown(out);
});

test("esbuild: an app that imports the embed shows its panel", async () => {
  const dir = hostPage(
    "esbuild",
    `<script type="module" src="main.js"></script>`,
  );
  writeFileSync(join(dir, "main.js"), `${importLine()}\n`);
  await esbuild.build({
    entryPoints: [join(dir, "main.js")],
    bundle: true,
    splitting: true,
    format: "esm",
    outdir: dir,
    allowOverwrite: true,
    entryNames: "[name]-app",
    logLevel: "error",
  });
  writeFileSync(
    join(dir, "index.html"),
    host(`${panelLine()}\n<script type="module" src="main-app.js"></script>`),
  );
  await assertPanelShown(dir);
});

test("webpack: an app that imports the embed shows its panel", async () => {
  const dir = hostPage("webpack", `<script src="main.js"></script>`);
  writeFileSync(join(dir, "entry.js"), `${importLine()}\n`);
  const compiler = webpack({
    mode: "production",
    context: dir,
    entry: "./entry.js",
    output: { path: dir, filename: "main.js" },
    performance: { hints: false },
  });
  await new Promise((resolve, reject) =>
    compiler.run((error, stats) => {
      if (error) reject(error);
      else if (stats.hasErrors())
        reject(new Error(stats.toString("errors-only")));
      else compiler.close(resolve);
    }),
  );
  await assertPanelShown(dir);
});

test("a plain page's script tag shows its panel, loading only that panel's section", async () => {
  const site = writeSite();
  writeFileSync(
    join(project.dir, "index.html"),
    host(`${panelLine()}\n${scriptLine()}`),
  );
  const requested = await assertPanelShown(project.dir);
  const sizeOf = (paths) =>
    paths.reduce(
      (sum, path) => sum + statSync(join(project.dir, path)).size,
      0,
    );
  const scripts = requested.filter((path) => path.endsWith(".js"));
  assert.deepEqual(
    scripts.sort(),
    scriptsLoaded("embed.js", ["relation"])
      .map((path) => `/site/${path}`)
      .sort(),
  );
  // Each section's own chunk is named after it: the relation's alone.
  const sections = scripts.filter((path) =>
    /\/scripts\/(?!chunk-)[a-z]+-[A-Z0-9]+\.js$/.test(path),
  );
  assert.deepEqual(
    sections.map((path) => path.replace(/.*\/|-.*/g, "")),
    ["relation"],
  );
  assert.ok(!scripts.includes("/site/scripts/page.js"), scripts.join(" "));
  // The whole page loads more than the panel, and the module once as well.
  const page = await serve(site, { "content-security-policy": CSP });
  await visit(`${page.origin}/index.html`, "body[data-ready=true]");
  const pageScripts = page.requested.filter((path) => path.endsWith(".js"));
  const panelBytes = sizeOf(scripts);
  const pageBytes = sizeOf(pageScripts.map((path) => `site${path}`));
  assert.ok(
    panelBytes < 0.8 * pageBytes,
    `the panel loads ${panelBytes} bytes, the page ${pageBytes}`,
  );
  const withModule = scripts.filter((path) =>
    BASE64.test(readFileSync(join(project.dir, path), "utf8")),
  );
  assert.equal(withModule.length, 1, withModule.join(" "));
});
