//===- OpRegistryTest.cpp - the op registry and arg expansion -------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "graph.pb.h"

#include "mlir/IR/Builders.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tfc;

namespace {

TEST(OpRegistryTest, KnowsTheOpFamiliesTfcNeeds) {
  const OpRegistry &registry = OpRegistry::get();
  for (const char *op :
       {"MatMul", "Conv2D", "FusedBatchNormV3", "Switch", "Merge", "Enter",
        "Exit", "NextIteration", "LoopCond", "While", "StatelessIf",
        "VariableV2", "VarHandleOp", "ResourceApplyAdam", "SaveV2",
        "RestoreV2", "FIFOQueueV2", "_Send", "_Recv", "TensorListReserve"})
    EXPECT_NE(registry.lookup(op), nullptr) << op;
  EXPECT_EQ(registry.lookup("NotAnOp"), nullptr);
  // Every op of TensorFlow 2.21's tf.raw_ops, and internal ones.
  EXPECT_GT(registry.size(), 1400u);
  EXPECT_TRUE(registry.lookup("RandomUniform")->is_stateful());
  EXPECT_FALSE(registry.lookup("AddV2")->is_stateful());
}

class ExpandArgTypesTest : public ::testing::Test {
protected:
  ExpandArgTypesTest() : builder(&context) {
    context.getOrLoadDialect<tfg::TfgDialect>();
  }
  MLIRContext context;
  Builder builder;
};

TEST_F(ExpandArgTypesTest, NumberAttrRepeatsTheType) {
  // ConcatV2: values: N * T, axis: Tidx (default int32).
  const proto::OpDef &concat = *OpRegistry::get().lookup("ConcatV2");
  DictionaryAttr attrs = builder.getDictionaryAttr(
      {builder.getNamedAttr("N", builder.getI64IntegerAttr(3)),
       builder.getNamedAttr("T", TypeAttr::get(builder.getF16Type()))});
  SmallVector<Type> types;
  SmallVector<unsigned> sizes;
  std::string error;
  ASSERT_EQ(tfg::expandArgTypes(&context, concat, /*outputs=*/false, attrs,
                                types, error, &sizes),
            tfg::ArgExpansion::Expanded)
      << error;
  Type f16 = builder.getF16Type(), i32 = builder.getI32Type();
  EXPECT_EQ(types, (SmallVector<Type>{f16, f16, f16, i32}));
  EXPECT_EQ(sizes, (SmallVector<unsigned>{3, 1}));
}

TEST_F(ExpandArgTypesTest, TypeListsAndRefs) {
  const proto::OpDef &identityN = *OpRegistry::get().lookup("IdentityN");
  DictionaryAttr attrs = builder.getDictionaryAttr({builder.getNamedAttr(
      "T", builder.getArrayAttr({TypeAttr::get(builder.getI1Type()),
                                 TypeAttr::get(builder.getF64Type())}))});
  SmallVector<Type> types;
  std::string error;
  ASSERT_EQ(tfg::expandArgTypes(&context, identityN, true, attrs, types,
                                error),
            tfg::ArgExpansion::Expanded);
  EXPECT_EQ(types.size(), 2u);

  const proto::OpDef &variable = *OpRegistry::get().lookup("VariableV2");
  attrs = builder.getDictionaryAttr(
      {builder.getNamedAttr("dtype", TypeAttr::get(builder.getF32Type()))});
  types.clear();
  ASSERT_EQ(tfg::expandArgTypes(&context, variable, true, attrs, types, error),
            tfg::ArgExpansion::Expanded);
  EXPECT_EQ(types[0], tfg::RefType::get(builder.getF32Type()));
}

TEST_F(ExpandArgTypesTest, MissingAttrsAndPlaceholders) {
  const proto::OpDef &matmul = *OpRegistry::get().lookup("MatMul");
  SmallVector<Type> types;
  std::string error;
  EXPECT_EQ(tfg::expandArgTypes(&context, matmul, true,
                                builder.getDictionaryAttr({}), types, error),
            tfg::ArgExpansion::Failed);
  EXPECT_EQ(error, "missing attr 'T'");

  const proto::OpDef &addN = *OpRegistry::get().lookup("AddN");
  DictionaryAttr attrs = builder.getDictionaryAttr(
      {builder.getNamedAttr("N", tfg::PlaceholderAttr::get(&context, "n")),
       builder.getNamedAttr("T", TypeAttr::get(builder.getF32Type()))});
  EXPECT_EQ(tfg::expandArgTypes(&context, addN, false, attrs, types, error),
            tfg::ArgExpansion::DependsOnPlaceholder);
}

} // namespace
