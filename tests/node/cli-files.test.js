// The command line harms no file it did not create: what -o names is written
// through (a symbolic link) or directly (a FIFO, a device), never replaced;
// inputs are read with a bound; signals end the process even while it waits
// on a FIFO. Every child runs with a time limit, so no test can hang.
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const scratch = () => mkdtempSync(join(tmpdir(), "pe-cli-files-"));
const ARGS = ["table", "--positions", "5", "--dim", "6"];

function run(args, options = {}) {
  return spawnSync(process.execPath, [cli, ...args], {
    timeout: 20000,
    maxBuffer: 1 << 24,
    ...options,
  });
}

// The .npy bytes of ARGS, as written to standard output.
const expected = () => {
  const result = run([...ARGS, "-o", "-"]);
  assert.equal(result.status, 0, String(result.stderr));
  assert.equal(result.stdout.subarray(1, 6).toString(), "NUMPY");
  return result.stdout;
};

// A child with its exit awaited for at most `ms`; a child still running then
// is killed and reported as { code: "timeout" }.
// Every child is killed when the tests end, so that one a test gave up on
// (a CLI blocked for good) cannot keep the run alive.
const children = [];
after(() => children.forEach((child) => child.kill("SIGKILL")));

function started(command, args, options = {}) {
  const child = spawn(command, args, options);
  children.push(child);
  let stdout = Buffer.alloc(0);
  let stderr = "";
  child.stdout?.on(
    "data",
    (chunk) => (stdout = Buffer.concat([stdout, chunk])),
  );
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    async exit(ms) {
      let timer;
      const late = new Promise((resolve) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve({ code: "timeout" });
        }, ms);
      });
      const result = await Promise.race([exited, late]);
      clearTimeout(timer);
      await exited;
      return { ...result, stdout, stderr };
    },
    running: () => child.exitCode === null && child.signalCode === null,
    stderr: () => stderr,
  };
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Polls `condition` every 50 ms for at most `ms`: whether it came true.
async function until(condition, ms = 10000) {
  for (let waited = 0; waited < ms; waited += 50) {
    if (condition()) return true;
    await wait(50);
  }
  return condition();
}

