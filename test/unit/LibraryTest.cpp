//===- LibraryTest.cpp - contexts of tfc libraries ------------------------===//
//
// Tests the functions behind a library's NAME_create/NAME_run/NAME_destroy
// with a hand-written model: the step runs with the context's runtime and
// arena (allocated, or the caller's), and each refusal (another ABI, a
// misaligned arena, NULL pointers, a context of another model, no rows)
// is reported without running the step. A model for any batch size runs
// its step once per tile, a last partial tile through whole-tile buffers.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/tfc_library.h"

#include "gtest/gtest.h"

#include <cstdint>

namespace {

const int64_t kShape[] = {3};
const tfc_tensor_info kInput = {"x:0", TFC_FLOAT, 1, kShape};
const tfc_tensor_info kOutput = {"y:0", TFC_FLOAT, 1, kShape};

/// What the last step saw.
int steps = 0;
void *lastArena = nullptr;

/// y = x + 1, through the arena as generated steps use it.
void addOne(tfc_runtime *runtime, void *arena, void * /*state*/,
            void *const *inputs, void *const *outputs) {
  ASSERT_NE(runtime, nullptr);
  ++steps;
  lastArena = arena;
  auto *scratch = static_cast<float *>(arena);
  for (int i = 0; i < 3; ++i) {
    scratch[i] = static_cast<const float *>(inputs[0])[i] + 1;
    static_cast<float *>(outputs[0])[i] = scratch[i];
  }
}

tfc_model makeModel() {
  return {TFC_RUNTIME_ABI_VERSION, "add_one", 1, &kInput, 1, &kOutput,
          3 * sizeof(float), 64, addOne, /*init=*/nullptr,
          /*state_bytes=*/0, /*num_variables=*/0, /*variables=*/nullptr};
}

TEST(LibraryTest, RunsInItsOwnArena) {
  tfc_model model = makeModel();
  tfc_library_context *context = tfc_library_create(&model, 1, nullptr);
  ASSERT_NE(context, nullptr);
  float x[3] = {1, 2, 3}, y[3] = {};
  void *inputs[] = {x}, *outputs[] = {y};
  steps = 0;
  EXPECT_EQ(tfc_library_run(&model, context, 0, inputs, outputs), TFC_LIBRARY_OK);
  EXPECT_EQ(steps, 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(lastArena) % 64, 0u);
  EXPECT_EQ(y[0], 2);
  EXPECT_EQ(y[2], 4);
  tfc_library_destroy(context);
}

TEST(LibraryTest, RunsInTheCallersArena) {
  tfc_model model = makeModel();
  alignas(64) static unsigned char arena[64];
  tfc_library_context *context = tfc_library_create(&model, 1, arena);
  ASSERT_NE(context, nullptr);
  float x[3] = {0, 0, 0}, y[3] = {};
  void *inputs[] = {x}, *outputs[] = {y};
  EXPECT_EQ(tfc_library_run(&model, context, 0, inputs, outputs), TFC_LIBRARY_OK);
  EXPECT_EQ(lastArena, static_cast<void *>(arena));
  EXPECT_EQ(y[1], 1);
  tfc_library_destroy(context);
}

TEST(LibraryTest, RefusesAMisalignedArena) {
  tfc_model model = makeModel();
  alignas(64) static unsigned char arena[128];
  EXPECT_EQ(tfc_library_create(&model, 1, arena + 4), nullptr);
}

TEST(LibraryTest, RefusesAModelOfAnotherAbi) {
  tfc_model model = makeModel();
  model.abi_version = TFC_RUNTIME_ABI_VERSION + 1;
  EXPECT_EQ(tfc_library_create(&model, 1, nullptr), nullptr);
}

TEST(LibraryTest, RefusesBadArgumentsWithoutRunning) {
  tfc_model model = makeModel(), other = makeModel();
  tfc_library_context *context = tfc_library_create(&model, 1, nullptr);
  ASSERT_NE(context, nullptr);
  float x[3] = {}, y[3] = {};
  void *inputs[] = {x}, *outputs[] = {y};
  void *noInput[] = {nullptr}, *noOutput[] = {nullptr};
  steps = 0;
  EXPECT_EQ(tfc_library_run(&model, nullptr, 0, inputs, outputs),
            TFC_LIBRARY_NULL_ARGUMENT);
  EXPECT_EQ(tfc_library_run(&model, context, 0, noInput, outputs),
            TFC_LIBRARY_NULL_ARGUMENT);
  EXPECT_EQ(tfc_library_run(&model, context, 0, inputs, noOutput),
            TFC_LIBRARY_NULL_ARGUMENT);
  EXPECT_EQ(tfc_library_run(&other, context, 0, inputs, outputs),
            TFC_LIBRARY_WRONG_MODEL);
  EXPECT_EQ(steps, 0);
  tfc_library_destroy(context);
  tfc_library_destroy(nullptr);
}

const int64_t kRows[] = {-1, 2};
const tfc_tensor_info kRowsInput = {"x:0", TFC_FLOAT, 2, kRows};
const tfc_tensor_info kRowsOutput = {"y:0", TFC_FLOAT, 2, kRows};
const int64_t kScalar[] = {0};
const tfc_tensor_info kSumOutput = {"w:0", TFC_FLOAT, 0, kScalar};
constexpr int kTile = 2;

/// Per tile of 2 rows of 2: y = 10 x, and w (not of the batch) = 7.
void timesTen(tfc_runtime * /*runtime*/, void * /*arena*/, void * /*state*/,
              void *const *inputs, void *const *outputs) {
  ++steps;
  for (int i = 0; i < kTile * 2; ++i)
    static_cast<float *>(outputs[0])[i] =
        10 * static_cast<const float *>(inputs[0])[i];
  *static_cast<float *>(outputs[1]) = 7;
}

tfc_model makeBatchModel(int64_t tile) {
  static const tfc_tensor_info outputs[] = {kRowsOutput, kSumOutput};
  tfc_model model = {TFC_RUNTIME_ABI_VERSION, "times_ten", 1, &kRowsInput,
                     2, outputs, 64, 64, timesTen, nullptr, 0, 0, nullptr};
  model.batch_tile = tile;
  return model;
}

TEST(LibraryTest, RunsABatchOfAnySizeTileByTile) {
  tfc_model model = makeBatchModel(kTile);
  tfc_library_context *context = tfc_library_create(&model, 1, nullptr);
  ASSERT_NE(context, nullptr);
  // 5 rows: two whole tiles and one row; a sentinel after the output.
  float x[10], y[11], w = 0;
  for (int i = 0; i < 10; ++i)
    x[i] = float(i);
  y[10] = -1;
  void *inputs[] = {x}, *outputs[] = {y, &w};
  steps = 0;
  EXPECT_EQ(tfc_library_run(&model, context, 5, inputs, outputs),
            TFC_LIBRARY_OK);
  EXPECT_EQ(steps, 3);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(y[i], 10 * x[i]) << "element " << i;
  EXPECT_EQ(y[10], -1) << "the last tile wrote past the batch";
  EXPECT_EQ(w, 7);
  // No rows: refused, nothing run.
  EXPECT_EQ(tfc_library_run(&model, context, 0, inputs, outputs),
            TFC_LIBRARY_BAD_BATCH);
  EXPECT_EQ(steps, 3);
  tfc_library_destroy(context);
}

} // namespace
