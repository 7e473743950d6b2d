//===- ImportGraphDef.cpp - GraphDef to the tfg dialect -------------------===//
//
// Builds one node operation per NodeDef, in two steps because a graph may
// refer to nodes defined later (and loops refer to themselves): first every
// node is created with its result types and no operands, then the inputs are
// resolved by name and set as operands. Result types come from the op
// registry (dtypes) and the `_output_shapes` attr when present (shapes).
//
// Inside a FunctionDef, inputs name output args ("node:out_arg:index") and
// function arguments ("arg"); they are translated to results by the same
// registry expansion that types the results.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/GraphDef.h"
#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"

#include "graph.pb.h"

#include <google/protobuf/text_format.h>

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tfc {
namespace {

using tfg::ControlType;
using tfg::isValidAttrName;

/// Prefix of FunctionDef arg_attr entries among argument attributes.
constexpr llvm::StringLiteral kArgAttrPrefix = "tf.";
using tfg::FuncOp;
using tfg::GraphOp;

/// The single-line text form of `message`, without unknown fields: text
/// format prints them as bare field numbers, which it cannot read back, and
/// they carry nothing TensorFlow's schema knows.
std::string toText(const google::protobuf::Message &message) {
  std::unique_ptr<google::protobuf::Message> copy(message.New());
  copy->CopyFrom(message);
  copy->DiscardUnknownFields();
  std::string text;
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  printer.PrintToString(*copy, &text);
  return StringRef(text).rtrim().str();
}

/// A parsed NodeDef input string.
struct InputRef {
  bool control = false;
  /// The producing node, or a function argument.
  StringRef node;
  /// In functions, the output arg of the producer ("" for an argument).
  StringRef outArg;
  /// The port (graphs) or the index within `outArg` (functions).
  int64_t index = 0;
  std::string text;
};

/// Whether a node name follows TensorFlow's rule: a letter, digit or '.',
/// then letters, digits and "_-./>".
bool isValidNodeName(StringRef name) {
  if (name.empty() || !(llvm::isAlnum(name.front()) || name.front() == '.'))
    return false;
  return llvm::all_of(name.drop_front(), [](char c) {
    return llvm::isAlnum(c) || StringRef("_-./>").contains(c);
  });
}

/// Whether an op type follows TensorFlow's rule: a letter or '_', then
/// letters, digits, '_' and '>' (namespaced ops).
bool isValidOpType(StringRef type) {
  if (type.empty() || !(llvm::isAlpha(type.front()) || type.front() == '_'))
    return false;
  return llvm::all_of(type, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '>';
  });
}

/// Whether a device, function, argument or output name is printable ASCII,
/// as TensorFlow's are. Protobuf does not reliably reject invalid UTF-8 in
/// string fields, and such names could not be exported again.
bool isPrintableName(StringRef name) {
  return llvm::all_of(name, [](char c) { return c >= 0x20 && c < 0x7f; });
}

bool parseIndex(StringRef text, int64_t &index) {
  return !text.empty() && llvm::all_of(text, llvm::isDigit) &&
         !text.getAsInteger(10, index) && index < (int64_t(1) << 31);
}

/// Parses "^a", "a", "a:3" (graphs) or "a:out:3" (functions).
std::optional<InputRef> parseInput(StringRef input, bool inFunction) {
  InputRef ref;
  ref.text = input.str();
  if (input.consume_front("^")) {
    ref.control = true;
    ref.node = input;
    return isValidNodeName(input) ? std::optional(ref) : std::nullopt;
  }
  SmallVector<StringRef, 3> parts;
  input.split(parts, ':');
  ref.node = parts[0];
  if (!isValidNodeName(ref.node))
    return std::nullopt;
  if (parts.size() == 1)
    return ref;
  if (parts.size() == 2)
    return parseIndex(parts[1], ref.index) ? std::optional(ref) : std::nullopt;
  if (parts.size() == 3 && inFunction && !parts[1].empty() &&
      isPrintableName(parts[1])) {
    ref.outArg = parts[1];
    return parseIndex(parts[2], ref.index) ? std::optional(ref) : std::nullopt;
  }
  return std::nullopt;
}

/// Imports a GraphDef with its function library into a module.
class Importer {
public:
  Importer(MLIRContext *context, StringRef sourceName)
      : context(context), builder(context),
        fileLoc(FileLineColLoc::get(context, sourceName, 0, 0)) {}

  OwningOpRef<ModuleOp> importGraph(const proto::GraphDef &graph);

private:
  /// A node being imported: its NodeDef, its operation, its parsed inputs.
  struct Node {
    const proto::NodeDef *def;
    Operation *op = nullptr;
    const proto::OpDef *opDef = nullptr;
    std::vector<InputRef> inputs;
    /// Whether the registry typed the outputs (else they are opaque).
    bool typed = false;
    /// Functions: tensors per output arg, to map "out:index" to a result.
    SmallVector<unsigned> outputArgSizes;
    /// Unknown ops in functions: the output references used, in result
    /// order.
    std::vector<std::string> outputRefs;
    int64_t maxPortUsed = -1;
  };

  /// The nodes of a graph or function body, by name, and the function's
  /// arguments (none for a graph).
  struct Body {
    std::vector<Node> nodes;
    llvm::StringMap<Node *> byName;
    llvm::StringMap<BlockArgument> args;
    /// The Identity of each argument that a control input names.
    llvm::StringMap<Operation *> argControls;
    bool inFunction = false;
  };

  InFlightDiagnostic error() { return emitError(fileLoc) << scope; }

  /// Imports `nodeDefs` into `block`. `extraUses` are further references to
  /// node outputs (a function's rets), which decide how many results nodes
  /// of unknown op types get.
  LogicalResult importBody(Block &block,
                           const google::protobuf::RepeatedPtrField<
                               proto::NodeDef> &nodeDefs,
                           ArrayRef<InputRef> extraUses, Body &body);
  LogicalResult createNode(Node &node, bool inFunction);
  LogicalResult resolveInputs(Node &node, Body &body);
  /// The control token that stands for function argument `name` in a
  /// control input ("^x"): an Identity of the argument, so that the node
  /// still runs after the argument's value is computed once calls are
  /// inlined (Keras 3's custom gradients give such inputs).
  Value argumentControl(StringRef name, Body &body, Block *block);
  /// The value a data input refers to; `user` names the referrer in errors.
  FailureOr<Value> resolveData(const InputRef &ref, Body &body,
                               StringRef user);
  LogicalResult importFunction(const proto::FunctionDef &function,
                               ModuleOp module);
  /// Converts attr `name` of `owner` ("node 'x'", "argument 0", ...).
  FailureOr<NamedAttribute> importAttr(StringRef owner, StringRef name,
                                       const proto::AttrValue &value);

  MLIRContext *context;
  OpBuilder builder;
  Location fileLoc;
  /// "function 'f': " while importing a function body.
  std::string scope;
  /// The function being imported, for node locations "node@function".
  std::string functionName;
};

FailureOr<NamedAttribute> Importer::importAttr(StringRef owner, StringRef name,
                                               const proto::AttrValue &value) {
  // Protobuf lets invalid UTF-8 through in map keys; TensorFlow's naming
  // rule keeps names printable and exportable.
  if (!tfg::isValidAttrName(name))
    return error() << owner << " has invalid attr name '" << name << "'";
  std::string message;
  Attribute attr = tfg::importAttrValue(context, value, message);
  if (!attr)
    return error() << owner << ": attr '" << name << "': " << message;
  return builder.getNamedAttr(name, attr);
}

OwningOpRef<ModuleOp> Importer::importGraph(const proto::GraphDef &graph) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  const proto::VersionDef &v = graph.versions();
  auto version = tfg::VersionAttr::get(
      context, v.producer(), v.min_consumer(),
      SmallVector<int32_t>(v.bad_consumers().begin(), v.bad_consumers().end()));
  auto graphOp = builder.create<GraphOp>(fileLoc, version);
  if (graph.version() != 0)
    graphOp->setAttr("tfg.legacy_version",
                     builder.getI32IntegerAttr(graph.version()));
  Body body;
  if (failed(importBody(graphOp.getNodes().emplaceBlock(), graph.node(),
                        /*extraUses=*/{}, body)))
    return nullptr;

  builder.setInsertionPointToEnd(module->getBody());
  llvm::StringSet<> functionNames;
  for (const proto::FunctionDef &function : graph.library().function()) {
    if (!functionNames.insert(function.signature().name()).second) {
      error() << "duplicate function '" << function.signature().name() << "'";
      return nullptr;
    }
    if (failed(importFunction(function, *module)))
      return nullptr;
  }

  // Gradient registrations of the library, kept for export.
  // (Each keyed by a name, which may be given once: TensorFlow rejects a
  // second gradient for a function too.)
  SmallVector<NamedAttribute> gradients, registered;
  llvm::StringSet<> gradientOf, registeredAs;
  for (const proto::GradientDef &g : graph.library().gradient()) {
    if (!gradientOf.insert(g.function_name()).second) {
      error() << "duplicate gradient of function '" << g.function_name() << "'";
      return nullptr;
    }
    gradients.push_back(builder.getNamedAttr(
        g.function_name(), builder.getStringAttr(g.gradient_func())));
  }
  for (const proto::RegisteredGradient &g :
       graph.library().registered_gradients()) {
    if (!registeredAs.insert(g.gradient_func()).second) {
      error() << "duplicate registered gradient '" << g.gradient_func() << "'";
      return nullptr;
    }
    registered.push_back(builder.getNamedAttr(
        g.gradient_func(), builder.getStringAttr(g.registered_op_type())));
  }
  if (!gradients.empty())
    (*module)->setAttr("tfg.gradients", builder.getDictionaryAttr(gradients));
  if (!registered.empty())
    (*module)->setAttr("tfg.registered_gradients",
                       builder.getDictionaryAttr(registered));

  if (failed(verify(*module)))
    return nullptr;
  return module;
}

