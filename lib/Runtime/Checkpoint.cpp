//===- Checkpoint.cpp - reading TensorFlow checkpoints (V2) ---------------===//
//
// The index is a table in LevelDB's format, as TensorFlow's own table
// writer makes it:
//
//   data blocks, a metaindex block, an index block, a 48-byte footer
//   (the metaindex and index block handles as varints, zero padded to 40
//   bytes, then the magic 0xdb4775248b80fb57, little-endian).
//
// A block is a run of entries, each `shared key length, unshared key
// length, value length` (varint32s), the unshared key bytes and the value;
// keys are prefix-compressed against the previous entry; then the restart
// offsets (uint32 each) and their count (uint32). After each block comes a
// compression byte (tensor bundles are written uncompressed) and the
// masked CRC32C of the block and that byte. The index block maps each data
// block's last key to its handle (offset, size as varint64s).
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Checkpoint.h"
#include "ProtoWriter.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tfc::rt {

uint32_t crc32c(const uint8_t *data, size_t size, uint32_t crc) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (size_t i = 0; i < size; ++i)
    crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

uint32_t maskCrc32c(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

uint32_t unmaskCrc32c(uint32_t masked) {
  uint32_t rotated = masked - 0xa282ead8u;
  return (rotated >> 17) | (rotated << 15);
}

namespace {

/// Reads the protobuf wire format and LevelDB's varints from a byte range.
class Bytes {
public:
  Bytes(const uint8_t *begin, const uint8_t *end) : p(begin), end(end) {}
  bool empty() const { return p == end; }
  size_t left() const { return end - p; }

  bool varint(uint64_t &value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p == end)
        return false;
      uint8_t byte = *p++;
      value |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  }
  bool take(size_t n, Bytes &out) {
    if (left() < n)
      return false;
    out = Bytes(p, p + n);
    p += n;
    return true;
  }
  bool fixed32(uint32_t &value) {
    if (left() < 4)
      return false;
    std::memcpy(&value, p, 4);
    p += 4;
    return true;
  }
  /// Skips a field of wire type `type`.
  bool skip(unsigned type) {
    uint64_t n;
    Bytes ignored(nullptr, nullptr);
    switch (type) {
    case 0: return varint(n);
    case 1: return take(8, ignored);
    case 2: return varint(n) && take(n, ignored);
    case 5: return take(4, ignored);
    default: return false;
    }
  }
  const uint8_t *data() const { return p; }

private:
  const uint8_t *p, *end;
};

/// TensorShapeProto: dim (2) { size (1) }, unknown_rank (3).
bool parseShape(Bytes in, std::vector<int64_t> &shape) {
  while (!in.empty()) {
    uint64_t key;
    if (!in.varint(key))
      return false;
    if (key == (2 << 3 | 2)) {
      uint64_t n, dimKey, size = 0;
      Bytes dim(nullptr, nullptr);
      if (!in.varint(n) || !in.take(n, dim))
        return false;
      while (!dim.empty()) {
        if (!dim.varint(dimKey))
          return false;
        if (dimKey == (1 << 3 | 0)) {
          if (!dim.varint(size))
            return false;
        } else if (!dim.skip(dimKey & 7)) {
          return false;
        }
      }
      shape.push_back(int64_t(size));
    } else if (!in.skip(key & 7)) {
      return false;
    }
  }
  return true;
}

/// TensorSliceProto: extent (1) { start (1), length (2, absent for the
/// whole dimension) }.
bool parseSlice(Bytes in, TensorSlice &slice) {
  while (!in.empty()) {
    uint64_t key, n;
    if (!in.varint(key))
      return false;
    if (key != (1 << 3 | 2)) {
      if (!in.skip(key & 7))
        return false;
      continue;
    }
    Bytes extentBytes(nullptr, nullptr);
    if (!in.varint(n) || !in.take(n, extentBytes))
      return false;
    TensorSlice::Extent extent;
    bool hasLength = false;
    while (!extentBytes.empty()) {
      uint64_t field, value;
      if (!extentBytes.varint(field))
        return false;
      if ((field == (1 << 3 | 0) || field == (2 << 3 | 0))) {
        if (!extentBytes.varint(value))
          return false;
        if (field >> 3 == 1) {
          extent.start = int64_t(value);
        } else {
          extent.length = int64_t(value);
          hasLength = true;
        }
      } else if (!extentBytes.skip(field & 7)) {
        return false;
      }
    }
    if (!hasLength)
      extent = TensorSlice::Extent();
    if (extent.start < 0 || (hasLength && extent.length < 0))
      return false;
    slice.extents.push_back(extent);
  }
  return true;
}

/// BundleEntryProto: dtype (1), shape (2), shard_id (3), offset (4),
/// size (5), crc32c (6, fixed32), slices (7).
bool parseEntry(Bytes in, CheckpointEntry &entry) {
  while (!in.empty()) {
    uint64_t key, value;
    if (!in.varint(key))
      return false;
    unsigned field = key >> 3, type = key & 7;
    if (type == 0 && field >= 1 && field <= 5 && field != 2) {
      if (!in.varint(value))
        return false;
      if (field == 1)
        entry.dtype = int(value);
      else if (field == 3)
        entry.shard = int32_t(value);
      else if (field == 4)
        entry.offset = int64_t(value);
      else
        entry.size = int64_t(value);
    } else if (field == 2 && type == 2) {
      Bytes shape(nullptr, nullptr);
      if (!in.varint(value) || !in.take(value, shape) || !parseShape(shape, entry.shape))
        return false;
    } else if (field == 6 && type == 5) {
      if (!in.fixed32(entry.maskedCrc32c))
        return false;
      entry.hasCrc32c = true;
    } else if (field == 7 && type == 2) {
      Bytes slice(nullptr, nullptr);
      entry.slices.emplace_back();
      if (!in.varint(value) || !in.take(value, slice) ||
          !parseSlice(slice, entry.slices.back()))
        return false;
    } else if (!in.skip(type)) {
      return false;
    }
  }
  return true;
}

/// BundleHeaderProto: num_shards (1), endianness (2: 0 little, 1 big).
bool parseHeader(Bytes in, int32_t &numShards, bool &bigEndian) {
  while (!in.empty()) {
    uint64_t key, value;
    if (!in.varint(key))
      return false;
    if ((key >> 3) <= 2 && (key & 7) == 0) {
      if (!in.varint(value))
        return false;
      if ((key >> 3) == 1)
        numShards = int32_t(value);
      else
        bigEndian = value == 1;
    } else if (!in.skip(key & 7)) {
      return false;
    }
  }
  return true;
}

/// The bytes of an element of `dtype`, or 0 for types read otherwise.
} // namespace

