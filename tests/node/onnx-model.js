// A one-node ONNX model, encoded as protobuf by hand: just the fields of
// onnx.proto that a graph of one operator needs (field numbers from
// onnx/onnx.proto3). Used by the ONNX Runtime tests.

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

// Element types of onnx.TensorProto.DataType.
export const ELEMENT = { float: 1, int32: 6, int64: 7, float16: 10 };
// onnx.AttributeProto.AttributeType.
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;

function varint(value) {
  const bytes = [];
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n; // int64 as two's complement, 10 bytes
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    bytes.push(v === 0n ? low : low | 0x80);
  } while (v !== 0n);
  return bytes;
}

const key = (field, wire) => varint((field << 3) | wire);
const int = (field, value) => [...key(field, WIRE_VARINT), ...varint(value)];
const bytes = (field, content) => [
  ...key(field, WIRE_BYTES),
  ...varint(content.length),
  ...content,
];
const text = (field, value) =>
  bytes(field, [...new TextEncoder().encode(value)]);

// ValueInfoProto { name = 1; type = 2 { tensor_type = 1 { elem_type = 1 } } },
// rank and dims left unknown.
const valueInfo = (name, element) => [
  ...text(1, name),
  ...bytes(2, bytes(1, int(1, element))),
];

// A float as protobuf's fixed32: little-endian IEEE single.
function float32(value) {
  const le = new Uint8Array(4);
  new DataView(le.buffer).setFloat32(0, value, true);
  return [...le];
}

// AttributeProto { name = 1; f = 2; i = 3; type = 20 }: an integer, or
// { float: x } for a float attribute.
const attribute = (name, value) =>
  typeof value === "object"
    ? [
        ...text(1, name),
        ...key(2, WIRE_FIXED32),
        ...float32(value.float),
        ...int(20, ATTRIBUTE_FLOAT),
      ]
    : [...text(1, name), ...int(3, value), ...int(20, ATTRIBUTE_INT)];

/**
 * The bytes of a model of one node: `op` in `domain` ("" for the ONNX
 * domain) at `opset`, its inputs and outputs as [name, element type] (an
 * empty name for an optional input left out), its attributes (integers, or
 * { float: x }).
 */
export function oneNodeModel({
  op,
  domain = "",
  opset,
  inputs,
  outputs,
  attributes,
}) {
  const node = [
    ...inputs.flatMap(([name]) => text(1, name)),
    ...outputs.flatMap(([name]) => text(2, name)),
    ...text(3, op),
    ...text(4, op),
    ...Object.entries(attributes).flatMap(([name, value]) =>
      bytes(5, attribute(name, value)),
    ),
    ...text(7, domain),
  ];
  const graph = [
    ...bytes(1, node),
    ...text(2, "graph"),
    ...inputs
      .filter(([name]) => name !== "")
      .flatMap(([name, element]) => bytes(11, valueInfo(name, element))),
    ...outputs.flatMap(([name, element]) =>
      bytes(12, valueInfo(name, element)),
    ),
  ];
  const model = [
    ...int(1, 11), // ir_version: ONNX 1.18, which has opset 23
    ...text(2, "sinusoidal-pe tests"),
    ...bytes(7, graph),
    ...bytes(8, [...text(1, ""), ...int(2, domain === "" ? opset : 21)]),
    ...(domain === "" ? [] : bytes(8, [...text(1, domain), ...int(2, opset)])),
  ];
  return Uint8Array.from(model);
}

/**
 * onnxruntime's com.microsoft RotaryEmbedding as one node: input X, then
 * position_ids, cos_cache and sin_cache, of element type `element` (ids
 * int64), output Y, with these attributes.
 */
export function contribRotaryModel(attributes, element = ELEMENT.float) {
  return oneNodeModel({
    op: "RotaryEmbedding",
    domain: "com.microsoft",
    opset: 1,
    inputs: [
      ["X", element],
      ["position_ids", ELEMENT.int64],
      ["cos_cache", element],
      ["sin_cache", element],
    ],
    outputs: [["Y", element]],
    attributes,
  });
}
