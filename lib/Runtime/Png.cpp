//===- Png.cpp - PNG images, written by hand ------------------------------===//
//
// See Png.h. The formats: PNG (ISO/IEC 15948: chunks of a big-endian
// length, a type, the data and the CRC-32 of type and data), zlib (RFC
// 1950: a two-byte header, the deflate stream, the Adler-32 of the data)
// and deflate's stored blocks (RFC 1951: a header byte, LEN and its
// complement NLEN, little-endian, then LEN bytes).
//
//===----------------------------------------------------------------------===//

#include "Png.h"

#include <algorithm>
#include <array>

namespace tfc {
namespace {

/// The CRC-32 of ISO 3309 (PNG's, zlib's crc32), reflected polynomial
/// 0xedb88320.
uint32_t crc32(const std::string &bytes, size_t from) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  uint32_t crc = 0xffffffffu;
  for (size_t i = from; i < bytes.size(); ++i)
    crc = table[(crc ^ uint8_t(bytes[i])) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

uint32_t adler32(const std::string &bytes) {
  uint32_t a = 1, b = 0;
  for (unsigned char c : bytes) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

void putBigEndian32(std::string &out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(char(value >> shift));
}

void putChunk(std::string &png, const char *type, const std::string &data) {
  putBigEndian32(png, uint32_t(data.size()));
  size_t start = png.size();
  png.append(type, 4);
  png += data;
  putBigEndian32(png, crc32(png, start));
}

} // namespace

std::string encodePng(const uint8_t *pixels, int64_t height, int64_t width,
                      int64_t channels) {
  // Each row after its filter type, 0 (none).
  std::string rows;
  size_t rowBytes = size_t(width * channels);
  for (int64_t y = 0; y < height; ++y) {
    rows.push_back(0);
    rows.append(reinterpret_cast<const char *>(pixels) + y * rowBytes, rowBytes);
  }
  // zlib: CMF 0x78 (deflate, 32K window), FLG 0x01 (no dictionary, the
  // fastest level; 0x7801 is a multiple of 31); stored blocks of at most
  // 65535 bytes, the last marked final.
  std::string zlib = {char(0x78), char(0x01)};
  size_t at = 0;
  do {
    size_t length = std::min<size_t>(65535, rows.size() - at);
    bool last = at + length == rows.size();
    zlib.push_back(char(last ? 1 : 0));
    zlib.push_back(char(length & 0xff));
    zlib.push_back(char(length >> 8));
    zlib.push_back(char(~length & 0xff));
    zlib.push_back(char((~length >> 8) & 0xff));
    zlib.append(rows, at, length);
    at += length;
  } while (at < rows.size());
  putBigEndian32(zlib, adler32(rows));

  // IHDR: width, height, bit depth 8, colour type (0 gray, 4 gray and
  // alpha, 2 RGB, 6 RGBA), compression 0, filter 0, interlace 0.
  std::string header;
  putBigEndian32(header, uint32_t(width));
  putBigEndian32(header, uint32_t(height));
  header.push_back(8);
  header.push_back(char(channels == 1 ? 0 : channels == 2 ? 4 : channels == 3 ? 2 : 6));
  header.append(3, '\0');
  std::string png = "\x89PNG\r\n\x1a\n";
  putChunk(png, "IHDR", header);
  putChunk(png, "IDAT", zlib);
  putChunk(png, "IEND", "");
  return png;
}

} // namespace tfc
