//===- DeviceTargetTest.cpp - the device targets ---------------------------===//

#include "tfc/Target/DeviceTarget.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tfc;

namespace {

// Tests that the CPU target names the kernels of the runtime's C ABI: the
// symbols it gives are the functions tfc_runtime.h declares.
TEST(DeviceTargetTest, CpuTargetNamesTheRuntimeKernels) {
  const DeviceTarget *cpu = lookupDeviceTarget("CPU");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->deviceType(), "CPU");
  // The compiler checks the declarations' existence: these are the
  // functions whose symbols the target must give.
  (void)&tfc_cpu_matmul_f32;
  (void)&tfc_cpu_lrn_f32;
  EXPECT_EQ(cpu->kernelSymbol("matmul_f32"), "tfc_cpu_matmul_f32");
  EXPECT_EQ(cpu->kernelSymbol("lrn_f32"), "tfc_cpu_lrn_f32");
}

// Tests what a link asks: without a target machine, the baseline kernels,
// and the libraries they use.
TEST(DeviceTargetTest, CpuTargetLinksItsKernelsAndLibraries) {
  const DeviceTarget *cpu = lookupDeviceTarget("CPU");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->kernelArchives(nullptr),
            std::vector<std::string>{"libTfcCpuKernels.a"});
  std::vector<std::string> libraries = cpu->systemLibraries();
  EXPECT_NE(std::find(libraries.begin(), libraries.end(), "-ldnnl"),
            libraries.end());
}

// Tests that a device type without a target has none (code generation and
// the link step then fail naming it).
TEST(DeviceTargetTest, UnknownDeviceTypesHaveNoTarget) {
  EXPECT_EQ(lookupDeviceTarget("TPU"), nullptr);
  EXPECT_EQ(lookupDeviceTarget("cpu"), nullptr);
}

} // namespace
