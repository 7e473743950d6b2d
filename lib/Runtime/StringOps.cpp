//===- StringOps.cpp - string handles and the ops savers use on them ------===//
//
// String tensors hold handles (tfc_runtime.h): the ops here read their
// inputs' text through them and make their outputs in the runtime's string
// pool, which lives until the next step begins. First the string ops
// TensorFlow's savers build around SaveV2 (joining a prefix with a
// temporary suffix, naming shards; RegexOps.cpp tests the prefix for a URL
// scheme), then the elementwise ones of the registry's string family, with
// TensorFlow's edge cases and error messages.
//
//===----------------------------------------------------------------------===//

#include "Fingerprint.h"
#include "Runtime.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using tfc::handleOf;
using tfc::stringOf;

namespace {
thread_local tfc::StringPool *threadPool = nullptr;
} // namespace

tfc::ThreadStringPool::ThreadStringPool(StringPool &pool) : outer(threadPool) {
  threadPool = &pool;
}

tfc::ThreadStringPool::~ThreadStringPool() { threadPool = outer; }

tfc::StringPool *tfc::ThreadStringPool::current() { return threadPool; }

extern "C" {

const void *tfc_string_new(tfc_runtime *runtime, const char *data,
                           int64_t size) {
  tfc::StringPool &pool = threadPool ? *threadPool : runtime->strings;
  return pool.make(data, size);
}

void tfc_strings_release(tfc_runtime *runtime) { runtime->strings.release(); }

void tfc_string_join(tfc_runtime *runtime, const int64_t *inputs,
                     const int64_t *input_counts, uint64_t *out,
                     const char *separator, int64_t num_inputs, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    std::string text;
    for (int64_t k = 0; k < num_inputs; ++k) {
      const uint64_t *input = reinterpret_cast<const uint64_t *>(inputs[k]);
      if (k)
        text += separator;
      text += stringOf(input[input_counts[k] == 1 ? 0 : i]);
    }
    out[i] = handleOf(tfc_string_new(runtime, text.data(), text.size()));
  }
}

void tfc_sharded_filename(tfc_runtime *runtime, const uint64_t *basename,
                          const int32_t *shard, const int32_t *num_shards,
                          uint64_t *out) {
  // TensorFlow's format, "%s-%05d-of-%05d".
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, "-%05d-of-%05d", *shard, *num_shards);
  std::string text = stringOf(*basename) + suffix;
  *out = handleOf(tfc_string_new(runtime, text.data(), text.size()));
}

// ---- Elementwise string ops (the registry's string family) ----

/// A string element as Python prints bytes, TensorFlow's errors' form.
static std::string quoted(const std::string &text) {
  std::string out = "b'";
  for (unsigned char ch : text) {
    if (ch == '\\' || ch == '\'') {
      out += '\\';
      out += char(ch);
    } else if (ch >= 32 && ch < 127) {
      out += char(ch);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", ch);
      out += hex;
    }
  }
  return out + "'";
}

static uint64_t newString(tfc_runtime *runtime, const std::string &text) {
  return handleOf(tfc_string_new(runtime, text.data(), text.size()));
}

/// The byte offset of UTF-8 character `chars` of `text` (its size past the
/// end), and the number of characters.
static size_t utf8Offset(const std::string &text, int64_t chars) {
  size_t at = 0;
  for (int64_t seen = 0; at < text.size() && seen < chars; ++seen)
    do
      ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80);
  return at;
}
static int64_t utf8Length(const std::string &text) {
  int64_t n = 0;
  for (unsigned char ch : text)
    n += (ch & 0xC0) != 0x80;
  return n;
}

void tfc_string_length(tfc_runtime *, const uint64_t *in, int32_t *out,
                       int64_t count, int64_t utf8) {
  for (int64_t i = 0; i < count; ++i) {
    std::string text = stringOf(in[i]);
    out[i] = int32_t(utf8 ? utf8Length(text) : int64_t(text.size()));
  }
}

void tfc_string_case(tfc_runtime *runtime, const uint64_t *in, uint64_t *out,
                     int64_t count, int64_t upper) {
  for (int64_t i = 0; i < count; ++i) {
    std::string text = stringOf(in[i]);
    for (char &ch : text)
      if (upper ? (ch >= 'a' && ch <= 'z') : (ch >= 'A' && ch <= 'Z'))
        ch = char(ch ^ 0x20);
    out[i] = newString(runtime, text);
  }
}

void tfc_string_strip(tfc_runtime *runtime, const uint64_t *in, uint64_t *out,
                      int64_t count) {
  auto space = [](char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
           ch == '\f' || ch == '\v';
  };
  for (int64_t i = 0; i < count; ++i) {
    std::string text = stringOf(in[i]);
    size_t begin = 0, end = text.size();
    while (begin < end && space(text[begin]))
      ++begin;
    while (end > begin && space(text[end - 1]))
      --end;
    out[i] = newString(runtime, text.substr(begin, end - begin));
  }
}

