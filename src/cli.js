#!/usr/bin/env node
// `npx sinusoidal-pe`: tables, RoPE caches, decay integrals and relation
// checks from the command line, written as .npy, raw float32, CSV or JSON.
// Every option is checked by the library itself (on small probes that
// compute nothing large) before any file is opened; tables are then
// generated and written in row blocks, so their size is bounded by the disk,
// not by memory. cli/flags.js reads the flags, cli/commands.js runs the
// commands, cli/files.js owns the files written and read and the signals,
// cli/messages.js puts the library's refusals in terms of flags.
import { version } from "../package.json";
import { COMMANDS } from "./cli/commands.js";
import { FileError, exitOnSignals } from "./cli/files.js";
import {
  COMMAND_KEYS,
  HELP,
  UsageError,
  camel,
  parse,
  usage,
} from "./cli/flags.js";
import { Names, describe, isLibraryRefusal } from "./cli/messages.js";
import { init } from "./slim-node.js";

export async function main(argv) {
  const names = new Names();
  try {
    const request = parse(argv);
    for (const key of COMMAND_KEYS[request.command] ?? [])
      names.commandFlag(camel(key), key);
    if (request.version) {
      process.stdout.write(`${version}\n`);
      return 0;
    }
    if (request.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (request.binaryToTerminal && process.stdout.isTTY)
      throw usage(
        `--format ${request.format} is binary and standard output is a terminal: give -o FILE, or -o - to write it there anyway`,
      );
    await init();
    await COMMANDS[request.command](request, names);
    return 0;
  } catch (error) {
    // A reader that stopped reading (`| head`) has all it wanted.
    if (error?.code === "EPIPE") return 0;
    if (error instanceof UsageError) {
      // No arguments at all: the help, as a usage error.
      const more = error.isHelp ? "" : `\n${HELP_HINT}`;
      process.stderr.write(`${error.message}${more}`);
      return 2;
    }
    if (isLibraryRefusal(error)) {
      process.stderr.write(`${describe(error, names)}\n${HELP_HINT}`);
      return 2;
    }
    if (error instanceof FileError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    // Standard output that cannot be written: the system's message.
    if (error?.syscall === undefined) throw error;
    process.stderr.write(`sinusoidal-pe: standard output: ${error.message}\n`);
    return 1;
  }
}

const HELP_HINT = `Run "sinusoidal-pe --help" for the options.\n`;

exitOnSignals();
process.exitCode = await main(process.argv.slice(2));
