//===- QueueRunners.cpp - threads that fill queues while the steps run ----===//
//
// TensorFlow's QueueRunner (white paper §4.6): each of its enqueue ops runs
// on a thread of its own, again and again, until an OutOfRangeError (its
// input ended) or the Coordinator stops it. Here each thread runs the
// compiled entry of its enqueue node (tfc_runner_thread) the same way; see
// Queues.h for the class and tfc_runtime.h for the C ABI.
//
//===----------------------------------------------------------------------===//

#include "Queues.h"
#include "Runtime.h"
#include "tfc/Runtime/Denormals.h"

namespace tfc {

QueueRunners::QueueRunners(tfc_runtime *runtime, const tfc_model *model,
                           void *state, bool chief)
    : runtime(runtime), model(model), state(state), chief(chief) {
  auto ours = [&](int32_t r) {
    return (model->queue_runners[r].chief != 0) == chief;
  };
  int total = 0;
  for (int32_t r = 0; r < model->num_queue_runners; ++r) {
    running.push_back(ours(r) ? model->queue_runners[r].num_threads : 0);
    total += running.back();
  }
  // Counted before any starts, so that no wait sees too few.
  runtime->queues.addParticipants(total);
  for (int32_t r = 0; r < model->num_queue_runners; ++r)
    for (int32_t t = 0; t < running[r]; ++t)
      threads.emplace_back([this, r, t] { run(r, t); });
}

QueueRunners::~QueueRunners() {
  if (chief) {
    // Before the close, so that an enqueue it finds closed ends quietly.
    stopped = true;
    runtime->queues.wake();
  } else {
    runtime->queues.stop();
  }
  for (int32_t r = 0; r < model->num_queue_runners; ++r)
    if ((model->queue_runners[r].chief != 0) == chief)
      if (Queue *queue = runtime->queues.find(model->queue_runners[r].queue_slot))
        runtime->queues.close(*queue, /*cancelPendingEnqueues=*/true);
  for (std::thread &thread : threads)
    thread.join();
  if (!chief)
    runtime->queues.resume();
}

namespace {

struct EntryCall {
  tfc_runtime *runtime;
  tfc_step_fn entry;
  void *arena, *state;
};

void callEntry(void *context) {
  auto *call = static_cast<EntryCall *>(context);
  tfc::FlushDenormals flush;
  call->entry(call->runtime, call->arena, call->state, nullptr, nullptr);
}

} // namespace

void QueueRunners::run(int32_t index, int32_t threadIndex) {
  const tfc_queue_runner &runner = model->queue_runners[index];
  const tfc_runner_thread &thread = runner.threads[threadIndex];
  std::unique_ptr<void, void (*)(void *)> arena(
      tfc_arena_alloc(thread.arena_bytes, model->arena_alignment),
      tfc_arena_free);
  if (!arena)
    tfc_fail(runtime, (std::string(thread.node) +
                       ": no memory for its queue runner's arena of " +
                       std::to_string(thread.arena_bytes) + " bytes")
                          .c_str());
  // The strings a run makes are this thread's, released before the next.
  StringPool strings;
  ThreadStringPool scope(strings);
  EntryCall call{runtime, thread.entry, arena.get(), state};
  Queues::setThreadStop(chief ? &stopped : nullptr);
  while (!runtime->queues.stopping()) {
    strings.release();
    if (tfc_run_until_end_of_input(runtime, callEntry, &call))
      break;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (--running[index] == 0 && !runtime->queues.stopping())
      if (Queue *queue = runtime->queues.find(runner.queue_slot))
        runtime->queues.close(*queue, /*cancelPendingEnqueues=*/false);
  }
  runtime->queues.addParticipants(-1);
}

} // namespace tfc

extern "C" {

void tfc_queue_runners_start(tfc_runtime *runtime, const tfc_model *model,
                             void *state, int32_t with_chief) {
  tfc_queue_runners_stop(runtime);
  auto any = [&](bool chief) {
    for (int32_t r = 0; r < model->num_queue_runners; ++r)
      if ((model->queue_runners[r].chief != 0) == chief)
        return true;
    return false;
  };
  if (any(false))
    runtime->queue_runners =
        std::make_unique<tfc::QueueRunners>(runtime, model, state, false);
  if (with_chief && any(true))
    runtime->chief_queue_runners =
        std::make_unique<tfc::QueueRunners>(runtime, model, state, true);
}

void tfc_chief_queue_runners_stop(tfc_runtime *runtime) {
  runtime->chief_queue_runners.reset();
}

void tfc_queue_runners_stop(tfc_runtime *runtime) {
  runtime->chief_queue_runners.reset();
  runtime->queue_runners.reset();
}

} // extern "C"
