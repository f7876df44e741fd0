// The README's recipes for loading the package, taken from the packed
// README and run as written: bundled by esbuild, webpack and Vite (the
// bundler's configuration from the recipe's own comment), in a page and in
// a module worker, a classic worker, a classic <script>, and CommonJS in
// Node. Each publishes table({ positions: 4, dim: 8 }), checked against the
// paper's formula in float64.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { build as viteBuild } from "vite";
import webpack from "webpack";
import { closeServers, html, launch, resultOf, serve } from "./chromium.js";
import { bin, installPacked, run } from "./packed.js";

let project, browser, readme;

before(async () => {
  project = installPacked();
  browser = await launch();
  readme = readFileSync(join(project.installed, "README.md"), "utf8");
});

after(async () => {
  await browser?.close();
  closeServers();
});

/** The code block that follows `<!-- recipe: … name … -->` in the README. */
function recipe(name) {
  const pattern =
    /<!-- recipe: ([^>]*?) -->[^\n]*\n\s*```(\w+)\n([\s\S]*?)^```$/gm;
  for (const [, names, language, source] of readme.matchAll(pattern))
    if (names.split(/\s+/).includes(name)) return { language, source };
  throw new Error(`the packed README has no recipe "${name}"`);
}

/** The text after `// label: ` in a recipe's comments. */
function comment(source, label) {
  const match = new RegExp(`^// ${label}: (.*)$`, "m").exec(source);
  assert.ok(match, `the recipe's comment "${label}:"`);
  return match[1];
}

// table({ positions: 4, dim: 8 }) from the paper's formula, in float64:
// PE(p, 2i) = sin(p / 10000^(2i/8)), PE(p, 2i + 1) = cos of the same.
const EXPECTED = Array.from({ length: 32 }, (_, k) => {
  const [p, c] = [Math.floor(k / 8), k % 8];
  const angle = p / Math.pow(10000, (2 * Math.floor(c / 2)) / 8);
  return c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
});
function assertTable(values) {
  assert.equal(values?.length, 32, JSON.stringify(values));
  values.forEach((v, k) =>
    assert.ok(Math.abs(v - EXPECTED[k]) < 1e-7, `value ${k}: ${v}`),
  );
}

// What an app appends to a recipe: publish the table, in a page or from a
// worker (a worker has no `window`).
const PUBLISH = `
const values = Array.from(table({ positions: 4, dim: 8 }));
if (typeof window === "object") window.result = { values };
else postMessage(values);
`;
// A page that starts `worker` and publishes what it posts.
const workerPage = (start) =>
  html(`<script type="module">
const worker = ${start};
worker.onmessage = (event) => { window.result = { values: Array.from(event.data) }; };
worker.onerror = (event) => { window.result = { error: String(event.message) }; };
</script>`);

