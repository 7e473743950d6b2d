//===- ProtoReader.h - protocol buffer fields, read by hand -----*- C++ -*-===//
//
// The counterpart of ProtoWriter.h: the runtime reads a few of
// TensorFlow's messages (the Summary values it merges or writes to event
// files) without the protobuf library, field by field in the wire format.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_PROTOREADER_H
#define TFC_LIB_RUNTIME_PROTOREADER_H

#include <cstdint>
#include <string_view>

namespace tfc::proto_reader {

/// Reads a varint at `at`; false when it runs past `end` or is too long.
inline bool readVarint(const char *&at, const char *end, uint64_t &value) {
  value = 0;
  for (int shift = 0; shift < 64 && at < end; shift += 7) {
    uint8_t byte = uint8_t(*at++);
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

/// One field of a message.
struct Field {
  unsigned number;
  /// The value: a length-delimited field's contents, a fixed one's bytes,
  /// a varint's encoding.
  std::string_view value;
  /// The whole field as written: its key and its value.
  std::string_view raw;
};

/// Calls visit(const Field &) for each field of `message`, in order; false
/// when the bytes are no message's.
template <typename Visit>
bool forEachField(std::string_view message, Visit visit) {
  const char *at = message.data(), *end = at + message.size();
  while (at < end) {
    const char *start = at;
    uint64_t key, length;
    if (!readVarint(at, end, key))
      return false;
    const char *value = at;
    switch (key & 7) {
    case 0:
      if (!readVarint(at, end, length))
        return false;
      length = uint64_t(at - value);
      at = value;
      break;
    case 1:
      length = 8;
      break;
    case 5:
      length = 4;
      break;
    case 2:
      if (!readVarint(at, end, length))
        return false;
      value = at;
      break;
    default:
      return false;
    }
    if (length > uint64_t(end - at))
      return false;
    at += length;
    visit(Field{unsigned(key >> 3), std::string_view(value, length),
                std::string_view(start, size_t(at - start))});
  }
  return true;
}

} // namespace tfc::proto_reader

#endif // TFC_LIB_RUNTIME_PROTOREADER_H
