//===- Random.cpp - TensorFlow's Philox streams for the random ops --------===//
//
// RandomUniform, RandomStandardNormal, TruncatedNormal and RandomUniformInt
// give, for the same seed and seed2 attrs, the same values as TensorFlow's
// CPU kernels: the Philox4x32-10 counter-based generator keyed by seed, its
// counter starting at seed2 in the high 64 bits, and TensorFlow's ways of
// turning its 32-bit words into values (mantissa bits for floats,
// Box-Muller for normals, rejection beyond two standard deviations for the
// truncated normal, each output group of 4 drawing from its own stretch of
// 256 samples). Each call of an op reserves 256 samples per output, as
// TensorFlow's kernel does, so a second run continues the stream.
//
// The generator state of each op lives in the program's state area:
// {seed, seed2, samples used, started}. Seeds 0 and 0 mean "random": the
// first call draws them from the system. Threads may run one op at once
// (a queue runner's, the partitions of a step): each call reserves its
// samples under a lock, as TensorFlow's GuardedPhiloxRandom does, so that
// no two calls draw the same ones.
//
// The stateless ops draw from the same streams, keyed by tensors: the
// first versions by a seed pair, scrambled into a key and counter as
// TensorFlow's GenerateKey does; the second by the key and counter
// themselves (what StatelessRandomGetKeyCounter makes of a seed pair).
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Philox.h"
#include "Runtime.h"

#include <cmath>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace tfc::philox;

/// A float in [0, 1) from the low 23 bits: 1.mantissa - 1.
float toFloat(u32 x) {
  u32 bits = (x & 0x7fffffu) | 0x3f800000u;
  float f;
  std::memcpy(&f, &bits, 4);
  return f - 1.0f;
}

/// Two standard normals from two words (TensorFlow's BoxMullerFloat).
void boxMuller(u32 x0, u32 x1, float &f0, float &f1) {
  const float epsilon = 1.0e-7f;
  float u1 = toFloat(x0);
  if (u1 < epsilon)
    u1 = epsilon;
  // The product is computed in double, as `2.0f * M_PI * float` is in C++.
  const float v1 = 2.0f * M_PI * toFloat(x1);
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  sincosf(v1, &f0, &f1);
  f0 *= u2;
  f1 *= u2;
}

enum Kind { Uniform = 0, Normal = 1, TruncatedNormal = 2, UniformInt = 3 };

/// Fills `out` with `n` values of distribution `kind` from the stream of
/// Philox under `key` from counter `base`: TensorFlow's FillPhiloxRandom,
/// each group of outputs from its own blocks.
void fill(tfc_runtime *runtime, int32_t kind, void *out, uint64_t key,
          u128 base, const void *low, const void *high, int64_t n,
          int64_t dtype) {
  // TensorFlow's kernel refuses an empty range; a modulo by it would trap.
  if (kind == UniformInt && n > 0) {
    bool empty = dtype == TFC_INT64
                     ? *static_cast<const int64_t *>(high) <= *static_cast<const int64_t *>(low)
                     : *static_cast<const int32_t *>(high) <= *static_cast<const int32_t *>(low);
    if (empty)
      tfc_fail(runtime, "RandomUniformInt: minval must be less than maxval");
  }
  const int64_t perGroup = kind == UniformInt && dtype == TFC_INT64 ? 2 : 4;
  const int64_t groups = (n + perGroup - 1) / perGroup;
  auto fillGroups = [=](Eigen::Index first, Eigen::Index last) {
    for (Eigen::Index g = first; g < last; ++g) {
      int64_t begin = g * perGroup, count = std::min(perGroup, n - begin);
      if (kind == TruncatedNormal) {
        // Its own 256 samples per group, so that groups are independent.
        WordStream words{base + u128(g) * 256, key};
        float *values = static_cast<float *>(out) + begin;
        int64_t filled = 0;
        while (filled < 4) {
          float f[2];
          u32 x0 = words.next(), x1 = words.next();
          boxMuller(x0, x1, f[0], f[1]);
          for (float v : f)
            if (std::fabs(v) < 2.0f && filled < 4) {
              if (filled < count)
                values[filled] = v;
              ++filled;
            }
        }
        continue;
      }
      Block block = philox(base + u128(g), key);
      if (kind == Uniform) {
        for (int64_t i = 0; i < count; ++i)
          static_cast<float *>(out)[begin + i] = toFloat(block.word[i]);
      } else if (kind == Normal) {
        float f[4];
        boxMuller(block.word[0], block.word[1], f[0], f[1]);
        boxMuller(block.word[2], block.word[3], f[2], f[3]);
        for (int64_t i = 0; i < count; ++i)
          static_cast<float *>(out)[begin + i] = f[i];
      } else if (dtype == TFC_INT64) {
        int64_t lo = *static_cast<const int64_t *>(low);
        uint64_t range = uint64_t(*static_cast<const int64_t *>(high)) - uint64_t(lo);
        for (int64_t i = 0; i < count; ++i) {
          uint64_t bits = block.word[2 * i] | uint64_t(block.word[2 * i + 1]) << 32;
          static_cast<int64_t *>(out)[begin + i] = lo + int64_t(bits % range);
        }
      } else {
        int32_t lo = *static_cast<const int32_t *>(low);
        u32 range = u32(*static_cast<const int32_t *>(high)) - u32(lo);
        for (int64_t i = 0; i < count; ++i)
          static_cast<int32_t *>(out)[begin + i] = lo + int32_t(block.word[i] % range);
      }
    }
  };
  tfc::parallelFor(runtime, groups, Eigen::TensorOpCost(0, 16, 200), fillGroups);
}

} // namespace

