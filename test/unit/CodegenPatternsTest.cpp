//===- CodegenPatternsTest.cpp - code generation's patterns cover the table ===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"

#include "tfc/Dialect/Tfg/NodeUtils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tfc;

namespace {

struct Fixture {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  tfg::GraphOp graph;
  unsigned globals = 0;
  std::unique_ptr<StepEmitter> step;

  Fixture() {
    context.getOrLoadDialect<tfg::TfgDialect>();
    OpBuilder builder(&context);
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    graph = builder.create<tfg::GraphOp>(
        builder.getUnknownLoc(),
        tfg::VersionAttr::get(&context, 1994, 0, {}));
    graph.getNodes().emplaceBlock();
    step = std::make_unique<StepEmitter>(*module, graph,
                                         *lookupDeviceTarget("CPU"), globals);
  }
};

// Tests that the families add, for every op the table lowers with a
// pattern, a pattern rooted at that op, and nothing for any other op; and
// one for the fusion groups tfc-fuse-elementwise forms.
TEST(CodegenPatternsTest, FamiliesCoverTheTable) {
  Fixture f;
  CodegenPatterns patterns(*f.step, &f.context);
  populateCodegenPatterns(patterns);
  EXPECT_TRUE(succeeded(patterns.verifyCoverTable(f.graph)));
  llvm::StringSet<> roots;
  for (const auto &pattern : patterns.set.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      roots.insert(root->getStringRef());
  for (const OpInfo &op : opTable()) {
    std::string root = ("tfg." + op.type).str();
    EXPECT_EQ(roots.contains(root), op.lowering == Lowering::Pattern)
        << op.type.str();
  }
  EXPECT_TRUE(roots.contains(FusionGroupOp::getOperationName()));
}

// Tests that a table row naming a pattern no family adds stops code
// generation with an error naming the op and the pattern.
TEST(CodegenPatternsTest, MissingPatternIsAnErrorNamingIt) {
  Fixture f;
  CodegenPatterns patterns(*f.step, &f.context);
  populateElementwisePatterns(patterns);
  std::string message;
  ScopedDiagnosticHandler handler(&f.context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  EXPECT_TRUE(failed(patterns.verifyCoverTable(f.graph)));
  EXPECT_NE(message.find("MatMul (Pattern<\"MatMul\">)"), std::string::npos)
      << message;
  EXPECT_EQ(message.find("Relu"), std::string::npos) << message;
}

/// A pattern for Identity nodes that counts its lowerings: it declines
/// (match fails), fails its lowering, or succeeds.
class CountingPattern : public NodePattern {
public:
  enum Outcome { Declines, Fails, Lowers };
  CountingPattern(StepEmitter &step, MLIRContext *context,
                  PatternBenefit benefit, Outcome outcome, int *lowered)
      : NodePattern("Identity", step, context, benefit), outcome(outcome),
        lowered(lowered) {}
  LogicalResult match(Operation *) const override {
    return success(outcome != Declines);
  }

protected:
  LogicalResult lower(Operation *node) const override {
    ++*lowered;
    if (outcome == Fails)
      return node->emitError("cannot lower");
    return success();
  }

private:
  Outcome outcome;
  int *lowered;
};

// Tests that a node goes to the first pattern, by benefit, that matches it,
// past those that decline; when that pattern's lowering fails, the node
// fails and no pattern of lower benefit writes it.
TEST(CodegenPatternsTest, MatchedPatternOwnsTheNode) {
  Fixture f;
  OpBuilder builder(&f.context);
  builder.setInsertionPointToEnd(&f.graph.getBody());
  auto f32 = RankedTensorType::get({2}, builder.getF32Type());
  Operation *x = tfg::createNode(builder, builder.getUnknownLoc(), "Const",
                                 {f32}, {}, {}, {});
  Operation *identity =
      tfg::createNode(builder, builder.getUnknownLoc(), "Identity", {f32},
                      {x->getResult(0)}, {}, {});
  ScopedDiagnosticHandler quiet(&f.context, [](Diagnostic &) {
    return success();
  });
  PatternRewriter rewriter(&f.context);
  auto apply = [&](CountingPattern::Outcome second, int counts[3]) {
    RewritePatternSet set(&f.context);
    set.add<CountingPattern>(*f.step, &f.context, 3, CountingPattern::Declines,
                             &counts[0]);
    set.add<CountingPattern>(*f.step, &f.context, 2, second, &counts[1]);
    set.add<CountingPattern>(*f.step, &f.context, 1, CountingPattern::Lowers,
                             &counts[2]);
    FrozenRewritePatternSet frozen(std::move(set));
    PatternApplicator applicator(frozen);
    applicator.applyDefaultCostModel();
    return applyNodePatterns(applicator, rewriter, identity);
  };
  int failing[3] = {0, 0, 0};
  EXPECT_TRUE(failed(apply(CountingPattern::Fails, failing)));
  EXPECT_EQ(failing[0], 0);
  EXPECT_EQ(failing[1], 1);
  EXPECT_EQ(failing[2], 0);
  int declining[3] = {0, 0, 0};
  EXPECT_TRUE(succeeded(apply(CountingPattern::Declines, declining)));
  EXPECT_EQ(declining[0], 0);
  EXPECT_EQ(declining[1], 0);
  EXPECT_EQ(declining[2], 1);
}

} // namespace