LogicalResult
Importer::importBody(Block &block,
                     const google::protobuf::RepeatedPtrField<proto::NodeDef>
                         &nodeDefs,
                     ArrayRef<InputRef> extraUses, Body &body) {
  bool inFunction = body.inFunction;
  std::vector<Node> &nodes = body.nodes;
  nodes.resize(nodeDefs.size());
  llvm::StringMap<Node *> &byName = body.byName;
  const llvm::StringMap<BlockArgument> *args =
      inFunction ? &body.args : nullptr;

  // Names and inputs first: they decide how many results unknown ops have.
  for (auto [def, node] : llvm::zip(nodeDefs, nodes)) {
    node.def = &def;
    if (!isValidNodeName(def.name()))
      return error() << "invalid node name '" << llvm::StringRef(def.name())
                     << "'";
    if (!isPrintableName(def.device()))
      return error() << "node '" << def.name() << "' has an invalid device";
    if (!isValidOpType(def.op()))
      return error() << "node '" << def.name() << "' has invalid op type '"
                     << def.op() << "'";
    if (!byName.try_emplace(def.name(), &node).second)
      return error() << "duplicate node name '" << def.name() << "'";
    if (args && args->count(def.name()))
      return error() << "node '" << def.name()
                     << "' has the name of a function argument";
    bool sawControl = false;
    for (const std::string &text : def.input()) {
      std::optional<InputRef> ref = parseInput(text, inFunction);
      if (!ref)
        return error() << "node '" << def.name() << "': malformed input '"
                       << text << "'";
      if (!ref->control && sawControl)
        return error() << "node '" << def.name() << "': data input '" << text
                       << "' follows a control input";
      sawControl |= ref->control;
      node.inputs.push_back(std::move(*ref));
    }
  }
  SmallVector<const InputRef *> uses;
  for (Node &node : nodes)
    for (const InputRef &ref : node.inputs)
      uses.push_back(&ref);
  for (const InputRef &ref : extraUses)
    uses.push_back(&ref);
  {
    for (const InputRef *use : uses) {
      const InputRef &ref = *use;
      auto it = byName.find(ref.node);
      if (ref.control || it == byName.end())
        continue;
      Node &producer = *it->second;
      producer.maxPortUsed = std::max(producer.maxPortUsed, ref.index);
      if (!ref.outArg.empty()) {
        std::string key = (ref.outArg + ":" + Twine(ref.index)).str();
        if (!llvm::is_contained(producer.outputRefs, key))
          producer.outputRefs.push_back(key);
      }
    }
  }

  builder.setInsertionPointToEnd(&block);
  for (Node &node : nodes)
    if (failed(createNode(node, inFunction)))
      return failure();
  for (Node &node : nodes)
    if (failed(resolveInputs(node, body)))
      return failure();
  return success();
}

