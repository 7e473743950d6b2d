//===- Npy.cpp - NumPy .npy files for the runtime -------------------------===//
//
// Format: "\x93NUMPY", major and minor version bytes, the header length
// (2 bytes little-endian in version 1, 4 bytes in versions 2 and 3), then an
// ASCII (UTF-8 in 3.0) Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the data.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Npy.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

namespace tfc::rt {
namespace {

struct DTypeInfo {
  DType dtype;
  const char *descr; // Without the byte-order character.
  size_t size;
  const char *name;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::Bool, "b1", 1, "bool"},
    {DType::Int8, "i1", 1, "int8"},
    {DType::Int16, "i2", 2, "int16"},
    {DType::Int32, "i4", 4, "int32"},
    {DType::Int64, "i8", 8, "int64"},
    {DType::UInt8, "u1", 1, "uint8"},
    {DType::UInt16, "u2", 2, "uint16"},
    {DType::UInt32, "u4", 4, "uint32"},
    {DType::UInt64, "u8", 8, "uint64"},
    {DType::Float16, "f2", 2, "float16"},
    {DType::Float32, "f4", 4, "float"},
    {DType::Float64, "f8", 8, "double"},
    {DType::Complex64, "c8", 8, "complex64"},
    {DType::Complex128, "c16", 16, "complex128"},
    // 'S<n>' or 'U<n>': the element size is in the descr (see stringDescr).
    {DType::String, "S", 0, "string"},
};

const DTypeInfo &info(DType dtype) {
  for (const DTypeInfo &i : kDTypes)
    if (i.dtype == dtype)
      return i;
  return kDTypes[0];
}

/// A small parser for the header's dict literal.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  bool parse(std::string &descr, bool &fortran, std::vector<int64_t> &shape,
             std::string &error) {
    bool sawDescr = false, sawOrder = false, sawShape = false;
    skipSpace();
    if (!consume('{'))
      return fail(error, "header is not a dict");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail(error, "header key is not a string");
      skipSpace();
      if (!consume(':'))
        return fail(error, "expected ':' after '" + key + "'");
      skipSpace();
      if (key == "descr") {
        if (!parseString(descr))
          return fail(error, "'descr' is not a string");
        sawDescr = true;
      } else if (key == "fortran_order") {
        if (consumeWord("True"))
          fortran = true;
        else if (consumeWord("False"))
          fortran = false;
        else
          return fail(error, "'fortran_order' is not True or False");
        sawOrder = true;
      } else if (key == "shape") {
        if (!parseShape(shape))
          return fail(error, "'shape' is not a tuple of sizes");
        sawShape = true;
      } else {
        return fail(error, "unexpected header key '" + key + "'");
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return fail(error, "expected ',' or '}' in the header");
    }
    if (!sawDescr || !sawOrder || !sawShape)
      return fail(error, "header lacks 'descr', 'fortran_order' or 'shape'");
    skipSpace();
    if (pos != text.size())
      return fail(error, "trailing characters after the header dict");
    return true;
  }

private:
  bool fail(std::string &error, const std::string &message) {
    error = message;
    return false;
  }
  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool consumeWord(const char *word) {
    size_t n = std::strlen(word);
    if (text.compare(pos, n, word) != 0)
      return false;
    pos += n;
    return true;
  }
  bool parseString(std::string &out) {
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return false;
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == std::string::npos)
      return false;
    out = text.substr(pos, end - pos);
    pos = end + 1;
    return true;
  }
  bool parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return false;
    while (true) {
      skipSpace();
      if (consume(')'))
        return true;
      if (pos >= text.size() || !std::isdigit(static_cast<unsigned char>(text[pos])))
        return false;
      int64_t value = 0;
      while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        if (value > (std::numeric_limits<int64_t>::max() - 9) / 10)
          return false;
        value = value * 10 + (text[pos++] - '0');
      }
      // Python writes long integers with an 'L' suffix in old files.
      consume('L');
      shape.push_back(value);
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        return true;
      return false;
    }
  }

  const std::string &text;
  size_t pos = 0;
};

