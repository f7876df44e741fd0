// One script tag puts any panel of the page into another page: custom
// elements <pe-heatmap>, <pe-curves>, <pe-relation>, <pe-dot>, <pe-rope>,
// <pe-decay>, <pe-precision>, configured by the shared controls' attributes
// (dim, positions, base, layout, preset, start), lang, theme (light, dark or
// auto) and compact (the charts without the prose). A panel adds no heading:
// the host page's own introduces it. The style sheet is loaded from beside
// this script.
import * as lib from "sinusoidal-pe";
import { createApp, note } from "./app.js";
import { fitFormulas } from "./math.js";
import {
  browserLanguage,
  LANGUAGES,
  quoted,
  strings,
  translate,
} from "./i18n.js";
import { sections } from "./sections/index.js";
import { CONTROLS, readControl, withOptions } from "./state.js";
import { drawQueue } from "./draw-queue.js";

const script = document.currentScript;
const ready = lib.init();

function addStyleSheet() {
  if (!script?.src) return;
  const href = new URL("style.css", script.src).href;
  const sheets = document.querySelectorAll("link[rel=stylesheet]");
  if (Array.from(sheets).some((link) => link.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

const THEMES = ["light", "dark", "auto"];
const ATTRIBUTES = [...Object.keys(CONTROLS), "lang", "theme", "compact"];
const darkScheme = matchMedia("(prefers-color-scheme: dark)");

const attributeMessage = {
  clamped: "attrOutside",
  rounded: "attrRounded",
  invalid: "attrInvalid",
};

/**
 * The panel's state from its attributes, with a note for every attribute
 * that cannot be used as written: a value outside the limits or not a
 * number gives way to the default, a fraction where a whole number is
 * needed is rounded.
 */
function readAttributes(element) {
  const messages = [];
  const langAttribute = element.getAttribute("lang");
  let lang = browserLanguage();
  if (langAttribute !== null) {
    if (LANGUAGES.includes(langAttribute)) lang = langAttribute;
    else
      messages.push(["attrLang", { value: quoted(langAttribute), used: lang }]);
  }
  const values = {};
  for (const [key, control] of Object.entries(CONTROLS)) {
    const text = element.getAttribute(key);
    values[key] = control.fallback;
    if (text === null) continue;
    const read = readControl(key, text);
    const used = read.problem === "rounded" ? read.value : control.fallback;
    if (!read.problem) values[key] = read.value;
    else {
      values[key] = used;
      messages.push([
        attributeMessage[read.problem],
        {
          name: key,
          value: quoted(text),
          min: control.min ?? "",
          max: control.max ?? "",
          used,
        },
      ]);
    }
  }
  const themeText = element.getAttribute("theme");
  let theme = "light";
  if (themeText !== null) {
    if (THEMES.includes(themeText)) theme = themeText;
    else
      messages.push(["attrTheme", { value: quoted(themeText), used: theme }]);
  }
  return { lang, values, theme, messages };
}

// One queue for every panel of the host page: panels are drawn a frame's
// budget at a time, those on screen first, a large one in steps, so that a
// page of many panels never stalls; a panel queued again drops the steps
// left of its older state.
const queue = drawQueue();

class Panel extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  connectedCallback() {
    ready.then(() => this.isConnected && this.schedule());
  }

  disconnectedCallback() {
    if (this.drawing) queue.remove(this.drawing);
  }

  // Changes are drawn with the attributes as they are when the panel's turn
  // comes: ten attributes set at once draw once.
  attributeChangedCallback() {
    if (this.isConnected && this.mounted) this.schedule();
  }

  schedule() {
    this.dataset.ready = "false";
    this.drawing ??= {
      id: this.localName,
      root: this,
      steps: () => this.steps(),
      done: (error) => this.done(error),
    };
    queue.add(this.drawing);
  }

  /** The panel's drawing: attributes read, a mount if needed, the update. */
  *steps() {
    const { lang, values, theme, messages } = readAttributes(this);
    const dark = theme === "dark" || (theme === "auto" && darkScheme.matches);
    this.classList.add("pe-embed");
    this.classList.toggle("pe-dark", dark);
    this.dataset.theme = theme;
    const state = withOptions(values, lang);
    // A new language needs new text everywhere; anything else is an update.
    if (!this.mounted || this.mounted.lang !== lang) {
      this.mount(lang, state);
      yield;
    }
    const { root, view } = this.mounted;
    note(
      root,
      messages
        .map(([key, vars]) => translate(strings, lang, key, vars))
        .join(" "),
      "attributes",
    );
    this.mounted.state = state;
    const steps = view.update(state);
    if (typeof steps?.next === "function") yield* steps;
  }

  done(error) {
    if (this.mounted)
      note(
        this.mounted.root,
        error
          ? translate(strings, this.mounted.lang, "failed", {
              message: error.message,
            })
          : "",
        "failed",
      );
    this.dataset.renders = String(Number(this.dataset.renders ?? 0) + 1);
    this.dataset.ready = "true";
  }

  mount(lang, state) {
    const root = document.createElement("section");
    root.className = "pe-section";
    this.replaceChildren(root);
    const mounted = { lang, root, state, view: null };
    const app = createApp({
      lib,
      lang,
      section: this.constructor.section,
      root,
      params: new Map(),
      known: new Set(),
      setParam() {},
      state: () => mounted.state,
      embedded: true,
    });
    mounted.view = this.constructor.section.mount(root, app);
    this.formulas?.disconnect();
    this.formulas = fitFormulas(root, translate(strings, lang, "wideFormula"));
    this.mounted = mounted;
    if (!Panel.watching) {
      Panel.watching = true;
      darkScheme.addEventListener("change", () => {
        for (const panel of document.querySelectorAll(
          ".pe-embed[data-theme=auto]",
        ))
          panel.schedule?.();
      });
    }
  }
}

addStyleSheet();
for (const section of sections) {
  const name = section.id === "table" ? "pe-heatmap" : `pe-${section.id}`;
  customElements.define(
    name,
    class extends Panel {
      static section = section;
    },
  );
}