LogicalResult Importer::createNode(Node &node, bool inFunction) {
  const proto::NodeDef &def = *node.def;
  SmallVector<NamedAttribute> attrs;
  attrs.push_back(builder.getNamedAttr(tfg::kNameAttr,
                                       builder.getStringAttr(def.name())));
  if (!def.device().empty())
    attrs.push_back(builder.getNamedAttr(tfg::kDeviceAttr,
                                         builder.getStringAttr(def.device())));
  for (const auto &[name, value] : def.attr()) {
    FailureOr<NamedAttribute> attr =
        importAttr("node '" + def.name() + "'", name, value);
    if (failed(attr))
      return failure();
    attrs.push_back(*attr);
  }
  if (def.has_experimental_debug_info()) {
    const auto &info = def.experimental_debug_info();
    SmallVector<StringRef> nodeNames(info.original_node_names().begin(),
                                     info.original_node_names().end());
    SmallVector<StringRef> funcNames(info.original_func_names().begin(),
                                     info.original_func_names().end());
    attrs.push_back(builder.getNamedAttr(
        "tfg.original_node_names", builder.getStrArrayAttr(nodeNames)));
    attrs.push_back(builder.getNamedAttr(
        "tfg.original_func_names", builder.getStrArrayAttr(funcNames)));
  }
  if (def.has_experimental_type())
    attrs.push_back(builder.getNamedAttr(
        "tfg.full_type",
        builder.getStringAttr(toText(def.experimental_type()))));
  DictionaryAttr dict = builder.getDictionaryAttr(attrs);

  // Element types of the results: from the registry, or - for op types it
  // does not know - as many opaque tensors as the graph uses.
  SmallVector<Type> elementTypes;
  bool known = false;
  node.opDef = OpRegistry::get().lookup(def.op());
  if (node.opDef) {
    std::string message;
    switch (tfg::expandArgTypes(context, *node.opDef, /*outputs=*/true, dict,
                                elementTypes, message,
                                &node.outputArgSizes)) {
    case tfg::ArgExpansion::Expanded:
      known = node.typed = true;
      break;
    case tfg::ArgExpansion::DependsOnPlaceholder:
      elementTypes.clear();
      node.outputArgSizes.clear();
      break;
    case tfg::ArgExpansion::Failed:
      return error() << "node '" << def.name() << "' (" << def.op()
                     << "): " << message;
    }
  }
  if (!known) {
    int64_t count = inFunction ? node.outputRefs.size() : node.maxPortUsed + 1;
    elementTypes.assign(count, Type());
    if (inFunction)
      dict = DictionaryAttr::get(
          context, llvm::to_vector(llvm::concat<const NamedAttribute>(
                       dict.getValue(),
                       ArrayRef<NamedAttribute>(builder.getNamedAttr(
                           "tfg.output_refs",
                           builder.getStrArrayAttr(SmallVector<StringRef>(
                               node.outputRefs.begin(),
                               node.outputRefs.end())))))));
  }

  // Shapes recorded by TensorFlow, when they match the results.
  ArrayAttr shapes = dict.getAs<ArrayAttr>("_output_shapes");
  if (shapes && (shapes.size() != elementTypes.size() ||
                 !llvm::all_of(shapes, llvm::IsaPred<tfg::ShapeAttr>)))
    shapes = nullptr;
  SmallVector<Type> resultTypes;
  for (auto [index, element] : llvm::enumerate(elementTypes)) {
    Type type = element ? element : tfg::OpaqueType::get(context);
    resultTypes.push_back(tfg::shapeToTensorType(
        shapes ? cast<tfg::ShapeAttr>(shapes[index]) : tfg::ShapeAttr(),
        type));
  }

  std::string locName =
      functionName.empty() ? def.name() : def.name() + "@" + functionName;
  Location loc = NameLoc::get(builder.getStringAttr(locName), fileLoc);
  node.op = tfg::createNode(builder, loc, def.op(), resultTypes, {}, {},
                            dict.getValue());
  return success();
}

