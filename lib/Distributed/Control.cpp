//===- Control.cpp - the chief drives the steps, every task serves --------===//
//
// A task runs the chief's RunStep calls on a thread of its own (gRPC's
// callback threads must not block for a step) and answers each when its
// partitions are done. The chief's calls are asynchronous: startStep sends
// one RunStep per task, finishStep waits for their answers.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/Control.h"

#include "CallStatus.h"
#include "task_service.grpc.pb.h"
#include "tfc/Runtime/Trace.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace tfc::distributed {

using Status = RendezvousStatus;
using Code = RendezvousStatus::Code;

namespace {

/// "60 s", "0.5 s".
std::string secondsText(std::chrono::milliseconds duration) {
  char text[32];
  if (duration.count() % 1000 == 0)
    std::snprintf(text, sizeof text, "%lld s",
                  static_cast<long long>(duration.count() / 1000));
  else
    std::snprintf(text, sizeof text, "%.1f s", duration.count() / 1000.0);
  return text;
}

grpc::Status grpcStatusOf(const Status &status) {
  switch (status.getCode()) {
  case Code::Ok:
    return grpc::Status::OK;
  case Code::Aborted:
    return grpc::Status(grpc::StatusCode::ABORTED, status.getMessage());
  case Code::Unavailable:
  case Code::Abandoned:
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, status.getMessage());
  case Code::InvalidArgument:
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, status.getMessage());
  case Code::OutOfRange:
    return grpc::Status(grpc::StatusCode::OUT_OF_RANGE, status.getMessage());
  }
  return grpc::Status(grpc::StatusCode::UNKNOWN, status.getMessage());
}

} // namespace

//===----------------------------------------------------------------------===//
// A task's service
//===----------------------------------------------------------------------===//

struct TaskControl::Impl : public ControlService::CallbackService {
  Handlers handlers;
  Transport *transport = nullptr;

  std::mutex mutex;
  std::condition_variable changed;
  bool connected = false, ended = false, stopping = false;
  /// Each client's RunStep calls (client 0's Checkpoint calls too), run in
  /// order by a thread of the client's.
  struct Call {
    std::function<Status()> work;
    grpc::ServerUnaryReactor *reactor;
  };
  struct Lane {
    std::deque<Call> calls;
    std::thread thread;
  };
  std::map<int, Lane> lanes;

  /// The chief's: the between-graph workers (once the variables are
  /// ready), those that joined, what those done said or why they were
  /// lost, and those that joined again unnoticed.
  bool open = false;
  std::vector<TaskName> workers;
  std::function<void(const TaskName &)> onJoin;
  std::set<std::string> joined;
  std::map<std::string, WorkerResult> done;
  std::set<std::string> restarted;
  bool lost(const std::string &worker) {
    auto found = done.find(worker);
    return found != done.end() && found->second.lost;
  }

