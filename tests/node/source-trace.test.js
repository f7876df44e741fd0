// How far a reader goes from the entry to the kernel: the source files
// whose functions run during one RoPE call on a model's config, counted by
// source-trace.js from Node's per-function call counts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const PLAIN = [
  "llama-3.1-8b.v4.json",
  "qwen2.5-7b-instruct-yarn.v5.json",
  "phi-3.5-mini-instruct.v5.json",
  "gpt-j-6b.v4.json",
];
const MROPE = ["qwen2-vl-7b.v5.json"];

const traces = JSON.parse(
  execFileSync(
    process.execPath,
    [
      fileURLToPath(new URL("source-trace.js", import.meta.url)),
      ...PLAIN,
      ...MROPE,
    ],
    { encoding: "utf8" },
  ),
);

test("rope on a config's options passes through six files: rope, options, rows, schedule, the block driver, core", () => {
  for (const config of PLAIN)
    for (const call of ["rope, one token", "rope, 16 tokens"])
      assert.deepEqual(
        traces[`${config}: ${call}`],
        [
          "blocks.js",
          "core.js",
          "options.js",
          "rope.js",
          "rows.js",
          "schedule.js",
        ],
        `${config}: ${call}`,
      );
});

test("a plan's call passes through five: the schedule was resolved when it was made", () => {
  for (const config of [...PLAIN, ...MROPE])
    assert.deepEqual(
      traces[`${config}: plan.apply, one token`],
      ["blocks.js", "core.js", "options.js", "rope.js", "rows.js"],
      config,
    );
});

test("a table plan's and a cache plan's calls run no code of the schedule: their frequencies were resolved when they were made", () => {
  for (const config of PLAIN)
    for (const call of ["table plan.rows, one row", "cache plan.rows, one row"])
      assert.ok(
        !traces[`${config}: ${call}`].includes("schedule.js"),
        `${config}: ${call}: ${traces[`${config}: ${call}`]}`,
      );
});

test("M-RoPE's options and streams add their own file", () => {
  for (const config of MROPE)
    assert.deepEqual(
      traces[`${config}: rope, 16 tokens`],
      [
        "blocks.js",
        "core.js",
        "mrope.js",
        "options.js",
        "rope.js",
        "rows.js",
        "schedule.js",
      ],
      config,
    );
});