FailureOr<Value> Importer::resolveData(const InputRef &ref, Body &body,
                                       StringRef user) {
  auto fail = [&]() {
    return error() << user << ": input '" << ref.text << "'";
  };
  if (body.inFunction && ref.outArg.empty()) {
    auto arg = body.args.find(ref.node);
    if (arg != body.args.end()) {
      if (ref.index != 0)
        return fail() << " indexes a function argument";
      return Value(arg->second);
    }
  }
  auto it = body.byName.find(ref.node);
  if (it == body.byName.end())
    return fail() << " refers to a node that does not exist";
  Node &producer = *it->second;
  unsigned numOutputs = producer.op->getNumResults() - 1;
  int64_t port = ref.index;
  if (body.inFunction) {
    // "node:out_arg:index" -> flat result number.
    if (ref.outArg.empty())
      return fail() << " must name an output arg (node:out_arg:index)";
    if (producer.typed) {
      port = -1;
      int64_t offset = 0;
      for (auto [arg, size] :
           llvm::zip(producer.opDef->output_arg(), producer.outputArgSizes)) {
        if (arg.name() == ref.outArg && ref.index < size)
          port = offset + ref.index;
        offset += size;
      }
      if (port < 0)
        return fail() << " names no output of '" << ref.node << "' ("
                      << producer.def->op() << ")";
    } else {
      std::string key = (ref.outArg + ":" + Twine(ref.index)).str();
      port = llvm::find(producer.outputRefs, key) - producer.outputRefs.begin();
    }
  }
  if (port >= numOutputs)
    return fail() << " refers to output " << port << " of '" << ref.node
                  << "', which has " << numOutputs << " output"
                  << (numOutputs == 1 ? "" : "s");
  return Value(producer.op->getResult(port));
}