size_t elementSize(int dtype) {
  switch (dtype) {
  case 1: case 3: case 22: return 4;          // float, int32, uint32
  case 2: case 9: case 23: return 8;          // double, int64, uint64
  case 4: case 6: case 10: return 1;          // uint8, int8, bool
  case 5: case 17: case 14: case 19: return 2; // int16, uint16, bfloat16, half
  case 8: return 8;                           // complex64
  case 18: return 16;                         // complex128
  default: return 0;
  }
}

bool CheckpointReader::open(const std::string &checkpointPrefix,
                            std::string &error) {
  prefix = checkpointPrefix;
  std::string path = prefix + ".index";
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot open the checkpoint index";
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  return parseIndex(bytes.data(), bytes.size(), path, error);
}

bool CheckpointReader::parseIndex(const uint8_t *bytes, size_t size,
                                  const std::string &name, std::string &error) {
  tensors.clear();
  auto fail = [&](const std::string &why) {
    error = name + ": not a valid checkpoint index: " + why;
    return false;
  };
  constexpr size_t kFooter = 48;
  constexpr uint64_t kMagic = 0xdb4775248b80fb57ull;
  if (size < kFooter)
    return fail("shorter than a table footer");
  uint64_t magic;
  std::memcpy(&magic, bytes + size - 8, 8);
  if (magic != kMagic)
    return fail("bad table magic number");

  // A block's contents, its trailer checked.
  auto block = [&](uint64_t offset, uint64_t length, Bytes &out) -> bool {
    if (offset > size || length > size - offset || size - offset - length < 5)
      return fail("block outside the file");
    const uint8_t *start = bytes + offset;
    if (start[length] != 0)
      return fail("compressed blocks are not supported");
    uint32_t stored;
    std::memcpy(&stored, start + length + 1, 4);
    if (crc32c(start, length + 1) != unmaskCrc32c(stored))
      return fail("block checksum mismatch");
    out = Bytes(start, start + length);
    return true;
  };
  // The entries of a block, in order.
  auto entries = [&](Bytes content,
                     std::vector<std::pair<std::string, Bytes>> &out) -> bool {
    if (content.left() < 4)
      return fail("block too short");
    uint32_t restarts;
    std::memcpy(&restarts, content.data() + content.left() - 4, 4);
    if (uint64_t(restarts) * 4 + 4 > content.left())
      return fail("bad restart count");
    Bytes in(content.data(), content.data() + content.left() - 4 - restarts * 4);
    std::string key;
    while (!in.empty()) {
      uint64_t shared, unshared, length;
      Bytes suffix(nullptr, nullptr), value(nullptr, nullptr);
      if (!in.varint(shared) || !in.varint(unshared) || !in.varint(length) ||
          shared > key.size() || !in.take(unshared, suffix) ||
          !in.take(length, value))
        return fail("bad block entry");
      key.resize(shared);
      key.append(reinterpret_cast<const char *>(suffix.data()), unshared);
      out.push_back({key, value});
    }
    return true;
  };

  Bytes footer(bytes + size - kFooter, bytes + size - 8);
  uint64_t metaOffset, metaSize, indexOffset, indexSize;
  if (!footer.varint(metaOffset) || !footer.varint(metaSize) ||
      !footer.varint(indexOffset) || !footer.varint(indexSize))
    return fail("bad footer");
  Bytes index(nullptr, nullptr);
  std::vector<std::pair<std::string, Bytes>> handles;
  if (!block(indexOffset, indexSize, index) || !entries(index, handles))
    return false;
  bool sawHeader = false, bigEndian = false;
  for (auto &[lastKey, handle] : handles) {
    uint64_t offset, length;
    Bytes data(nullptr, nullptr);
    std::vector<std::pair<std::string, Bytes>> items;
    if (!handle.varint(offset) || !handle.varint(length))
      return fail("bad block handle");
    if (!block(offset, length, data) || !entries(data, items))
      return false;
    for (auto &[key, value] : items) {
      if (key.empty()) {
        if (!parseHeader(value, numShards, bigEndian))
          return fail("bad header");
        sawHeader = true;
        continue;
      }
      CheckpointEntry entry;
      if (!parseEntry(value, entry))
        return fail("bad entry for '" + key + "'");
      tensors[key] = std::move(entry);
    }
  }
  if (!sawHeader)
    return fail("no header");
  if (bigEndian)
    return fail("big-endian checkpoints are not supported");
  if (numShards < 1)
    return fail("bad shard count");
  return true;
}