// Whether a running process holds `path` open (Linux's /proc); false once
// the process is gone.
function holds(pid, path) {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

test("-o through a symbolic link writes the file it points to and keeps the link", () => {
  const dir = scratch();
  writeFileSync(join(dir, "real.npy"), "old");
  symlinkSync("real.npy", join(dir, "link.npy"));
  const result = run([...ARGS, "-o", join(dir, "link.npy")]);
  assert.equal(result.status, 0, String(result.stderr));
  assert.ok(lstatSync(join(dir, "link.npy")).isSymbolicLink());
  assert.equal(readlinkSync(join(dir, "link.npy")), "real.npy");
  assert.deepEqual(readFileSync(join(dir, "real.npy")), expected());
  assert.deepEqual(readdirSync(dir).sort(), ["link.npy", "real.npy"]);

  // A link to nothing is refused, and left as it is.
  symlinkSync("missing.npy", join(dir, "dangling"));
  const dangling = run([...ARGS, "-o", join(dir, "dangling")]);
  assert.equal(dangling.status, 2);
  assert.match(
    String(dangling.stderr),
    /option -o \S+dangling: a symbolic link to a file that does not exist/,
  );
  assert.equal(readlinkSync(join(dir, "dangling")), "missing.npy");
  assert.deepEqual(readdirSync(dir).sort(), [
    "dangling",
    "link.npy",
    "real.npy",
  ]);
});

test("-o to a FIFO with a reader: the reader gets the bytes, the FIFO stays", async () => {
  const dir = scratch();
  const fifo = join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  const reader = started("cat", [fifo]);
  const writer = started(process.execPath, [cli, ...ARGS, "-o", fifo]);
  const wrote = await writer.exit(20000);
  const read = await reader.exit(5000);
  assert.equal(wrote.code, 0, wrote.stderr);
  assert.equal(read.code, 0, "the reader saw the end of the data");
  assert.deepEqual(read.stdout, expected());
  assert.ok(lstatSync(fifo).isFIFO());
  assert.deepEqual(readdirSync(dir), ["pipe"]);
});

test("-o to a FIFO with no reader waits for one, and SIGTERM ends the wait", async () => {
  const dir = scratch();
  const fifo = join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  const writer = started(process.execPath, [cli, ...ARGS, "-o", fifo]);
  // The notice says it waits: its signal handlers are installed by then.
  assert.ok(
    await until(() => /waiting for a reader/.test(writer.stderr())),
    "waiting for a reader",
  );
  assert.ok(writer.running(), "still waiting for a reader");
  assert.ok(lstatSync(fifo).isFIFO());
  writer.child.kill("SIGTERM");
  const { code, stderr } = await writer.exit(5000);
  assert.equal(code, 143, stderr);
  assert.match(
    stderr,
    /^sinusoidal-pe: waiting for a reader of the FIFO \S+pipe\n\nsinusoidal-pe: interrupted by SIGTERM; nothing was written\n$/,
  );
  assert.ok(lstatSync(fifo).isFIFO());
  assert.deepEqual(readdirSync(dir), ["pipe"]);
});

test("-o to a character device writes into it and leaves it a device", (t) => {
  const dir = scratch();
  const device = join(dir, "null");
  // The same device as /dev/null (1, 3), made under the scratch directory:
  // the test never writes to the machine's own device files.
  const made = spawnSync("mknod", [device, "c", "1", "3"], {
    encoding: "utf8",
  });
  if (made.status !== 0) {
    t.skip(`mknod is not permitted here: ${made.stderr.trim()}`);
    return;
  }
  const before = lstatSync(device);
  assert.ok(before.isCharacterDevice());
  const result = run([...ARGS, "-o", device]);
  assert.equal(result.status, 0, String(result.stderr));
  const after = lstatSync(device);
  assert.ok(after.isCharacterDevice(), "still a character device");
  assert.equal(after.rdev, before.rdev);
  assert.equal(after.ino, before.ino);
  assert.deepEqual(readdirSync(dir), ["null"]);
});

test('-o "" is refused up front, naming the flag', () => {
  const dir = scratch();
  const result = run([...ARGS, "-o", ""], { cwd: dir, encoding: "utf8" });
  assert.equal(result.status, 2);
  assert.match(
    result.stderr,
    /^sinusoidal-pe: option -o \(--output\) must name a file, or "-" for standard output; got an empty name\n/,
  );
  assert.equal(result.stdout, "");
  assert.deepEqual(readdirSync(dir), []);
});

test("a path that cannot be written is named as given, never a temporary name", () => {
  const result = run([...ARGS, "-o", "/nonexistent/dir/pe.npy"], {
    encoding: "utf8",
  });
  assert.equal(result.status, 1);
  assert.equal(
    result.stderr,
    "sinusoidal-pe: option -o /nonexistent/dir/pe.npy: the directory /nonexistent/dir does not exist (ENOENT)\n",
  );
});

test("--config /dev/zero and --positions-file /dev/zero fail fast, with a bound", () => {
  const config = run(
    ["rope-cache", "--config", "/dev/zero", "--positions", "2"],
    {
      encoding: "utf8",
      timeout: 10000,
    },
  );
  assert.equal(config.status, 2, config.stderr);
  assert.match(
    config.stderr,
    /^sinusoidal-pe: option --config \/dev\/zero: larger than 8 MiB/,
  );
  const positions = run(
    ["table", "--positions-file", "/dev/zero", "--dim", "4"],
    { encoding: "utf8", timeout: 10000 },
  );
  assert.equal(positions.status, 2, positions.stderr);
  assert.match(
    positions.stderr,
    /^sinusoidal-pe: option --positions-file \/dev\/zero: neither a \.npy file nor text/,
  );
});

test("a regular --config larger than the bound is refused unread", () => {
  const dir = scratch();
  const path = join(dir, "huge.json");
  writeFileSync(path, " ".repeat(2 ** 23 + 1));
  const result = run(["rope-cache", "--config", path, "--positions", "2"], {
    encoding: "utf8",
  });
  assert.equal(result.status, 2, result.stderr);
  assert.match(
    result.stderr,
    /option --config \S+huge\.json: larger than 8 MiB/,
  );
});

test("a --positions-file beyond 2 GiB (2^28 float64 positions) is refused unread", () => {
  const dir = scratch();
  const path = join(dir, "positions.txt");
  // A sparse file: its size without its bytes on disk.
  writeFileSync(path, "");
  truncateSync(path, 2 ** 31 + 1);
  const result = run(["table", "--positions-file", path, "--dim", "4"], {
    encoding: "utf8",
    timeout: 10000,
  });
  assert.equal(result.status, 2, result.stderr);
  assert.match(
    result.stderr,
    /^sinusoidal-pe: option --positions-file \S+positions\.txt: larger than 2 GiB/,
  );
});

test("--config from a FIFO is read once its writer writes", async () => {
  const dir = scratch();
  const fifo = join(dir, "config");
  execFileSync("mkfifo", [fifo]);
  const reader = started(process.execPath, [
    cli,
    ...["rope-cache", "--config", fifo, "--positions", "2"],
    ...["--format", "json", "--dtype", "float64"],
  ]);
  // The writer is a child too: a write into a FIFO nobody reads blocks.
  await wait(300);
  const writer = started("sh", [
    "-c",
    `printf '%s' '{"head_dim": 4, "rope_theta": 100}' > "$0"`,
    fifo,
  ]);
  const { code, stdout, stderr } = await reader.exit(10000);
  assert.equal((await writer.exit(1000)).code, 0);
  assert.equal(code, 0, stderr);
  const [cos, sin] = JSON.parse(stdout);
  // Rows p = 0, 1; w = 100^(-2i/4), i = 0, 1.
  const w = [1, 0.1];
  const near = (got, want) =>
    got.forEach((row, p) =>
      row.forEach((v, i) =>
        assert.ok(Math.abs(v - want(p * w[i])) < 1e-15, `${p} ${i}: ${v}`),
      ),
    );
  near(cos, Math.cos);
  near(sin, Math.sin);
});

for (const [signal, status] of [
  ["SIGTERM", 143],
  ["SIGINT", 130],
])
  test(`${signal} during a blocked read of a FIFO ends the process (${status})`, async () => {
    const dir = scratch();
    const fifo = join(dir, "config");
    execFileSync("mkfifo", [fifo]);
    const reader = started(process.execPath, [
      cli,
      ...["rope-cache", "--config", fifo, "--positions", "2"],
    ]);
    // Blocked on the FIFO, open for reading: the handlers, installed before
    // any file is opened, are in place.
    assert.ok(
      await until(() => holds(reader.child.pid, fifo)),
      "reading the FIFO",
    );
    await wait(200);
    assert.ok(reader.running(), "waiting for a writer");
    reader.child.kill(signal);
    const { code, stderr } = await reader.exit(5000);
    assert.equal(code, status, stderr);
    assert.match(stderr, new RegExp(`interrupted by ${signal}`));
    assert.ok(lstatSync(fifo).isFIFO());
  });

// ---- what -o keeps of an existing file --------------------------------------

test("-o over an existing file keeps its mode, owner and hard links, as the shell's > does", () => {
  const want = expected();
  const dir = scratch();
  const private_ = join(dir, "private.npy");
  writeFileSync(private_, "old");
  chmodSync(private_, 0o600);
  assert.equal(run([...ARGS, "-o", private_]).status, 0);
  assert.deepEqual(readFileSync(private_), want);
  assert.equal(lstatSync(private_).mode & 0o777, 0o600);

  // Another owner: kept (this runs as root, which can give it).
  const owned = join(dir, "owned.npy");
  writeFileSync(owned, "old");
  chownSync(owned, 4321, 4322);
  assert.equal(run([...ARGS, "-o", owned]).status, 0);
  assert.deepEqual(readFileSync(owned), want);
  const stat = lstatSync(owned);
  assert.deepEqual([stat.uid, stat.gid], [4321, 4322]);

  // A hard link: both names keep showing one file, the new one.
  const first = join(dir, "first.npy");
  const second = join(dir, "second.npy");
  writeFileSync(first, "old");
  chmodSync(first, 0o640);
  linkSync(first, second);
  const inode = lstatSync(first).ino;
  assert.equal(run([...ARGS, "-o", first]).status, 0);
  assert.deepEqual(readFileSync(second), want);
  assert.equal(lstatSync(first).ino, inode);
  assert.equal(lstatSync(first).nlink, 2);
  assert.equal(lstatSync(first).mode & 0o777, 0o640);
  assert.deepEqual(readdirSync(dir).sort(), [
    "first.npy",
    "owned.npy",
    "private.npy",
    "second.npy",
  ]);
});

test("-o refuses a file the shell's > would refuse, and leaves it as it was", (t) => {
  // As an unprivileged user, for whom a read-only file is read-only.
  const nobody = 65534;
  const dir = scratch();
  chmodSync(dir, 0o777);
  const locked = join(dir, "locked.npy");
  writeFileSync(locked, "keep");
  chownSync(locked, nobody, nobody);
  chmodSync(locked, 0o444);
  const shell = spawnSync("sh", ["-c", `echo x > "${locked}"`], {
    uid: nobody,
    gid: nobody,
  });
  if (shell.error?.code === "EPERM") return t.skip("cannot run as nobody");
  assert.notEqual(shell.status, 0, "the shell refuses it");
  const result = run([...ARGS, "-o", locked], { uid: nobody, gid: nobody });
  assert.equal(result.status, 1, String(result.stderr));
  assert.match(
    String(result.stderr),
    new RegExp(`option -o ${locked}: permission denied \\(EACCES\\)`),
  );
  assert.equal(readFileSync(locked, "utf8"), "keep");
  assert.deepEqual(readdirSync(dir), ["locked.npy"]);
});

test("-o writes a file whose name is as long as a name can be", () => {
  const dir = scratch();
  for (const length of [244, 255]) {
    const path = join(dir, "p".repeat(length - 4) + ".npy");
    const result = run([...ARGS, "-o", path]);
    assert.equal(result.status, 0, String(result.stderr));
    assert.deepEqual(readFileSync(path), expected());
  }
  assert.equal(readdirSync(dir).length, 2, "no temporary file left");
});

test("--positions-file is parsed as it is read: memory follows the positions, not the text", () => {
  // 48 MiB of text holding 49152 positions, each line padded to 1 KiB. Read
  // whole, the text alone would take more than the 32 MiB heap the child
  // is given.
  const dir = scratch();
  const file = join(dir, "positions.txt");
  const line = (p) => `${p}`.padStart(1023, " ") + "\n";
  const count = 49152;
  writeFileSync(
    file,
    Array.from({ length: count }, (_, p) => line(p)).join(""),
  );
  const result = spawnSync(
    process.execPath,
    [
      "--max-old-space-size=32",
      cli,
      ...["table", "--dim", "2", "--positions-file", file],
      ...["--format", "f32", "-o", join(dir, "table.f32")],
    ],
    { timeout: 60000 },
  );
  assert.equal(result.status, 0, String(result.stderr).slice(0, 2000));
  // Row p is (sin p, cos p), in float32.
  const rows = new Float32Array(readFileSync(join(dir, "table.f32")).buffer);
  assert.equal(rows.length, 2 * count);
  for (const p of [0, 1, 1000, count - 1]) {
    assert.equal(rows[2 * p], Math.fround(Math.sin(p)), `sin ${p}`);
    assert.equal(rows[2 * p + 1], Math.fround(Math.cos(p)), `cos ${p}`);
  }
});
