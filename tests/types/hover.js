// What an editor shows on hover, asked of TypeScript's language service: every
// function that dist/index.d.ts and dist/slim.d.ts export has documentation
// at a call, every overload included, and so does every option key inside
// the options object of a call, and every field of a result.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const ENTRIES = ["index.d.ts", "slim.d.ts"];
const SCRATCH = `${dist}__hover.ts`;

const options = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: [],
};

// A language service over the declarations and one scratch file.
function service(text) {
  const files = new Map([[SCRATCH, text]]);
  return ts.createLanguageService({
    getCompilationSettings: () => options,
    getScriptFileNames: () => [SCRATCH],
    getScriptVersion: () => "1",
    getScriptSnapshot(name) {
      const content = files.get(name) ?? ts.sys.readFile(name);
      return content === undefined
        ? undefined
        : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => dist,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (name) => files.has(name) || ts.sys.fileExists(name),
    readFile: (name) => files.get(name) ?? ts.sys.readFile(name),
  });
}

const documentation = (info) =>
  ts.displayPartsToString(info?.documentation ?? []).trim();

// The functions an entry exports, each with its signatures' parameters.
function exportedFunctions(entry) {
  const program = ts.createProgram([`${dist}${entry}`], options);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(`${dist}${entry}`);
  const module = checker.getSymbolAtLocation(file);
  return checker
    .getExportsOfModule(module)
    .map((symbol) =>
      symbol.flags & ts.SymbolFlags.Alias
        ? checker.getAliasedSymbol(symbol)
        : symbol,
    )
    .filter((symbol) => symbol.flags & ts.SymbolFlags.Function)
    .map((symbol) => {
      const type = checker.getTypeOfSymbol(symbol);
      const signatures = type.getCallSignatures();
      // The option keys: every property of every member of the options
      // parameter's type, in every signature.
      const keys = new Set();
      const undocumented = new Set();
      let index = -1;
      for (const signature of signatures)
        signature.parameters.forEach((parameter, i) => {
          if (parameter.name !== "options") return;
          index = i;
          const parameterType = checker.getTypeOfSymbol(parameter);
          const members = parameterType.isUnion()
            ? parameterType.types
            : [parameterType];
          for (const member of members)
            for (const property of checker.getPropertiesOfType(
              checker.getApparentType(member),
            )) {
              // Keys typed never are there to refuse an option.
              const declared = property.declarations?.[0];
              if (declared?.type?.kind === ts.SyntaxKind.NeverKeyword) continue;
              keys.add(property.name);
              if (property.getDocumentationComment(checker).length === 0)
                undocumented.add(property.name);
            }
        });
      return {
        name: symbol.name,
        signatures: signatures.length,
        optionsIndex: index,
        keys: [...keys],
        undocumented: [...undocumented],
      };
    });
}

// The parameters of the presets (and no other option).
const PRESET_PARAMETERS = new Set([
  "maxWavelength",
  "startIndex",
  "paddingIdx",
  "flipSinToCos",
  "downscaleFreqShift",
  "maxPeriod",
  "pastKeyValuesLength",
  "minFreq",
  "maxFreq",
  "cosFirst",
  "fullTurns",
]);

// Calls as a user writes them (tests/types/hover-calls.ts), against the
// declarations of each entry.
const CALLS = readFileSync(new URL("hover-calls.ts", import.meta.url), "utf8");

// Every option key inside the options objects of the calls: the function,
// the key and where it is.
function optionKeys(text) {
  const file = ts.createSourceFile("calls.ts", text, ts.ScriptTarget.ES2022);
  const keys = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.getText(file) === "pe"
    )
      for (const argument of node.arguments)
        if (ts.isObjectLiteralExpression(argument))
          for (const property of argument.properties)
            keys.push({
              name: node.expression.name.text,
              key: property.name.getText(file),
              at: property.name.getStart(file),
            });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return keys;
}

