# sinusoidal-pe: `make serve` builds and serves the page, `make test` runs
# every test. Missing tools are installed on first use, by bootstrap.sh.

SHELL := /bin/bash
PORT ?= 8080

CORE_C := $(wildcard src/core/*.c)
CORE_H := $(wildcard src/core/*.h)
JS_SRC := $(wildcard src/*.js)
CLI_SRC := $(wildcard src/cli/*.js)
TYPES := $(patsubst src/%,dist/%,$(wildcard src/*.d.ts))
NATIVE_TESTS := $(patsubst tests/native/%.c,build/native/%,$(wildcard tests/native/test_*.c))

# The module exports malloc and free plus every function marked PE_EXPORT.

# Debian's emcc 3.1.6 finds its optimizer's `acorn` only on this path.
EMCC := NODE_PATH=/usr/share/nodejs emcc
# Each file is compiled with its own -O level, then linked at -O3 (a link
# at -Oz would swap in libc's size-optimised log and pow, whose results
# differ from the native build's in the last bit).
EMCFLAGS := -msimd128 -Wall -Wextra -Werror -Isrc/core
EMFLAGS := -O3 -msimd128 --no-entry -sSTANDALONE_WASM \
	-sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=1MB \
	-sTOTAL_STACK=256KB -sEXPORTED_FUNCTIONS=_malloc,_free
# The rope scaling rules run once per call on a few dozen frequencies: -Oz
# makes them a third smaller at no measurable cost. The kernels stay at -O3,
# and so do the frequency setup (per call, but visible in small tables) and
# the decay integral and Ci/Si (10-20% slower at -Oz), where the size saved
# is under 1 kB compressed.
COLD_C := src/core/rope_scaling.c
CORE_O := $(patsubst src/core/%.c,build/obj/%.o,$(CORE_C))
NATIVE_CFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror \
	-fsanitize=address,undefined -fno-sanitize-recover=all -Isrc/core
ESBUILD := node_modules/.bin/esbuild --bundle --minify --log-level=warning \
	--alias:sinusoidal-pe-wasm=./build/wasm-base64.js \
	--alias:sinusoidal-pe-constants=./build/constants.js

# Test files run as many at a time as the machine has cores (Node's own
# default leaves one idle, which on two cores is one at a time).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
NODE_TEST := node --test --test-concurrency=$(TEST_JOBS)

DIST := dist/index.js dist/slim.js dist/library.js dist/slim-node.js dist/sinusoidal-pe.global.js \
	dist/sinusoidal-pe.wasm dist/cli.js $(TYPES)

.PHONY: all deps deps-build deps-test deps-browser site page-package serve test test-build test-native \
	test-fuzz test-node test-types test-web test-browser test-package screenshots test-format test-properties properties sizes fuzz \
	test-differential differential \
	format bench clean

all: $(DIST)

# ---- dependencies -----------------------------------------------------------

# bootstrap.sh installs what a group needs and the machine lacks (Debian
# packages, the npm dev dependencies from the lockfile); where everything is
# present it installs nothing. The build needs emcc and node; the tests add
# compilers, sanitizer and fuzzer runtimes, SIMDe, NumPy and Chromium.
deps:
	@./bootstrap.sh

deps-build:
	@./bootstrap.sh build

deps-test:
	@./bootstrap.sh test

deps-browser:
	@./bootstrap.sh browser

node_modules/.package-lock.json: package-lock.json | deps-build
	@./bootstrap.sh npm

# ---- build ------------------------------------------------------------------

build/obj/%.o: src/core/%.c $(CORE_H) | deps-build
	@mkdir -p build/obj
	$(EMCC) $(EMCFLAGS) $(if $(filter $<,$(COLD_C)),-Oz,-O3) -c $< -o $@

build/sinusoidal-pe.wasm: $(CORE_O)
	$(EMCC) $(EMFLAGS) $^ -o $@

# The same code with its function names kept, for bench/profile.js.
build/sinusoidal-pe.profiling.wasm: $(CORE_O)
	$(EMCC) $(EMFLAGS) --profiling-funcs $^ -o $@

# The inline copy is deflated (zlib format, by zopfli: 5% smaller than
# zlib's best), so the package carries the module about once in compressed
# form besides the .wasm file.
build/wasm-base64.js: build/sinusoidal-pe.wasm | deps-build
	{ printf 'export default "'; zopfli --zlib -c $< | base64 -w0; printf '";\n'; } > $@

dist/sinusoidal-pe.wasm: build/sinusoidal-pe.wasm
	@mkdir -p dist
	cp $< $@

# The library and the command line are bundled together, split: the code
# they share (the library's, with the formats, presets and block sizes the
# command line also uses) goes to dist/library.js, which the slim entry
# re-exports and the command line imports, so the package carries it once.
# The command line reads the module file beside it.
dist/slim.js dist/cli.js dist/library.js &: src/slim.js src/cli.js $(JS_SRC) $(CLI_SRC) \
		build/constants.js package.json node_modules/.package-lock.json
	$(ESBUILD) --format=esm --platform=neutral '--external:node:*' --splitting \
		--chunk-names=library --outdir=dist src/slim.js src/cli.js
	chmod +x dist/cli.js

# The constants C and JS share, read from the headers that define them.
build/constants.js: src/core/constants_to_js.js src/core/error_codes.js src/core/status.h \
		src/core/enums.h src/core/rope_scaling.h src/core/bounds.h
	@mkdir -p build
	node $< $@

# The default entry adds the inline module to the slim one, the slim
# entry's Node build the file beside it.
dist/index.js: src/index.js src/inline-module.js build/wasm-base64.js node_modules/.package-lock.json
	$(ESBUILD) --format=esm --external:./slim.js --outfile=$@ $<

dist/slim-node.js: src/slim-node.js node_modules/.package-lock.json
	$(ESBUILD) --format=esm --platform=node --external:./slim.js --outfile=$@ $<

# The packaged classic script loads dist/index.js beside it, so the package
# carries the code and the inline module once.
dist/sinusoidal-pe.global.js: src/global.js node_modules/.package-lock.json
	node_modules/.bin/esbuild --minify --log-level=warning --outfile=$@ $<

# The internals the tests call directly: the raw C exports and the status
# check, past the JS validation.
build/internals.js: tests/node/internals.js build/wasm-base64.js build/constants.js $(JS_SRC) $(CLI_SRC) node_modules/.package-lock.json
	$(ESBUILD) --format=esm --outfile=$@ $<

dist/%.d.ts: src/%.d.ts
	@mkdir -p dist
	cp $< $@

# The page: web/ (ES modules) split into shared chunks, formulas typeset to
# MathML, written to dist/site/ as classic scripts with relative paths only,
# and to dist/site-esm/ as ES modules, for bundlers.
WEB_SRC := $(shell find web -type f)

# The build imports the page's modules in Node, where "sinusoidal-pe" is the
# built package itself.
dist/site/index.html dist/site-esm/embed.js &: dist/index.js dist/slim.js dist/library.js build/wasm-base64.js build/constants.js $(JS_SRC) $(WEB_SRC) node_modules/.package-lock.json
	node web/build.js dist/site dist/site-esm

site: dist/site/index.html

# The page's package, sinusoidal-pe-page: web/package/ with the site (site/) and
# its ES modules (esm/), packed from dist/page/.
PAGE_FILES := $(shell find web/package -type f)
dist/page/package.json: $(PAGE_FILES) LICENSE dist/site/index.html dist/site-esm/embed.js
	rm -rf dist/page
	mkdir -p dist/page
	cp -r web/package/. LICENSE dist/page/
	cp -r dist/site dist/page/site
	cp -r dist/site-esm dist/page/esm

page-package: dist/page/package.json

# ---- main job -----------------------------------------------------------------

serve: site
	@echo "sinusoidal-pe page: http://127.0.0.1:$(PORT)/"
	python3 -m http.server $(PORT) --bind 127.0.0.1 --directory dist/site

# ---- tests --------------------------------------------------------------------

# Everything the tests need is installed first, with one package update,
# then built as many rules at a time as the machine has cores.
test: deps test-build test-format test-native test-fuzz test-differential test-node \
	test-properties test-types test-web test-browser test-package

test-build: | deps
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) $(DIST) build/internals.js site \
		page-package $(NATIVE_TESTS) $(FUZZ_BINARIES) build/differential/native

# The core is compiled once per sanitizer flavour, into a static library
# that each test of the flavour links: gcc's AddressSanitizer and UBSan for
# the native tests and the differential build, clang's libFuzzer coverage
# with both sanitizers for the fuzz targets.
NATIVE_CORE := build/native/core/libcore.a
FUZZ_CORE := build/fuzz/core/libcore.a

build/native/core/%.o: src/core/%.c $(CORE_H) | deps-test
	@mkdir -p build/native/core
	gcc $(NATIVE_CFLAGS) -c $< -o $@

$(NATIVE_CORE): $(patsubst src/core/%.c,build/native/core/%.o,$(CORE_C))
	rm -f $@
	ar rcs $@ $^

build/native/%: tests/native/%.c $(wildcard tests/native/*.h) $(NATIVE_CORE)
	gcc $(NATIVE_CFLAGS) $< $(NATIVE_CORE) -lquadmath -lm -o $@

# The tests are built, and run, as many at a time as the machine has cores;
# each one's output is then printed whole, in order.
test-native: | deps-test
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) $(NATIVE_TESTS)
	@rm -f $(addsuffix .log,$(NATIVE_TESTS)) $(addsuffix .status,$(NATIVE_TESTS))
	@printf '%s\n' $(NATIVE_TESTS) | \
		xargs -P $(TEST_JOBS) -I{} sh -c '{} > {}.log 2>&1; echo $$? > {}.status'
	@status=0; for t in $(NATIVE_TESTS); do cat $$t.log; \
		if [ "$$(cat $$t.status)" != 0 ]; then echo "$$t FAILED"; status=1; fi; \
	done; exit $$status

# libFuzzer targets, one per entry point, under ASan and UBSan: arbitrary
# arguments, and the documented contracts checked on every result. Each has
# its committed corpus in tests/fuzz/corpus/<target>. `make test` runs a short
# smoke; `make fuzz` runs FUZZ_SECONDS per target and merges what adds
# coverage into the committed corpus.
FUZZ_TARGETS := table rotation dot_products decay special_functions rope
FUZZ_BINARIES := $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_TARGETS))
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 6

FUZZ_CFLAGS := -std=c11 -O1 -g -fno-sanitize-recover=all -Isrc/core

build/fuzz/core/%.o: src/core/%.c $(CORE_H) | deps-test
	@mkdir -p build/fuzz/core
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@

$(FUZZ_CORE): $(patsubst src/core/%.c,build/fuzz/core/%.o,$(CORE_C))
	rm -f $@
	ar rcs $@ $^

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_input.h $(FUZZ_CORE)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined $< $(FUZZ_CORE) \
		-lm -o $@

# The targets are built, and the smoke runs them, as many at a time as the
# machine has cores.
test-fuzz: | deps-test
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) $(FUZZ_BINARIES)
	printf '%s\n' $(FUZZ_TARGETS) | \
		xargs -P $(TEST_JOBS) -n 1 tests/fuzz/run.sh $(FUZZ_SMOKE_SECONDS) 0

fuzz: $(FUZZ_BINARIES)
	tests/fuzz/run.sh $(FUZZ_SECONDS) 1 $(FUZZ_TARGETS)

# The same seeded random cases through the native build and the shipped
# .wasm (run by Node): bit for bit where both run the same IEEE operations,
# within the documented tolerance where they call libm. A sample in
# `make test`, DIFF_CASES with `make differential` (DIFF_SEED picks the seed).
DIFF_CASES ?= 100000
DIFF_SEED ?= 1
build/differential/native: tests/differential/native.c $(NATIVE_CORE)
	@mkdir -p build/differential
	gcc $(NATIVE_CFLAGS) $< $(NATIVE_CORE) -lm -o $@

test-differential: build/differential/native build/sinusoidal-pe.wasm \
		build/constants.js
	node tests/differential/run.js $(wordlist 1,2,$^) 1000 $(DIFF_SEED)

differential: build/differential/native build/sinusoidal-pe.wasm \
		build/constants.js
	node tests/differential/run.js $(wordlist 1,2,$^) $(DIFF_CASES) $(DIFF_SEED)

test-node: all build/internals.js | deps-test
	$(NODE_TEST) tests/node/

# Random option sets for every public function: a sample in `make test`,
# 10^4 per function with `make properties` (PROPERTY_SEED picks the seed).
PROPERTY_RUNS ?= 1000
test-properties: all
	PROPERTY_RUNS=$(PROPERTY_RUNS) $(NODE_TEST) tests/property/

properties: all
	PROPERTY_RUNS=10000 node --test tests/property/

# The declarations as a TypeScript user meets them, and as an editor shows
# them on hover.
test-types: all
	node_modules/.bin/tsc -p tests/types
	node --test tests/types/hover.js

# The page's modules that need no browser (its words for the library's
# errors, the charts' ticks), run in Node.
test-web: all
	$(NODE_TEST) tests/web/

test-browser: all site deps-browser
	$(NODE_TEST) tests/browser/

# Screenshots of the page, every section in both languages, both themes and
# three widths, written to build/screenshots/ to be looked at; no test
# compares them, so `make test` does not take them.
screenshots: all site deps-browser
	node --test tests/screenshots/

# The packed tarballs installed into scratch projects: Node, npx, bundlers
# in Chromium, package linters, types, the size budgets; the page's package
# as a copied site, a bundled app's import and a plain page's script.
test-package: all page-package deps-browser
	$(NODE_TEST) tests/package/

# Prints the measured sizes beside the budgets that test-package holds.
sizes: all page-package
	node tests/package/sizes.js

test-format: node_modules/.package-lock.json | deps-test
	clang-format --dry-run --Werror $(CORE_C) $(CORE_H) tests/native/*.[ch] tests/fuzz/*.[ch] \
		tests/differential/*.c
	node_modules/.bin/prettier --check --log-level=warn .

format: node_modules/.package-lock.json
	clang-format -i $(CORE_C) $(CORE_H) tests/native/*.[ch] tests/fuzz/*.[ch] \
		tests/differential/*.c
	node_modules/.bin/prettier --write --log-level=warn .

bench: all build/internals.js build/sinusoidal-pe.profiling.wasm site deps-browser
	node bench/run.js
	node bench/calls.js
	node bench/profile.js
	node bench/first-call.js
	node bench/cli-formats.js
	/usr/bin/python3 bench/float32_gap.py
	node bench/page.js

clean:
	rm -rf build dist
