# SPDX-License-Identifier: Apache-2.0
# Thin driver over CMake presets. The two commands that matter:
#   make demo    build, then run the time-travel-and-rollback story
#   make check   build, then run every test (normal build, then ASan+UBSan)
.PHONY: all deps build release check check-dev check-asan demo bench install fuzz clean format

all: build

deps:
	@bash scripts/deps.sh

build: deps
	@cmake --preset dev >/dev/null
	@cmake --build --preset dev

release: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release

check: deps
	@bash scripts/check.sh

demo: build
	@bash scripts/demo.sh build/dev/floe

bench: release
	@bash scripts/bench.sh build/release

install: release
	@cmake --install build/release $(if $(PREFIX),--prefix $(PREFIX),)

fuzz: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build
