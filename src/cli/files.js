// The files the command line reads and writes, and its signals.
//
// Output. A regular file (or a new one) is written beside its target and
// put in place once complete, so an error or a signal never leaves a
// partial file under the target's name. A new file is renamed into place;
// an existing one keeps what the shell's `>` would keep: its mode and owner
// (given to the new file before the rename), or, where it has other hard
// links or an owner this process cannot give, its inode, into which the
// finished file is copied. A target the shell could not write is refused
// before anything is computed. Through a symbolic link, the file it points
// to is the target and the link stays. Anything else (a FIFO, a device) is
// opened for writing as it is and written directly: renaming a file over it
// would destroy it.
//
// Input. --config and --positions-file are read with a bound on their size,
// whatever they are (a FIFO from `<(…)`, a device), without ever blocking
// the process: files are opened non-blocking and pipes read through the
// event loop, so SIGINT and SIGTERM are always handled.
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  createWriteStream,
  fchmodSync,
  fchownSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { constants as os } from "node:os";
import { open } from "node:fs/promises";
import { Socket } from "node:net";
import { dirname, join } from "node:path";
import { usage } from "./flags.js";

const { O_RDONLY, O_WRONLY, O_NONBLOCK, O_NOCTTY, W_OK } = constants;

// What went wrong with a file, in words, with the system's code.
const REASONS = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "it is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large",
  ENXIO: "no such device, or a socket",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "name too long",
  EIO: "input/output error",
  EXDEV: "the link's target is on another file system",
};

/**
 * An error about the file the user named with `flag`: names that path, never
 * a temporary one, with the system's reason and code.
 */
export class FileError extends Error {}
export function fileError(flag, path, error) {
  // The system's own message may name a temporary file: only the code is
  // shown where no words are known for it.
  const reason = REASONS[error.code] ?? "refused by the system";
  return new FileError(
    `sinusoidal-pe: option ${flag} ${path}: ${reason} (${error.code})`,
  );
}

// Temporary files being written, removed if the process is interrupted, and
// whether a direct output (standard output, a FIFO, a device) has had part
// of a result.
const partialFiles = new Set();
let partialDirect = false;

function removePartial(path) {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
  partialFiles.delete(path);
}

// The signals that end a process by default and that it may catch (Node
// keeps SIGUSR1 for its inspector and ignores SIGPIPE, which surfaces as
// EPIPE instead).
const ENDING_SIGNALS = [
  "SIGHUP",
  "SIGINT",
  "SIGQUIT",
  "SIGTERM",
  "SIGUSR2",
  "SIGALRM",
  "SIGVTALRM",
  "SIGPROF",
  "SIGXCPU",
  "SIGXFSZ",
];

