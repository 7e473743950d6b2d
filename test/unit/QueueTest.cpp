//===- QueueTest.cpp - the runtime's FIFO queues ---------------------------===//

#include "tfc/Runtime/tfc_runtime.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
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
  tfc_queue_make(runtime, "q", bytes, isString, slot, capacity, 2, -1, 0, 0);
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
  tfc_queue_close(runtime.get(), "close", 3, 0);
  tfc_queue_is_closed(runtime.get(), &closed, "closed", 3);
  EXPECT_EQ(closed, 1);
}

/// A dequeue of 2 from an open shuffle queue of 4 that keeps 3.
void takeWhatTheShuffleQueueKeeps() {
  RuntimePtr runtime = makeRuntime();
  const int64_t bytes[] = {8}, isString[] = {0};
  tfc_queue_make(runtime.get(), "pool", bytes, isString, 0, 20, 1, 3, 7, 42);
  int64_t values[4] = {};
  const void *in[] = {values};
  tfc_queue_enqueue(runtime.get(), in, "fill", 0, 4);
  void *out[] = {values};
  tfc_queue_dequeue(runtime.get(), out, "take", 0, 2);
}

// Tests a shuffle queue: it keeps min_after_dequeue elements while open
// (a dequeue that would take them waits, here forever: an error), hands
// them all out once closed, and every element leaves once; the same seeds
// give the same order, and TensorFlow's order is the corpus model
// queue_shuffle's to check.
TEST(QueueTest, ShuffleQueueKeepsItsMinimumUntilClosed) {
  auto shuffled = [](int64_t seed, int64_t seed2, bool close) {
    RuntimePtr runtime = makeRuntime();
    const int64_t bytes[] = {8}, isString[] = {0};
    tfc_queue_make(runtime.get(), "pool", bytes, isString, 0, 20, 1, 3, seed,
                   seed2);
    int64_t values[10];
    for (int64_t i = 0; i < 10; ++i)
      values[i] = i;
    const void *in[] = {values};
    tfc_queue_enqueue(runtime.get(), in, "fill", 0, 10);
    int64_t taken[10];
    void *seven[] = {taken};
    tfc_queue_dequeue(runtime.get(), seven, "take", 0, 7);
    int32_t size = 0;
    tfc_queue_size(runtime.get(), &size, "size", 0);
    EXPECT_EQ(size, 3);
    if (close) {
      tfc_queue_close(runtime.get(), "close", 0, 0);
      void *three[] = {taken + 7};
      tfc_queue_dequeue(runtime.get(), three, "take", 0, 3);
    }
    return std::vector<int64_t>(taken, taken + (close ? 10 : 7));
  };
  std::vector<int64_t> order = shuffled(7, 42, true);
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 10; ++i)
    EXPECT_EQ(sorted[i], i);
  EXPECT_EQ(shuffled(7, 42, true), order);
  EXPECT_NE(shuffled(8, 42, true), order);
  EXPECT_NE(order, sorted);
  EXPECT_DEATH(takeWhatTheShuffleQueueKeeps(),
               "take: the queue 'pool' has 4 elements and keeps 3 while open "
               "\\(min_after_dequeue\\): too few for the 2 the dequeue "
               "takes, and nothing in this program can enqueue");
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
  tfc_queue_close(runtime.get(), "close", 0, 0);

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

