/* One spelling of the 128-bit SIMD intrinsics for every build: the real
   wasm_simd128.h under Emscripten, SIMDe's portable implementation of the
   same intrinsics elsewhere, so the native tests run the very same kernels. */
#ifndef PE_SIMD_H
#define PE_SIMD_H

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#endif

#endif
