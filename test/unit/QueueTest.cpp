//===- QueueTest.cpp - the runtime's FIFO queues ---------------------------===//

#include "tfc/Runtime/tfc_runtime.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

namespace {

struct RuntimeDeleter {
  void operator()(tfc_runtime *runtime) const { tfc_runtime_destroy(runtime); }
};
using RuntimePtr = std::unique_ptr<tfc_runtime, RuntimeDeleter>;

RuntimePtr makeRuntime() {
  tfc_runtime_options options = {};
  options.threads = 1;
  return RuntimePtr(tfc_runtime_create(&options));
}

/// A queue of elements (float[2], string).
void makeQueue(tfc_runtime *runtime, int64_t slot, int64_t capacity) {
  const int64_t bytes[] = {8, 8}, isString[] = {0, 1};
  tfc_queue_make(runtime, "q", bytes, isString, slot, capacity, 2);
}

std::string textOf(uint64_t handle) {
  int64_t size;
  std::memcpy(&size, reinterpret_cast<const void *>(handle), sizeof size);
  return std::string(reinterpret_cast<const char *>(handle) + sizeof size, size);
}

uint64_t stringHandle(tfc_runtime *runtime, const std::string &text) {
  return uint64_t(reinterpret_cast<uintptr_t>(
      tfc_string_new(runtime, text.data(), int64_t(text.size()))));
}

// Tests that elements leave in the order they came, one or many at a
// time, that strings outlive the release of the step that enqueued them,
// and that size and closed say what the queue holds.
TEST(QueueTest, ElementsLeaveInOrderWithTheirStrings) {
  RuntimePtr runtime = makeRuntime();
  makeQueue(runtime.get(), 3, 10);
  // Making it again (a later step's queue node) keeps what it holds.
  float rows[3][2] = {{1, 2}, {3, 4}, {5, 6}};
  uint64_t tags[3] = {stringHandle(runtime.get(), "a"),
                      stringHandle(runtime.get(), "bb"),
                      stringHandle(runtime.get(), "")};
  const void *components[] = {rows, tags};
  tfc_queue_enqueue(runtime.get(), components, "fill", 3, 3);
  makeQueue(runtime.get(), 3, 10);
  tfc_strings_release(runtime.get());
  int32_t size = 0;
  tfc_queue_size(runtime.get(), &size, "size", 3);
  EXPECT_EQ(size, 3);

  float first[2];
  uint64_t firstTag;
  void *one[] = {first, &firstTag};
  tfc_queue_dequeue(runtime.get(), one, "take", 3, 1);
  EXPECT_EQ(first[0], 1);
  EXPECT_EQ(first[1], 2);
  EXPECT_EQ(textOf(firstTag), "a");
  float rest[2][2];
  uint64_t restTags[2];
  void *two[] = {rest, restTags};
  tfc_queue_dequeue(runtime.get(), two, "take_many", 3, 2);
  EXPECT_EQ(rest[0][0], 3);
  EXPECT_EQ(rest[1][1], 6);
  EXPECT_EQ(textOf(restTags[0]), "bb");
  EXPECT_EQ(textOf(restTags[1]), "");

  uint8_t closed = 1;
  tfc_queue_is_closed(runtime.get(), &closed, "closed", 3);
  EXPECT_EQ(closed, 0);
  tfc_queue_close(runtime.get(), "close", 3);
  tfc_queue_is_closed(runtime.get(), &closed, "closed", 3);
  EXPECT_EQ(closed, 1);
}

struct DequeueCall {
  tfc_runtime *runtime;
  int64_t count;
  int calls = 0;
};

void dequeueTwice(void *context) {
  auto *call = static_cast<DequeueCall *>(context);
  float rows[4][2];
  uint64_t tags[4];
  void *components[] = {rows, tags};
  for (int i = 0; i < 2; ++i) {
    tfc_queue_dequeue(call->runtime, components, "batch", 0, call->count);
    ++call->calls;
  }
}

// Tests that a dequeue from a closed queue with too few elements ends the
// run armed by tfc_run_until_end_of_input, leaving the elements there,
// and that a run whose dequeues all find elements returns normally.
TEST(QueueTest, ClosedQueueEndsTheRun) {
  RuntimePtr runtime = makeRuntime();
  makeQueue(runtime.get(), 0, -1);
  float rows[3][2] = {};
  uint64_t empty = stringHandle(runtime.get(), "");
  uint64_t tags[3] = {empty, empty, empty};
  const void *components[] = {rows, tags};
  tfc_queue_enqueue(runtime.get(), components, "fill", 0, 3);
  tfc_queue_close(runtime.get(), "close", 0);

  DequeueCall call{runtime.get(), 2};
  EXPECT_EQ(tfc_run_until_end_of_input(runtime.get(), dequeueTwice, &call), 1);
  EXPECT_EQ(call.calls, 1);
  EXPECT_STREQ(tfc_end_of_input_message(runtime.get()),
               "batch: the queue 'q' is closed and has 1 elements, fewer than "
               "the 2 the dequeue takes");
  int32_t size = 0;
  tfc_queue_size(runtime.get(), &size, "size", 0);
  EXPECT_EQ(size, 1);

  // One element, taken one at a time: the second dequeue ends it again.
  DequeueCall single{runtime.get(), 1};
  EXPECT_EQ(tfc_run_until_end_of_input(runtime.get(), dequeueTwice, &single), 1);
  EXPECT_EQ(single.calls, 1);

  RuntimePtr other = makeRuntime();
  makeQueue(other.get(), 0, -1);
  tfc_queue_enqueue(other.get(), components, "fill", 0, 3);
  DequeueCall whole{other.get(), 1};
  EXPECT_EQ(tfc_run_until_end_of_input(other.get(), dequeueTwice, &whole), 0);
  EXPECT_EQ(whole.calls, 2);
}

// Tests the errors that stop the step, each naming the node: an op that
// would wait forever (nothing else enqueues or dequeues), an enqueue into
// a closed queue, a closed queue's end of input where nothing armed it,
// and a queue no queue node made.
TEST(QueueDeathTest, OpsThatCannotCompleteStopTheStep) {
  float rows[3][2] = {};
  uint64_t tags[3] = {};
  const void *components[] = {rows, tags};
  void *outputs[] = {rows, tags};
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        makeQueue(runtime.get(), 0, -1);
        tfc_queue_dequeue(runtime.get(), outputs, "take", 0, 1);
      },
      "take: the queue 'q' has 0 elements, fewer than the 1 the dequeue "
      "takes, and nothing in this program enqueues while the step waits");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        makeQueue(runtime.get(), 0, 2);
        tfc_queue_enqueue(runtime.get(), components, "fill", 0, 3);
      },
      "fill: the queue 'q' has 0 of its 2 elements and 3 more do not fit");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        makeQueue(runtime.get(), 0, -1);
        tfc_queue_close(runtime.get(), "close", 0);
        tfc_queue_enqueue(runtime.get(), components, "fill", 0, 1);
      },
      "fill: Cancelled: the queue 'q' is closed");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        makeQueue(runtime.get(), 0, -1);
        tfc_queue_close(runtime.get(), "close", 0);
        tfc_queue_dequeue(runtime.get(), outputs, "take", 0, 1);
      },
      "take: OutOfRange: the queue 'q' is closed and has 0 elements");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        tfc_queue_close(runtime.get(), "close", 5);
      },
      "close: its queue was never made");
}

} // namespace
