//===- CheckpointOpsTest.cpp - SaveV2, RestoreV2, MergeV2Checkpoints ------===//
//
// Tests the runtime's checkpoint ops as generated code calls them: string
// handles for the prefixes and names, address tables for the tensors, a
// descriptor of dtypes and shapes. A save restores exactly; two sharded
// parts merge into one checkpoint of two data shards whose entries the
// reader finds, and the parts' index files and directories go.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/tfc_runtime.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace tfc::rt;

namespace {

struct Runtime {
  tfc_runtime *runtime = tfc_runtime_create(nullptr);
  ~Runtime() { tfc_runtime_destroy(runtime); }
  uint64_t handle(const std::string &text) {
    return reinterpret_cast<uint64_t>(
        tfc_string_new(runtime, text.data(), int64_t(text.size())));
  }
};

bool exists(const std::string &path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

int64_t address(const void *data) { return reinterpret_cast<int64_t>(data); }

TEST(CheckpointOpsTest, SaveThenRestoreIsExact) {
  Runtime rt;
  std::string prefix = ::testing::TempDir() + "/ops-save/deeper/ckpt";
  std::vector<float> w = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f, -0.5f};
  int64_t step = 42;
  uint64_t prefixHandle = rt.handle(prefix);
  uint64_t names[] = {rt.handle("model/w"), rt.handle("global_step")};
  uint64_t slices[] = {rt.handle(""), rt.handle("")};
  int64_t tensors[] = {address(w.data()), address(&step)};
  // Two tensors: float [2,3], int64 [].
  int64_t descriptor[] = {2, TFC_FLOAT, 2, 2, 3, TFC_INT64, 0};
  tfc_save_v2(rt.runtime, &prefixHandle, names, slices, tensors, descriptor,
              "save/SaveV2");

  std::vector<float> w2(6, 0.0f);
  int64_t step2 = 0;
  int64_t outputs[] = {address(w2.data()), address(&step2)};
  tfc_restore_v2(rt.runtime, &prefixHandle, names, slices, outputs, descriptor,
                 "save/RestoreV2");
  EXPECT_EQ(w2, w);
  EXPECT_EQ(step2, 42);
}

TEST(CheckpointOpsTest, MergeJoinsShardsAndRemovesTheParts) {
  Runtime rt;
  std::string dir = ::testing::TempDir() + "/ops-merge";
  std::string error;
  std::vector<float> a = {1, 2, 3}, b = {4, 5};
  CheckpointWriter first, second;
  ASSERT_TRUE(first.add("a", TFC_FLOAT, {3}, a.data(), 12, error)) << error;
  ASSERT_TRUE(second.add("b", TFC_FLOAT, {2}, b.data(), 8, error)) << error;
  ::mkdir(dir.c_str(), 0755);
  ::mkdir((dir + "/ckpt_temp").c_str(), 0755);
  std::string part0 = dir + "/ckpt_temp/part-00000-of-00002";
  std::string part1 = dir + "/ckpt_temp/part-00001-of-00002";
  ASSERT_TRUE(first.write(part0, error)) << error;
  ASSERT_TRUE(second.write(part1, error)) << error;

  uint64_t parts[] = {rt.handle(part0), rt.handle(part1)};
  uint64_t target = rt.handle(dir + "/ckpt");
  tfc_merge_v2_checkpoints(rt.runtime, parts, &target, "save/MergeV2Checkpoints",
                           2, /*delete_old_dirs=*/1, /*allow_missing_files=*/0);

  CheckpointReader reader;
  ASSERT_TRUE(reader.open(dir + "/ckpt", error)) << error;
  EXPECT_EQ(reader.shardCount(), 2);
  EXPECT_EQ(reader.entries().at("b").shard, 1);
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(reader.read("a", bytes, error)) << error;
  EXPECT_EQ(std::memcmp(bytes.data(), a.data(), 12), 0);
  ASSERT_TRUE(reader.read("b", bytes, error)) << error;
  EXPECT_EQ(std::memcmp(bytes.data(), b.data(), 8), 0);
  EXPECT_TRUE(exists(dir + "/ckpt.data-00001-of-00002"));
  EXPECT_FALSE(exists(part0 + ".index"));
  EXPECT_FALSE(exists(dir + "/ckpt_temp"));
}

// Tests a TF1 sharded Saver of a partitioned variable: each device's
// SaveV2 writes its part as a slice of "emb" (shape_and_slices "4 2
// 0,2:0,2" and "4 2 2,2:0,2") to a part prefix, MergeV2Checkpoints lists
// both slices in one full entry, and RestoreV2 reads the whole "emb" back,
// and a slice across the two parts. A slice whose shape is not the
// tensor's is refused.
TEST(CheckpointOpsTest, PartitionedVariablesSaveAsSlices) {
  Runtime rt;
  std::string dir = ::testing::TempDir() + "/ops-slices";
  ::mkdir(dir.c_str(), 0755);
  std::vector<float> top = {1, 2, 3, 4}, bottom = {5, 6, 7, 8};
  int64_t descriptor[] = {1, TFC_FLOAT, 2, 2, 2};
  uint64_t names[] = {rt.handle("emb")};
  std::string parts[] = {dir + "/ckpt_temp/part-00000-of-00002",
                         dir + "/ckpt_temp/part-00001-of-00002"};
  const char *specs[] = {"4 2 0,2:0,2", "4 2 2,2:0,2"};
  for (int k = 0; k < 2; ++k) {
    uint64_t prefix = rt.handle(parts[k]);
    uint64_t slices[] = {rt.handle(specs[k])};
    int64_t tensors[] = {address(k ? bottom.data() : top.data())};
    tfc_save_v2(rt.runtime, &prefix, names, slices, tensors, descriptor,
                "save/SaveV2");
  }
  uint64_t partHandles[] = {rt.handle(parts[0]), rt.handle(parts[1])};
  uint64_t target = rt.handle(dir + "/ckpt");
  tfc_merge_v2_checkpoints(rt.runtime, partHandles, &target,
                           "save/MergeV2Checkpoints", 2, 1, 0);
  CheckpointReader reader;
  std::string error;
  ASSERT_TRUE(reader.open(dir + "/ckpt", error)) << error;
  EXPECT_EQ(reader.entries().at("emb").slices.size(), 2u);

  std::vector<float> whole(8, 0.0f), middle(4, 0.0f);
  int64_t wholeDescriptor[] = {1, TFC_FLOAT, 2, 4, 2};
  uint64_t none[] = {rt.handle("")}, across[] = {rt.handle("4 2 1,2:0,2")};
  int64_t out[] = {address(whole.data())}, outMiddle[] = {address(middle.data())};
  tfc_restore_v2(rt.runtime, &target, names, none, out, wholeDescriptor,
                 "save/RestoreV2");
  EXPECT_EQ(whole, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
  tfc_restore_v2(rt.runtime, &target, names, across, outMiddle, descriptor,
                 "save/RestoreV2_1");
  EXPECT_EQ(middle, (std::vector<float>{3, 4, 5, 6}));

  uint64_t wrong[] = {rt.handle("4 2 0,3:0,2")};
  EXPECT_EXIT(tfc_restore_v2(rt.runtime, &target, names, wrong, outMiddle,
                             descriptor, "save/RestoreV2_2"),
              ::testing::ExitedWithCode(1),
              "node 'save/RestoreV2_2': tensor 'emb': slice '4 2 0,3:0,2' is of "
              "shape \\[3,2\\]; the graph's tensor has shape \\[2,2\\]");
}

} // namespace
