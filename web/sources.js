// The sources the page follows, and the posts that explain the subject
// best, each with what a reader finds there. Titles stay in their own
// language; the notes are translated.
import { element } from "./dom.js";

export const PAPERS = [
  {
    cite: "Vaswani et al. 2017. Attention Is All You Need.",
    url: "https://arxiv.org/abs/1706.03762",
    en: "The Transformer and its sinusoidal encoding (section 3.5).",
    zh: "Transformer 及其正弦位置编码（第 3.5 节）。",
  },
  {
    cite: "Su et al. 2021. RoFormer: Enhanced Transformer with Rotary Position Embedding.",
    url: "https://arxiv.org/abs/2104.09864",
    en: "RoPE: the same rotations applied to queries and keys.",
    zh: "RoPE：把同样的旋转作用在查询和键上。",
  },
  {
    cite: "Peng et al. 2023. YaRN: Efficient Context Window Extension of Large Language Models.",
    url: "https://arxiv.org/abs/2309.00071",
    en: "Stretching RoPE's slow pairs to reach longer contexts.",
    zh: "拉伸 RoPE 中转得慢的那些对，以处理更长的上下文。",
  },
  {
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
        return element("li", "", [link, " ", item[lang] ?? item.en]);
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