// Tests the runtimes of a task that serves several clients (a ps under
// between-graph replication): they share their queues, and a dequeue that
// waits with no other thread of the process able to enqueue is not taken
// for a deadlock, since another task's step may enqueue: here another
// client's runtime does, a moment later, on a thread of its own.
TEST(QueueTest, SharedRuntimesServeOtherTasks) {
  tfc_runtime_options options = {};
  options.threads = 1;
  RuntimePtr first(tfc_runtime_create_shared(&options, nullptr));
  RuntimePtr second(tfc_runtime_create_shared(&options, first.get()));
  makeQueue(first.get(), 0, 4);
  std::thread producer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    float rows[1][2] = {{1.5f, -2.0f}};
    uint64_t tags[1] = {stringHandle(second.get(), "from the other client")};
    const void *components[] = {rows, tags};
    tfc_queue_enqueue(second.get(), components, "fill", 0, 1);
  });
  float rows[1][2] = {};
  uint64_t tags[1] = {};
  void *components[] = {rows, tags};
  tfc_queue_dequeue(first.get(), components, "take", 0, 1);
  producer.join();
  EXPECT_EQ(rows[0][1], -2.0f);
  EXPECT_EQ(textOf(tags[0]), "from the other client");
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
      "takes, and nothing in this program can enqueue while the step waits");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        makeQueue(runtime.get(), 0, 2);
        uint64_t empty = stringHandle(runtime.get(), "");
        uint64_t texts[3];
        std::fill(texts, texts + 3, empty);
        const void *three[2];
        three[0] = rows;
        three[1] = texts;
        tfc_queue_enqueue(runtime.get(), three, "fill", 0, 3);
      },
      "fill: the queue 'q' has 2 of its 2 elements and more do not fit, "
      "and nothing in this program can dequeue while the step waits");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        makeQueue(runtime.get(), 0, -1);
        tfc_queue_close(runtime.get(), "close", 0, 0);
        tfc_queue_enqueue(runtime.get(), components, "fill", 0, 1);
      },
      "fill: Cancelled: the queue 'q' is closed");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        makeQueue(runtime.get(), 0, -1);
        tfc_queue_close(runtime.get(), "close", 0, 0);
        tfc_queue_dequeue(runtime.get(), outputs, "take", 0, 1);
      },
      "take: OutOfRange: the queue 'q' is closed and has 0 elements");
  EXPECT_DEATH(
      {
        RuntimePtr runtime = makeRuntime();
        tfc_queue_close(runtime.get(), "close", 5, 0);
      },
      "close: its queue was never made");
}

// Queue runners, with entries written here in C++ where a compiled
// model's are generated: each runs a tfc_step_fn on a thread of its own.

/// A model of nothing but queue runners; `arena` is per thread.
tfc_model runnerModel(const tfc_queue_runner *runners, int32_t count) {
  tfc_model model = {};
  model.abi_version = TFC_RUNTIME_ABI_VERSION;
  model.arena_alignment = 64;
  model.num_queue_runners = count;
  model.queue_runners = runners;
  return model;
}

/// A queue of int64 scalars.
void makeCounterQueue(tfc_runtime *runtime, const char *name, int64_t slot,
                      int64_t capacity) {
  const int64_t bytes[] = {8}, isString[] = {0};
  tfc_queue_make(runtime, name, bytes, isString, slot, capacity, 1, -1, 0, 0);
}

/// Enqueues the next count of the state's counter into queue 0, without
/// end (a producer whose input never ends).
void countForever(tfc_runtime *runtime, void *, void *state, void *const *,
                  void *const *) {
  int64_t value;
  tfc_count_up_to(runtime, state, &value, "count", INT64_MAX, 8);
  const void *components[] = {&value};
  tfc_queue_enqueue(runtime, components, "enqueue_count", 0, 1);
}

// Tests that a runner's thread fills its queue while the caller dequeues,
// waiting for room in a queue of 3 and the caller waiting for elements,
// that 50 values come in order, and that stopping the runners ends the
// thread waiting for room.
TEST(QueueRunnerTest, FillsItsQueueWhileTheCallerDequeues) {
  RuntimePtr runtime = makeRuntime();
  makeCounterQueue(runtime.get(), "counts", 0, 3);
  tfc_runner_thread thread = {"enqueue_count", countForever, 0};
  tfc_queue_runner runner = {"counts", 0, 1, &thread};
  tfc_model model = runnerModel(&runner, 1);
  alignas(64) int64_t state[8] = {};
  tfc_queue_runners_start(runtime.get(), &model, state, 1);
  for (int64_t i = 0; i < 50; ++i) {
    int64_t value = -1;
    void *out[] = {&value};
    tfc_queue_dequeue(runtime.get(), out, "take", 0, 1);
    ASSERT_EQ(value, i);
  }
  tfc_queue_runners_stop(runtime.get());
  // The runner's queue is closed, its pending enqueue cancelled.
  uint8_t closed = 0;
  tfc_queue_is_closed(runtime.get(), &closed, "closed", 0);
  EXPECT_EQ(closed, 1);
}