/// Starts an op's generator on its first call: {seed, seed2, 128-bit
/// samples used, started}; seeds 0 and 0 draw both from the system.
/// Guards every op's generator state: a reservation is a few words.
static std::mutex generatorMutex;

/// Starts the op's stream on its first call (under generatorMutex).
static void startGenerator(uint64_t *generator, int64_t seed, int64_t seed2) {
  if (generator[3])
    return;
  if (seed == 0 && seed2 == 0) {
    std::random_device device;
    seed = (int64_t(device()) << 32) | device();
    seed2 = (int64_t(device()) << 32) | device();
  }
  generator[0] = uint64_t(seed);
  generator[1] = uint64_t(seed2);
  generator[2] = 0;
  generator[3] = 1;
}

/// Reserves `samples` of the op's stream: its key and the counter of the
/// first.
static std::pair<uint64_t, u128> reserve(uint64_t *generator, int64_t seed,
                                         int64_t seed2, uint64_t samples) {
  std::lock_guard<std::mutex> lock(generatorMutex);
  startGenerator(generator, seed, seed2);
  const u128 base = (u128(generator[1]) << 64) + generator[2];
  generator[2] += samples;
  return {generator[0], base};
}

extern "C" void tfc_cpu_random(tfc_runtime *runtime, int32_t kind, void *out,
                               uint64_t *generator, const void *low,
                               const void *high, int64_t n, int64_t dtype,
                               int64_t seed, int64_t seed2) {
  auto [key, base] = reserve(generator, seed, seed2, uint64_t(n) * 256);
  fill(runtime, kind, out, key, base, low, high, n, dtype);
}

extern "C" void tfc_cpu_random_shuffle(tfc_runtime *, const void *in,
                                       void *out, uint64_t *generator,
                                       int64_t rows, int64_t rowBytes,
                                       int64_t seed, int64_t seed2) {
  const char *from = static_cast<const char *>(in);
  char *to = static_cast<char *>(out);
  if (rows <= 1 || rowBytes == 0) {
    // TensorFlow returns its input then, drawing nothing.
    std::memmove(to, from, rows * rowBytes);
    return;
  }
  // rows - 1 samples reserved, a block of four at a time, and used one
  // 32-bit word after the other.
  auto [key, base] = reserve(generator, seed, seed2, uint64_t(rows - 1 + 3) / 4);
  WordStream words{base, key};
  std::vector<int64_t> order(rows);
  for (int64_t i = 0; i < rows; ++i)
    order[i] = i;
  for (int64_t i = 0; i + 1 < rows; ++i)
    std::swap(order[i], order[i + words.next() % u32(rows - i)]);
  for (int64_t i = 0; i < rows; ++i)
    std::memcpy(to + i * rowBytes, from + order[i] * rowBytes, rowBytes);
}

extern "C" void tfc_cpu_random_key_counter(tfc_runtime *, const void *seed,
                                           uint64_t *key, uint64_t *counter,
                                           int64_t seed_bytes) {
  // The two seeds (int32 ones sign-extended) scrambled by one Philox block
  // under a fixed key, so that neither needs to be strong (TensorFlow's
  // GenerateKey): the block's first half is the key, its second the high
  // half of the counter.
  uint64_t seeds[2];
  for (int i = 0; i < 2; ++i)
    seeds[i] = seed_bytes == 4 ? uint64_t(int64_t(static_cast<const int32_t *>(seed)[i]))
                               : static_cast<const uint64_t *>(seed)[i];
  Block mix = philox(u128(seeds[0]) | u128(seeds[1]) << 64,
                     0x02461e293ec8f720ull);
  *key = mix.word[0] | uint64_t(mix.word[1]) << 32;
  counter[0] = 0;
  counter[1] = mix.word[2] | uint64_t(mix.word[3]) << 32;
}

extern "C" void tfc_cpu_stateless_random(tfc_runtime *runtime, int32_t kind,
                                         void *out, const void *seed,
                                         const uint64_t *key,
                                         const uint64_t *counter,
                                         const int32_t *algorithm,
                                         const void *low, const void *high,
                                         const char *node, int64_t n,
                                         int64_t dtype, int64_t seed_bytes) {
  // 1 is Philox, 3 "the best for the device": Philox on CPUs.
  if (algorithm && *algorithm != 1 && *algorithm != 3)
    tfc::rt::failAt(runtime, node,
                    "random algorithm " + std::to_string(*algorithm) +
                        " is not supported (only 1, Philox, and 3, auto)");
  uint64_t seedKey, seedCounter[2];
  if (seed) {
    tfc_cpu_random_key_counter(runtime, seed, &seedKey, seedCounter, seed_bytes);
    key = &seedKey;
    counter = seedCounter;
  }
  fill(runtime, kind, out, *key, u128(counter[0]) | u128(counter[1]) << 64,
       low, high, n, dtype);
}
