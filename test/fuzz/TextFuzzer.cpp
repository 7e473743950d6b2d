//===- TextFuzzer.cpp - libFuzzer target for the runtime's text kernels ---===//
//
// The string a program is fed goes through StringSplitV2 and UnicodeDecode
// as they are (tfc_string_split_dense, tfc_unicode_decode_dense): any bytes
// must split and decode without crashing, and the pieces must be the
// string's. The first byte picks the separator and maxsplit; the rest is
// the string. Checked: the tokens joined by the separator are the string
// (a separator given, no limit), white-space tokens are neither empty nor
// hold white space, decoded code points are Unicode scalar values whose
// UTF-8 is the string where nothing was ill-formed, and ignoring errors
// drops exactly the replacements.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/tfc_runtime.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int64_t kColumns = 64;

std::string_view textOf(uint64_t handle) {
  const char *object = reinterpret_cast<const char *>(handle);
  int64_t size;
  std::memcpy(&size, object, sizeof size);
  return {object + sizeof size, size_t(size)};
}

uint64_t handleOf(tfc_runtime *runtime, std::string_view text) {
  return reinterpret_cast<uint64_t>(
      tfc_string_new(runtime, text.data(), int64_t(text.size())));
}

void fail(const char *what) {
  std::fprintf(stderr, "text kernels: %s\n", what);
  std::abort();
}

void appendUtf8(std::string &out, int32_t point) {
  if (point < 0x80) {
    out += char(point);
  } else if (point < 0x800) {
    out += char(0xC0 | point >> 6);
    out += char(0x80 | (point & 0x3F));
  } else if (point < 0x10000) {
    out += char(0xE0 | point >> 12);
    out += char(0x80 | (point >> 6 & 0x3F));
    out += char(0x80 | (point & 0x3F));
  } else {
    out += char(0xF0 | point >> 18);
    out += char(0x80 | (point >> 12 & 0x3F));
    out += char(0x80 | (point >> 6 & 0x3F));
    out += char(0x80 | (point & 0x3F));
  }
}

void checkSplit(tfc_runtime *runtime, std::string_view text, uint8_t mode) {
  static const char *separators[] = {"", " ", "ab", ","};
  std::string_view sep = separators[mode & 3];
  int64_t maxsplit = int64_t(mode >> 2 & 3) - 1; // -1 to 2.
  uint64_t in = handleOf(runtime, text), separator = handleOf(runtime, sep);
  std::vector<uint64_t> tokens(kColumns);
  int64_t length = -1;
  tfc_string_split_dense(runtime, &in, &separator, tokens.data(), &length, 1,
                         kColumns, maxsplit);
  if (length < 0 || (maxsplit >= 0 && length > maxsplit + 1))
    fail("a split's number of tokens is out of range");
  int64_t shown = length < kColumns ? length : kColumns;
  for (int64_t j = shown; j < kColumns; ++j)
    if (!textOf(tokens[j]).empty())
      fail("padding past a string's tokens is not empty");
  if (!sep.empty() && maxsplit < 0 && length <= kColumns) {
    std::string joined;
    for (int64_t j = 0; j < length; ++j)
      joined += std::string(j ? sep : "") + std::string(textOf(tokens[j]));
    if (joined != text)
      fail("the tokens joined by the separator are not the string");
  }
  if (sep.empty() && maxsplit < 0)
    for (int64_t j = 0; j < shown; ++j) {
      std::string_view token = textOf(tokens[j]);
      if (token.empty())
        fail("a white-space split gave an empty token");
      for (char ch : token)
        if (std::isspace(static_cast<unsigned char>(ch)))
          fail("a white-space split gave a token with white space");
    }
}

void checkDecode(tfc_runtime *runtime, std::string_view text) {
  uint64_t in = handleOf(runtime, text);
  std::vector<int32_t> replaced(kColumns), ignored(kColumns);
  int64_t replacedLength = -1, ignoredLength = -1;
  tfc_unicode_decode_dense(runtime, &in, replaced.data(), &replacedLength,
                           "fuzz", 1, kColumns, /*errors=replace*/ 1, 0xFFFD, 0);
  tfc_unicode_decode_dense(runtime, &in, ignored.data(), &ignoredLength, "fuzz",
                           1, kColumns, /*errors=ignore*/ 2, 0xFFFD, 0);
  if (replacedLength < 0 || ignoredLength < 0 || ignoredLength > replacedLength ||
      replacedLength > int64_t(text.size()))
    fail("a decode's number of code points is out of range");
  if (replacedLength > kColumns)
    return;
  std::string encoded;
  std::vector<int32_t> kept;
  bool replacements = false;
  for (int64_t j = 0; j < replacedLength; ++j) {
    int32_t point = replaced[j];
    if (point < 0 || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF))
      fail("a decoded code point is no Unicode scalar value");
    replacements |= point == 0xFFFD;
    if (point != 0xFFFD)
      kept.push_back(point);
    appendUtf8(encoded, point);
  }
  if (!replacements && encoded != text)
    fail("well-formed UTF-8 does not decode to its own code points");
  // (A U+FFFD of the text itself is kept when errors are ignored.)
  if (text.find("\xEF\xBF\xBD") == std::string_view::npos &&
      (int64_t(kept.size()) != ignoredLength ||
       !std::equal(kept.begin(), kept.end(), ignored.begin())))
    fail("ignoring errors does not drop exactly the replacements");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tfc_runtime *runtime = tfc_runtime_create(nullptr);
  if (size == 0)
    return 0;
  std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
  checkSplit(runtime, text, data[0]);
  checkDecode(runtime, text);
  tfc_strings_release(runtime);
  return 0;
}
