#!/usr/bin/env bash
# Installs every Debian package that building and testing tfc needs.
# Idempotent: packages already present are left alone, and nothing is
# downloaded when all of them are there.
set -euo pipefail

packages=(
  # Build tools.
  cmake ninja-build ccache g++ make pkg-config python3
  # PyYAML and jsonschema, for the test of the Kubernetes manifests.
  python3-yaml python3-jsonschema
  # MLIR and LLVM 19 (shared libMLIR/libLLVM only), TableGen, lit, FileCheck.
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  # clang 19 and its runtime for the libFuzzer target.
  clang-19 libclang-rt-19-dev
  # Serialization and RPC.
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc
  # Kernels.
  libeigen3-dev libdnnl-dev
  # The compiler's allocator.
  libmimalloc-dev
  # Regular expressions, as TensorFlow's string ops read them.
  libre2-dev
  # Unit tests.
  libgtest-dev libgmock-dev
  # ip, for the distributed tests' hosts in network namespaces (root only).
  iproute2
  # dot, which lays out `tfc viz`'s pictures (run as a program).
  graphviz
  # node, which runs the layout script of `tfc viz`'s page in its test.
  nodejs
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
