//===- Library.cpp - contexts behind the entry points of tfc libraries ----===//
//
// The generated NAME_create/NAME_destroy/NAME_run of a library made by
// `tfc compile --emit lib` forward here (tfc_library.h). A context pairs a
// model with its runtime, arena and state (its variables, zeroed, then set
// by the model's init entry if it has one). No C++ exception leaves these
// functions: they are called from C.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/tfc_library.h"
#include "tfc/Runtime/Batch.h"
#include "tfc/Runtime/Denormals.h"

#include <cstdint>
#include <cstring>
#include <new>

struct tfc_library_context {
  const tfc_model *model;
  tfc_runtime *runtime;
  void *arena;
  bool ownsArena;
  void *state;
  tfc::rt::BatchRunner *batches;
};

tfc_library_context *tfc_library_create(const tfc_model *model, int32_t threads,
                                        void *arena) {
  // A model built for another ABI would misread the runtime: the runtime
  // linked into a program is the first one the linker found, which need not
  // be the one shipped with this model's library.
  if (!model || model->abi_version != TFC_RUNTIME_ABI_VERSION)
    return nullptr;
  if (arena &&
      reinterpret_cast<uintptr_t>(arena) % uintptr_t(model->arena_alignment))
    return nullptr;
  auto *context = new (std::nothrow)
      tfc_library_context{model, nullptr, arena, arena == nullptr, nullptr,
                          nullptr};
  if (!context)
    return nullptr;
  try {
    tfc_runtime_options options = {};
    options.threads = threads;
    context->runtime = tfc_runtime_create(&options);
    context->batches = new tfc::rt::BatchRunner(*model);
  } catch (...) {
    // Memory or threads could not be had: what is null was not made.
  }
  if (context->ownsArena)
    context->arena =
        tfc_arena_alloc(model->arena_bytes, model->arena_alignment);
  context->state = tfc_arena_alloc(model->state_bytes, model->arena_alignment);
  if (!context->runtime || !context->batches || !context->arena ||
      !context->state) {
    tfc_library_destroy(context);
    return nullptr;
  }
  std::memset(context->state, 0, size_t(model->state_bytes));
  tfc::FlushDenormals flush;
  for (tfc_step_fn once : {model->init, model->local_init, model->chief_init})
    if (once)
      once(context->runtime, context->arena, context->state, nullptr, nullptr);
  // The queue runners fill their queues from now until the runtime's end.
  tfc_queue_runners_start(context->runtime, model, context->state,
                          /*with_chief=*/1);
  return context;
}

void tfc_library_destroy(tfc_library_context *context) {
  if (!context)
    return;
  if (context->runtime)
    tfc_runtime_destroy(context->runtime);
  if (context->ownsArena)
    tfc_arena_free(context->arena);
  tfc_arena_free(context->state);
  delete context->batches;
  delete context;
}

int32_t tfc_library_run(const tfc_model *model, tfc_library_context *context,
                        int64_t batch, void *const *inputs,
                        void *const *outputs) {
  if (!context)
    return TFC_LIBRARY_NULL_ARGUMENT;
  if (context->model != model)
    return TFC_LIBRARY_WRONG_MODEL;
  for (int32_t i = 0; i < model->num_inputs; ++i)
    if (!inputs[i])
      return TFC_LIBRARY_NULL_ARGUMENT;
  for (int32_t i = 0; i < model->num_outputs; ++i)
    if (!outputs[i])
      return TFC_LIBRARY_NULL_ARGUMENT;
  if (model->batch_tile > 0 && batch < 1)
    return TFC_LIBRARY_BAD_BATCH;
  // The sizes of bounded dimensions: within [0, bound].
  for (int32_t i = 0; model->rows_inputs && i < model->num_inputs; ++i) {
    int32_t k = model->rows_inputs[i];
    if (k < 0)
      continue;
    int64_t count;
    std::memcpy(&count, inputs[k], sizeof count);
    if (count < 0 || count > model->inputs[i].dims[model->rows_input_axes[i]])
      return TFC_LIBRARY_BAD_COUNT;
  }
  // The strings the last call made (its string outputs) go now.
  tfc_strings_release(context->runtime);
  context->batches->run(context->runtime, context->arena, context->state,
                        batch, inputs, outputs);
  return TFC_LIBRARY_OK;
}
