// Every code block of the README and of docs/*.md runs: each JavaScript block in a fresh Node
// process that imports the package by its name, with every `// → value`
// comment checked against what the expression returned (readme-claims.js);
// shell blocks run their command-line calls and name make targets that
// exist (an `npm install` names this package); Python blocks run on the
// files those calls wrote; the embedding
// snippet is the one the browser tests load. The files a block reads from
// disk, as a user's script would (a config.json, a model), are written
// beside it first (doc-files.js). A block marked
// `<!-- browser -->` needs a page (location, bundler assets), one marked
// `<!-- package -->` the installed package (CommonJS): its script is
// syntax-checked here and runs as written in the package tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseClaim } from "./readme-claims.js";
import { documentFiles } from "./doc-files.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DOCUMENTS = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];
const PACKAGE_NAME = JSON.parse(
  readFileSync(join(root, "package.json"), "utf8"),
).name;
const CLAIMS = pathToFileURL(join(root, "tests/node/readme-claims.js")).href;

// Blocks run inside the repository, where "sinusoidal-pe" resolves to this
// package by its own name and the dev dependencies (tfjs, onnxruntime-web)
// are installed.
const project = join(root, "build/readme-blocks");
rmSync(project, { recursive: true, force: true });
mkdirSync(project, { recursive: true });
for (const [name, bytes] of Object.entries(documentFiles(root)))
  writeFileSync(join(project, name), bytes);

function codeBlocks(markdown, document) {
  const blocks = [];
  const pattern = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(pattern)) {
    const before = markdown.slice(0, match.index);
    const line = before.split("\n").length + 1;
    const browser = /<!-- (?:browser|package) -->\s*$/.test(before);
    blocks.push({
      language: match[1],
      source: match[2],
      line,
      document,
      where: `${document} line ${line}`,
      id: `${document.replace(/\W/g, "-")}-${line}`,
      browser,
    });
  }
  return blocks;
}

// Bracket depth of a line of code, ignoring brackets in strings.
function depthChange(code) {
  let depth = 0;
  for (const token of code
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, "")
    .match(/[([{}\])]/g) ?? [])
    depth += "([{".includes(token) ? 1 : -1;
  return depth;
}

// Wraps every statement that ends with a `// → value` comment in a check.
export function instrument(source, firstLine, document = "README.md") {
  const lines = source.split("\n");
  const out = [
    `import { parseClaim as __parse, mismatch as __mismatch } from ${JSON.stringify(CLAIMS)};`,
  ];
  out.push(
    "function __claim(actual, text, line) {",
    "  const problem = __mismatch(__parse(text), actual);",
    `  if (problem) throw new Error(\`${document} line \${line}: \${problem}\`);`,
    "}",
  );
  let statement = [];
  let depth = 0;
  lines.forEach((text, index) => {
    const match = /^(.*?)\s*\/\/ → (.*)$/.exec(text);
    const code = match ? match[1] : text.replace(/\/\/.*$/, "");
    statement.push(match ? code : text);
    depth += depthChange(code);
    if (depth !== 0 || !/;\s*$/.test(code)) {
      if (match)
        throw new Error(
          `${document} line ${firstLine + index}: a claim must end a statement`,
        );
      if (depth === 0 && code.trim() === "") {
        out.push(...statement);
        statement = [];
      }
      return;
    }
    if (match) {
      parseClaim(match[2]); // a malformed claim fails here, not silently
      const body = statement.join("\n").replace(/;\s*$/, "");
      const declared = /^\s*(?:const|let)\s+([\w$]+)\s*=/.exec(body);
      const claim = `${JSON.stringify(match[2])}, ${firstLine + index}`;
      out.push(
        declared
          ? `${body};\n__claim(${declared[1]}, ${claim});`
          : `__claim(${body}, ${claim});`,
      );
    } else out.push(...statement);
    statement = [];
  });
  out.push(...statement);
  return out.join("\n");
}

const blocks = DOCUMENTS.flatMap((document) =>
  codeBlocks(readFileSync(join(root, document), "utf8"), document),
);
const readmeBlocks = blocks.filter((b) => b.document === "README.md");
const run = (command, args, options = {}) =>
  spawnSync(command, args, {
    cwd: project,
    encoding: "utf8",
    timeout: 300_000,
    ...options,
  });

test("the README stays a README for npm users: at most 450 lines, npm install first", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const lines = readme.split("\n").length - 1;
  assert.ok(lines <= 450, `README.md has ${lines} lines`);
  const install = readme.indexOf("npm install sinusoidal-pe");
  assert.ok(install > 0 && install < readme.indexOf("\n## "));
});

test("the README has code blocks, and every block has a known language", () => {
  assert.ok(readmeBlocks.filter((b) => b.language === "js").length >= 3);
  for (const block of blocks)
    assert.ok(
      ["js", "sh", "html", "python"].includes(block.language),
      `${block.where}: language "${block.language}"`,
    );
});