/// Reads the bytes of entry `name` from its shard, checking the size the
/// entry gives against `expectedSize` (negative: any).
bool CheckpointReader::readEntry(const std::string &name, int64_t expectedSize,
                                 std::vector<uint8_t> &bytes,
                                 std::string &error) const {
  const CheckpointEntry &entry = tensors.at(name);
  if ((expectedSize >= 0 && entry.size != expectedSize) || entry.size < 0 ||
      entry.shard < 0 || entry.shard >= numShards) {
    error = prefix + ": tensor '" + name + "' has an inconsistent entry";
    return false;
  }
  std::string path = shardPath(prefix, entry.shard, numShards);
  std::ifstream file(path, std::ios::binary);
  bytes.resize(entry.size);
  if (!file || !file.seekg(entry.offset) ||
      !file.read(reinterpret_cast<char *>(bytes.data()), entry.size)) {
    error = path + ": cannot read tensor '" + name + "'";
    return false;
  }
  return true;
}

const CheckpointEntry *CheckpointReader::find(const std::string &name, int dtype,
                                              std::string &error) const {
  auto it = tensors.find(name);
  if (it == tensors.end()) {
    error = prefix + ": no tensor '" + name + "' in the checkpoint";
    return nullptr;
  }
  bool isString = it->second.dtype == kStringDtype;
  bool slicedStrings = isString && it->second.sliced();
  if (slicedStrings || (dtype == kStringDtype) != isString ||
      (!isString && elementSize(it->second.dtype) == 0)) {
    error = prefix + ": tensor '" + name + "' is " +
            (slicedStrings           ? "of strings saved in slices"
             : isString              ? "of strings"
             : dtype == kStringDtype ? "not of strings"
                                     : "of a type read only as numbers here");
    return nullptr;
  }
  return &it->second;
}

