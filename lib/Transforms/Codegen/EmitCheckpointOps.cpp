//===- EmitCheckpointOps.cpp - SaveV2, RestoreV2, MergeV2Checkpoints ------===//
//
// A graph's saver ops become calls of the runtime's checkpoint ops: the
// string operands (prefix, tensor names, slices) as handles, the tensors
// as a table of addresses, and their dtypes and shapes as a constant
// descriptor (count, then dtype, rank and dims per tensor). A ref operand
// of SaveV2 is the variable's buffer, checked to be initialized first.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

using namespace mlir;

namespace tfc {

namespace {

/// SaveV2, RestoreV2, MergeV2Checkpoints: the runtime's checkpoint ops.
class CheckpointOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    SmallVector<Value> inputs;
    for (Value operand : operands) {
      Value buffer = step.memrefFor(operand);
      if (!buffer)
        return step.error(node) << "an input has no buffer";
      inputs.push_back(buffer);
    }
    Value name = step.stringPointer(loc, tfg::getNodeName(node));

    if (kind == OpKind::MergeV2Checkpoints) {
      step.callKernel(
          loc, "tfc_merge_v2_checkpoints",
          {step.pointerTo(inputs[0]), step.pointerTo(inputs[1]), name},
          {memrefOf(operands[0]).getNumElements(),
           boolAttr(node, "delete_old_dirs", true),
           boolAttr(node, "allow_missing_files", false)});
      return success();
    }

    // SaveV2 writes its operands after the first three; RestoreV2 its
    // results.
    bool save = kind == OpKind::SaveV2;
    SmallVector<Value> tensors, buffers;
    if (save) {
      for (auto [operand, buffer] :
           llvm::drop_begin(llvm::zip(operands, inputs), 3)) {
        if (isVariableReference(operand.getType()))
          step.checkInitialized(loc, operand);
        tensors.push_back(operand);
        buffers.push_back(buffer);
      }
    } else {
      for (auto [port, result] : llvm::enumerate(tfg::getDataResults(node))) {
        FailureOr<Value> buffer = step.outputFor(node, port);
        if (failed(buffer))
          return failure();
        tensors.push_back(result);
        buffers.push_back(*buffer);
      }
    }
    if (memrefOf(operands[1]).getNumElements() != int64_t(tensors.size()) ||
        memrefOf(operands[2]).getNumElements() != int64_t(tensors.size()))
      return step.error(node)
             << "tensor_names and shape_and_slices must have one "
                "element per tensor ("
             << tensors.size() << ")";
    SmallVector<int64_t> descriptor = {int64_t(tensors.size())};
    for (Value tensor : tensors) {
      auto tensorType = cast<RankedTensorType>(tensor.getType());
      Type element = tensorType.getElementType();
      if (auto ref = dyn_cast<tfg::RefType>(element))
        element = ref.getElementType();
      int dtype = tfg::typeToDataType(element);
      if (rt::elementSize(dtype) == 0)
        return step.error(node)
               << "a tensor of dtype " << tfg::elementTypeName(element)
               << ": checkpoint ops take numeric and bool tensors";
      descriptor.push_back(dtype);
      descriptor.push_back(tensorType.getRank());
      llvm::append_range(descriptor, tensorType.getShape());
    }
    step.callKernel(loc, save ? "tfc_save_v2" : "tfc_restore_v2",
                    {step.pointerTo(inputs[0]), step.pointerTo(inputs[1]),
                     step.pointerTo(inputs[2]), step.addressTable(loc, buffers),
                     step.pointerTo(step.constantTable(loc, descriptor)), name},
                    {});
    return success();
  }
};

} // namespace

void populateCheckpointPatterns(CodegenPatterns &patterns) {
  patterns.add<CheckpointOpPattern>("CheckpointOp");
}

} // namespace tfc
