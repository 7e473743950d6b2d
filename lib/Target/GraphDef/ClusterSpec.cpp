//===- ClusterSpec.cpp - a cluster's devices, for placement ---------------===//

#include "tfc/Target/ClusterSpec.h"

namespace tfc {

std::vector<DeviceName> clusterDevices(const ClusterSpec &spec,
                                       const std::vector<DeviceName> &perTask) {
  std::vector<DeviceName> local = perTask;
  if (local.empty()) {
    DeviceName cpu;
    cpu.type = "CPU";
    cpu.id = 0;
    local.push_back(cpu);
  }
  std::vector<DeviceName> result;
  for (const ClusterSpec::Job &job : spec.jobs)
    for (size_t task = 0; task < job.tasks.size(); ++task) {
      DeviceName where;
      where.job = job.name;
      where.replica = 0;
      where.task = int64_t(task);
      for (const DeviceName &device : local) {
        // A device that names its own task belongs to that task only.
        if ((device.job && device.job != where.job) ||
            (device.task && device.task != where.task))
          continue;
        DeviceName complete = device;
        complete.job = where.job;
        complete.replica = complete.replica.value_or(0);
        complete.task = where.task;
        complete.id = complete.id.value_or(0);
        result.push_back(complete);
      }
    }
  return result;
}

} // namespace tfc
