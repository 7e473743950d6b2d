//===- CodegenPatternsTest.cpp - code generation's patterns cover the table ===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/IR/Diagnostics.h"

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
// pattern, a pattern rooted at that op, and nothing for any other op.
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

} // namespace