  /// Refuses a call of another run of the job.
  std::optional<grpc::Status> wrongRun(uint64_t incarnation) {
    uint64_t ours = transport ? transport->incarnation() : 0;
    if (incarnation == ours && ours != 0)
      return std::nullopt;
    std::string self = transport ? transport->task().str() : "this task";
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        self + " serves " +
                            (ours ? "another run of the job (incarnation " +
                                        std::to_string(ours) + ")"
                                  : std::string("no job yet")));
  }

  grpc::ServerUnaryReactor *finish(grpc::CallbackServerContext *context,
                                   const grpc::Status &status) {
    grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    reactor->Finish(status);
    return reactor;
  }

  grpc::ServerUnaryReactor *Connect(grpc::CallbackServerContext *context,
                                    const ConnectRequest *request,
                                    ConnectResponse *response) override {
    if (!transport)
      return finish(context, grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                          "the task is starting"));
    uint64_t ours = transport->incarnation();
    if (request->incarnation() == 0 ||
        (ours != 0 && ours != request->incarnation()))
      return finish(context, *wrongRun(request->incarnation()));
    transport->setIncarnation(request->incarnation());
    response->set_task(transport->task().str());
    {
      std::lock_guard<std::mutex> lock(mutex);
      connected = true;
    }
    changed.notify_all();
    return finish(context, grpc::Status::OK);
  }

  grpc::ServerUnaryReactor *RunStep(grpc::CallbackServerContext *context,
                                    const RunStepRequest *request,
                                    RunStepResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    int64_t step = request->step_id();
    return enqueue(context, clientOfStep(step),
                   [this, step] { return handlers.runStep(step); });
  }

  grpc::ServerUnaryReactor *Checkpoint(grpc::CallbackServerContext *context,
                                       const CheckpointRequest *request,
                                       CheckpointResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    CheckpointAction action;
    action.kind = request->action() == CheckpointRequest::RESTORE
                      ? CheckpointAction::Restore
                      : CheckpointAction::Save;
    action.dir = request->dir();
    action.step = request->step();
    action.shard = request->shard();
    action.prefix = request->prefix();
    return enqueue(context, 0,
                   [this, action] { return handlers.checkpoint(action); });
  }

  /// Runs `work` on the thread of `client`, after its calls before it;
  /// the call is answered with its status.
  grpc::ServerUnaryReactor *enqueue(grpc::CallbackServerContext *context,
                                    int client, std::function<Status()> work) {
    grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (stopping) {
        reactor->Finish(
            grpc::Status(grpc::StatusCode::ABORTED, "the task is stopping"));
        return reactor;
      }
      Lane &lane = lanes[client];
      lane.calls.push_back({std::move(work), reactor});
      if (!lane.thread.joinable())
        lane.thread = std::thread([this, client] { runCalls(client); });
    }
    changed.notify_all();
    return reactor;
  }

  grpc::ServerUnaryReactor *
  StartQueueRunners(grpc::CallbackServerContext *context,
                    const StartQueueRunnersRequest *request,
                    StartQueueRunnersResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    return enqueue(context, 0, [this] {
      return handlers.startQueueRunners ? handlers.startQueueRunners()
                                        : Status::ok();
    });
  }

  grpc::ServerUnaryReactor *
  StopChiefQueueRunners(grpc::CallbackServerContext *context,
                        const StopChiefQueueRunnersRequest *request,
                        StopChiefQueueRunnersResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    // Not on a lane: a step there may wait on a runner's queue until this
    // stop closes it.
    return finish(context, grpcStatusOf(handlers.stopChiefQueueRunners
                                            ? handlers.stopChiefQueueRunners()
                                            : Status::ok()));
  }

  grpc::ServerUnaryReactor *
  AbandonClient(grpc::CallbackServerContext *context,
                const AbandonClientRequest *request,
                AbandonClientResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    int client = request->client();
    if (client < 1 || !handlers.abandonClient || !handlers.forgetClient)
      return finish(context,
                    grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                 transport->task().str() +
                                     " serves no between-graph worker " +
                                     std::to_string(client)));
    // The step in progress ends now; the answer comes from the worker's
    // lane, after it (and any call of the lost worker queued behind it).
    handlers.abandonClient(client, request->why());
    return enqueue(context, client, [this, client] {
      handlers.forgetClient(client);
      return Status::ok();
    });
  }

  grpc::ServerUnaryReactor *Join(grpc::CallbackServerContext *context,
                                 const JoinRequest *request,
                                 JoinResponse *response) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (!open) {
      response->set_ready(false);
      return finish(context, grpc::Status::OK);
    }
    const TaskName *known = nullptr;
    for (const TaskName &worker : workers)
      if (worker.str() == request->from())
        known = &worker;
    if (!known)
      return finish(context,
                    grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                 request->from() +
                                     " is not a worker of this job's "
                                     "between-graph replication"));
    const std::string &from = request->from();
    if (joined.count(from) && !done.count(from)) {
      // A new process of a worker still counted as running: the old one's
      // step on the other tasks is abandoned first (the chief's watch
      // does it), then this Join, asked again, is answered.
      restarted.insert(from);
      response->set_ready(false);
      return finish(context, grpc::Status::OK);
    }
    bool again = lost(from);
    if (again)
      done.erase(from);
    if ((joined.insert(from).second || again) && onJoin)
      onJoin(*known);
    response->set_ready(true);
    response->set_incarnation(transport->incarnation());
    response->set_trace(trace::enabled());
    changed.notify_all();
    return finish(context, grpc::Status::OK);
  }

  grpc::ServerUnaryReactor *WorkerDone(grpc::CallbackServerContext *context,
                                       const WorkerDoneRequest *request,
                                       WorkerDoneResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!joined.count(request->from()) || lost(request->from()))
        return finish(context,
                      grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                   request->from() + " has not joined"));
      WorkerResult &result = done[request->from()];
      result.worker = *TaskName::ofDevice(request->from());
      result.exitStatus = request->exit_status();
      result.message = request->message();
    }
    changed.notify_all();
    return finish(context, grpc::Status::OK);
  }

  grpc::ServerUnaryReactor *StartTrace(grpc::CallbackServerContext *context,
                                       const StartTraceRequest *request,
                                       StartTraceResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    trace::enable();
    return finish(context, grpc::Status::OK);
  }

  grpc::ServerUnaryReactor *CollectTrace(grpc::CallbackServerContext *context,
                                         const CollectTraceRequest *request,
                                         CollectTraceResponse *response) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    response->set_clock_ns(trace::nowNs());
    if (request->events()) {
      trace::ProcessTrace own = trace::collect(transport->task().str());
      for (const std::string &thread : own.threads)
        response->add_threads(thread);
      response->set_dropped(own.dropped);
      for (const trace::Event &event : own.events) {
        TraceEvent *out = response->add_events();
        out->set_kind(event.kind == trace::Event::Kind::Slice
                          ? TraceEvent::SLICE
                      : event.kind == trace::Event::Kind::FlowStart
                          ? TraceEvent::FLOW_START
                          : TraceEvent::FLOW_END);
        out->set_thread(event.thread);
        out->set_start_ns(event.startNs);
        out->set_duration_ns(event.durationNs);
        out->set_name(event.name);
        out->set_op(event.op);
        out->set_members(event.members);
        out->set_flow(event.flow);
      }
    }
    return finish(context, grpc::Status::OK);
  }

  grpc::ServerUnaryReactor *Health(grpc::CallbackServerContext *context,
                                   const HealthRequest *request,
                                   HealthResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    // A send of this task that failed after its step went on.
    return finish(context, grpcStatusOf(transport->sendFailure()));
  }

  grpc::ServerUnaryReactor *EndJob(grpc::CallbackServerContext *context,
                                   const EndJobRequest *request,
                                   EndJobResponse *) override {
    if (std::optional<grpc::Status> refused = wrongRun(request->incarnation()))
      return finish(context, *refused);
    {
      std::lock_guard<std::mutex> lock(mutex);
      ended = true;
    }
    changed.notify_all();
    return finish(context, grpc::Status::OK);
  }

  void runCalls(int client) {
    std::unique_lock<std::mutex> lock(mutex);
    std::deque<Call> &calls = lanes[client].calls;
    while (true) {
      changed.wait(lock, [&] { return stopping || !calls.empty(); });
      if (stopping)
        break;
      Call call = calls.front();
      calls.pop_front();
      lock.unlock();
      call.reactor->Finish(grpcStatusOf(call.work()));
      lock.lock();
    }
    // Calls left unanswered at shutdown.
    for (const Call &call : calls)
      call.reactor->Finish(
          grpc::Status(grpc::StatusCode::ABORTED, "the task is stopping"));
    calls.clear();
  }
};

