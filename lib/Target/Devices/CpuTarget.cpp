//===- CpuTarget.cpp - CPUs: the kernels of runtime/kernels/cpu -----------===//

#include "DeviceTargets.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

namespace tfc {
namespace {

/// CPUs: the kernels of runtime/kernels/cpu (`tfc_cpu_*`), built once per
/// x86-64 ISA level (AVX-512, AVX2, baseline), on oneDNN and OpenMP.
class CpuTarget : public DeviceTarget {
public:
  llvm::StringRef deviceType() const override { return "CPU"; }

  std::string kernelSymbol(llvm::StringRef kernel) const override {
    return ("tfc_cpu_" + kernel).str();
  }

  std::vector<std::string>
  kernelArchives(const llvm::TargetMachine *machine) const override {
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

const DeviceTarget &cpuTarget() {
  static const CpuTarget target;
  return target;
}

} // namespace tfc
