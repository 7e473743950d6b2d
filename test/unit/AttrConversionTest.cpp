//===- AttrConversionTest.cpp - AttrValue/TensorProto conversion ----------===//
//
// Tests that TensorProtos decode the way TensorFlow defines (tensor_content,
// typed values, last-value repetition) and that every attr kind survives
// import followed by export.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "graph.pb.h"

#include <google/protobuf/text_format.h>

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tfc;

namespace {

class AttrConversionTest : public ::testing::Test {
protected:
  AttrConversionTest() { context.getOrLoadDialect<tfg::TfgDialect>(); }

  template <typename Message>
  Message parse(const std::string &text) {
    Message message;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &message))
        << text;
    return message;
  }

  Attribute importTensorText(const std::string &text) {
    std::string error;
    Attribute attr =
        tfg::importTensor(&context, parse<proto::TensorProto>(text), error);
    EXPECT_TRUE(attr) << error;
    return attr;
  }

  MLIRContext context;
};

TEST_F(AttrConversionTest, TypedValuesRepeatTheLastValue) {
  auto attr = dyn_cast<DenseElementsAttr>(importTensorText(
      "dtype: DT_INT32 tensor_shape { dim { size: 5 } } int_val: 7 "
      "int_val: 8"));
  ASSERT_TRUE(attr);
  std::vector<int32_t> values(attr.getValues<int32_t>().begin(),
                              attr.getValues<int32_t>().end());
  EXPECT_EQ(values, (std::vector<int32_t>{7, 8, 8, 8, 8}));
}

TEST_F(AttrConversionTest, OneValueIsASplat) {
  auto attr = dyn_cast<DenseElementsAttr>(importTensorText(
      "dtype: DT_FLOAT tensor_shape { dim { size: 1000 } dim { size: 1000 } } "
      "float_val: 0.25"));
  ASSERT_TRUE(attr);
  EXPECT_TRUE(attr.isSplat());
  EXPECT_EQ(attr.getSplatValue<float>(), 0.25f);
}

TEST_F(AttrConversionTest, NoValuesIsZero) {
  auto attr = dyn_cast<DenseElementsAttr>(importTensorText(
      "dtype: DT_DOUBLE tensor_shape { dim { size: 3 } }"));
  ASSERT_TRUE(attr);
  EXPECT_TRUE(attr.isSplat());
  EXPECT_EQ(attr.getSplatValue<double>(), 0.0);
}

TEST_F(AttrConversionTest, TensorContentIsLittleEndianRaw) {
  proto::TensorProto tensor;
  tensor.set_dtype(proto::DT_INT16);
  tensor.mutable_tensor_shape()->add_dim()->set_size(2);
  const char bytes[] = {0x01, 0x02, static_cast<char>(0xff),
                        static_cast<char>(0xff)};
  tensor.set_tensor_content(std::string(bytes, 4));
  std::string error;
  auto attr = dyn_cast<DenseElementsAttr>(
      tfg::importTensor(&context, tensor, error));
  ASSERT_TRUE(attr) << error;
  std::vector<int16_t> values(attr.getValues<int16_t>().begin(),
                              attr.getValues<int16_t>().end());
  EXPECT_EQ(values, (std::vector<int16_t>{0x0201, -1}));
}

TEST_F(AttrConversionTest, HalfValuesAreBitPatterns) {
  // 0x3c00 is 1.0 in IEEE half precision.
  auto attr = dyn_cast<DenseElementsAttr>(importTensorText(
      "dtype: DT_HALF tensor_shape { dim { size: 2 } } half_val: 15360 "
      "half_val: 0"));
  ASSERT_TRUE(attr);
  auto values = llvm::to_vector(attr.getValues<APFloat>());
  EXPECT_EQ(values[0].convertToFloat(), 1.0f);
  EXPECT_EQ(values[1].convertToFloat(), 0.0f);
}

TEST_F(AttrConversionTest, ComplexValuesArePairs) {
  auto attr = dyn_cast<DenseElementsAttr>(importTensorText(
      "dtype: DT_COMPLEX64 tensor_shape { dim { size: 2 } } "
      "scomplex_val: 1 scomplex_val: 2 scomplex_val: 3 scomplex_val: 4"));
  ASSERT_TRUE(attr);
  auto values = llvm::to_vector(attr.getValues<std::complex<float>>());
  EXPECT_EQ(values[1], std::complex<float>(3, 4));
}