bool CheckpointReader::read(const std::string &name, std::vector<uint8_t> &bytes,
                            std::string &error) const {
  const CheckpointEntry *entry = find(name, 0, error);
  if (!entry)
    return false;
  if (entry->sliced())
    return readSlice(name, TensorSlice::whole(entry->shape.size()), bytes,
                     error);
  return readWhole(name, *entry, bytes, error);
}

bool CheckpointReader::readWhole(const std::string &name,
                                 const CheckpointEntry &entry,
                                 std::vector<uint8_t> &bytes,
                                 std::string &error) const {
  int64_t count = 1;
  for (int64_t d : entry.shape)
    count *= d;
  if (!readEntry(name, count * int64_t(elementSize(entry.dtype)), bytes, error))
    return false;
  if (entry.hasCrc32c &&
      crc32c(bytes.data(), bytes.size()) != unmaskCrc32c(entry.maskedCrc32c)) {
    error = prefix + ": checksum mismatch for tensor '" + name + "'";
    return false;
  }
  return true;
}


bool decodeStrings(const uint8_t *bytes, size_t size, int64_t count,
                   std::vector<std::string> &strings, uint32_t &crc) {
  Bytes in(bytes, bytes + size);
  std::vector<uint64_t> lengths;
  uint64_t total = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t length;
    // Each element takes a byte of length at least.
    if (!in.varint(length) || length > size || (total += length) > size)
      return false;
    lengths.push_back(length);
  }
  if (in.left() != total + 4)
    return false;
  strings.clear();
  size_t start = size - in.left() + 4;
  for (uint64_t length : lengths) {
    strings.emplace_back(reinterpret_cast<const char *>(bytes) + start, length);
    start += length;
  }
  // The layout is canonical: encoding the elements again gives the same
  // bytes exactly when the varints were minimal and the lengths' checksum
  // right.
  return encodeStrings(strings, crc) ==
         std::string(reinterpret_cast<const char *>(bytes), size);
}

bool CheckpointReader::readStrings(const std::string &name,
                                   std::vector<std::string> &strings,
                                   std::string &error) const {
  const CheckpointEntry *entry = find(name, kStringDtype, error);
  std::vector<uint8_t> bytes;
  if (!entry || !readEntry(name, -1, bytes, error))
    return false;
  int64_t count = 1;
  for (int64_t d : entry->shape)
    count *= d;
  uint32_t crc = 0;
  if (count < 0 || count > int64_t(bytes.size()) ||
      !decodeStrings(bytes.data(), bytes.size(), count, strings, crc)) {
    error = prefix + ": tensor '" + name + "' is not a valid string tensor";
    return false;
  }
  if (entry->hasCrc32c && crc != unmaskCrc32c(entry->maskedCrc32c)) {
    error = prefix + ": checksum mismatch for tensor '" + name + "'";
    return false;
  }
  return true;
}

using namespace tfc::proto_writer;

std::string encodeStrings(const std::vector<std::string> &strings, uint32_t &crc) {
  std::string out;
  crc = 0;
  for (const std::string &element : strings) {
    putVarint(out, element.size());
    if (element.size() <= UINT32_MAX) {
      uint32_t length = uint32_t(element.size());
      crc = crc32c(reinterpret_cast<const uint8_t *>(&length), 4, crc);
    } else {
      uint64_t length = element.size();
      crc = crc32c(reinterpret_cast<const uint8_t *>(&length), 8, crc);
    }
  }
  uint32_t lengthsCrc = maskCrc32c(crc);
  putFixed32(out, lengthsCrc);
  crc = crc32c(reinterpret_cast<const uint8_t *>(&lengthsCrc), 4, crc);
  for (const std::string &element : strings) {
    out += element;
    crc = crc32c(reinterpret_cast<const uint8_t *>(element.data()), element.size(), crc);
  }
  return out;
}

