// What a bundler leaves out of an app that imports little: the plan kinds
// share one base, yet an app of createTable holds no other kind of plan
// and an app of table none at all. Each app is bundled from the built
// dist/slim.js by esbuild, minified, as the apps of the size budgets are;
// a plan kind is found by the name its errors give it.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const slim = fileURLToPath(new URL("../../dist/slim.js", import.meta.url));
const KINDS = ["rope plan", "table plan", "rope cache plan"];

// The plan kinds an app that calls these functions carries.
async function kindsIn(names) {
  const dir = mkdtempSync(join(tmpdir(), "pe-shake-"));
  try {
    const main = join(dir, "main.js");
    writeFileSync(
      main,
      `import { init, ${names} } from ${JSON.stringify(slim)};
await init();
console.log(${names.join(", ")});
`,
    );
    const { outputFiles } = await esbuild.build({
      entryPoints: [main],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      external: ["node:*"],
      write: false,
      logLevel: "error",
    });
    const code = outputFiles[0].text;
    return KINDS.filter((kind) => code.includes(`"${kind}"`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("an app of one plan kind carries that kind alone; an app of no plan, none", async () => {
  assert.deepEqual(await kindsIn(["table"]), []);
  assert.deepEqual(await kindsIn(["rope", "ropeCache"]), []);
  assert.deepEqual(await kindsIn(["createTable"]), ["table plan"]);
  assert.deepEqual(await kindsIn(["createRope"]), ["rope plan"]);
  assert.deepEqual(await kindsIn(["createRopeCache"]), ["rope cache plan"]);
  // The marker is there to be found when the kinds are imported.
  assert.deepEqual(
    await kindsIn(["createRope", "createTable", "createRopeCache"]),
    KINDS,
  );
});
