//===- Variables.cpp - what nodes do to variables -------------------------===//

#include "tfc/Transforms/Variables.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Transforms/OpTable.h"

#include "graph.pb.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace tfc {

bool isVariableNode(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  return llvm::is_contained(
      {OpKind::VariableV2, OpKind::Variable, OpKind::VarHandleOp},
      opKindOf(node));
}

bool isVariableReference(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor)
    return false;
  return isa<tfg::RefType, tfg::ResourceType>(tensor.getElementType());
}

bool writesVariables(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op && op->writesVariable;
}

int scatterIndicesOperand(Operation *node) {
  const OpInfo *op = lookupOp(node);
  if (!op || !op->writesVariable)
    return -1;
  const proto::OpDef *opDef = OpRegistry::get().lookup(op->type);
  if (!opDef)
    return -1;
  for (int i = 0; i < opDef->input_arg_size(); ++i)
    if (opDef->input_arg(i).name() == "indices")
      return i;
  return -1;
}

bool isVariableRead(Operation *node) {
  if (!tfg::isNode(node))
    return false;
  OpKind kind = opKindOf(node);
  if (kind == OpKind::ReadVariableOp)
    return true;
  // Identity of a ref reads the value; of a handle, it passes the handle on.
  return kind == OpKind::Identity && !tfg::getDataOperands(node).empty() &&
         isa<tfg::RefType>(
             cast<TensorType>(tfg::getDataOperands(node)[0].getType())
                 .getElementType()) &&
         !isVariableReference(tfg::getDataResults(node)[0].getType());
}

Operation *variableNodeOf(Value reference) {
  return sourceNodeOf(reference, isVariableNode);
}

Operation *sourceNodeOf(Value reference,
                        llvm::function_ref<bool(Operation *)> isSource) {
  while (Operation *producer = reference.getDefiningOp()) {
    if (!tfg::isNode(producer))
      return nullptr;
    if (isSource(producer))
      return producer;
    // Ref outputs of Assign/Apply ops are their first input's variable;
    // Identity/RefIdentity of a ref or handle pass it on, and so do the
    // nodes that carry it through TF1 control flow. A Merge is the variable
    // all its inputs are (a loop's back edge aside, which comes round to
    // it), or none when a conditional picks between variables.
    OpKind kind = plainOpKindOf(producer);
    if (kind == OpKind::Merge) {
      Operation *variable = nullptr;
      for (Value input : tfg::getDataOperands(producer)) {
        Operation *from = input.getDefiningOp();
        if (from && tfg::isNode(from) &&
            plainOpKindOf(from) == OpKind::NextIteration)
          continue;
        Operation *each = sourceNodeOf(input, isSource);
        if (!each || (variable && each != variable))
          return nullptr;
        variable = each;
      }
      return variable;
    }
    bool passesOn =
        writesVariables(producer) ||
        llvm::is_contained({OpKind::Identity, OpKind::Enter, OpKind::Switch,
                            OpKind::Exit},
                           kind);
    if (!passesOn || tfg::getDataOperands(producer).empty() ||
        !isVariableReference(tfg::getDataOperands(producer)[0].getType()))
      return nullptr;
    reference = tfg::getDataOperands(producer)[0];
  }
  return nullptr;
}

std::string checkpointKey(Operation *variableNode) {
  if (auto key = variableNode->getAttrOfType<StringAttr>(kCheckpointKeyAttr))
    return key.str();
  if (auto shared = variableNode->getAttrOfType<StringAttr>("shared_name"))
    if (!shared.getValue().empty())
      return shared.str();
  return tfg::getNodeName(variableNode).str();
}

std::string variableId(Operation *variableNode) {
  std::string name = checkpointKey(variableNode);
  if (auto container = variableNode->getAttrOfType<StringAttr>("container"))
    if (!container.getValue().empty())
      return container.str() + "/" + name;
  return name;
}

} // namespace tfc