TaskControl::TaskControl(Handlers handlers) : impl(std::make_unique<Impl>()) {
  impl->handlers = std::move(handlers);
}

TaskControl::~TaskControl() {
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->stopping = true;
  }
  impl->changed.notify_all();
  // No lane is added once stopping is set.
  for (auto &[client, lane] : impl->lanes)
    lane.thread.join();
}

grpc::Service *TaskControl::service() { return impl.get(); }

void TaskControl::attach(Transport &transport) { impl->transport = &transport; }

bool TaskControl::waitForChief(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl->mutex);
  return impl->changed.wait_for(lock, timeout, [&] { return impl->connected; });
}

bool TaskControl::waitForEnd(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl->mutex);
  return impl->changed.wait_for(lock, timeout, [&] { return impl->ended; });
}

void TaskControl::openToWorkers(
    std::vector<TaskName> workers,
    std::function<void(const TaskName &)> joined) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->workers = std::move(workers);
  impl->onJoin = std::move(joined);
  impl->open = true;
}

std::vector<TaskName> TaskControl::joinedWorkers() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  std::vector<TaskName> result;
  for (const TaskName &worker : impl->workers)
    if (impl->joined.count(worker.str()) && !impl->lost(worker.str()))
      result.push_back(worker);
  return result;
}

