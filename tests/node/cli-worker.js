// The command line run in a worker thread of this process: the built
// dist/cli.js with its own argv, standard output and error and exit status,
// as a child process runs it, without a process's start-up per case. What
// is the process itself (signals, a terminal, standard input, pipes that
// close, the working directory) is tested with child processes.
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

/**
 * Runs `sinusoidal-pe ...args`. Resolves to { status, stdout, stderr }:
 * strings in `encoding`, Buffers for "buffer". As spawnSync does, a run
 * past `timeout` ms or writing more than `maxBuffer` bytes to standard
 * output is stopped, with status null.
 */
export function runCli(
  args,
  { encoding = "utf8", timeout = 20000, maxBuffer = 1 << 28 } = {},
) {
  return new Promise((resolve) => {
    const worker = new Worker(cli, { argv: args, stdout: true, stderr: true });
    const stdout = [];
    const stderr = [];
    let written = 0;
    let stopped = false;
    const stop = () => {
      stopped = true;
      worker.terminate();
    };
    const timer = setTimeout(stop, timeout);
    worker.stdout.on("data", (chunk) => {
      stdout.push(chunk);
      written += chunk.length;
      if (written > maxBuffer) stop();
    });
    worker.stderr.on("data", (chunk) => stderr.push(chunk));
    // An uncaught error ends a process with its stack and status 1.
    worker.on("error", (error) => stderr.push(Buffer.from(`${error.stack}\n`)));
    worker.on("exit", (code) => {
      clearTimeout(timer);
      const text = (chunks) => {
        const bytes = Buffer.concat(chunks);
        return encoding === "buffer" ? bytes : bytes.toString(encoding);
      };
      resolve({
        status: stopped ? null : code,
        stdout: text(stdout),
        stderr: text(stderr),
      });
    });
  });
}
