//===- OpTableTest.cpp - the op table's rows and queries ------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tfc;

namespace {

// Tests that the rows are sorted and unique, each op type is one the
// registry knows, and lookup by type finds the row with its own kind.
TEST(OpTableTest, RowsAreRegistryOpsFoundByTheirType) {
  llvm::ArrayRef<OpInfo> rows = opTable();
  ASSERT_GT(rows.size(), 300u);
  for (size_t i = 0; i < rows.size(); ++i) {
    const OpInfo &row = rows[i];
    EXPECT_NE(OpRegistry::get().lookup(row.type), nullptr) << row.type.str();
    EXPECT_EQ(lookupOp(row.type), &row) << row.type.str();
    EXPECT_NE(row.kind, OpKind::Unknown) << row.type.str();
    if (i > 0)
      EXPECT_LT(rows[i - 1].type, row.type);
  }
  EXPECT_EQ(lookupOp("NotAnOp"), nullptr);
}

// Tests that what a row says is coherent: an emitter or pass is named
// exactly when the lowering needs one, every lowered op has a CPU kernel
// and no op without a lowering claims a device or folding, and aliases
// name an input only when they are aliases.
TEST(OpTableTest, RowsAreCoherent) {
  for (const OpInfo &row : opTable()) {
    std::string type = row.type.str();
    bool named = row.lowering == Lowering::Pattern ||
                 row.lowering == Lowering::RewrittenBy;
    EXPECT_EQ(!row.loweredBy.empty(), named) << type;
    EXPECT_EQ(row.isLowered(), row.hasKernelOn(kDeviceCPU)) << type;
    if (!row.isLowered())
      EXPECT_FALSE(row.devices) << type;
    // Folding compiles the op: only what code generation writes folds.
    EXPECT_EQ(row.folds, row.lowering == Lowering::NoCode ||
                             row.lowering == Lowering::Pattern)
        << type;
    if (row.aliasOperand >= 0)
      EXPECT_TRUE(row.alias) << type;
    EXPECT_NE(row.cost, nullptr) << type;
    EXPECT_FALSE(familyName(row.family).empty()) << type;
  }
}

// Tests the queries passes share on nodes built in a graph.
TEST(OpTableTest, QueriesReadTheRowsOfNodes) {
  MLIRContext context;
  context.getOrLoadDialect<tfg::TfgDialect>();
  context.allowUnregisteredDialects();
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  auto module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto f32 = RankedTensorType::get({2}, builder.getF32Type());
  auto node = [&](StringRef type, TypeRange results, ValueRange operands) {
    return tfg::createNode(builder, loc, type, results, operands, {}, {});
  };
  Operation *x = node("Const", {f32}, {});
  Operation *relu = node("Relu", {f32}, {x->getResult(0)});
  Operation *lgamma = node("Lgamma", {f32}, {x->getResult(0)});
  Operation *identity = node("Identity", {f32}, {relu->getResult(0)});
  Operation *pred = node("Const", {RankedTensorType::get({}, builder.getI1Type())}, {});
  Operation *sw = node("Switch", {f32, f32}, {x->getResult(0), pred->getResult(0)});
  Operation *pool = node("MaxPoolGrad", {f32}, {x->getResult(0)});
  Operation *unknown = node("Frobnicate", {}, {});
  Operation *refMerge = node("RefMerge", {f32}, {x->getResult(0)});

  EXPECT_EQ(opKindOf(relu), OpKind::Relu);
  EXPECT_EQ(opKindOf(unknown), OpKind::Unknown);
  EXPECT_EQ(opKindOf(module), OpKind::Unknown);
  // A ref-typed variant is its own kind, and its plain form's to the
  // passes that treat the two alike.
  EXPECT_EQ(opKindOf(refMerge), OpKind::RefMerge);
  EXPECT_EQ(plainOpKindOf(refMerge), OpKind::Merge);
  EXPECT_EQ(plainOpKindOf(relu), OpKind::Relu);
  EXPECT_EQ(plainOpKindOf(unknown), OpKind::Unknown);
  EXPECT_TRUE(isElementwise(relu));
  // Lgamma is known (it has a shape) but nothing lowers it.
  EXPECT_FALSE(isElementwise(lgamma));
  EXPECT_FALSE(lookupOp(lgamma)->folds);
  EXPECT_TRUE(lookupOp(relu)->folds);
  EXPECT_EQ(lookupOp(unknown), nullptr);
  EXPECT_TRUE(isAlias(identity));
  EXPECT_EQ(aliasedInput(identity, 0), relu->getResult(0));
  // Both outputs of a Switch are its data input.
  EXPECT_TRUE(isAlias(sw));
  EXPECT_EQ(aliasedInput(sw, 1), x->getResult(0));
  EXPECT_TRUE(isControlFlow(sw));
  EXPECT_FALSE(isControlFlow(relu));
  EXPECT_TRUE(isWindowGradient(pool));
  EXPECT_FALSE(isBatchNorm(pool));
  module->destroy();
}

} // namespace
