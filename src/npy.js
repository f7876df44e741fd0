// NumPy .npy encoding of row-major typed arrays, so tables can be handed to
// Python without a conversion step, and the reading of a 1-D .npy of
// numbers. Little-endian data; the header is padded so the data starts on a
// 64-byte boundary, as NumPy writes. Headers up to 65535 bytes are format
// 1.0 (a uint16 length); longer ones are format 2.0 (a uint32 length), as
// NumPy falls back to.
import {
  bufferOf,
  byteLengthOf,
  byteOffsetOf,
  calling,
  integer,
  kindOf,
  lengthOf,
  rangeError,
  requireReadable,
  typeError,
} from "./options.js";

/** The descriptor of each array kind written. */
export const DESCRIPTORS = Object.freeze({
  __proto__: null,
  Float32Array: "<f4",
  Float64Array: "<f8",
  Uint16Array: "<f2", // IEEE half-precision bits
  Float16Array: "<f2", // where the engine has one
});
const WRITTEN = Object.freeze(["<f4", "<f8", "<f2"]);
const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function descriptorOf(values) {
  const descriptor = DESCRIPTORS[kindOf(values)];
  if (descriptor === undefined)
    throw typeError(
      "values must be a Float32Array, a Float64Array, a Float16Array or a Uint16Array of float16 bits",
      "values",
      "ERR_TYPE",
    );
  return descriptor;
}

// The shape read once into integers whose product is a safe integer.
function checkedShape(shape) {
  if (!Array.isArray(shape) || shape.length < 1)
    throw typeError(
      "shape must be a non-empty array of integers",
      "shape",
      "ERR_NOT_ARRAY",
    );
  const dims = Array.from(shape, (n, i) =>
    integer(n, `shape[${i}]`, 0, Number.MAX_SAFE_INTEGER),
  );
  const count = dims.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(count))
    throw rangeError(
      `shape [${dims.join(", ")}] holds ${count} values, more than ${Number.MAX_SAFE_INTEGER}`,
      "shape",
      "ERR_OUT_OF_RANGE",
    );
  return { dims, count };
}

