//===- ControlTest.cpp - the chief drives steps over gRPC, on loopback ----===//
//
// A chief and a ps, each with a transport and a control service on a free
// port of 127.0.0.1 (real sockets): the chief connects (waiting for a ps
// that comes up late), runs steps in which the ps sends it a tensor, and
// ends the job; a ps that never comes, one of another run, one that is
// lost and one whose step fails are each named in one status.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/Control.h"

#include "gtest/gtest.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

using namespace tfc;
using namespace tfc::distributed;
using Code = RendezvousStatus::Code;
using namespace std::chrono_literals;

namespace {

const TaskName kChief{"chief", 0}, kPs{"ps", 0};

std::string keyOf(const TaskName &from, const TaskName &to) {
  return from.str() + "/device:CPU:0;0000000000000001;" + to.str() +
         "/device:CPU:0;value;0:0";
}

/// A task: its control service and its transport on a free port.
struct Task {
  std::unique_ptr<TaskControl> control;
  std::unique_ptr<Transport> transport;
  std::unique_ptr<tfc_rendezvous> rendezvous;

  Task(const TaskName &name, uint64_t incarnation,
       std::function<RendezvousStatus(int64_t)> runStep, int port = 0,
       TaskControl::Handlers handlers = {}) {
    handlers.runStep = std::move(runStep);
    handlers.checkpoint = [](const CheckpointAction &) {
      return RendezvousStatus::error(RendezvousStatus::Code::InvalidArgument,
                                     "no checkpoints here");
    };
    control = std::make_unique<TaskControl>(std::move(handlers));
    TransportOptions options;
    options.task = name;
    options.incarnation = incarnation;
    options.bind = "127.0.0.1:" + std::to_string(port);
    options.services = {control->service()};
    std::string error;
    transport = Transport::start(options, error);
    EXPECT_TRUE(transport) << error;
    control->attach(*transport);
    rendezvous = transport->makeRendezvous();
  }
  std::string address() const {
    return "127.0.0.1:" + std::to_string(transport->port());
  }
};

/// A port nothing listens on (it was free a moment ago).
int freePort() {
  Task probe({"probe", 0}, 1, [](int64_t) { return RendezvousStatus::ok(); });
  return probe.transport->port();
}

// Tests a job's life: the chief connects the ps (its incarnation becomes
// the ps's), runs two steps in which the ps's partition sends the chief a
// tensor, checks the ps's health, and ends the job.
TEST(ControlTest, ChiefDrivesTheSteps) {
  std::unique_ptr<Task> psTask;
  std::atomic<int> stepsRun{0};
  psTask = std::make_unique<Task>(kPs, 0, [&](int64_t step) {
    psTask->transport->beginStep(step);
    int64_t value = 100 + step;
    RendezvousStatus status =
        psTask->rendezvous->send(keyOf(kPs, kChief).c_str(), &value, 8);
    psTask->rendezvous->reset();
    ++stepsRun;
    return status;
  });
  Task chief(kChief, 0x5eed, [](int64_t) { return RendezvousStatus::ok(); });
  chief.transport->setAddress(kPs, psTask->address());
  psTask->transport->setAddress(kChief, chief.address());
  ClusterControl cluster(*chief.transport, {kPs});
  RendezvousStatus status = cluster.connect(10s, nullptr);
  ASSERT_TRUE(status.isOk()) << status.getMessage();
  EXPECT_TRUE(psTask->control->waitForChief(1s));
  EXPECT_EQ(psTask->transport->incarnation(), 0x5eedu);
  for (int64_t step = 0; step < 2; ++step) {
    chief.transport->beginStep(step);
    cluster.startStep(step);
    int64_t got = 0;
    status = chief.rendezvous->recv(keyOf(kPs, kChief).c_str(), &got, 8);
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    EXPECT_EQ(got, 100 + step);
    status = cluster.finishStep();
    ASSERT_TRUE(status.isOk()) << status.getMessage();
    chief.rendezvous->reset();
  }
  EXPECT_EQ(stepsRun, 2);
  EXPECT_TRUE(cluster.checkHealth(5s).isOk());
  EXPECT_TRUE(checkTask(*psTask->transport, kChief, 5s).isOk());
  cluster.endJob(5s);
  EXPECT_TRUE(psTask->control->waitForEnd(1s));
}

// Tests that the chief waits for a task that comes up after it, saying
// once whom it waits for.
TEST(ControlTest, ConnectWaitsForALateTask) {
  int port = freePort();
  Task chief(kChief, 3, [](int64_t) { return RendezvousStatus::ok(); });
  chief.transport->setAddress(kPs, "127.0.0.1:" + std::to_string(port));
  ClusterControl cluster(*chief.transport, {kPs});
  std::unique_ptr<Task> late;
  std::thread starter([&] {
    std::this_thread::sleep_for(1500ms);
    late = std::make_unique<Task>(kPs, 0, [](int64_t) { return RendezvousStatus::ok(); },
                                  port);
  });
  std::vector<std::string> lines;
  RendezvousStatus status =
      cluster.connect(20s, [&](const std::string &line) { lines.push_back(line); });
  starter.join();
  EXPECT_TRUE(status.isOk()) << status.getMessage();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "waiting for /job:ps/replica:0/task:0 at 127.0.0.1:" +
                          std::to_string(port));
}

