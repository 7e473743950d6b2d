//===- TransportFuzzer.cpp - libFuzzer target for tensor messages ---------===//
//
// What a peer sends a task: the first byte says where gRPC's slices split
// the rest (each of its bits a split after that many eighths), the rest
// is the message. Any message may be refused (with an error), none may
// crash or read outside it. Oracles: an accepted message's data lies
// within it and copies out whole; its header, encoded again around the
// same data, decodes to the same header.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/TensorCoding.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace tfc::distributed;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  uint8_t splits = data[0];
  const uint8_t *message = data + 1;
  size_t bytes = size - 1;
  std::vector<Span> pieces;
  size_t from = 0;
  for (int bit = 0; bit < 8; ++bit) {
    if (!(splits >> bit & 1))
      continue;
    size_t to = bytes * (bit + 1) / 8;
    pieces.push_back({message + from, to - from});
    from = to;
  }
  pieces.push_back({message + from, bytes - from});

  DecodedTensor decoded;
  std::string error;
  if (!decodeTensorMessage(pieces, decoded, error)) {
    if (error.empty())
      std::abort();
    return 0;
  }
  if (decoded.dataOffset + decoded.dataBytes > bytes || decoded.header.key.empty())
    std::abort();
  std::string out(decoded.dataBytes, '\0');
  copyFromPieces(pieces, decoded.dataOffset, out.data(), out.size());
  std::string again = encodeTensorPrefix(decoded.header, out.size()) + out;
  DecodedTensor reread;
  if (!decodeTensorMessage(
          {{reinterpret_cast<const uint8_t *>(again.data()), again.size()}},
          reread, error) ||
      reread.header.key != decoded.header.key ||
      reread.header.sender != decoded.header.sender ||
      reread.header.stepId != decoded.header.stepId ||
      reread.header.incarnation != decoded.header.incarnation ||
      reread.dataBytes != decoded.dataBytes ||
      bool(reread.header.shared) != bool(decoded.header.shared))
    std::abort();
  if (decoded.header.shared) {
    const SharedTensor &a = *decoded.header.shared, &b = *reread.header.shared;
    if (a.host != b.host || a.pid != b.pid || a.fd != b.fd ||
        a.token != b.token || a.bytes != b.bytes || decoded.dataBytes != 0)
      std::abort();
  }
  return 0;
}
