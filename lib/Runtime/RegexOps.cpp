//===- RegexOps.cpp - the regular expression ops, through RE2 -------------===//
//
// RegexReplace, StaticRegexReplace, RegexFullMatch and StaticRegexFullMatch
// with RE2, the library (and so the syntax and semantics) TensorFlow's
// kernels use. A file of its own, so that only programs whose models use
// these ops link RE2 (the code generator adds -lre2 when it calls them).
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <re2/re2.h>

#include <memory>
#include <string>

using tfc::handleOf;
using tfc::stringOf;

namespace {

/// The text of a pattern or rewrite: NUL-terminated, or the handle of a
/// scalar string tensor at `text` when `fromTensor`.
std::string textOf(const void *text, bool fromTensor) {
  return fromTensor ? stringOf(*static_cast<const uint64_t *>(text))
                    : std::string(static_cast<const char *>(text));
}

/// The compiled pattern, or a failure of the step with TensorFlow's
/// message.
std::unique_ptr<RE2> compile(tfc_runtime *runtime, const std::string &pattern,
                             const char *node) {
  auto regex = std::make_unique<RE2>(pattern, RE2::Quiet);
  if (!regex->ok())
    tfc::rt::failAt(runtime, node,
                    "Invalid pattern: " + pattern + ", error: " + regex->error());
  return regex;
}

} // namespace

extern "C" {

void tfc_regex_full_match(tfc_runtime *runtime, const uint64_t *in,
                          uint8_t *out, const void *pattern, const char *node,
                          int64_t count, int64_t from_tensor) {
  std::unique_ptr<RE2> regex =
      compile(runtime, textOf(pattern, from_tensor != 0), node);
  for (int64_t i = 0; i < count; ++i)
    out[i] = RE2::FullMatch(stringOf(in[i]), *regex);
}

void tfc_regex_replace(tfc_runtime *runtime, const uint64_t *in, uint64_t *out,
                       const void *pattern, const void *rewrite,
                       const char *node, int64_t count, int64_t global,
                       int64_t from_tensors) {
  std::unique_ptr<RE2> regex =
      compile(runtime, textOf(pattern, from_tensors != 0), node);
  std::string replacement = textOf(rewrite, from_tensors != 0);
  std::string error;
  if (!regex->CheckRewriteString(replacement, &error))
    tfc::rt::failAt(runtime, node,
                    "Invalid rewrite pattern: " + replacement + ", error: " + error);
  for (int64_t i = 0; i < count; ++i) {
    std::string text = stringOf(in[i]);
    if (global)
      RE2::GlobalReplace(&text, *regex, replacement);
    else
      RE2::Replace(&text, *regex, replacement);
    out[i] = handleOf(tfc_string_new(runtime, text.data(), text.size()));
  }
}

} // extern "C"
