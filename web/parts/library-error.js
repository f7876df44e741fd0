// A library error said in the reader's language: the library's errors are
// data (`error.option`, the option's path; `error.code`, the rule it
// breaks, one of the library's `errorCodes`), so the page names the setting
// in its own words and says the rule in English or Chinese, or says what
// failed when the module itself did. An error without one of those codes
// keeps its own text.
import { errorCodes } from "sinusoidal-pe";

const SETTINGS = {
  en: {
    dim: "the dimension d",
    base: "the base b",
    positions: "the positions",
    start: "the first position",
    layout: "the layout",
    preset: "the preset",
    offsets: "the offsets",
    x: "the distances x",
    alpha: "the exponent α",
    rotaryDim: "the rotated dimensions",
    scaling: "the context extension",
  },
  zh: {
    dim: "维度 d",
    base: "底数 b",
    positions: "位置",
    start: "起始位置",
    layout: "排列方式",
    preset: "预设",
    offsets: "偏移量",
    x: "距离 x",
    alpha: "指数 α",
    rotaryDim: "旋转的维数",
    scaling: "上下文扩展",
  },
};

// Rules by code, each one of the library's `errorCodes`; a code not listed
// takes `other`.
export const RULES = {
  en: {
    ERR_BASE: "must be a finite number above 1",
    ERR_DIM: "is outside the range the page can use",
    ERR_OUT_OF_RANGE: "is outside the range allowed here",
    ERR_NOT_FINITE: "must be a finite number",
    ERR_NOT_INTEGER: "must be a whole number",
    ERR_NOT_NUMBER: "must be a number",
    ERR_ODD_DIM: "must be even here",
    ERR_ROTARY_DIM: "must be even for RoPE, which turns pairs of columns",
    ERR_PRESET_DIM: "does not suit this preset",
    ERR_SIZE: "asks for more than the module's memory can hold",
    ERR_MEMORY: "asks for more than the module's memory can hold",
    ERR_POSITIONS:
      "must be finite, and give finite angles with the frequencies",
    ERR_OFFSETS: "must be finite, and give finite angles with the frequencies",
    ERR_SCALE: "is too large for these frequencies",
    other: "cannot be used with these settings",
  },
  zh: {
    ERR_BASE: "必须是大于 1 的有限数",
    ERR_DIM: "超出了本页可用的范围",
    ERR_OUT_OF_RANGE: "超出了这里允许的范围",
    ERR_NOT_FINITE: "必须是有限的数",
    ERR_NOT_INTEGER: "必须是整数",
    ERR_NOT_NUMBER: "必须是数字",
    ERR_ODD_DIM: "在这里必须是偶数",
    ERR_ROTARY_DIM: "在 RoPE 中必须是偶数，因为它成对旋转各列",
    ERR_PRESET_DIM: "不适用于这个预设",
    ERR_SIZE: "所需内存超出了模块能容纳的大小",
    ERR_MEMORY: "所需内存超出了模块能容纳的大小",
    ERR_POSITIONS: "必须是有限的数，且与频率相乘得到有限的角度",
    ERR_OFFSETS: "必须是有限的数，且与频率相乘得到有限的角度",
    ERR_SCALE: "对这些频率来说过大",
    other: "在当前设置下无法使用",
  },
};

// The module's own failures (the codes of class Error), each a whole
// sentence: no setting is at fault.
export const MODULE_FAILURES = {
  en: {
    ERR_FAULT:
      "The computation failed inside the WebAssembly module, which was restarted; try again.",
    ERR_NOT_INITIALIZED:
      "The WebAssembly module is not loaded; reload the page.",
    ERR_FETCH:
      "The WebAssembly module could not be downloaded; check the connection and reload the page.",
    ERR_CSP:
      "This site's Content-Security-Policy does not let the WebAssembly module compile: its script-src needs 'wasm-unsafe-eval'.",
  },
  zh: {
    ERR_FAULT: "计算在 WebAssembly 模块内部出错，模块已重新启动；请再试一次。",
    ERR_NOT_INITIALIZED: "WebAssembly 模块尚未加载；请重新加载页面。",
    ERR_FETCH: "无法下载 WebAssembly 模块；请检查网络连接后重新加载页面。",
    ERR_CSP:
      "本站的内容安全策略（CSP）不允许编译 WebAssembly 模块：script-src 需要加上 'wasm-unsafe-eval'。",
  },
};

// The setting an option path belongs to: "positions[3]" is the positions,
// "scaling.factor" the context extension.
function settingOf(option, lang) {
  const names = SETTINGS[lang] ?? SETTINGS.en;
  const head = /^[A-Za-z]+/.exec(option ?? "")?.[0];
  if (head !== undefined && Object.hasOwn(names, head)) return names[head];
  return lang === "zh" ? "这项设置" : "this setting";
}

/** The sentence that says, in `lang` ("en" or "zh"), what `error` refuses. */
export function inWords(error, lang) {
  if (typeof error?.code !== "string" || !Object.hasOwn(errorCodes, error.code))
    return String(error?.message ?? error);
  const failures = MODULE_FAILURES[lang] ?? MODULE_FAILURES.en;
  if (Object.hasOwn(failures, error.code)) return failures[error.code];
  const rules = RULES[lang] ?? RULES.en;
  const rule = Object.hasOwn(rules, error.code)
    ? rules[error.code]
    : rules.other;
  const setting = settingOf(error.option, lang);
  // Chinese runs on after a Chinese word, with a space after a symbol.
  if (lang === "zh")
    return `${setting}${/[A-Za-zα]$/.test(setting) ? " " : ""}${rule}。`;
  return `${setting[0].toUpperCase()}${setting.slice(1)} ${rule}.`;
}
