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
#include <thread>

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
       std::function<RendezvousStatus(int64_t)> runStep, int port = 0) {
    control = std::make_unique<TaskControl>(
        std::move(runStep), [](const CheckpointAction &) {
          return RendezvousStatus::error(RendezvousStatus::Code::InvalidArgument,
                                         "no checkpoints here");
        });
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