for (const entry of ENTRIES) {
  const functions = exportedFunctions(entry);
  const text = CALLS.replace(
    '"sinusoidal-pe"',
    `"./${entry.replace(".d.ts", ".js")}"`,
  );
  const language = service(text);
  const hover = (at) =>
    documentation(language.getQuickInfoAtPosition(SCRATCH, at));

  test(`${entry}: the functions are found`, () => {
    for (const name of ["init", "table", "ropeCache", "ropeFrequencies"])
      assert.ok(
        functions.some((f) => f.name === name),
        `${name} in ${functions.map((f) => f.name)}`,
      );
  });

  test(`${entry}: every exported function is documented at its calls`, () => {
    const called = new Set();
    const missing = [];
    for (const match of text.matchAll(/\bpe\.(\w+)\(/g)) {
      called.add(match[1]);
      if (hover(match.index + 3) === "") missing.push(match[0]);
    }
    assert.deepEqual(missing, []);
    // Those the calls leave out: documented where they are named.
    const rest = functions.filter((f) => !called.has(f.name));
    const probe = service(
      `import * as pe from "./${entry.replace(".d.ts", ".js")}";\n` +
        rest.map((f) => `pe.${f.name};`).join("\n"),
    );
    const prefix = `import * as pe from "./${entry.replace(".d.ts", ".js")}";\n`;
    const undocumented = rest.filter((f, i) => {
      const at =
        prefix.length +
        rest.slice(0, i).reduce((n, g) => n + g.name.length + 5, 0) +
        3;
      return documentation(probe.getQuickInfoAtPosition(SCRATCH, at)) === "";
    });
    assert.deepEqual(
      undocumented.map((f) => f.name),
      [],
    );
  });

  // Where the result has the type of the caller's `out` (or of table's
  // `dtype`), that key is generic on the call, and TypeScript shows no
  // documentation for a key of a generic type inside a union of option sets
  // (its declaration has it, as the check of the declarations shows).
  const genericOut = (name, key) =>
    (key === "out" && name !== "ropeFrequencies") ||
    (key === "dtype" && name === "table");

  test(`${entry}: every option key is documented inside the calls`, () => {
    const keys = optionKeys(text);
    const missing = keys
      .filter(({ name, key, at }) => !genericOut(name, key) && hover(at) === "")
      .map(({ name, key }) => `${name}: ${key}`);
    assert.deepEqual(missing, []);
  });

  test(`${entry}: every option is documented where it is declared`, () => {
    assert.deepEqual(
      functions.flatMap((f) =>
        f.undocumented.map((key) => `${f.name}: ${key}`),
      ),
      [],
    );
  });

  test(`${entry}: the calls use every option of every function`, () => {
    const used = new Set(optionKeys(text).map((k) => `${k.name}: ${k.key}`));
    // A preset's parameters are the same declarations for every function:
    // the table calls use each.
    const tableKeys = new Set(functions.find((f) => f.name === "table").keys);
    const unused = functions.flatMap((f) =>
      f.keys
        .filter(
          (key) =>
            f.name === "table" ||
            !tableKeys.has(key) ||
            !PRESET_PARAMETERS.has(key),
        )
        .map((key) => `${f.name}: ${key}`)
        .filter((k) => !used.has(k)),
    );
    assert.deepEqual(unused, []);
  });
}

// What an editor offers inside a call: every value of a dtype (no overload
// hides one), and no key that cannot compile there.
test("completions offer every dtype, and rope no table layout", () => {
  const calls = {
    table: `pe.table({ positions: 4, dim: 8, dtype: "" });`,
    ropeCache: `pe.ropeCache({ positions: 4, dim: 8, dtype: "" });`,
    rope: `pe.rope(new Float32Array(8), 1, { dim: 8,  });`,
  };
  const text = `import * as pe from "./index.js";\n${Object.values(calls).join("\n")}\n`;
  const language = service(text);
  const names = (at) =>
    (language.getCompletionsAtPosition(SCRATCH, at, {})?.entries ?? []).map(
      (entry) => entry.name,
    );
  const inQuotes = (call) =>
    text.indexOf(calls[call]) + calls[call].indexOf('""') + 1;
  assert.deepEqual(names(inQuotes("table")).sort(), ["float32", "float64"]);
  assert.deepEqual(names(inQuotes("ropeCache")).sort(), [
    "float16",
    "float32",
    "float64",
  ]);
  const ropeKeys = names(
    text.indexOf(calls.rope) + calls.rope.indexOf(",  ") + 2,
  );
  assert.ok(ropeKeys.includes("pairing"), ropeKeys.join(" "));
  assert.ok(!ropeKeys.includes("layout"), ropeKeys.join(" "));
});

test("every field of a result is documented", () => {
  const text = `import * as pe from "./index.js";
declare const r: pe.RopeFrequencies;
declare const c: pe.RopeCacheResult<Float32Array>;
declare const l: pe.LinearRelationResult;
declare const t: pe.ToeplitzResult;
declare const d: pe.PresetDescription;
r.inverseFrequencies; r.attentionFactor;
c.cos; c.sin; c.shape; c.warnings;
l.maxAbsError; l.position; l.offset; l.index;
t.maxAbsError; t.m; t.n;
d.source; d.parameters; d.frequency; d.layout; d.oddDim; d.notes;
d.source.repository; d.source.file; d.source.function;
`;
  const language = service(text);
  const accesses = [...text.matchAll(/\b([a-z])\.(?:source\.)?(\w+);/g)];
  assert.ok(accesses.length >= 20);
  const missing = accesses.filter((match) => {
    const at = match.index + match[0].length - 2;
    return documentation(language.getQuickInfoAtPosition(SCRATCH, at)) === "";
  });
  assert.deepEqual(
    missing.map((m) => m[0]),
    [],
  );
});

// Typed arrays generic over their buffer (Float32Array<ArrayBuffer>) need
// TypeScript 5.7 or later: the type tests run on the lockfile's.
test("the TypeScript the tests use knows generic typed arrays (≥ 5.7)", () => {
  const [major, minor] = ts.version.split(".").map(Number);
  assert.ok(major > 5 || (major === 5 && minor >= 7), ts.version);
});

// The declarations read here are the ones the package ships.
test("the declarations are the built ones", () => {
  for (const entry of ENTRIES)
    assert.equal(
      readFileSync(`${dist}${entry}`, "utf8"),
      readFileSync(new URL(`../../src/${entry}`, import.meta.url), "utf8"),
    );
});