std::vector<TaskName> TaskControl::activeWorkers() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  std::vector<TaskName> result;
  for (const TaskName &worker : impl->workers)
    if (impl->joined.count(worker.str()) && !impl->done.count(worker.str()))
      result.push_back(worker);
  return result;
}

void TaskControl::markLost(const TaskName &worker, const std::string &why) {
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->restarted.erase(worker.str());
    if (impl->done.count(worker.str()))
      return;
    WorkerResult &result = impl->done[worker.str()];
    result.worker = worker;
    result.exitStatus = TFC_EXIT_CLUSTER_FAILURE;
    result.message = why;
    result.lost = true;
  }
  impl->changed.notify_all();
}

std::vector<TaskName> TaskControl::takeRestarted() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  std::vector<TaskName> result;
  for (const TaskName &worker : impl->workers)
    if (impl->restarted.count(worker.str()))
      result.push_back(worker);
  return result;
}

bool TaskControl::waitForWorkersDone(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl->mutex);
  return impl->changed.wait_for(lock, timeout, [&] {
    return impl->open &&
           std::all_of(impl->workers.begin(), impl->workers.end(),
                       [&](const TaskName &w) { return impl->done.count(w.str()) > 0; });
  });
}

Status TaskControl::waitForWorkers(std::chrono::milliseconds joinTimeout,
                                   std::vector<WorkerResult> &results) {
  auto joinDeadline = std::chrono::steady_clock::now() + joinTimeout;
  std::unique_lock<std::mutex> lock(impl->mutex);
  auto allDone = [&] {
    for (const TaskName &worker : impl->workers)
      if (!impl->done.count(worker.str()))
        return false;
    return true;
  };
  auto allJoined = [&] {
    for (const TaskName &worker : impl->workers)
      if (!impl->joined.count(worker.str()))
        return false;
    return true;
  };
  // Joined workers are waited for as long as they run (the health checks
  // say when one is lost); one that never joins, until joinTimeout.
  if (!impl->changed.wait_until(lock, joinDeadline, allJoined))
    for (const TaskName &worker : impl->workers)
      if (!impl->joined.count(worker.str()))
        return Status::error(Code::Unavailable,
                             worker.str() + " did not join the job within " +
                                 secondsText(joinTimeout) +
                                 " of the chief's last step");
  impl->changed.wait(lock, allDone);
  results.clear();
  for (const TaskName &worker : impl->workers)
    results.push_back(impl->done[worker.str()]);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// The chief's side
//===----------------------------------------------------------------------===//

struct ClusterControl::Impl {
  Transport &transport;
  struct Peer {
    TaskName task;
    std::string address;
    std::unique_ptr<ControlService::Stub> stub;
    // The step in flight.
    std::unique_ptr<grpc::ClientContext> context;
    RunStepRequest request;
    RunStepResponse response;
    std::optional<grpc::Status> result;
  };
  std::vector<Peer> peers;
  std::mutex mutex;
  std::condition_variable answered;

  explicit Impl(Transport &transport) : transport(transport) {}
};

ClusterControl::ClusterControl(Transport &transport, std::vector<TaskName> tasks)
    : impl(std::make_unique<Impl>(transport)) {
  for (TaskName &task : tasks) {
    Impl::Peer peer;
    peer.task = std::move(task);
    std::shared_ptr<grpc::Channel> channel =
        transport.channelTo(peer.task, &peer.address);
    if (channel)
      peer.stub = ControlService::NewStub(channel);
    impl->peers.push_back(std::move(peer));
  }
}

ClusterControl::~ClusterControl() {
  // Answers still due arrive on gRPC's threads: cancel and wait for them.
  std::unique_lock<std::mutex> lock(impl->mutex);
  for (Impl::Peer &peer : impl->peers)
    if (peer.context && !peer.result)
      peer.context->TryCancel();
  impl->answered.wait(lock, [&] {
    for (Impl::Peer &peer : impl->peers)
      if (peer.context && !peer.result)
        return false;
    return true;
  });
}

Status ClusterControl::connect(std::chrono::milliseconds timeout,
                               const std::function<void(const std::string &)> &say) {
  auto deadline = std::chrono::system_clock::now() + timeout;
  for (Impl::Peer &peer : impl->peers) {
    if (!peer.stub)
      return Status::error(Code::InvalidArgument,
                           peer.task.str() + " has no address in the cluster");
    bool announced = false;
    std::string lastError;
    while (true) {
      grpc::ClientContext context;
      // A try fails at once while nothing listens (the wait is announced
      // once) or the connection is refused (its reason kept for the error
      // at the end); the channel reconnects within a second of the task
      // coming up, and the next try, a little later, goes through.
      context.set_deadline(std::min(
          deadline, std::chrono::system_clock::now() + std::chrono::seconds(1)));
      ConnectRequest request;
      request.set_incarnation(impl->transport.incarnation());
      request.set_from(impl->transport.task().str());
      ConnectResponse response;
      grpc::Status status = peer.stub->Connect(&context, request, &response);
      if (status.ok())
        break;
      bool retry = status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
                   status.error_code() == grpc::StatusCode::UNAVAILABLE;
      // What a task that listens but does not let us in says (a TLS
      // handshake refused, say), for the error at the end.
      if (status.error_code() == grpc::StatusCode::UNAVAILABLE &&
          status.error_message().find("Connection refused") == std::string::npos)
        lastError = status.error_message();
      if (!retry)
        return statusOfCall(status, peer.task, peer.address);
      if (std::chrono::system_clock::now() >= deadline)
        return Status::error(
            Code::Unavailable,
            peer.task.str() + " at " + peer.address +
                ": did not answer within " + secondsText(timeout) +
                (lastError.empty() ? "" : " (" + lastError + ")"));
      if (!announced && say)
        say("waiting for " + peer.task.str() + " at " + peer.address);
      announced = true;
      std::this_thread::sleep_until(std::min(
          deadline, std::chrono::system_clock::now() +
                        std::chrono::milliseconds(50)));
    }
  }
  return Status::ok();
}

void ClusterControl::startStep(int64_t step) {
  for (Impl::Peer &peer : impl->peers) {
    {
      std::lock_guard<std::mutex> lock(impl->mutex);
      peer.context = std::make_unique<grpc::ClientContext>();
      peer.result.reset();
      if (!peer.stub) {
        peer.result = grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                   "no address in the cluster");
        continue;
      }
    }
    peer.request.set_incarnation(impl->transport.incarnation());
    peer.request.set_step_id(step);
    Impl::Peer *at = &peer;
    int client = clientOfStep(step);
    peer.stub->async()->RunStep(
        peer.context.get(), &peer.request, &peer.response,
        [this, at, client](grpc::Status status) {
          // The task's part of the step ended without its sends (its input
          // ended, it failed, or it was never reached): so does this
          // task's step, whose receives would wait for them forever.
          if (!status.ok())
            impl->transport.abort(client,
                                  statusOfCall(status, at->task, at->address));
          std::lock_guard<std::mutex> lock(impl->mutex);
          at->result = status;
          impl->answered.notify_all();
        });
  }
}

