//===- ClusterSpec.h - the tasks of a cluster, and TF_CONFIG -----*- C++ -*-===//
//
// A cluster is a set of jobs, each a list of tasks (white paper §3: "a
// cluster of tasks, each a process"; OSDI §3.3: "/job:worker/task:17").
// Both `tfc compile --cluster` and the compiled programs take it in three
// forms:
//   - the shorthand "worker=2,ps=1" (task counts, no addresses);
//   - a file holding TensorFlow's TF_CONFIG JSON ({"cluster": {"worker":
//     ["host:port", ...], ...}, "task": {"type": "worker", "index": 0}}) or
//     just its "cluster" object;
//   - a file holding a ClusterDef text proto (job { name: "worker" tasks {
//     key: 0 value: "host:port" } }).
// "env" reads the TF_CONFIG environment variable.
//
// Standard C++ and protobuf only: the programs link it.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_CLUSTERSPEC_H
#define TFC_DISTRIBUTED_CLUSTERSPEC_H

#include <optional>
#include <string>
#include <vector>

namespace tfc {

/// One task of a cluster: its job and index.
struct TaskName {
  std::string job;
  int index = 0;

  /// "/job:worker/replica:0/task:1", as device names spell a task.
  std::string str() const;
  /// The task of a complete device name ("/job:ps/replica:0/task:0/
  /// device:CPU:0"); nullopt when it names no job or task.
  static std::optional<TaskName> ofDevice(const std::string &device);
  bool operator==(const TaskName &other) const {
    return job == other.job && index == other.index;
  }
};

struct ClusterSpec {
  struct Job {
    std::string name;
    /// Task addresses by index ("" where the form gives none).
    std::vector<std::string> tasks;
  };
  /// In the order the spec gives them (JSON's, unordered, sorted by name).
  std::vector<Job> jobs;

  /// Parses any of the three forms (or "env"); on failure returns nullopt
  /// and sets `error` (one line naming the file or the text and what is
  /// wrong).
  static std::optional<ClusterSpec> parse(const std::string &spec,
                                          std::string &error);
  /// The contents of a cluster file: TF_CONFIG JSON when it starts with
  /// '{', a ClusterDef text proto otherwise; `where` names it in errors.
  static std::optional<ClusterSpec> parseFile(const std::string &text,
                                              const std::string &where,
                                              std::string &error);
  /// The shorthand "worker=2,ps=1".
  static std::optional<ClusterSpec> parseShorthand(const std::string &text,
                                                   std::string &error);

  /// The number of tasks of all jobs.
  size_t numTasks() const;
  /// The job named `name`, or null.
  const Job *job(const std::string &name) const;
  /// The task that drives the steps: task 0 of job "chief", else task 0 of
  /// job "worker" (TF_CONFIG's rule); nullopt when there is neither.
  std::optional<TaskName> chief() const;
  /// Gives every task without an address one on loopback, with ports from
  /// `firstPort` up in task order (the shorthand's addresses, meant to be
  /// replaced at deploy time).
  void addLoopbackAddresses(int firstPort);
  /// The TF_CONFIG "cluster" object, on one line.
  std::string toJson() const;
};

/// The flags every task's program takes (lib/Distributed/TaskMain.cpp),
/// each with a value; the others are the chief's program flags. Launchers
/// (run-task, tfc run-cluster) pass these to every task.
inline constexpr const char *kTaskFlags[] = {
    "--cluster",        "--bind",           "--connect-timeout",
    "--health-interval", "--health-timeout", "--threads",
    "--tls-cert",       "--tls-key",        "--tls-ca",
    "--shared-memory"};
/// The task flags without a value.
inline constexpr const char *kTaskSwitches[] = {"--transfer-stats"};

/// Between-graph replication (docs/Distributed.md): every worker takes
/// the program flags, each its own, but the checkpoint flags are the
/// chief's (rt::takeCheckpointFlag). The compiler marks such a job's
/// directory with the file kReplicationFile holding "between-graph";
/// launchers read it.
inline constexpr const char *kReplicationFile = "replication";
bool isBetweenGraphJob(const std::string &outDir);
/// A program flag as worker `index` gets it from a launcher: "{index}" in
/// it becomes the index (--input x=shard-{index}.npy).
std::string flagForWorker(const std::string &flag, int index);

/// `text` as a JSON string, quoted, with the escapes JSON requires (also a
/// YAML double-quoted scalar).
std::string jsonString(const std::string &text);

/// TensorFlow's TF_CONFIG: a cluster and, optionally, the task it names.
struct TfConfig {
  ClusterSpec cluster;
  std::optional<TaskName> task;

  /// `where` names the text in errors ("TF_CONFIG", a file).
  static std::optional<TfConfig> parse(const std::string &json,
                                       const std::string &where,
                                       std::string &error);
};

} // namespace tfc

#endif // TFC_DISTRIBUTED_CLUSTERSPEC_H
