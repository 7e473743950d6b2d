//===- CheckpointFuzzer.cpp - libFuzzer target for checkpoint indexes -----===//
//
// Any input may be rejected, none may crash, leak or hang; an accepted
// index must have self-consistent entries.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Checkpoint.h"

#include <cstdlib>
#include <string>

using namespace tfc::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  CheckpointReader reader;
  std::string error;
  if (!reader.parseIndex(data, size, "fuzz.index", error)) {
    if (error.empty())
      std::abort();
    return 0;
  }
  for (const auto &[name, entry] : reader.entries())
    if (name.empty())
      std::abort(); // The header is not an entry.
  return 0;
}