/// Appends the UTF-8 of `count` little-endian UTF-32 code units; false for
/// a value that is no code point.
bool appendUtf8(const uint8_t *units, size_t count, std::string &out) {
  for (size_t i = 0; i < count; ++i) {
    uint32_t c = uint32_t(units[4 * i]) | uint32_t(units[4 * i + 1]) << 8 |
                 uint32_t(units[4 * i + 2]) << 16 | uint32_t(units[4 * i + 3]) << 24;
    if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
      return false;
    if (c < 0x80) {
      out.push_back(char(c));
    } else if (c < 0x800) {
      out.push_back(char(0xc0 | c >> 6));
      out.push_back(char(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
      out.push_back(char(0xe0 | c >> 12));
      out.push_back(char(0x80 | (c >> 6 & 0x3f)));
      out.push_back(char(0x80 | (c & 0x3f)));
    } else {
      out.push_back(char(0xf0 | c >> 18));
      out.push_back(char(0x80 | (c >> 12 & 0x3f)));
      out.push_back(char(0x80 | (c >> 6 & 0x3f)));
      out.push_back(char(0x80 | (c & 0x3f)));
    }
  }
  return true;
}

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

} // namespace

size_t dtypeSize(DType dtype) { return info(dtype).size; }
const char *dtypeName(DType dtype) { return info(dtype).name; }

int64_t NpyArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool parseNpy(const uint8_t *bytes, size_t size, const std::string &name,
              NpyArray &array, std::string &error) {
  auto fail = [&](const std::string &message) {
    error = name + ": " + message;
    return false;
  };
  if (size < kMagicSize + 2 || std::memcmp(bytes, kMagic, kMagicSize) != 0)
    return fail("not a .npy file (bad magic)");
  int major = bytes[6], minor = bytes[7];
  size_t lengthBytes = major == 1 ? 2 : (major == 2 || major == 3) ? 4 : 0;
  if (!lengthBytes || minor != 0)
    return fail("unsupported .npy version " + std::to_string(major) + "." +
                std::to_string(minor));
  size_t prefix = kMagicSize + 2 + lengthBytes;
  if (size < prefix)
    return fail("truncated header");
  size_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= size_t(bytes[kMagicSize + 2 + i]) << (8 * i);
  if (size - prefix < headerLength)
    return fail("truncated header");
  std::string header(reinterpret_cast<const char *>(bytes + prefix),
                     headerLength);

  std::string descr, message;
  bool fortran = false;
  std::vector<int64_t> shape;
  if (!HeaderParser(header).parse(descr, fortran, shape, message))
    return fail("malformed header: " + message);
  if (fortran)
    return fail("Fortran-ordered arrays are not supported; save the array "
                "in C order (np.ascontiguousarray)");
  if (descr.size() < 2)
    return fail("unknown dtype '" + descr + "'");
  char order = descr[0];
  std::string kind = descr.substr(1);
  if (order == '>')
    return fail("big-endian dtype '" + descr + "' is not supported");
  if (order != '<' && order != '|' && order != '=')
    return fail("unknown dtype '" + descr + "'");
  const DTypeInfo *found = nullptr;
  for (const DTypeInfo &i : kDTypes)
    if (kind == i.descr && i.size)
      found = &i;
  // Strings: 'S<n>' holds n bytes an element, 'U<n>' n UTF-32 code units.
  size_t elementSize = found ? found->size : 0;
  bool unicode = false;
  if (!found && kind.size() > 1 && (kind[0] == 'S' || kind[0] == 'U') &&
      kind.size() <= 10 &&
      kind.find_first_not_of("0123456789", 1) == std::string::npos) {
    unicode = kind[0] == 'U';
    elementSize = std::stoull(kind.substr(1)) * (unicode ? 4 : 1);
    if (elementSize > 0)
      found = &info(DType::String);
  }
  if (!found)
    return fail("unsupported dtype '" + descr + "'");

  // The element count, guarding against overflow: every partial product
  // (NpyArray::numElements multiplies in this order, in int64) and the
  // byte count must fit, also when a later dimension is 0.
  size_t count = 1;
  for (int64_t d : shape) {
    if (d != 0 && count > size_t(std::numeric_limits<int64_t>::max()) /
                              size_t(d) / elementSize)
      return fail("shape is too large");
    count *= size_t(d);
  }
  size_t dataBytes = count * elementSize;
  size_t available = size - prefix - headerLength;
  if (available < dataBytes)
    return fail("truncated data: " + std::to_string(available) +
                " bytes for " + std::to_string(count) + " elements of " +
                found->name);
  if (available > dataBytes)
    return fail("trailing bytes after the data");
  array.dtype = found->dtype;
  array.shape = std::move(shape);
  const uint8_t *data = bytes + prefix + headerLength;
  array.data.clear();
  array.strings.clear();
  if (found->dtype != DType::String) {
    array.data.assign(data, data + dataBytes);
    return true;
  }
  for (size_t i = 0; i < count; ++i) {
    const uint8_t *element = data + i * elementSize;
    std::string text;
    if (!unicode) {
      text.assign(reinterpret_cast<const char *>(element), elementSize);
    } else if (!appendUtf8(element, elementSize / 4, text)) {
      return fail("element " + std::to_string(i) +
                  " is not a valid Unicode string");
    }
    // NumPy pads with NULs and drops them when reading.
    text.erase(text.find_last_not_of('\0') + 1);
    array.strings.push_back(std::move(text));
  }
  return true;
}

bool readNpy(const std::string &path, NpyArray &array, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) {
    error = path + ": read failed";
    return false;
  }
  return parseNpy(bytes.data(), bytes.size(), path, array, error);
}

bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error) {
  const DTypeInfo &i = info(array.dtype);
  bool isString = array.dtype == DType::String;
  // Strings: 'S' as wide as the longest element (at least 1), NUL-padded.
  size_t width = 1;
  for (const std::string &text : array.strings)
    width = std::max(width, text.size());
  std::string descr = isString ? "|S" + std::to_string(width)
                               : (i.size == 1 ? "|" : "<") + std::string(i.descr);
  if (isString ? array.strings.size() != size_t(array.numElements())
               : array.data.size() != size_t(array.numElements()) * i.size) {
    error = path + ": array data does not match its shape";
    return false;
  }
  // A Python tuple: "()", "(2,)", "(2, 3)".
  std::string shape = "(";
  for (size_t d = 0; d < array.shape.size(); ++d)
    shape += (d ? ", " : "") + std::to_string(array.shape[d]);
  shape += array.shape.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts on a 64-byte boundary.
  size_t total = kMagicSize + 2 + 2 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  if (header.size() > 0xffff) {
    error = path + ": header too long";
    return false;
  }
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      error = path + ": cannot write: " + std::strerror(errno);
      return false;
    }
    out.write(kMagic, kMagicSize);
    const char version[2] = {1, 0};
    out.write(version, 2);
    const char length[2] = {char(header.size() & 0xff),
                            char((header.size() >> 8) & 0xff)};
    out.write(length, 2);
    out.write(header.data(), header.size());
    out.write(reinterpret_cast<const char *>(array.data.data()),
              array.data.size());
    for (const std::string &text : array.strings) {
      out.write(text.data(), text.size());
      for (size_t pad = text.size(); pad < width; ++pad)
        out.put('\0');
    }
    if (!out) {
      error = path + ": write failed";
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": cannot write: " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

bool checkNpyMatches(const NpyArray &array, DType dtype,
                     const std::vector<int64_t> &shape,
                     const std::string &input, const std::string &file,
                     std::string &error) {
  // (-1: any size, the batch.)
  auto describe = [](const std::vector<int64_t> &s) {
    std::string text = "[";
    for (size_t i = 0; i < s.size(); ++i)
      text += (i ? "," : "") + (s[i] < 0 ? "?" : std::to_string(s[i]));
    return text + "]";
  };
  if (array.dtype != dtype) {
    error = file + ": input '" + input + "' must be " + dtypeName(dtype) +
            ", the file holds " + dtypeName(array.dtype);
    return false;
  }
  if (array.shape.size() != shape.size()) {
    error = file + ": input '" + input + "' must have rank " +
            std::to_string(shape.size()) + " " + describe(shape) +
            ", the file holds rank " + std::to_string(array.shape.size()) +
            " " + describe(array.shape);
    return false;
  }
  bool matches = true;
  for (size_t i = 0; i < shape.size(); ++i)
    matches = matches && (shape[i] < 0 || array.shape[i] == shape[i]);
  if (!matches) {
    error = file + ": input '" + input + "' must have shape " +
            describe(shape) + ", the file holds " + describe(array.shape);
    return false;
  }
  return true;
}

} // namespace tfc::rt
