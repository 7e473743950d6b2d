//===- TransportTest.cpp - tensors between tasks over gRPC, on loopback ---===//
//
// Two tasks' transports in one test process, each with its own gRPC server
// on a free port of 127.0.0.1 (real sockets): what one task's rendezvous
// sends, the other's receives, whatever its size, over TCP or through
// shared memory; a peer of another run,
// an unreachable peer, a wrong size and garbage on the port each fail
// with a line naming what is wrong; an abort releases a waiting receive.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/SharedMemory.h"
#include "tfc/Distributed/TensorCoding.h"
#include "tfc/Distributed/Transport.h"

#include "task_service.pb.h"

#include "gtest/gtest.h"

#include <cstdio>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

using namespace tfc;
using namespace tfc::distributed;
using Code = RendezvousStatus::Code;

namespace {

const TaskName kWorker{"worker", 0}, kPs{"ps", 0};

/// A key for a tensor that `from` sends to `to` (TensorFlow's layout).
std::string keyOf(const TaskName &from, const TaskName &to,
                  const std::string &tensor) {
  return from.str() + "/device:CPU:0;0000000000000001;" + to.str() +
         "/device:CPU:0;" + tensor + ";0:0";
}

/// A worker and a ps on free loopback ports, each knowing the other's.
struct Pair {
  std::unique_ptr<Transport> worker, ps;
  std::unique_ptr<tfc_rendezvous> atWorker, atPs;

  explicit Pair(uint64_t workerIncarnation = 7, uint64_t psIncarnation = 7,
                bool sharedMemory = true) {
    worker = start(kWorker, workerIncarnation, sharedMemory);
    ps = start(kPs, psIncarnation, sharedMemory);
    worker->setAddress(kPs, "127.0.0.1:" + std::to_string(ps->port()));
    ps->setAddress(kWorker, "127.0.0.1:" + std::to_string(worker->port()));
    atWorker = worker->makeRendezvous();
    atPs = ps->makeRendezvous();
  }

