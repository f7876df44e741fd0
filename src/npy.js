// NumPy .npy (format 1.0) encoding of row-major typed arrays, so tables can
// be handed to Python without a conversion step. Little-endian data; the
// header is padded so the data starts on a 64-byte boundary, as NumPy writes.
import { integer, rangeError, typeError } from "./options.js";

const DESCRIPTORS = new Map([
  [Float32Array, "<f4"],
  [Float64Array, "<f8"],
  [Uint16Array, "<f2"], // IEEE half-precision bits
]);

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function descriptorOf(values) {
  const descriptor = DESCRIPTORS.get(values?.constructor);
  if (descriptor === undefined)
    throw typeError(
      "values must be a Float32Array, a Float64Array or a Uint16Array of float16 bits",
    );
  return descriptor;
}

function checkedShape(shape) {
  if (!Array.isArray(shape) || shape.length < 1)
    throw typeError("shape must be a non-empty array of integers");
  return shape.map((n, i) => integer(n, `shape[${i}]`, 0, 2 ** 53 - 1));
}

/** The header of a .npy file holding `shape` values of `dtype` ("<f4", "<f8", "<f2"). */
export function npyHeader(descriptor, shape) {
  const dims = checkedShape(shape);
  const tuple = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(", ")})`;
  const dict = `{'descr': '${descriptor}', 'fortran_order': False, 'shape': ${tuple}, }`;
  const unpadded = 10 + dict.length + 1;
  const total = Math.ceil(unpadded / 64) * 64;
  const text = dict + " ".repeat(total - unpadded) + "\n";
  const header = new Uint8Array(total);
  header.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]); // \x93NUMPY v1.0
  new DataView(header.buffer).setUint16(8, text.length, true);
  for (let i = 0; i < text.length; i++) header[10 + i] = text.charCodeAt(i);
  return header;
}

/** A complete .npy file of `values` with the given shape (C order). */
export function toNpy(values, shape) {
  const descriptor = descriptorOf(values);
  const header = npyHeader(descriptor, shape);
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== values.length)
    throw rangeError(
      `shape [${shape.join(", ")}] holds ${count} values, but values has ${values.length}`,
    );
  const file = new Uint8Array(header.length + values.byteLength);
  file.set(header);
  const data = new Uint8Array(
    values.buffer,
    values.byteOffset,
    values.byteLength,
  );
  if (LITTLE_ENDIAN) file.set(data, header.length);
  else {
    const size = values.BYTES_PER_ELEMENT;
    for (let i = 0; i < data.length; i += size)
      for (let b = 0; b < size; b++)
        file[header.length + i + b] = data[i + size - 1 - b];
  }
  return file;
}
