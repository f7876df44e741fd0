// Every section of the page, in reading order.
import * as crossterms from "./crossterms.js";
import * as curves from "./curves.js";
import * as decay from "./decay.js";
import * as dot from "./dot.js";
import * as extension from "./extension.js";
import * as order from "./order.js";
import * as precision from "./precision.js";
import * as relation from "./relation.js";
import * as rope from "./rope.js";
import * as table from "./table.js";
import * as tokens from "./tokens.js";
import * as why from "./why.js";

export const sections = [
  order,
  why,
  table,
  tokens,
  curves,
  relation,
  dot,
  crossterms,
  decay,
  rope,
  extension,
  precision,
];
