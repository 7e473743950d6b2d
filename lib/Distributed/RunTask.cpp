//===- RunTask.cpp - run the executable of the task TF_CONFIG names -------===//
//
//   run-task [flags...]
//
// `tfc compile --cluster` puts this program, as `run-task`, beside the
// executables of the cluster's tasks (worker-0, ps-0, ...), so one
// container command serves every task: it reads the TF_CONFIG environment
// variable, whose "task" names the task this process is to be, and
// replaces itself with that task's executable from its own directory (which
// reads TF_CONFIG again for the cluster's addresses). The task flags
// (kTaskFlags, ClusterSpec.h) go to every task, the program flags only to
// the chief: one command line, with the chief's flags, serves every pod.
// Under between-graph replication every worker takes the program flags
// but the checkpoints' ("{index}" in them becomes the worker's index).
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/ClusterSpec.h"
#include "tfc/Runtime/ProgramDriver.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr int kExitBadInput = 2;

int fail(const std::string &message) {
  std::fprintf(stderr, "run-task: error: %s\n", message.c_str());
  return kExitBadInput;
}

/// The directory this program was run from (where the tasks' executables
/// are), from /proc/self/exe so that a symbolic link or a PATH lookup
/// does not mislead it.
std::string ownDirectory() {
  char path[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0)
    return ".";
  std::string result(path, size_t(length));
  size_t slash = result.rfind('/');
  return slash == std::string::npos ? "." : result.substr(0, slash);
}

} // namespace

int main(int argc, char **argv) {
  const char *env = std::getenv("TF_CONFIG");
  if (!env || !*env)
    return fail("TF_CONFIG is not set: it names the task to run, e.g. "
                "{\"cluster\": {...}, \"task\": {\"type\": \"worker\", "
                "\"index\": 0}}");
  std::string error;
  std::optional<tfc::TfConfig> config =
      tfc::TfConfig::parse(env, "TF_CONFIG", error);
  if (!config)
    return fail(error);
  if (!config->task)
    return fail("TF_CONFIG names no task (its \"task\": {\"type\": JOB, "
                "\"index\": N})");
  std::string executable = ownDirectory() + "/" + config->task->job + "-" +
                           std::to_string(config->task->index);
  if (access(executable.c_str(), X_OK) != 0)
    return fail("TF_CONFIG names task " + config->task->str() +
                ", which has no executable here (" + executable + ": " +
                std::strerror(errno) + ")");
  std::optional<tfc::TaskName> chief = config->cluster.chief();
  bool isChief = chief && *chief == *config->task;
  // Between-graph replication: every worker takes the program flags, with
  // "{index}" its index; the checkpoints' are the chief's.
  bool betweenGraph = tfc::isBetweenGraphJob(ownDirectory());
  bool isWorker = betweenGraph && chief && config->task->job == chief->job;
  std::vector<std::string> kept = {executable};
  for (int i = 1; i < argc; ++i) {
    int first = i;
    std::string value;
    bool taskFlag = false, chiefFlag = false;
    for (const char *flag : tfc::kTaskSwitches)
      taskFlag |= std::strcmp(argv[i], flag) == 0;
    for (const char *flag : tfc::kTaskFlags)
      if (!taskFlag && tfc::rt::takeFlag(argc, argv, i, flag, value))
        taskFlag = true;
    if (!taskFlag)
      chiefFlag = tfc::rt::takeCheckpointFlag(argc, argv, i);
    if (taskFlag || isChief || (isWorker && !chiefFlag))
      for (int k = first; k <= i; ++k)
        kept.push_back(isWorker ? tfc::flagForWorker(argv[k],
                                                     config->task->index)
                                : std::string(argv[k]));
  }
  std::vector<char *> args;
  for (std::string &arg : kept)
    args.push_back(arg.data());
  args.push_back(nullptr);
  execv(executable.c_str(), args.data());
  return fail("cannot run " + executable + ": " + std::strerror(errno));
}
