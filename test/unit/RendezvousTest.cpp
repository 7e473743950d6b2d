//===- RendezvousTest.cpp - the rendezvous interface and runtime options --===//

#include "tfc/Runtime/Rendezvous.h"
#include "tfc/Runtime/tfc_runtime.h"

#include "gtest/gtest.h"

#include <array>
#include <atomic>
#include <cstring>
#include <thread>

using tfc::RendezvousStatus;
using Code = tfc::RendezvousStatus::Code;

namespace {

// Tests that a sent tensor is received once per step, by a recv that
// waits for it on another thread too.
TEST(RendezvousTest, LocalRecvWaitsForTheSend) {
  std::unique_ptr<tfc::Rendezvous> rendezvous = tfc::makeLocalRendezvous();
  std::array<float, 3> sent = {1, 2, 3}, got = {};
  std::thread receiver([&] {
    RendezvousStatus status =
        rendezvous->recv("a;1;b;t;0:0", got.data(), sizeof(got));
    EXPECT_TRUE(status.isOk()) << status.getMessage();
  });
  EXPECT_TRUE(rendezvous->send("a;1;b;t;0:0", sent.data(), sizeof(sent)).isOk());
  receiver.join();
  EXPECT_EQ(got, sent);
  // The next step sends under the same key again.
  rendezvous->reset();
  sent[0] = 7;
  EXPECT_TRUE(rendezvous->send("a;1;b;t;0:0", sent.data(), sizeof(sent)).isOk());
  EXPECT_TRUE(rendezvous->recv("a;1;b;t;0:0", got.data(), sizeof(got)).isOk());
  EXPECT_EQ(got[0], 7);
}

// Tests the keys of a loop's iterations (tfc_send_in_frame): a sender
// ahead of its receiver leaves one tensor per iteration, each received
// under its own key, and the next step sends them again.
TEST(RendezvousTest, LocalKeysOfIterations) {
  std::unique_ptr<tfc::Rendezvous> rendezvous = tfc::makeLocalRendezvous();
  const std::string prefix = "a;1;b;t;00000000000000ab:";
  for (int step = 0; step < 2; ++step) {
    for (int iteration = 0; iteration < 3; ++iteration) {
      float value = float(10 * step + iteration);
      std::string key = prefix + std::to_string(iteration);
      ASSERT_TRUE(rendezvous->send(key.c_str(), &value, sizeof(value)).isOk());
    }
    for (int iteration = 0; iteration < 3; ++iteration) {
      float got = -1;
      std::string key = prefix + std::to_string(iteration);
      RendezvousStatus status = rendezvous->recv(key.c_str(), &got, sizeof(got));
      ASSERT_TRUE(status.isOk()) << status.getMessage();
      EXPECT_EQ(got, float(10 * step + iteration));
    }
    rendezvous->reset();
  }
}

// Tests that abort wakes a recv that waits for a tensor that never comes,
// fails every later exchange with its status, and that reset clears it.
TEST(RendezvousTest, AbortEndsWaitingAndLaterExchanges) {
  std::unique_ptr<tfc::Rendezvous> rendezvous = tfc::makeLocalRendezvous();
  float value = 0;
  std::atomic<bool> returned{false};
  RendezvousStatus waited = RendezvousStatus::ok();
  std::thread receiver([&] {
    waited = rendezvous->recv("never", &value, sizeof(value));
    returned = true;
  });
  rendezvous->abort(RendezvousStatus::error(
      Code::Unavailable, "/job:ps/replica:0/task:0 at 127.0.0.1:1: lost"));
  receiver.join();
  EXPECT_TRUE(returned);
  EXPECT_EQ(waited.getCode(), Code::Unavailable);
  EXPECT_EQ(waited.getMessage(),
            "/job:ps/replica:0/task:0 at 127.0.0.1:1: lost");
  EXPECT_EQ(rendezvous->send("k", &value, sizeof(value)).getCode(),
            Code::Unavailable);
  EXPECT_EQ(rendezvous->recv("k", &value, sizeof(value)).getCode(),
            Code::Unavailable);
  rendezvous->reset();
  EXPECT_TRUE(rendezvous->send("k", &value, sizeof(value)).isOk());
  EXPECT_TRUE(rendezvous->recv("k", &value, sizeof(value)).isOk());
}

// Tests that a malformed exchange is an error, not a crash: a key sent
// twice in a step, a size other than the one sent.
TEST(RendezvousTest, MalformedExchangesFail) {
  std::unique_ptr<tfc::Rendezvous> rendezvous = tfc::makeLocalRendezvous();
  std::array<float, 2> two = {1, 2};
  ASSERT_TRUE(rendezvous->send("k", two.data(), sizeof(two)).isOk());
  RendezvousStatus twice = rendezvous->send("k", two.data(), sizeof(two));
  EXPECT_EQ(twice.getCode(), Code::InvalidArgument);
  EXPECT_NE(twice.getMessage().find("sent twice"), std::string::npos);
  float one = 0;
  RendezvousStatus size = rendezvous->recv("k", &one, sizeof(one));
  EXPECT_EQ(size.getCode(), Code::InvalidArgument);
  EXPECT_NE(size.getMessage().find("carries 8 bytes, 4 expected"),
            std::string::npos);
}

/// A rendezvous that records what the runtime asks of it.
struct RecordingRendezvous : tfc::Rendezvous {
  explicit RecordingRendezvous(int *destroyed) : destroyed(destroyed) {}
  ~RecordingRendezvous() override { ++*destroyed; }
  Status send(const char *key, const void *, int64_t bytes) override {
    lastKey = key;
    lastBytes = bytes;
    return Status::ok();
  }
  Status recv(const char *key, void *data, int64_t bytes) override {
    lastKey = key;
    if (std::string(key) == "lost")
      return Status::error(Status::Code::Unavailable, "peer lost");
    if (std::string(key) == "bad")
      return Status::error(Status::Code::InvalidArgument, "bad exchange");
    std::memset(data, 0x5a, size_t(bytes));
    return Status::ok();
  }
  void abort(const Status &) override {}
  void reset() override { ++resets; }

