//===- Control.h - the chief drives the steps, every task serves -*- C++ -*-===//
//
// The steps of a distributed job (white paper §3.2; TF_CONFIG's chief):
// the chief connects to every other task, agreeing on the job's
// incarnation, then for each step asks every task to run its partitions
// while it runs its own; the tensors between them go over the Transport.
// The chief checks that the tasks are alive and every task checks the
// chief (white paper §3.3: failures are detected by an error of an
// exchange or by periodic health checks), so that a lost task is named and
// nothing waits for it.
//
// Standard C++ and gRPC only (programs link it).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_CONTROL_H
#define TFC_DISTRIBUTED_CONTROL_H

#include "tfc/Distributed/Transport.h"
#include "tfc/Runtime/Trace.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tfc::distributed {

/// What the chief asks of a task's variables between steps (the job's
/// checkpoints, CheckpointManager.h).
struct CheckpointAction {
  enum Kind { Save, Restore } kind = Save;
  /// Save: write shard `shard` of the checkpoint of `step` in `dir`.
  std::string dir;
  int64_t step = 0;
  int shard = 0;
  /// Restore: the checkpoint to read.
  std::string prefix;
};

/// The control service a task serves (the chief's too, for the tasks'
/// checks): give service() to TransportOptions::services, then attach the
/// started transport.
class TaskControl {
public:
  /// What the task does for its clients' calls. Each client's calls run
  /// one at a time on a thread of the client's, in the order they came:
  /// the chief's steps and checkpoints on one, each between-graph
  /// worker's steps on another, at once.
  struct Handlers {
    /// Runs the task's partitions for a step (a step id, scopedStep's)
    /// and says how the step went.
    std::function<RendezvousStatus(int64_t step)> runStep;
    /// Saves or restores the task's variables.
    std::function<RendezvousStatus(const CheckpointAction &)> checkpoint;
    /// Starts the task's queue runners (on the chief's lane, after its
    /// calls before).
    std::function<RendezvousStatus()> startQueueRunners;
    /// Stops the task's chief queue runners (at once, beside the lanes).
    std::function<RendezvousStatus()> stopChiefQueueRunners;
    /// Between-graph replication, on a task that serves the workers:
    /// worker `client` is lost, `why`; `abandonClient` ends its step in
    /// progress here (at once, beside the lanes), and `forgetClient`, on
    /// the worker's lane once that step has ended, lets its next steps
    /// start from its first.
    std::function<void(int client, const std::string &why)> abandonClient;
    std::function<void(int client)> forgetClient;
  };
  explicit TaskControl(Handlers handlers);
  ~TaskControl();

  grpc::Service *service();
  /// The transport whose incarnation the chief's Connect sets.
  void attach(Transport &transport);

  /// Waits until the chief has connected; false when `timeout` passes.
  bool waitForChief(std::chrono::milliseconds timeout);
  /// Waits until the chief ends the job; false when `timeout` passes.
  bool waitForEnd(std::chrono::milliseconds timeout);

  /// The chief's side of between-graph replication: from now on, a Join
  /// of one of `workers` is answered with the job's incarnation (the
  /// variables are ready), and `joined` hears of it (on a gRPC thread).
  void openToWorkers(std::vector<TaskName> workers,
                     std::function<void(const TaskName &)> joined = nullptr);
  /// The workers that have joined, but those lost since.
  std::vector<TaskName> joinedWorkers();
  /// Those of them still running their steps.
  std::vector<TaskName> activeWorkers();
  /// What a worker said when its steps ended, or why it was lost.
  struct WorkerResult {
    TaskName worker;
    int exitStatus = 0;
    std::string message;
    bool lost = false;
  };
  /// Worker `worker` is lost (its health check failed), `why`: the job
  /// goes on without it, which counts as done, unless it joins again (a
  /// new process of it, which its Join is answered). A worker already done
  /// keeps what it said.
  void markLost(const TaskName &worker, const std::string &why);
  /// The workers that joined again while the chief still counted them as
  /// running (a restarted process, before its health check failed): each
  /// is to be marked lost, after which its Join is answered.
  std::vector<TaskName> takeRestarted();
  /// Whether every worker of openToWorkers has said that its steps ended,
  /// waiting for it up to `timeout`.
  bool waitForWorkersDone(std::chrono::milliseconds timeout);
  /// Waits until every worker of openToWorkers has said that its steps
  /// ended, and gives what each said; a worker that has not joined within
  /// `joinTimeout` is Unavailable, naming it.
  RendezvousStatus waitForWorkers(std::chrono::milliseconds joinTimeout,
                                  std::vector<WorkerResult> &results);

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

/// The chief's side: calls on the other tasks of the cluster.
class ClusterControl {
public:
  /// `tasks`: every task but the chief, in the order errors name them.
  ClusterControl(Transport &transport, std::vector<TaskName> tasks);
  ~ClusterControl();

