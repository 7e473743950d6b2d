//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Any input may be rejected, none may crash, leak or hang; an accepted one
// must be self-consistent, and writing it and reading it back must give the
// same array.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Npy.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace tfc::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  NpyArray array;
  std::string error;
  if (!parseNpy(data, size, "fuzz.npy", array, error))
    return 0;
  bool isString = array.dtype == DType::String;
  if (isString ? array.strings.size() != size_t(array.numElements()) ||
                     !array.data.empty()
               : array.data.size() !=
                     size_t(array.numElements()) * dtypeSize(array.dtype))
    std::abort();
  static const std::string path =
      "/tmp/tfc-npy-fuzz-" + std::to_string(getpid()) + ".npy";
  NpyArray again;
  bool roundTrip = writeNpy(path, array, error) && readNpy(path, again, error);
  std::remove(path.c_str()); // (one file per fuzzing process, none left)
  if (!roundTrip || again.dtype != array.dtype || again.shape != array.shape ||
      again.data != array.data || again.strings != array.strings) {
    std::fprintf(stderr, "write/read changed the array: %s\n", error.c_str());
    std::abort();
  }
  return 0;
}