Status ClusterControl::finishStep() {
  std::unique_lock<std::mutex> lock(impl->mutex);
  Status first = Status::ok();
  for (Impl::Peer &peer : impl->peers) {
    if (!peer.context)
      continue;
    impl->answered.wait(lock, [&] { return peer.result.has_value(); });
    if (first.isOk() && !peer.result->ok())
      first = statusOfCall(*peer.result, peer.task, peer.address);
  }
  return first;
}

namespace {

/// A unary call of `stub`'s `method` within `timeout`, its request
/// carrying the job's incarnation.
template <typename Request, typename Response>
grpc::Status callWithin(grpc::Status (ControlService::Stub::*method)(
                            grpc::ClientContext *, const Request &, Response *),
                        ControlService::Stub *stub, uint64_t incarnation,
                        std::chrono::milliseconds timeout) {
  if (!stub)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "no address in the cluster");
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + timeout);
  Request request;
  request.set_incarnation(incarnation);
  Response response;
  return (stub->*method)(&context, request, &response);
}

/// Calls `method` on every peer in turn, each within `timeout`: the first
/// failure, naming its task, or Ok.
template <typename Peers, typename Request, typename Response>
Status callEveryPeer(Peers &peers, uint64_t incarnation,
                     grpc::Status (ControlService::Stub::*method)(
                         grpc::ClientContext *, const Request &, Response *),
                     std::chrono::milliseconds timeout) {
  for (auto &peer : peers) {
    Status status = statusOfCall(
        callWithin(method, peer.stub.get(), incarnation, timeout), peer.task,
        peer.address);
    if (!status.isOk())
      return status;
  }
  return Status::ok();
}

} // namespace

