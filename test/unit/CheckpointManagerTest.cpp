//===- CheckpointManagerTest.cpp - a program's checkpoints ----------------===//
//
// The state file's parser, the step in a prefix, and saving and restoring a
// model's variables through the state area: round trip, --keep, a sharded
// save's merge, and the errors (uninitialized variable, missing tensor,
// other shape).
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/CheckpointManager.h"

#include "gtest/gtest.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace tfc::rt;

namespace {

const int64_t kWeightDims[] = {2, 3};
const int64_t kStepDims[] = {1};
// A [2,3] float and a [1] int64 in a 128-byte state: values at 0 and 64,
// flags at 96 and 97.
const tfc_variable_info kVariables[] = {
    {"dense/w", "dense/w", TFC_FLOAT, 2, kWeightDims, 0, 96},
    {"box/counter", "counter", TFC_INT64, 1, kStepDims, 64, 97}};

tfc_model makeModel() {
  tfc_model model{};
  model.abi_version = TFC_RUNTIME_ABI_VERSION;
  model.arena_alignment = 64;
  model.state_bytes = 128;
  model.num_variables = 2;
  model.variables = kVariables;
  return model;
}

std::vector<uint8_t> filledState() {
  std::vector<uint8_t> state(128, 0);
  float w[6] = {1.5f, -2.f, 0.25f, 3.f, -0.f, 7.f};
  int64_t counter = 41;
  std::memcpy(state.data(), w, sizeof(w));
  std::memcpy(state.data() + 64, &counter, sizeof(counter));
  state[96] = state[97] = 1;
  return state;
}

/// A directory of its own for a test, removed with everything in it when
/// the test ends, passed or not.
struct ScratchDir {
  explicit ScratchDir(const std::string &name)
      : path(::testing::TempDir() + "/tfc-manager-" + name +
             std::to_string(::getpid())) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string path;
};

bool exists(const std::string &path) {
  return std::ifstream(path).good();
}

} // namespace

TEST(CheckpointManagerTest, ParsesStateFiles) {
  CheckpointState state;
  std::string error;
  ASSERT_TRUE(parseCheckpointState(
      "model_checkpoint_path: \"model.ckpt-30\"\n"
      "all_model_checkpoint_paths: \"model.ckpt-20\"\n"
      "all_model_checkpoint_paths: \"/elsewhere/a \\\"b\\\"\"\n"
      "all_model_checkpoint_timestamps: 1700000000.5\n",
      "/d", "/d/checkpoint", state, error))
      << error;
  EXPECT_EQ(state.latest, "/d/model.ckpt-30");
  ASSERT_EQ(state.all.size(), 2u);
  EXPECT_EQ(state.all[0], "/d/model.ckpt-20");
  EXPECT_EQ(state.all[1], "/elsewhere/a \"b\"");

  EXPECT_FALSE(parseCheckpointState("all_model_checkpoint_paths: \"x\"\n", "/d",
                                    "/d/checkpoint", state, error));
  EXPECT_EQ(error, "/d/checkpoint: names no model_checkpoint_path");
  EXPECT_FALSE(parseCheckpointState("model_checkpoint_path: \"unterminated\n",
                                    "/d", "/d/checkpoint", state, error));
  EXPECT_EQ(error, "/d/checkpoint:1: malformed model_checkpoint_path");
}

TEST(CheckpointManagerTest, StepsComeFromTheName) {
  EXPECT_EQ(checkpointStep("/d/model.ckpt-1200"), 1200);
  EXPECT_EQ(checkpointStep("model.ckpt"), 0);
  EXPECT_EQ(checkpointStep("/a-7/model.ckpt"), 0);
  EXPECT_EQ(checkpointStep("model.ckpt-12x"), 0);
}