// Tests that a task that never comes fails the connect when time is up,
// naming it and its address.
TEST(ControlTest, ConnectTimesOutNamingTheTask) {
  int port = freePort();
  Task chief(kChief, 3, [](int64_t) { return RendezvousStatus::ok(); });
  std::string address = "127.0.0.1:" + std::to_string(port);
  chief.transport->setAddress(kPs, address);
  ClusterControl cluster(*chief.transport, {kPs});
  auto begin = std::chrono::steady_clock::now();
  RendezvousStatus status = cluster.connect(1500ms, nullptr);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 10s);
  EXPECT_EQ(status.getCode(), Code::Unavailable);
  EXPECT_EQ(status.getMessage(), "/job:ps/replica:0/task:0 at " + address +
                                     ": did not answer within 1.5 s");
}

// Tests that a task serving another run of the job refuses a chief.
TEST(ControlTest, TaskOfAnotherRunRefusesTheChief) {
  Task ps(kPs, 0, [](int64_t) { return RendezvousStatus::ok(); });
  Task first(kChief, 1, [](int64_t) { return RendezvousStatus::ok(); });
  first.transport->setAddress(kPs, ps.address());
  ClusterControl firstCluster(*first.transport, {kPs});
  ASSERT_TRUE(firstCluster.connect(10s, nullptr).isOk());
  Task second(kChief, 2, [](int64_t) { return RendezvousStatus::ok(); });
  second.transport->setAddress(kPs, ps.address());
  ClusterControl secondCluster(*second.transport, {kPs});
  RendezvousStatus status = secondCluster.connect(10s, nullptr);
  EXPECT_EQ(status.getCode(), Code::InvalidArgument);
  EXPECT_NE(status.getMessage().find("serves another run of the job (incarnation 1)"),
            std::string::npos)
      << status.getMessage();
}

// Tests that a failed step of a task, and a task that is lost, come back
// to the chief naming the task.
TEST(ControlTest, FailuresNameTheTask) {
  auto ps = std::make_unique<Task>(kPs, 0, [](int64_t) {
    return RendezvousStatus::error(Code::Unavailable, "its peer is lost");
  });
  Task chief(kChief, 9, [](int64_t) { return RendezvousStatus::ok(); });
  std::string address = ps->address();
  chief.transport->setAddress(kPs, address);
  ClusterControl cluster(*chief.transport, {kPs});
  ASSERT_TRUE(cluster.connect(10s, nullptr).isOk());
  cluster.startStep(0);
  RendezvousStatus status = cluster.finishStep();
  EXPECT_EQ(status.getCode(), Code::Unavailable);
  EXPECT_EQ(status.getMessage(),
            "/job:ps/replica:0/task:0 at " + address + ": its peer is lost");
  ps.reset(); // The ps is gone.
  status = cluster.checkHealth(2s);
  EXPECT_EQ(status.getCode(), Code::Unavailable);
  EXPECT_NE(status.getMessage().find("/job:ps/replica:0/task:0 at " + address),
            std::string::npos)
      << status.getMessage();
}

} // namespace