void tfc_as_string(tfc_runtime *runtime, const void *in, uint64_t *out,
                   const char *format, int64_t count, int64_t dtype) {
  char buffer[512];
  for (int64_t i = 0; i < count; ++i) {
    switch (dtype) {
    case TFC_FLOAT:
      std::snprintf(buffer, sizeof buffer, format, double(static_cast<const float *>(in)[i]));
      break;
    case TFC_DOUBLE:
      std::snprintf(buffer, sizeof buffer, format, static_cast<const double *>(in)[i]);
      break;
    case TFC_INT64:
      std::snprintf(buffer, sizeof buffer, format,
                    static_cast<long long>(static_cast<const int64_t *>(in)[i]));
      break;
    case TFC_BOOL:
      std::snprintf(buffer, sizeof buffer, "%s",
                    static_cast<const uint8_t *>(in)[i] ? "true" : "false");
      break;
    case TFC_INT8:
      std::snprintf(buffer, sizeof buffer, format, int(static_cast<const int8_t *>(in)[i]));
      break;
    case TFC_UINT8:
      std::snprintf(buffer, sizeof buffer, format, int(static_cast<const uint8_t *>(in)[i]));
      break;
    case TFC_INT16:
      std::snprintf(buffer, sizeof buffer, format, int(static_cast<const int16_t *>(in)[i]));
      break;
    default:
      std::snprintf(buffer, sizeof buffer, format, static_cast<const int32_t *>(in)[i]);
    }
    out[i] = newString(runtime, buffer);
  }
}

void tfc_string_to_number(tfc_runtime *runtime, const uint64_t *in, void *out,
                          const char *node, int64_t count, int64_t dtype) {
  for (int64_t i = 0; i < count; ++i) {
    std::string text = stringOf(in[i]);
    const char *begin = text.c_str();
    char *end = nullptr;
    errno = 0;
    bool integer = dtype == TFC_INT32 || dtype == TFC_INT64;
    long long whole = 0;
    double real = 0;
    if (integer)
      whole = std::strtoll(begin, &end, 10);
    else
      real = std::strtod(begin, &end);
    while (end && *end && std::isspace(static_cast<unsigned char>(*end)))
      ++end;
    bool ok = end != begin && end && *end == 0 && !text.empty() &&
              (!integer || errno == 0) &&
              (dtype != TFC_INT32 || (whole >= INT32_MIN && whole <= INT32_MAX));
    if (!ok)
      tfc::rt::failAt(runtime, node,
                      "StringToNumberOp could not correctly convert string: " +
                          text);
    switch (dtype) {
    case TFC_INT32:
      static_cast<int32_t *>(out)[i] = int32_t(whole);
      break;
    case TFC_INT64:
      static_cast<int64_t *>(out)[i] = whole;
      break;
    case TFC_DOUBLE:
      static_cast<double *>(out)[i] = real;
      break;
    default:
      static_cast<float *>(out)[i] = float(real);
    }
  }
}

void tfc_substr(tfc_runtime *runtime, const uint64_t *in, const void *pos,
                const void *len, uint64_t *out, const char *node, int64_t count,
                int64_t positions, int64_t index_bytes, int64_t utf8) {
  auto at = [&](const void *values, int64_t i) -> int64_t {
    int64_t k = positions == 1 ? 0 : i;
    return index_bytes == 8 ? static_cast<const int64_t *>(values)[k]
                            : static_cast<const int32_t *>(values)[k];
  };
  for (int64_t i = 0; i < count; ++i) {
    std::string text = stringOf(in[i]);
    int64_t size = utf8 ? utf8Length(text) : int64_t(text.size());
    int64_t p = at(pos, i), n = at(len, i);
    if (p < -size || p > size)
      tfc::rt::failAt(runtime, node,
                      "pos " + std::to_string(p) + " out of range for string " +
                          quoted(text) + " at index " + std::to_string(i));
    if (p < 0)
      p += size;
    // A length past the end, or negative, takes as much as there is.
    if (n < 0 || n > size - p)
      n = size - p;
    size_t first = utf8 ? utf8Offset(text, p) : size_t(p);
    size_t last = utf8 ? utf8Offset(text, p + n) : size_t(p + n);
    out[i] = newString(runtime, text.substr(first, last - first));
  }
}

void tfc_string_to_hash_bucket_fast(tfc_runtime *, const uint64_t *in,
                                    int64_t *out, int64_t count,
                                    int64_t buckets) {
  for (int64_t i = 0; i < count; ++i) {
    std::string text = stringOf(in[i]);
    out[i] = int64_t(tfc::rt::fingerprint64(text.data(), text.size()) %
                     uint64_t(buckets));
  }
}

// ---- Splits into tokens ----

