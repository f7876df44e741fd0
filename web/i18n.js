// The page's own strings (header, controls, notes) in every language, and the
// lookup that fills `{name}` placeholders. Sections carry their own strings.

export const LANGUAGES = ["en", "zh"];

export const strings = {
  en: {
    title: "The sinusoidal positional encoding, live",
    lead: "A Transformer reads a sentence as a set of word vectors: to know the order, it must be told where each word stands. The sinusoidal encoding gives position p a vector of sines and cosines at many frequencies, so that every position has its own pattern and moving by k positions turns each (sin, cos) pair by a fixed angle. The page builds the idea step by step; drag the sliders and the points, and every number is computed, and every claim checked, as you go.",
    langToggle: "中文",
    langToggleLabel: "Switch the page to Chinese",
    controls: "Shared controls",
    moreControls: "More",
    preset: "preset",
    custom: "custom (any base and layout)",
    dim: "dim d",
    positions: "positions",
    base: "base",
    layout: "layout",
    start: "first position",
    presetFixes: "set by the preset",
    clamped: "{name}: {value} is outside {min} … {max}; using {used}.",
    notNumber: "{name}: “{value}” is not a number; using {used}.",
    rounded: "{name}: {value} is not a whole number; using {used}.",
    repeatedKey:
      "The link gives “{key}” more than once; the first value is used.",
    badHash:
      "The link's value for {name} (“{value}”) is not valid; using {used}.",
    unknownKey: "The link's key “{key}” is unknown and was ignored.",
    longHash:
      "The link's settings are too long to be genuine and were ignored; defaults are shown.",
    failed: "This panel cannot be computed for these options: {message}",
    downloads: "Download the charts",
    pngOf: "PNG: {title}",
    footer:
      "Everything on this page is computed in your browser; it makes no network request and works from a folder on disk.",
    sources: "Sources and further reading",
    papers: "Papers",
    posts: "Posts",
    toc: "Sections",
    wideFormula: "Formula, wider than the screen: scroll sideways",
    attrOutside:
      'The attribute {name}="{value}" is outside {min} … {max}; using {used}.',
    attrRounded:
      'The attribute {name}="{value}" is not a whole number; using {used}.',
    attrInvalid:
      'The attribute {name}="{value}" is not valid; using the default {used}.',
    attrLang:
      'The attribute lang="{value}" names a language this panel does not have (en, zh); using {used}.',
    attrTheme:
      'The attribute theme="{value}" is not light, dark or auto; using {used}.',
    attrLook: 'The attribute look="{value}" is not host or page; using {used}.',
    embedThis: "Embed this in your page",
    embedHelp:
      "Put embed.js (from the site's folder) beside your page and paste these two lines where the panel should be. The attributes hold this section's settings as you see them; every setting of the link has an attribute of the same name, and look=\"page\" gives the panel this page's fonts instead of yours.",
    hood: "Under the hood",
    "layout-interleaved": "interleaved: sin, cos, sin, cos, …",
    "layout-interleaved-cos-first": "interleaved, cos first",
    "layout-halves": "halves: all sines, then all cosines",
    "layout-halves-cos-first": "halves, cosines first",
    evenDim: "needs an even dim",
    presetOddDim:
      "The {preset} preset works only with an even dim: its sines and cosines come in pairs, and at d = {dim} the last column would have no partner (the original code refuses it too). Try d = {below} or {above}.",
    presetRefuses:
      "The {preset} preset cannot make a table with d = {dim} (the original code refuses it). Try a larger even dim.",
    refusedSection:
      "Nothing to show here until the dim suits the {preset} preset (see the note under the shared controls).",
    dismiss: "Dismiss",
    copy: "Copy",
    copied: "Copied",
  },
  zh: {
    title: "正弦位置编码，实时演示",
    lead: "Transformer 把一句话看作一组词向量：要知道顺序，就必须告诉它每个词在哪里。正弦位置编码给位置 p 一个由多种频率的正弦和余弦组成的向量，使每个位置都有自己的图案，而移动 k 个位置就是把每一对 (sin, cos) 转过一个固定的角度。本页一步步讲清这个想法；拖动滑块和圆上的点，每个数字都会随之计算，每个结论都会随之验证。",
    langToggle: "English",
    langToggleLabel: "将页面切换为英文",
    controls: "共享控件",
    moreControls: "更多",
    preset: "预设",
    custom: "自定义（任意底数与布局）",
    dim: "维度 d",
    positions: "位置数",
    base: "底数",
    layout: "布局",
    start: "起始位置",
    presetFixes: "由预设决定",
    clamped: "{name}：{value} 超出 {min} … {max}，改用 {used}。",
    notNumber: "{name}：“{value}” 不是数字，改用 {used}。",
    rounded: "{name}：{value} 不是整数，改用 {used}。",
    repeatedKey: "链接中 “{key}” 出现了不止一次，使用第一个值。",
    badHash: "链接中 {name} 的值（“{value}”）无效，改用 {used}。",
    unknownKey: "链接中的键 “{key}” 无法识别，已忽略。",
    longHash: "链接中的设置过长，不像是真实的设置，已忽略；显示的是默认值。",
    failed: "这些选项下无法计算此面板：{message}",
    downloads: "下载图表",
    pngOf: "PNG：{title}",
    footer:
      "本页的一切都在你的浏览器中计算；页面不发出任何网络请求，从本地文件夹打开也能使用。",
    sources: "参考文献与延伸阅读",
    papers: "论文",
    posts: "文章",
    toc: "目录",
    wideFormula: "公式，比屏幕宽：可左右滚动",
    attrOutside: '属性 {name}="{value}" 超出 {min} … {max}，改用 {used}。',
    attrRounded: '属性 {name}="{value}" 不是整数，改用 {used}。',
    attrInvalid: '属性 {name}="{value}" 无效，改用默认值 {used}。',
    attrLang:
      '属性 lang="{value}" 不是此面板支持的语言（en、zh），改用 {used}。',
    attrTheme: '属性 theme="{value}" 不是 light、dark 或 auto，改用 {used}。',
    attrLook: '属性 look="{value}" 不是 host 或 page，改用 {used}。',
    embedThis: "嵌入到你的网页",
    embedHelp:
      '把 embed.js（在网站文件夹中）放在你的网页旁边，再把这两行粘贴到要显示面板的位置。属性记录了本节当前的设置；链接中的每个设置都有同名属性，加上 look="page" 则使用本页的字体而不是你的网页的字体。',
    hood: "实现细节",
    "layout-interleaved": "交错：sin, cos, sin, cos, …",
    "layout-interleaved-cos-first": "交错，cos 在前",
    "layout-halves": "对半：先全部正弦，再全部余弦",
    "layout-halves-cos-first": "对半，余弦在前",
    evenDim: "需要偶数维度",
    presetOddDim:
      "{preset} 预设只支持偶数维度：它的正弦和余弦成对出现，d = {dim} 时最后一列没有配对（原始代码同样会报错）。可以改用 d = {below} 或 {above}。",
    presetRefuses:
      "{preset} 预设无法生成 d = {dim} 的表格（原始代码同样拒绝）。请换一个更大的偶数维度。",
    refusedSection:
      "维度不适合 {preset} 预设，本节暂无内容（见共享控件下方的说明）。",
    dismiss: "关闭",
    copy: "复制",
    copied: "已复制",
  },
};

/** The browser's preferred language among LANGUAGES. */
export function browserLanguage() {
  const preferred = globalThis.navigator?.languages ?? [];
  for (const tag of preferred)
    if (String(tag).toLowerCase().startsWith("zh")) return "zh";
    else if (String(tag).toLowerCase().startsWith("en")) return "en";
  return "en";
}

/** `table[lang][key]` with `{name}` filled from vars; the key itself if missing. */
export function translate(table, lang, key, vars) {
  const text = table[lang]?.[key] ?? table.en?.[key] ?? key;
  if (vars === undefined) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** Text shown in a note: at most 40 characters of an untrusted value. */
export function quoted(value) {
  const text = String(value);
  return text.length > 40 ? text.slice(0, 39) + "…" : text;
}
