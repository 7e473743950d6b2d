//===- CheckpointFuzzer.cpp - libFuzzer target for checkpoint indexes -----===//
//
// Any input may be rejected, none may crash, leak or hang; an accepted
// index must have self-consistent entries. The same bytes are also parsed
// as a `checkpoint` state file: accepted ones name a latest checkpoint;
// and as the data of a string tensor of 1 to 4 elements: accepted ones
// encode back to the same bytes with the same checksum.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/CheckpointManager.h"

#include <cstdlib>
#include <string>

using namespace tfc::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  CheckpointState state;
  std::string error;
  if (parseCheckpointState(std::string(reinterpret_cast<const char *>(data), size),
                           "dir", "dir/checkpoint", state, error)) {
    if (state.latest.empty())
      std::abort();
  } else if (error.empty()) {
    std::abort();
  }
  for (int64_t count = 1; count <= 4; ++count) {
    std::vector<std::string> strings;
    uint32_t crc = 0, again = 0;
    if (decodeStrings(data, size, count, strings, crc) &&
        (strings.size() != size_t(count) ||
         encodeStrings(strings, again) !=
             std::string(reinterpret_cast<const char *>(data), size) ||
         again != crc))
      std::abort();
  }
  error.clear();
  CheckpointReader reader;
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
