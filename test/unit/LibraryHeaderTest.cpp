//===- LibraryHeaderTest.cpp - the C names and header of --emit lib -------===//
//
// Tests what whole models in lit tests reach only in part: the C type of
// every dtype a library can pass, scalars, and the error for a dtype C
// cannot hold; and the names -o implies.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/Library.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tfc;

namespace {

/// Whether `text` contains `part`, printing the text when it does not.
::testing::AssertionResult contains(const std::string &text,
                                    const std::string &part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no '" << part << "' in:\n" << text;
}

TEST(LibraryHeaderTest, PassesEachDtypeAsItsCType) {
  MLIRContext context;
  ModelInterface model;
  // float, double, int32, uint8, int64, bool, half, complex64 and
  // complex128 (their parts); then a scalar int16.
  for (int dtype : {1, 2, 3, 4, 9, 10, 19, 8, 18})
    model.inputs.push_back({"in" + std::to_string(dtype), dtype, {2}});
  model.outputs.push_back({"out", 5, {}});
  FailureOr<std::string> header =
      renderLibraryHeader(model, "m", "libm.a", UnknownLoc::get(&context));
  ASSERT_TRUE(succeeded(header));
  EXPECT_TRUE(contains(
      *header, "int m_run(m_ctx *ctx, const float *in1, const double *in2, "
               "const int32_t *in3, const uint8_t *in4, const int64_t *in9, "
               "const uint8_t *in10, const uint16_t *in19, const float *in8, "
               "const double *in18, int16_t *out);"));
  // A complex tensor's elements count complex numbers, two parts each.
  EXPECT_TRUE(contains(*header, "#define M_IN8_ELEMENTS 2\n"));
  EXPECT_TRUE(contains(*header, "#define M_IN10_DTYPE 10"));
  // A scalar has one element and no shape array.
  EXPECT_TRUE(contains(*header, "\"out\", int16 []. */"));
  EXPECT_TRUE(contains(*header, "#define M_OUT_RANK 0\n"
                                "#define M_OUT_ELEMENTS 1\n\n"));
  EXPECT_TRUE(contains(*header, "cc main.c libm.a -ldnnl -lgomp -lstdc++"));
}

TEST(LibraryHeaderTest, SaysWhichFetchCountsDataDependentRows) {
  MLIRContext context;
  ModelInterface model;
  model.inputs.push_back({"m", 10, {5}});
  model.outputs.push_back({"rows:0", 1, {5, 3}});
  model.outputs.push_back({"rows:0/rows", 9, {}});
  model.rowsOutputs = {1, -1};
  FailureOr<std::string> header =
      renderLibraryHeader(model, "m", "libm.a", UnknownLoc::get(&context));
  ASSERT_TRUE(succeeded(header));
  EXPECT_TRUE(contains(*header, "\"rows:0\", float [5, 3], of which the first "
                                "`*rows_0_rows` rows are TensorFlow's. */"));
  EXPECT_TRUE(contains(*header, "float *rows, int64_t *rows_0_rows);"));
}

TEST(LibraryHeaderTest, RefusesADtypeWithoutCType) {
  MLIRContext context;
  std::string message;
  ScopedDiagnosticHandler handler(
      &context, [&](Diagnostic &diagnostic) { message = diagnostic.str(); });
  ModelInterface model;
  model.inputs.push_back({"text", 7, {1}}); // DT_STRING
  EXPECT_TRUE(failed(
      renderLibraryHeader(model, "m", "libm.a", UnknownLoc::get(&context))));
  EXPECT_EQ(message,
            "feed 'text' has dtype string, which --emit lib cannot pass to C");
}

TEST(LibraryHeaderTest, NamesFollowTheOutputPath) {
  EXPECT_EQ(defaultLibraryName("out/libmy-model.a"), "my_model");
  EXPECT_EQ(defaultLibraryName("mlp.a"), "mlp");
  EXPECT_EQ(defaultHeaderPath("out/libmy-model.a"), "out/my-model.h");
  EXPECT_EQ(defaultHeaderPath("libmlp.a"), "mlp.h");
  EXPECT_EQ(checkLibraryName("mlp_2"), "");
  EXPECT_NE(checkLibraryName(""), "");
  EXPECT_NE(checkLibraryName("2mlp"), "");
  EXPECT_NE(checkLibraryName("tfc"), "");
  EXPECT_NE(checkLibraryName("tfc_mlp"), "");
}

} // namespace
