// The charts' tick values: round numbers written exactly as a reader would
// type them, never a value with a rounding tail such as 0.6000000000000001,
// and labelled with the minus sign the page's text uses.
import assert from "node:assert/strict";
import { test } from "node:test";
import { linearTicks, tickLabel } from "../../web/charts/canvas.js";

test("tick values are the round numbers themselves", () => {
  assert.deepEqual(linearTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(linearTicks(0, 0.3), [0, 0.1, 0.2, 0.3]);
  assert.deepEqual(linearTicks(0.1, 0.7), [0.2, 0.4, 0.6]);
  assert.deepEqual(linearTicks(-1, 1), [-1, -0.5, 0, 0.5, 1]);
  assert.deepEqual(linearTicks(-0.07, 0.07), [-0.05, 0, 0.05]);
  assert.deepEqual(
    linearTicks(-0.07, 0.07, 7),
    [-0.06, -0.04, -0.02, 0, 0.02, 0.04, 0.06],
  );
  assert.deepEqual(linearTicks(0, 10), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(linearTicks(0, 12.5), [0, 2.5, 5, 7.5, 10, 12.5]);
  assert.deepEqual(
    linearTicks(1e7, 1e7 + 511, 6),
    [1e7, 10000100, 10000200, 10000300, 10000400, 10000500],
  );
  assert.deepEqual(linearTicks(3, 3), [3]);
});

test("over random ranges every tick is a multiple of the step written in its digits", () => {
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  for (let n = 0; n < 5000; n++) {
    const scale = 10 ** Math.floor(random() * 16 - 8);
    const low = (random() * 2 - 1) * scale;
    const high = low + random() * scale + scale * 1e-3;
    const ticks = linearTicks(low, high, 2 + Math.floor(random() * 8));
    assert.ok(ticks.length >= 1, `${low} … ${high}: ${ticks}`);
    if (ticks.length < 2) continue;
    const step = ticks[1] - ticks[0];
    // Digits after the point that the step needs, plus one for steps of 2.5.
    const digits = Math.max(0, 1 - Math.floor(Math.log10(step)));
    for (const t of ticks) {
      assert.ok(t >= low - step * 1e-6 && t <= high + step * 1e-6);
      if (digits <= 20)
        assert.equal(t, Number(t.toFixed(digits)), `${t} in ${ticks}`);
    }
  }
});

test("negative tick labels carry the minus sign, not a hyphen", () => {
  assert.equal(tickLabel(-2.5), "\u22122.5");
  assert.equal(tickLabel(-7.5, 2.5), "\u22127.5");
  assert.equal(tickLabel(-200, 10), "\u2212200");
  assert.equal(tickLabel(-2.5e-5), "\u22122.5×10⁻⁵");
  assert.equal(tickLabel(2.5), "2.5");
});
