//===- DeviceTarget.cpp - the device targets and the runtime directory ----===//

#include "tfc/Target/DeviceTarget.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/DeviceName.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace tfc {
namespace {

/// CPUs: the kernels of runtime/kernels/cpu, built once per x86-64 ISA
/// level (AVX-512, AVX2, baseline), on oneDNN and OpenMP.
class CpuTarget : public DeviceTarget {
public:
  llvm::StringRef deviceType() const override { return "CPU"; }

  std::vector<std::string>
  kernelArchives(const TargetOptions &options) const override {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> machine =
        makeTargetMachine(options, error);
    if (machine &&
        machine->getTargetTriple().getArch() == llvm::Triple::x86_64) {
      const llvm::MCSubtargetInfo *cpu = machine->getMCSubtargetInfo();
      if (cpu->checkFeatures("+avx512f,+avx512bw,+avx512dq,+avx512vl,+fma"))
        return {"libTfcCpuKernelsAVX512.a"};
      if (cpu->checkFeatures("+avx2,+fma,+f16c"))
        return {"libTfcCpuKernelsAVX2.a"};
    }
    return {"libTfcCpuKernels.a"};
  }

  std::vector<std::string> systemLibraries() const override {
    return {"-ldnnl", "-lgomp"};
  }
};

} // namespace

const DeviceTarget *lookupDeviceTarget(llvm::StringRef deviceType) {
  static const CpuTarget cpu;
  if (deviceType == cpu.deviceType())
    return &cpu;
  return nullptr;
}

FailureOr<TargetLinkInputs> targetLinkInputs(ArrayRef<std::string> deviceTypes,
                                             const TargetOptions &options,
                                             Location loc) {
  TargetLinkInputs inputs;
  for (const std::string &type : deviceTypes) {
    const DeviceTarget *target = lookupDeviceTarget(type);
    if (!target)
      return emitError(loc) << "no code generation target for " << type
                            << " devices";
    llvm::append_range(inputs.kernelArchives, target->kernelArchives(options));
    for (const std::string &library : target->systemLibraries())
      if (!llvm::is_contained(inputs.systemLibraries, library))
        inputs.systemLibraries.push_back(library);
  }
  return inputs;
}

std::vector<std::string> partitionDeviceTypes(ModuleOp module) {
  std::vector<std::string> types;
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
    std::optional<DeviceName> name =
        device ? DeviceName::parse(device.getValue()) : std::nullopt;
    std::string type = name && name->type ? *name->type : "CPU";
    if (!llvm::is_contained(types, type))
      types.push_back(type);
  }
  if (types.empty())
    types.push_back("CPU");
  return types;
}

const std::string &runtimeLibraryDir() {
  static const std::string dir = [] {
    // <prefix>/bin/tfc -> <prefix>/lib/tfc, wherever the prefix was moved.
    std::string executable = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    llvm::SmallString<256> path(llvm::sys::path::parent_path(
        llvm::sys::path::parent_path(executable)));
    llvm::sys::path::append(path, "lib", "tfc");
    return std::string(path);
  }();
  return dir;
}

} // namespace tfc