namespace {

/// A table block with a restart point at every entry (no key sharing),
/// as LevelDB's readers accept.
std::string makeBlock(const std::vector<std::pair<std::string, std::string>> &items) {
  std::string block;
  std::vector<uint32_t> restarts;
  for (const auto &[key, value] : items) {
    restarts.push_back(uint32_t(block.size()));
    putVarint(block, 0);
    putVarint(block, key.size());
    putVarint(block, value.size());
    block += key;
    block += value;
  }
  if (restarts.empty())
    restarts.push_back(0);
  for (uint32_t restart : restarts)
    putFixed32(block, restart);
  putFixed32(block, uint32_t(restarts.size()));
  return block;
}

/// Appends `block` with its trailer (no compression, masked CRC32C) and
/// returns its handle.
std::string appendBlock(std::string &file, const std::string &block) {
  std::string handle;
  putVarint(handle, file.size());
  putVarint(handle, block.size());
  file += block;
  file.push_back(0);
  uint32_t crc = crc32c(reinterpret_cast<const uint8_t *>(file.data()) +
                            file.size() - block.size() - 1,
                        block.size() + 1);
  putFixed32(file, maskCrc32c(crc));
  return handle;
}

} // namespace

void faultPoint() {
  // TFC_FAULT_AT=N: the process kills itself at the N-th point (counted
  // from 1) where a crash could hurt a checkpoint; tests use it to check
  // that every one leaves a good checkpoint behind.
  static const long target = [] {
    const char *value = std::getenv("TFC_FAULT_AT");
    return value ? std::strtol(value, nullptr, 10) : 0L;
  }();
  static long reached = 0;
  if (target > 0 && ++reached == target)
    ::raise(SIGKILL);
}

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool makeDirectories(const std::string &dir, std::string &error) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/')
      continue;
    std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
      error = part + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

/// Where writeFileAtomically writes `path` before renaming it.
static std::string temporaryPathOf(const std::string &path) {
  return path + ".tmp" + std::to_string(::getpid());
}

bool checkWritable(const std::string &path, std::string &error) {
  std::string temporary = temporaryPathOf(path);
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  ::close(fd);
  ::unlink(temporary.c_str());
  return true;
}

bool writeFileAtomically(const std::string &path, const std::string &bytes,
                         std::string &error) {
  std::string temporary = temporaryPathOf(path);
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    error = temporary + ": " + std::strerror(errno);
    return false;
  }
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = temporary + ": " + std::strerror(errno);
      ::close(fd);
      ::unlink(temporary.c_str());
      return false;
    }
    done += size_t(n);
    faultPoint();
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    error = path + ": " + std::strerror(errno);
    ::unlink(temporary.c_str());
    return false;
  }
  faultPoint();
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    error = path + ": " + std::strerror(errno);
    ::unlink(temporary.c_str());
    return false;
  }
  faultPoint();
  return true;
}

int64_t CheckpointWriter::checkNew(const std::string &name,
                                   const std::vector<int64_t> &shape,
                                   std::string &error) const {
  if (name.empty() || tensors.count(name)) {
    error = "checkpoint tensor '" + name + "': " +
            (name.empty() ? "empty name" : "saved twice");
    return -1;
  }
  int64_t count = 1;
  for (int64_t d : shape)
    count = d < 0 || count < 0 ? -1 : count * d;
  if (count < 0)
    error = "checkpoint tensor '" + name + "': a negative dimension";
  return count;
}

bool CheckpointWriter::add(const std::string &name, int dtype,
                           const std::vector<int64_t> &shape, const void *data,
                           size_t bytes, std::string &error) {
  int64_t count = checkNew(name, shape, error);
  if (count < 0)
    return false;
  size_t element = elementSize(dtype);
  if (element == 0 || size_t(count) * element != bytes) {
    error = "checkpoint tensor '" + name + "': " + std::to_string(bytes) +
            " bytes do not hold its shape and dtype";
    return false;
  }
  const uint8_t *begin = static_cast<const uint8_t *>(data);
  tensors[name] = {dtype, shape, std::vector<uint8_t>(begin, begin + bytes),
                   crc32c(begin, bytes)};
  return true;
}