TEST_F(AttrConversionTest, BadTensorsAreErrors) {
  std::string error;
  auto tooMany = parse<proto::TensorProto>(
      "dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 int_val: 2");
  EXPECT_FALSE(tfg::importTensor(&context, tooMany, error));
  EXPECT_NE(error.find("2 values for 1 elements"), std::string::npos) << error;

  auto shortContent = parse<proto::TensorProto>(
      "dtype: DT_FLOAT tensor_shape { dim { size: 2 } } tensor_content: "
      "\"abc\"");
  EXPECT_FALSE(tfg::importTensor(&context, shortContent, error));
  EXPECT_NE(error.find("3 bytes, expected 8"), std::string::npos) << error;

  auto negative = parse<proto::TensorProto>(
      "dtype: DT_FLOAT tensor_shape { dim { size: -1 } }");
  EXPECT_FALSE(tfg::importTensor(&context, negative, error));
}

/// Import then export must give back a TensorProto with the same elements;
/// for these inputs, the exact same proto.
TEST_F(AttrConversionTest, AttrValuesRoundTrip) {
  const char *cases[] = {
      "s: \"bytes\\000\\377\"",
      "i: -9223372036854775808",
      "f: 0.1",
      "f: nan",
      "b: true",
      "type: DT_BFLOAT16",
      "type: DT_FLOAT_REF",
      "type: DT_QUINT8",
      "shape { dim { size: -1 } dim { size: 3 } }",
      "shape { unknown_rank: true }",
      "shape { }",
      "list { }",
      "list { i: 1 i: 2 }",
      "list { type: DT_INT32 type: DT_STRING }",
      "list { shape { dim { size: 2 } } shape { unknown_rank: true } }",
      "list { s: \"a\" s: \"\" }",
      "list { f: 1.5 }",
      "list { b: false }",
      "func { name: \"f\" attr { key: \"T\" value { type: DT_FLOAT } } }",
      "list { func { name: \"g\" } }",
      "placeholder: \"T\"",
      "tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
      "tensor_content: \"\\000\\000\\200?\\000\\000\\000@\" }",
      "tensor { dtype: DT_INT64 tensor_shape { } int64_val: 5 }",
      "tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } } "
      "string_val: \"x\" string_val: \"y\" }",
      "tensor { dtype: DT_BOOL tensor_shape { dim { size: 3 } } "
      "tensor_content: \"\\001\\000\\001\" }",
      "tensor { dtype: DT_UINT8 tensor_shape { dim { size: 0 } } }",
      "tensor { dtype: DT_RESOURCE tensor_shape { } resource_handle_val { "
      "name: \"v\" } }",
      "tensor { dtype: DT_QINT8 tensor_shape { dim { size: 2 } } int_val: 1 "
      "int_val: -2 }",
  };
  for (const char *text : cases) {
    proto::AttrValue in = parse<proto::AttrValue>(text);
    std::string error;
    Attribute attr = tfg::importAttrValue(&context, in, error);
    ASSERT_TRUE(attr) << text << ": " << error;
    proto::AttrValue out;
    ASSERT_TRUE(tfg::exportAttrValue(attr, out, error)) << text << ": "
                                                        << error;
    // Bytes, not field values: NaN must come back with the same bits.
    EXPECT_EQ(in.SerializeAsString(), out.SerializeAsString())
        << "in:  " << in.ShortDebugString()
        << "\nout: " << out.ShortDebugString();
  }
}

TEST_F(AttrConversionTest, MixedListsAreErrors) {
  std::string error;
  auto mixed = parse<proto::AttrValue>("list { i: 1 s: \"a\" }");
  EXPECT_FALSE(tfg::importAttrValue(&context, mixed, error));
  EXPECT_EQ(error, "attr list mixes value kinds");
}

TEST_F(AttrConversionTest, DataTypesMapBothWays) {
  for (int dtype = 1; dtype < 200; ++dtype) {
    if (!proto::DataType_IsValid(dtype))
      continue;
    Type type = tfg::dataTypeToType(&context, dtype);
    ASSERT_TRUE(type) << tfg::dataTypeName(dtype);
    EXPECT_EQ(tfg::typeToDataType(type), dtype) << tfg::dataTypeName(dtype);
  }
  // Huge or nested-ref values are no dtype (and must not recurse).
  EXPECT_FALSE(tfg::dataTypeToType(&context, 2000000001));
  EXPECT_FALSE(tfg::dataTypeToType(&context, 201));
  EXPECT_FALSE(tfg::dataTypeToType(&context, -5));
  EXPECT_EQ(tfg::typeToDataType(tfg::RefType::get(
                tfg::RefType::get(Float32Type::get(&context)))),
            0);
  EXPECT_EQ(tfg::dataTypeName(proto::DT_HALF), "float16");
  EXPECT_EQ(tfg::dataTypeName(proto::DT_FLOAT_REF), "float_ref");
}

} // namespace
