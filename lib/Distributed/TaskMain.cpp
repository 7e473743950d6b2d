//===- TaskMain.cpp - the main of a cluster task's executable -------------===//
//
// `tfc compile --cluster` writes one executable per task, each linking this
// main against its partitions (tfc_compiled_model) and its identity
// (tfc_task_job, tfc_task_index, and the cluster it was compiled for,
// tfc_cluster_spec):
//
//   TASK [--cluster SPEC] [--bind HOST:PORT] [--connect-timeout SECONDS]
//        [--health-interval SECONDS] [--health-timeout SECONDS]
//        [--tls-cert PEM --tls-key PEM --tls-ca PEM]
//        [--shared-memory on|off] [--transfer-stats]
//        [program flags: the chief's]
//
// The cluster is --cluster's (the compiler's three forms), else TF_CONFIG's
// (whose task, if it names one, must be this executable's), else the
// compiled one. The chief (TF_CONFIG's rule) draws the job's incarnation,
// connects every other task (waiting for those not up yet, up to
// --connect-timeout, default 60 s), then runs the program as a program
// runs (ProgramDriver.h: its flags, inputs and outputs are the chief's),
// every step on every task at once, and ends the job. The other tasks
// serve: each step the chief asks for, until the chief ends the job (exit
// 0). Each side checks the other every --health-interval (default 1 s,
// within --health-timeout, default 5 s); a lost task or chief is named in
// one line and ends the process with status 138 (TFC_EXIT_CLUSTER_FAILURE:
// restartable). Tensors over 64 KiB to a task on the same host go through
// shared memory unless --shared-memory is off; --transfer-stats prints, as
// the task ends, what it sent and how.
//
// Between-graph replication (tfc_between_graph): each worker is a client
// of its own, as in TensorFlow. The chief (worker 0) connects the other
// tasks that are not workers (the ps tasks), runs the init entry or a
// restore, and runs its own steps; every other worker joins it (waiting
// until the variables are ready), runs its own steps with its own program
// flags, says when they are done, and waits for the end of the job. A ps
// runs the ps's part of each worker's steps as they come, on a thread and
// with a runtime and arena of that worker's, at once. The chief ends the
// job once every worker is done, and then writes its last checkpoint.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/ClusterSpec.h"
#include "tfc/Distributed/Control.h"
#include "tfc/Distributed/Transport.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/CheckpointManager.h"
#include "tfc/Runtime/Denormals.h"
#include "tfc/Runtime/ProgramDriver.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

extern "C" const tfc_model tfc_compiled_model;
extern "C" const char tfc_task_job[];
extern "C" const int32_t tfc_task_index;
extern "C" const char tfc_cluster_spec[];
// Between-graph replication (Transport.h): nonzero when every worker runs
// the template replica's (worker 0's) graph as its own client. Absent
// (programs of the chief-driven model, and hand-written test models): 0.
extern "C" __attribute__((weak)) const int32_t tfc_between_graph;

namespace {

using namespace tfc;
using namespace tfc::distributed;
using Code = RendezvousStatus::Code;

constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

const char *program = "task";

int fail(int status, const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  std::fflush(stderr);
  return status;
}

/// Ends the process on a lost peer (restartable) or another failure.
[[noreturn]] void endOn(const RendezvousStatus &status) {
  std::fprintf(stderr, "%s: error: %s\n", program, status.getMessage().c_str());
  std::fflush(stderr);
  std::_Exit(status.getCode() == Code::Unavailable ? TFC_EXIT_CLUSTER_FAILURE
                                                   : kExitFailure);
}

/// The line --transfer-stats prints as a task ends.
void printTransferStats(const Transport &transport) {
  Transport::TransferStats stats = transport.transferStats();
  std::fprintf(stderr,
               "%s: sent %lld tensors, %lld bytes, %lld through shared "
               "memory\n",
               program, static_cast<long long>(stats.tensors),
               static_cast<long long>(stats.bytes),
               static_cast<long long>(stats.sharedMemory));
  std::fflush(stderr);
}

bool parseSeconds(const std::string &text, std::chrono::milliseconds &out) {
  char *end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !(seconds > 0) || seconds > 1e6)
    return false;
  out = std::chrono::milliseconds(int64_t(seconds * 1000));
  return true;
}

