// The `app` object a section's mount receives: its strings in the current
// language, typeset formulas, charts, downloads, its own parameters in the
// link, and notes. One per mounted section: the plans it makes and the work
// it queues are its own, ended with it by teardown().
import { heatmap } from "./charts/heatmap.js";
import { lineChart } from "./charts/lines.js";
import { theme } from "./charts/canvas.js";
import { composeChart, fileName, savePng } from "./export.js";
import { quoted, strings as pageStrings, translate } from "./i18n.js";
import { displayMath, math } from "./math.js";
import { element } from "./dom.js";

/**
 * Shows `message` in a note of `root` (one per slot); "" removes it. A note
 * placed `first` opens the root (an embedded panel's notes, read before its
 * charts).
 */
export function note(root, message, slot = "section", { first = false } = {}) {
  let node = Array.from(root.children).find(
    (child) => child.classList.contains("note") && child.dataset.slot === slot,
  );
  if (!message) {
    node?.remove();
    return;
  }
  if (!node) {
    node = document.createElement("p");
    node.className = "note";
    node.dataset.slot = slot;
    node.setAttribute("role", "status");
    if (first) root.prepend(node);
    else root.append(node);
  }
  node.textContent = message;
}

/**
 * What a section shows when the shared options are refused by their preset
 * (state.refused): a note after its lead, in the reader's language, and its
 * charts, legends and buttons hidden (the "refused" class), instead of a
 * drawing it cannot make. Returns whether the section stands aside.
 */
export function standAside(root, section, state, lang) {
  const refused = state.refused && !section.presetFree ? state.refused : null;
  root.classList.toggle("refused", Boolean(refused));
  let node = root.querySelector(":scope > .note[data-slot=refused]");
  if (!refused) {
    node?.remove();
    return false;
  }
  if (!node) {
    node = document.createElement("p");
    node.className = "note";
    node.dataset.slot = "refused";
    node.setAttribute("role", "status");
    const lead = root.querySelector(":scope > .lead");
    if (lead) lead.after(node);
    else root.prepend(node);
  }
  node.textContent = translate(pageStrings, lang, "refusedSection", {
    preset: refused.preset,
  });
  return true;
}

/** The note that says why a preset refuses the shared options. */
export function refusalText(refused, lang) {
  const dim = refused.dim;
  return translate(
    pageStrings,
    lang,
    refused.odd ? "presetOddDim" : "presetRefuses",
    { preset: refused.preset, dim, below: dim - 1, above: dim + 1 },
  );
}

/**
 * The section's one download menu, made at its first chart: a folded list
 * of its charts as PNG files, below the charts.
 */
function downloadMenu(root, page) {
  if (root.downloads) return root.downloads;
  const list = element("ul", "download-list");
  const details = element("details", "download-menu", [
    element("summary", "", [page("downloads")]),
    list,
  ]);
  details.dataset.testid = "downloads";
  // Each chart's namer; one that answers false has left the page and is
  // dropped with its button.
  const titles = [];
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    const kept = titles.filter((title) => title() !== false);
    titles.splice(0, titles.length, ...kept);
  });
  // After the charts, before the section's closing parts (its "under the
  // hood" and "embed this"), even for charts made after those.
  const closing = root.querySelector(
    ":scope > .under-hood, :scope > .embed-this",
  );
  root.insertBefore(details, closing);
  root.downloads = { details, list, titles };
  return root.downloads;
}

/**
 * A section's "under the hood" part, folded: which library call produced
 * its numbers, and with what tolerance, for readers who want the details
 * the prose leaves out. Nothing if the section has no such text.
 */
export function underTheHood(root, section, lang) {
  // The download menu, made at the first chart, goes after all of them.
  if (root.downloads) root.append(root.downloads.details);
  const text = translate(section.strings, lang, "hood");
  if (text === "hood") return;
  const details = document.createElement("details");
  details.className = "under-hood";
  details.dataset.testid = `hood-${section.id}`;
  const summary = document.createElement("summary");
  summary.textContent = translate(pageStrings, lang, "hood");
  const body = document.createElement("p");
  body.className = "caption";
  body.textContent = text;
  details.append(summary, body);
  root.append(details);
}

/**
 * The cell a reader points at in one view (a position and a dimension),
 * shown in every other view of the same page; null when none is.
 */
export function pointerChannel() {
  const listeners = [];
  return {
    listen(from, listener) {
      listeners.push({ from, listener });
    },
    point(from, cell) {
      for (const entry of listeners)
        if (entry.from !== from) entry.listener(cell);
    },
  };
}

/**
 * The library as one section calls it: end() disposes every plan made
 * through it that the section has not disposed itself. A plan is as the
 * page's library returns it, a plain object of methods.
 */
function ownPlans(lib) {
  const plans = new Set();
  const owned = Object.fromEntries(
    Object.entries(lib).map(([name, value]) => [
      name,
      typeof value === "function" && name.startsWith("create")
        ? (...args) => {
            const plan = value(...args);
            const own = Object.freeze({
              ...plan,
              dispose() {
                plans.delete(own);
                plan.dispose();
              },
            });
            plans.add(own);
            return own;
          }
        : value,
    ]),
  );
  return {
    lib: Object.freeze(owned),
    end() {
      for (const plan of plans) plan.dispose();
    },
  };
}

