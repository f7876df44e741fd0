// The page's column map (web/layouts.js) is the library's column rule: each
// column it names holds, in the table itself, the sin or cos of the pair it
// names, for every preset and layout; a preset's layout is the one its
// source uses; and each preset's `columns` field is what tableColumns
// reports for it.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  frequencies,
  init,
  LAYOUTS,
  presets,
  table,
  tableColumns,
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

// What each preset's source does with an odd dim, and the boolean
// parameter, as the source names it, that puts the cos block first.
const PRESET_ODD_DIMS = {
  paper: "extra-sin",
  tensor2tensor: "zero-pad",
  fairseq: "zero-pad",
  whisper: "error",
  diffusers: "zero-pad",
  "guided-diffusion": "zero-pad",
  marian: "extra-sin",
  mlx: "error",
};
const COS_FIRST_PARAMETERS = { diffusers: "flipSinToCos", mlx: "cosFirst" };

test("each preset's columns field is what tableColumns gives for it, at every dim it takes", () => {
  for (const [name, { columns }] of Object.entries(presets)) {
    assert.deepEqual(
      columns,
      {
        layout: PRESET_LAYOUTS[name],
        oddDim: PRESET_ODD_DIMS[name],
        ...(name in COS_FIRST_PARAMETERS && {
          cosFirstWhen: COS_FIRST_PARAMETERS[name],
        }),
      },
      name,
    );
    const taken = [];
    for (let dim = 1; dim <= 24; dim++) {
      let got;
      try {
        got = tableColumns({ preset: name, dim });
      } catch {
        continue;
      }
      taken.push(dim);
      const what = `${name} dim ${dim}`;
      assert.equal(got.layout, columns.layout, what);
      assert.equal(got.oddDim, columns.oddDim, what);
      // The same columns as the layout and odd-dim rule given directly.
      const direct = tableColumns({
        layout: columns.layout,
        oddDim: columns.oddDim,
        base: 100,
        dim,
      });
      assert.deepEqual(got.kinds, direct.kinds, what);
      assert.deepEqual(Array.from(got.pairs), Array.from(direct.pairs), what);
      if (columns.cosFirstWhen !== undefined) {
        const flipped = tableColumns({
          preset: name,
          dim,
          [columns.cosFirstWhen]: true,
        });
        const layout = `${columns.layout}-cos-first`;
        assert.equal(flipped.layout, layout, what);
        assert.deepEqual(
          flipped.kinds,
          tableColumns({ layout, oddDim: columns.oddDim, base: 100, dim })
            .kinds,
          what,
        );
      }
    }
    // "error" presets take only even dims; the others take odd ones too.
    assert.equal(
      taken.some((dim) => dim % 2 === 1),
      columns.oddDim !== "error",
      `${name} takes dims ${taken.join(" ")}`,
    );
    assert.ok(taken.length >= 11, `${name} takes dims ${taken.join(" ")}`);
  }
});
