// Turns a status code of the C core into an exception. The JS layer
// validates first, so these are a second line of defence.
import { rangeError, typeError } from "./options.js";

const MESSAGES = [
  null,
  [typeError, "a buffer pointer is null or misaligned"],
  [rangeError, 'option "dim" is out of range'],
  [rangeError, 'option "base" must be finite and > 1'],
  [rangeError, 'option "layout" is unknown'],
  [rangeError, 'option "schedule" is unknown'],
  [rangeError, 'option "oddDim" is unknown, or refuses this odd dim'],
  [rangeError, "positions must be finite, and position × frequency too"],
  [
    rangeError,
    'option "frequencies" has the wrong length or a non-finite value',
  ],
  [rangeError, 'option "scale" must be finite'],
  [
    rangeError,
    'options "minTimescale" and "maxTimescale" must be finite, > 0 and give finite frequencies',
  ],
  [rangeError, 'option "shift" must be finite and below dim / 2'],
  [rangeError, "the result does not fit in the module's 4 GiB memory"],
  [rangeError, "a count is out of range"],
  [rangeError, "an argument is out of range"],
  [rangeError, "offsets must be finite, and offset × frequency too"],
  [
    rangeError,
    'option "pairing" is unknown, or a column has no partner to rotate with (odd dim)',
  ],
  [rangeError, 'option "scaling.type" is unknown'],
  [typeError, 'option "scaling" has a parameter its type does not take'],
  [rangeError, 'option "scaling.factor" must be finite and >= 1'],
  [
    rangeError,
    'option "scaling.maxPositionEmbeddings" must be finite and >= 1',
  ],
  [rangeError, 'option "scaling.seqLen" must be finite and >= 0'],
  [
    rangeError,
    'option "scaling.originalMaxPositionEmbeddings" is out of range',
  ],
  [
    rangeError,
    'options "scaling.betaFast" and "scaling.betaSlow" must be > 0, fast >= slow',
  ],
  [
    rangeError,
    'option "scaling.attentionFactor" must be finite, > 0 and fit the dtype',
  ],
  [
    rangeError,
    'options "scaling.mscale" and "scaling.mscaleAllDim" must be finite and >= 0',
  ],
  [typeError, 'option "scaling.truncate" must be true or false'],
  [
    rangeError,
    'options "scaling.lowFreqFactor" and "scaling.highFreqFactor" must be > 0, high > low',
  ],
  [
    rangeError,
    'option "scaling.shortFactor" must hold dim / 2 finite numbers > 0',
  ],
  [
    rangeError,
    'option "scaling.longFactor" must hold dim / 2 finite numbers > 0',
  ],
  [rangeError, 'option "dtype" is unknown'],
];

export function check(status, where) {
  if (status === 0) return;
  const [make, message] = MESSAGES[status] ?? [
    rangeError,
    `unexpected status ${status}`,
  ];
  throw make(`${where}: ${message}`);
}
