// The page's column map (web/layouts.js) is the library's column rule: each
// column it names holds, in the table itself, the sin or cos of the pair it
// names, for every preset and layout; and a preset's layout is the one its
// source uses.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  frequencies,
  init,
  LAYOUTS,
  presets,
  table,
} from "../../dist/index.js";
import { columnMap } from "../../web/layouts.js";

await init();

test("Marian at dim 5: column 2 is sin(p·ω₂) of the extra pair, not the cos of pair 0", () => {
  const map = columnMap({ preset: "marian", dim: 5 });
  assert.deepEqual(map.kinds, ["sin", "sin", "sin", "cos", "cos"]);
  assert.deepEqual(Array.from(map.pairs), [0, 1, 2, 0, 1]);
  assert.deepEqual(map.columnsOf(0), { sin: 0, cos: 3 });
  assert.deepEqual(map.columnsOf(2), { sin: 2, cos: -1 });
  assert.equal(map.complete(2), false);
  assert.equal(map.layout, "halves");
  // At position 3: sin(3 · 10000^(−4/5)) = 0.00189.
  const row = table({
    preset: "marian",
    dim: 5,
    positions: [3],
    dtype: "float64",
  });
  assert.ok(Math.abs(row[2] - Math.sin(3 * 10000 ** (-4 / 5))) < 1e-15);
  assert.ok(Math.abs(row[2] - 0.00189) < 5e-6);
});

// Each preset's layout as its source writes the columns.
const PRESET_LAYOUTS = {
  paper: "interleaved",
  tensor2tensor: "halves",
  fairseq: "halves",
  whisper: "halves",
  diffusers: "halves",
  "guided-diffusion": "halves-cos-first",
  marian: "halves",
  mlx: "halves",
};

test("every preset's column map names what the table holds, at every dim", () => {
  assert.deepEqual(
    Object.keys(PRESET_LAYOUTS).sort(),
    Object.keys(presets).sort(),
  );
  const schedules = [
    ...Object.keys(presets).map((preset) => ({ preset })),
    ...LAYOUTS.flatMap((layout) =>
      ["zero-pad", "extra-sin"].map((oddDim) => ({
        layout,
        oddDim,
        base: 100,
      })),
    ),
  ];
  let checked = 0;
  for (const options of schedules)
    for (let dim = 1; dim <= 24; dim++) {
      const schedule = { ...options, dim };
      let map;
      try {
        map = columnMap(schedule);
      } catch (error) {
        // A preset that refuses this dim refuses its table too, and each
        // error names its own function.
        assert.match(error.message, /^sinusoidal-pe: tableColumns: /);
        assert.throws(() => table({ ...schedule, positions: 1 }), {
          message: error.message.replace(": tableColumns: ", ": table: "),
        });
        continue;
      }
      const p = 3;
      const w = frequencies(schedule);
      const row = table({ ...schedule, positions: [p], dtype: "float64" });
      map.kinds.forEach((kind, c) => {
        const i = map.pairs[c];
        const want =
          kind === "zero"
            ? 0
            : map.amplitude *
              (kind === "sin" ? Math.sin(p * w[i]) : Math.cos(p * w[i]));
        assert.ok(
          Math.abs(row[c] - want) <= 1e-12,
          `${JSON.stringify(schedule)}: column ${c} (${kind} of pair ${i}) holds ${row[c]}, not ${want}`,
        );
      });
      // Every pair has its sin, and its cos unless it is an extra sin.
      for (let i = 0; i < w.length; i++)
        assert.notEqual(
          map.columnsOf(i).sin,
          -1,
          `${JSON.stringify(schedule)} pair ${i}`,
        );
      if (schedule.preset !== undefined)
        assert.equal(map.layout, PRESET_LAYOUTS[schedule.preset]);
      else assert.equal(map.layout, schedule.layout);
      checked++;
    }
  assert.ok(checked > 250, `${checked} schedules checked`);
});