  /// Connects every task, giving it the transport's incarnation; a task not
  /// up yet is waited for until `timeout`, and `say` gets one line for each
  /// task waited for ("waiting for /job:ps/replica:0/task:0 at HOST:PORT").
  /// Unavailable, naming the first missing task and its address, when
  /// time is up; InvalidArgument when a task serves another run.
  RendezvousStatus connect(std::chrono::milliseconds timeout,
                           const std::function<void(const std::string &)> &say);

  /// Asks every task to run step `step`, and returns at once.
  void startStep(int64_t step);
  /// Waits for every task's step: Ok, or the first task's failure
  /// (Unavailable when the task is lost), naming it. A task whose part
  /// found its input ended answers OutOfRange, which also ends the waits
  /// of this task's step (the transport is aborted with it).
  RendezvousStatus finishStep();

  /// Every task starts the queue runners whose entries are its own.
  RendezvousStatus startQueueRunners(std::chrono::milliseconds timeout);
  /// Every task stops its chief queue runners.
  RendezvousStatus stopChiefQueueRunners(std::chrono::milliseconds timeout);
  /// Every task abandons the step in progress of between-graph worker
  /// `client`, which is lost (`why`), and is ready for its next steps from
  /// its first; each within `timeout`.
  RendezvousStatus abandonClient(int client, const std::string &why,
                                 std::chrono::milliseconds timeout);

  /// Asks every task whether it is alive, each within `timeout`:
  /// Unavailable naming the first that is not.
  RendezvousStatus checkHealth(std::chrono::milliseconds timeout);

  /// Every task saves its variables as its shard of the checkpoint of
  /// `step` in `dir`, task i (in the constructor's order) shard
  /// `firstShard + i`; or restores them from `prefix`. Ok when all have,
  /// else the first task's failure, naming it.
  RendezvousStatus saveShards(const std::string &dir, int64_t step,
                              int firstShard);
  RendezvousStatus restore(const std::string &prefix);

  /// --trace: every task starts recording; at the end of the job each
  /// sends its events, each task's offset from this process's clock
  /// estimated (Trace.h). The first failure, naming its task, or Ok.
  RendezvousStatus startTrace(std::chrono::milliseconds timeout);
  RendezvousStatus collectTraces(std::chrono::milliseconds timeout,
                                 std::vector<trace::ProcessTrace> &out);

  /// Tells every task that the job is over (each then exits).
  void endJob(std::chrono::milliseconds timeout);

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

/// A task's check of another (a task's of the chief, the chief's of a
/// worker): Ok, or Unavailable naming it.
RendezvousStatus checkTask(Transport &transport, const TaskName &task,
                           std::chrono::milliseconds timeout);
/// Tells `task` that the job is over (a task that is gone already has
/// nothing to end).
void endTask(Transport &transport, const TaskName &task,
             std::chrono::milliseconds timeout);

/// The trace of `task` (a between-graph worker, which records one when the
/// chief does), as ClusterControl::collectTraces fetches each of its own.
RendezvousStatus collectTrace(Transport &transport, const TaskName &task,
                              std::chrono::milliseconds timeout,
                              trace::ProcessTrace &out);

/// A between-graph worker joins the chief's job: asks until the chief
/// answers that the variables are ready, and takes the job's incarnation
/// (and records a trace when the chief does).
/// Unavailable, naming the chief, when it does not answer within
/// `timeout`; `say` gets one line when the worker waits for the chief's
/// init.
RendezvousStatus joinJob(Transport &transport, const TaskName &chief,
                         std::chrono::milliseconds timeout,
                         const std::function<void(const std::string &)> &say);
/// A between-graph worker tells the chief that its steps ended, with its
/// exit status and what failed.
RendezvousStatus reportDone(Transport &transport, const TaskName &chief,
                            int exitStatus, const std::string &message,
                            std::chrono::milliseconds timeout);

} // namespace tfc::distributed

#endif // TFC_DISTRIBUTED_CONTROL_H
