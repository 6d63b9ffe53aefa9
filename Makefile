# helia: `make demo` plans the bundled example; `make check` runs every test.
# Both install what is missing and configure once; repeat runs are
# incremental.

BUILD_DIR ?= build
LLVM_PREFIX ?= /usr/lib/llvm-22
JOBS ?= 2
LIT ?= $(LLVM_PREFIX)/bin/lit
HELIA_OPT := $(BUILD_DIR)/bin/helia-opt

CMAKE_FLAGS := -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=$(LIT) \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld \
  $(EXTRA_CMAKE_FLAGS)

.PHONY: all deps configure build check check-lit check-unit demo bench docs clean

all: build

# The stamp is refreshed when the package list changes.
$(BUILD_DIR)/.deps: scripts/install-deps.sh
	@mkdir -p $(BUILD_DIR)
	@scripts/install-deps.sh
	@touch $@

deps: $(BUILD_DIR)/.deps

$(BUILD_DIR)/build.ninja: | $(BUILD_DIR)/.deps
	cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

configure: $(BUILD_DIR)/build.ninja

build: configure
	ninja -C $(BUILD_DIR) -j$(JOBS)

check-lit: build
	$(LIT) -sv $(BUILD_DIR)/test

check-unit: build
	cd $(BUILD_DIR) && ctest -j$(JOBS) --output-on-failure -E '^lit$$'

# lit first, then the unit tests; ctest's summary closes the run.
check: check-lit check-unit

demo: build
	@scripts/demo.sh $(BUILD_DIR)

bench: build
	@scripts/bench.sh $(BUILD_DIR)

# Refresh docs/generated from the ODS-generated reference.
docs: build
	ninja -C $(BUILD_DIR) helia-doc-copy

clean:
	rm -rf $(BUILD_DIR)
