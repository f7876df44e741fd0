// docs/models.md's census section, rendered from src/models.js: `node
// tests/census/render.js` rewrites it, and census.test.js fails when the
// page and the table differ.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MODELS, SOURCES } from "../../src/models.js";

const START = "<!-- census: rendered from src/models.js -->";
const END = "<!-- census: end -->";

const kindOf = (m) =>
  m.none !== undefined
    ? "none"
    : m.vision !== undefined
      ? "vision"
      : m.text !== undefined
        ? "wrapper"
        : "rope";

const cell = (text) =>
  String(text).replaceAll("|", "\\|").replaceAll("\n", " ");

function rotation(m) {
  const kind = kindOf(m);
  if (kind === "none") return `none: ${m.none}`;
  if (kind === "vision") return `vision only: ${m.vision}`;
  if (kind === "wrapper") return `its text model's: \`${m.text}\``;
  const pairs = m.interleaveFlag
    ? `interleaved while \`${m.interleaveFlag[0]}\` (default ${m.interleaveFlag[1]}), else halves`
    : (m.pairing ?? "halves");
  return m.mrope === undefined
    ? pairs
    : `${pairs}; M-RoPE ${m.mrope === "interleaved" ? "interleaved (Qwen3-VL)" : "in sections (Qwen2-VL)"}`;
}

function defaults(m) {
  if (kindOf(m) !== "rope") return "";
  const parts = [`θ ${m.theta ?? 10000}`];
  if (m.headDim !== undefined) parts.push(`head_dim ${m.headDim}`);
  if (m.partial !== undefined) parts.push(`partial ${m.partial}`);
  if (m.rotaryDim !== undefined) parts.push(`rotary_dim ${m.rotaryDim}`);
  if (m.originalMax !== undefined)
    parts.push(`original_max_position_embeddings ${m.originalMax}`);
  return parts.join(", ");
}

/** The census section of docs/models.md. */
export function renderCensus() {
  const types = Object.keys(MODELS).sort();
  const kinds = { rope: 0, wrapper: 0, vision: 0, none: 0 };
  let adjacent = 0;
  for (const type of types) {
    const m = MODELS[type];
    kinds[kindOf(m)]++;
    if (m.pairing === "interleaved" || m.interleaveFlag) adjacent++;
  }
  const lines = [
    START,
    "",
    `${types.length} model types: ${kinds.rope} rotate token positions (${adjacent} of them adjacent pairs), ` +
      `${kinds.wrapper} keep RoPE in a text model, ${kinds.vision} rotate image or video patches only, ` +
      `${kinds.none} have no RoPE. Read from ${SOURCES.repository}, ${SOURCES.where}.`,
    "",
    "| model type | rotation | class defaults | head dim · rotated part | layers | read from |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const type of types) {
    const m = MODELS[type];
    const s = SOURCES.models[type] ?? {};
    const read =
      s.modeling === undefined
        ? (s.read ?? "")
        : `\`${s.dir ?? type}\` ${s.modeling}${s.v5 === false ? " (pre-v5)" : ""}`;
    lines.push(
      `| \`${type}\` | ${cell(rotation(m))} | ${cell(defaults(m))} | ${cell(s.dims ?? "")} | ${cell(s.layers ?? "")} | ${cell(read)} |`,
    );
  }
  lines.push("", END);
  return lines.join("\n");
}

const page = fileURLToPath(new URL("../../docs/models.md", import.meta.url));

/** docs/models.md with its census section replaced by `section`. */
export function withCensus(text, section) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start)
    throw new Error("docs/models.md has no census markers");
  return text.slice(0, start) + section + text.slice(end + END.length);
}

export const readPage = () => readFileSync(page, "utf8");

if (process.argv[1] === fileURLToPath(import.meta.url))
  writeFileSync(page, withCensus(readPage(), renderCensus()));