function appDir(name) {
  const dir = join(project.dir, "recipes", name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

// Runs the recipe's esbuild command line (its own flags, this entry).
function esbuildCommand(dir, source, entry) {
  const args = comment(source, "esbuild").split(/\s+/);
  assert.equal(args[0], "esbuild");
  run(bin("esbuild"), [entry, ...args.slice(2)], { cwd: dir });
  return join(dir, args.find((a) => a.startsWith("--outdir=")).slice(9));
}

test("esbuild, as the README writes it: a page whose bundle sits in a folder below it", async () => {
  const { source } = recipe("esbuild");
  const dir = appDir("esbuild-page");
  writeFileSync(join(dir, "app.js"), source + PUBLISH);
  esbuildCommand(dir, source, "app.js");
  writeFileSync(
    join(dir, "index.html"),
    html(`<script type="module" src="out/app.js"></script>`),
  );
  const { origin, requested } = await serve(dir);
  const result = await resultOf(browser, `${origin}/index.html`);
  assertTable(result.values);
  assert.ok(
    requested.some((p) => /^\/out\/.*\.wasm$/.test(p)),
    requested.join(" "),
  );
});

test("esbuild, as the README writes it: the same code in a module worker, which has no document", async () => {
  const { source } = recipe("esbuild");
  const dir = appDir("esbuild-worker");
  writeFileSync(join(dir, "worker.js"), source + PUBLISH);
  esbuildCommand(dir, source, "worker.js");
  writeFileSync(
    join(dir, "index.html"),
    workerPage(`new Worker("out/worker.js", { type: "module" })`),
  );
  const { origin } = await serve(dir);
  assertTable((await resultOf(browser, `${origin}/index.html`)).values);
});

test("webpack, as the README writes it: its rule for the .wasm", async () => {
  const { source } = recipe("webpack");
  const rules = new Function(
    `return {${comment(source, "webpack")}}.module.rules;`,
  )();
  const dir = appDir("webpack");
  writeFileSync(join(dir, "app.js"), source + PUBLISH);
  const out = join(dir, "out");
  const compiler = webpack({
    mode: "production",
    context: dir,
    entry: "./app.js",
    output: { path: out, filename: "app.js" },
    module: { rules },
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
  writeFileSync(
    join(dir, "index.html"),
    html(`<script src="out/app.js"></script>`),
  );
  const { origin } = await serve(dir);
  assertTable((await resultOf(browser, `${origin}/index.html`)).values);
});

test("Vite, as the README writes it: the import its comment gives", async () => {
  const { source } = recipe("vite");
  const viteImport = comment(source, "Vite");
  const app = source.replace(/^import wasmUrl from .*$/m, () => viteImport);
  assert.notEqual(app, source);
  const dir = appDir("vite");
  writeFileSync(join(dir, "app.js"), app + PUBLISH);
  writeFileSync(
    join(dir, "index.html"),
    html(`<script type="module" src="./app.js"></script>`),
  );
  const out = join(dir, "out");
  await viteBuild({
    root: dir,
    base: "./",
    logLevel: "error",
    configFile: false,
    build: { outDir: out, emptyOutDir: true },
  });
  const { origin, requested } = await serve(out);
  assertTable((await resultOf(browser, `${origin}/index.html`)).values);
  assert.ok(
    requested.some((p) => p.endsWith(".wasm")),
    requested.join(" "),
  );
});

test("a module worker, as the README writes it, bundled by the README's esbuild command", async () => {
  const { source } = recipe("module-worker");
  const esbuildRecipe = recipe("esbuild").source;
  const dir = appDir("module-worker");
  writeFileSync(join(dir, "worker.js"), source);
  const start = comment(source, "worker.js");
  writeFileSync(
    join(dir, "main.js"),
    `const worker = ${start};
worker.onmessage = (event) => { window.result = { values: Array.from(event.data) }; };
`,
  );
  esbuildCommand(dir, esbuildRecipe, "worker.js");
  esbuildCommand(dir, esbuildRecipe, "main.js");
  writeFileSync(
    join(dir, "out", "index.html"),
    html(`<script type="module" src="main.js"></script>`),
  );
  const { origin } = await serve(join(dir, "out"));
  assertTable((await resultOf(browser, `${origin}/index.html`)).values);
});

test("a classic worker, as the README writes it", async () => {
  const { source } = recipe("classic-worker");
  writeFileSync(join(project.dir, "worker.js"), source);
  const start = comment(source, "worker.js").replace(/, a classic worker$/, "");
  writeFileSync(join(project.dir, "classic-worker.html"), workerPage(start));
  const { origin } = await serve(project.dir);
  assertTable(
    (await resultOf(browser, `${origin}/classic-worker.html`)).values,
  );
});

test("a classic <script>, as the README writes it; before init(), each function names init(), with code ERR_NOT_INITIALIZED", async () => {
  const { language, source } = recipe("classic-script");
  assert.equal(language, "html");
  writeFileSync(
    join(project.dir, "classic-script.html"),
    html(`${source}
<script>
  try {
    SinusoidalPE.table({ positions: 4, dim: 8 });
  } catch (error) {
    window.before = { message: String(error.message), code: error.code };
  }
  new MutationObserver(() => {
    window.result = { values: document.body.lastChild.textContent.split(" ").map(Number), before: window.before };
  }).observe(document.body, { childList: true });
</script>`),
  );
  const { origin } = await serve(project.dir);
  const result = await resultOf(browser, `${origin}/classic-script.html`);
  assertTable(result.values);
  assert.equal(result.before.code, "ERR_NOT_INITIALIZED");
  assert.match(
    result.before.message,
    /call `await SinusoidalPE\.init\(\)` first/,
  );
});

test("CommonJS in Node, as the README writes it", () => {
  const { source } = recipe("node-cjs");
  const file = join(project.dir, "recipe.cjs");
  writeFileSync(file, source);
  assert.equal(
    run(process.execPath, [file], { cwd: project.dir }).trim(),
    "32",
  );
});

test("Float16Array rows, caches and .npy files where the engine has Float16Array (Chromium)", async () => {
  const dir = appDir("float16");
  writeFileSync(
    join(dir, "app.js"),
    `import { init, rope, ropeCache, toNpy } from "sinusoidal-pe";
await init();
const rows = Float16Array.of(1, 0, 1, 0);
const turned = rope(rows, 0.5, { dim: 4 });
const bits = rope(new Uint16Array(rows.buffer), 0.5, { dim: 4 });
const half = { cos: new Float16Array(8), sin: new Float16Array(8) };
const cache = ropeCache({ dim: 8, positions: 2, start: 3, dtype: "float16", out: half });
const reference = ropeCache({ dim: 8, positions: 2, start: 3, dtype: "float16" });
const npy = toNpy(turned, [1, 4]);
window.result = {
  kind: Object.prototype.toString.call(turned),
  sameBits: Array.from(new Uint16Array(turned.buffer)).join() === Array.from(bits).join(),
  cacheIsOut: cache.cos === half.cos,
  cacheBits: Array.from(new Uint16Array(half.sin.buffer)).join() === Array.from(reference.sin).join(),
  shape: cache.shape,
  header: new TextDecoder().decode(npy.subarray(10, 30)),
};
`,
  );
  run(bin("esbuild"), ["app.js", "--bundle", "--format=esm", "--outdir=out"], {
    cwd: dir,
  });
  writeFileSync(
    join(dir, "out", "index.html"),
    html(`<script type="module" src="app.js"></script>`),
  );
  const { origin } = await serve(join(dir, "out"));
  assert.deepEqual(await resultOf(browser, `${origin}/index.html`), {
    kind: "[object Float16Array]",
    sameBits: true,
    cacheIsOut: true,
    cacheBits: true,
    shape: [2, 4],
    header: "{'descr': '<f2', 'fo",
  });
});