TEST(CheckpointManagerTest, SavedVariablesRestore) {
  tfc_model model = makeModel();
  ScratchDir scratch("roundtrip");
  const std::string &dir = scratch.path;
  std::vector<uint8_t> state = filledState();
  std::string error;
  ASSERT_TRUE(saveCheckpoint(model, state.data(), dir, 7, 5, error)) << error;

  CheckpointState files;
  ASSERT_TRUE(readCheckpointState(dir, files, error)) << error;
  EXPECT_EQ(files.latest, dir + "/model.ckpt-7");
  EXPECT_EQ(checkpointStep(files.latest), 7);
  // Stored under the keys, with their dtypes and shapes.
  CheckpointReader reader;
  ASSERT_TRUE(reader.open(files.latest, error)) << error;
  ASSERT_EQ(reader.entries().count("counter"), 1u);
  EXPECT_EQ(reader.entries().at("counter").dtype, TFC_INT64);
  EXPECT_EQ(reader.entries().at("dense/w").shape, (std::vector<int64_t>{2, 3}));

  std::vector<uint8_t> restored(128, 0);
  ASSERT_TRUE(restoreCheckpoint(model, restored.data(), files.latest, error)) << error;
  EXPECT_EQ(0, std::memcmp(restored.data(), state.data(), 24));
  EXPECT_EQ(0, std::memcmp(restored.data() + 64, state.data() + 64, 8));
  EXPECT_EQ(restored[96], 1);
  EXPECT_EQ(restored[97], 1);
}

TEST(CheckpointManagerTest, SavesTheObjectGraph) {
  // A model from a TF2 SavedModel saves its object graph with every
  // checkpoint, as the scalar string tf.train.Checkpoint looks for.
  tfc_model model = makeModel();
  const char graph[] = "\x0a\x00object\0graph";
  model.object_graph = graph;
  model.object_graph_bytes = sizeof graph - 1;
  ScratchDir scratch("object-graph");
  const std::string &dir = scratch.path;
  std::vector<uint8_t> state = filledState();
  std::string error;
  ASSERT_TRUE(saveCheckpoint(model, state.data(), dir, 1, 5, error)) << error;
  CheckpointReader reader;
  ASSERT_TRUE(reader.open(dir + "/model.ckpt-1", error)) << error;
  std::vector<std::string> saved;
  ASSERT_TRUE(reader.readStrings(kObjectGraphKey, saved, error)) << error;
  EXPECT_EQ(saved, std::vector<std::string>{std::string(graph, sizeof graph - 1)});
  EXPECT_TRUE(reader.entries().at(kObjectGraphKey).shape.empty());
  // Without one, there is none.
  model.object_graph = nullptr;
  model.object_graph_bytes = 0;
  ASSERT_TRUE(saveCheckpoint(model, state.data(), dir, 2, 5, error)) << error;
  ASSERT_TRUE(reader.open(dir + "/model.ckpt-2", error)) << error;
  EXPECT_EQ(reader.entries().count(kObjectGraphKey), 0u);
}

TEST(CheckpointManagerTest, KeepsTheNewest) {
  tfc_model model = makeModel();
  ScratchDir scratch("keep");
  const std::string &dir = scratch.path;
  std::vector<uint8_t> state = filledState();
  std::string error;
  for (int step = 1; step <= 4; ++step)
    ASSERT_TRUE(saveCheckpoint(model, state.data(), dir, step, 2, error)) << error;
  CheckpointState files;
  ASSERT_TRUE(readCheckpointState(dir, files, error)) << error;
  EXPECT_EQ(files.all, (std::vector<std::string>{dir + "/model.ckpt-3",
                                                 dir + "/model.ckpt-4"}));
  EXPECT_FALSE(exists(dir + "/model.ckpt-2.index"));
  EXPECT_FALSE(exists(dir + "/model.ckpt-1.data-00000-of-00001"));
  EXPECT_TRUE(exists(dir + "/model.ckpt-3.index"));
}