  static std::unique_ptr<Transport> start(const TaskName &task,
                                          uint64_t incarnation,
                                          bool sharedMemory = true) {
    TransportOptions options;
    options.task = task;
    options.incarnation = incarnation;
    options.sharedMemory = sharedMemory;
    options.bind = "127.0.0.1:0";
    std::string error;
    std::unique_ptr<Transport> transport = Transport::start(options, error);
    EXPECT_TRUE(transport) << error;
    return transport;
  }
};

/// The status of a small tensor's send, which does not wait for the
/// receiver: its failure shows in Transport::sendFailure (within 30 s), and
/// fails the task's next transfer.
RendezvousStatus copiedSendStatus(Transport &transport, tfc_rendezvous &at,
                                  const std::string &key) {
  int32_t value = 3;
  RendezvousStatus status = at.send(key.c_str(), &value, 4);
  if (!status.isOk())
    return status;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (transport.sendFailure().isOk() &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  RendezvousStatus failure = transport.sendFailure();
  RendezvousStatus next = at.send(key.c_str(), &value, 4);
  EXPECT_EQ(next.getCode(), failure.getCode());
  EXPECT_EQ(next.getMessage(), failure.getMessage());
  return failure;
}

// Tests between-graph replication's exchanges: two workers run the
// template replica's code (keys naming worker 0), each as its own client
// with its own step numbers; the ps serves both with a rendezvous per
// client, which rewrites the template's keys to the client's task. Each
// worker's tensors reach the ps's execution for that worker and back, and
// one client's next step keeps the tensors that came early for another's.
TEST(TransportTest, ReplicasExchangeAsClientsOfTheirOwn) {
  const TaskName worker1{"worker", 1};
  std::unique_ptr<Transport> workers[2] = {Pair::start(kWorker, 7),
                                           Pair::start(worker1, 7)};
  std::unique_ptr<Transport> ps = Pair::start(kPs, 7);
  for (int k = 0; k < 2; ++k) {
    workers[k]->setAddress(kPs, "127.0.0.1:" + std::to_string(ps->port()));
    ps->setAddress(TaskName{"worker", k},
                   "127.0.0.1:" + std::to_string(workers[k]->port()));
  }
  RendezvousScope scopes[2], psScopes[2];
  std::unique_ptr<tfc_rendezvous> atWorker[2], atPs[2];
  for (int k = 0; k < 2; ++k) {
    scopes[k] = {workers[k].get(), k, kWorker.str(), TaskName{"worker", k}.str()};
    psScopes[k] = {ps.get(), k, kWorker.str(), TaskName{"worker", k}.str()};
    atWorker[k].reset(Transport::createScopedRendezvous(&scopes[k]));
    atPs[k].reset(Transport::createScopedRendezvous(&psScopes[k]));
  }
  // The template's keys: worker 0's gradient to the ps, the ps's weights
  // back.
  std::string gradient = keyOf(kWorker, kPs, "grad");
  std::string weights = keyOf(kPs, kWorker, "w/read");
  // Worker 0 at its step 3, worker 1 at its first.
  int64_t steps[2] = {scopedStep(0, 3), scopedStep(1, 0)};
  EXPECT_EQ(clientOfStep(steps[1]), 1);
  EXPECT_EQ(clientOfStep(-1), 0);
  for (int k = 0; k < 2; ++k) {
    workers[k]->beginStep(steps[k]);
    ps->beginStep(steps[k]);
  }
  for (int k = 0; k < 2; ++k) {
    float value = 10.0f + k;
    ASSERT_TRUE(atWorker[k]->send(gradient.c_str(), &value, 4).isOk());
  }
  for (int k : {1, 0}) {
    float got = 0;
    RendezvousStatus status = atPs[k]->recv(gradient.c_str(), &got, 4);
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    EXPECT_EQ(got, 10.0f + k);
    float reply = 100.0f + k;
    ASSERT_TRUE(atPs[k]->send(weights.c_str(), &reply, 4).isOk());
  }
  for (int k = 0; k < 2; ++k) {
    float got = 0;
    RendezvousStatus status = atWorker[k]->recv(weights.c_str(), &got, 4);
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    EXPECT_EQ(got, 100.0f + k);
  }
  // Worker 1's gradient of its next step comes before the ps begins that
  // step; the ps's next step for worker 0 keeps it.
  workers[1]->beginStep(steps[1] + 1);
  float early = 21.0f, got = 0;
  ASSERT_TRUE(atWorker[1]->send(gradient.c_str(), &early, 4).isOk());
  ps->beginStep(steps[0] + 1);
  ps->beginStep(steps[1] + 1);
  ASSERT_TRUE(atPs[1]->recv(gradient.c_str(), &got, 4).isOk());
  EXPECT_EQ(got, 21.0f);

  // The keys of a loop's iterations, which the runtime writes into one
  // buffer of its own iteration after iteration, are rewritten by their
  // text: each iteration's tensor reaches the ps under its own key.
  std::string prefix =
      gradient.substr(0, gradient.size() - 3) + "00000000000000ab:";
  char key[512];
  for (int iteration = 0; iteration < 3; ++iteration) {
    std::snprintf(key, sizeof key, "%s%d", prefix.c_str(), iteration);
    float value = 30.0f + iteration;
    ASSERT_TRUE(atWorker[1]->send(key, &value, 4).isOk());
  }
  for (int iteration = 0; iteration < 3; ++iteration) {
    std::snprintf(key, sizeof key, "%s%d", prefix.c_str(), iteration);
    ASSERT_TRUE(atPs[1]->recv(key, &got, 4).isOk());
    EXPECT_EQ(got, 30.0f + iteration);
  }
}

/// A ps serving between-graph workers 0 and 1 (clients 0 and 1, with the
/// template replica's keys), on free loopback ports.
struct ServedWorkers {
  // The template's keys, as generated code has them: a replica's
  // rendezvous rewrites each key once, kept by its address.
  const std::string weights = keyOf(kPs, kWorker, "w/read"),
                    gradient = keyOf(kWorker, kPs, "grad"),
                    big = keyOf(kPs, kWorker, "big/read");
  std::unique_ptr<Transport> workers[2], ps;
  RendezvousScope scopes[2], psScopes[2];
  std::unique_ptr<tfc_rendezvous> atWorker[2], atPs[2];

  explicit ServedWorkers(bool sharedMemory) {
    ps = Pair::start(kPs, 7, sharedMemory);
    for (int k = 0; k < 2; ++k) {
      psScopes[k] = {ps.get(), k, kWorker.str(), TaskName{"worker", k}.str()};
      atPs[k].reset(Transport::createScopedRendezvous(&psScopes[k]));
      startWorker(k, sharedMemory);
    }
  }
  void startWorker(int k, bool sharedMemory) {
    atWorker[k].reset();
    workers[k] = Pair::start(TaskName{"worker", k}, 7, sharedMemory);
    workers[k]->setAddress(kPs, "127.0.0.1:" + std::to_string(ps->port()));
    ps->setAddress(TaskName{"worker", k},
                   "127.0.0.1:" + std::to_string(workers[k]->port()));
    scopes[k] = {workers[k].get(), k, kWorker.str(), TaskName{"worker", k}.str()};
    atWorker[k].reset(Transport::createScopedRendezvous(&scopes[k]));
  }
  void lose(int k) {
    atWorker[k].reset();
    workers[k].reset();
  }
  /// The ps's weights to worker k and its gradient back, in a step of both.
  void exchange(int k, int64_t step, float value) {
    workers[k]->beginStep(scopedStep(k, step));
    ps->beginStep(scopedStep(k, step));
    float got = 0;
    ASSERT_TRUE(atPs[k]->send(weights.c_str(), &value, 4).isOk());
    RendezvousStatus status = atWorker[k]->recv(weights.c_str(), &got, 4);
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    EXPECT_EQ(got, value);
    ASSERT_TRUE(atWorker[k]->send(gradient.c_str(), &value, 4).isOk());
    status = atPs[k]->recv(gradient.c_str(), &got, 4);
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    EXPECT_EQ(got, value);
  }
};

/// Waits (30 s at most) until the ps has abandoned `client`.
RendezvousStatus abandonedWithin30s(Transport &ps, int client) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (ps.clientAbandoned(client).isOk() &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return ps.clientAbandoned(client);
}

// Tests that a ps whose send to a lost between-graph worker fails, small
// (copied, not waited for) or large (a call the receiver answers),
// abandons that worker's step only: the worker's exchanges fail with
// Abandoned, naming it, and the ps's own health (sendFailure) and the
// other worker's steps are untouched; once the ps forgets the lost worker,
// a new process of it exchanges from its first step.
TEST(TransportTest, ALostWorkersStepIsAbandonedAtThePs) {
  for (int64_t bytes : {int64_t(4), int64_t(1) << 20}) {
    SCOPED_TRACE(bytes);
    ServedWorkers served(/*sharedMemory=*/false);
    served.exchange(0, 0, 1.0f);
    served.exchange(1, 0, 2.0f);
    served.lose(1);
    served.ps->beginStep(scopedStep(1, 1));
    std::vector<float> weights(size_t(bytes / 4), 3.0f);
    RendezvousStatus sent =
        served.atPs[1]->send(served.big.c_str(), weights.data(), bytes);
    RendezvousStatus lost = abandonedWithin30s(*served.ps, 1);
    ASSERT_EQ(lost.getCode(), Code::Abandoned) << lost.getMessage();
    EXPECT_NE(lost.getMessage().find("/job:worker/replica:0/task:1"),
              std::string::npos)
        << lost.getMessage();
    if (!sent.isOk())
      EXPECT_EQ(sent.getCode(), Code::Abandoned) << sent.getMessage();
    float got = 0;
    RendezvousStatus status =
        served.atPs[1]->recv(served.gradient.c_str(), &got, 4);
    EXPECT_EQ(status.getCode(), Code::Abandoned);
    EXPECT_TRUE(served.ps->sendFailure().isOk())
        << served.ps->sendFailure().getMessage();
    // The abandon outlives the lost worker's next step id.
    served.ps->beginStep(scopedStep(1, 2));
    EXPECT_EQ(served.ps->clientAbandoned(1).getCode(), Code::Abandoned);
    served.exchange(0, 1, 4.0f);

    served.ps->forgetClient(1);
    EXPECT_TRUE(served.ps->clientAbandoned(1).isOk());
    served.startWorker(1, false);
    served.exchange(1, 0, 5.0f);
  }
}

// Tests that abandoning a client, as the chief asks when a worker is lost,
// releases the ps's receive that waits for that worker's tensor, with the
// reason, while the other client's receive waits on and gets its tensor;
// and that an abort (a step another task ended) is the aborted client's
// alone.
TEST(TransportTest, AbandonAndAbortAreOneClients) {
  ServedWorkers served(/*sharedMemory=*/true);
  const std::string &gradient = served.gradient;
  for (int k = 0; k < 2; ++k)
    served.ps->beginStep(scopedStep(k, 0));
  served.workers[0]->beginStep(0);
  float got[2] = {0, 0};
  RendezvousStatus statuses[2] = {RendezvousStatus::ok(), RendezvousStatus::ok()};
  std::thread receivers[2];
  for (int k = 0; k < 2; ++k)
    receivers[k] = std::thread([&, k] {
      statuses[k] = served.atPs[k]->recv(gradient.c_str(), &got[k], 4);
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  served.ps->abandonClient(1, "lost /job:worker/replica:0/task:1 (test)");
  receivers[1].join();
  EXPECT_EQ(statuses[1].getCode(), Code::Abandoned);
  EXPECT_EQ(statuses[1].getMessage(), "lost /job:worker/replica:0/task:1 (test)");
  float value = 6.0f;
  ASSERT_TRUE(served.atWorker[0]->send(gradient.c_str(), &value, 4).isOk());
  receivers[0].join();
  ASSERT_TRUE(statuses[0].isOk()) << statuses[0].getMessage();
  EXPECT_EQ(got[0], 6.0f);

  served.ps->forgetClient(1);
  served.ps->beginStep(scopedStep(1, 0));
  served.atPs[1]->abort(RendezvousStatus::error(Code::OutOfRange, "ended"));
  EXPECT_EQ(served.atPs[1]->recv(gradient.c_str(), &got[1], 4).getCode(),
            Code::OutOfRange);
  served.exchange(0, 1, 7.0f);
}

// Tests that a tensor sent by one task is received by the other, step
// after step, by a receive that waits for it too.
TEST(TransportTest, SendsTensorsBetweenTasks) {
  Pair pair;
  std::string key = keyOf(kPs, kWorker, "w/read");
  std::vector<float> sent(1000), got(1000);
  std::iota(sent.begin(), sent.end(), 0.5f);
  std::thread receiver([&] {
    RendezvousStatus status =
        pair.atWorker->recv(key.c_str(), got.data(), got.size() * 4);
    EXPECT_TRUE(status.isOk()) << status.getMessage();
  });
  RendezvousStatus status =
      pair.atPs->send(key.c_str(), sent.data(), sent.size() * 4);
  EXPECT_TRUE(status.isOk()) << status.getMessage();
  receiver.join();
  EXPECT_EQ(got, sent);
  // The next step, the same key again: the send comes first this time.
  pair.ps->beginStep(1);
  pair.worker->beginStep(1);
  sent[0] = -1;
  ASSERT_TRUE(pair.atPs->send(key.c_str(), sent.data(), sent.size() * 4).isOk());
  ASSERT_TRUE(pair.atWorker->recv(key.c_str(), got.data(), got.size() * 4).isOk());
  EXPECT_EQ(got, sent);
  // An empty tensor.
  ASSERT_TRUE(pair.atWorker->send(keyOf(kWorker, kPs, "e").c_str(), nullptr, 0).isOk());
  EXPECT_TRUE(pair.atPs->recv(keyOf(kWorker, kPs, "e").c_str(), nullptr, 0).isOk());
}

// Tests that a tensor larger than gRPC's default message limit (4 MiB)
// arrives whole, over TCP and, between tasks on one host, through shared
// memory.
TEST(TransportTest, SendsLargeTensors) {
  for (bool sharedMemory : {false, true}) {
    Pair pair(7, 7, sharedMemory);
    std::string key = keyOf(kWorker, kPs, "gradient");
    std::vector<uint8_t> sent(48 << 20), got(48 << 20);
    for (size_t i = 0; i < sent.size(); ++i)
      sent[i] = uint8_t(i * 2654435761u >> 13);
    RendezvousStatus status = pair.atWorker->send(key.c_str(), sent.data(), sent.size());
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    status = pair.atPs->recv(key.c_str(), got.data(), got.size());
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    EXPECT_TRUE(got == sent);
    Transport::TransferStats stats = pair.worker->transferStats();
    EXPECT_EQ(stats.tensors, 1);
    EXPECT_EQ(stats.bytes, 48 << 20);
    EXPECT_EQ(stats.sharedMemory, sharedMemory ? 1 : 0);
  }
}

// Tests shared tensors that arrive before their receive, step after step:
// each waits in a staging buffer of the receiver's transport, which the
// next step's reuses, and each receive gets its own step's bytes.
TEST(TransportTest, EarlySharedTensorsAreStagedStepAfterStep) {
  Pair pair;
  std::string key = keyOf(kPs, kWorker, "w/read");
  const size_t bytes = 8 << 20;
  for (int step = 0; step < 3; ++step) {
    std::vector<uint8_t> sent(bytes), got(bytes);
    for (size_t i = 0; i < bytes; ++i)
      sent[i] = uint8_t(i * 2654435761u >> 11) ^ uint8_t(step * 37);
    // The first send returns once the receiver holds the tensor (staged,
    // since no receive waits), the later ones at once.
    RendezvousStatus status = pair.atPs->send(key.c_str(), sent.data(), bytes);
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    status = pair.atWorker->recv(key.c_str(), got.data(), bytes);
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    EXPECT_TRUE(got == sent) << "step " << step;
    pair.ps->beginStep(pair.ps->step() + 1);
    pair.worker->beginStep(pair.worker->step() + 1);
  }
  EXPECT_EQ(pair.ps->transferStats().sharedMemory, 3);
}

// Tests that shared tensors are sent without waiting for the receiver
// (but for the first, which learns that the peer maps regions): the
// sender's buffer is free as the send returns, several sends are in
// flight at once, each in a region of its own until the receiver has
// copied it out, and every receive gets its own tensor's bytes, step
// after step.
TEST(TransportTest, SharedSendsDoNotWaitForTheReceiver) {
  Pair pair;
  const size_t bytes = 1 << 20;
  auto pattern = [&](int step, int k) {
    std::vector<uint8_t> v(bytes);
    for (size_t i = 0; i < bytes; ++i)
      v[i] = uint8_t(i * 2654435761u >> 9) ^ uint8_t(step * 31 + k * 7);
    return v;
  };
  for (int step = 0; step < 3; ++step) {
    // One buffer for every send, overwritten as each send returns.
    std::vector<uint8_t> buffer;
    for (int k = 0; k < 4; ++k) {
      buffer = pattern(step, k);
      std::string key = keyOf(kPs, kWorker, "v" + std::to_string(k));
      RendezvousStatus status = pair.atPs->send(key.c_str(), buffer.data(), bytes);
      ASSERT_TRUE(status.isOk()) << status.getMessage();
      std::fill(buffer.begin(), buffer.end(), 0);
    }
    for (int k = 3; k >= 0; --k) {
      std::vector<uint8_t> got(bytes);
      std::string key = keyOf(kPs, kWorker, "v" + std::to_string(k));
      RendezvousStatus status = pair.atWorker->recv(key.c_str(), got.data(), bytes);
      ASSERT_TRUE(status.isOk()) << status.getMessage();
      EXPECT_TRUE(got == pattern(step, k)) << "step " << step << " tensor " << k;
    }
    pair.ps->beginStep(pair.ps->step() + 1);
    pair.worker->beginStep(pair.worker->step() + 1);
  }
  EXPECT_EQ(pair.ps->transferStats().sharedMemory, 12);
}

// Tests shared memory between the tasks' transports: a tensor lands in the
// buffer of a receive that waits for it, a smaller one reuses the region,
// a larger one gets a new one, and a receive of another size is told.
TEST(TransportTest, SharedTensorsLandInWaitingReceives) {
  Pair pair;
  std::string key = keyOf(kPs, kWorker, "w/read");
  for (size_t bytes : {size_t(1) << 20, size_t(100) << 10, size_t(3) << 20}) {
    std::vector<uint8_t> sent(bytes), got(bytes);
    for (size_t i = 0; i < bytes; ++i)
      sent[i] = uint8_t(i * 40503u + bytes);
    std::thread receiver([&] {
      RendezvousStatus status = pair.atWorker->recv(key.c_str(), got.data(), bytes);
      EXPECT_TRUE(status.isOk()) << status.getMessage();
    });
    // Most likely, the receive waits by now.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    RendezvousStatus status = pair.atPs->send(key.c_str(), sent.data(), bytes);
    EXPECT_TRUE(status.isOk()) << status.getMessage();
    receiver.join();
    EXPECT_TRUE(got == sent) << bytes;
    pair.ps->beginStep(pair.ps->step() + 1);
    pair.worker->beginStep(pair.worker->step() + 1);
  }
  EXPECT_EQ(pair.ps->transferStats().sharedMemory, 3);
  std::vector<uint8_t> sent(1 << 20), got(2 << 20);
  std::thread receiver([&] {
    RendezvousStatus status = pair.atWorker->recv(key.c_str(), got.data(), got.size());
    EXPECT_EQ(status.getCode(), Code::InvalidArgument);
    EXPECT_EQ(status.getMessage(),
              "'" + key + "' from /job:ps/replica:0/task:0 has 1048576 bytes, "
              "/job:worker/replica:0/task:0 expects 2097152");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(pair.atPs->send(key.c_str(), sent.data(), sent.size()).isOk());
  receiver.join();
}

// Tests what a receiver maps: only a region of the job's, on this host,
// holding the token and the bytes the message says; anything else is
// refused, saying why.
TEST(SharedMemoryTest, MapsOnlyTheSendersRegion) {
  std::string error;
  std::unique_ptr<SharedRegion> region = SharedRegion::create(5000, 7, error);
  ASSERT_TRUE(region) << error;
  EXPECT_GE(region->capacity(), 5000u);
  std::memcpy(region->data(), "tensor", 6);
  SharedRegionMap regions;
  SharedTensor shared = region->describe(6);
  std::shared_ptr<const SharedMapping> mapping = regions.map(shared, 7, error);
  ASSERT_TRUE(mapping) << error;
  EXPECT_EQ(std::string(reinterpret_cast<const char *>(mapping->data()), 6), "tensor");
  // Mapped once: the same mapping again.
  EXPECT_EQ(regions.map(shared, 7, error), mapping);

  auto refused = [&](SharedTensor what, uint64_t incarnation) {
    error.clear();
    EXPECT_FALSE(regions.map(what, incarnation, error));
    return error;
  };
  SharedTensor other = shared;
  other.token ^= 1;
  EXPECT_EQ(refused(other, 7), "the sender's region no longer holds the tensor");
  EXPECT_EQ(refused(shared, 8), "/proc/" + std::to_string(getpid()) + "/fd/" +
                                    std::to_string(shared.fd) +
                                    " is not a region of this job");
  other = shared;
  other.host += "x";
  EXPECT_EQ(refused(other, 7),
            "the sender is on another host or in another process namespace");
  other = shared;
  other.bytes = region->capacity() + 1;
  EXPECT_EQ(refused(other, 7), "the sender's region holds " +
                                   std::to_string(region->capacity()) +
                                   " bytes, not " +
                                   std::to_string(region->capacity() + 1));
  // A file that is not a memfd, and a descriptor that is not open.
  int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(file, 0);
  other = shared;
  other.fd = file;
  EXPECT_EQ(refused(other, 7), "/proc/" + std::to_string(getpid()) + "/fd/" +
                                   std::to_string(file) +
                                   " is not a region of this job");
  close(file);
  EXPECT_NE(refused(other, 7).find("No such file or directory"), std::string::npos);
}

// Tests that a tensor sent for the next step waits for it.
TEST(TransportTest, EarlyTensorWaitsForItsStep) {
  Pair pair;
  std::string key = keyOf(kPs, kWorker, "t");
  int32_t first = 1, second = 2, got = 0;
  ASSERT_TRUE(pair.atPs->send(key.c_str(), &first, 4).isOk());
  pair.ps->beginStep(1); // The ps runs ahead into step 1.
  ASSERT_TRUE(pair.atPs->send(key.c_str(), &second, 4).isOk());
  ASSERT_TRUE(pair.atWorker->recv(key.c_str(), &got, 4).isOk());
  EXPECT_EQ(got, 1);
  pair.worker->beginStep(1);
  ASSERT_TRUE(pair.atWorker->recv(key.c_str(), &got, 4).isOk());
  EXPECT_EQ(got, 2);
}

// Tests that a task of another run of the job (another incarnation) is
// refused, with a line saying so.
TEST(TransportTest, RefusesAnotherIncarnation) {
  Pair pair(/*workerIncarnation=*/7, /*psIncarnation=*/8);
  RendezvousStatus status =
      copiedSendStatus(*pair.ps, *pair.atPs, keyOf(kPs, kWorker, "t"));
  EXPECT_EQ(status.getCode(), Code::InvalidArgument);
  EXPECT_NE(status.getMessage().find("another run of the job"), std::string::npos)
      << status.getMessage();
  EXPECT_NE(status.getMessage().find("/job:worker/replica:0/task:0 at 127.0.0.1:"),
            std::string::npos)
      << status.getMessage();
}

// Tests that a send to a task nothing listens for fails as Unavailable,
// naming the task and its address, and does so in bounded time.
TEST(TransportTest, UnreachablePeerIsUnavailable) {
  std::unique_ptr<Transport> worker = Pair::start(kWorker, 1);
  // A port that was free a moment ago.
  std::unique_ptr<Transport> gone = Pair::start(kPs, 1);
  std::string address = "127.0.0.1:" + std::to_string(gone->port());
  gone.reset();
  worker->setAddress(kPs, address);
  std::unique_ptr<tfc_rendezvous> rendezvous = worker->makeRendezvous();
  auto begin = std::chrono::steady_clock::now();
  RendezvousStatus status =
      copiedSendStatus(*worker, *rendezvous, keyOf(kWorker, kPs, "t"));
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(30));
  EXPECT_EQ(status.getCode(), Code::Unavailable);
  EXPECT_NE(status.getMessage().find("/job:ps/replica:0/task:0 at " + address),
            std::string::npos)
      << status.getMessage();
}

// Tests that a receive of another size than was sent fails, naming the
// key, the sender and both sizes.
TEST(TransportTest, SizeMismatchIsAnError) {
  Pair pair;
  std::string key = keyOf(kPs, kWorker, "t");
  int64_t sent = 5;
  int32_t got = 0;
  ASSERT_TRUE(pair.atPs->send(key.c_str(), &sent, 8).isOk());
  RendezvousStatus status = pair.atWorker->recv(key.c_str(), &got, 4);
  EXPECT_EQ(status.getCode(), Code::InvalidArgument);
  EXPECT_NE(status.getMessage().find("has 8 bytes"), std::string::npos)
      << status.getMessage();
  EXPECT_NE(status.getMessage().find("/job:ps/replica:0/task:0"), std::string::npos)
      << status.getMessage();
}

// Tests that abort releases a receive that waits for a tensor that never
// comes, with the abort's status, and that the next step works again.
TEST(TransportTest, AbortReleasesAWaitingRecv) {
  Pair pair;
  std::string key = keyOf(kPs, kWorker, "t");
  int32_t got = 0;
  std::thread receiver([&] {
    RendezvousStatus status = pair.atWorker->recv(key.c_str(), &got, 4);
    EXPECT_EQ(status.getCode(), Code::Unavailable);
    EXPECT_EQ(status.getMessage(), "lost /job:ps/replica:0/task:0");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  pair.atWorker->abort(
      RendezvousStatus::error(Code::Unavailable, "lost /job:ps/replica:0/task:0"));
  receiver.join();
  pair.atWorker->reset(); // The step ends; the abort is forgotten.
  int32_t value = 9;
  ASSERT_TRUE(pair.atPs->send(key.c_str(), &value, 4).isOk());
  ASSERT_TRUE(pair.atWorker->recv(key.c_str(), &got, 4).isOk());
  EXPECT_EQ(got, 9);
}

// Tests that bytes that are no gRPC call, written to a task's port, leave
// it serving.
TEST(TransportTest, GarbageOnThePortLeavesTheServerServing) {
  Pair pair;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(uint16_t(pair.worker->port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
  const char garbage[] = "GET / HTTP/1.0\r\n\r\n\x00\xff\x13garbage";
  EXPECT_GT(write(fd, garbage, sizeof garbage), 0);
  close(fd);
  int32_t value = 4, got = 0;
  std::string key = keyOf(kPs, kWorker, "t");
  ASSERT_TRUE(pair.atPs->send(key.c_str(), &value, 4).isOk());
  ASSERT_TRUE(pair.atWorker->recv(key.c_str(), &got, 4).isOk());
  EXPECT_EQ(got, 4);
}

// Tests that a second server on a port in use fails to start, naming the
// address (gRPC would share it otherwise).
TEST(TransportTest, PortInUseIsAnError) {
  std::unique_ptr<Transport> first = Pair::start(kWorker, 1);
  TransportOptions options;
  options.task = kPs;
  options.bind = "127.0.0.1:" + std::to_string(first->port());
  std::string error;
  EXPECT_FALSE(Transport::start(options, error));
  EXPECT_NE(error.find("cannot listen on " + options.bind), std::string::npos)
      << error;
}

// Tests the tensor coding: what the sender writes is a TensorMessage that
// protobuf reads, and the decoder reads it back however gRPC splits it
// into slices; a message cut short anywhere is refused.
TEST(TensorCodingTest, RoundTripsAcrossAnySplit) {
  TensorHeader header{0x0123456789abcdefull, 42, "a;1;b;tensor;0:0", "/job:ps/replica:0/task:0"};
  std::string data = "0123456789abcdefghij";
  std::string message = encodeTensorPrefix(header, data.size()) + data;
  TensorMessage parsed;
  ASSERT_TRUE(parsed.ParseFromString(message));
  EXPECT_EQ(parsed.incarnation(), header.incarnation);
  EXPECT_EQ(parsed.step_id(), 42);
  EXPECT_EQ(parsed.key(), header.key);
  EXPECT_EQ(parsed.sender(), header.sender);
  EXPECT_EQ(parsed.data(), data);
  auto *bytes = reinterpret_cast<const uint8_t *>(message.data());
  for (size_t cut = 0; cut <= message.size(); ++cut) {
    std::vector<Span> pieces = {{bytes, cut}, {bytes + cut, message.size() - cut}};
    DecodedTensor decoded;
    std::string error;
    ASSERT_TRUE(decodeTensorMessage(pieces, decoded, error)) << cut << ": " << error;
    EXPECT_EQ(decoded.header.key, header.key);
    EXPECT_EQ(decoded.header.stepId, 42);
    EXPECT_EQ(decoded.header.incarnation, header.incarnation);
    ASSERT_EQ(decoded.dataBytes, data.size());
    std::string copied(data.size(), '\0');
    copyFromPieces(pieces, decoded.dataOffset, copied.data(), copied.size());
    EXPECT_EQ(copied, data);
    // Cut short there.
    if (cut < message.size()) {
      std::vector<Span> truncated = {{bytes, cut}};
      EXPECT_FALSE(decodeTensorMessage(truncated, decoded, error)) << cut;
      EXPECT_FALSE(error.empty());
    }
  }
  // Protobuf's own encoding (fields of another order, one this version
  // does not know) reads too.
  std::string theirs = parsed.SerializeAsString() + "\x48\x05"; // 9: 5
  DecodedTensor decoded;
  std::string error;
  ASSERT_TRUE(decodeTensorMessage(
      {{reinterpret_cast<const uint8_t *>(theirs.data()), theirs.size()}}, decoded, error))
      << error;
  EXPECT_EQ(decoded.header.sender, header.sender);
  EXPECT_EQ(decoded.dataBytes, data.size());
  EXPECT_FALSE(decoded.header.shared);
}

// Tests a tensor sent through shared memory: its message says where the
// bytes are, protobuf reads that, and the decoder reads it back whole.
TEST(TensorCodingTest, RoundTripsASharedTensor) {
  TensorHeader header{7, 3, "a;1;b;tensor;0:0", "/job:ps/replica:0/task:0",
                      SharedTensor{"boot/pid:[4026531836]", 4242, 17,
                                   0xfedcba9876543210ull, 1 << 20}};
  std::string message = encodeTensorPrefix(header, 0);
  TensorMessage parsed;
  ASSERT_TRUE(parsed.ParseFromString(message));
  EXPECT_EQ(parsed.shared().host(), "boot/pid:[4026531836]");
  EXPECT_EQ(parsed.shared().pid(), 4242);
  EXPECT_EQ(parsed.shared().fd(), 17);
  EXPECT_EQ(parsed.shared().token(), 0xfedcba9876543210ull);
  EXPECT_EQ(parsed.shared().bytes(), 1u << 20);
  EXPECT_TRUE(parsed.data().empty());
  auto *bytes = reinterpret_cast<const uint8_t *>(message.data());
  for (size_t cut = 0; cut <= message.size(); ++cut) {
    DecodedTensor decoded;
    std::string error;
    ASSERT_TRUE(decodeTensorMessage({{bytes, cut}, {bytes + cut, message.size() - cut}},
                                    decoded, error))
        << cut << ": " << error;
    ASSERT_TRUE(decoded.header.shared);
    EXPECT_EQ(decoded.header.shared->host, header.shared->host);
    EXPECT_EQ(decoded.header.shared->pid, 4242);
    EXPECT_EQ(decoded.header.shared->fd, 17);
    EXPECT_EQ(decoded.header.shared->token, header.shared->token);
    EXPECT_EQ(decoded.header.shared->bytes, 1u << 20);
    EXPECT_EQ(decoded.dataBytes, 0u);
    if (cut < message.size())
      EXPECT_FALSE(decodeTensorMessage({{bytes, cut}}, decoded, error)) << cut;
  }
}

// Tests that a wrong wire type and a length past the end are refused,
// naming the field.
TEST(TensorCodingTest, RefusesMalformedFields) {
  std::string error;
  DecodedTensor decoded;
  auto decode = [&](const std::string &message) {
    return decodeTensorMessage(
        {{reinterpret_cast<const uint8_t *>(message.data()), message.size()}},
        decoded, error);
  };
  // Field 3 (the key) as a varint.
  EXPECT_FALSE(decode(std::string("\x18\x05", 2)));
  EXPECT_EQ(error, "field 3 has wire type 0, expected 2");
  // Data claiming a gigabyte.
  EXPECT_FALSE(decode(std::string("\x1a\x01k\x7a\x80\x80\x80\x80\x04", 9)));
  EXPECT_EQ(error, "data runs past the end of the message");
  // No key.
  EXPECT_FALSE(decode(std::string("\x7a\x00", 2)));
  EXPECT_EQ(error, "no rendezvous key");
  // A shared tensor (field 5) and data both.
  TensorHeader header{7, 3, "k", "s", SharedTensor{"h", 1, 2, 3, 4}};
  EXPECT_FALSE(decode(encodeTensorPrefix(header, 1) + "x"));
  EXPECT_EQ(error, "both data and a shared tensor");
  // A shared tensor without its process.
  EXPECT_FALSE(decode(std::string("\x1a\x01k\x2a\x02\x18\x02\x7a\x00", 10)));
  EXPECT_EQ(error, "shared tensor without its process and region");
  // Its token (field 4) as a varint.
  EXPECT_FALSE(decode(std::string("\x1a\x01k\x2a\x02\x20\x02\x7a\x00", 10)));
  EXPECT_EQ(error, "field 4 has wire type 0, expected 1");
  // Its pid past the end of the shared tensor.
  EXPECT_FALSE(decode(std::string("\x1a\x01k\x2a\x01\x10\x02\x7a\x00", 10)));
  EXPECT_EQ(error, "shared tensor field 2 runs past its end");
}

} // namespace
