//===- ProtoWriter.h - protocol buffer fields, written by hand --*- C++ -*-===//
//
// The runtime writes a few of TensorFlow's protocol buffers (a checkpoint's
// BundleHeader and BundleEntry, a Summary) without the protobuf library,
// which it does not link: these append one field each in the wire format.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_PROTOWRITER_H
#define TFC_LIB_RUNTIME_PROTOWRITER_H

#include <cstdint>
#include <cstring>
#include <string>

namespace tfc::proto_writer {

inline void putVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(char(value | 0x80));
    value >>= 7;
  }
  out.push_back(char(value));
}

inline void putFixed32(std::string &out, uint32_t value) {
  char bytes[4];
  std::memcpy(bytes, &value, 4);
  out.append(bytes, 4);
}

/// A field: its key, then a varint, length-delimited bytes or a float.
inline void putVarintField(std::string &out, unsigned field, uint64_t value) {
  putVarint(out, field << 3 | 0);
  putVarint(out, value);
}
inline void putBytesField(std::string &out, unsigned field,
                          const std::string &bytes) {
  putVarint(out, field << 3 | 2);
  putVarint(out, bytes.size());
  out += bytes;
}
inline void putFloatField(std::string &out, unsigned field, float value) {
  putVarint(out, field << 3 | 5);
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  putFixed32(out, bits);
}

inline void putFixed64(std::string &out, uint64_t value) {
  char bytes[8];
  std::memcpy(bytes, &value, 8);
  out.append(bytes, 8);
}

/// A double field, left out when its bits are zero, as proto3 leaves out
/// a default (0.0, not -0.0).
inline void putDoubleField(std::string &out, unsigned field, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  if (bits == 0)
    return;
  putVarint(out, field << 3 | 1);
  putFixed64(out, bits);
}

/// A packed repeated double field (proto3's form), left out when empty.
inline void putPackedDoubles(std::string &out, unsigned field,
                             const double *values, size_t count) {
  if (count == 0)
    return;
  putVarint(out, field << 3 | 2);
  putVarint(out, count * 8);
  for (size_t i = 0; i < count; ++i) {
    uint64_t bits;
    std::memcpy(&bits, &values[i], 8);
    putFixed64(out, bits);
  }
}

} // namespace tfc::proto_writer

#endif // TFC_LIB_RUNTIME_PROTOWRITER_H