/// Every `interval`, checks the peers with `check`; ends the process when
/// one is lost. Stops with the object.
class Watch {
public:
  Watch(std::chrono::milliseconds interval,
        std::function<RendezvousStatus()> check)
      : thread([this, interval, check] {
          std::unique_lock<std::mutex> lock(mutex);
          while (!stopping) {
            if (stopped.wait_for(lock, interval, [&] { return stopping; }))
              break;
            lock.unlock();
            RendezvousStatus status = check();
            lock.lock();
            if (!status.isOk() && !stopping)
              endOn(status);
          }
        }) {}
  ~Watch() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    stopped.notify_all();
    thread.join();
  }

private:
  std::mutex mutex;
  std::condition_variable stopped;
  bool stopping = false;
  std::thread thread;
};

/// The contents of a (PEM) file; false with `error` set.
bool readTextFile(const std::string &path, std::string &text,
                  std::string &error) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = std::strerror(errno);
    return false;
  }
  char buffer[4096];
  size_t n;
  text.clear();
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0)
    text.append(buffer, n);
  std::fclose(file);
  if (text.find("-----BEGIN ") == std::string::npos) {
    error = "not a PEM file";
    return false;
  }
  return true;
}

/// Saves the task's variables from `state` as its part of a sharded
/// checkpoint, or restores them (CheckpointManager.h).
RendezvousStatus checkpointTask(const tfc_model &model, const void *state,
                                const CheckpointAction &action) {
  std::string error;
  bool done;
  if (action.kind == CheckpointAction::Restore) {
    done = rt::restoreCheckpoint(model, const_cast<void *>(state),
                                 action.prefix, error);
  } else {
    std::string part = rt::shardPartPrefix(action.dir, action.step, action.shard);
    done = rt::makeDirectories(part.substr(0, part.rfind('/')), error) &&
           rt::writeVariables(model, state, part, error);
  }
  return done ? RendezvousStatus::ok()
              : RendezvousStatus::error(Code::InvalidArgument, error);
}

} // namespace

/// The tasks of a job often share a host's cores, and a task waits for
/// its peers' tensors between kernels: OpenMP threads that spin while
/// they wait (libgomp's default for a while after each parallel loop)
/// take the cores the other tasks need. A task's threads sleep instead
/// (OMP_WAIT_POLICY=passive, unless the environment says otherwise),
/// which the OpenMP runtime reads as it loads: the program runs itself
/// again with it set. (Two workers and a ps on 2 cores, bench/ps_train.py:
/// a training step of 29.9 ms became 7.5 ms.)
static void sleepWhileWaiting(char **argv) {
  if (std::getenv("OMP_WAIT_POLICY"))
    return;
  setenv("OMP_WAIT_POLICY", "passive", 1);
  execv("/proc/self/exe", argv);
  // (Without /proc, the threads spin as before.)
}

