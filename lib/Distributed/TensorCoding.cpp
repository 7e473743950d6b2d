//===- TensorCoding.cpp - tensors on the wire without copies --------------===//
//
// Protobuf's wire format, written and read by hand for one message: a
// field is a varint tag (number << 3 | wire type) and a value, a varint
// (type 0), 8 bytes (1), a varint length and that many bytes (2), or 4
// bytes (5). Fields this version does not know are skipped, as protobuf
// readers do.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/TensorCoding.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace tfc::distributed {
namespace {

enum WireType : uint32_t { Varint = 0, Fixed64 = 1, Length = 2, Fixed32 = 5 };

enum Field : uint32_t {
  Incarnation = 1,
  StepId = 2,
  Key = 3,
  Sender = 4,
  Shared = 5,
  Data = 15,
};

/// SharedTensor's fields.
enum SharedField : uint32_t {
  SharedHost = 1,
  SharedPid = 2,
  SharedFd = 3,
  SharedToken = 4,
  SharedBytes = 5,
};

void putVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(char(value | 0x80));
    value >>= 7;
  }
  out.push_back(char(value));
}

void putTag(std::string &out, uint32_t field, WireType type) {
  putVarint(out, uint64_t(field) << 3 | type);
}

void putString(std::string &out, uint32_t field, const std::string &text) {
  putTag(out, field, Length);
  putVarint(out, text.size());
  out += text;
}

void putFixed64(std::string &out, uint32_t field, uint64_t value) {
  putTag(out, field, Fixed64);
  for (int i = 0; i < 8; ++i)
    out.push_back(char(value >> (8 * i)));
}

std::string encodeShared(const SharedTensor &shared) {
  std::string out;
  putString(out, SharedHost, shared.host);
  putTag(out, SharedPid, Varint);
  putVarint(out, uint64_t(shared.pid));
  putTag(out, SharedFd, Varint);
  putVarint(out, uint64_t(shared.fd));
  putFixed64(out, SharedToken, shared.token);
  putTag(out, SharedBytes, Varint);
  putVarint(out, shared.bytes);
  return out;
}

/// Reads a message laid out in pieces, byte by byte where it must.
class Reader {
public:
  explicit Reader(const std::vector<Span> &pieces) : pieces(pieces) {
    for (const Span &piece : pieces)
      total += piece.size;
  }

  size_t offset() const { return position; }
  size_t remaining() const { return total - position; }

  bool byte(uint8_t &out) {
    while (piece < pieces.size() && within == pieces[piece].size) {
      ++piece;
      within = 0;
    }
    if (piece == pieces.size())
      return false;
    out = pieces[piece].data[within++];
    ++position;
    return true;
  }

  bool varint(uint64_t &out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b;
      if (!byte(b))
        return false;
      out |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return true;
    }
    return false; // More than ten bytes: not a varint.
  }

  bool fixed(unsigned bytes, uint64_t &out) {
    out = 0;
    for (unsigned i = 0; i < bytes; ++i) {
      uint8_t b;
      if (!byte(b))
        return false;
      out |= uint64_t(b) << (8 * i);
    }
    return true;
  }

  bool string(size_t bytes, std::string &out) {
    if (bytes > remaining())
      return false;
    out.resize(bytes);
    for (size_t i = 0; i < bytes; ++i) {
      uint8_t b;
      byte(b);
      out[i] = char(b);
    }
    return true;
  }

  bool skip(uint64_t bytes) {
    if (bytes > remaining())
      return false;
    size_t left = bytes;
    while (left > 0) {
      size_t here = std::min(left, pieces[piece].size - within);
      within += here;
      position += here;
      left -= here;
      if (within == pieces[piece].size && piece + 1 < pieces.size()) {
        ++piece;
        within = 0;
      }
    }
    return true;
  }

private:
  const std::vector<Span> &pieces;
  size_t total = 0, position = 0;
  size_t piece = 0, within = 0;
};

/// Skips a field this version does not know, as protobuf readers do.
bool skipField(Reader &reader, uint64_t field, WireType type,
               std::string &error) {
  uint64_t value;
  bool skipped = false;
  switch (type) {
  case Varint:
    skipped = reader.varint(value);
    break;
  case Fixed64:
    skipped = reader.skip(8);
    break;
  case Fixed32:
    skipped = reader.skip(4);
    break;
  case Length:
    skipped = reader.varint(value) && reader.skip(value);
    break;
  default:
    return error = "field " + std::to_string(field) + " has wire type " +
                   std::to_string(type) + ", which no message uses",
           false;
  }
  if (!skipped)
    return error = "field " + std::to_string(field) +
                   " runs past the end of the message",
           false;
  return true;
}

/// Whether field `field` of a message has the wire type it must.
bool expectType(uint64_t field, WireType type, WireType wanted,
                std::string &error) {
  if (type == wanted)
    return true;
  error = "field " + std::to_string(field) + " has wire type " +
          std::to_string(type) + ", expected " + std::to_string(wanted);
  return false;
}

