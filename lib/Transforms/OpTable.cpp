//===- OpTable.cpp - the rows of the op table and the queries on it -------===//
//
// The rows are generated from OpTable.td (scripts/gen_op_table.py); this
// file indexes them by op type and answers the questions passes share.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/OpTable.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tfc {

// The functions the rows name: shapes in ShapeFunctions.cpp, costs in
// CostModel.cpp. A name the table gives that nothing defines fails to link.
namespace shapes {
#define GET_SHAPE_FUNCTIONS
#include "tfc/Transforms/OpTable.inc"
} // namespace shapes
namespace costs {
#define GET_COST_FUNCTIONS
#include "tfc/Transforms/OpTable.inc"
} // namespace costs

namespace {

const OpInfo rows[] = {
#define GET_OP_ROWS
#include "tfc/Transforms/OpTable.inc"
};

const llvm::StringMap<const OpInfo *> &byType() {
  static const llvm::StringMap<const OpInfo *> index = [] {
    llvm::StringMap<const OpInfo *> map;
    for (const OpInfo &row : rows)
      map[row.type] = &row;
    return map;
  }();
  return index;
}

} // namespace

const OpInfo *lookupOp(StringRef opType) { return byType().lookup(opType); }

const OpInfo *lookupOp(Operation *node) {
  return tfg::isNode(node) ? lookupOp(tfg::getOpType(node)) : nullptr;
}

OpKind opKindOf(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op ? op->kind : OpKind::Unknown;
}

OpKind plainOpKindOf(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op ? op->plainKind : OpKind::Unknown;
}

llvm::ArrayRef<OpInfo> opTable() { return rows; }

StringRef familyName(OpFamily family) {
  switch (family) {
#define GET_OP_FAMILIES
#define TFC_OP_FAMILY(name, summary)                                           \
  case OpFamily::name:                                                         \
    return #name;
#include "tfc/Transforms/OpTable.inc"
  }
  return "";
}

/// The lowered row of `node`, or null.
static const OpInfo *loweredOp(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op && op->isLowered() ? op : nullptr;
}

bool isElementwise(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->family == OpFamily::Elementwise &&
         tfg::getDataResults(node).size() == 1;
}

bool isAlias(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->alias;
}

Value aliasedInput(Operation *node, unsigned port) {
  const OpInfo *op = lookupOp(node);
  int operand = op && op->aliasOperand >= 0 ? op->aliasOperand : int(port);
  return tfg::getDataOperands(node)[operand];
}

bool isControlFlow(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op && op->family == OpFamily::ControlFlow;
}

bool isWindowGradient(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->family == OpFamily::WindowGradient;
}

bool isBatchNorm(Operation *node) {
  const OpInfo *op = loweredOp(node);
  return op && op->family == OpFamily::BatchNorm;
}

} // namespace tfc
