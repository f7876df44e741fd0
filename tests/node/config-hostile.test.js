// Hostile configs cost fromConfig nothing it does not read: sparse arrays of
// length 2^32 - 1, graphs of shared references, Proxies that claim a huge
// length and typed arrays of every kind, in keys it never uses and in the
// ones it does. Run in a child process: a fatal size error or an
// out-of-memory abort would end the test runner itself. It passes only if
// the child exits normally within seconds, with every case answered.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { errorCodes } from "../../dist/index.js";

const library = new URL("../../dist/index.js", import.meta.url).href;

const child = `
import { fromConfig, init, ropeFrequencies } from ${JSON.stringify(library)};
await init();

const base = () => ({
  model_type: "llama",
  hidden_size: 4096,
  num_attention_heads: 32,
  max_position_embeddings: 131072,
  rope_theta: 500000,
  rope_scaling: {
    rope_type: "llama3",
    factor: 8,
    low_freq_factor: 1,
    high_freq_factor: 4,
    original_max_position_embeddings: 8192,
  },
});

// 48 objects, each holding the next twice: 2^48 paths through 48 objects.
function graph() {
  let node = { end: true };
  for (let i = 0; i < 48; i++) node = { left: node, right: node };
  return node;
}
const sparse = () => {
  const a = [];
  a.length = 2 ** 32 - 1;
  return a;
};
const huge = () =>
  new Proxy([], {
    get: (target, key) => (key === "length" ? 2 ** 53 - 1 : 1),
  });
const typedKinds = [
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array,
  BigUint64Array, ...(typeof Float16Array === "function" ? [Float16Array] : []),
];

const unused = {
  sparse,
  graph,
  huge,
  ...Object.fromEntries(typedKinds.map((T) => [T.name, () => new T(1 << 20)])),
  dataView: () => new DataView(new ArrayBuffer(64)),
  arrayBuffer: () => new ArrayBuffer(1 << 20),
  manyKeys: () => Object.fromEntries(Array.from({ length: 100000 }, (_, i) => ["k" + i, i])),
};

const results = {};
const run = (name, config, options) => {
  const started = performance.now();
  try {
    const read = fromConfig(config, options);
    results[name] = { ok: read.rotaryDim, warnings: read.warnings.length };
  } catch (error) {
    results[name] = {
      error: error.name,
      message: error.message,
      code: error.code,
      option: error.option,
    };
  }
  results[name].ms = performance.now() - started;
};

for (const [name, make] of Object.entries(unused)) {
  // In an unused key of the config, of text_config, and of the rope dict.
  run("config." + name, { ...base(), extra: make() });
  run("text_config." + name, { model_type: "x", text_config: { ...base(), extra: make() } });
  const inRope = base();
  inRope.rope_scaling.finetuned = make();
  run("rope_scaling." + name, inRope);
}
// In the fields RoPE reads: refused, by name, at once.
for (const [name, make] of Object.entries({ sparse, huge, graph })) {
  const factors = base();
  factors.rope_scaling = {
    type: "longrope",
    short_factor: make(),
    long_factor: make(),
  };
  run("short_factor." + name, factors);
  run("layer_types." + name, { ...base(), layer_types: make() }, { layerType: "full_attention" });
  run("mrope_section." + name, {
    ...base(),
    rope_scaling: { type: "mrope", mrope_section: make() },
  });
}
for (const T of typedKinds) {
  const factors = base();
  factors.rope_scaling.factor = new T(4);
  run("factor." + T.name, factors);
}
const wide = base();
wide.rope_scaling = Object.fromEntries(Array.from({ length: 100000 }, (_, i) => ["k" + i, i]));
run("rope_scaling.manyKeys", wide);

// The module still works.
results.after = ropeFrequencies({ dim: 2 }).inverseFrequencies[0];
process.stdout.write(JSON.stringify(results));
`;

test("hostile configs are answered at once, in a child process that exits normally", () => {
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    ["--input-type=module", "--max-old-space-size=512", "-e", child],
    { encoding: "utf8", timeout: 30000 },
  );
  const seconds = (Date.now() - started) / 1000;
  assert.equal(run.signal, null, `killed by ${run.signal}: ${run.stderr}`);
  assert.equal(run.status, 0, run.stderr);
  assert.ok(seconds < 15, `took ${seconds} s`);
  const results = JSON.parse(run.stdout);
  assert.equal(results.after, 1);
  for (const [name, result] of Object.entries(results)) {
    if (name === "after") continue;
    assert.ok(result.ms < 2000, `${name} took ${result.ms} ms`);
    const [where] = name.split(".");
    if (["config", "text_config"].includes(where))
      assert.equal(result.ok, 128, `${name}: ${result.message}`);
    else if (where === "rope_scaling" && !name.endsWith("manyKeys")) {
      // An unknown rope key: a warning, its value never read.
      assert.equal(result.ok, 128, `${name}: ${result.message}`);
      assert.equal(result.warnings, 1, name);
    } else {
      assert.ok(
        ["TypeError", "RangeError"].includes(result.error),
        `${name}: ${JSON.stringify(result)}`,
      );
      const field = {
        short_factor: "rope_scaling.short_factor",
        layer_types: "layer_types",
        mrope_section: "rope_scaling.mrope_section",
        factor: "rope_scaling.factor",
        rope_scaling: "rope_scaling",
      }[where];
      // A coded refusal of the field, or of one of its elements or keys.
      assert.ok(
        Object.hasOwn(errorCodes, result.code),
        `${name}: ${result.code}`,
      );
      assert.match(
        result.option,
        new RegExp(`^${field.replace(".", "\\.")}(\\[\\d+\\]|\\.|$)`),
        `${name}: ${result.message}`,
      );
    }
  }
});

