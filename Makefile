# helia: `make demo` plans the bundled example; `make check` runs every test.
# Both install what is missing and configure once; repeat runs are
# incremental.

BUILD_DIR ?= build
# Where LLVM/MLIR 22 is installed: the environment's or the command line's
# LLVM_PREFIX, else the default of scripts/llvm-prefix.sh. Exported, so that
# the scripts make runs use the same one.
LLVM_PREFIX ?= $(shell . scripts/llvm-prefix.sh && echo "$$LLVM_PREFIX")
export LLVM_PREFIX
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

# Hardening (docs/Hardening.md). check-sanitize runs the whole lit and unit
# suite built with AddressSanitizer and UndefinedBehaviorSanitizer, in its own
# build directory; fuzz builds the libFuzzer targets and runs each for
# FUZZ_SECONDS. Both need the compiler-rt runtimes, installed on demand.
ASAN_BUILD_DIR ?= build-asan
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in
# instrumented code only, so allocations that libMLIR.so (not instrumented)
# makes from an allocator helia's code grew would read as use-after-poison.
SANITIZER_ENV := \
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:allow_user_poisoning=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

.PHONY: deps-sanitize check-sanitize fuzz fuzz-diff

deps-sanitize: deps
	@scripts/install-deps.sh libclang-rt-22-dev

$(ASAN_BUILD_DIR)/build.ninja: | deps-sanitize
	cmake -S . -B $(ASAN_BUILD_DIR) $(CMAKE_FLAGS) -DHELIA_ENABLE_SANITIZERS=ON

check-sanitize: $(ASAN_BUILD_DIR)/build.ninja
	ninja -C $(ASAN_BUILD_DIR) -j$(JOBS)
	$(SANITIZER_ENV) $(LIT) -sv $(ASAN_BUILD_DIR)/test
	cd $(ASAN_BUILD_DIR) && $(SANITIZER_ENV) ctest -j$(JOBS) --output-on-failure -E '^lit$$'

$(FUZZ_BUILD_DIR)/build.ninja: | deps-sanitize
	cmake -S . -B $(FUZZ_BUILD_DIR) $(CMAKE_FLAGS) \
	  -DHELIA_ENABLE_SANITIZERS=ON -DHELIA_ENABLE_FUZZERS=ON

fuzz: $(FUZZ_BUILD_DIR)/build.ninja
	ninja -C $(FUZZ_BUILD_DIR) -j$(JOBS) helia-fuzzers
	fuzz/run.sh $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS)
	@$(MAKE) --no-print-directory fuzz-diff

# The differential execution fuzzer (fuzz/differential): generated programs
# run planned and plain on the Release build and must print the same bits.
# FUZZ_SEEDS programs from seed FUZZ_SEED_START, or, when FUZZ_SEEDS is
# empty, consecutive seeds for FUZZ_SECONDS seconds (from a seed taken from
# the clock unless FUZZ_SEED_START is set). Failing modules are kept in
# FUZZ_DIFF_DIR.
FUZZ_SEEDS ?=
FUZZ_SEED_START ?= auto
FUZZ_DIFF_DIR ?= $(BUILD_DIR)/fuzz-diff
fuzz-diff: build
	rm -rf $(FUZZ_DIFF_DIR)
	python3 fuzz/differential/run.py --helia-opt $(HELIA_OPT) \
	  --mlir-runner $(LLVM_PREFIX)/bin/mlir-runner \
	  --shared-libs $(LLVM_PREFIX)/lib/libmlir_runner_utils.so,$(LLVM_PREFIX)/lib/libmlir_c_runner_utils.so \
	  -j $(JOBS) --start $(FUZZ_SEED_START) --triage --keep $(FUZZ_DIFF_DIR) \
	  $(if $(FUZZ_SEEDS),--count $(FUZZ_SEEDS),--seconds $(FUZZ_SECONDS))

clean:
	rm -rf $(BUILD_DIR) $(ASAN_BUILD_DIR) $(FUZZ_BUILD_DIR)