/// Moves one element from queue 1 to queue 0, doubled.
void doubleOne(tfc_runtime *runtime, void *, void *, void *const *,
               void *const *) {
  int64_t value;
  void *out[] = {&value};
  tfc_queue_dequeue(runtime, out, "take_upstream", 1, 1);
  value *= 2;
  const void *in[] = {&value};
  tfc_queue_enqueue(runtime, in, "enqueue_doubled", 0, 1);
}

struct DrainCall {
  tfc_runtime *runtime;
  std::vector<int64_t> taken;
};

void drainPairs(void *context) {
  auto *call = static_cast<DrainCall *>(context);
  for (;;) {
    int64_t pair[2];
    void *out[] = {pair};
    tfc_queue_dequeue(call->runtime, out, "take_pair", 0, 2);
    call->taken.insert(call->taken.end(), pair, pair + 2);
  }
}

// Tests the end of input through a runner, with two threads of it: when
// the queue it dequeues from is closed and empty, each thread ends, the
// last closes the runner's queue, and the caller's run of dequeues ends
// with every element taken once, after an enqueue of many larger than
// the queue's capacity went in as room appeared.
TEST(QueueRunnerTest, TheEndOfInputPassesThroughARunner) {
  RuntimePtr runtime = makeRuntime();
  makeCounterQueue(runtime.get(), "doubled", 0, 16);
  makeCounterQueue(runtime.get(), "upstream", 1, 3);
  tfc_runner_thread threads[] = {{"enqueue_doubled", doubleOne, 0},
                                 {"enqueue_doubled", doubleOne, 0}};
  tfc_queue_runner runner = {"doubled", 0, 2, threads};
  tfc_model model = runnerModel(&runner, 1);
  alignas(64) int64_t state[8] = {};
  tfc_queue_runners_start(runtime.get(), &model, state, 1);
  // Ten upstream elements into a queue of 3: the runner makes room (the
  // caller drains only after, so the runner's queue holds all ten).
  int64_t values[10];
  for (int64_t i = 0; i < 10; ++i)
    values[i] = i + 1;
  const void *in[] = {values};
  tfc_queue_enqueue(runtime.get(), in, "fill", 1, 10);
  tfc_queue_close(runtime.get(), "close", 1, 0);

  DrainCall call{runtime.get(), {}};
  ASSERT_EQ(tfc_run_until_end_of_input(runtime.get(), drainPairs, &call), 1);
  EXPECT_STREQ(tfc_end_of_input_message(runtime.get()),
               "take_pair: the queue 'doubled' is closed and has 0 elements, "
               "fewer than the 2 the dequeue takes");
  std::sort(call.taken.begin(), call.taken.end());
  std::vector<int64_t> expected;
  for (int64_t i = 1; i <= 10; ++i)
    expected.push_back(2 * i);
  EXPECT_EQ(call.taken, expected);
  tfc_queue_runners_stop(runtime.get());
}

/// Enqueues the state's counter while it is under 4 (CountUpTo's limit).
void countToFour(tfc_runtime *runtime, void *, void *state, void *const *,
                 void *const *) {
  int32_t value;
  tfc_count_up_to(runtime, state, &value, "epochs", 4, 4);
  int64_t wide = value;
  const void *components[] = {&wide};
  tfc_queue_enqueue(runtime, components, "enqueue_epoch", 0, 1);
}

