#!/usr/bin/env node
// npx sinusoidal-pe-page DIR: writes the whole site into DIR (the page,
// embed.js, embed.html, the styles and the scripts they load), for any
// static host or for opening from disk.
import { cpSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const USAGE = `Usage: npx sinusoidal-pe-page DIR

Writes the sinusoidal-pe page into DIR: index.html (the page), embed.js and
embed.html (the panels), style.css, favicon.svg and scripts/. It opens from
disk or from any static server, and requests nothing but its own files.`;

const args = process.argv.slice(2);
if (args.length === 1 && ["-h", "--help"].includes(args[0])) {
  console.log(USAGE);
  process.exit(0);
}
if (args.length !== 1 || args[0].startsWith("-")) {
  console.error(
    `sinusoidal-pe-page: one argument, the folder to write\n\n${USAGE}`,
  );
  process.exit(2);
}
const [dir] = args;
if (existsSync(dir) && !statSync(dir).isDirectory()) {
  console.error(`sinusoidal-pe-page: ${dir} is a file, not a folder`);
  process.exit(1);
}
cpSync(fileURLToPath(new URL("../site/", import.meta.url)), dir, {
  recursive: true,
});
console.log(
  `The page is in ${dir}: open ${join(dir, "index.html")}, or serve the folder.`,
);
