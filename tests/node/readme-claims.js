// The README's code blocks state results as comments: `expression; // → value`.
// This module parses such a value and checks an actual result against it.
//
//   62.34         the actual number rounds to these digits (to the digits shown)
//   0.946083…     the actual number agrees in every digit shown (truncated)
//   < 1e-7        an upper bound on the actual number (also ≤)
//   "text"        equal strings
//   [a, b]        an array-like with exactly these elements
//   Float64Array [a, b]   the same, and of that type
//   { a: 1, b }   an object with key a as claimed and key b present; other keys ignored
//   true, false, null
//
// A remark in parentheses may follow: `// → 384 (= dim / 2)`.

export function parseClaim(text) {
  let at = 0;
  const fail = (what) => {
    throw new SyntaxError(`claim "${text}": ${what} at ${at}`);
  };
  const space = () => {
    while (/\s/.test(text[at] ?? "")) at++;
  };
  const take = (literal) => {
    space();
    if (!text.startsWith(literal, at)) return false;
    at += literal.length;
    return true;
  };
  const identifier = () => {
    space();
    const match = /^[A-Za-z_$][\w$]*/.exec(text.slice(at));
    if (!match) fail("a name expected");
    at += match[0].length;
    return match[0];
  };
  function value() {
    space();
    if (take("<") || take("≤")) {
      take("=");
      return { bound: number().value };
    }
    if (take("[")) return { array: list("]") };
    if (take("{")) {
      const entries = [];
      while (!take("}")) {
        const key = identifier();
        entries.push([key, take(":") ? value() : { present: true }]);
        if (!take(",") && !text.startsWith("}", (space(), at)))
          fail("',' expected");
      }
      return { object: entries };
    }
    if (take('"')) {
      const end = text.indexOf('"', at);
      if (end < 0) fail("unterminated string");
      const string = text.slice(at, end);
      at = end + 1;
      return { string };
    }
    for (const [word, literal] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ])
      if (take(word)) return { literal };
    if (/[A-Z]/.test(text[at])) {
      const type = identifier();
      if (!take("[")) fail("'[' expected after a type name");
      return { array: list("]"), type };
    }
    return number();
  }
  function list(close) {
    const items = [];
    while (!take(close)) {
      items.push(value());
      if (!take(",") && !text.startsWith(close, (space(), at)))
        fail("',' expected");
    }
    return items;
  }
  function number() {
    space();
    const match = /^-?(\d+)(?:\.(\d+))?(?:e([-+]?\d+))?(…)?/.exec(
      text.slice(at),
    );
    if (!match) fail("a number expected");
    at += match[0].length;
    const decimals = (match[2] ?? "").length - Number(match[3] ?? 0);
    return {
      value: Number(match[0].replace("…", "")),
      unit: 10 ** -decimals,
      truncated: match[4] !== undefined,
    };
  }
  const claim = value();
  space();
  // A parenthesised remark may follow the value.
  if (at !== text.length && !(text[at] === "(" && text.endsWith(")")))
    fail("unexpected text");
  return claim;
}

// Returns null when `actual` satisfies `claim`, else a description.
export function mismatch(claim, actual, path = "value") {
  if ("bound" in claim)
    return typeof actual === "number" && actual <= claim.bound
      ? null
      : `${path} = ${actual}, claimed ≤ ${claim.bound}`;
  if ("value" in claim) {
    if (typeof actual !== "number") return `${path} = ${actual}, not a number`;
    const error = Math.abs(actual - claim.value);
    const allowed = claim.truncated ? claim.unit : claim.unit / 2;
    // A relative slack of 1e-12 absorbs the decimal-to-binary rounding of
    // the claim itself.
    return error <= allowed * (1 + 1e-12)
      ? null
      : `${path} = ${actual}, claimed ${claim.value}${claim.truncated ? "…" : ""}`;
  }
  if ("string" in claim)
    return actual === claim.string
      ? null
      : `${path} = ${JSON.stringify(actual)}, claimed "${claim.string}"`;
  if ("literal" in claim)
    return actual === claim.literal
      ? null
      : `${path} = ${actual}, claimed ${claim.literal}`;
  if ("present" in claim)
    return actual === undefined ? `${path} is missing` : null;
  if ("array" in claim) {
    if (claim.type && actual?.constructor?.name !== claim.type)
      return `${path} is a ${actual?.constructor?.name}, claimed ${claim.type}`;
    if (
      actual === null ||
      typeof actual !== "object" ||
      typeof actual.length !== "number"
    )
      return `${path} is not an array`;
    if (actual.length !== claim.array.length)
      return `${path} has ${actual.length} elements, claimed ${claim.array.length}`;
    for (let i = 0; i < claim.array.length; i++) {
      const problem = mismatch(claim.array[i], actual[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if ("object" in claim) {
    if (actual === null || typeof actual !== "object")
      return `${path} is not an object`;
    for (const [key, inner] of claim.object) {
      const problem = mismatch(inner, actual[key], `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  throw new Error("unknown claim");
}