/// TensorFlow's StringSplitV2 of `text`, as Python's str.split: at each
/// `sep` (empty tokens kept), or without one at runs of ASCII white space
/// (none kept); after `maxsplit` splits (when >= 0) the rest is one token.
static std::vector<std::string_view> splitV2(std::string_view text,
                                             std::string_view sep,
                                             int64_t maxsplit) {
  std::vector<std::string_view> tokens;
  if (maxsplit == 0)
    return {text};
  auto space = [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; };
  auto skipSpace = [&] {
    while (!text.empty() && space(text.front()))
      text.remove_prefix(1);
  };
  int64_t splits = 0;
  if (sep.empty()) {
    skipSpace();
    while (!text.empty()) {
      size_t end = 0;
      while (end < text.size() && !space(text[end]))
        ++end;
      tokens.push_back(text.substr(0, end));
      text.remove_prefix(end);
      skipSpace();
      if (maxsplit > 0 && ++splits == maxsplit) {
        tokens.push_back(text);
        break;
      }
    }
    return tokens;
  }
  for (size_t at; (at = text.find(sep)) != std::string_view::npos;) {
    tokens.push_back(text.substr(0, at));
    text.remove_prefix(at + sep.size());
    if (maxsplit > 0 && ++splits == maxsplit)
      break;
  }
  tokens.push_back(text);
  return tokens;
}

void tfc_string_split_dense(tfc_runtime *runtime, const uint64_t *in,
                            const uint64_t *sep, uint64_t *tokens,
                            int64_t *lengths, int64_t count, int64_t columns,
                            int64_t maxsplit) {
  uint64_t empty = newString(runtime, "");
  std::string_view separator = tfc::viewOf(*sep);
  for (int64_t i = 0; i < count; ++i) {
    std::vector<std::string_view> split =
        splitV2(tfc::viewOf(in[i]), separator, maxsplit);
    lengths[i] = int64_t(split.size());
    for (int64_t j = 0; j < columns; ++j)
      tokens[i * columns + j] =
          j < int64_t(split.size())
              ? handleOf(tfc_string_new(runtime, split[j].data(), split[j].size()))
              : empty;
  }
}

// ---- UTF-8 decoding ----

/// The code points of UTF-8 `text`, as TensorFlow's UnicodeDecode (ICU)
/// gives them: each maximal subpart of an ill-formed sequence (the Unicode
/// standard's: a lead byte and the continuation bytes that could still
/// follow it) is one error, kDecodeError in `out`.
static constexpr int32_t kDecodeError = -1;
static void decodeUtf8(std::string_view text, std::vector<int32_t> &out) {
  size_t i = 0, n = text.size();
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  while (i < n) {
    unsigned char lead = byte(i);
    if (lead < 0x80) {
      out.push_back(lead);
      ++i;
      continue;
    }
    // The sequence's length and the range of its second byte.
    int length;
    unsigned char low = 0x80, high = 0xBF;
    int32_t point;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2, point = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3, point = lead & 0x0F;
      low = lead == 0xE0 ? 0xA0 : 0x80; // No overlong forms,
      high = lead == 0xED ? 0x9F : 0xBF; // no surrogates.
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4, point = lead & 0x07;
      low = lead == 0xF0 ? 0x90 : 0x80;
      high = lead == 0xF4 ? 0x8F : 0xBF; // Nothing past U+10FFFF.
    } else {
      out.push_back(kDecodeError);
      ++i;
      continue;
    }
    size_t k = i + 1;
    for (int seen = 1; seen < length; ++seen, ++k) {
      unsigned char lo = seen == 1 ? low : 0x80, hi = seen == 1 ? high : 0xBF;
      if (k >= n || byte(k) < lo || byte(k) > hi)
        break;
      point = (point << 6) | (byte(k) & 0x3F);
    }
    if (int(k - i) == length)
      out.push_back(point);
    else
      out.push_back(kDecodeError);
    i = k;
  }
}

void tfc_unicode_decode_dense(tfc_runtime *runtime, const uint64_t *in,
                              int32_t *out, int64_t *lengths, const char *node,
                              int64_t count, int64_t columns, int64_t errors,
                              int64_t replacement, int64_t replace_control) {
  std::vector<int32_t> points;
  for (int64_t i = 0; i < count; ++i) {
    std::vector<int32_t> decoded;
    decodeUtf8(tfc::viewOf(in[i]), decoded);
    points.clear();
    for (int32_t point : decoded) {
      if (point == kDecodeError) {
        if (errors == 0)
          tfc::rt::failAt(runtime, node, "Invalid formatting on input string");
        if (errors == 1)
          points.push_back(int32_t(replacement));
        continue;
      }
      points.push_back(replace_control && point < 0x20 ? int32_t(replacement)
                                                       : point);
    }
    lengths[i] = int64_t(points.size());
    for (int64_t j = 0; j < columns; ++j)
      out[i * columns + j] = j < int64_t(points.size()) ? points[j] : 0;
  }
}

} // extern "C"
