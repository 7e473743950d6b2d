//===- Philox.h - TensorFlow's counter-based random generator ---*- C++ -*-===//
//
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3"), TensorFlow's generator: a 128-bit counter encrypted under a 64-bit
// key gives four 32-bit words. TensorFlow's PhiloxRandom(seed, seed2) is
// the key `seed` and the counter's high half `seed2`. The random kernels
// (runtime/kernels/cpu/Random.cpp) and the shuffle queues draw from it.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_PHILOX_H
#define TFC_LIB_RUNTIME_PHILOX_H

#include <cstdint>
#include <cstring>

namespace tfc::philox {

using u32 = uint32_t;
using u128 = unsigned __int128;

struct Block {
  u32 word[4];
};

/// Philox4x32-10 of the 128-bit counter under the 64-bit key.
inline Block philox(u128 counter, uint64_t key) {
  u32 c[4] = {u32(counter), u32(counter >> 32), u32(counter >> 64),
              u32(counter >> 96)};
  u32 k[2] = {u32(key), u32(key >> 32)};
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    uint64_t p1 = uint64_t(0xCD9E8D57u) * c[2];
    u32 next[4] = {u32(p1 >> 32) ^ c[1] ^ k[0], u32(p1),
                   u32(p0 >> 32) ^ c[3] ^ k[1], u32(p0)};
    std::memcpy(c, next, sizeof(c));
    k[0] += 0x9E3779B9u;
    k[1] += 0xBB67AE85u;
  }
  return {{c[0], c[1], c[2], c[3]}};
}

/// The words of consecutive blocks one at a time (TensorFlow's
/// SingleSampleAdapter over PhiloxRandom).
struct WordStream {
  u128 counter;
  uint64_t key;
  Block block{};
  int used = 4;
  u32 next() {
    if (used == 4) {
      block = philox(counter++, key);
      used = 0;
    }
    return block.word[used++];
  }
};

} // namespace tfc::philox

#endif // TFC_LIB_RUNTIME_PHILOX_H
