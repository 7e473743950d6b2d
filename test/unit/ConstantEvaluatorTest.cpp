//===- ConstantEvaluatorTest.cpp - how tfc-fold-constants gets its values -===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Target/EvaluateConstants.h"
#include "tfc/Transforms/ConstantEvaluator.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

// A numeric subgraph of constants (Square of a Const, which the pass does
// not compute itself) that an AddV2 reads.
constexpr const char *kGraph = R"mlir(
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %c:2 = Const name("c") {dtype = f32, value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %n:2 = Square(%c#0) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %y:2 = AddV2(%x#0, %n#0) name("y") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
}
)mlir";

/// Runs tfc-fold-constants on kGraph in a context made from `registry`;
/// the diagnostics it emitted, and the module.
std::pair<LogicalResult, std::string> fold(DialectRegistry &registry,
                                           OwningOpRef<ModuleOp> &module,
                                           MLIRContext &context) {
  context.appendDialectRegistry(registry);
  context.getOrLoadDialect<tfc::tfg::TfgDialect>();
  context.allowUnregisteredDialects();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    diagnostics += diagnostic.str() + "\n";
    return success();
  });
  module = parseSourceString<ModuleOp>(kGraph, &context);
  if (!module)
    return {failure(), "parse failed: " + diagnostics};
  PassManager pm(&context);
  pm.addPass(tfc::createFoldConstantsPass());
  LogicalResult result = pm.run(*module);
  return {result, diagnostics};
}

// Tests that without an evaluator the pass fails naming the node it would
// have folded, instead of silently leaving it.
TEST(ConstantEvaluatorTest, MissingEvaluatorFailsNamingTheNode) {
  DialectRegistry registry;
  registry.insert<tfc::tfg::TfgDialect>();
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  auto [result, diagnostics] = fold(registry, module, context);
  EXPECT_TRUE(failed(result));
  EXPECT_EQ(tfc::getConstantEvaluator(&context), nullptr);
  EXPECT_NE(diagnostics.find("node 'n' computes from constants only, and "
                             "folding it needs a constant evaluator"),
            std::string::npos)
      << diagnostics;
}

// Tests that the evaluator a registry states is the one the pass uses: the
// Square of 2 becomes a Const 4 computed by a compiled program.
TEST(ConstantEvaluatorTest, RegisteredEvaluatorFolds) {
  DialectRegistry registry;
  registry.insert<tfc::tfg::TfgDialect>();
  tfc::registerConstantEvaluator(registry);
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  auto [result, diagnostics] = fold(registry, module, context);
  ASSERT_TRUE(succeeded(result)) << diagnostics;
  ASSERT_NE(tfc::getConstantEvaluator(&context), nullptr);
  Operation *squared = nullptr;
  module->walk([&](Operation *op) {
    if (tfc::tfg::isNode(op) && tfc::tfg::getNodeName(op) == "n")
      squared = op;
  });
  ASSERT_NE(squared, nullptr);
  EXPECT_EQ(tfc::tfg::getOpType(squared), "Const");
  auto value = squared->getAttrOfType<DenseElementsAttr>("value");
  ASSERT_TRUE(value);
  for (float element : value.getValues<float>())
    EXPECT_EQ(element, 4.0f);
}

} // namespace
