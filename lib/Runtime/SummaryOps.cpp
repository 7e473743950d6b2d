//===- SummaryOps.cpp - TensorBoard's summaries as protocol buffers -------===//
//
// ScalarSummary's output, as TensorFlow's kernel makes it: a Summary whose
// field 1 repeats a Value per element, each with its tag (field 1) and
// simple_value (field 2, a float), serialized as proto3 serializes them.
// See tfc_runtime.h.
//
//===----------------------------------------------------------------------===//

#include "ProtoWriter.h"
#include "Runtime.h"

#include <cstring>

using namespace tfc::proto_writer;

namespace {

/// values[i] of TensorFlow's `dtype` as a float.
float floatAt(const void *values, int64_t dtype, int64_t i) {
  switch (dtype) {
  case 2: // DT_DOUBLE
    return float(static_cast<const double *>(values)[i]);
  case 3: // DT_INT32
    return float(static_cast<const int32_t *>(values)[i]);
  case 9: // DT_INT64
    return float(static_cast<const int64_t *>(values)[i]);
  default: // DT_FLOAT
    return static_cast<const float *>(values)[i];
  }
}

} // namespace

extern "C" {

void tfc_scalar_summary(tfc_runtime *runtime, const uint64_t *tags,
                        const void *values, uint64_t *out, int64_t count,
                        int64_t dtype) {
  std::string summary;
  for (int64_t i = 0; i < count; ++i) {
    // (proto3: an empty tag is left out; simple_value, of a oneof, never.)
    std::string value, tag = tfc::stringOf(tags[i]);
    if (!tag.empty())
      putBytesField(value, 1, tag);
    putFloatField(value, 2, floatAt(values, dtype, i));
    putBytesField(summary, 1, value);
  }
  *out = tfc::handleOf(tfc_string_new(runtime, summary.data(), summary.size()));
}

} // extern "C"
