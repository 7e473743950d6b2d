//===- OpTableTest.cpp - the op table's rows and queries ------------------===//

#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"

#include "graph.pb.h"
#include "saved_model.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

#include <google/protobuf/text_format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

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
  Operation *hasValue = node("OptionalHasValue", {f32}, {x->getResult(0)});
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
  // OptionalHasValue is known but nothing lowers it.
  EXPECT_FALSE(isElementwise(hasValue));
  EXPECT_FALSE(lookupOp(hasValue)->folds);
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

/// The attributes of `opDef` a lowering declares: not the types, the
/// argument lengths or the type lists, which the node's types carry.
std::vector<const proto::OpDef::AttrDef *>
declaredAttrs(const proto::OpDef &opDef) {
  std::set<std::string> carried;
  for (const auto *args : {&opDef.input_arg(), &opDef.output_arg()})
    for (const proto::OpDef::ArgDef &arg : *args) {
      carried.insert(arg.number_attr());
      carried.insert(arg.type_list_attr());
    }
  std::vector<const proto::OpDef::AttrDef *> attrs;
  for (const proto::OpDef::AttrDef &def : opDef.attr())
    if (def.type() != "type" && def.type() != "list(type)" &&
        !carried.count(def.name()))
      attrs.push_back(&def);
  return attrs;
}

/// An attribute value of kind `kind` written as the op table writes values
/// (attrValueText), or nullopt for a kind the table does not restrict.
std::optional<proto::AttrValue> valueOfText(const std::string &kind,
                                            llvm::StringRef text) {
  proto::AttrValue value;
  if (kind == "bool")
    value.set_b(text == "true");
  else if (kind == "int")
    value.set_i(std::stoll(text.str()));
  else if (kind == "string")
    value.set_s(text.str());
  else if (kind == "list(int)") {
    value.mutable_list();
    llvm::SmallVector<llvm::StringRef> items;
    text.split(items, ',', -1, false);
    for (llvm::StringRef item : items)
      value.mutable_list()->add_i(std::stoll(item.str()));
  } else
    return std::nullopt;
  return value;
}

/// A value of `def` other than its default (any value when it has none),
/// or nullopt for the kinds of value this test does not make (functions,
/// tensors, lists of shapes or strings: declared handled wherever used).
std::optional<proto::AttrValue> otherValue(const proto::OpDef::AttrDef &def) {
  const proto::AttrValue &d = def.default_value();
  proto::AttrValue value;
  const std::string &kind = def.type();
  if (kind == "bool")
    value.set_b(!d.b());
  else if (kind == "int")
    value.set_i(d.i() + 1);
  else if (kind == "float")
    value.set_f(d.f() * 2 + 1);
  else if (kind == "string")
    value.set_s(d.s() + "tfc-unhandled");
  else if (kind == "list(int)") {
    *value.mutable_list() = d.list();
    value.mutable_list()->add_i(7);
  } else if (kind == "shape")
    value.mutable_shape()->add_dim()->set_size(7);
  else
    return std::nullopt;
  return value;
}

// Walks every lowered op of the table with a value other than the default
// for each of its attributes: a value its lowering does not declare is
// refused, naming the attribute; a declared value, and the default, are
// accepted. So no lowering can ignore an attribute it does not handle.
TEST(OpTableTest, UndeclaredAttributeValuesAreRefused) {
  MLIRContext context;
  context.getOrLoadDialect<tfg::TfgDialect>();
  Builder builder(&context);
  auto check = [&](const OpInfo &row, const proto::OpDef::AttrDef &def,
                   const proto::AttrValue &value) {
    std::string error;
    Attribute attr = tfg::importAttrValue(&context, value, error);
    EXPECT_TRUE(attr) << row.type.str() << " " << def.name() << ": " << error;
    return attr ? unhandledAttr(row, builder.getDictionaryAttr(
                                         builder.getNamedAttr(def.name(), attr)))
                : std::string("(no value)");
  };
  int refusals = 0;
  for (const OpInfo &row : opTable()) {
    if (!row.isLowered())
      continue;
    const proto::OpDef *opDef = OpRegistry::get().lookup(row.type);
    ASSERT_NE(opDef, nullptr) << row.type.str();
    for (const proto::OpDef::AttrDef *def : declaredAttrs(*opDef)) {
      std::string where = row.type.str() + "." + def->name();
      AttrDeclaration declaration = attrDeclaration(row, def->name());
      if (def->has_default_value())
        EXPECT_EQ(check(row, *def, def->default_value()), "") << where;
      std::optional<proto::AttrValue> other = otherValue(*def);
      if (!other) {
        // Such values are only ever declared handled (or ignored).
        EXPECT_TRUE(declaration.use == AttrDeclaration::Any ||
                    declaration.use == AttrDeclaration::Ignored)
            << where << " (" << def->type() << ")";
        continue;
      }
      std::string refusal = check(row, *def, *other);
      switch (declaration.use) {
      case AttrDeclaration::Any:
      case AttrDeclaration::Ignored:
        EXPECT_EQ(refusal, "") << where;
        break;
      case AttrDeclaration::Only:
        for (llvm::StringRef text : declaration.values) {
          std::optional<proto::AttrValue> listed =
              valueOfText(def->type(), text);
          ASSERT_TRUE(listed) << where << ": " << def->type()
                              << " values cannot be listed";
          EXPECT_EQ(check(row, *def, *listed), "") << where << "=" << text.str();
        }
        [[fallthrough]];
      case AttrDeclaration::DefaultOnly:
        EXPECT_EQ(refusal.rfind(def->name() + "=", 0), 0u)
            << where << ": " << refusal;
        EXPECT_NE(refusal.find("tfc handles only"), std::string::npos)
            << where << ": " << refusal;
        ++refusals;
        break;
      }
    }
  }
  // The walk reached the attributes that the lowerings do not handle.
  EXPECT_GT(refusals, 50);
}

