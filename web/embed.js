// One script tag puts any panel of the page into another page: custom
// elements <pe-heatmap>, <pe-curves>, <pe-relation>, <pe-dot>, <pe-rope>,
// <pe-decay>, <pe-precision>, configured by the shared controls' attributes
// (dim, positions, base, layout, preset, start) and lang. The style sheet is
// loaded from beside this script.
import * as lib from "sinusoidal-pe";
import { createApp, note } from "./app.js";
import {
  browserLanguage,
  LANGUAGES,
  quoted,
  strings,
  translate,
} from "./i18n.js";
import { sections } from "./sections/index.js";
import { CONTROLS, readControl, withOptions } from "./state.js";

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

const ATTRIBUTES = [...Object.keys(CONTROLS), "lang"];

class Panel extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  connectedCallback() {
    ready.then(() => this.render());
  }

  attributeChangedCallback() {
    if (this.isConnected && this.view) this.render();
  }

  render() {
    const langAttribute = this.getAttribute("lang");
    const lang = LANGUAGES.includes(langAttribute)
      ? langAttribute
      : browserLanguage();
    const values = {};
    const messages = [];
    for (const [key, control] of Object.entries(CONTROLS)) {
      const text = this.getAttribute(key);
      if (text === null) {
        values[key] = control.fallback;
        continue;
      }
      const read = readControl(key, text);
      values[key] = read.value;
      if (read.problem)
        messages.push(
          translate(strings, lang, "badHash", {
            name: key,
            value: quoted(text),
            used: read.value,
          }),
        );
    }
    const state = withOptions(values, lang);
    const root = document.createElement("section");
    root.className = "pe-section";
    this.classList.add("pe-embed");
    this.replaceChildren(root);
    const app = createApp({
      lib,
      lang,
      section: this.constructor.section,
      root,
      params: new Map(),
      known: new Set(),
      setParam() {},
      state: () => state,
    });
    this.view = this.constructor.section.mount(root, app);
    if (messages.length) note(root, messages.join(" "), "attributes");
    requestAnimationFrame(() => {
      try {
        this.view.update(state);
      } catch (error) {
        note(
          root,
          translate(strings, lang, "failed", { message: error.message }),
          "failed",
        );
      }
      this.dataset.ready = "true";
    });
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
