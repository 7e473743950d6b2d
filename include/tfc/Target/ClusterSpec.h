//===- ClusterSpec.h - the tasks of a cluster -----------------------------===//
//
// A cluster is a set of jobs, each a list of tasks (white paper §3: "a
// cluster of tasks, each a process"); OSDI §3.3: "/job:worker/task:17").
// `tfc compile --cluster` takes it in three forms:
//   - the shorthand "worker=2,ps=1" (task counts, no addresses);
//   - a file holding TensorFlow's TF_CONFIG JSON ({"cluster": {"worker":
//     ["host:port", ...], ...}, "task": ...}) or just its "cluster" object;
//   - a file holding a ClusterDef text proto (job { name: "worker" tasks {
//     key: 0 value: "host:port" } }).
// "env" reads the TF_CONFIG environment variable.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_CLUSTERSPEC_H
#define TFC_TARGET_CLUSTERSPEC_H

#include "tfc/Support/DeviceName.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tfc {

struct ClusterSpec {
  struct Job {
    std::string name;
    /// Task addresses by index ("" where the form gives none).
    std::vector<std::string> tasks;
  };
  std::vector<Job> jobs;

  /// Parses any of the three forms; on failure returns nullopt and sets
  /// `error` (one line naming the file or the text and what is wrong).
  static std::optional<ClusterSpec> parse(llvm::StringRef spec,
                                          std::string &error);

  /// The contents of a cluster file: TF_CONFIG JSON when it starts with
  /// '{', a ClusterDef text proto otherwise; `where` names it in errors.
  static std::optional<ClusterSpec> parseFile(llvm::StringRef text,
                                              llvm::StringRef where,
                                              std::string &error);

  /// The shorthand "worker=2,ps=1".
  static std::optional<ClusterSpec> parseShorthand(llvm::StringRef text,
                                                   std::string &error);

  /// Every task's devices: `perTask` (partial names without job, replica or
  /// task; default one CPU) completed with each task in turn.
  std::vector<DeviceName> devices(const std::vector<DeviceName> &perTask) const;
};

} // namespace tfc

#endif // TFC_TARGET_CLUSTERSPEC_H
