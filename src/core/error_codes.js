// The rules only JS can check, beside the C core's in status.h: how an
// input is shaped and read (its types, keys, lengths and memory), before
// any value reaches the core; and the module's own failures (a fetch, a
// call before init, a fault), whose class is Error. Together the two lists
// are the one registry of error codes: a rule that both sides check is the
// core's status, and JS raises it under the status's name ("ERR_DIM"), so
// a rule has one code whichever side detects it. constants_to_js.js
// writes this list beside the statuses and refuses a code defined twice;
// src/error-codes.js joins the two into `errorCodes`.
//
// [code, error class, what the code says is wrong]
export const JS_RULES = [
  ["ERR_TYPE", "TypeError", "an argument is not of a kind the function takes"],
  ["ERR_NOT_OBJECT", "TypeError", "options or a config are no plain object"],
  ["ERR_NOT_NUMBER", "TypeError", "an option or element is not a number"],
  ["ERR_NOT_STRING", "TypeError", "an option or config field is not a string"],
  ["ERR_NOT_BOOLEAN", "TypeError", "an option is not true or false"],
  ["ERR_NOT_ARRAY", "TypeError", "an option is not an array of numbers"],
  ["ERR_NOT_INTEGER", "RangeError", "an option is not an integer"],
  ["ERR_NOT_FINITE", "RangeError", "a number is NaN or infinite"],
  ["ERR_OUT_OF_RANGE", "RangeError", "a number is outside its allowed range"],
  ["ERR_NOT_ONE_OF", "RangeError", "a name is not one of the allowed names"],
  ["ERR_UNKNOWN_OPTION", "TypeError", "an options object has an unknown key"],
  [
    "ERR_NOT_APPLICABLE",
    "TypeError",
    "an option does not apply with the others given",
  ],
  ["ERR_REQUIRED", "TypeError", "a required option or config field is absent"],
  ["ERR_COMBINATION", "TypeError", "two options cannot be given together"],
  ["ERR_CONFLICT", "TypeError", "two config fields disagree"],
  ["ERR_LENGTH", "RangeError", "an array has the wrong number of elements"],
  ["ERR_TOO_LONG", "RangeError", "a config list or object is too long"],
  [
    "ERR_OVERLAP",
    "RangeError",
    "an output overlaps an input or another output",
  ],
  [
    "ERR_MODULE_MEMORY",
    "TypeError",
    "an array is a view of the module's memory where one of the caller's is needed",
  ],
  [
    "ERR_DETACHED",
    "TypeError",
    "a typed array's buffer is detached (transferred, or invalidated)",
  ],
  [
    "ERR_OUT_OF_BOUNDS",
    "TypeError",
    "a typed array lies past the end of its resizable buffer",
  ],
  [
    "ERR_REVOKED",
    "TypeError",
    "an input (options, a config, an array) is a revoked Proxy",
  ],
  ["ERR_NO_ROPE", "TypeError", "a config's model has no RoPE on its tokens"],
  ["ERR_NPY", "RangeError", "bytes are not a 1-D .npy file of numbers"],
  ["ERR_PRESET_DIM", "RangeError", "a preset does not take this dim"],
  [
    "ERR_MEMORY",
    "RangeError",
    "the module cannot allocate the memory a call needs now",
  ],
  ["ERR_DISPOSED", "TypeError", "a plan is used after dispose()"],
  ["ERR_RECEIVER", "TypeError", "a plan's method is called on another object"],
  ["ERR_FETCH", "Error", "init() could not fetch the module's source"],
  [
    "ERR_CSP",
    "Error",
    "a Content-Security-Policy refused to compile the module: script-src needs 'wasm-unsafe-eval'",
  ],
  [
    "ERR_NOT_INITIALIZED",
    "Error",
    "a function is called with no instance of the module: before await init(), or after a fault that only init() can recover from",
  ],
  [
    "ERR_FAULT",
    "Error",
    "the module faulted (a trap) in a call: it was reset, and views from earlier calls are detached",
  ],
  ["ERR_STATUS", "RangeError", "the core returned a status it does not define"],
];