Status ClusterControl::startQueueRunners(std::chrono::milliseconds timeout) {
  return callEveryPeer(impl->peers, impl->transport.incarnation(),
                       &ControlService::Stub::StartQueueRunners, timeout);
}

Status ClusterControl::stopChiefQueueRunners(std::chrono::milliseconds timeout) {
  return callEveryPeer(impl->peers, impl->transport.incarnation(),
                       &ControlService::Stub::StopChiefQueueRunners, timeout);
}

Status ClusterControl::abandonClient(int client, const std::string &why,
                                     std::chrono::milliseconds timeout) {
  for (Impl::Peer &peer : impl->peers) {
    if (!peer.stub)
      continue;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    AbandonClientRequest request;
    request.set_incarnation(impl->transport.incarnation());
    request.set_client(client);
    request.set_why(why);
    AbandonClientResponse response;
    Status status = statusOfCall(
        peer.stub->AbandonClient(&context, request, &response), peer.task,
        peer.address);
    if (!status.isOk())
      return status;
  }
  return Status::ok();
}

Status ClusterControl::checkHealth(std::chrono::milliseconds timeout) {
  return callEveryPeer(impl->peers, impl->transport.incarnation(),
                       &ControlService::Stub::Health, timeout);
}

namespace {

/// Calls Checkpoint on every peer at once with the request `fill` makes
/// for each, and waits for all the answers: the first failure, naming its
/// task, or Ok.
template <typename Peers>
Status checkpointEveryPeer(
    Peers &peers, uint64_t incarnation,
    const std::function<void(size_t, CheckpointRequest &)> &fill) {
  struct Call {
    grpc::ClientContext context;
    CheckpointRequest request;
    CheckpointResponse response;
    std::optional<grpc::Status> result;
  };
  std::vector<std::unique_ptr<Call>> calls;
  std::mutex mutex;
  std::condition_variable answered;
  for (size_t i = 0; i < peers.size(); ++i) {
    calls.push_back(std::make_unique<Call>());
    Call *call = calls.back().get();
    if (!peers[i].stub) {
      call->result = grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                  "no address in the cluster");
      continue;
    }
    call->request.set_incarnation(incarnation);
    fill(i, call->request);
    peers[i].stub->async()->Checkpoint(
        &call->context, &call->request, &call->response,
        [&, call](grpc::Status status) {
          std::lock_guard<std::mutex> lock(mutex);
          call->result = status;
          answered.notify_all();
        });
  }
  std::unique_lock<std::mutex> lock(mutex);
  Status first = Status::ok();
  for (size_t i = 0; i < peers.size(); ++i) {
    answered.wait(lock, [&] { return calls[i]->result.has_value(); });
    if (first.isOk() && !calls[i]->result->ok())
      first = statusOfCall(*calls[i]->result, peers[i].task, peers[i].address);
  }
  return first;
}

} // namespace