/**
 * context: { lib, lang, section, root, params (Map of link entries),
 * known (Set of parameter keys in use), setParam(key, value), state(),
 * pointer (a pointerChannel shared by the page's sections, if any),
 * frames (the page's draw queue), embedded (a panel in another page) }.
 */
export function createApp(context) {
  const { lang, section, root } = context;
  const fullKey = (key) =>
    key.startsWith(`${section.id}.`) ? key : `${section.id}.${key}`;
  const page = (key, vars) => translate(pageStrings, lang, key, vars);
  const plans = ownPlans(context.lib);
  const frames = context.frames.scope();
  return {
    lib: plans.lib,
    lang,
    embedded: Boolean(context.embedded),
    /** The keys of the sources the section's claims come from. */
    cites: section.cites ?? [],
    t: (key, vars) => translate(section.strings, lang, key, vars),
    math,
    displayMath,
    /**
     * The page's draw queue as the section uses it: later(task),
     * cancel(task), add(drawing).
     */
    frames,
    lineChart: (container, spec) => lineChart(container, { ...spec, frames }),
    heatmap: (container, spec) => heatmap(container, { ...spec, frames }),
    /**
     * Ends the section as it leaves the page: the drawings and tasks it
     * queued are dropped, and its plans disposed now rather than whenever
     * they are collected.
     */
    teardown() {
      frames.end();
      plans.end();
    },
    note: (where, message) => note(where, message),
    /** Tells the other views which cell this one points at. */
    point(cell) {
      context.pointer?.point(section.id, cell);
    },
    /** listener(cell) hears the cells the other views point at. */
    onPoint(listener) {
      context.pointer?.listen(section.id, listener);
    },
    /**
     * Adds the chart to the section's one download menu: a PNG of the chart
     * with its title (the figure's caption, else the section's title) and
     * legend. `layout()`, if given, names the arrangement shown in the file
     * name.
     */
    exportable(container, canvas, name, layout) {
      const titleOf = () => {
        const caption = container
          .closest("figure")
          ?.querySelector("figcaption");
        // Without a caption: the section's title and what the chart plots,
        // which tells two captionless charts of one section apart.
        if (!caption) {
          const title = translate(section.strings, lang, "title");
          const what = canvas.getAttribute("aria-label");
          return what ? `${title}: ${what}` : title;
        }
        // The caption's words and formulas as read, without the TeX source
        // that MathML carries in its annotations.
        const copy = caption.cloneNode(true);
        for (const node of copy.querySelectorAll("annotation, button"))
          node.remove();
        return copy.textContent.replace(/\s+/g, " ").trim();
      };
      const button = document.createElement("button");
      button.type = "button";
      button.className = "png-button";
      button.dataset.testid = `png-${name}`;
      button.addEventListener("click", () => {
        const legend = Array.from(
          container.querySelectorAll(".legend li"),
          (item) => {
            const swatch = item.querySelector(".swatch");
            return {
              label: item.textContent,
              colour: getComputedStyle(swatch).borderTopColor,
              dashed: swatch.classList.contains("dashed"),
            };
          },
        );
        const title = titleOf();
        button.dataset.title = title;
        const composed = composeChart(canvas, {
          title,
          legend,
          colours: theme(canvas),
        });
        const state = context.state();
        savePng(composed, fileName(state, name, layout?.() ?? state.layout));
      });
      const menu = downloadMenu(root, page);
      const item = element("li", "", [button]);
      menu.list.append(item);
      // Named when the menu opens: captions can change with the state. A
      // chart that was replaced leaves the menu; one hidden (a dimension
      // past dim) is not offered.
      menu.titles.push(() => {
        if (!canvas.isConnected) {
          item.remove();
          return false;
        }
        item.hidden = canvas.getClientRects().length === 0;
        button.textContent = page("pngOf", { title: titleOf() });
      });
      return button;
    },
    param(key, fallback, parse) {
      const name = fullKey(key);
      // The panel table documents a section's parameters from its
      // declaration: one it does not declare is a mistake of the page.
      const own = name.slice(section.id.length + 1);
      if (!Object.hasOwn(section.panel.attributes, own))
        throw new Error(
          `${section.id} reads "${own}", not in its panel.attributes`,
        );
      context.known.add(name);
      if (!context.params.has(name)) return fallback;
      const text = context.params.get(name);
      const value = parse(text);
      if (value !== undefined) return value;
      context.params.delete(name);
      // A panel's parameters are its attributes, named without the section.
      const message = context.embedded
        ? page("attrInvalid", {
            name: name.slice(section.id.length + 1),
            value: quoted(text),
            used: fallback,
          })
        : page("badHash", { name, value: quoted(text), used: fallback });
      note(root, message, `param-${name}`, { first: context.embedded });
      return fallback;
    },
    setParam(key, value) {
      context.setParam(fullKey(key), String(value));
    },
  };
}
