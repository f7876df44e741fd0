// bootstrap.sh installs only what is missing: on a machine with every tool
// it runs no installer; with tools hidden from it, it asks apt-get for their
// packages alone, after one update; npm ci runs only when node_modules is
// absent or older than the lockfile.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

const root = fileURLToPath(new URL("../../", import.meta.url));
const script = join(root, "bootstrap.sh");

// A directory of stand-ins that log their arguments to `log`.
function fakes(names, log) {
  const dir = mkdtempSync(join(tmpdir(), "pe-fakes-"));
  for (const name of names) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> "${log}"\n`, {
      mode: 0o755,
    });
  }
  return dir;
}

// PATH as it is, with the commands in `hidden` left out and `first` ahead.
function pathWithout(hidden, first) {
  const dir = mkdtempSync(join(tmpdir(), "pe-path-"));
  for (const folder of process.env.PATH.split(delimiter)) {
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      if (hidden.includes(name) || existsSync(join(dir, name))) continue;
      symlinkSync(join(folder, name), join(dir, name));
    }
  }
  return [first, dir].join(delimiter);
}

function bootstrap(args, env = {}, cwd = root, file = script) {
  return spawnSync("/bin/bash", [file, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
}

test("with every tool present, bootstrap.sh installs nothing and says nothing", () => {
  const result = bootstrap([]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(result.stderr, "");
});

test("bootstrap.sh asks apt-get for the missing packages alone, after one update", () => {
  const log = join(mkdtempSync(join(tmpdir(), "pe-log-")), "log");
  writeFileSync(log, "");
  const path = pathWithout(
    ["zopfli", "chromium", "apt-get"],
    fakes(["apt-get"], log),
  );
  const result = bootstrap(["build", "test", "browser"], { PATH: path });
  const calls = readFileSync(log, "utf8").trim().split("\n");
  if (process.getuid() === 0) {
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(calls, [
      "apt-get update -qq",
      "apt-get install -y -qq zopfli chromium",
    ]);
  } else {
    assert.equal(result.status, 1);
    assert.match(result.stderr, /missing Debian packages: zopfli chromium/);
    assert.deepEqual(calls, [""]);
  }
  // A group that needs neither asks for nothing.
  writeFileSync(log, "");
  const tests = bootstrap(["test"], { PATH: path });
  assert.equal(tests.status, 0, tests.stderr);
  assert.equal(readFileSync(log, "utf8"), "");
});

test("bootstrap.sh runs npm ci only when node_modules is absent or older than the lockfile", () => {
  const dir = mkdtempSync(join(tmpdir(), "pe-bootstrap-"));
  copyFileSync(script, join(dir, "bootstrap.sh"));
  copyFileSync(join(root, "package-lock.json"), join(dir, "package-lock.json"));
  const log = join(dir, "log");
  writeFileSync(log, "");
  const env = {
    PATH: [fakes(["npm"], log), process.env.PATH].join(delimiter),
  };
  const run = () => {
    const result = bootstrap(["npm"], env, dir, join(dir, "bootstrap.sh"));
    assert.equal(result.status, 0, result.stderr);
    const calls = readFileSync(log, "utf8");
    writeFileSync(log, "");
    return calls;
  };
  const ci = "npm ci --no-audit --no-fund --loglevel=error\n";
  mkdirSync(join(dir, "node_modules"));
  assert.equal(run(), ci);
  assert.equal(run(), "");
  const past = new Date(Date.now() - 3600_000);
  utimesSync(join(dir, "node_modules/.package-lock.json"), past, past);
  assert.equal(run(), ci);
  assert.equal(run(), "");
});

test("bootstrap.sh refuses an unknown group by name", () => {
  const result = bootstrap(["tests"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /unknown group "tests"; groups: build, test/);
});