/// An attribute value as the table writes it (attrValueText's words).
std::string textOf(const proto::AttrValue &value) {
  switch (value.value_case()) {
  case proto::AttrValue::kB:
    return value.b() ? "true" : "false";
  case proto::AttrValue::kI:
    return std::to_string(value.i());
  case proto::AttrValue::kS:
    return value.s();
  default:
    break;
  }
  if (value.has_list() && value.list().i_size())
    return llvm::join(llvm::map_range(value.list().i(),
                                      [](int64_t i) { return std::to_string(i); }),
                      ",");
  return value.SerializeAsString();
}

/// The graphs that the op and corpus suites run and check against
/// TensorFlow's outputs: every op case, and every corpus model in each of
/// its forms (the text graph, the frozen graph, the SavedModel).
std::vector<proto::GraphDef> graphsCheckedAgainstTensorFlow() {
  namespace fs = std::filesystem;
  std::vector<proto::GraphDef> graphs;
  auto read = [](const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  };
  fs::path test = fs::path(TFC_SOURCE_DIR) / "test";
  for (const char *suite : {"ops/cases", "corpus"})
    for (const fs::directory_entry &entry :
         fs::directory_iterator(test / suite)) {
      if (!entry.is_directory())
        continue;
      fs::path dir = entry.path();
      if (fs::exists(dir / "graph.pbtxt")) {
        graphs.emplace_back();
        EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(
            read(dir / "graph.pbtxt"), &graphs.back()))
            << dir;
      }
      if (fs::exists(dir / "frozen.pb")) {
        graphs.emplace_back();
        EXPECT_TRUE(graphs.back().ParseFromString(read(dir / "frozen.pb")))
            << dir;
      }
      if (fs::exists(dir / "saved_model" / "saved_model.pb")) {
        proto::SavedModel model;
        EXPECT_TRUE(
            model.ParseFromString(read(dir / "saved_model" / "saved_model.pb")))
            << dir;
        for (const proto::MetaGraphDef &meta : model.meta_graphs())
          graphs.push_back(meta.graph_def());
      }
    }
  return graphs;
}

// Every attribute value that a lowering declares it computes as
// TensorFlow does, other than the default, is used by a graph that the op
// or corpus suite checks against TensorFlow's outputs: a declaration is a
// claim, and this holds every claim to a test.
TEST(OpTableTest, HandledAttributeValuesAreCheckedAgainstTensorFlow) {
  std::vector<proto::GraphDef> graphs = graphsCheckedAgainstTensorFlow();
  ASSERT_GT(graphs.size(), 100u);
  // "Op.attr" -> the values other than the default that the graphs use.
  std::map<std::string, std::set<std::string>> used;
  auto note = [&](const proto::NodeDef &node) {
    const OpInfo *row = lookupOp(node.op());
    const proto::OpDef *opDef = OpRegistry::get().lookup(node.op());
    if (!row || !opDef)
      return;
    for (const proto::OpDef::AttrDef *def : declaredAttrs(*opDef)) {
      auto it = node.attr().find(def->name());
      if (it != node.attr().end() &&
          it->second.SerializeAsString() !=
              def->default_value().SerializeAsString())
        used[node.op() + "." + def->name()].insert(textOf(it->second));
    }
  };
  for (const proto::GraphDef &graph : graphs) {
    for (const proto::NodeDef &node : graph.node())
      note(node);
    for (const proto::FunctionDef &function : graph.library().function())
      for (const proto::NodeDef &node : function.node_def())
        note(node);
  }
  for (const OpInfo &row : opTable()) {
    const proto::OpDef *opDef = OpRegistry::get().lookup(row.type);
    // tfc's own ops are made by its passes, never in a graph: their
    // attributes are those of the ops they replace, checked there
    // (_TfcDenseStringSplit's maxsplit is StringSplitV2's).
    if (!row.isLowered() || !opDef || row.type.starts_with("_Tfc"))
      continue;
    for (const proto::OpDef::AttrDef *def : declaredAttrs(*opDef)) {
      AttrDeclaration declaration = attrDeclaration(row, def->name());
      std::string key = row.type.str() + "." + def->name();
      if (!def->has_default_value() ||
          (declaration.use != AttrDeclaration::Any &&
           declaration.use != AttrDeclaration::Only))
        continue;
      const std::set<std::string> &values = used[key];
      if (declaration.use == AttrDeclaration::Any) {
        EXPECT_FALSE(values.empty())
            << key << " is declared handled, but no op case or corpus "
            << "graph gives it a value other than its default";
        continue;
      }
      std::string defaultText = textOf(def->default_value());
      for (llvm::StringRef text : declaration.values)
        EXPECT_TRUE(text == defaultText || values.count(text.str()))
            << key << "=" << text.str()
            << " is declared handled, but no op case or corpus graph uses it";
    }
  }
}

} // namespace
