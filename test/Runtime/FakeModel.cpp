//===- FakeModel.cpp - a hand-written model for testing the program main --===//
//
// What `tfc compile` will generate, written by hand: a model whose step
// multiplies its two inputs (a:0 [2,3] x b:0 [3,2] -> c:0 [2,2]) through the
// runtime's kernel, with a small arena. Linked with the runtime's main, it
// tests the program contract without code generation.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/tfc_runtime.h"

#include <cstring>

namespace {
const int64_t kShapeA[] = {2, 3}, kShapeB[] = {3, 2}, kShapeC[] = {2, 2};
const tfc_tensor_info kInputs[] = {{"a:0", TFC_FLOAT, 2, kShapeA},
                                   {"b:0", TFC_FLOAT, 2, kShapeB}};
const tfc_tensor_info kOutputs[] = {{"c:0", TFC_FLOAT, 2, kShapeC}};

void step(tfc_runtime *runtime, void *arena, void * /*state*/,
          void *const *inputs, void *const *outputs) {
  // The product goes through the arena, as intermediates do.
  float *scratch = static_cast<float *>(arena);
  tfc_cpu_matmul_f32(runtime, static_cast<const float *>(inputs[0]),
                     static_cast<const float *>(inputs[1]), scratch, 2, 3, 2,
                     0, 0);
  std::memcpy(outputs[0], scratch, 4 * sizeof(float));
}
} // namespace

extern "C" const tfc_model tfc_compiled_model = {
    TFC_RUNTIME_ABI_VERSION, "fake", 2, kInputs, 1, kOutputs, 64, 64, step,
    /*init=*/nullptr, /*state_bytes=*/0, /*num_variables=*/0,
    /*variables=*/nullptr};
