//===- ClusterSpec.h - a cluster's devices, for placement -------*- C++ -*-===//
//
// The compiler's view of a cluster (tfc/Distributed/ClusterSpec.h parses
// it): the devices placement may use, each task's.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_CLUSTERSPEC_H
#define TFC_TARGET_CLUSTERSPEC_H

#include "tfc/Distributed/ClusterSpec.h"
#include "tfc/Support/DeviceName.h"

#include <vector>

namespace tfc {

/// Every task's devices: `perTask` (partial names without job, replica or
/// task; default one CPU) completed with each task in turn.
std::vector<DeviceName> clusterDevices(const ClusterSpec &spec,
                                       const std::vector<DeviceName> &perTask);

} // namespace tfc

#endif // TFC_TARGET_CLUSTERSPEC_H