/** The header of a .npy file holding `shape` values of `descriptor` ("<f4", "<f8", "<f2"). */
function npyHeaderOf(descriptor, shape) {
  if (!WRITTEN.includes(descriptor)) {
    const message = `descriptor must be one of ${WRITTEN.map((d) => `"${d}"`).join(", ")}, got ${typeof descriptor === "string" ? JSON.stringify(descriptor) : typeof descriptor}`;
    throw typeof descriptor === "string"
      ? rangeError(message, "descriptor", "ERR_NOT_ONE_OF")
      : typeError(message, "descriptor", "ERR_NOT_STRING");
  }
  const { dims } = checkedShape(shape);
  const tuple = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(", ")})`;
  const dict = `{'descr': '${descriptor}', 'fortran_order': False, 'shape': ${tuple}, }`;
  // Magic and version (8 bytes), the length (2 or 4), the dict, a newline.
  let lengthBytes = 2;
  let total = Math.ceil((8 + lengthBytes + dict.length + 1) / 64) * 64;
  if (total - 8 - lengthBytes > 0xffff) {
    lengthBytes = 4;
    total = Math.ceil((8 + lengthBytes + dict.length + 1) / 64) * 64;
  }
  const textLength = total - 8 - lengthBytes;
  const header = new Uint8Array(total);
  header.set(MAGIC);
  header.set(lengthBytes === 2 ? [1, 0] : [2, 0], 6);
  const view = new DataView(header.buffer);
  if (lengthBytes === 2) view.setUint16(8, textLength, true);
  else view.setUint32(8, textLength, true);
  const at = 8 + lengthBytes;
  for (let i = 0; i < dict.length; i++) header[at + i] = dict.charCodeAt(i);
  header.fill(0x20, at + dict.length, total - 1);
  header[total - 1] = 0x0a;
  return header;
}

/**
 * The bytes of a Float32Array, Float64Array or Uint16Array in little-endian
 * order: a view of its own bytes on a little-endian machine, a swapped copy
 * elsewhere.
 */
export function littleEndianBytes(values) {
  const data = new Uint8Array(
    bufferOf(values),
    byteOffsetOf(values),
    byteLengthOf(values),
  );
  if (LITTLE_ENDIAN) return data;
  const size = byteLengthOf(values) / lengthOf(values);
  const swapped = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i += size)
    for (let b = 0; b < size; b++) swapped[i + b] = data[i + size - 1 - b];
  return swapped;
}

/** A complete .npy file of `values` with the given shape (C order). */
function toNpyOf(values, shape) {
  const descriptor = descriptorOf(values);
  const { dims, count } = checkedShape(shape);
  // The shape was read first: a getter there may have detached the values.
  requireReadable(values, "values");
  const length = lengthOf(values);
  if (count !== length)
    throw rangeError(
      `shape [${dims.join(", ")}] holds ${count} values, but values has ${length}`,
      "shape",
      "ERR_LENGTH",
    );
  const header = npyHeaderOf(descriptor, dims);
  const data = littleEndianBytes(values);
  const file = new Uint8Array(header.length + data.length);
  file.set(header);
  file.set(data, header.length);
  return file;
}

// The element readers of the descriptors a 1-D array of numbers may have.
const READERS = {
  "<f2": [2, (view, at) => halfToNumber(view.getUint16(at, true))],
  "<f4": [4, (view, at) => view.getFloat32(at, true)],
  "<f8": [8, (view, at) => view.getFloat64(at, true)],
  "|i1": [1, (view, at) => view.getInt8(at)],
  "|u1": [1, (view, at) => view.getUint8(at)],
  "<i2": [2, (view, at) => view.getInt16(at, true)],
  "<u2": [2, (view, at) => view.getUint16(at, true)],
  "<i4": [4, (view, at) => view.getInt32(at, true)],
  "<u4": [4, (view, at) => view.getUint32(at, true)],
  "<i8": [8, (view, at) => Number(view.getBigInt64(at, true))],
  "<u8": [8, (view, at) => Number(view.getBigUint64(at, true))],
};

function halfToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  return sign * (1024 + fraction) * 2 ** (exponent - 25);
}

/** float16 bits as float32 values, each exact (float32 holds every half). */
export function float16ToFloat32(bits) {
  const length = lengthOf(bits);
  const values = new Float32Array(length);
  for (let i = 0; i < length; i++) values[i] = halfToNumber(bits[i]);
  return values;
}

/**
 * The numbers of a 1-D .npy file (float or integer, little-endian) as a
 * Float64Array; `name` names the file in messages. 64-bit integers beyond
 * 2^53 are refused rather than rounded.
 */
export function fromNpy(bytes, name) {
  const refuse = (why) =>
    rangeError(`${name} is not a 1-D .npy of numbers: ${why}`, name, "ERR_NPY");
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b))
    throw refuse("no NUMPY magic");
  const version = bytes[6];
  if (version < 1 || version > 3)
    throw refuse(`format version ${version} is unknown`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengthBytes = version === 1 ? 2 : 4;
  const textLength =
    lengthBytes === 2 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = 8 + lengthBytes + textLength;
  if (dataStart > bytes.length) throw refuse("the header is cut short");
  const text = new TextDecoder().decode(
    bytes.subarray(8 + lengthBytes, dataStart),
  );
  const descr = /'descr':\s*'([^']*)'/.exec(text)?.[1];
  const shape = /'shape':\s*\((\d+),?\)/.exec(text)?.[1];
  if (shape === undefined)
    throw refuse(`its shape is not 1-D (header ${text.trim()})`);
  const reader =
    READERS[descr === "<i1" ? "|i1" : descr === "<u1" ? "|u1" : descr];
  if (reader === undefined)
    throw refuse(
      `its dtype ${JSON.stringify(descr)} is not one of ${Object.keys(READERS).join(", ")}`,
    );
  const [size, read] = reader;
  const count = Number(shape);
  if (dataStart + count * size > bytes.length)
    throw refuse(`it holds fewer than the ${count} values its header declares`);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = read(view, dataStart + i * size);
    if (size === 8 && descr[1] !== "f" && !Number.isSafeInteger(v))
      throw refuse(`value ${i} is beyond 2^53 and cannot be read exactly`);
    values[i] = v;
  }
  return values;
}

// The public functions, each naming itself in the errors it raises.
export function npyHeader(...args) {
  return calling("npyHeader", npyHeaderOf, args);
}
export function toNpy(...args) {
  return calling("toNpy", toNpyOf, args);
}
