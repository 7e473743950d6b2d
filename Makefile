# The two commands of the README, and the steps they are made of.
#   make run   installs what is missing, builds, and runs tfc on the example.
#   make test  installs what is missing, builds, and runs every test.
BUILD ?= build
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
EXAMPLE ?= examples/mlp/frozen.pb

# Let ccache share results between clones in different directories.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all deps configure build run test fuzz docs clean

all: build

deps:
	./scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD)

run: build
	@echo "== tfc info $(EXAMPLE)"
	$(BUILD)/bin/tfc info $(EXAMPLE)
	@echo "== tfc compile $(EXAMPLE) (the optimized graph, then a program)"
	$(BUILD)/bin/tfc compile $(EXAMPLE) --feed x --fetch Identity --emit mlir -o $(BUILD)/example.mlir
	grep -v 'Const name' $(BUILD)/example.mlir
	$(BUILD)/bin/tfc compile $(EXAMPLE) --feed x --fetch Identity -o $(BUILD)/example
	@echo "== $(BUILD)/example --input x=examples/mlp/inputs/0.npy --bench 1000"
	$(BUILD)/example --input x=examples/mlp/inputs/0.npy --bench 1000

test: build
	cd $(BUILD) && ctest --output-on-failure

# Coverage-guided fuzzing of what parses input: the GraphDef importer, the
# runtime's .npy and checkpoint readers, device names and cluster specs,
# the tensor messages tasks send each other, and the text kernels that
# split and decode fed strings (clang's libFuzzer), each
# for a bounded time.
fuzz: deps
	test -f $(FUZZ_BUILD)/build.ninja || \
	  cmake -G Ninja -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
	    -DTFC_ENABLE_FUZZERS=ON
	cmake --build $(FUZZ_BUILD) --target graphdef-fuzzer npy-fuzzer checkpoint-fuzzer device-fuzzer transport-fuzzer text-fuzzer
	./scripts/run-fuzzer.sh $(FUZZ_BUILD)/bin/graphdef-fuzzer $(FUZZ_SECONDS) test/fuzz/seeds
	./scripts/run-fuzzer.sh $(FUZZ_BUILD)/bin/npy-fuzzer $(FUZZ_SECONDS) test/fuzz/seeds-npy
	./scripts/run-fuzzer.sh $(FUZZ_BUILD)/bin/checkpoint-fuzzer $(FUZZ_SECONDS) test/fuzz/seeds-checkpoint
	./scripts/run-fuzzer.sh $(FUZZ_BUILD)/bin/device-fuzzer $(FUZZ_SECONDS) test/fuzz/seeds-device
	./scripts/run-fuzzer.sh $(FUZZ_BUILD)/bin/transport-fuzzer $(FUZZ_SECONDS) test/fuzz/seeds-transport
	./scripts/run-fuzzer.sh $(FUZZ_BUILD)/bin/text-fuzzer $(FUZZ_SECONDS) test/fuzz/seeds-text

# Regenerates the committed dialect and pass references in docs/generated/.
docs: build
	cmake --build $(BUILD) --target tfc-docs

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD)