// Tests that CountUpTo's limit ends a runner's input as TensorFlow's
// OutOfRangeError does (how limit_epochs ends an input pipeline), and
// that outside an armed run it stops the step naming the node.
TEST(QueueRunnerTest, CountUpToEndsTheInput) {
  RuntimePtr runtime = makeRuntime();
  makeCounterQueue(runtime.get(), "epochs", 0, -1);
  tfc_runner_thread thread = {"enqueue_epoch", countToFour, 0};
  tfc_queue_runner runner = {"epochs", 0, 1, &thread};
  tfc_model model = runnerModel(&runner, 1);
  alignas(64) int32_t state[16] = {};
  tfc_queue_runners_start(runtime.get(), &model, state, 1);
  DrainCall call{runtime.get(), {}};
  ASSERT_EQ(tfc_run_until_end_of_input(runtime.get(), drainPairs, &call), 1);
  EXPECT_EQ(call.taken, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(state[0], 4);
  tfc_queue_runners_stop(runtime.get());

  EXPECT_DEATH(
      {
        int32_t value;
        tfc_count_up_to(runtime.get(), state, &value, "epochs", 4, 4);
      },
      "epochs: OutOfRange: Reached limit of 4");
}

/// Waits for an element of queue 1, which nothing fills.
void waitUpstream(tfc_runtime *runtime, void *, void *, void *const *,
                  void *const *) {
  int64_t value;
  void *out[] = {&value};
  tfc_queue_dequeue(runtime, out, "take_upstream", 1, 1);
}

// Tests that a wait that every thread shares is an error naming the op
// that found it rather than a hang: the runner waits for queue 1, which
// nothing fills, while the caller waits for the runner's queue.
void waitTogether() {
  RuntimePtr runtime = makeRuntime();
  makeCounterQueue(runtime.get(), "out", 0, -1);
  makeCounterQueue(runtime.get(), "upstream", 1, -1);
  tfc_runner_thread thread = {"enqueue", waitUpstream, 0};
  tfc_queue_runner runner = {"out", 0, 1, &thread};
  tfc_model model = runnerModel(&runner, 1);
  alignas(64) int64_t state[8] = {};
  tfc_queue_runners_start(runtime.get(), &model, state, 1);
  int64_t value;
  void *out[] = {&value};
  tfc_queue_dequeue(runtime.get(), out, "take", 0, 1);
}

/// Takes the mean of 2 gradients from accumulator 0, then puts a token
/// into queue 2 (SyncReplicasOptimizer's chief queue runner, in small).
void tokenPerUpdate(tfc_runtime *runtime, void *, void *, void *const *,
                    void *const *) {
  const int32_t required = 2;
  float mean[1];
  tfc_accumulator_take(runtime, &required, mean, "take", 0);
  int64_t token = int64_t(mean[0]);
  const void *in[] = {&token};
  tfc_queue_enqueue(runtime, in, "enqueue_token", 2, 1);
}

struct TokenCall {
  tfc_runtime *runtime;
  int64_t slot;
  int64_t token = -1;
};

void takeToken(void *context) {
  auto *call = static_cast<TokenCall *>(context);
  void *out[] = {&call->token};
  tfc_queue_dequeue(call->runtime, out, "take_token", call->slot, 1);
}

// Tests the chief queue runners: started with with_chief, they stop apart
// from the others. A caller that waits on a chief runner's queue (a
// worker's token) when the runner stops (its take waiting for a gradient
// that will not come) ends its run as at the end of input, and the other
// runners go on filling theirs. Runtimes that serve other tasks, as a
// ps's, where such waits are not deadlocks.
TEST(QueueRunnerTest, StoppingTheChiefRunnersEndsTheWaitForTheirTokens) {
  tfc_runner_thread countThread = {"enqueue_count", countForever, 0};
  tfc_runner_thread chiefThread = {"enqueue_token", tokenPerUpdate, 0};
  tfc_queue_runner runners[] = {{"counts", 0, 1, &countThread, 0},
                                {"tokens", 2, 1, &chiefThread, 1}};
  tfc_model model = runnerModel(runners, 2);
  float gradient = 7;
  auto makeServingRuntime = [&] {
    tfc_runtime_options options = {};
    options.threads = 1;
    RuntimePtr runtime(tfc_runtime_create_shared(&options, nullptr));
    makeCounterQueue(runtime.get(), "counts", 0, 3);
    makeCounterQueue(runtime.get(), "tokens", 2, -1);
    tfc_accumulator_make(runtime.get(), "gradients", 0, 1, 1);
    for (int64_t step = 0; step < 2; ++step)
      tfc_accumulator_apply(runtime.get(), &step, &gradient, "apply", 0);
    return runtime;
  };

  // Without with_chief (a worker other than the chief), no token comes
  // of two gradients: only the other runner runs.
  {
    RuntimePtr runtime = makeServingRuntime();
    alignas(64) int64_t state[8] = {};
    tfc_queue_runners_start(runtime.get(), &model, state, 0);
    int64_t value = -1;
    void *out[] = {&value};
    tfc_queue_dequeue(runtime.get(), out, "take_count", 0, 1);
    EXPECT_EQ(value, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    int32_t size = -1;
    tfc_queue_size(runtime.get(), &size, "size", 2);
    EXPECT_EQ(size, 0);
    tfc_queue_runners_stop(runtime.get());
  }

  // With it, the chief runner makes a token of those two.
  RuntimePtr runtime = makeServingRuntime();
  alignas(64) int64_t state[8] = {};
  tfc_queue_runners_start(runtime.get(), &model, state, 1);
  TokenCall call{runtime.get(), 2};
  ASSERT_EQ(tfc_run_until_end_of_input(runtime.get(), takeToken, &call), 0);
  EXPECT_EQ(call.token, 7);
  // One gradient more: the runner waits for a second, the caller for its
  // token, until the chief runners stop.
  int64_t step = 2;
  tfc_accumulator_apply(runtime.get(), &step, &gradient, "apply", 0);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    tfc_chief_queue_runners_stop(runtime.get());
  });
  ASSERT_EQ(tfc_run_until_end_of_input(runtime.get(), takeToken, &call), 1);
  stopper.join();
  EXPECT_STREQ(tfc_end_of_input_message(runtime.get()),
               "take_token: the queue 'tokens' is closed and has 0 elements, "
               "fewer than the 1 the dequeue takes");
  // The other runner still fills its queue.
  for (int64_t i = 0; i < 5; ++i) {
    int64_t value = -1;
    void *out[] = {&value};
    tfc_queue_dequeue(runtime.get(), out, "take_count", 0, 1);
    EXPECT_EQ(value, i);
  }
  tfc_queue_runners_stop(runtime.get());
}