// Tests between-graph replication's calls to the chief: a worker's Join
// waits until the chief opens the job to the workers, then takes the job's
// incarnation; until each worker has said that its steps are done,
// waitForWorkersDone says not yet. A task that is not one of the workers
// is refused, named.
TEST(ControlTest, WorkersJoinAndSayWhenTheyAreDone) {
  const TaskName kWorker{"worker", 1};
  Task chief({"worker", 0}, 0x5eed, [](int64_t) { return RendezvousStatus::ok(); });
  Task worker(kWorker, 0, [](int64_t) { return RendezvousStatus::ok(); });
  Task stranger(kPs, 0, [](int64_t) { return RendezvousStatus::ok(); });
  const TaskName kChiefWorker{"worker", 0};
  worker.transport->setAddress(kChiefWorker, chief.address());
  stranger.transport->setAddress(kChiefWorker, chief.address());

  std::atomic<bool> joined{false};
  std::thread joining([&] {
    RendezvousStatus status =
        joinJob(*worker.transport, kChiefWorker, 10s, nullptr);
    EXPECT_TRUE(status.isOk()) << status.getMessage();
    joined = true;
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(joined);
  chief.control->openToWorkers({kWorker});
  joining.join();
  EXPECT_EQ(worker.transport->incarnation(), 0x5eedu);
  EXPECT_EQ(chief.control->joinedWorkers().size(), 1u);
  EXPECT_FALSE(chief.control->waitForWorkersDone(50ms));
  RendezvousStatus status =
      reportDone(*worker.transport, kChiefWorker, 0, "", 5s);
  ASSERT_TRUE(status.isOk()) << status.getMessage();
  EXPECT_TRUE(chief.control->waitForWorkersDone(1s));

  status = joinJob(*stranger.transport, kChiefWorker, 5s, nullptr);
  EXPECT_EQ(status.getCode(), Code::InvalidArgument);
  EXPECT_NE(status.getMessage().find(
                "/job:ps/replica:0/task:0 is not a worker of this job's "
                "between-graph replication"),
            std::string::npos)
      << status.getMessage();
}

// Tests the chief's account of a lost between-graph worker: it counts as
// done (lost, status 138, with the reason) so that the job's end does not
// wait for it, and is no longer among the joined; a new process of it
// joins again and is waited for. A Join of a worker still counted as
// running (a restart the health checks have not seen) is not answered
// until the chief has marked the old one lost.
TEST(ControlTest, ALostWorkerCountsAsDoneAndMayJoinAgain) {
  const TaskName kChiefWorker{"worker", 0}, kWorker{"worker", 1};
  Task chief(kChiefWorker, 0x5eed, [](int64_t) { return RendezvousStatus::ok(); });
  Task worker(kWorker, 0, [](int64_t) { return RendezvousStatus::ok(); });
  worker.transport->setAddress(kChiefWorker, chief.address());
  chief.control->openToWorkers({kWorker});
  ASSERT_TRUE(joinJob(*worker.transport, kChiefWorker, 5s, nullptr).isOk());
  EXPECT_EQ(chief.control->activeWorkers().size(), 1u);
  EXPECT_FALSE(chief.control->waitForWorkersDone(50ms));

  // A second process of worker 1 asks to join: it waits for the chief.
  Task restarted(kWorker, 0, [](int64_t) { return RendezvousStatus::ok(); });
  restarted.transport->setAddress(kChiefWorker, chief.address());
  std::atomic<bool> joinedAgain{false};
  std::thread joining([&] {
    RendezvousStatus status =
        joinJob(*restarted.transport, kChiefWorker, 10s, nullptr);
    EXPECT_TRUE(status.isOk()) << status.getMessage();
    joinedAgain = true;
  });
  std::vector<TaskName> seen;
  for (int i = 0; i < 100 && seen.empty(); ++i) {
    std::this_thread::sleep_for(20ms);
    seen = chief.control->takeRestarted();
  }
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], kWorker);
  EXPECT_FALSE(joinedAgain);

  chief.control->markLost(kWorker, "lost /job:worker/replica:0/task:1 (test)");
  EXPECT_TRUE(chief.control->takeRestarted().empty());
  std::vector<TaskControl::WorkerResult> results;
  // Lost and not yet joined again: done, as far as the job's end goes.
  bool doneWhileLost = chief.control->waitForWorkersDone(5s);
  joining.join();
  EXPECT_TRUE(joinedAgain);
  EXPECT_TRUE(doneWhileLost || chief.control->activeWorkers().size() == 1u);
  // Joined again: running, and waited for until it reports.
  EXPECT_EQ(chief.control->activeWorkers().size(), 1u);
  EXPECT_FALSE(chief.control->waitForWorkersDone(50ms));
  RendezvousStatus status =
      reportDone(*restarted.transport, kChiefWorker, 0, "", 5s);
  ASSERT_TRUE(status.isOk()) << status.getMessage();
  ASSERT_TRUE(chief.control->waitForWorkers(1s, results).isOk());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].lost);
  EXPECT_EQ(results[0].exitStatus, 0);

  // Lost after its steps were done: what it said stands.
  chief.control->markLost(kWorker, "lost after the end");
  ASSERT_TRUE(chief.control->waitForWorkers(1s, results).isOk());
  EXPECT_FALSE(results[0].lost);
}