int main(int argc, char **argv) {
  program = argv[0];
  sleepWhileWaiting(argv);
  const tfc_model &model = tfc_compiled_model;
  TaskName self{tfc_task_job, tfc_task_index};

  // The task's flags; the rest are the program's.
  std::vector<char *> rest = {argv[0]};
  std::string clusterFlag, bind;
  bool sharedMemory = true, transferStats = false;
  // --tls-cert, --tls-key, --tls-ca.
  std::string tlsFiles[3];
  std::chrono::milliseconds connectTimeout(60000), healthInterval(1000),
      healthTimeout(5000);
  int64_t threads = 0;
  // The first program flag only the chief takes.
  const char *chiefFlag = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string value;
    int first = i;
    // Durations, in seconds.
    std::pair<const char *, std::chrono::milliseconds *> durations[] = {
        {"--connect-timeout", &connectTimeout},
        {"--health-interval", &healthInterval},
        {"--health-timeout", &healthTimeout}};
    bool taken = false;
    for (auto [flag, out] : durations)
      if (!taken && rt::takeFlag(argc, argv, i, flag, value)) {
        taken = true;
        if (!parseSeconds(value, *out))
          return fail(kExitBadInput,
                      std::string(flag) + " '" + value + "': expected seconds");
      }
    if (taken)
      continue;
    if (rt::takeFlag(argc, argv, i, "--cluster", value)) {
      clusterFlag = value;
    } else if (rt::takeFlag(argc, argv, i, "--bind", value)) {
      bind = value;
    } else if (std::strcmp(argv[i], "--transfer-stats") == 0) {
      transferStats = true;
    } else if (rt::takeFlag(argc, argv, i, "--shared-memory", value)) {
      if (value != "on" && value != "off")
        return fail(kExitBadInput,
                    "--shared-memory '" + value + "': expected on or off");
      sharedMemory = value == "on";
    } else if (rt::takeFlag(argc, argv, i, "--tls-cert", value)) {
      tlsFiles[0] = value;
    } else if (rt::takeFlag(argc, argv, i, "--tls-key", value)) {
      tlsFiles[1] = value;
    } else if (rt::takeFlag(argc, argv, i, "--tls-ca", value)) {
      tlsFiles[2] = value;
    } else {
      // The program's (--threads serves every task).
      bool threadsFlag = rt::takeFlag(argc, argv, i, "--threads", value);
      if (threadsFlag && !rt::parseCount(value, threads))
        return fail(kExitBadInput,
                    "--threads '" + value + "': expected a count");
      rest.insert(rest.end(), argv + first, argv + i + 1);
      if (!threadsFlag && !chiefFlag)
        chiefFlag = argv[first];
    }
  }

  // Mutual TLS: all three files, or none.
  std::string error;
  std::optional<TransportOptions::Tls> tls;
  int tlsGiven = !tlsFiles[0].empty() + !tlsFiles[1].empty() + !tlsFiles[2].empty();
  if (tlsGiven != 0 && tlsGiven != 3)
    return fail(kExitBadInput, "--tls-cert, --tls-key and --tls-ca go "
                               "together (mutual TLS)");
  if (tlsGiven == 3) {
    tls.emplace();
    std::string *texts[] = {&tls->certChain, &tls->privateKey, &tls->rootCerts};
    const char *flags[] = {"--tls-cert", "--tls-key", "--tls-ca"};
    for (int k = 0; k < 3; ++k)
      if (!readTextFile(tlsFiles[k], *texts[k], error))
        return fail(kExitBadInput, std::string(flags[k]) + " " + tlsFiles[k] +
                                       ": " + error);
  }

  // The cluster: --cluster, else TF_CONFIG, else the compiled one.
  std::optional<ClusterSpec> cluster;
  if (!clusterFlag.empty()) {
    cluster = ClusterSpec::parse(clusterFlag, error);
    if (!cluster)
      return fail(kExitBadInput, "--cluster: " + error);
  } else if (const char *env = std::getenv("TF_CONFIG")) {
    std::optional<TfConfig> config = TfConfig::parse(env, "TF_CONFIG", error);
    if (!config)
      return fail(kExitBadInput, error);
    if (config->task && !(*config->task == self))
      return fail(kExitBadInput, "TF_CONFIG names task " +
                                     config->task->str() +
                                     ", and this executable is " + self.str());
    cluster = config->cluster;
  } else {
    cluster = ClusterSpec::parseFile(tfc_cluster_spec, "the compiled cluster",
                                     error);
    if (!cluster)
      return fail(kExitBadInput, error);
  }
  const ClusterSpec::Job *job = cluster->job(self.job);
  if (!job || size_t(self.index) >= job->tasks.size())
    return fail(kExitBadInput, "the cluster has no task " + self.str() +
                                   ", which this executable is");
  std::optional<TaskName> chief = cluster->chief();
  if (!chief)
    return fail(kExitBadInput, "the cluster has no chief (no job 'chief' "
                               "or 'worker')");
  bool isChief = *chief == self;
  // Between-graph replication: the workers run worker 0's graph.
  bool betweenGraph = &tfc_between_graph && tfc_between_graph;
  const TaskName templateReplica{"worker", 0};
  bool isReplica = betweenGraph && self.job == templateReplica.job;
  if (betweenGraph && !(*chief == templateReplica))
    return fail(kExitBadInput, "between-graph replication: the chief must be " +
                                   templateReplica.str() + ", not " +
                                   chief->str());
  if (!isChief && !isReplica && chiefFlag)
    return fail(kExitBadInput, std::string("'") + chiefFlag +
                                   "': program flags go to the " +
                                   (betweenGraph ? "workers" : "chief, " +
                                                                   chief->str()));
  // The tasks the chief drives: every other one, or with between-graph
  // replication those that are not workers (each worker drives itself).
  std::vector<TaskName> others, workers;
  for (const ClusterSpec::Job &each : cluster->jobs)
    for (size_t t = 0; t < each.tasks.size(); ++t) {
      TaskName task{each.name, int(t)};
      if (task == self)
        continue;
      if (betweenGraph && each.name == templateReplica.job)
        workers.push_back(task);
      else
        others.push_back(task);
    }

  // The tasks the chief drives run its steps (and with between-graph
  // replication each worker's: a client each) with a runtime and an arena
  // per client, over the task's variables.
  // (The transport's server goes first at exit: it calls the control.)
  Transport *server = nullptr;
  struct Client {
    RendezvousScope scope;
    std::unique_ptr<tfc_runtime, void (*)(tfc_runtime *)> runtime{
        nullptr, tfc_runtime_destroy};
    std::unique_ptr<void, void (*)(void *)> arena{nullptr, tfc_arena_free};
  };
  std::mutex clientsMutex;
  std::map<int, std::unique_ptr<Client>> clients;
  std::unique_ptr<void, void (*)(void *)> state(nullptr, tfc_arena_free);
  // Client `index`, made at its first call: its runtime shares the queues
  // and accumulators of client 0's (the chief's, made first), whose
  // runtime runs the task's queue runners.
  std::function<Client *(int)> clientOf = [&](int index) -> Client * {
    tfc_runtime *shared = index ? clientOf(0)->runtime.get() : nullptr;
    std::lock_guard<std::mutex> lock(clientsMutex);
    std::unique_ptr<Client> &client = clients[index];
    if (client)
      return client.get();
    client = std::make_unique<Client>();
    client->scope.transport = server;
    client->scope.client = index;
    if (betweenGraph) {
      client->scope.templateTask = templateReplica.str();
      client->scope.replica = TaskName{templateReplica.job, index}.str();
    }
    tfc_runtime_options runtimeOptions = {};
    runtimeOptions.threads = int32_t(threads);
    runtimeOptions.create_rendezvous = Transport::createScopedRendezvous;
    runtimeOptions.rendezvous_context = &client->scope;
    client->runtime.reset(tfc_runtime_create_shared(&runtimeOptions, shared));
    client->arena.reset(
        tfc_arena_alloc(model.arena_bytes, model.arena_alignment));
    if (!client->runtime || !client->arena)
      endOn(RendezvousStatus::error(Code::InvalidArgument,
                                    "cannot make a runtime and its memory"));
    return client.get();
  };
  // A task has no feeds or fetches: its steps get arrays of nulls.
  std::vector<void *> noInputs(size_t(model.num_inputs), nullptr),
      noOutputs(size_t(model.num_outputs), nullptr);
  // A step of this task's part that finds its input ended (a closed queue
  // here) tells its client so, whose step ends with it.
  struct StepCall {
    tfc_step_fn run;
    Client *client;
    void *state;
    void *const *inputs;
    void *const *outputs;
  };
  // The queue runners of this task's entries: started by the chief's call
  // on its lane; the chief runners stopped by its call beside the lanes.
  std::mutex runnersMutex;
  bool runnersStarted = false;
  TaskControl::Handlers handlers;
  handlers.runStep = [&](int64_t step) {
    Client *client = clientOf(clientOfStep(step));
    server->beginStep(step);
    // The step, or a once-run entry (ProgramDriver.h numbers them).
    int64_t within = stepOfScoped(step);
    tfc_step_fn entry = within >= 0    ? model.step
                        : within == -3 ? model.init
                        : within == -2 ? model.local_init
                                       : model.chief_init;
    StepCall call{entry, client, state.get(), noInputs.data(),
                  noOutputs.data()};
    if (!call.run)
      return RendezvousStatus::ok();
    tfc_runtime *runtime = client->runtime.get();
    bool ended = tfc_run_until_end_of_input(
        runtime,
        [](void *context) {
          auto *c = static_cast<StepCall *>(context);
          tfc::FlushDenormals flush;
          c->run(c->client->runtime.get(), c->client->arena.get(),
                 c->state, c->inputs, c->outputs);
        },
        &call);
    if (!ended)
      return RendezvousStatus::ok();
    // A step abandoned with its lost worker: that worker, if it still
    // runs, has lost this task.
    RendezvousStatus lost = server->clientAbandoned(client->scope.client);
    if (!lost.isOk())
      return RendezvousStatus::error(Code::Unavailable, lost.getMessage());
    return RendezvousStatus::error(Code::OutOfRange,
                                   tfc_end_of_input_message(runtime));
  };
  handlers.checkpoint = [&](const CheckpointAction &action) {
    return checkpointTask(model, state.get(), action);
  };
  handlers.startQueueRunners = [&] {
    std::lock_guard<std::mutex> lock(runnersMutex);
    if (!runnersStarted)
      tfc_queue_runners_start(clientOf(0)->runtime.get(), &model, state.get(),
                              /*with_chief=*/1);
    runnersStarted = true;
    return RendezvousStatus::ok();
  };
  handlers.stopChiefQueueRunners = [&] {
    std::lock_guard<std::mutex> lock(runnersMutex);
    if (runnersStarted)
      tfc_chief_queue_runners_stop(clientOf(0)->runtime.get());
    return RendezvousStatus::ok();
  };
  // A lost between-graph worker's step here is abandoned: its exchanges
  // and its waits in queues end, and the other workers' steps go on.
  auto clientIfMade = [&](int index) -> Client * {
    std::lock_guard<std::mutex> lock(clientsMutex);
    auto found = clients.find(index);
    return found != clients.end() ? found->second.get() : nullptr;
  };
  handlers.abandonClient = [&](int index, const std::string &why) {
    server->abandonClient(index, why);
    if (Client *client = clientIfMade(index))
      tfc_runtime_abandon_waits(client->runtime.get(), 1);
  };
  handlers.forgetClient = [&](int index) {
    server->forgetClient(index);
    if (Client *client = clientIfMade(index))
      tfc_runtime_abandon_waits(client->runtime.get(), 0);
  };
  TaskControl control(std::move(handlers));

  TransportOptions options;
  options.cluster = *cluster;
  options.task = self;
  options.bind = bind;
  options.sharedMemory = sharedMemory;
  options.services = {control.service()};
  options.tls = tls;
  if (isChief) {
    std::random_device random;
    do
      options.incarnation = uint64_t(random()) << 32 | random();
    while (options.incarnation == 0);
  }
  std::unique_ptr<Transport> transport = Transport::start(options, error);
  if (!transport)
    return fail(kExitFailure, error);
  server = transport.get();
  control.attach(*transport);

  auto say = [](const std::string &line) {
    std::fprintf(stderr, "%s: %s\n", program, line.c_str());
    std::fflush(stderr);
  };
  if (!isChief && !isReplica) {
    state.reset(tfc_arena_alloc(model.state_bytes, model.arena_alignment));
    if (!state)
      return fail(kExitFailure, "cannot make the runtime and its memory");
    std::memset(state.get(), 0, size_t(model.state_bytes));
    std::string chiefAddress = cluster->job(chief->job)->tasks[chief->index];
    if (!control.waitForChief(connectTimeout))
      return fail(kExitFailure, "the chief " + chief->str() + " at " +
                                    chiefAddress + " did not connect");
    Watch watch(healthInterval, [&] {
      return checkTask(*transport, *chief, healthTimeout);
    });
    while (!control.waitForEnd(std::chrono::hours(1))) {
    }
    {
      std::lock_guard<std::mutex> lock(runnersMutex);
      if (runnersStarted)
        tfc_queue_runners_stop(clientOf(0)->runtime.get());
    }
    if (transferStats)
      printTransferStats(*transport);
    return 0;
  }

  // The steps' exchanges: the chief's (client 0), or a between-graph
  // worker's as its own client, its keys those of its task.
  RendezvousScope scope;
  scope.transport = transport.get();
  if (isReplica) {
    scope.client = self.index;
    scope.templateTask = templateReplica.str();
    scope.replica = self.str();
    trace::renameTask(scope.templateTask, scope.replica);
  }
  ClusterControl clusterControl(*transport, others);
  // After each step, the other tasks' parts: one that found its input
  // ended (OutOfRange) ends the run of steps, as a closed queue here would.
  std::optional<std::string> endedInput;
  auto finishStep = [&] {
    RendezvousStatus done = clusterControl.finishStep();
    if (done.getCode() == Code::OutOfRange)
      endedInput = done.getMessage();
    else if (!done.isOk())
      endOn(done);
  };
  auto inputEnded = [&](std::string &why) {
    if (!endedInput)
      return false;
    why = *endedInput;
    endedInput.reset();
    return true;
  };

  if (!isChief) {
    // A between-graph worker: joins the chief's job once the variables are
    // ready, runs its own steps, each on the tasks the chief drives too,
    // and waits for the end of the job.
    RendezvousStatus joined = joinJob(*transport, *chief, connectTimeout, say);
    if (!joined.isOk())
      endOn(joined);
    int exitStatus;
    {
      Watch watch(healthInterval, [&] {
        return checkTask(*transport, *chief, healthTimeout);
      });
      rt::ProgramHooks hooks;
      hooks.runsInit = false;
      hooks.createRendezvous = Transport::createScopedRendezvous;
      hooks.rendezvousContext = &scope;
      hooks.beforeStep = [&](int64_t step) {
        transport->beginStep(scopedStep(scope.client, step));
        clusterControl.startStep(scopedStep(scope.client, step));
      };
      hooks.afterStep = [&](int64_t) { finishStep(); };
      hooks.inputEnded = inputEnded;
      hooks.traceName = self.str();
      exitStatus = rt::runProgram(int(rest.size()), rest.data(), model, hooks);
      RendezvousStatus reported =
          reportDone(*transport, *chief, exitStatus,
                     exitStatus ? "its program failed (exit status " +
                                      std::to_string(exitStatus) + ")"
                                : "",
                     healthTimeout);
      if (!reported.isOk())
        endOn(reported);
      while (!control.waitForEnd(std::chrono::hours(1))) {
      }
    }
    if (transferStats)
      printTransferStats(*transport);
    return exitStatus;
  }

  // The job's checkpoints: every task writes its variables as a shard (the
  // chief shard 0, the tasks it drives 1.. in cluster order: with
  // between-graph replication not the other workers, which hold none)
  // into the checkpoint directory, which they must share; the chief merges
  // the index and only then moves the state file. A restore has every task
  // read its own.
  auto saveJob = [&](const void *chiefState, const std::string &dir,
                     int64_t step, int keep, std::string &error) {
    CheckpointAction own{CheckpointAction::Save, dir, step, 0, ""};
    RendezvousStatus status = checkpointTask(model, chiefState, own);
    RendezvousStatus shards = clusterControl.saveShards(dir, step, 1);
    if (!shards.isOk())
      endOn(shards);
    if (!status.isOk()) {
      error = status.getMessage();
      return false;
    }
    return rt::mergeCheckpointShards(dir, step, int(others.size()) + 1, keep,
                                     error);
  };
  auto restoreJob = [&](void *chiefState, const std::string &prefix,
                        std::string &error) {
    RendezvousStatus others = clusterControl.restore(prefix);
    if (!others.isOk()) {
      if (others.getCode() == Code::Unavailable)
        endOn(others);
      error = others.getMessage();
      return false;
    }
    return rt::restoreCheckpoint(model, chiefState, prefix, error);
  };
  RendezvousStatus status = clusterControl.connect(connectTimeout, say);
  if (!status.isOk())
    return fail(kExitFailure, status.getMessage());
  int exitStatus;
  std::vector<TaskControl::WorkerResult> results;
  {
    // A lost task ends the job, but for a between-graph worker other than
    // the chief: the job goes on without it (the ps tasks abandon its step
    // in progress), and a new process of it may join again.
    auto loseWorker = [&](const TaskName &worker, const std::string &why) {
      say(why + "; the job goes on without " + worker.str());
      RendezvousStatus abandoned =
          clusterControl.abandonClient(worker.index, why, connectTimeout);
      if (!abandoned.isOk())
        endOn(abandoned);
      control.markLost(worker, why);
    };
    Watch watch(healthInterval, [&] {
      RendezvousStatus health = clusterControl.checkHealth(healthTimeout);
      if (!health.isOk())
        return health;
      for (const TaskName &worker : control.activeWorkers()) {
        RendezvousStatus status = checkTask(*transport, worker, healthTimeout);
        if (!status.isOk())
          loseWorker(worker, "lost " + status.getMessage());
      }
      for (const TaskName &worker : control.takeRestarted())
        loseWorker(worker, worker.str() + " started again");
      return RendezvousStatus::ok();
    });
    rt::ProgramHooks hooks;
    hooks.createRendezvous = Transport::createScopedRendezvous;
    hooks.rendezvousContext = &scope;
    // The other workers join once the variables are ready: after the
    // once-run entries (the init or a restore, the local and chief inits),
    // before the first step.
    bool opened = false;
    // The chief queue runners (SyncReplicasOptimizer's) stop when the
    // chief's steps end, as TensorFlow's chief stops its coordinator; and
    // when every other worker's have, since an update then waits for
    // gradients that will not come: a step waiting on a token ends as at
    // the end of input, not forever.
    std::once_flag chiefRunnersStopped;
    auto stopChiefRunners = [&] {
      std::call_once(chiefRunnersStopped, [&] {
        RendezvousStatus stopped =
            clusterControl.stopChiefQueueRunners(healthTimeout);
        if (!stopped.isOk())
          endOn(stopped);
      });
    };
    std::atomic<bool> chiefStepsDone{false};
    std::thread lastWorkerWatch;
    auto openToWorkers = [&] {
      if (opened)
        return;
      opened = true;
      // The tasks' queue runners start once the variables are ready.
      RendezvousStatus started = clusterControl.startQueueRunners(healthTimeout);
      if (!started.isOk())
        endOn(started);
      if (betweenGraph) {
        control.openToWorkers(workers, [&](const TaskName &worker) {
          say(worker.str() + " joined");
        });
        lastWorkerWatch = std::thread([&] {
          while (!chiefStepsDone)
            if (control.waitForWorkersDone(std::chrono::milliseconds(100))) {
              stopChiefRunners();
              return;
            }
        });
      }
    };
    hooks.beforeStep = [&](int64_t step) {
      if (step >= 0)
        openToWorkers();
      transport->beginStep(step);
      clusterControl.startStep(step);
    };
    hooks.saveCheckpoint = saveJob;
    hooks.restoreCheckpoint = restoreJob;
    hooks.afterStep = [&](int64_t) { finishStep(); };
    hooks.inputEnded = inputEnded;
    // --trace: every task records, and the chief writes their events with
    // its own (the between-graph workers record from their Join on).
    hooks.traceName = self.str();
    hooks.startTrace = [&] {
      RendezvousStatus started = clusterControl.startTrace(healthTimeout);
      if (!started.isOk())
        endOn(started);
    };
    hooks.collectTraces = [&] {
      std::vector<trace::ProcessTrace> traces;
      RendezvousStatus collected =
          clusterControl.collectTraces(connectTimeout, traces);
      if (!collected.isOk())
        endOn(collected);
      for (const TaskName &worker : control.joinedWorkers()) {
        trace::ProcessTrace workerTrace;
        RendezvousStatus status =
            collectTrace(*transport, worker, connectTimeout, workerTrace);
        if (status.isOk())
          traces.push_back(std::move(workerTrace));
        else
          say("the trace leaves out " + worker.str() + ": " +
              status.getMessage());
      }
      return traces;
    };
    // The job's last checkpoint holds every worker's steps.
    hooks.afterSteps = [&] {
      openToWorkers();
      chiefStepsDone = true;
      if (lastWorkerWatch.joinable())
        lastWorkerWatch.join();
      stopChiefRunners();
      if (workers.empty())
        return;
      say("its steps are done; waiting for the other workers");
      RendezvousStatus waited = control.waitForWorkers(connectTimeout, results);
      if (!waited.isOk())
        endOn(waited);
    };
    exitStatus = rt::runProgram(int(rest.size()), rest.data(), model, hooks);
    chiefStepsDone = true;
    if (lastWorkerWatch.joinable())
      lastWorkerWatch.join();
  }
  clusterControl.endJob(healthTimeout);
  for (const TaskName &worker : control.joinedWorkers())
    endTask(*transport, worker, healthTimeout);
  if (transferStats)
    printTransferStats(*transport);
  for (const TaskControl::WorkerResult &result : results)
    if (result.lost)
      say("the job went on without " + result.worker.str() + " (" +
          result.message + ")");
    else if (result.exitStatus != 0 && exitStatus == 0) {
      fail(kExitFailure, result.worker.str() + ": " + result.message);
      exitStatus = kExitFailure;
    }
  return exitStatus;
}
