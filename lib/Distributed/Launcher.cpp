//===- Launcher.cpp - every task of a compiled cluster on one machine -----===//

#include "tfc/Distributed/Launcher.h"
#include "tfc/Distributed/ClusterSpec.h"
#include "tfc/Runtime/CheckpointManager.h"
#include "tfc/Runtime/ProgramDriver.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <random>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace tfc {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

int usageError(const std::string &message) {
  std::fprintf(stderr, "tfc run-cluster: error: %s\n", message.c_str());
  return kExitBadInput;
}

void say(const std::string &message) {
  std::fprintf(stderr, "[run-cluster] %s\n", message.c_str());
  std::fflush(stderr);
}

/// Set by SIGINT and SIGTERM: stop every task and end.
volatile std::sig_atomic_t interrupted = 0;
void onSignal(int signal) { interrupted = signal; }

/// The first port of the kernel's ephemeral range, from which it gives
/// outgoing connections their local ports (and bind() to port 0 its
/// ports): 32768 unless /proc says otherwise.
int ephemeralLow() {
  std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 0;
  return range >> low && low > 0 ? low : 32768;
}

/// `count` ports on 127.0.0.1 that are free now, drawn at random among the
/// 12,000 below the ephemeral range: a port from that range may be taken by
/// any outgoing connection on the machine before its task listens on it.
/// All are held bound at once (so no two are the same), then released for
/// the tasks to bind.
bool freePorts(size_t count, std::vector<int> &ports, std::string &error) {
  int high = ephemeralLow() - 1, low = std::max(1024, high - 12000);
  std::mt19937 draw(std::random_device{}());
  std::uniform_int_distribution<int> port(low, std::max(low, high));
  std::vector<int> sockets;
  bool ok = true;
  for (int tries = 0; ports.size() < count && ok; ++tries) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
      error = std::string("cannot open a socket: ") + std::strerror(errno);
      ok = false;
      break;
    }
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int candidate = port(draw);
    address.sin_port = htons(uint16_t(candidate));
    if (bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0) {
      sockets.push_back(fd);
      ports.push_back(candidate);
      continue;
    }
    close(fd);
    if (tries >= 1000) {
      error = "cannot find " + std::to_string(count) +
              " free ports on 127.0.0.1 between " + std::to_string(low) +
              " and " + std::to_string(high);
      ok = false;
    }
  }
  for (int fd : sockets)
    close(fd);
  return ok;
}

/// One task's process and the lines of output it has not finished yet.
struct Task {
  TaskName name;
  std::string label, executable;
  std::vector<std::string> args;
  pid_t pid = -1;
  /// stdout and stderr pipes (-1 once closed), and their partial lines.
  int fds[2] = {-1, -1};
  std::string pending[2];
  bool exited = false;
  int status = 0;

  bool running() const { return pid > 0 && !exited; }
};

bool spawn(Task &task, std::string &error) {
  int out[2], err[2];
  if (pipe(out) != 0 || pipe(err) != 0) {
    error = std::string("cannot make a pipe: ") + std::strerror(errno);
    return false;
  }
  std::vector<char *> argv = {const_cast<char *>(task.executable.c_str())};
  for (std::string &arg : task.args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    error = std::string("cannot start a process: ") + std::strerror(errno);
    return false;
  }
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    for (int fd : {out[0], out[1], err[0], err[1]})
      close(fd);
    // The cluster is --cluster's: TF_CONFIG would name another task.
    unsetenv("TF_CONFIG");
    execv(task.executable.c_str(), argv.data());
    std::fprintf(stderr, "cannot run %s: %s\n", task.executable.c_str(),
                 std::strerror(errno));
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  task.pid = pid;
  task.fds[0] = out[0];
  task.fds[1] = err[0];
  task.pending[0].clear();
  task.pending[1].clear();
  task.exited = false;
  return true;
}

/// Writes the complete lines of `text` with the task's label in front,
/// keeping a partial last line for later (or writing it, at the end).
void relay(Task &task, int stream, const char *data, size_t size, bool end) {
  std::string &pending = task.pending[stream];
  pending.append(data, size);
  FILE *out = stream == 0 ? stdout : stderr;
  size_t start = 0;
  for (size_t newline; (newline = pending.find('\n', start)) != std::string::npos;
       start = newline + 1)
    std::fprintf(out, "[%s] %.*s\n", task.label.c_str(),
                 int(newline - start), pending.data() + start);
  pending.erase(0, start);
  if (end && !pending.empty()) {
    std::fprintf(out, "[%s] %s\n", task.label.c_str(), pending.c_str());
    pending.clear();
  }
  std::fflush(out);
}

