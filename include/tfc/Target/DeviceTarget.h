//===- DeviceTarget.h - what code generation and linking ask a device ----*- C++ -*-===//
//
// Each device type tfc generates code for is a target. Code generation
// asks it for the symbols of its kernels (the runtime C ABI's
// `tfc_cpu_matmul_f32` is the CPU target's "matmul_f32"); the link step
// asks it for the archives that hold those kernels (by the ISA level the
// code is generated for) and the system libraries they need. A new device
// type (CUDA) is a new target in lib/Target/Devices beside the CPU one,
// not edits in code generation or the link step.
//
// Targets depend on LLVM's target machine only, so that the compiler's
// middle (code generation) and its back end (the link step) both reach
// them.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_DEVICETARGET_H
#define TFC_TARGET_DEVICETARGET_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace tfc {

class DeviceTarget {
public:
  virtual ~DeviceTarget() = default;
  /// The device type, as device names spell it ("CPU").
  virtual llvm::StringRef deviceType() const = 0;
  /// The symbol of the target's kernel `kernel` (its name in the runtime C
  /// ABI without the target's prefix: "matmul_f32").
  virtual std::string kernelSymbol(llvm::StringRef kernel) const = 0;
  /// The archives (file names in the runtime library directory) that hold
  /// the target's kernels for code generated for `machine` (null: the
  /// baseline of the host), in link order.
  virtual std::vector<std::string>
  kernelArchives(const llvm::TargetMachine *machine) const = 0;
  /// Linker flags for the system libraries the kernels use.
  virtual std::vector<std::string> systemLibraries() const = 0;
};

/// The target of a device type, or null when tfc has none.
const DeviceTarget *lookupDeviceTarget(llvm::StringRef deviceType);

} // namespace tfc

#endif // TFC_TARGET_DEVICETARGET_H
