//===- DeviceTarget.cpp - the device targets by device type ---------------===//

#include "DeviceTargets.h"

namespace tfc {

const DeviceTarget *lookupDeviceTarget(llvm::StringRef deviceType) {
  for (const DeviceTarget *target : {&cpuTarget()})
    if (target->deviceType() == deviceType)
      return target;
  return nullptr;
}

} // namespace tfc