// Tests that waiting dequeues take elements in the order they began, as
// TensorFlow's queues serve them: a dequeue of two that waits keeps a
// later dequeue of one from taking the first element that comes, which it
// could take alone. (A SyncReplicasOptimizer's workers each wait for a
// token; one that overtook another would run a step too many on stale
// weights.)
TEST(QueueTest, WaitingDequeuesAreServedInTheOrderTheyBegan) {
  tfc_runtime_options options = {};
  options.threads = 1;
  RuntimePtr owner(tfc_runtime_create_shared(&options, nullptr));
  RuntimePtr first(tfc_runtime_create_shared(&options, owner.get()));
  RuntimePtr second(tfc_runtime_create_shared(&options, owner.get()));
  makeCounterQueue(owner.get(), "tokens", 0, -1);
  std::atomic<bool> firstDone{false}, secondDone{false};
  int64_t firstTaken[2] = {-1, -1}, secondTaken = -1;
  std::thread firstDequeue([&] {
    void *out[] = {firstTaken};
    tfc_queue_dequeue(first.get(), out, "take_two", 0, 2);
    firstDone = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::thread secondDequeue([&] {
    void *out[] = {&secondTaken};
    tfc_queue_dequeue(second.get(), out, "take_one", 0, 1);
    secondDone = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto enqueue = [&](int64_t value) {
    const void *in[] = {&value};
    tfc_queue_enqueue(owner.get(), in, "put", 0, 1);
  };
  enqueue(10);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(secondDone) << "the later dequeue took the element";
  EXPECT_FALSE(firstDone);
  enqueue(11);
  for (int i = 0; i < 500 && !firstDone; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(firstDone);
  EXPECT_FALSE(secondDone);
  // (Also what ends the first dequeue's wait if the second took 10.)
  enqueue(12);
  firstDequeue.join();
  secondDequeue.join();
  EXPECT_EQ(firstTaken[0], 10);
  EXPECT_EQ(firstTaken[1], 11);
  EXPECT_EQ(secondTaken, 12);
}

// Tests a sparse accumulator's sums as TensorFlow makes them: the first
// gradient's rows kept as they come (unsorted, index 4 twice), the second
// merged into them in one pass as if both were sorted (its 1 before the
// first 4, its 4 added to that 4, which then counts two gradients), a
// stale one dropped; the take's MEAN divides each row by its own count,
// pads to the bound with index -1 and zeros, and starts a new global step.
TEST(SparseAccumulatorTest, MergesRowsAsTensorFlowDoes) {
  RuntimePtr runtime = makeRuntime();
  const int64_t shape[] = {10, 2};
  tfc_sparse_accumulator_make(runtime.get(), "rows", shape, 0, 2, 2, 1);
  const int64_t given[] = {10, 2};
  int64_t step = 0;
  const int64_t first[] = {4, 1, 4};
  const float firstRows[] = {1, 2, 3, 4, 5, 6};
  tfc_sparse_accumulator_apply(runtime.get(), &step, first, firstRows, given,
                               "apply_1", 0, 3, 2);
  const int64_t second[] = {1, 4, 7};
  const float secondRows[] = {10, 10, 20, 20, 30, 30};
  tfc_sparse_accumulator_apply(runtime.get(), &step, second, secondRows, given,
                               "apply_2", 0, 3, -1);
  int64_t stale = -1;
  const int64_t third[] = {0};
  const float thirdRows[] = {100, 100};
  tfc_sparse_accumulator_apply(runtime.get(), &stale, third, thirdRows, given,
                               "apply_stale", 0, 1, 2);
  int32_t count = -1;
  tfc_accumulator_num_accumulated(runtime.get(), &count, "count", 0);
  EXPECT_EQ(count, 2);

  const int32_t required = 2;
  int64_t indices[8], dense[2] = {0, 0}, taken = -1;
  float rows[16];
  const int64_t stated[] = {10, 2};
  tfc_sparse_accumulator_take(runtime.get(), &required, indices, rows, dense,
                              &taken, stated, "take", 0, 8, 2);
  ASSERT_EQ(taken, 5);
  const int64_t wantIndices[] = {1, 4, 1, 4, 7, -1, -1, -1};
  const float wantRows[] = {10, 10,   10.5, 11, 3, 4, 5, 6,
                            30, 30,   0,    0,  0, 0, 0, 0};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(indices[i], wantIndices[i]) << i;
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(rows[i], wantRows[i]) << i;
  EXPECT_EQ(dense[0], 10);
  EXPECT_EQ(dense[1], 2);

  // The take advanced the global step: a gradient of step 0 is stale.
  tfc_sparse_accumulator_apply(runtime.get(), &step, first, firstRows, given,
                               "apply_1", 0, 3, 2);
  tfc_accumulator_num_accumulated(runtime.get(), &count, "count", 0);
  EXPECT_EQ(count, 0);
}

// Tests SUM: rows of the same index in different gradients add up, and
// the sum is not divided.
TEST(SparseAccumulatorTest, SumAddsRowsOfOneIndex) {
  RuntimePtr runtime = makeRuntime();
  const int64_t shape[] = {-1, 1};
  tfc_sparse_accumulator_make(runtime.get(), "sums", shape, 0, 2, 1, 0);
  int64_t step = 3;
  tfc_accumulator_set_global_step(runtime.get(), &step, "set", 0);
  const int64_t index[] = {2};
  const float one[] = {1.5f}, two[] = {2.0f};
  const int64_t none[] = {0};
  tfc_sparse_accumulator_apply(runtime.get(), &step, index, one, none, "a", 0,
                               1, -1);
  tfc_sparse_accumulator_apply(runtime.get(), &step, index, two, none, "b", 0,
                               1, -1);
  const int32_t required = 2;
  int64_t indices[2], dense[2], taken = -1;
  float rows[2];
  const int64_t stated[] = {-1, 1};
  tfc_sparse_accumulator_take(runtime.get(), &required, indices, rows, dense,
                              &taken, stated, "take", 0, 2, 2);
  ASSERT_EQ(taken, 1);
  EXPECT_EQ(indices[0], 2);
  EXPECT_EQ(rows[0], 3.5f);
  EXPECT_EQ(dense[0], -1);
}

/// An apply of one row at `index`, of a gradient that states `stated`
/// as its shape, to an accumulator of 10 rows of 2: an index past its
/// rows, or a shape that is not its, is an error.
void applyOneRow(int64_t index, const int64_t *stated) {
  RuntimePtr runtime = makeRuntime();
  const int64_t shape[] = {10, 2};
  tfc_sparse_accumulator_make(runtime.get(), "rows", shape, 0, 2, 2, 1);
  int64_t step = 0;
  const float row[] = {1, 2};
  tfc_sparse_accumulator_apply(runtime.get(), &step, &index, row, stated,
                               "apply", 0, 1, 2);
}

/// A take of more rows than it was compiled for.
void takePastTheBound() {
  RuntimePtr runtime = makeRuntime();
  const int64_t shape[] = {10, 1};
  tfc_sparse_accumulator_make(runtime.get(), "rows", shape, 0, 2, 1, 1);
  int64_t step = 0;
  const int64_t indices[] = {1, 2, 3};
  const float rows[] = {1, 2, 3};
  tfc_sparse_accumulator_apply(runtime.get(), &step, indices, rows, shape,
                               "apply", 0, 3, 2);
  const int32_t required = 1;
  int64_t out[2], dense[2], taken;
  float values[2];
  tfc_sparse_accumulator_take(runtime.get(), &required, out, values, dense,
                              &taken, shape, "take", 0, 2, 2);
}

TEST(SparseAccumulatorDeathTest, BadGradientsAndTooManyRowsAreErrors) {
  const int64_t right[] = {10, 2}, wrong[] = {12, 2};
  EXPECT_DEATH(applyOneRow(10, right),
               "apply: InvalidArgument: index 10 of row 0 is not below the 10 "
               "rows \\(the accumulator 'rows'\\)");
  EXPECT_DEATH(applyOneRow(-1, right),
               "apply: InvalidArgument: index -1 of row 0 is negative \\(the "
               "accumulator 'rows'\\)");
  EXPECT_DEATH(applyOneRow(1, wrong),
               "apply: InvalidArgument: the gradient's shape has 12 at "
               "dimension 0 where the accumulator 'rows' has 10");
  EXPECT_DEATH(takePastTheBound(),
               "take: the accumulator 'rows' holds 3 rows, more than the 2 its "
               "take was compiled for");
}

/// A take of 0 gradients, which TensorFlow refuses.
void takeNone() {
  RuntimePtr runtime = makeRuntime();
  tfc_accumulator_make(runtime.get(), "acc", 0, 2, 1);
  const int32_t none = 0;
  float out[2];
  tfc_accumulator_take(runtime.get(), &none, out, "take", 0);
}

// Tests an accumulator's take of fewer than one gradient: an error naming
// the node.
TEST(QueueDeathTest, TakeOfNoGradientIsAnError) {
  EXPECT_DEATH(takeNone(),
               "take: InvalidArgument: num_required is 0, not 1 or more");
}

TEST(QueueRunnerDeathTest, EveryThreadWaitingIsAnError) {
  EXPECT_DEATH(waitTogether(),
               "(take|take_upstream): the queue '(out|upstream)' has 0 "
               "elements, fewer than the 1 the dequeue takes, and nothing in "
               "this program can enqueue");
}

} // namespace
