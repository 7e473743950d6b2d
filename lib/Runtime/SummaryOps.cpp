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

#include "Png.h"
#include "ProtoReader.h"
#include "ProtoWriter.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

using namespace tfc::proto_writer;
namespace proto_reader = tfc::proto_reader;

namespace {

/// values[i] of TensorFlow's `dtype` (float, double, int32, int64, uint8)
/// as a double.
double doubleAt(const void *values, int64_t dtype, int64_t i) {
  switch (dtype) {
  case 4: // DT_UINT8
    return double(static_cast<const uint8_t *>(values)[i]);
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

/// Whether `bytes` read as a protocol buffer message's fields.
bool isMessage(std::string_view bytes) {
  return proto_reader::forEachField(bytes, [](const proto_reader::Field &) {});
}

/// The tag of each value of a serialized Summary (field 1, a Value whose
/// field 1 is the tag); false when the bytes are no Summary.
bool summaryTags(std::string_view summary, std::vector<std::string> &tags) {
  bool valuesRead = true;
  bool read = proto_reader::forEachField(
      summary, [&](const proto_reader::Field &field) {
        if (field.number != 1)
          return;
        std::string tag;
        valuesRead &= proto_reader::forEachField(
            field.value, [&](const proto_reader::Field &inner) {
              if (inner.number == 1)
                tag = std::string(inner.value);
            });
        tags.push_back(tag);
      });
  return read && valuesRead;
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

void tfc_encode_png(tfc_runtime *runtime, const uint8_t *images, uint64_t *out,
                    int64_t count, int64_t height, int64_t width,
                    int64_t channels) {
  int64_t bytes = height * width * channels;
  for (int64_t i = 0; i < count; ++i) {
    std::string png = tfc::encodePng(images + i * bytes, height, width, channels);
    out[i] = tfc::handleOf(tfc_string_new(runtime, png.data(), png.size()));
  }
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

void tfc_image_summary(tfc_runtime *runtime, const uint64_t *tag,
                       const void *values, const uint8_t *bad_color,
                       uint64_t *out, int64_t batch, int64_t height,
                       int64_t width, int64_t channels, int64_t dtype,
                       int64_t max_images) {
  std::string name = tfc::stringOf(*tag), summary;
  int64_t images = std::min(batch, max_images);
  int64_t pixels = height * width, samples = pixels * channels;
  std::vector<uint8_t> image(static_cast<size_t>(samples));
  for (int64_t i = 0; i < images; ++i) {
    int64_t first = i * samples;
    if (dtype == 4) { // DT_UINT8: as they are
      std::memcpy(image.data(),
                  static_cast<const uint8_t *>(values) + first, size_t(samples));
    } else {
      // One image at a time, an affine map into uint8 of its finite
      // values: nonnegative ones scaled so the largest is 255; with
      // negative ones, scaled by the largest magnitude to [-127, 127] and
      // shifted by 128. A pixel with a value not finite is bad_color.
      double low = 0, high = 0;
      bool any = false;
      for (int64_t k = 0; k < samples; ++k) {
        double v = doubleAt(values, dtype, first + k);
        if (!std::isfinite(v))
          continue;
        low = any ? std::min(low, v) : v;
        high = any ? std::max(high, v) : v;
        any = true;
      }
      const double threshold = 1e-6;
      double scale, offset;
      if (low < 0) {
        double largest = std::max(std::abs(low), std::abs(high));
        scale = largest < threshold ? 0.0 : 127.0 / largest;
        offset = 128.0;
      } else {
        scale = high < threshold ? 0.0 : 255.0 / high;
        offset = 0.0;
      }
      for (int64_t p = 0; p < pixels; ++p) {
        bool finite = true;
        for (int64_t c = 0; c < channels; ++c)
          finite &= std::isfinite(doubleAt(values, dtype, first + p * channels + c));
        for (int64_t c = 0; c < channels; ++c)
          image[size_t(p * channels + c)] =
              finite ? uint8_t(float(
                           float(doubleAt(values, dtype, first + p * channels + c)) *
                               float(scale) +
                           float(offset)))
                     : bad_color[c];
      }
    }
    // Image: height 1, width 2, colorspace 3 (the channels), encoded 4.
    std::string encoded;
    putVarintField(encoded, 1, uint64_t(height));
    putVarintField(encoded, 2, uint64_t(width));
    putVarintField(encoded, 3, uint64_t(channels));
    putBytesField(encoded, 4, tfc::encodePng(image.data(), height, width, channels));
    // Summary.Value: tag 1 ("TAG/image", or "TAG/image/I" when several
    // may be), image 4.
    std::string value;
    putBytesField(value, 1,
                  name + (max_images == 1 ? "/image"
                                          : "/image/" + std::to_string(i)));
    putBytesField(value, 4, encoded);
    putBytesField(summary, 1, value);
  }
  *out = tfc::handleOf(tfc_string_new(runtime, summary.data(), summary.size()));
}

void tfc_tensor_summary(tfc_runtime *runtime, const char *node,
                        const uint64_t *tag, const void *values,
                        const uint64_t *metadata, uint64_t *out,
                        const int64_t *dims, int64_t rank, int64_t dtype,
                        int64_t element_bytes) {
  // TensorProto: dtype 1, tensor_shape 2 (TensorShapeProto: a dim 2 per
  // dimension, its size 1), and the values: strings as string_val 8, any
  // other type's bytes as tensor_content 4 (TensorFlow's kernel writes
  // them so). The shape is there even for a scalar.
  int64_t count = 1;
  std::string shape, tensor;
  for (int64_t d = 0; d < rank; ++d) {
    std::string dim;
    if (dims[d] != 0)
      putVarintField(dim, 1, uint64_t(dims[d]));
    putBytesField(shape, 2, dim);
    count *= dims[d];
  }
  putVarintField(tensor, 1, uint64_t(dtype));
  putBytesField(tensor, 2, shape);
  if (dtype == 7) { // DT_STRING: handles
    for (int64_t i = 0; i < count; ++i)
      putBytesField(tensor, 8,
                    tfc::stringOf(static_cast<const uint64_t *>(values)[i]));
  } else if (count > 0) {
    putBytesField(tensor, 4,
                  std::string(static_cast<const char *>(values),
                              size_t(count * element_bytes)));
  }
  // Summary.Value: tag 1, tensor 8, metadata 9 (a SummaryMetadata, as
  // given: the plugin that shows it).
  std::string name = tfc::stringOf(*tag), meta = tfc::stringOf(*metadata);
  if (!isMessage(meta))
    tfc::rt::failAt(runtime, node,
                    "its serialized_summary_metadata is no SummaryMetadata");
  std::string value, summary;
  if (!name.empty())
    putBytesField(value, 1, name);
  putBytesField(value, 8, tensor);
  putBytesField(value, 9, meta);
  putBytesField(summary, 1, value);
  *out = tfc::handleOf(tfc_string_new(runtime, summary.data(), summary.size()));
}

} // extern "C"