test("config values the engine itself would refuse get coded refusals, and quoted values stay short", async () => {
  const { fromConfig, init, ropeFrequencies } = await import(library);
  await init();
  const llama = (extra) => ({
    model_type: "llama",
    hidden_size: 64,
    num_attention_heads: 2,
    max_position_embeddings: 4096,
    ...extra,
  });
  const longrope = (short, long) =>
    llama({
      rope_scaling: {
        type: "longrope",
        short_factor: short,
        long_factor: long,
        original_max_position_embeddings: 2048,
      },
    });
  const expected = fromConfig(
    longrope(Array(16).fill(1), Array(16).fill(2)),
  ).scaling;
  // Integer typed arrays in a factor list are lists of numbers.
  for (const T of [
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Int32Array,
    Uint32Array,
  ])
    assert.deepEqual(
      fromConfig(longrope(new T(16).fill(1), new T(16).fill(2))).scaling,
      expected,
      T.name,
    );
  const refusal = (call, Class, code, option) =>
    assert.throws(call, (error) => {
      assert.ok(error instanceof Class, error.message);
      assert.deepEqual([error.code, error.option], [code, option]);
      assert.ok(error.message.length < 400, `${error.message.length} chars`);
      return true;
    });
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  refusal(
    () => fromConfig(llama({ rope_scaling: proxy })),
    TypeError,
    "ERR_REVOKED",
    "rope_scaling",
  );
  refusal(() => fromConfig(proxy), TypeError, "ERR_REVOKED", "config");
  const buffer = new ArrayBuffer(64);
  const detached = new Float32Array(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  refusal(
    () => fromConfig(longrope(detached, detached)),
    TypeError,
    "ERR_DETACHED",
    "rope_scaling.short_factor",
  );
  // A Proxy around a typed array is no list: named as what it is, never
  // by the constructor of the array it wraps.
  const wrapped = () => new Proxy(new Float64Array(16).fill(1), {});
  refusal(
    () => fromConfig(longrope(wrapped(), wrapped())),
    TypeError,
    "ERR_NOT_ARRAY",
    "rope_scaling.short_factor",
  );
  assert.throws(
    () => fromConfig(longrope(wrapped(), wrapped())),
    /got a Proxy of a typed array$/,
  );
  refusal(
    () =>
      fromConfig(
        llama({
          rope_scaling: {
            type: "mrope",
            mrope_section: new Proxy(Float64Array.of(8, 4, 4), {}),
          },
        }),
      ),
    TypeError,
    "ERR_NOT_ARRAY",
    "rope_scaling.mrope_section",
  );
  refusal(
    () => fromConfig(longrope(new BigInt64Array(16), new BigInt64Array(16))),
    TypeError,
    "ERR_NOT_NUMBER",
    "rope_scaling.short_factor",
  );
  // A megabyte of rope type, or 65536 layer types, quoted in a few hundred
  // characters that say how long they were.
  refusal(
    () =>
      fromConfig(llama({ rope_scaling: { rope_type: "x".repeat(1 << 20) } })),
    RangeError,
    "ERR_ROPE_TYPE",
    "rope_scaling.rope_type",
  );
  assert.throws(
    () =>
      fromConfig(llama({ rope_scaling: { rope_type: "x".repeat(1 << 20) } })),
    /… \(1048576 characters\)/,
  );
  const layers = Array.from({ length: 65536 }, (_, i) => `layer${i}`);
  refusal(
    () => fromConfig(llama({ layer_types: layers }), { layerType: "other" }),
    RangeError,
    "ERR_NOT_ONE_OF",
    "layerType",
  );
  assert.throws(
    () => fromConfig(llama({ layer_types: layers }), { layerType: "other" }),
    /and 65528 more/,
  );
  const wide = fromConfig(
    llama({ rope_scaling: { rope_type: "default", ["k".repeat(1 << 20)]: 1 } }),
  );
  assert.ok(wide.warnings[0].length < 400, "a huge unknown key, quoted short");
  assert.equal(ropeFrequencies({ dim: 2 }).inverseFrequencies[0], 1);
});
