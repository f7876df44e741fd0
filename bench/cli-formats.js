// `make bench`: the command line writing the same 20000 × 1024 float32 table
// as .npy and as CSV and JSON, each run a fresh process writing a file, the
// runs of the formats interleaved. Prints the median wall times and the
// ratio of each text format to .npy (target: CSV within 5× of .npy).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const ROWS = 20000;
const DIM = 1024;
const RUNS = 5;
const TARGET = 5;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const dir = mkdtempSync(join(tmpdir(), "pe-bench-cli-"));
const formats = ["npy", "csv", "json"];
const times = Object.fromEntries(formats.map((f) => [f, []]));
const sizes = {};
for (let run = 0; run < RUNS; run++)
  for (const format of formats) {
    const path = join(dir, `table.${format}`);
    const start = performance.now();
    const result = spawnSync(process.execPath, [
      cli,
      "table",
      "--positions",
      String(ROWS),
      "--dim",
      String(DIM),
      "--format",
      format,
      "-o",
      path,
    ]);
    times[format].push(performance.now() - start);
    if (result.status !== 0) throw new Error(result.stderr.toString());
    sizes[format] = statSync(path).size;
    rmSync(path);
  }
rmSync(dir, { recursive: true });

console.log(
  `\nCLI: table --positions ${ROWS} --dim ${DIM} (float32) to a file, median of ${RUNS} runs`,
);
const npy = median(times.npy);
for (const format of formats) {
  const ms = median(times[format]);
  const mb = (sizes[format] / 2 ** 20).toFixed(0);
  const ratio = ms / npy;
  const verdict =
    format === "csv"
      ? ` (target ≤ ${TARGET}×: ${ratio <= TARGET ? "pass" : "fail"})`
      : "";
  console.log(
    `  ${format.padEnd(5)} ${ms.toFixed(0).padStart(6)} ms  ${mb.padStart(4)} MiB  ${ratio.toFixed(2)}× npy${verdict}`,
  );
}
