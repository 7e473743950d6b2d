//===- SummaryOpsTest.cpp - the summary kernels' errors and forms ---------===//
//
// The byte-for-byte checks against TensorFlow are test/e2e/summaries.test;
// these are what its corpus model cannot reach: MergeSummary's refusals
// and a histogram of no values.

#include "tfc/Runtime/tfc_runtime.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

namespace {

uint64_t handleOf(const void *object) {
  return reinterpret_cast<uintptr_t>(object);
}

/// A string object's bytes (tfc_runtime.h: its length, then its bytes).
std::string textOf(uint64_t handle) {
  const char *object = reinterpret_cast<const char *>(handle);
  int64_t length;
  std::memcpy(&length, object, sizeof length);
  return std::string(object + sizeof length, size_t(length));
}

uint64_t newString(tfc_runtime *runtime, const std::string &text) {
  return handleOf(tfc_string_new(runtime, text.data(), text.size()));
}

/// A Summary of one simple value tagged `tag`.
std::string scalarSummary(tfc_runtime *runtime, const std::string &tag) {
  uint64_t tags = newString(runtime, tag), out = 0;
  float value = 1.5f;
  tfc_scalar_summary(runtime, &tags, &value, &out, 1, /*DT_FLOAT=*/1);
  return textOf(out);
}

TEST(SummaryOpsTest, MergesInOrder) {
  tfc_runtime_options options = {};
  tfc_runtime *runtime = tfc_runtime_create(&options);
  std::string a = scalarSummary(runtime, "a"), b = scalarSummary(runtime, "b");
  uint64_t inputs[2] = {newString(runtime, a), newString(runtime, b)}, out = 0;
  const uint64_t *table[2] = {&inputs[0], &inputs[1]};
  tfc_merge_summary(runtime, "node 'm' (MergeSummary)", table, &out, 2);
  EXPECT_EQ(textOf(out), a + b);
  tfc_runtime_destroy(runtime);
}

TEST(SummaryOpsDeathTest, MergeRefusesDuplicatesAndNonSummaries) {
  tfc_runtime_options options = {};
  tfc_runtime *runtime = tfc_runtime_create(&options);
  std::string a = scalarSummary(runtime, "a");
  uint64_t twice[2] = {newString(runtime, a), newString(runtime, a)}, out = 0;
  const uint64_t *table[2] = {&twice[0], &twice[1]};
  EXPECT_EXIT(tfc_merge_summary(runtime, "node 'm' (MergeSummary)", table, &out, 2),
              ::testing::ExitedWithCode(1),
              "node 'm' \\(MergeSummary\\): duplicate tag 'a' in the summaries merged");
  // A length-delimited field that runs past the end.
  uint64_t broken = newString(runtime, std::string("\x0a\x09\x0a", 3));
  const uint64_t *one[1] = {&broken};
  EXPECT_EXIT(tfc_merge_summary(runtime, "node 'm' (MergeSummary)", one, &out, 1),
              ::testing::ExitedWithCode(1),
              "node 'm' \\(MergeSummary\\): input 0 is not a Summary");
  tfc_runtime_destroy(runtime);
}

/// Bytes from their hex digits.
std::string fromHex(const std::string &hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    bytes.push_back(char(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return bytes;
}

TEST(SummaryOpsTest, HistogramOfNothing) {
  // What TensorFlow 2.21's HistogramSummary gives for tag "h" and no
  // values (tf.compat.v1.summary.histogram("h", tf.zeros([0]))): min
  // DBL_MAX, max -DBL_MAX, one empty bucket up to DBL_MAX.
  const std::string tensorflows =
      "0a2b0a01682a2609ffffffffffffef7f11ffffffffffffefff3208ffffffffffffef7f"
      "3a080000000000000000";
  tfc_runtime_options options = {};
  tfc_runtime *runtime = tfc_runtime_create(&options);
  uint64_t tag = newString(runtime, "h"), out = 0;
  float none = 0;
  tfc_histogram_summary(runtime, "node 'h' (HistogramSummary)", &tag, &none,
                        &out, 0, /*DT_FLOAT=*/1);
  EXPECT_EQ(textOf(out), fromHex(tensorflows));
  tfc_runtime_destroy(runtime);
}

} // namespace
