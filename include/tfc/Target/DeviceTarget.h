//===- DeviceTarget.h - what the link step asks a device type ---*- C++ -*-===//
//
// Each device type tfc generates code for is a target: it names the
// archives that hold its kernels and runtime (by the ISA level the code is
// generated for) and the system libraries those need. The link step asks
// the targets of the partitions it links, so a new device type (CUDA) is a
// new target beside the CPU one, not edits in the link step.
//
// The archives live in the runtime library directory, found relative to
// the running tool: `<prefix>/lib/tfc/` beside `<prefix>/bin/`, in the
// build tree as in an installed prefix (`cmake --install`), so the
// toolchain can be moved.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_DEVICETARGET_H
#define TFC_TARGET_DEVICETARGET_H

#include "tfc/Target/Program.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tfc {

class DeviceTarget {
public:
  virtual ~DeviceTarget() = default;
  /// The device type, as device names spell it ("CPU").
  virtual llvm::StringRef deviceType() const = 0;
  /// The archives (file names in runtimeLibraryDir()) that hold the
  /// target's kernels for code generated with `options`, in link order.
  virtual std::vector<std::string>
  kernelArchives(const TargetOptions &options) const = 0;
  /// Linker flags for the system libraries the kernels use.
  virtual std::vector<std::string> systemLibraries() const = 0;
};

/// The target of a device type, or null when tfc has none.
const DeviceTarget *lookupDeviceTarget(llvm::StringRef deviceType);

/// What the targets of some device types link: their kernel archives in
/// order, and their system libraries once each.
struct TargetLinkInputs {
  std::vector<std::string> kernelArchives, systemLibraries;
};

/// The link inputs of the targets of `deviceTypes` for code generated with
/// `options`; an error at `loc` naming a device type without a target.
mlir::FailureOr<TargetLinkInputs>
targetLinkInputs(llvm::ArrayRef<std::string> deviceTypes,
                 const TargetOptions &options, mlir::Location loc);

/// The device types of a module's partitions (its step and init graphs):
/// CPU when none is named.
std::vector<std::string> partitionDeviceTypes(mlir::ModuleOp module);

/// The directory holding the runtime and kernel archives: `lib/tfc`
/// beside the `bin` of the running executable.
const std::string &runtimeLibraryDir();

} // namespace tfc

#endif // TFC_TARGET_DEVICETARGET_H