LogicalResult Importer::resolveInputs(Node &node, Body &body) {
  std::string user = "node '" + node.def->name() + "'";
  SmallVector<Value> data, control;
  for (const InputRef &ref : node.inputs) {
    if (ref.control) {
      auto it = body.byName.find(ref.node);
      if (it != body.byName.end()) {
        control.push_back(tfg::getControlToken(it->second->op));
        continue;
      }
      if (body.inFunction && body.args.count(ref.node)) {
        control.push_back(
            argumentControl(ref.node, body, node.op->getBlock()));
        continue;
      }
      return error() << user << ": control input '" << ref.text
                     << "' refers to a node that does not exist";
    }
    FailureOr<Value> value = resolveData(ref, body, user);
    if (failed(value))
      return failure();
    data.push_back(*value);
  }
  data.append(control);
  node.op->setOperands(data);
  return success();
}

Value Importer::argumentControl(StringRef name, Body &body, Block *block) {
  Operation *&identity = body.argControls[name];
  if (!identity) {
    BlockArgument arg = body.args.lookup(name);
    // A node name of its own in the function: the argument's, suffixed.
    std::string nodeName = (name + "/control").str();
    for (int n = 1; body.byName.count(nodeName); ++n)
      nodeName = (name + "/control_" + Twine(n)).str();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    NamedAttribute attrs[] = {
        builder.getNamedAttr(tfg::kNameAttr, builder.getStringAttr(nodeName)),
        builder.getNamedAttr(
            "T", TypeAttr::get(getElementTypeOrSelf(arg.getType())))};
    identity = tfg::createNode(builder, arg.getLoc(), "Identity",
                               {arg.getType()}, {arg}, {}, attrs);
  }
  return tfg::getControlToken(identity);
}