bool CheckpointWriter::addStrings(const std::string &name,
                                  const std::vector<int64_t> &shape,
                                  const std::vector<std::string> &strings,
                                  std::string &error) {
  int64_t count = checkNew(name, shape, error);
  if (count < 0)
    return false;
  if (size_t(count) != strings.size()) {
    error = "checkpoint tensor '" + name + "': " + std::to_string(strings.size()) +
            " strings do not fill its shape";
    return false;
  }
  uint32_t crc = 0;
  std::string bytes = encodeStrings(strings, crc);
  tensors[name] = {kStringDtype, shape, std::vector<uint8_t>(bytes.begin(), bytes.end()),
                   crc};
  return true;
}

std::string shardPath(const std::string &prefix, int32_t shard,
                      int32_t numShards) {
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, ".data-%05d-of-%05d", shard, numShards);
  return prefix + suffix;
}

bool writeIndex(const std::string &prefix, int32_t numShards,
                const std::map<std::string, CheckpointEntry> &entries,
                std::string &error) {
  std::vector<std::pair<std::string, std::string>> items;
  std::string header;
  putVarintField(header, 1, uint64_t(numShards)); // endianness 0 = little.
  std::string version;
  putVarintField(version, 1, 1); // producer
  putBytesField(header, 3, version);
  items.push_back({"", header});
  for (const auto &[name, tensor] : entries) {
    std::string entry, shape;
    putVarintField(entry, 1, uint64_t(tensor.dtype));
    for (int64_t d : tensor.shape) {
      std::string dim;
      putVarintField(dim, 1, uint64_t(d));
      putBytesField(shape, 2, dim);
    }
    putBytesField(entry, 2, shape);
    if (tensor.shard && !tensor.sliced())
      putVarintField(entry, 3, uint64_t(tensor.shard));
    // (A sliced tensor's entry has no bytes of its own, only its slices.)
    if (!tensor.sliced()) {
      putVarintField(entry, 4, uint64_t(tensor.offset));
      putVarintField(entry, 5, uint64_t(tensor.size));
    }
    if (tensor.hasCrc32c) {
      putVarint(entry, 6 << 3 | 5);
      putFixed32(entry, tensor.maskedCrc32c);
    }
    for (const TensorSlice &slice : tensor.slices) {
      std::string sliceBytes;
      for (const TensorSlice::Extent &extent : slice.extents) {
        std::string extentBytes;
        if (extent.length >= 0) {
          if (extent.start)
            putVarintField(extentBytes, 1, uint64_t(extent.start));
          putVarintField(extentBytes, 2, uint64_t(extent.length));
        }
        putBytesField(sliceBytes, 1, extentBytes);
      }
      putBytesField(entry, 7, sliceBytes);
    }
    items.push_back({name, entry});
  }
  // One data block, an empty metaindex, the index block, the footer.
  std::string index;
  std::string dataHandle = appendBlock(index, makeBlock(items));
  std::string metaHandle = appendBlock(index, makeBlock({}));
  std::string indexHandle =
      appendBlock(index, makeBlock({{items.back().first, dataHandle}}));
  std::string footer = metaHandle + indexHandle;
  footer.resize(40, '\0');
  uint64_t magic = 0xdb4775248b80fb57ull;
  footer.append(reinterpret_cast<const char *>(&magic), 8);
  index += footer;
  return writeFileAtomically(prefix + ".index", index, error);
}

bool CheckpointWriter::write(const std::string &prefix, std::string &error) const {
  // The data shard, and where each tensor is in it.
  std::string data;
  std::map<std::string, CheckpointEntry> entries;
  for (const auto &[name, tensor] : tensors) {
    CheckpointEntry &entry = entries[name];
    entry.dtype = tensor.dtype;
    entry.shape = tensor.shape;
    entry.offset = int64_t(data.size());
    entry.size = int64_t(tensor.bytes.size());
    entry.maskedCrc32c = maskCrc32c(tensor.crc);
    entry.hasCrc32c = true;
    data.append(reinterpret_cast<const char *>(tensor.bytes.data()), tensor.bytes.size());
  }
  for (const auto &[name, entry] : slicedTensors)
    entries[name] = entry;
  // Data first: an index never names a shard that is not on disk.
  return writeFileAtomically(shardPath(prefix, 0, 1), data, error) &&
         writeIndex(prefix, 1, entries, error);
}

} // namespace tfc::rt
