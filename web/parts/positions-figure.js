// Where positions enter a Transformer, as two layer stacks side by side:
// the sinusoidal table added once to the token embeddings at the bottom,
// against RoPE turning q and k inside every attention layer. Each part
// links to the section that explains it (plain text in a lone panel, which
// has no such sections).
import { element } from "../dom.js";

// The layers drawn before the ellipsis and the last one: few, so that the
// stacks stay short on a phone.
const LAYERS = 1;

/**
 * The figure. t(key, vars) gives its words (the section's fig… strings);
 * `linked` whether its parts link to the page's sections.
 */
export function positionsFigure(t, linked) {
  const part = (text, section, className) => {
    const inner =
      linked && section
        ? element("a", { href: `#${section}`, text })
        : document.createTextNode(text);
    return element("div", { className: `stack-part ${className}` }, [inner]);
  };
  // A stack drawn bottom up: its input, then each layer, then the output.
  const stack = (kind, input, attention) => {
    const layers = [];
    for (let n = 1; n <= LAYERS; n++)
      layers.push(layer(t("figLayer", { n }), attention));
    layers.push(element("div", { className: "stack-more", text: "⋮" }));
    layers.push(layer(t("figLastLayer"), attention));
    return element(
      "div",
      { className: `stack stack-${kind}`, testid: `stack-${kind}` },
      [
        element("div", { className: "stack-title", text: t(`fig-${kind}`) }),
        element("div", { className: "stack-body" }, [
          element("div", { className: "stack-part stack-output" }, [
            t("figOutput"),
          ]),
          ...layers.reverse(),
          ...input,
        ]),
      ],
    );
  };
  const layer = (name, attention) =>
    // Bottom up, as the style sheet lays it out: attention, then the MLP,
    // the layer's name on top.
    element("div", { className: "stack-layer" }, [
      attention(),
      element("div", { className: "stack-part", text: t("figMlp") }),
      element("div", { className: "stack-layer-name", text: name }),
    ]);
  const added = stack(
    "added",
    [
      part(t("figAddOnce"), "table", "stack-position"),
      element("div", { className: "stack-part", text: t("figTokens") }),
    ],
    () => part(t("figAttentionPlain"), "crossterms", "stack-attention"),
  );
  const rotated = stack(
    "rope",
    [element("div", { className: "stack-part", text: t("figTokens") })],
    () => part(t("figAttentionRope"), "rope", "stack-attention stack-position"),
  );
  return element(
    "figure",
    {
      className: "positions-figure",
      testid: "where-positions-enter",
    },
    [
      element("div", { className: "stack-pair" }, [added, rotated]),
      element("figcaption", { className: "caption", text: t("figCaption") }),
    ],
  );
}