  int *destroyed;
  std::string lastKey;
  int64_t lastBytes = -1;
  int resets = 0;
};

tfc_rendezvous *makeRecording(void *context) {
  return new RecordingRendezvous(static_cast<int *>(context));
}

tfc_rendezvous *makeNothing(void *) { return nullptr; }

tfc_runtime *runtimeWith(tfc_rendezvous *(*factory)(void *), void *context) {
  tfc_runtime_options options = {};
  options.threads = 1;
  options.create_rendezvous = factory;
  options.rendezvous_context = context;
  return tfc_runtime_create(&options);
}

// Tests that a runtime made with a rendezvous factory sends and receives
// through what the factory made, and deletes it with the runtime.
TEST(RendezvousTest, RuntimeUsesTheFactorysRendezvous) {
  int destroyed = 0;
  tfc_runtime *runtime = runtimeWith(makeRecording, &destroyed);
  ASSERT_NE(runtime, nullptr);
  EXPECT_EQ(tfc_runtime_threads(runtime), 1);
  float value = 1;
  tfc_send(runtime, "s", &value, sizeof(value));
  uint8_t bytes[4] = {};
  tfc_recv(runtime, "r", bytes, sizeof(bytes));
  EXPECT_EQ(bytes[3], 0x5a);
  tfc_runtime_destroy(runtime);
  EXPECT_EQ(destroyed, 1);
  // A factory that makes nothing makes no runtime.
  EXPECT_EQ(runtimeWith(makeNothing, nullptr), nullptr);
}

// Tests that a failed receive ends the step: the restartable cluster
// status for a lost peer, 1 for anything else, with the message.
TEST(RendezvousDeathTest, FailedRecvEndsTheStep) {
  int destroyed = 0;
  tfc_runtime *runtime = runtimeWith(makeRecording, &destroyed);
  float value = 0;
  EXPECT_EXIT(tfc_recv(runtime, "lost", &value, sizeof(value)),
              ::testing::ExitedWithCode(TFC_EXIT_CLUSTER_FAILURE),
              "error: peer lost");
  EXPECT_EXIT(tfc_recv(runtime, "bad", &value, sizeof(value)),
              ::testing::ExitedWithCode(1), "error: bad exchange");
  tfc_runtime_destroy(runtime);
}

} // namespace
