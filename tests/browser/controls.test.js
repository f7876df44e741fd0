// The lesson's own controls in Chromium: RoPE's play button moves m and n
// together until paused or until the reader takes over, the relation's
// charts zoom in on the fast pairs (kept in the link and as the panel's
// attribute), and links with the context extension's older keys open on
// their new names without a note.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./launch.js";
import { settle } from "./settle.js";

let chromium;
before(async () => {
  chromium = await launch();
});
after(() => chromium?.close());

const position = (page, which) =>
  page.inputValue(`[data-testid=rope-${which}]`).then(Number);
const score = (page) =>
  page.getAttribute("[data-testid=rope-qk]", "data-after").then(Number);

test("RoPE's play moves m and n together, the score stays, and a reader's input stops it", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&rope.m=5&rope.n=2",
  });
  const play = page.locator("[data-testid=rope-play]");
  const first = await score(page);
  await play.click();
  assert.equal(await play.getAttribute("aria-pressed"), "true");
  assert.match(await play.textContent(), /Pause/);
  await page.waitForFunction(
    () => Number(document.querySelector("[data-testid=rope-m]").value) >= 8,
  );
  await play.click();
  assert.equal(await play.getAttribute("aria-pressed"), "false");
  const m = await position(page, "m");
  const n = await position(page, "n");
  assert.equal(m - n, 3);
  // q·k of unit vectors after one float32 rounding per component.
  assert.ok(Math.abs((await score(page)) - first) < 3e-7);
  await page.waitForTimeout(400);
  assert.equal(await position(page, "m"), m);
  assert.match(
    await page.evaluate(() => location.hash),
    new RegExp(`rope\\.m=${m}&rope\\.n=${n}|rope\\.n=${n}&rope\\.m=${m}`),
  );
  // Playing again, then a value typed into n: play stops there.
  await play.click();
  await page.fill("[data-testid=rope-n]", "40");
  await page.press("[data-testid=rope-n]", "Enter");
  assert.equal(await play.getAttribute("aria-pressed"), "false");
  const stopped = await position(page, "m");
  await page.waitForTimeout(400);
  assert.equal(await position(page, "m"), stopped);
  assert.equal(await position(page, "n"), 40);
  // The relation's play stops on the reader's input the same way.
  const relationPlay = page.locator("[data-testid=relation-play]");
  await relationPlay.click();
  await page.fill("[data-testid=relation-k]", "5");
  assert.equal(await relationPlay.getAttribute("aria-pressed"), "false");
  assert.deepEqual(errors, []);
  await close();
});

test("RoPE's play button in Chinese", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=zh",
  });
  const play = page.locator("[data-testid=rope-play]");
  assert.match(await play.textContent(), /播放/);
  await play.click();
  assert.match(await play.textContent(), /暂停/);
  await play.click();
  assert.deepEqual(errors, []);
  await close();
});

test("the relation zooms in on its fast pairs, kept in the link", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&dim=4096",
  });
  const shown = () => page.textContent("[data-testid=relation-pairs]");
  const ticks = () =>
    page.getAttribute("[data-testid=relation-sines]", "data-x-ticks");
  assert.match(await shown(), /pairs 0 … 2047 of 2048/);
  assert.ok(await page.isDisabled("[data-testid=relation-zoom-out]"));
  for (let i = 0; i < 7; i++)
    await page.click("[data-testid=relation-zoom-in]");
  await settle(page);
  assert.match(await shown(), /pairs 0 … 15 of 2048/);
  // The chart's x axis now ends at pair 15.
  const labels = (await ticks()).split(" ").map(Number);
  assert.ok(Math.max(...labels) <= 15 && labels.length >= 3, await ticks());
  await page.waitForFunction(() => location.hash.includes("relation.pairs=16"));
  await page.click("[data-testid=relation-zoom-out]");
  assert.match(await shown(), /pairs 0 … 31 of 2048/);
  for (let i = 0; i < 2; i++)
    await page.click("[data-testid=relation-zoom-in]");
  assert.match(await shown(), /pairs 0 … 7 of 2048/);
  await page.click("[data-testid=relation-zoom-in]");
  assert.match(await shown(), /pairs 0 … 3 of 2048/);
  assert.ok(await page.isDisabled("[data-testid=relation-zoom-in]"));
  await page.click("[data-testid=relation-zoom-all]");
  assert.match(await shown(), /pairs 0 … 2047 of 2048/);
  await close();
  assert.deepEqual(errors, []);

  // A link's zoom, and one the page cannot use.
  const linked = await chromium.open("index.html", {
    hash: "#lang=en&dim=512&relation.pairs=32",
  });
  assert.match(
    await linked.page.textContent("[data-testid=relation-pairs]"),
    /pairs 0 … 31 of 256/,
  );
  await linked.close();
  const bad = await chromium.open("index.html", {
    hash: "#lang=en&relation.pairs=3",
  });
  assert.match(
    await bad.page.textContent("#relation"),
    /relation\.pairs \(“3”\) is not valid; using all/,
  );
  assert.deepEqual(bad.errors, []);
  await bad.close();
});

test("a relation panel zooms by its pairs attribute", async () => {
  const { page, errors, close } = await chromium.open("embed.html", {
    ready: "pe-heatmap[data-ready=true]",
  });
  await page.evaluate(() => {
    const panel = document.createElement("pe-relation");
    panel.setAttribute("dim", "1024");
    panel.setAttribute("pairs", "64");
    panel.id = "zoomed";
    document.body.append(panel);
  });
  await page.waitForSelector("#zoomed[data-ready=true]");
  const shown = () =>
    page.$eval(
      "#zoomed",
      (panel) =>
        panel.shadowRoot.querySelector("[data-testid=relation-pairs]")
          ?.textContent,
    );
  assert.match(await shown(), /pairs 0 … 63 of 512/);
  await page.evaluate(() =>
    document.querySelector("#zoomed").setAttribute("pairs", "8"),
  );
  await page.waitForFunction(() =>
    /0 … 7 of/.test(
      document
        .querySelector("#zoomed")
        .shadowRoot.querySelector("[data-testid=relation-pairs]")?.textContent,
    ),
  );
  assert.deepEqual(errors, []);
  await close();
});

test("links with the context extension's older keys open on the new ones, without a note", async () => {
  const { page, errors, close } = await chromium.open("index.html", {
    hash: "#lang=en&decay.rope=yarn&decay.seqLen=32768&decay.ropeRange=1048576",
  });
  assert.equal(await page.textContent("[data-testid=notes]"), "");
  assert.equal(await page.inputValue("[data-testid=scaling-scheme]"), "yarn");
  await page.waitForFunction(() => location.hash.includes("extension.rope"));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /extension\.rope=yarn/);
  assert.match(hash, /extension\.seqLen=32768/);
  assert.match(hash, /extension\.ropeRange=1048576/);
  assert.doesNotMatch(hash, /decay\./);
  await close();
  // Beside its new name, an old key gives way to it.
  const both = await chromium.open("index.html", {
    hash: "#lang=en&decay.rope=linear&extension.rope=llama3",
  });
  assert.equal(await both.page.textContent("[data-testid=notes]"), "");
  assert.equal(
    await both.page.inputValue("[data-testid=scaling-scheme]"),
    "llama3",
  );
  assert.deepEqual([...errors, ...both.errors], []);
  await both.close();
});
