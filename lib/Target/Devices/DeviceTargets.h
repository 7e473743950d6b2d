//===- DeviceTargets.h - the targets tfc has, one file each -----*- C++ -*-===//

#ifndef TFC_TARGET_DEVICES_DEVICETARGETS_H
#define TFC_TARGET_DEVICES_DEVICETARGETS_H

#include "tfc/Target/DeviceTarget.h"

namespace tfc {

const DeviceTarget &cpuTarget();

} // namespace tfc

#endif // TFC_TARGET_DEVICES_DEVICETARGETS_H
