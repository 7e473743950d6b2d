//===- LinkInputs.cpp - what a link takes from the device targets ---------===//

#include "tfc/Target/DeviceTarget.h"
#include "tfc/Target/Program.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/Partition.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

namespace tfc {

FailureOr<TargetLinkInputs> targetLinkInputs(ArrayRef<std::string> deviceTypes,
                                             const TargetOptions &options,
                                             Location loc) {
  TargetLinkInputs inputs;
  // Without the target machine (an unknown triple fails later, at code
  // emission), the targets give their baseline kernels.
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      makeTargetMachine(options, error);
  for (const std::string &type : deviceTypes) {
    const DeviceTarget *target = lookupDeviceTarget(type);
    if (!target)
      return emitError(loc) << "no code generation target for " << type
                            << " devices";
    llvm::append_range(inputs.kernelArchives,
                       target->kernelArchives(machine.get()));
    for (const std::string &library : target->systemLibraries())
      if (!llvm::is_contained(inputs.systemLibraries, library))
        inputs.systemLibraries.push_back(library);
  }
  return inputs;
}

TargetLinkInputs programMainLinkInputs(ProgramMain main) {
  if (main == ProgramMain::Standalone)
    return {{"libTfcProgramMain.a"}, {}};
  // A cluster task's main, the transport, its service's protobuf code, the
  // cluster specs (with the ClusterDef schema); then gRPC and protobuf as
  // pkg-config gave them when tfc was configured.
  TargetLinkInputs inputs{{"libTfcTaskMain.a", "libTfcDistributed.a",
                           "libTfcTaskServiceProto.a", "libTfcTensorCoding.a",
                           "libTfcClusterSpec.a", "libTfcProto.a"},
                          {}};
  llvm::SmallVector<llvm::StringRef> libraries;
  llvm::StringRef(TFC_CLUSTER_TASK_SYSTEM_LIBRARIES)
      .split(libraries, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef library : libraries)
    inputs.systemLibraries.push_back(library.str());
  return inputs;
}

std::vector<std::string> partitionDeviceTypes(ModuleOp module) {
  std::vector<std::string> types;
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    std::string type = partitionDeviceType(graph);
    if (!llvm::is_contained(types, type))
      types.push_back(type);
  }
  if (types.empty())
    types.push_back("CPU");
  return types;
}

std::vector<std::string> runtimeSystemLibraries(const llvm::Module &module) {
  // RegexOps.cpp is the only part of the runtime with a library of its own.
  for (const llvm::Function &function : module.functions())
    if (function.isDeclaration() && function.getName().starts_with("tfc_regex_"))
      return {"-lre2"};
  return {};
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