/// Reads what the tasks wrote within `timeout` and reaps those that ended.
void pump(std::vector<Task> &tasks, std::chrono::milliseconds timeout) {
  std::vector<pollfd> polled;
  std::vector<std::pair<Task *, int>> owners;
  for (Task &task : tasks)
    for (int stream = 0; stream < 2; ++stream)
      if (task.fds[stream] >= 0) {
        polled.push_back({task.fds[stream], POLLIN, 0});
        owners.push_back({&task, stream});
      }
  if (!polled.empty() &&
      poll(polled.data(), polled.size(), int(timeout.count())) > 0) {
    for (size_t i = 0; i < polled.size(); ++i) {
      if (!(polled[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      auto [task, stream] = owners[i];
      char buffer[4096];
      ssize_t n = read(polled[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        relay(*task, stream, buffer, size_t(n), false);
      } else if (n == 0 || errno != EINTR) {
        relay(*task, stream, nullptr, 0, true);
        close(task->fds[stream]);
        task->fds[stream] = -1;
      }
    }
  } else if (polled.empty()) {
    usleep(useconds_t(std::chrono::microseconds(timeout).count()));
  }
  for (Task &task : tasks) {
    if (!task.running())
      continue;
    int status;
    if (waitpid(task.pid, &status, WNOHANG) == task.pid) {
      task.exited = true;
      task.status = WIFEXITED(status) ? WEXITSTATUS(status)
                                      : 128 + WTERMSIG(status);
    }
  }
}

/// Stops every task still running, then reads the rest of their output.
void stopAll(std::vector<Task> &tasks) {
  for (Task &task : tasks)
    if (task.running())
      kill(task.pid, SIGKILL);
  for (Task &task : tasks) {
    if (task.running()) {
      int status;
      waitpid(task.pid, &status, 0);
      task.exited = true;
      task.status = 128 + SIGKILL;
    }
  }
  // The pipes' writers are gone: each reads to its end.
  for (int round = 0; round < 1000; ++round) {
    bool open = false;
    for (Task &task : tasks)
      open |= task.fds[0] >= 0 || task.fds[1] >= 0;
    if (!open)
      break;
    pump(tasks, std::chrono::milliseconds(10));
  }
}

std::string exitText(int status) {
  if (status > 128 && status != TFC_EXIT_CLUSTER_FAILURE)
    return "was killed by signal " + std::to_string(status - 128);
  return "exited with status " + std::to_string(status);
}

/// The step of the latest checkpoint in `dir`, or -1 when there is none.
int64_t latestStep(const std::string &dir) {
  rt::CheckpointState state;
  std::string error;
  if (dir.empty() || !rt::readCheckpointState(dir, state, error))
    return -1;
  return rt::checkpointStep(state.latest);
}

} // namespace

int runCluster(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-')
    return usageError("usage: tfc run-cluster OUTDIR [--max-restarts N] "
                      "[--grace SECONDS] [task and program flags]");
  std::string outDir = argv[1];
  std::ifstream file(outDir + "/cluster.json");
  if (!file)
    return usageError(outDir + "/cluster.json: " + std::strerror(errno) +
                      " (OUTDIR is what tfc compile --cluster wrote)");
  std::stringstream text;
  text << file.rdbuf();
  std::string error;
  std::optional<ClusterSpec> cluster =
      ClusterSpec::parseFile(text.str(), outDir + "/cluster.json", error);
  if (!cluster)
    return usageError(error);
  std::optional<TaskName> chief = cluster->chief();
  if (!chief)
    return usageError(outDir + "/cluster.json: the cluster has no chief");

  // The flags: the launcher's, every task's, and the chief's (the rest, in
  // order; --steps, --checkpoint-dir and --restore are also read here, for
  // restarts).
  int64_t maxRestarts = 0, graceSeconds = 10, steps = 1;
  std::string checkpointDir;
  bool restore = false;
  // With between-graph replication every worker gets the program flags
  // (workerFlags), the chief the checkpoints' too (chiefFlags).
  bool betweenGraph = isBetweenGraphJob(outDir);
  std::vector<std::string> taskFlags, chiefFlags, workerFlags;
  for (int i = 2; i < argc; ++i) {
    std::string value;
    std::string arg = argv[i];
    if (rt::takeFlag(argc, argv, i, "--max-restarts", value)) {
      if (!rt::parseCount(value, maxRestarts))
        return usageError("--max-restarts '" + value + "': expected a count");
    } else if (rt::takeFlag(argc, argv, i, "--grace", value)) {
      if (!rt::parseCount(value, graceSeconds))
        return usageError("--grace '" + value + "': expected seconds");
    } else if (rt::takeFlag(argc, argv, i, "--cluster", value) ||
               rt::takeFlag(argc, argv, i, "--bind", value)) {
      return usageError("'" + arg + "': run-cluster picks the tasks' "
                        "addresses itself");
    } else if (rt::takeFlag(argc, argv, i, "--steps", value)) {
      if (!rt::parseCount(value, steps) || steps < 1)
        return usageError("--steps '" + value + "': expected a positive count");
    } else if (rt::takeFlag(argc, argv, i, "--checkpoint-dir", value)) {
      checkpointDir = value;
      chiefFlags.insert(chiefFlags.end(), {"--checkpoint-dir", value});
    } else if (arg == "--restore") {
      restore = true;
    } else {
      // (--cluster and --bind were refused above.)
      bool forEveryTask = false;
      for (const char *flag : kTaskSwitches)
        if (arg == flag) {
          taskFlags.push_back(arg);
          forEveryTask = true;
        }
      for (const char *flag : kTaskFlags)
        if (!forEveryTask && rt::takeFlag(argc, argv, i, flag, value)) {
          taskFlags.insert(taskFlags.end(), {flag, value});
          forEveryTask = true;
          break;
        }
      if (forEveryTask)
        continue;
      // A program flag: the chief's, and (unless it is a checkpoint's or
      // --trace, whose file holds every task's events) the other workers'
      // of between-graph replication.
      int first = i;
      bool chiefOnly = rt::takeCheckpointFlag(argc, argv, i) ||
                       rt::takeFlag(argc, argv, i, "--trace", value);
      chiefFlags.insert(chiefFlags.end(), argv + first, argv + i + 1);
      if (!chiefOnly)
        workerFlags.push_back(arg);
    }
  }

  // The tasks share this machine's cores: unless --threads says otherwise,
  // each gets an equal share of them (at least one) for every task that
  // computes (those of jobs other than ps), so that the workers' thread
  // teams do not take turns on the same cores (docs/Distributed.md).
  bool threadsGiven = std::find(taskFlags.begin(), taskFlags.end(),
                                std::string("--threads")) != taskFlags.end();
  if (!threadsGiven) {
    int64_t computing = 0;
    for (const ClusterSpec::Job &job : cluster->jobs)
      if (job.name != "ps")
        computing += int64_t(job.tasks.size());
    int64_t cores = std::max<int64_t>(1, sysconf(_SC_NPROCESSORS_ONLN));
    int64_t share = std::max<int64_t>(1, cores / std::max<int64_t>(1, computing));
    taskFlags.insert(taskFlags.end(), {"--threads", std::to_string(share)});
  }

  // Every task on a loopback port of its own, in a cluster file of the
  // launcher's.
  std::vector<int> ports;
  if (!freePorts(cluster->numTasks(), ports, error))
    return usageError(error);
  std::vector<Task> tasks;
  size_t next = 0;
  for (ClusterSpec::Job &job : cluster->jobs)
    for (size_t t = 0; t < job.tasks.size(); ++t) {
      job.tasks[t] = "127.0.0.1:" + std::to_string(ports[next++]);
      Task task;
      task.name = {job.name, int(t)};
      task.label = job.name + "-" + std::to_string(t);
      task.executable = outDir + "/" + task.label;
      if (access(task.executable.c_str(), X_OK) != 0)
        return usageError(task.executable + ": " + std::strerror(errno) +
                          " (the cluster names task " + task.name.str() + ")");
      tasks.push_back(task);
    }
  char clusterPath[] = "/tmp/tfc-cluster-XXXXXX";
  int clusterFd = mkstemp(clusterPath);
  if (clusterFd < 0)
    return usageError(std::string("cannot write a cluster file: ") +
                      std::strerror(errno));
  std::string json = cluster->toJson();
  bool written = write(clusterFd, json.data(), json.size()) == ssize_t(json.size());
  close(clusterFd);
  struct RemoveFile {
    const char *path;
    ~RemoveFile() { unlink(path); }
  } removeClusterFile{clusterPath};
  if (!written)
    return usageError("cannot write the cluster file " + std::string(clusterPath));

  struct sigaction action = {};
  action.sa_handler = onSignal;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);

  // The step the job is to reach: --steps past where it starts.
  int64_t firstStep = restore ? std::max<int64_t>(latestStep(checkpointDir), 0) : 0;
  int64_t lastStep = firstStep + steps;
  for (int64_t attempt = 0;; ++attempt) {
    int64_t stepsLeft = steps;
    if (attempt > 0) {
      int64_t saved = latestStep(checkpointDir);
      restore = saved >= 0;
      stepsLeft = lastStep - std::max<int64_t>(saved, 0);
      say("restarting the job (" + std::to_string(attempt) + " of " +
          std::to_string(maxRestarts) + ")" +
          (restore ? " from the checkpoint of step " + std::to_string(saved)
                   : std::string(" from the start")));
      if (stepsLeft <= 0)
        return 0;
    }
    for (Task &task : tasks) {
      task.args = {"--cluster", clusterPath};
      task.args.insert(task.args.end(), taskFlags.begin(), taskFlags.end());
      if (task.name == *chief) {
        for (const std::string &flag : chiefFlags)
          task.args.push_back(betweenGraph ? flagForWorker(flag, 0) : flag);
        task.args.insert(task.args.end(), {"--steps", std::to_string(stepsLeft)});
        if (restore)
          task.args.push_back("--restore");
      } else if (betweenGraph && task.name.job == chief->job) {
        // Another worker of between-graph replication: the program flags
        // but the checkpoints', which are the chief's.
        task.args.insert(task.args.end(), workerFlags.begin(), workerFlags.end());
        for (std::string &flag : task.args)
          flag = flagForWorker(flag, task.name.index);
        task.args.insert(task.args.end(), {"--steps", std::to_string(stepsLeft)});
      }
      if (!spawn(task, error)) {
        stopAll(tasks);
        say(error);
        return kExitFailure;
      }
    }

    // Until every task has ended: the chief's end ends the job (the others
    // get --grace seconds), a lost peer (138) fails it restartably, any
    // other failure fails it. But a between-graph worker other than the
    // chief that is lost (138, or killed) is the job's to go on without:
    // it starts again alone, up to --max-restarts times, and joins again
    // (as a Kubernetes pod of it would, restartPolicy OnFailure).
    Task &chiefTask = *std::find_if(tasks.begin(), tasks.end(), [&](Task &t) {
      return t.name == *chief;
    });
    std::optional<Clock::time_point> deadline;
    bool restartable = false, failed = false;
    auto anyRunning = [&] {
      for (Task &task : tasks)
        if (task.running())
          return true;
      return false;
    };
    std::vector<bool> reported(tasks.size(), false);
    std::vector<int64_t> workerRestarts(tasks.size(), 0);
    while (anyRunning()) {
      pump(tasks, std::chrono::milliseconds(100));
      if (interrupted) {
        stopAll(tasks);
        say("interrupted: every task stopped");
        return 128 + int(interrupted);
      }
      for (size_t i = 0; i < tasks.size(); ++i) {
        Task &task = tasks[i];
        if (!task.exited || reported[i])
          continue;
        reported[i] = true;
        if (task.status == 0)
          continue;
        bool lost = task.status == TFC_EXIT_CLUSTER_FAILURE || task.status > 128;
        bool otherWorker = betweenGraph && task.name.job == chief->job &&
                           !(task.name == *chief);
        if (lost && otherWorker && !chiefTask.exited && !deadline) {
          if (workerRestarts[i] < maxRestarts) {
            ++workerRestarts[i];
            say(task.label + " " + exitText(task.status) +
                "; starting it again (" + std::to_string(workerRestarts[i]) +
                " of " + std::to_string(maxRestarts) + ")");
            if (!spawn(task, error)) {
              stopAll(tasks);
              say(error);
              return kExitFailure;
            }
            reported[i] = false;
          } else {
            say(task.label + " " + exitText(task.status) +
                "; the job goes on without it");
          }
          continue;
        }
        say(task.label + " " + exitText(task.status));
        if (lost)
          restartable = true;
        else
          failed = true;
        if (!deadline)
          deadline = Clock::now() + std::chrono::seconds(graceSeconds);
      }
      if (chiefTask.exited && !deadline)
        deadline = Clock::now() + std::chrono::seconds(graceSeconds);
      if (deadline && Clock::now() > *deadline && anyRunning()) {
        for (Task &task : tasks)
          if (task.running())
            say(task.label + " did not end within --grace " +
                std::to_string(graceSeconds) + " s: stopped");
        stopAll(tasks);
      }
    }
    stopAll(tasks);
    if (failed || !restartable)
      return failed && chiefTask.status == 0 ? kExitFailure : chiefTask.status;
    if (attempt >= maxRestarts) {
      say("the job failed" +
          (maxRestarts ? " after " + std::to_string(maxRestarts) + " restarts"
                       : std::string()) +
          "; it is restartable (status 138)");
      return TFC_EXIT_CLUSTER_FAILURE;
    }
  }
}

} // namespace tfc
