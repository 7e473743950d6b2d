//===- StringOps.cpp - string handles and the ops savers use on them ------===//
//
// String tensors hold handles (tfc_runtime.h): the ops here read their
// inputs' text through them and make their outputs in the runtime's string
// pool, which lives until the next step begins. These are the string ops
// TensorFlow's savers build around SaveV2 (joining a prefix with a
// temporary suffix, naming shards, testing the prefix for a URL scheme).
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdio>
#include <regex>
#include <string>

using tfc::handleOf;
using tfc::stringOf;

extern "C" {

const void *tfc_string_new(tfc_runtime *runtime, const char *data,
                           int64_t size) {
  return runtime->strings.make(data, size);
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

void tfc_static_regex_full_match(tfc_runtime *runtime, const uint64_t *in,
                                 uint8_t *out, const char *pattern,
                                 const char *node, int64_t count) {
  std::regex regex;
  try {
    regex = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error &) {
    tfc_fail(runtime, (std::string("node '") + node + "': pattern '" +
                       pattern + "' is not a regular expression tfc reads")
                          .c_str());
  }
  for (int64_t i = 0; i < count; ++i)
    out[i] = std::regex_match(stringOf(in[i]), regex);
}

} // extern "C"
