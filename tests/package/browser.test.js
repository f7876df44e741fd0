// Small apps that import the installed package, bundled by esbuild, Vite and
// webpack, run in Chromium: the inline module, the slim entry with the
// shipped .wasm as a bundler asset (compiled while it streams, and in the app
// once), the classic script, and a strict Content-Security-Policy. The
// README's own recipes run in recipes.test.js.
import assert from "node:assert/strict";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import * as esbuild from "esbuild";
import { build as viteBuild } from "vite";
import webpack from "webpack";
import {
  closeServers,
  html,
  launch,
  serve,
  resultOf as pageResult,
} from "./chromium.js";
import { installPacked } from "./packed.js";

const SIN_COS_1 = [Math.sin(1), Math.cos(1)];

let project, browser;

before(async () => {
  project = installPacked();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  closeServers();
});

const resultOf = (url) => pageResult(browser, url);

// The app: `source` is the expression given to init() (empty: the inline
// module), `entry` the package entry it imports. It records whether the
// module was compiled while streaming.
function app(name, { imports = "", source = "", entry = "sinusoidal-pe" }) {
  const dir = join(project.dir, "apps", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "main.js"),
    `import { init, table } from "${entry}";
${imports}
let streamed = false;
const compileStreaming = WebAssembly.compileStreaming;
WebAssembly.compileStreaming = (response) => {
  streamed = true;
  return compileStreaming(response);
};
init(${source}).then(
  () => {
    const values = Array.from(table({ positions: [1], dim: 2, dtype: "float64" }));
    window.result = { values, streamed };
  },
  (error) => {
    window.result = { error: String(error.message), code: error.code };
  },
);
`,
  );
  return dir;
}

async function bundleWithEsbuild(dir, options = {}) {
  const out = join(dir, "out");
  await esbuild.build({
    entryPoints: [join(dir, "main.js")],
    bundle: true,
    format: "esm",
    outdir: out,
    logLevel: "error",
    ...options,
  });
  writeFileSync(
    join(out, "index.html"),
    html(`<script type="module" src="main.js"></script>`),
  );
  return out;
}

async function bundleWithVite(dir) {
  writeFileSync(
    join(dir, "index.html"),
    html(`<script type="module" src="./main.js"></script>`),
  );
  const out = join(dir, "out");
  await viteBuild({
    root: dir,
    base: "./",
    logLevel: "error",
    configFile: false,
    build: { outDir: out, emptyOutDir: true },
  });
  return out;
}

async function bundleWithWebpack(dir) {
  const out = join(dir, "out");
  const compiler = webpack({
    mode: "production",
    context: dir,
    entry: "./main.js",
    output: { path: out, filename: "main.js" },
    module: { rules: [{ test: /\.wasm$/, type: "asset/resource" }] },
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
    join(out, "index.html"),
    html(`<script src="main.js"></script>`),
  );
  return out;
}

// Every file of a built app, with its path relative to `dir`.
function filesOf(dir, prefix = "") {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? filesOf(path, `${prefix}${name}/`)
      : [{ name: prefix + name, path }];
  });
}

// The shipped module occurs once in the app: one .wasm file, byte for byte
// the package's, and no base64 copy in any script.
function assertModuleOnce(out) {
  const shipped = readFileSync(
    join(project.installed, "dist/sinusoidal-pe.wasm"),
  );
  const files = filesOf(out);
  const modules = files.filter((f) => f.name.endsWith(".wasm"));
  assert.equal(modules.length, 1, files.map((f) => f.name).join(" "));
  assert.ok(readFileSync(modules[0].path).equals(shipped));
  for (const file of files.filter((f) => /\.m?js$/.test(f.name))) {
    const text = readFileSync(file.path, "utf8");
    assert.doesNotMatch(text, /[A-Za-z0-9+/]{1000}/, `${file.name}: base64`);
  }
}

const BUNDLERS = {
  esbuild: {
    bundle: (dir) => bundleWithEsbuild(dir, { loader: { ".wasm": "file" } }),
    asset: {
      imports: `import wasmUrl from "sinusoidal-pe/sinusoidal-pe.wasm";`,
      source: "new URL(wasmUrl, import.meta.url)",
    },
  },
  Vite: {
    bundle: bundleWithVite,
    asset: {
      imports: `import wasmUrl from "sinusoidal-pe/sinusoidal-pe.wasm?url";`,
      source: "wasmUrl",
    },
  },
  webpack: {
    bundle: bundleWithWebpack,
    asset: {
      imports: `import wasmUrl from "sinusoidal-pe/sinusoidal-pe.wasm";`,
      source: "wasmUrl",
    },
  },
};

for (const [name, bundler] of Object.entries(BUNDLERS)) {
  test(`${name}: the inline module, zero configuration`, async () => {
    const out = await bundler.bundle(app(`${name}-inline`, {}));
    const { origin, requested } = await serve(out);
    const result = await resultOf(`${origin}/index.html`);
    assert.deepEqual(result, { values: SIN_COS_1, streamed: false });
    assert.ok(
      !requested.some((path) => path.endsWith(".wasm")),
      requested.join(" "),
    );
  });

  test(`${name}: the slim entry and the shipped .wasm as an asset, in the app once, compiled while streaming`, async () => {
    const out = await bundler.bundle(
      app(`${name}-slim`, { ...bundler.asset, entry: "sinusoidal-pe/slim" }),
    );
    assertModuleOnce(out);
    const { origin, requested } = await serve(out);
    const result = await resultOf(`${origin}/index.html`);
    assert.deepEqual(result, { values: SIN_COS_1, streamed: true });
    assert.ok(
      requested.some((path) => path.endsWith(".wasm")),
      requested.join(" "),
    );
  });
}

test("a strict Content-Security-Policy: refused without 'wasm-unsafe-eval', working with it", async () => {
  const out = await bundleWithEsbuild(app("csp", {}));
  const strict = await serve(out, {
    "content-security-policy": "script-src 'self'",
  });
  const refused = await resultOf(`${strict.origin}/index.html`);
  assert.equal(refused.code, "ERR_CSP");
  assert.match(refused.error, /'wasm-unsafe-eval'/);
  const allowed = await serve(out, {
    "content-security-policy": "script-src 'self' 'wasm-unsafe-eval'",
  });
  assert.deepEqual(await resultOf(`${allowed.origin}/index.html`), {
    values: SIN_COS_1,
    streamed: false,
  });
});

test("the classic script defines the API on a global after init()", async () => {
  const dir = join(project.dir, "classic");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "index.html"),
    html(`<script src="/node_modules/sinusoidal-pe/dist/sinusoidal-pe.global.js"></script>
<script>
  SinusoidalPE.init().then(() => {
    const values = Array.from(SinusoidalPE.table({ positions: [1], dim: 2, dtype: "float64" }));
    window.result = { values, streamed: false };
  }, (error) => { window.result = { error: String(error.message) }; });
</script>`),
  );
  const { origin } = await serve(project.dir);
  assert.deepEqual(await resultOf(`${origin}/classic/index.html`), {
    values: SIN_COS_1,
    streamed: false,
  });
});
