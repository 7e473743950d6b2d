//===- Fingerprint.cpp - FarmHash's 64-bit fingerprint --------------------===//
//
// The fingerprint TensorFlow's string hashing ops compute: FarmHash's
// 64-bit hash of the "na" family, whose output is fixed by its
// specification (bytes read little-endian, whatever the host). Strings of
// up to 16, 32 and 64 bytes have closed forms; longer ones go through a
// loop over 64-byte blocks with a 56-byte state, then mix the last 64
// bytes.
//
//===----------------------------------------------------------------------===//

#include "Fingerprint.h"

#include <utility>

namespace tfc::rt {
namespace {

using Pair = std::pair<uint64_t, uint64_t>;

// FarmHash's primes.
constexpr uint64_t k0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t k1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t k2 = 0x9ae16a3b2f90404fULL;

uint64_t load64(const char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

uint64_t load32(const char *p) {
  uint64_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

uint64_t rotate(uint64_t v, int shift) {
  return shift == 0 ? v : (v >> shift) | (v << (64 - shift));
}

uint64_t shiftMix(uint64_t v) { return v ^ (v >> 47); }

/// Murmur-inspired mixing of two words.
uint64_t mix16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

uint64_t upTo16(const char *s, size_t len) {
  if (len >= 8) {
    uint64_t mul = k2 + len * 2;
    uint64_t a = load64(s) + k2;
    uint64_t b = load64(s + len - 8);
    uint64_t c = rotate(b, 37) * mul + a;
    uint64_t d = (rotate(a, 25) + b) * mul;
    return mix16(c, d, mul);
  }
  if (len >= 4) {
    uint64_t mul = k2 + len * 2;
    uint64_t a = load32(s);
    return mix16(len + (a << 3), load32(s + len - 4), mul);
  }
  if (len > 0) {
    uint8_t a = static_cast<uint8_t>(s[0]);
    uint8_t b = static_cast<uint8_t>(s[len >> 1]);
    uint8_t c = static_cast<uint8_t>(s[len - 1]);
    uint32_t y = uint32_t(a) + (uint32_t(b) << 8);
    uint32_t z = uint32_t(len) + (uint32_t(c) << 2);
    return shiftMix(y * k2 ^ z * k0) * k2;
  }
  return k2;
}

uint64_t upTo32(const char *s, size_t len) {
  uint64_t mul = k2 + len * 2;
  uint64_t a = load64(s) * k1;
  uint64_t b = load64(s + 8);
  uint64_t c = load64(s + len - 8) * mul;
  uint64_t d = load64(s + len - 16) * k2;
  return mix16(rotate(a + b, 43) + rotate(c, 30) + d,
               a + rotate(b + k2, 18) + c, mul);
}

uint64_t upTo64(const char *s, size_t len) {
  uint64_t mul = k2 + len * 2;
  uint64_t a = load64(s) * k2;
  uint64_t b = load64(s + 8);
  uint64_t c = load64(s + len - 8) * mul;
  uint64_t d = load64(s + len - 16) * k2;
  uint64_t y = rotate(a + b, 43) + rotate(c, 30) + d;
  uint64_t z = mix16(y, a + rotate(b + k2, 18) + c, mul);
  uint64_t e = load64(s + 16) * mul;
  uint64_t f = load64(s + 24);
  uint64_t g = (y + load64(s + len - 32)) * mul;
  uint64_t h = (z + load64(s + len - 24)) * mul;
  return mix16(rotate(e + f, 43) + rotate(g, 30) + h,
               e + rotate(f + a, 18) + g, mul);
}

/// Two words from 32 bytes and two seeds.
Pair weak32(const char *s, uint64_t a, uint64_t b) {
  uint64_t w = load64(s), x = load64(s + 8), y = load64(s + 16),
           z = load64(s + 24);
  a += w;
  b = rotate(b + a + z, 21);
  uint64_t c = a;
  a += x;
  a += y;
  b += rotate(a, 44);
  return {a + z, b + c};
}

} // namespace

uint64_t fingerprint64(const char *s, size_t len) {
  if (len <= 16)
    return upTo16(s, len);
  if (len <= 32)
    return upTo32(s, len);
  if (len <= 64)
    return upTo64(s, len);

  constexpr uint64_t seed = 81;
  uint64_t x = seed;
  uint64_t y = seed * k1 + 113;
  uint64_t z = shiftMix(y * k2 + 113) * k2;
  Pair v{0, 0}, w{0, 0};
  x = x * k2 + load64(s);
  // Every whole 64-byte block but the one holding the last byte, then the
  // last 64 bytes (which may overlap the blocks).
  const char *end = s + ((len - 1) / 64) * 64;
  const char *last64 = end + ((len - 1) & 63) - 63;
  do {
    x = rotate(x + y + v.first + load64(s + 8), 37) * k1;
    y = rotate(y + v.second + load64(s + 48), 42) * k1;
    x ^= w.second;
    y += v.first + load64(s + 40);
    z = rotate(z + w.first, 33) * k1;
    v = weak32(s, v.second * k1, x + w.first);
    w = weak32(s + 32, z + w.second, y + load64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  uint64_t mul = k1 + ((z & 0xff) << 1);
  s = last64;
  w.first += (len - 1) & 63;
  v.first += w.first;
  w.first += v.first;
  x = rotate(x + y + v.first + load64(s + 8), 37) * mul;
  y = rotate(y + v.second + load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + load64(s + 40);
  z = rotate(z + w.first, 33) * mul;
  v = weak32(s, v.second * mul, x + w.first);
  w = weak32(s + 32, z + w.second, y + load64(s + 16));
  std::swap(z, x);
  return mix16(mix16(v.first, w.first, mul) + shiftMix(y) * k0 + z,
               mix16(v.second, w.second, mul) + x, mul);
}

} // namespace tfc::rt
