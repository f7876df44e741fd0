// --positions-file: a 1-D .npy, or text with one number a line, or M-RoPE's
// three streams as three numbers a line (t h w). Text is parsed as it is
// read, line by line, into float64 arrays: memory follows the positions,
// not the text. Text never holds a NUL byte, so a stream of them is
// refused at its first block.
import { fromNpy } from "../npy.js";
import { clip } from "../options.js";
import { readBounded } from "./files.js";
import { usage, value } from "./flags.js";

// 2 GiB of positions is 2^28 float64 values (or short lines of text), half
// of what the module's 4 GiB could hold in one call and far beyond any
// model's context.
const POSITIONS_BYTES = 2 ** 31;
// A line of positions is a few numbers: one longer is no positions file.
const MAX_LINE = 4096;

// A float64 list that grows by doubling: at most twice its values' bytes.
class Values {
  data = new Float64Array(1024);
  length = 0;
  push(v) {
    if (this.length === this.data.length) {
      const grown = new Float64Array(2 * this.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
  result() {
    return this.data.slice(0, this.length);
  }
}

// The text form: lines parsed as they complete; the first decides the
// columns (three for t h w, else one).
function textSink(path) {
  const decoder = new TextDecoder();
  const streams = [new Values(), new Values(), new Values()];
  let columns = 0;
  let rest = "";
  let number = 0;
  const refuse = (line, what) =>
    usage(
      `option --positions-file ${path}: line ${number} must be ${what}, got ${JSON.stringify(clip(line))}`,
    );
  const parse = (raw) => {
    number++;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const entries = line.trim().split(/[\s,]+/);
    if (columns === 0) columns = entries.length === 3 ? 3 : 1;
    const what =
      columns === 3 ? "three finite numbers (t h w)" : "a finite number";
    if (entries.length !== columns) throw refuse(line, what);
    for (let k = 0; k < columns; k++) {
      const v = value(entries[k]);
      if (typeof v !== "number" || !Number.isFinite(v))
        throw refuse(line, what);
      streams[k].push(v);
    }
  };
  return {
    write(chunk) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split(
        "\n",
      );
      rest = lines.pop();
      for (const line of lines) parse(line);
      if (rest.length > MAX_LINE)
        throw usage(
          `option --positions-file ${path}: line ${number + 1} is longer than ${MAX_LINE} characters`,
        );
    },
    end() {
      rest += decoder.decode();
      // A last line of nothing but spaces ends the file, as a newline does.
      if (rest.trim() !== "") parse(rest);
      if (columns !== 3) return streams[0].result();
      const [t, h, w] = streams.map((s) => s.result());
      return { t, h, w };
    },
  };
}

// The .npy form: its bytes kept whole (8 a position), then read.
function npySink(path) {
  const chunks = [];
  return {
    write: (chunk) => chunks.push(Buffer.from(chunk)),
    end() {
      const values = fromNpy(
        Buffer.concat(chunks),
        `option --positions-file ${path}`,
      );
      values.forEach((v, i) => {
        if (!Number.isFinite(v))
          throw usage(
            `option --positions-file ${path}: value ${i} must be finite, got ${v}`,
          );
      });
      return values;
    },
  };
}

/** The positions of --positions-file: a Float64Array, or { t, h, w } streams. */
export async function positionsFile(path) {
  let npy = false;
  let form = null;
  return readBounded("--positions-file", path, {
    limit: POSITIONS_BYTES,
    what: "2 GiB",
    check(chunk, first) {
      if (first) npy = chunk[0] === 0x93;
      if (!npy && chunk.includes(0))
        throw usage(
          `option --positions-file ${path}: neither a .npy file nor text (it holds NUL bytes)`,
        );
    },
    sink: {
      write(chunk) {
        form ??= npy ? npySink(path) : textSink(path);
        form.write(chunk);
      },
      end: () => (form ?? textSink(path)).end(),
    },
  });
}