Status ClusterControl::saveShards(const std::string &dir, int64_t step,
                                  int firstShard) {
  return checkpointEveryPeer(
      impl->peers, impl->transport.incarnation(),
      [&](size_t i, CheckpointRequest &request) {
        request.set_action(CheckpointRequest::SAVE);
        request.set_dir(dir);
        request.set_step(step);
        request.set_shard(firstShard + int(i));
      });
}

Status ClusterControl::restore(const std::string &prefix) {
  return checkpointEveryPeer(impl->peers, impl->transport.incarnation(),
                             [&](size_t, CheckpointRequest &request) {
                               request.set_action(CheckpointRequest::RESTORE);
                               request.set_prefix(prefix);
                             });
}

Status ClusterControl::startTrace(std::chrono::milliseconds timeout) {
  return callEveryPeer(impl->peers, impl->transport.incarnation(),
                       &ControlService::Stub::StartTrace, timeout);
}

namespace {

/// Fetches `task`'s trace through `stub`: first its clock, read a few
/// times, the offset taken from the quickest round trip (the task read its
/// clock about halfway through it, within half the trip); then its events.
Status fetchTrace(ControlService::Stub *stub, uint64_t incarnation,
                  const TaskName &task, const std::string &address,
                  std::chrono::milliseconds timeout,
                  trace::ProcessTrace &out) {
  if (!stub)
    return Status::error(Code::InvalidArgument,
                         task.str() + " has no address in the cluster");
  auto call = [&](bool events, CollectTraceResponse &response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    CollectTraceRequest request;
    request.set_incarnation(incarnation);
    request.set_events(events);
    return statusOfCall(stub->CollectTrace(&context, request, &response), task,
                        address);
  };
  constexpr int kProbes = 8;
  int64_t bestTrip = -1;
  for (int probe = 0; probe < kProbes; ++probe) {
    CollectTraceResponse response;
    int64_t sent = trace::nowNs();
    Status status = call(false, response);
    int64_t answered = trace::nowNs();
    if (!status.isOk())
      return status;
    if (bestTrip < 0 || answered - sent < bestTrip) {
      bestTrip = answered - sent;
      out.offsetNs = sent + bestTrip / 2 - response.clock_ns();
    }
  }
  CollectTraceResponse response;
  if (Status status = call(true, response); !status.isOk())
    return status;
  out.name = task.str();
  out.threads.assign(response.threads().begin(), response.threads().end());
  out.dropped = response.dropped();
  for (const TraceEvent &in : response.events()) {
    trace::Event event;
    event.kind = in.kind() == TraceEvent::FLOW_START ? trace::Event::Kind::FlowStart
                 : in.kind() == TraceEvent::FLOW_END ? trace::Event::Kind::FlowEnd
                                                     : trace::Event::Kind::Slice;
    if (in.thread() >= out.threads.size())
      return Status::error(Code::InvalidArgument,
                           task.str() + " sent a trace event of thread " +
                               std::to_string(in.thread()) + " of " +
                               std::to_string(out.threads.size()));
    event.thread = in.thread();
    event.startNs = in.start_ns();
    event.durationNs = in.duration_ns();
    event.name = in.name();
    event.op = in.op();
    event.members = in.members();
    event.flow = in.flow();
    out.events.push_back(std::move(event));
  }
  out.offsetWithinNs = bestTrip / 2;
  return Status::ok();
}

} // namespace

Status ClusterControl::collectTraces(std::chrono::milliseconds timeout,
                                     std::vector<trace::ProcessTrace> &out) {
  for (Impl::Peer &peer : impl->peers) {
    trace::ProcessTrace process;
    Status status = fetchTrace(peer.stub.get(), impl->transport.incarnation(),
                               peer.task, peer.address, timeout, process);
    if (!status.isOk())
      return status;
    out.push_back(std::move(process));
  }
  return Status::ok();
}