/// Reads a SharedTensor of `length` bytes (which the message holds).
bool decodeShared(Reader &reader, uint64_t length, SharedTensor &out,
                  std::string &error) {
  out = SharedTensor();
  size_t end = reader.offset() + size_t(length);
  bool sawPid = false, sawFd = false;
  while (reader.offset() < end) {
    uint64_t tag, value;
    if (!reader.varint(tag))
      return error = "truncated shared tensor", false;
    uint64_t field = tag >> 3;
    auto type = WireType(tag & 7);
    if (field == 0)
      return error = "shared tensor field number 0", false;
    switch (field) {
    case SharedHost:
      if (!expectType(field, type, Length, error))
        return false;
      if (!reader.varint(value) || value > end - std::min(end, reader.offset()))
        return error = "shared tensor host runs past its end", false;
      if (value > kMaxNameBytes)
        return error = "shared tensor host is too long", false;
      reader.string(size_t(value), out.host);
      break;
    case SharedPid:
    case SharedFd:
    case SharedBytes:
      if (!expectType(field, type, Varint, error))
        return false;
      if (!reader.varint(value))
        return error = "truncated shared tensor", false;
      if (field == SharedBytes)
        out.bytes = value;
      else if (value > uint64_t(INT32_MAX))
        return error = std::string("shared tensor ") +
                       (field == SharedPid ? "pid " : "fd ") +
                       std::to_string(value) + " is out of range",
               false;
      else if (field == SharedPid)
        out.pid = int64_t(value), sawPid = true;
      else
        out.fd = int64_t(value), sawFd = true;
      break;
    case SharedToken:
      if (!expectType(field, type, Fixed64, error))
        return false;
      if (!reader.fixed(8, out.token))
        return error = "truncated shared tensor token", false;
      break;
    default:
      if (!skipField(reader, field, type, error))
        return false;
    }
    if (reader.offset() > end)
      return error = "shared tensor field " + std::to_string(field) +
                     " runs past its end",
             false;
  }
  if (!sawPid || out.pid <= 0 || !sawFd)
    return error = "shared tensor without its process and region", false;
  return true;
}

} // namespace

std::string encodeTensorPrefix(const TensorHeader &header, uint64_t dataBytes) {
  std::string out;
  putFixed64(out, Incarnation, header.incarnation);
  putTag(out, StepId, Varint);
  putVarint(out, uint64_t(header.stepId));
  putString(out, Key, header.key);
  putString(out, Sender, header.sender);
  if (header.shared)
    putString(out, Shared, encodeShared(*header.shared));
  putTag(out, Data, Length);
  putVarint(out, dataBytes);
  return out;
}

bool decodeTensorMessage(const std::vector<Span> &pieces, DecodedTensor &out,
                         std::string &error) {
  out = DecodedTensor();
  Reader reader(pieces);
  bool sawKey = false, sawData = false;
  while (reader.remaining() > 0) {
    uint64_t tag;
    if (!reader.varint(tag))
      return error = "truncated field tag", false;
    uint64_t field = tag >> 3;
    auto type = WireType(tag & 7);
    if (field == 0)
      return error = "field number 0", false;
    auto expect = [&](WireType wanted) {
      return expectType(field, type, wanted, error);
    };
    uint64_t value;
    switch (field) {
    case Incarnation:
      if (!expect(Fixed64))
        return false;
      if (!reader.fixed(8, out.header.incarnation))
        return error = "truncated incarnation", false;
      continue;
    case StepId:
      if (!expect(Varint))
        return false;
      if (!reader.varint(value))
        return error = "truncated step id", false;
      out.header.stepId = int64_t(value);
      continue;
    case Key:
    case Sender: {
      if (!expect(Length))
        return false;
      std::string &text = field == Key ? out.header.key : out.header.sender;
      if (!reader.varint(value) || value > reader.remaining())
        return error = std::string(field == Key ? "key" : "sender") +
                       " runs past the end of the message",
               false;
      if (value > kMaxNameBytes)
        return error = std::string(field == Key ? "key" : "sender") + " of " +
                       std::to_string(value) + " bytes is too long",
               false;
      reader.string(size_t(value), text);
      sawKey |= field == Key;
      continue;
    }
    case Shared:
      if (!expect(Length))
        return false;
      if (!reader.varint(value) || value > reader.remaining())
        return error = "shared tensor runs past the end of the message", false;
      out.header.shared.emplace();
      if (!decodeShared(reader, value, *out.header.shared, error))
        return false;
      continue;
    case Data:
      if (!expect(Length))
        return false;
      if (!reader.varint(value) || value > reader.remaining())
        return error = "data runs past the end of the message", false;
      out.dataOffset = reader.offset();
      out.dataBytes = value;
      sawData = true;
      reader.skip(value);
      continue;
    default:
      break;
    }
    // A field this version does not know.
    if (!skipField(reader, field, type, error))
      return false;
  }
  if (!sawKey || out.header.key.empty())
    return error = "no rendezvous key", false;
  if (!sawData)
    return error = "no data", false;
  if (out.header.shared && out.dataBytes != 0)
    return error = "both data and a shared tensor", false;
  return true;
}

void copyFromPieces(const std::vector<Span> &pieces, size_t offset, void *dest,
                    size_t bytes) {
  auto *to = static_cast<uint8_t *>(dest);
  for (const Span &piece : pieces) {
    if (bytes == 0)
      return;
    if (offset >= piece.size) {
      offset -= piece.size;
      continue;
    }
    size_t here = std::min(bytes, piece.size - offset);
    std::memcpy(to, piece.data + offset, here);
    to += here;
    bytes -= here;
    offset = 0;
  }
}

} // namespace tfc::distributed
