//===- FakeTaskModel.cpp - a two-task model written by hand ---------------===//
//
// What `tfc compile --cluster chief=1,ps=1` would give for y = 2x + 1 with
// the arithmetic placed on the ps, written by hand so that the task main
// is tested apart from the compiler: the chief's partition sends its input
// x to the ps and receives y; the ps's receives x, computes y and sends it
// back. Built once per task (FAKE_TASK_JOB: "chief" or "ps"), linked with
// the task main.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/tfc_runtime.h"

#include <cstring>

namespace {

constexpr int64_t kElements = 4;
constexpr const char *kToPs =
    "/job:chief/replica:0/task:0/device:CPU:0;0000000000000001;"
    "/job:ps/replica:0/task:0/device:CPU:0;x;0:0";
constexpr const char *kToChief =
    "/job:ps/replica:0/task:0/device:CPU:0;0000000000000001;"
    "/job:chief/replica:0/task:0/device:CPU:0;y;0:0";

const int64_t kDims[] = {kElements};
const tfc_tensor_info kX = {"x", TFC_FLOAT, 1, kDims};
const tfc_tensor_info kY = {"y", TFC_FLOAT, 1, kDims};

void step(tfc_runtime *runtime, void *arena, void *, void *const *inputs,
          void *const *outputs) {
  auto *buffer = static_cast<float *>(arena);
  if (std::strcmp(FAKE_TASK_JOB, "chief") == 0) {
    tfc_send(runtime, kToPs, inputs[0], kElements * 4);
    tfc_recv(runtime, kToChief, outputs[0], kElements * 4);
    return;
  }
  tfc_recv(runtime, kToPs, buffer, kElements * 4);
  for (int64_t i = 0; i < kElements; ++i)
    buffer[i] = 2 * buffer[i] + 1;
  tfc_send(runtime, kToChief, buffer, kElements * 4);
}

} // namespace

// (extern: a const variable is otherwise private to its file.)
extern "C" const tfc_model tfc_compiled_model = {
    TFC_RUNTIME_ABI_VERSION,
    "fake_" FAKE_TASK_JOB,
    1,
    &kX,
    1,
    &kY,
    /*arena_bytes=*/64,
    /*arena_alignment=*/64,
    step,
};
extern "C" const char tfc_task_job[] = FAKE_TASK_JOB;
extern "C" const int32_t tfc_task_index = 0;
extern "C" const char tfc_cluster_spec[] =
    R"({"chief": ["127.0.0.1:2222"], "ps": ["127.0.0.1:2223"]})";