LogicalResult Importer::importFunction(const proto::FunctionDef &function,
                                       ModuleOp module) {
  const proto::OpDef &signature = function.signature();
  if (signature.name().empty() || !isPrintableName(signature.name()))
    return error() << "function with invalid name in the library";
  for (const auto *args : {&signature.input_arg(), &signature.output_arg()})
    for (const proto::OpDef::ArgDef &arg : *args)
      if (!isValidAttrName(arg.name()))
        return error() << "function '" << signature.name()
                       << "' has an invalid argument name";
  for (const std::string &name : signature.control_output())
    if (!isPrintableName(name))
      return error() << "function '" << signature.name()
                     << "' has an invalid control output name";
  scope = "function '" + signature.name() + "': ";
  functionName = signature.name();
  auto restore = llvm::make_scope_exit([&] {
    scope.clear();
    functionName.clear();
  });

  // Argument and result types from the signature. An arg typed by a function
  // attr is opaque until instantiation; list-typed args are not supported.
  auto argTypes = [&](const auto &argDefs, SmallVectorImpl<Type> &types,
                      SmallVectorImpl<Attribute> &attrs) -> LogicalResult {
    for (const proto::OpDef::ArgDef &arg : argDefs) {
      if (!arg.number_attr().empty() || !arg.type_list_attr().empty())
        return error() << "list-typed arg '" << arg.name()
                       << "' is not supported";
      Type element = arg.type() == proto::DT_INVALID
                         ? tfg::OpaqueType::get(context)
                         : tfg::dataTypeToType(context, arg.type());
      if (!element)
        return error() << "arg '" << arg.name() << "' has invalid dtype";
      if (arg.is_ref())
        element = tfg::RefType::get(element);
      types.push_back(UnrankedTensorType::get(element));
      SmallVector<NamedAttribute> argAttrs;
      argAttrs.push_back(builder.getNamedAttr(
          tfg::kNameAttr, builder.getStringAttr(arg.name())));
      // Everything else of the ArgDef (type attr, description, handle data)
      // travels as its text form.
      proto::OpDef::ArgDef rest = arg;
      rest.clear_name();
      rest.clear_type();
      rest.clear_is_ref();
      std::string text = toText(rest);
      if (!text.empty())
        argAttrs.push_back(
            builder.getNamedAttr("tfg.arg_def", builder.getStringAttr(text)));
      attrs.push_back(builder.getDictionaryAttr(argAttrs));
    }
    return success();
  };
  SmallVector<Type> inputs, outputs;
  SmallVector<Attribute> inputAttrs, outputAttrs;
  if (failed(argTypes(signature.input_arg(), inputs, inputAttrs)) ||
      failed(argTypes(signature.output_arg(), outputs, outputAttrs)))
    return failure();

  // Per-argument attrs of the FunctionDef join the argument attributes.
  for (const auto &[index, argAttrs] : function.arg_attr()) {
    if (index >= inputAttrs.size())
      return error() << "arg_attr for argument " << index << " of "
                     << inputAttrs.size();
    NamedAttrList list(cast<DictionaryAttr>(inputAttrs[index]));
    for (const auto &[name, value] : argAttrs.attr()) {
      FailureOr<NamedAttribute> attr =
          importAttr("argument " + std::to_string(index), name, value);
      if (failed(attr))
        return failure();
      // MLIR wants argument attributes named after a dialect: TensorFlow's
      // own arg attrs get the prefix "tf.".
      list.set(builder.getStringAttr(kArgAttrPrefix + name), attr->getValue());
    }
    inputAttrs[index] = list.getDictionary(context);
  }
  for (const auto &[index, id] : function.resource_arg_unique_id()) {
    if (index >= inputAttrs.size())
      return error() << "resource_arg_unique_id for argument " << index;
    NamedAttrList list(cast<DictionaryAttr>(inputAttrs[index]));
    list.set("tfg.resource_arg_unique_id", builder.getI64IntegerAttr(id));
    inputAttrs[index] = list.getDictionary(context);
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = builder.create<FuncOp>(
      fileLoc, signature.name(), builder.getFunctionType(inputs, outputs),
      builder.getArrayAttr(inputAttrs), builder.getArrayAttr(outputAttrs));

  // FunctionDef attrs are function attributes; the rest of the signature
  // (its attrs, flags and docs) travels as text.
  for (const auto &[name, value] : function.attr()) {
    if (func->hasAttr(name) || StringRef(name).starts_with("tfg.") ||
        name == "sym_visibility")
      return error() << "function attr '" << name
                     << "' clashes with a reserved name";
    FailureOr<NamedAttribute> attr = importAttr("function", name, value);
    if (failed(attr))
      return failure();
    func->setAttr(attr->getName(), attr->getValue());
  }
  if (signature.is_stateful())
    func->setAttr("tfg.is_stateful", builder.getUnitAttr());
  proto::OpDef rest = signature;
  rest.clear_name();
  rest.clear_input_arg();
  rest.clear_output_arg();
  rest.clear_control_output();
  rest.clear_is_stateful();
  std::string signatureText = toText(rest);
  if (!signatureText.empty())
    func->setAttr("tfg.signature", builder.getStringAttr(signatureText));

  // Rets are parsed first: they are uses of node outputs too.
  SmallVector<InputRef> rets;
  for (const proto::OpDef::ArgDef &arg : signature.output_arg()) {
    auto ret = function.ret().find(arg.name());
    if (ret == function.ret().end())
      return error() << "no ret for output '" << arg.name() << "'";
    std::optional<InputRef> ref = parseInput(ret->second, /*inFunction=*/true);
    if (!ref || ref->control)
      return error() << "malformed ret '" << ret->second << "'";
    rets.push_back(std::move(*ref));
  }

  Block &block = func.getBody().emplaceBlock();
  Body body;
  body.inFunction = true;
  for (auto [arg, type] : llvm::zip(signature.input_arg(), inputs)) {
    BlockArgument value = block.addArgument(type, fileLoc);
    if (!body.args.try_emplace(arg.name(), value).second)
      return error() << "duplicate argument '" << arg.name() << "'";
  }
  if (failed(importBody(block, function.node_def(), rets, body)))
    return failure();

  // Results in output-arg order; control results in control_output order.
  SmallVector<Value> operands;
  for (const InputRef &ref : rets) {
    FailureOr<Value> value = resolveData(ref, body, "ret");
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  SmallVector<StringRef> controlNames;
  for (const std::string &name : signature.control_output()) {
    auto ret = function.control_ret().find(name);
    if (ret == function.control_ret().end())
      return error() << "no control_ret for control output '" << name << "'";
    auto node = body.byName.find(ret->second);
    if (node == body.byName.end())
      return error() << "control_ret '" << ret->second
                     << "' refers to a node that does not exist";
    operands.push_back(tfg::getControlToken(node->second->op));
    controlNames.push_back(name);
  }
  builder.setInsertionPointToEnd(&block);
  builder.create<tfg::ReturnOp>(fileLoc, operands,
                                builder.getStrArrayAttr(controlNames));
  return success();
}

} // namespace

OwningOpRef<ModuleOp> importGraphDef(const proto::GraphDef &graph,
                                     MLIRContext *context,
                                     StringRef sourceName) {
  context->getOrLoadDialect<tfg::TfgDialect>();
  return Importer(context, sourceName).importGraph(graph);
}

} // namespace tfc