void ClusterControl::endJob(std::chrono::milliseconds timeout) {
  // A task that is gone already has nothing to end.
  for (Impl::Peer &peer : impl->peers)
    (void)callWithin(&ControlService::Stub::EndJob, peer.stub.get(),
                     impl->transport.incarnation(), timeout);
}

Status checkTask(Transport &transport, const TaskName &task,
                 std::chrono::milliseconds timeout) {
  std::string address;
  std::shared_ptr<grpc::Channel> channel = transport.channelTo(task, &address);
  if (!channel)
    return Status::error(Code::InvalidArgument,
                         task.str() + " has no address in the cluster");
  return statusOfCall(callWithin(&ControlService::Stub::Health,
                                 ControlService::NewStub(channel).get(),
                                 transport.incarnation(), timeout),
                      task, address);
}

void endTask(Transport &transport, const TaskName &task,
             std::chrono::milliseconds timeout) {
  if (std::shared_ptr<grpc::Channel> channel = transport.channelTo(task))
    (void)callWithin(&ControlService::Stub::EndJob,
                     ControlService::NewStub(channel).get(),
                     transport.incarnation(), timeout);
}

Status collectTrace(Transport &transport, const TaskName &task,
                    std::chrono::milliseconds timeout,
                    trace::ProcessTrace &out) {
  std::string address;
  std::shared_ptr<grpc::Channel> channel = transport.channelTo(task, &address);
  std::unique_ptr<ControlService::Stub> stub =
      channel ? ControlService::NewStub(channel) : nullptr;
  return fetchTrace(stub.get(), transport.incarnation(), task, address, timeout,
                    out);
}

Status joinJob(Transport &transport, const TaskName &chief,
               std::chrono::milliseconds timeout,
               const std::function<void(const std::string &)> &say) {
  std::string address;
  std::shared_ptr<grpc::Channel> channel = transport.channelTo(chief, &address);
  if (!channel)
    return Status::error(Code::InvalidArgument,
                         "the chief " + chief.str() + " has no address");
  std::unique_ptr<ControlService::Stub> stub = ControlService::NewStub(channel);
  auto deadline = std::chrono::system_clock::now() + timeout;
  bool announced = false;
  while (true) {
    grpc::ClientContext context;
    context.set_deadline(std::min(
        deadline, std::chrono::system_clock::now() + std::chrono::seconds(1)));
    JoinRequest request;
    request.set_from(transport.task().str());
    JoinResponse response;
    grpc::Status status = stub->Join(&context, request, &response);
    if (status.ok() && response.ready()) {
      transport.setIncarnation(response.incarnation());
      if (response.trace())
        trace::enable();
      return Status::ok();
    }
    bool retry = status.ok() ||
                 status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
                 status.error_code() == grpc::StatusCode::UNAVAILABLE;
    if (!retry)
      return statusOfCall(status, chief, address);
    // A chief that answers is waited for as long as its init takes.
    if (status.ok()) {
      deadline = std::chrono::system_clock::now() + timeout;
      if (!announced && say)
        say("waiting for the chief " + chief.str() +
            " to initialize the variables");
      announced = true;
    } else if (std::chrono::system_clock::now() >= deadline) {
      return Status::error(Code::Unavailable,
                           "the chief " + chief.str() + " at " + address +
                               ": did not answer within " +
                               secondsText(timeout));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

Status reportDone(Transport &transport, const TaskName &chief, int exitStatus,
                  const std::string &message,
                  std::chrono::milliseconds timeout) {
  std::string address;
  std::shared_ptr<grpc::Channel> channel = transport.channelTo(chief, &address);
  if (!channel)
    return Status::error(Code::InvalidArgument,
                         "the chief " + chief.str() + " has no address");
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + timeout);
  WorkerDoneRequest request;
  request.set_incarnation(transport.incarnation());
  request.set_from(transport.task().str());
  request.set_exit_status(exitStatus);
  request.set_message(message);
  WorkerDoneResponse response;
  return statusOfCall(
      ControlService::NewStub(channel)->WorkerDone(&context, request, &response),
      chief, address);
}

} // namespace tfc::distributed