for (const block of blocks.filter((b) => b.language === "js")) {
  const what = block.browser
    ? "is valid JavaScript"
    : "runs and its claims hold";
  test(`${block.where}: the JavaScript block ${what}`, () => {
    const file = join(project, `block-${block.id}.mjs`);
    writeFileSync(file, instrument(block.source, block.line, block.document));
    const result = run(
      process.execPath,
      block.browser ? ["--check", file] : [file],
    );
    assert.equal(
      result.status,
      0,
      `${block.where}: the block failed:\n${result.stderr}`,
    );
  });
}

// Shell blocks run in order, so a later Python block finds their files.
const CLI = join(root, "dist/cli.js");
for (const block of blocks.filter((b) => b.language === "sh")) {
  test(`${block.where}: the shell block's commands run`, () => {
    for (const raw of block.source.split("\n")) {
      const command = raw.replace(/\s+#.*$/, "").trim();
      if (command === "" || command.startsWith("#")) continue;
      const make = /^make(?:\s+([\w-]+))?(?:\s+\w+=\S+)*$/.exec(command);
      if (make) {
        // -n prints what the target would run without running it.
        execFileSync(
          "make",
          ["-n", "-C", root, make[1] ?? ""].filter(Boolean),
          { stdio: "ignore" },
        );
        continue;
      }
      // The install line is not run (it would fetch from the registry): it
      // must name this package.
      if (command.startsWith("npm install ")) {
        assert.equal(command, `npm install ${PACKAGE_NAME}`, block.where);
        continue;
      }
      assert.ok(
        command.startsWith("npx sinusoidal-pe "),
        `${block.where}: no rule to run "${command}"`,
      );
      const shell = command.replace(
        /^npx sinusoidal-pe/,
        `"${process.execPath}" "${CLI}"`,
      );
      const result = run("bash", ["-c", shell]);
      assert.equal(result.status, 0, `"${command}" failed:\n${result.stderr}`);
    }
  });
}

for (const block of blocks.filter((b) => b.language === "python")) {
  test(`${block.where}: the Python block runs`, () => {
    const result = run("/usr/bin/python3", ["-c", block.source]);
    assert.equal(
      result.status,
      0,
      `${block.where}: the block failed:\n${result.stderr}`,
    );
  });
}

for (const block of blocks.filter((b) => b.language === "html")) {
  test(`${block.where}: the HTML block is what a page loads`, () => {
    if (block.browser) {
      // Its inline script, syntax-checked.
      const scripts = [
        ...block.source.matchAll(/<script>([\s\S]*?)<\/script>/g),
      ];
      for (const [, script] of scripts) {
        const file = join(project, `html-${block.id}.js`);
        writeFileSync(file, script);
        assert.equal(run(process.execPath, ["--check", file]).status, 0);
      }
      return;
    }
    // The embedding snippet: the example page the browser tests open holds it.
    const page = readFileSync(join(root, "web/embed.html"), "utf8");
    for (const line of block.source.trim().split("\n"))
      assert.ok(
        page.includes(line.trim()),
        `web/embed.html lacks ${line.trim()}`,
      );
  });
}

test("instrument: a claim that does not hold fails its block", () => {
  const source = "const x = 1 + 1; // → 3\n";
  const file = join(project, "self-test.mjs");
  writeFileSync(file, instrument(source, 1));
  const result = run(process.execPath, [file]);
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /value = 2, claimed 3/);
});

test("claims: digits shown, truncation, bounds, types and keys", async () => {
  const { mismatch } = await import("./readme-claims.js");
  const holds = (text, actual) => mismatch(parseClaim(text), actual) === null;
  assert.ok(holds("62.34", 62.3449));
  assert.ok(!holds("62.34", 62.346));
  assert.ok(holds("6e-8", 5.6e-8));
  assert.ok(!holds("6e-8", 6.6e-8));
  assert.ok(holds("0.946083…", 0.9460831));
  assert.ok(!holds("0.946083…", 0.946085));
  assert.ok(holds("< 1e-7", 9e-8) && !holds("< 1e-7", 2e-7));
  assert.ok(holds("Float64Array [1, 0.1]", new Float64Array([1, 0.1])));
  assert.ok(!holds("Float64Array [1, 0.1]", new Float32Array([1, 0.1])));
  assert.ok(!holds("[1, 2]", [1, 2, 3]));
  assert.ok(holds("{ a: 1, b }", { a: 1, b: 0, c: 5 }));
  assert.ok(!holds("{ a: 1, b }", { a: 1 }));
  assert.ok(holds('"x"', "x") && !holds("true", 1));
  assert.throws(() => parseClaim("{ a: }"), SyntaxError);
});
