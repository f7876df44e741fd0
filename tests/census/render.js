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
    : m.elsewhere !== undefined
      ? "elsewhere"
      : m.text !== undefined || m.nested !== undefined
        ? "wrapper"
        : "rope";

const cell = (text) =>
  String(text).replaceAll("|", "\\|").replaceAll("\n", " ");

function rotation(m) {
  const kind = kindOf(m);
  if (kind === "none") return `none: ${m.none}`;
  if (kind === "elsewhere") return `not on tokens: ${m.elsewhere}`;
  if (m.nested !== undefined) return `its language model's, in \`${m.nested}\``;
  if (kind === "wrapper") return `its text model's: \`${m.text}\``;
  let pairs = m.interleaveFlag
    ? `adjacent pairs while \`${m.interleaveFlag[0]}\` (default ${m.interleaveFlag[1]}), else halves`
    : m.pairing === "interleaved"
      ? "adjacent pairs"
      : "halves";
  if (m.reversed) pairs += ", turned by −θ";
  if (m.ropeWhen !== undefined)
    pairs += `, only while \`${m.ropeWhen[0]}\` is ${JSON.stringify(m.ropeWhen[1])}`;
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

// The head dim and the rotated part, in the fields fromConfig reads.
function dims(m) {
  if (kindOf(m) !== "rope") return "";
  const head = `${m.headDimField ?? "head_dim"}, else ${m.headDim !== undefined ? m.headDim : "hidden_size / num_attention_heads"}`;
  const part =
    m.rotaryDim !== undefined
      ? "first rotary_dim"
      : m.partial !== undefined
        ? "first int(d · partial_rotary_factor)"
        : "all (or int(d · partial_rotary_factor))";
  return `${head} · ${part}`;
}

/** The census section of docs/models.md. */
export function renderCensus() {
  const types = Object.keys(MODELS).sort();
  const kinds = { rope: 0, wrapper: 0, elsewhere: 0, none: 0 };
  let adjacent = 0;
  let v5 = 0;
  let earlier = 0;
  for (const type of types) {
    const m = MODELS[type];
    kinds[kindOf(m)]++;
    if (m.pairing === "interleaved" || m.interleaveFlag) adjacent++;
    const read = SOURCES.models[type]?.v5;
    if (read === true) v5++;
    if (read === false) earlier++;
  }
  const lines = [
    START,
    "",
    `${types.length} model types: ${kinds.rope} rotate token positions (${adjacent} of them adjacent pairs), ` +
      `${kinds.wrapper} keep RoPE in a language model of theirs, ${kinds.elsewhere} rotate image, video or audio frames only, ` +
      `${kinds.none} have no RoPE. Read from ${SOURCES.repository}, ${SOURCES.where}: ` +
      `${v5} rows from a v5 version of the files, ${earlier} from an earlier version only (the rotation code ` +
      `is the same; the class defaults are v5's where its configuration was read), ` +
      `${types.length - v5 - earlier} known before the census and not read again.`,
    "",
    "| model type | rotation | class defaults | head dim · rotated part | layers | note | read from |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const type of types) {
    const m = MODELS[type];
    const s = SOURCES.models[type] ?? {};
    const read =
      s.modeling === undefined && s.configuration === undefined
        ? (s.read ?? "")
        : [
            s.modeling && `modeling ${s.modeling}`,
            s.configuration && `configuration ${s.configuration}`,
          ]
            .filter(Boolean)
            .join(", ") +
          ` (\`${s.dir ?? type}\`${s.v5 === false ? ", before v5" : ""})`;
    lines.push(
      `| \`${type}\` | ${cell(rotation(m))} | ${cell(defaults(m))} | ${cell(dims(m))} | ${cell(s.layers ?? "")} | ${cell(s.note ?? "")} | ${cell(read)} |`,
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
