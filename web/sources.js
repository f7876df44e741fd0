// The sources the page follows, and the posts that explain the subject
// best, each with what a reader finds there. Titles stay in their own
// language; the notes are translated.
import { element } from "./dom.js";

export const PAPERS = [
  {
    key: "vaswani2017",
    short: "Vaswani et al. 2017",
    cite: "Vaswani et al. 2017. Attention Is All You Need.",
    url: "https://arxiv.org/abs/1706.03762",
    en: "The Transformer and its sinusoidal encoding (section 3.5).",
    zh: "Transformer 及其正弦位置编码（第 3.5 节）。",
  },
  {
    key: "shaw2018",
    short: "Shaw et al. 2018",
    cite: "Shaw, Uszkoreit and Vaswani 2018. Self-Attention with Relative Position Representations.",
    url: "https://arxiv.org/abs/1803.02155",
    en: "Relative positions given to attention itself, instead of added to the input.",
    zh: "把相对位置直接交给注意力，而不是加到输入上。",
  },
  {
    key: "su2021",
    short: "Su et al. 2021",
    cite: "Su et al. 2021. RoFormer: Enhanced Transformer with Rotary Position Embedding.",
    url: "https://arxiv.org/abs/2104.09864",
    en: "RoPE: the same rotations applied to queries and keys.",
    zh: "RoPE：把同样的旋转作用在查询和键上。",
  },
  {
    key: "chen2023",
    short: "Chen et al. 2023",
    cite: "Chen et al. 2023. Extending Context Window of Large Language Models via Positional Interpolation.",
    url: "https://arxiv.org/abs/2306.15595",
    en: "Position Interpolation: every frequency divided by the same factor (the linear schedule).",
    zh: "位置插值：所有频率除以同一个因子（线性缩放）。",
  },
  {
    key: "bloc97-2023",
    short: "bloc97 2023",
    cite: "bloc97 2023. NTK-Aware Scaled RoPE allows LLaMA models to have extended (8k+) context size without any fine-tuning.",
    url: "https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/ntkaware_scaled_rope_allows_llama_models_to_have/",
    en: "NTK-aware scaling: a larger base instead of divided frequencies, so the fast pairs barely change.",
    zh: "NTK-aware 缩放：不去除频率，而是增大底数，让转得快的对几乎不变。",
  },
  {
    key: "emozilla2023",
    short: "emozilla 2023",
    cite: "emozilla 2023. Dynamically Scaled RoPE further increases performance of long context LLaMA with zero fine-tuning.",
    url: "https://www.reddit.com/r/LocalLLaMA/comments/14mrgpr/dynamically_scaled_rope_further_increases/",
    en: "Dynamic NTK: the base raised more as the sequence grows (the dynamic schedule).",
    zh: "动态 NTK：序列越长，底数增得越多（动态缩放）。",
  },
  {
    key: "peng2023",
    short: "Peng et al. 2023",
    cite: "Peng et al. 2023. YaRN: Efficient Context Window Extension of Large Language Models.",
    url: "https://arxiv.org/abs/2309.00071",
    en: "Stretching RoPE's slow pairs to reach longer contexts.",
    zh: "拉伸 RoPE 中转得慢的那些对，以处理更长的上下文。",
  },
  {
    key: "llama2024",
    short: "Llama Team 2024",
    cite: "Llama Team, AI @ Meta 2024. The Llama 3 Herd of Models.",
    url: "https://arxiv.org/abs/2407.21783",
    en: "The frequency scaling behind Llama 3.1's 128K context.",
    zh: "Llama 3.1 达到 128K 上下文所用的频率缩放。",
  },
];

export const POSTS = [
  {
    cite: "Amirhossein Kazemnejad 2019. Transformer Architecture: The Positional Encoding.",
    url: "https://kazemnejad.com/blog/transformer_architecture_positional_encoding/",
    en: "The binary-counter intuition and the rotation proof, worked by hand.",
    zh: "二进制计数器的直觉和旋转关系的推导，一步步手算。",
  },
  {
    cite: "Christopher Fleetwood 2024. You could have designed state of the art positional encoding.",
    url: "https://huggingface.co/blog/designing-positional-encoding",
    en: "From integer positions to RoPE, one requirement at a time.",
    zh: "从整数位置一路推到 RoPE，每一步满足一条要求。",
  },
  {
    cite: "Biderman et al. (EleutherAI) 2021. Rotary Embeddings: A Relative Revolution.",
    url: "https://blog.eleuther.ai/rotary-embeddings/",
    en: "Why rotating queries and keys makes attention relative, with experiments.",
    zh: "为什么旋转查询和键能让注意力只看相对位置，并附实验。",
  },
];

/** The sources as a section of the page, in `lang`. */
export function sourcesSection(t, lang) {
  const list = (items) =>
    element(
      "ul",
      "sources",
      items.map((item) => {
        const link = element("a", { href: item.url, text: item.cite });
        link.rel = "noopener";
        const entry = element("li", "", [link, " ", item[lang] ?? item.en]);
        if (item.key) entry.id = `source-${item.key}`;
        return entry;
      }),
    );
  const section = element("section", "pe-section", [
    element("h2", "", [t("sources")]),
    element("h3", "", [t("papers")]),
    list(PAPERS),
    element("h3", "", [t("posts")]),
    list(POSTS),
  ]);
  section.id = "sources";
  section.dataset.testid = "sources";
  return section;
}

/**
 * A section's citations, for the end of its lead: "(Vaswani et al. 2017;
 * Su et al. 2021)", each linking to its entry in the page's sources, or in
 * a lone panel, which has none, to the paper itself.
 */
export function citations(keys, embedded) {
  const links = keys.map((key) => {
    const paper = PAPERS.find((p) => p.key === key);
    if (!paper) throw new Error(`no source "${key}"`);
    const link = element("a", {
      className: "cite",
      href: embedded ? paper.url : `#source-${key}`,
      text: paper.short,
    });
    if (embedded) link.rel = "noopener";
    return link;
  });
  const parts = links.flatMap((link, i) => (i ? ["; ", link] : [link]));
  return element("span", { className: "citations" }, [" (", ...parts, ")"]);
}