// Tests that a worker lost before it reported is a lost result, with the
// reason and status 138.
TEST(ControlTest, ALostWorkersResultSaysWhy) {
  const TaskName kChiefWorker{"worker", 0}, kWorker{"worker", 1};
  Task chief(kChiefWorker, 0x5eed, [](int64_t) { return RendezvousStatus::ok(); });
  Task worker(kWorker, 0, [](int64_t) { return RendezvousStatus::ok(); });
  worker.transport->setAddress(kChiefWorker, chief.address());
  chief.control->openToWorkers({kWorker});
  ASSERT_TRUE(joinJob(*worker.transport, kChiefWorker, 5s, nullptr).isOk());
  chief.control->markLost(kWorker, "lost /job:worker/replica:0/task:1 (test)");
  EXPECT_TRUE(chief.control->activeWorkers().empty());
  EXPECT_TRUE(chief.control->joinedWorkers().empty());
  std::vector<TaskControl::WorkerResult> results;
  ASSERT_TRUE(chief.control->waitForWorkers(1s, results).isOk());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].lost);
  EXPECT_EQ(results[0].exitStatus, TFC_EXIT_CLUSTER_FAILURE);
  EXPECT_EQ(results[0].message, "lost /job:worker/replica:0/task:1 (test)");
  // A lost worker's late report is refused.
  RendezvousStatus late = reportDone(*worker.transport, kChiefWorker, 0, "", 5s);
  EXPECT_EQ(late.getCode(), Code::InvalidArgument);
}

// Tests AbandonClient: the ps abandons the lost worker's step at once (its
// step, blocked until then, ends), and answers once that step has ended
// and it has forgotten the worker, in that order; a client that is no
// between-graph worker is refused, naming the task.
TEST(ControlTest, AbandonClientEndsTheStepThenAnswers) {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::string> events;
  bool abandoned = false;
  TaskControl::Handlers handlers;
  handlers.abandonClient = [&](int client, const std::string &why) {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back("abandon " + std::to_string(client) + ": " + why);
    abandoned = true;
    changed.notify_all();
  };
  handlers.forgetClient = [&](int client) {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back("forget " + std::to_string(client));
  };
  Task ps(kPs, 0, [&](int64_t step) {
    std::unique_lock<std::mutex> lock(mutex);
    // Worker 1's step waits for a tensor of the worker, which is lost.
    if (clientOfStep(step) == 1 && !changed.wait_for(lock, 10s, [&] {
          return abandoned;
        }))
      return RendezvousStatus::error(Code::InvalidArgument, "never abandoned");
    events.push_back("step " + std::to_string(clientOfStep(step)) + " ended");
    return RendezvousStatus::ok();
  }, 0, handlers);
  Task chief({"worker", 0}, 0x5eed, [](int64_t) { return RendezvousStatus::ok(); });
  chief.transport->setAddress(kPs, ps.address());
  ClusterControl cluster(*chief.transport, {kPs});
  ASSERT_TRUE(cluster.connect(10s, nullptr).isOk());
  // Worker 1's step, as the worker's own ClusterControl starts it.
  Task worker1({"worker", 1}, 0x5eed, [](int64_t) { return RendezvousStatus::ok(); });
  worker1.transport->setAddress(kPs, ps.address());
  ClusterControl fromWorker(*worker1.transport, {kPs});
  fromWorker.startStep(scopedStep(1, 0));
  std::this_thread::sleep_for(50ms);
  RendezvousStatus status = cluster.abandonClient(1, "lost worker 1 (test)", 10s);
  ASSERT_TRUE(status.isOk()) << status.getMessage();
  EXPECT_TRUE(fromWorker.finishStep().isOk());
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::string> expected = {"abandon 1: lost worker 1 (test)",
                                       "step 1 ended", "forget 1"};
  EXPECT_EQ(events, expected);

  status = cluster.abandonClient(0, "the chief", 5s);
  EXPECT_EQ(status.getCode(), Code::InvalidArgument);
  EXPECT_NE(status.getMessage().find("serves no between-graph worker 0"),
            std::string::npos)
      << status.getMessage();
}

