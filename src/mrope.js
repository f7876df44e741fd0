// M-RoPE (Qwen2-VL, Qwen3-VL): three position streams (t, h, w) and the
// stream of each pair, which the C core assigns from mropeSection.
import * as kernels from "./core.js";
import {
  boolean,
  numbers,
  rangeError,
  readOptions,
  typeError,
} from "./options.js";

// M-RoPE's mropeSection (three numbers) and mropeInterleaved, or null.
export function mropeSpec(raw) {
  if (raw.mropeSection === undefined) {
    if (raw.mropeInterleaved !== undefined)
      throw typeError(
        'option "mropeInterleaved" applies only with "mropeSection"',
        "mropeInterleaved",
        "ERR_NOT_APPLICABLE",
      );
    return null;
  }
  const section = numbers(raw.mropeSection, "mropeSection", {
    code: "ERR_MROPE_SECTION",
  });
  if (section.length !== 3)
    throw rangeError(
      `option "mropeSection" must hold 3 numbers (t, h, w pairs), got ${section.length}`,
      "mropeSection",
      "ERR_MROPE_SECTION",
    );
  const interleaved =
    raw.mropeInterleaved === undefined
      ? false
      : boolean(raw.mropeInterleaved, "mropeInterleaved");
  return { section, interleaved };
}

// The position stream of each pair in module memory: the C core assigns
// them (and checks that the sections sum to rotaryDim / 2); its refusal is
// told the section and the pairs it got.
export function writeStreams(mrope, pairs, scratch, api) {
  const streams = scratch(pairs, "M-RoPE streams");
  try {
    kernels.mropeStreams({
      api,
      s0: mrope.section[0],
      s1: mrope.section[1],
      s2: mrope.section[2],
      interleaved: mrope.interleaved ? 1 : 0,
      streams,
      pairs,
    });
  } catch (error) {
    error.message += ` (${pairs} pairs), got [${mrope.section.join(", ")}]`;
    throw error;
  }
  return streams;
}

// The t, h and w streams, each read once, of one length; integer streams
// (BigInt64Array, BigUint64Array) as plain positions are.
export function readStreams(value) {
  const given = readOptions(value, ["t", "h", "w"], 'option "positions"', {
    name: 'option "positions"',
    path: "positions",
    nested: true,
  });
  const streams = ["t", "h", "w"].map((key) => {
    if (given[key] === undefined)
      throw typeError(
        `option "positions.${key}" is required when "positions" is { t, h, w }`,
        `positions.${key}`,
        "ERR_REQUIRED",
      );
    return numbers(given[key], `positions.${key}`, {
      bigints: true,
      code: "ERR_POSITIONS",
    });
  });
  const count = streams[0].length;
  streams.forEach((list, k) => {
    if (list.length !== count)
      throw rangeError(
        `option "positions.${"thw"[k]}" must have as many positions as "positions.t" (${count}), got ${list.length}`,
        `positions.${"thw"[k]}`,
        "ERR_LENGTH",
      );
  });
  return streams;
}
