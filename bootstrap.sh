#!/usr/bin/env bash
# Installs what building and testing sinusoidal-pe need and this machine
# lacks: Debian packages with apt-get, the npm dev dependencies from the
# lockfile. Every check is cheap and nothing present is installed again, so
# on a machine that has the tools this needs neither root nor network.
#
#   ./bootstrap.sh                 everything
#   ./bootstrap.sh build test ...  some of: build (emcc, zopfli, node, npm),
#                                  test (compilers, sanitizer and fuzzer
#                                  runtimes, SIMDe, NumPy, wabt,
#                                  clang-format), browser (Chromium and a CJK
#                                  font, so the page's 中文 screenshots show
#                                  their text), npm (npm ci)
#
# The make targets call it before the steps that need each group.
set -eu
cd "$(dirname "$0")"

missing=""

# need PACKAGE CHECK...: PACKAGE is missing unless the command CHECK succeeds.
need() {
  package=$1
  shift
  if ! "$@" >/dev/null 2>&1; then
    case " $missing " in
      *" $package "*) ;;
      *) missing="$missing $package" ;;
    esac
  fi
}

has() {
  command -v "$1"
}

build_tools() {
  need emscripten has emcc
  need zopfli has zopfli
  need nodejs has node
  need npm has npm
}

test_tools() {
  need wabt has wasm-objdump
  need clang-format has clang-format
  need gcc has gcc
  need python3-numpy /usr/bin/python3 -c "import numpy"
  need libsimde-dev test -f /usr/include/simde/wasm/simd128.h
  need clang has clang
  need libclang-rt-14-dev sh -c \
    'ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
}

browser_tools() {
  need chromium has chromium
  need fonts-wqy-microhei test -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc
}

npm_packages=false
[ $# -gt 0 ] || set -- build test browser npm
for group in "$@"; do
  case $group in
    build) build_tools ;;
    test) test_tools ;;
    browser) browser_tools ;;
    npm)
      need nodejs has node
      need npm has npm
      npm_packages=true
      ;;
    *)
      echo "bootstrap.sh: unknown group \"$group\"; groups: build, test, browser, npm" >&2
      exit 2
      ;;
  esac
done

if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "bootstrap.sh: missing Debian packages:$missing; run it as root, or install them" >&2
    exit 1
  fi
  echo "installing Debian packages:$missing"
  apt-get update -qq
  # $missing is a list of package names, split on purpose.
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

# The dev dependencies, exactly as the lockfile has them, whenever
# node_modules is absent or older than the lockfile.
installed=node_modules/.package-lock.json
if $npm_packages && { [ ! -f "$installed" ] || [ package-lock.json -nt "$installed" ]; }; then
  npm ci --no-audit --no-fund --loglevel=error
  touch "$installed"
fi