// Tests a sharded save (each task writes its part, the chief merges them):
// the shards and the merged index restore the whole model, and the part
// directories go, with one a crashed save of an earlier step left.
TEST(CheckpointManagerTest, MergesShardsAndClearsCrashedParts) {
  ScratchDir scratch("shards");
  const std::string &dir = scratch.path;
  // What a save of step 3 left when it crashed before its merge.
  std::string stale = dir + "/model.ckpt-3_temp";
  ASSERT_EQ(::mkdir(stale.c_str(), 0755), 0);
  std::ofstream(stale + "/part-1.index") << "partial";
  std::ofstream(stale + "/part-1.data-00000-of-00001") << "partial";

  // Task 0 holds dense/w, task 1 the counter.
  tfc_model whole = makeModel(), first = whole, second = whole;
  first.num_variables = second.num_variables = 1;
  second.variables = kVariables + 1;
  std::vector<uint8_t> state = filledState();
  std::string error;
  // (The tasks make the step's part directory, as TaskMain does.)
  ASSERT_TRUE(makeDirectories(dir + "/model.ckpt-5_temp", error)) << error;
  ASSERT_TRUE(writeVariables(first, state.data(), shardPartPrefix(dir, 5, 0), error)) << error;
  ASSERT_TRUE(writeVariables(second, state.data(), shardPartPrefix(dir, 5, 1), error)) << error;
  ASSERT_TRUE(mergeCheckpointShards(dir, 5, 2, 0, error)) << error;

  EXPECT_TRUE(exists(dir + "/model.ckpt-5.data-00000-of-00002"));
  EXPECT_TRUE(exists(dir + "/model.ckpt-5.data-00001-of-00002"));
  CheckpointState files;
  ASSERT_TRUE(readCheckpointState(dir, files, error)) << error;
  EXPECT_EQ(files.latest, dir + "/model.ckpt-5");
  std::vector<uint8_t> restored(128, 0);
  ASSERT_TRUE(restoreCheckpoint(whole, restored.data(), files.latest, error)) << error;
  EXPECT_EQ(0, std::memcmp(restored.data(), state.data(), 24));
  EXPECT_EQ(0, std::memcmp(restored.data() + 64, state.data() + 64, 8));
  struct stat status;
  EXPECT_NE(::stat((dir + "/model.ckpt-5_temp").c_str(), &status), 0);
  EXPECT_NE(::stat(stale.c_str(), &status), 0);
}

TEST(CheckpointManagerTest, ErrorsNameTheVariable) {
  tfc_model model = makeModel();
  ScratchDir scratch("errors");
  const std::string &dir = scratch.path;
  std::vector<uint8_t> state = filledState();
  std::string error;
  state[97] = 0;
  EXPECT_FALSE(saveCheckpoint(model, state.data(), dir, 1, 5, error));
  EXPECT_EQ(error, "cannot save variable 'box/counter': it is not initialized");
  EXPECT_FALSE(exists(dir + "/checkpoint"));

  // A checkpoint with only the weight, and one whose weight is [3,2].
  CheckpointWriter partial;
  ASSERT_TRUE(partial.add("dense/w", TFC_FLOAT, {2, 3}, state.data(), 24, error));
  ASSERT_TRUE(partial.write(dir + "/partial", error)) << error;
  EXPECT_FALSE(restoreCheckpoint(model, state.data(), dir + "/partial", error));
  EXPECT_EQ(error, dir + "/partial: no tensor 'counter' for variable 'box/counter'");

  CheckpointWriter reshaped;
  ASSERT_TRUE(reshaped.add("dense/w", TFC_FLOAT, {3, 2}, state.data(), 24, error));
  ASSERT_TRUE(reshaped.add("counter", TFC_INT64, {1}, state.data() + 64, 8, error));
  ASSERT_TRUE(reshaped.write(dir + "/reshaped", error)) << error;
  EXPECT_FALSE(restoreCheckpoint(model, state.data(), dir + "/reshaped", error));
  EXPECT_EQ(error, dir + "/reshaped: tensor 'dense/w' has dtype 1 and shape "
                         "[3,2], variable 'dense/w' has dtype 1 and shape [2,3]");

  CheckpointState none;
  EXPECT_FALSE(readCheckpointState(dir + "/none", none, error));
  EXPECT_EQ(error.rfind("no checkpoint in " + dir + "/none", 0), 0u);
}
