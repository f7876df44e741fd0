// The page says a library error in the reader's language, from the error's
// data (its option and rule code), never in the library's English words.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";
import {
  inWords,
  MODULE_FAILURES,
  RULES,
} from "../../web/parts/library-error.js";

await pe.init();

function refusal(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  assert.fail("the call was not refused");
}

test("library refusals read as the page's own sentences in both languages", () => {
  const cases = [
    [
      () => pe.table({ positions: 4, dim: 8, base: 1 }),
      "The base b must be a finite number above 1.",
      "底数 b 必须是大于 1 的有限数。",
    ],
    [
      () => pe.table({ positions: [0, NaN], dim: 8 }),
      "The positions must be finite, and give finite angles with the frequencies.",
      "位置必须是有限的数，且与频率相乘得到有限的角度。",
    ],
    [
      () => pe.table({ preset: "whisper", positions: 4, dim: 65 }),
      "The dimension d does not suit this preset.",
      "维度 d 不适用于这个预设。",
    ],
    [
      () => pe.rope(new Float32Array(7), [1], { dim: 7 }),
      "The dimension d must be even for RoPE, which turns pairs of columns.",
      "维度 d 在 RoPE 中必须是偶数，因为它成对旋转各列。",
    ],
    [
      () =>
        pe.ropeCache({
          dim: 8,
          positions: 2,
          scaling: { type: "linear", factor: 0 },
        }),
      "The context extension cannot be used with these settings.",
      "上下文扩展在当前设置下无法使用。",
    ],
  ];
  for (const [call, en, zh] of cases) {
    const error = refusal(call);
    assert.equal(inWords(error, "en"), en, error.message);
    assert.equal(inWords(error, "zh"), zh, error.message);
    // No library words (function names, option quotes) in either.
    for (const text of [inWords(error, "en"), inWords(error, "zh")])
      assert.doesNotMatch(text, /sinusoidal-pe|option "|table:|ropeCache:/);
  }
});

test("an error that is not about an input keeps its own words", () => {
  assert.equal(inWords(new Error("out of memory"), "zh"), "out of memory");
  // A code that is not the library's, such as a file system's, too.
  const missing = Object.assign(new Error("no such file"), { code: "ENOENT" });
  assert.equal(inWords(missing, "en"), "no such file");
});

test("the module's own failures read as the page's sentences, naming no setting", () => {
  // A fault, a call before init and a failed download, as the library
  // raises them: Errors with a code and no option.
  for (const code of [
    "ERR_FAULT",
    "ERR_NOT_INITIALIZED",
    "ERR_FETCH",
    "ERR_CSP",
  ]) {
    const error = Object.assign(new Error(`sinusoidal-pe: table: ${code}`), {
      code,
      function: "table",
    });
    for (const lang of ["en", "zh"]) {
      const text = inWords(error, lang);
      assert.equal(text, MODULE_FAILURES[lang][code]);
      assert.match(text, /WebAssembly/);
      assert.doesNotMatch(text, /setting|设置|sinusoidal-pe/);
    }
  }
});

test("the page words only codes of the library's registry, in both languages alike, and every failure of the module", () => {
  for (const words of [RULES, MODULE_FAILURES]) {
    assert.deepEqual(
      Object.keys(words.zh).sort(),
      Object.keys(words.en).sort(),
    );
    for (const code of Object.keys(words.en))
      if (code !== "other")
        assert.ok(Object.hasOwn(pe.errorCodes, code), `${code} is no code`);
  }
  // The codes of class Error are the module's failures, not an input's.
  const failures = Object.keys(pe.errorCodes).filter(
    (code) => pe.errorCodes[code].error === "Error",
  );
  assert.deepEqual(Object.keys(MODULE_FAILURES.en).sort(), failures.sort());
});
