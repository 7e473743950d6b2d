//===- SummaryOps.cpp - TensorBoard's summaries as protocol buffers -------===//
//
// The summary ops' outputs, as TensorFlow's kernels make them: a Summary
// whose field 1 repeats a Value, each with its tag (field 1) and a
// simple_value (field 2, a float: ScalarSummary, a value per element) or
// a HistogramProto (field 5: HistogramSummary, TensorFlow's histogram of
// default buckets); MergeSummary's the values of its inputs in order.
// Serialized as proto3 serializes them, so that the bytes are
// TensorFlow's. See tfc_runtime.h.
//
//===----------------------------------------------------------------------===//

#include "ProtoWriter.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

using namespace tfc::proto_writer;

namespace {

/// values[i] of TensorFlow's `dtype` (float, double, int32, int64) as a
/// double.
double doubleAt(const void *values, int64_t dtype, int64_t i) {
  switch (dtype) {
  case 2: // DT_DOUBLE
    return static_cast<const double *>(values)[i];
  case 3: // DT_INT32
    return double(static_cast<const int32_t *>(values)[i]);
  case 9: // DT_INT64
    return double(static_cast<const int64_t *>(values)[i]);
  default: // DT_FLOAT
    return static_cast<const float *>(values)[i];
  }
}

/// TensorFlow's default histogram buckets, by their upper limits: from
/// 1e-12 up, each 1.1 times the last (multiplied in that order, so that
/// the limits are TensorFlow's to the bit) until 1e20, then DBL_MAX; the
/// same negated below zero, and 0 between.
const std::vector<double> &defaultBucketLimits() {
  static const std::vector<double> limits = [] {
    std::vector<double> positive;
    for (double v = 1.0e-12; v < 1.0e20; v *= 1.1)
      positive.push_back(v);
    positive.push_back(std::numeric_limits<double>::max());
    std::vector<double> all;
    for (auto it = positive.rbegin(); it != positive.rend(); ++it)
      all.push_back(-*it);
    all.push_back(0.0);
    all.insert(all.end(), positive.begin(), positive.end());
    return all;
  }();
  return limits;
}

/// Reads a varint at `at`; false past `end` or when malformed.
bool readVarint(const uint8_t *&at, const uint8_t *end, uint64_t &value) {
  value = 0;
  for (int shift = 0; shift < 64 && at < end; shift += 7) {
    uint8_t byte = *at++;
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

/// Moves past the value of a field whose key is `key`; a length-delimited
/// one's bytes in `bytes`. False when they run past `end`.
bool skipField(const uint8_t *&at, const uint8_t *end, uint64_t key,
               std::string_view &bytes) {
  uint64_t length;
  switch (key & 7) {
  case 0:
    return readVarint(at, end, length);
  case 1:
  case 5:
    length = (key & 7) == 1 ? 8 : 4;
    break;
  case 2:
    if (!readVarint(at, end, length))
      return false;
    break;
  default:
    return false;
  }
  if (length > uint64_t(end - at))
    return false;
  bytes = std::string_view(reinterpret_cast<const char *>(at), length);
  at += length;
  return true;
}

/// The tag of each value of a serialized Summary (field 1, a Value whose
/// field 1 is the tag); false when the bytes are no Summary.
bool summaryTags(std::string_view summary, std::vector<std::string> &tags) {
  auto *at = reinterpret_cast<const uint8_t *>(summary.data());
  const uint8_t *end = at + summary.size();
  while (at < end) {
    uint64_t key;
    std::string_view value;
    if (!readVarint(at, end, key) || !skipField(at, end, key, value))
      return false;
    if (key != (1 << 3 | 2))
      continue;
    std::string tag;
    auto *in = reinterpret_cast<const uint8_t *>(value.data());
    const uint8_t *valueEnd = in + value.size();
    while (in < valueEnd) {
      uint64_t field;
      std::string_view bytes;
      if (!readVarint(in, valueEnd, field) ||
          !skipField(in, valueEnd, field, bytes))
        return false;
      if (field == (1 << 3 | 2))
        tag = std::string(bytes);
    }
    tags.push_back(tag);
  }
  return true;
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
    putFloatField(value, 2, float(doubleAt(values, dtype, i)));
    putBytesField(summary, 1, value);
  }
  *out = tfc::handleOf(tfc_string_new(runtime, summary.data(), summary.size()));
}

void tfc_histogram_summary(tfc_runtime *runtime, const char *node,
                           const uint64_t *tag, const void *values,
                           uint64_t *out, int64_t count, int64_t dtype) {
  // A value falls in the first bucket whose limit is above it.
  const std::vector<double> &limits = defaultBucketLimits();
  std::vector<double> counts(limits.size(), 0.0);
  double min = limits.back(), max = -limits.back(), sum = 0, squares = 0;
  std::string name = tfc::stringOf(*tag);
  for (int64_t i = 0; i < count; ++i) {
    double v = doubleAt(values, dtype, i);
    if (!std::isfinite(v))
      tfc::rt::failAt(runtime, node,
                      "NaN or infinity in the values of histogram '" + name +
                          "'");
    size_t bucket =
        std::upper_bound(limits.begin(), limits.end(), v) - limits.begin();
    counts[std::min(bucket, limits.size() - 1)] += 1;
    min = std::min(min, v);
    max = std::max(max, v);
    sum += v;
    squares += v * v;
  }
  // Each run of empty buckets is one, whose limit is the run's last.
  std::vector<double> bucketLimits, bucketCounts;
  for (size_t i = 0; i < limits.size();) {
    double limit = limits[i], n = counts[i++];
    if (n <= 0)
      while (i < limits.size() && counts[i] <= 0)
        limit = limits[i++];
    bucketLimits.push_back(limit);
    bucketCounts.push_back(n);
  }
  // HistogramProto: min 1, max 2, num 3, sum 4, sum_squares 5,
  // bucket_limit 6, bucket 7.
  std::string histogram;
  putDoubleField(histogram, 1, min);
  putDoubleField(histogram, 2, max);
  putDoubleField(histogram, 3, double(count));
  putDoubleField(histogram, 4, sum);
  putDoubleField(histogram, 5, squares);
  putPackedDoubles(histogram, 6, bucketLimits.data(), bucketLimits.size());
  putPackedDoubles(histogram, 7, bucketCounts.data(), bucketCounts.size());
  // Summary.Value: tag 1, histo 5.
  std::string value, summary;
  if (!name.empty())
    putBytesField(value, 1, name);
  putBytesField(value, 5, histogram);
  putBytesField(summary, 1, value);
  *out = tfc::handleOf(tfc_string_new(runtime, summary.data(), summary.size()));
}

void tfc_merge_summary(tfc_runtime *runtime, const char *node,
                       const uint64_t *const *inputs, uint64_t *out,
                       int64_t count) {
  // The values of every input in order, as TensorFlow re-serializes the
  // merged Summary: each tag once.
  std::string merged;
  std::vector<std::string> seen;
  for (int64_t i = 0; i < count; ++i) {
    std::string summary = tfc::stringOf(*inputs[i]);
    std::vector<std::string> tags;
    if (!summaryTags(summary, tags))
      tfc::rt::failAt(runtime, node,
                      "input " + std::to_string(i) + " is not a Summary");
    for (const std::string &tag : tags) {
      if (std::find(seen.begin(), seen.end(), tag) != seen.end())
        tfc::rt::failAt(runtime, node,
                        "duplicate tag '" + tag + "' in the summaries merged");
      seen.push_back(tag);
    }
    merged += summary;
  }
  *out = tfc::handleOf(tfc_string_new(runtime, merged.data(), merged.size()));
}

} // extern "C"
