// The package as users get it: `npm pack` of the built repository, installed
// from the tarball into a scratch project with no network.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const bin = (name) => join(root, "node_modules/.bin", name);

/** The page's package as `make page-package` assembles it. */
export const pageRoot = join(root, "dist/page");

/**
 * Packs the repository (or `dir`); returns the tarball's path and npm's
 * report.
 */
export function pack(dir = root) {
  const into = mkdtempSync(join(tmpdir(), "pe-pack-"));
  const [report] = JSON.parse(
    execFileSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", into],
      { cwd: dir, stdio: ["ignore", "pipe", "ignore"] },
    ).toString(),
  );
  return { tarball: join(into, report.filename), report };
}

/**
 * A scratch project with the packed tarball installed (from the file only:
 * the package has no dependencies, so npm needs no registry): the
 * library's, or with `from` the one packed there (pageRoot).
 */
export function installPacked(manifest = { type: "module" }, from = root) {
  const { tarball, report } = pack(from);
  const dir = mkdtempSync(join(tmpdir(), "pe-project-"));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "pe-consumer", private: true, ...manifest }),
  );
  execFileSync(
    "npm",
    [
      "install",
      "--offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      tarball,
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
  );
  return {
    dir,
    tarball,
    report,
    installed: join(dir, "node_modules", report.name),
  };
}

/** Runs a command; a failure's message carries its output. */
export function run(command, args, options = {}) {
  try {
    return execFileSync(command, args, {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 1 << 28,
      ...options,
    });
  } catch (error) {
    error.message += `\n${error.stdout ?? ""}${error.stderr ?? ""}`;
    throw error;
  }
}
