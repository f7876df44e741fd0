// docs/api.md's list of error codes, rendered from the built package's
// errorCodes: `node tests/node/error-codes-doc.js` rewrites it, and
// error-codes.test.js fails when the page and the registry differ.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { errorCodes } from "../../dist/index.js";

const START = "<!-- error codes: rendered from errorCodes -->";
const END = "<!-- error codes: end -->";

/** The error-code section of docs/api.md: each code, its class and rule. */
export function renderErrorCodes(codes = errorCodes) {
  const lines = Object.keys(codes)
    .sort()
    .map((code) => {
      const { error, description } = codes[code];
      return `- \`${code}\` (${error}): ${description}`;
    });
  return [START, "", ...lines, "", END].join("\n");
}

const page = fileURLToPath(new URL("../../docs/api.md", import.meta.url));

export const readPage = () => readFileSync(page, "utf8");

/** The section of docs/api.md between the markers, markers included. */
export function errorCodesSection(text) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start)
    throw new Error("docs/api.md has no error-code markers");
  return text.slice(start, end + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = readPage();
  writeFileSync(
    page,
    text.replace(errorCodesSection(text), () => renderErrorCodes()),
  );
}
