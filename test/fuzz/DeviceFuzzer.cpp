//===- DeviceFuzzer.cpp - libFuzzer target for device names and clusters --===//
//
// The first byte picks what the rest is: a device name, a --cluster
// shorthand, or a cluster file (TF_CONFIG JSON or ClusterDef text). Any
// input may be rejected (with an error), none may crash, leak or hang.
// Oracles: a parsed device name prints to a name that parses back to
// itself; an accepted cluster has valid jobs with tasks, and its devices
// are complete names, one per task.
//
//===----------------------------------------------------------------------===//

#include "tfc/Support/DeviceName.h"
#include "tfc/Target/ClusterSpec.h"

#include <cstdlib>
#include <string>

using namespace tfc;

namespace {

void checkCluster(const std::optional<ClusterSpec> &spec, const std::string &error) {
  if (!spec) {
    if (error.empty())
      std::abort();
    return;
  }
  size_t tasks = 0;
  for (const ClusterSpec::Job &job : spec->jobs) {
    if (job.name.empty() || job.tasks.empty())
      std::abort();
    tasks += job.tasks.size();
  }
  std::vector<DeviceName> devices = clusterDevices(*spec, {});
  if (devices.size() != tasks)
    std::abort();
  for (const DeviceName &device : devices)
    if (!device.isComplete() || DeviceName::parse(device.str()) != device)
      std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  std::string error;
  switch (data[0] % 4) {
  case 0:
    if (std::optional<DeviceName> name = DeviceName::parse(text))
      if (DeviceName::parse(name->str()) != *name)
        std::abort();
    break;
  case 1:
    checkCluster(ClusterSpec::parseShorthand(text, error), error);
    break;
  case 2:
    checkCluster(ClusterSpec::parseFile(text, "fuzz", error), error);
    break;
  default:
    // TF_CONFIG: a task it names is one of its cluster's.
    if (std::optional<TfConfig> config = TfConfig::parse(text, "fuzz", error)) {
      checkCluster(config->cluster, error);
      if (config->task) {
        const ClusterSpec::Job *job = config->cluster.job(config->task->job);
        if (!job || config->task->index < 0 ||
            size_t(config->task->index) >= job->tasks.size())
          std::abort();
      }
    } else if (error.empty()) {
      std::abort();
    }
    break;
  }
  return 0;
}