// Each of them removes a file being written and says so; the exit status is
// the shell's for the signal (128 + its number). Nothing the process waits
// on blocks its thread, so the handler runs whenever a signal comes.
export function exitOnSignals() {
  for (const signal of ENDING_SIGNALS) {
    const status = 128 + os.signals[signal];
    process.on(signal, () => {
      const removed = [...partialFiles];
      for (const path of removed) removePartial(path);
      process.stderr.write(
        `\nsinusoidal-pe: interrupted by ${signal}; ` +
          (removed.length > 0
            ? `the partial output was removed and the target left as it was\n`
            : partialDirect
              ? `the output is incomplete\n`
              : `nothing was written\n`),
      );
      process.exit(status);
    });
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The file at `path`, following symbolic links, or null where there is none
// yet. A regular file's target is its real path, where the new file is
// renamed; anything else is opened by the path given (/dev/stdout too). A
// link that leads nowhere is refused: writing through it would create a
// file at a place the user never named.
function targetOf(path) {
  let link;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch (error) {
    if (error.code === "ENOENT") return { path, stat: null };
    throw fileError("-o", path, error);
  }
  if (!link) return { path, stat: lstatSync(path) };
  try {
    const stat = statSync(path);
    return { path: stat.isFile() ? realpathSync(path) : path, stat };
  } catch (error) {
    if (error.code === "ENOENT")
      throw usage(
        `option -o ${path}: a symbolic link to a file that does not exist; give the file's own path`,
      );
    throw fileError("-o", path, error);
  }
}

// A writable that resolves each write once its data is handed on (memory
// holds one block at a time) and stores the first error.
function streamWriter(stream, { flag, path, onClose, onAbort }) {
  let failure = null;
  const onError = (error) => {
    failure ??= error;
  };
  stream.on("error", onError);
  // One 'drain' (or 'error') listener per blocked write, removed when either
  // fires: listeners never accumulate, however long the reader stalls.
  const drained = () =>
    new Promise((resolve) => {
      const done = () => {
        stream.off("drain", done);
        stream.off("error", done);
        resolve();
      };
      stream.on("drain", done);
      stream.on("error", done);
    });
  const raise = () => {
    if (failure === null) return;
    // A reader that went away wants no more: as `head` does to a pipe.
    if (failure.code === "EPIPE" || path === undefined) throw failure;
    throw fileError(flag, path, failure);
  };
  return {
    async write(chunk) {
      raise();
      if (onClose === undefined) partialDirect = true;
      if (!stream.write(chunk)) await drained();
      raise();
    },
    async close() {
      if (stream === process.stdout) {
        partialDirect = false;
        stream.off("error", onError);
        raise();
        return;
      }
      await new Promise((resolve) => stream.end(resolve));
      raise();
      partialDirect = false;
      onClose?.();
    },
    abort() {
      if (stream !== process.stdout) stream.destroy();
      onAbort?.();
    },
  };
}

// A new file beside `target`, opened for writing: a short name of its own
// (a target's name may already be as long as a name can be).
function temporaryBeside(target, given) {
  for (let n = 0; ; n++) {
    const path = join(dirname(target), `.pe-${process.pid}-${n}.partial`);
    try {
      return { path, fd: openSync(path, "wx") };
    } catch (error) {
      if (error.code === "EEXIST") continue;
      if (error.code === "ENOENT")
        throw new FileError(
          `sinusoidal-pe: option -o ${given}: the directory ${dirname(given)} does not exist (ENOENT)`,
        );
      throw fileError("-o", given, error);
    }
  }
}

// How the finished file takes the place of an existing target: renamed over
// it with its mode and owner, or copied into it where a rename would split
// its hard links or could not keep its owner. The new file takes the
// target's mode either way (a copy gives the target its source's mode).
function placement(fd, stat) {
  if (stat === null) return "rename";
  fchmodSync(fd, stat.mode & 0o7777);
  if (stat.nlink > 1) return "copy";
  if (stat.uid !== process.getuid() || stat.gid !== process.getgid())
    try {
      fchownSync(fd, stat.uid, stat.gid);
    } catch {
      return "copy";
    }
  return "rename";
}

// A regular target: a temporary file beside it, put in place at the end.
function writtenInto(target, stat, given) {
  if (stat !== null)
    try {
      accessSync(target, W_OK);
    } catch (error) {
      throw fileError("-o", given, error);
    }
  const { path: temporary, fd } = temporaryBeside(target, given);
  partialFiles.add(temporary);
  let how;
  try {
    how = placement(fd, stat);
  } catch (error) {
    closeSync(fd);
    removePartial(temporary);
    throw error;
  }
  return streamWriter(createWriteStream(temporary, { fd }), {
    flag: "-o",
    path: given,
    onClose() {
      try {
        if (how === "rename") renameSync(temporary, target);
        else {
          copyFileSync(temporary, target);
          removePartial(temporary);
        }
      } catch (error) {
        removePartial(temporary);
        throw fileError("-o", given, error);
      }
      partialFiles.delete(temporary);
    },
    onAbort: () => removePartial(temporary),
  });
}

// A FIFO: opened once a reader has it open (polling, so that a signal ends
// the wait; after a second a notice says what the process waits for), then
// written through the event loop.
async function intoFifo(target, given) {
  for (let waited = 0; ; waited += 50) {
    if (waited === 1000)
      process.stderr.write(
        `sinusoidal-pe: waiting for a reader of the FIFO ${given}\n`,
      );
    try {
      const fd = openSync(target, O_WRONLY | O_NONBLOCK);
      return streamWriter(new Socket({ fd, readable: false, writable: true }), {
        flag: "-o",
        path: given,
      });
    } catch (error) {
      if (error.code !== "ENXIO") throw fileError("-o", given, error);
    }
    await sleep(50);
  }
}

// A device: opened as it is (never created, never truncated) and written
// block by block; a device that is not ready is waited for, never blocked on.
async function intoDevice(target, given) {
  let handle;
  try {
    handle = await open(target, O_WRONLY | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    throw fileError("-o", given, error);
  }
  const fail = (error) => {
    handle.close().catch(() => {});
    throw fileError("-o", given, error);
  };
  return {
    async write(chunk) {
      partialDirect = true;
      let bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      while (bytes.length > 0) {
        let written;
        try {
          ({ bytesWritten: written } = await handle.write(bytes));
        } catch (error) {
          if (error.code !== "EAGAIN") fail(error);
          await sleep(10);
          continue;
        }
        bytes = bytes.subarray(written);
      }
    },
    async close() {
      await handle.close();
      partialDirect = false;
    },
    abort() {
      handle.close().catch(() => {});
    },
  };
}

// The output named by -o (standard output when undefined).
async function output(path) {
  if (path === undefined) return streamWriter(process.stdout, {});
  const { path: target, stat } = targetOf(path);
  if (stat === null || stat.isFile()) return writtenInto(target, stat, path);
  if (stat.isDirectory())
    throw fileError("-o", path, { code: "EISDIR", message: "" });
  if (stat.isFIFO()) return intoFifo(target, path);
  if (stat.isCharacterDevice() || stat.isBlockDevice())
    return intoDevice(target, path);
  throw usage(
    `option -o ${path}: not a file, FIFO or device that can be written`,
  );
}

/**
 * Runs `write(out)` on the output named by -o; a regular file is left as it
 * was if `write` fails.
 */
export async function withOutput(path, write) {
  const out = await output(path);
  try {
    await write(out);
    await out.close();
  } catch (error) {
    out.abort();
    throw error;
  }
}

// What a reader does with its chunks: keeps them all (the bytes are the
// result), or hands each to the caller's sink, which keeps what it needs.
function keeper(sink) {
  if (sink !== undefined) return sink;
  const chunks = [];
  return {
    write: (chunk) => chunks.push(Buffer.from(chunk)),
    end: () => Buffer.concat(chunks),
  };
}

// Reads a pipe or socket through the event loop, up to `limit` bytes.
function readStream(fd, refuse, limit, check, sink) {
  return new Promise((resolve, reject) => {
    const socket = new Socket({ fd, readable: true, writable: false });
    let size = 0;
    socket.on("data", (chunk) => {
      const first = size === 0;
      size += chunk.length;
      try {
        if (size > limit) throw refuse();
        check?.(chunk, first);
        sink.write(chunk, first);
      } catch (error) {
        socket.destroy();
        reject(error);
      }
    });
    socket.on("end", () => {
      try {
        resolve(sink.end());
      } catch (error) {
        reject(error);
      }
    });
    socket.on("error", reject);
  });
}

// Reads a file or device opened non-blocking, up to `limit` bytes, in
// blocks handed to `sink`; a device with nothing yet is waited for, never
// blocked on, and signals are let in between blocks.
async function readHandle(fd, refuse, limit, check, sink) {
  const buffer = Buffer.allocUnsafe(2 ** 20);
  let size = 0;
  for (;;) {
    let count;
    try {
      count = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
      await sleep(10);
      continue;
    }
    if (count === 0) return sink.end();
    const chunk = buffer.subarray(0, count);
    check?.(chunk, size === 0);
    sink.write(chunk, size === 0);
    size += count;
    if (size > limit) throw refuse();
    await new Promise(setImmediate);
  }
}

// Reads a whole file or device as readHandle does, into one buffer sized
// for `expected` bytes (a regular file's size) and grown as needed.
async function readWhole(fd, refuse, limit, check, expected) {
  let buffer = Buffer.allocUnsafe(
    Math.min(Math.max(expected, 2 ** 16), limit) + 1,
  );
  let size = 0;
  for (;;) {
    if (size === buffer.length) {
      if (size > limit) throw refuse();
      const grown = Buffer.allocUnsafe(Math.min(2 * size, limit + 1));
      buffer.copy(grown, 0, 0, size);
      buffer = grown;
    }
    let count;
    try {
      count = readSync(
        fd,
        buffer,
        size,
        Math.min(buffer.length - size, 2 ** 24),
        null,
      );
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
      await sleep(10);
      continue;
    }
    if (count === 0) return buffer.subarray(0, size);
    check?.(buffer.subarray(size, size + count), size === 0);
    size += count;
    if (size > limit) throw refuse();
    await new Promise(setImmediate);
  }
}

/**
 * The bytes of the file the user named with `flag`, of at most `limit`
 * bytes (`what` names the limit in the refusal); a directory is refused. A
 * FIFO is waited on without blocking the process. `check(chunk, first)`, if
 * given, sees each chunk as it comes and may refuse the file early. With a
 * `sink`, each chunk goes to `sink.write(chunk, first)` instead of being
 * kept (a chunk is valid only during the call), and the result is
 * `sink.end()`'s.
 */
export async function readBounded(flag, path, { limit, what, check, sink }) {
  const refuse = () =>
    usage(`option ${flag} ${path}: larger than ${what}; refused`);
  let fd;
  try {
    fd = openSync(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    throw fileError(flag, path, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory())
      throw fileError(flag, path, { code: "EISDIR", message: "" });
    if (stat.isFile() && stat.size > limit) throw refuse();
    if (stat.isFIFO() || stat.isSocket()) {
      // The socket owns the descriptor from here and closes it.
      const owned = fd;
      fd = null;
      return await readStream(owned, refuse, limit, check, keeper(sink));
    }
    if (sink !== undefined)
      return await readHandle(fd, refuse, limit, check, sink);
    return await readWhole(fd, refuse, limit, check, stat.size);
  } catch (error) {
    if (error instanceof Error && error.syscall !== undefined)
      throw fileError(flag, path, error);
    throw error;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
