//===- DeviceKernels.cpp - which device types can run a node --------------===//
//
// Placement's feasibility test (white paper §3.2.1: "a given operation may
// be implemented on some devices and not others"): the device types of an
// op's row in the op table (OpTable.td). String tensors never live on a
// GPU.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Placement.h"


using namespace mlir;

namespace tfc {
namespace {

bool hasStringTensor(Operation *node) {
  auto isString = [](Type type) {
    auto tensor = dyn_cast<TensorType>(type);
    return tensor && isa<tfg::StringType>(tensor.getElementType());
  };
  return llvm::any_of(node->getOperandTypes(), isString) ||
         llvm::any_of(node->getResultTypes(), isString);
}

} // namespace

bool hasKernel(StringRef deviceType, Operation *node) {
  const OpInfo *op = lookupOp(node);
  if (!op)
    return false;
  if (deviceType == "CPU")
    return op->hasKernelOn(kDeviceCPU);
  if (deviceType == "GPU")
    return op->hasKernelOn(kDeviceGPU) && !hasStringTensor(node);
  return false;
}

} // namespace tfc
