//===- ExportGraphDef.cpp - the tfg dialect to GraphDef -------------------===//
//
// The inverse of the importer: each node operation becomes a NodeDef whose
// inputs name the producers of its operands ("node", "node:port", "^node";
// inside functions "node:out_arg:index" and argument names), each tfg.func a
// FunctionDef. A node's assigned device, when set, is what the exported
// NodeDef's `device` says, as in TensorFlow's own partition graphs.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/GraphDef.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"

#include "graph.pb.h"
#include "tfc/Support/DeviceName.h"

#include <google/protobuf/text_format.h>

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace tfc {
namespace {

using tfg::FuncOp;
using tfg::GraphOp;

/// Parses the single-line text form of a message kept in a string attr.
template <typename Message>
bool parseText(Attribute attr, Message &message) {
  auto text = dyn_cast_or_null<StringAttr>(attr);
  return text &&
         google::protobuf::TextFormat::ParseFromString(text.getValue().str(),
                                                       &message);
}

class Exporter {
public:
  LogicalResult exportModule(ModuleOp module, proto::GraphDef &graph,
                             StringRef entry, StringRef device);

private:
  LogicalResult exportNode(Operation *op, proto::NodeDef &node,
                           bool inFunction);
  LogicalResult exportFunction(FuncOp func, proto::FunctionDef &function);
  /// The NodeDef input string that refers to `value`.
  FailureOr<std::string> inputName(Value value, bool inFunction);
  /// Inside a function: "out_arg:index" of result `port` of `producer`.
  FailureOr<std::string> outputArgName(Operation *producer, unsigned port);

  /// Function argument names of the function being exported.
  llvm::DenseMap<Value, std::string> argNames;
};

FailureOr<std::string> Exporter::outputArgName(Operation *producer,
                                               unsigned port) {
  if (auto refs = producer->getAttrOfType<ArrayAttr>("tfg.output_refs")) {
    if (port < refs.size())
      if (auto ref = dyn_cast<StringAttr>(refs[port]))
        return ref.getValue().str();
  } else if (const proto::OpDef *opDef =
                 OpRegistry::get().lookup(tfg::getOpType(producer))) {
    SmallVector<Type> types;
    SmallVector<unsigned> sizes;
    std::string error;
    if (tfg::expandArgTypes(producer->getContext(), *opDef, /*outputs=*/true,
                            producer->getAttrDictionary(), types, error,
                            &sizes) == tfg::ArgExpansion::Expanded) {
      unsigned offset = 0;
      for (auto [arg, size] : llvm::zip(opDef->output_arg(), sizes)) {
        if (port < offset + size)
          return arg.name() + ":" + std::to_string(port - offset);
        offset += size;
      }
    }
  }
  return producer->emitError("cannot name output ")
         << port << " of node '" << tfg::getNodeName(producer)
         << "' as a function output arg";
}

FailureOr<std::string> Exporter::inputName(Value value, bool inFunction) {
  if (isa<BlockArgument>(value)) {
    auto it = argNames.find(value);
    if (it == argNames.end())
      return emitError(value.getLoc(), "operand is not a function argument");
    return it->second;
  }
  Operation *producer = value.getDefiningOp();
  if (!tfg::isNode(producer))
    return producer->emitError("operand is not produced by a node");
  std::string name = tfg::getNodeName(producer).str();
  if (tfg::isControl(value))
    return "^" + name;
  unsigned port = cast<OpResult>(value).getResultNumber();
  if (inFunction) {
    FailureOr<std::string> out = outputArgName(producer, port);
    if (failed(out))
      return failure();
    return name + ":" + *out;
  }
  return port == 0 ? name : name + ":" + std::to_string(port);
}

LogicalResult Exporter::exportNode(Operation *op, proto::NodeDef &node,
                                   bool inFunction) {
  if (!tfg::isNode(op))
    return op->emitError("cannot export '") << op->getName()
                                            << "': not a node";
  node.set_name(tfg::getNodeName(op).str());
  node.set_op(tfg::getOpType(op).str());
  StringRef device = tfg::getAssignedDevice(op);
  if (device.empty())
    device = tfg::getRequestedDevice(op);
  node.set_device(device.str());
  for (Value operand : op->getOperands()) {
    FailureOr<std::string> input = inputName(operand, inFunction);
    if (failed(input))
      return failure();
    node.add_input(*input);
  }
  for (NamedAttribute attr : tfg::getNodeAttrs(op)) {
    std::string error;
    if (!tfg::exportAttrValue(attr.getValue(),
                              (*node.mutable_attr())[attr.getName().str()],
                              error))
      return op->emitError() << "node '" << node.name() << "': attr '"
                             << attr.getName().getValue() << "': " << error;
  }
  auto nodeNames = op->getAttrOfType<ArrayAttr>("tfg.original_node_names");
  auto funcNames = op->getAttrOfType<ArrayAttr>("tfg.original_func_names");
  if (nodeNames || funcNames) {
    auto &info = *node.mutable_experimental_debug_info();
    for (Attribute name : nodeNames ? nodeNames.getValue() : ArrayRef<Attribute>())
      info.add_original_node_names(cast<StringAttr>(name).str());
    for (Attribute name : funcNames ? funcNames.getValue() : ArrayRef<Attribute>())
      info.add_original_func_names(cast<StringAttr>(name).str());
  }
  if (Attribute fullType = op->getAttr("tfg.full_type"))
    if (!parseText(fullType, *node.mutable_experimental_type()))
      return op->emitError("malformed tfg.full_type");
  return success();
}

LogicalResult Exporter::exportFunction(FuncOp func,
                                       proto::FunctionDef &function) {
  proto::OpDef &signature = *function.mutable_signature();
  if (Attribute rest = func->getAttr("tfg.signature"))
    if (!parseText(rest, signature))
      return func.emitError("malformed tfg.signature");
  signature.set_name(func.getSymName().str());
  if (func->hasAttr("tfg.is_stateful"))
    signature.set_is_stateful(true);

  // One ArgDef per argument or result, from its type and attributes.
  auto exportArg = [&](Type type, DictionaryAttr attrs,
                       proto::OpDef::ArgDef &arg) -> LogicalResult {
    if (Attribute rest = attrs ? attrs.get("tfg.arg_def") : Attribute())
      if (!parseText(rest, arg))
        return func.emitError("malformed tfg.arg_def");
    auto name = attrs ? attrs.getAs<StringAttr>(tfg::kNameAttr) : StringAttr();
    if (!name)
      return func.emitError("argument or result without a tfg.name");
    arg.set_name(name.str());
    Type element = cast<TensorType>(type).getElementType();
    if (auto ref = dyn_cast<tfg::RefType>(element)) {
      arg.set_is_ref(true);
      element = ref.getElementType();
    }
    if (!isa<tfg::OpaqueType>(element)) {
      int dtype = tfg::typeToDataType(element);
      if (!dtype)
        return func.emitError("argument type has no TensorFlow dtype");
      arg.set_type(static_cast<proto::DataType>(dtype));
    }
    return success();
  };

  argNames.clear();
  Block &body = func.getBody().front();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    DictionaryAttr attrs = func.getArgAttrDict(i);
    proto::OpDef::ArgDef &arg = *signature.add_input_arg();
    if (failed(exportArg(func.getArgumentTypes()[i], attrs, arg)))
      return failure();
    argNames[body.getArgument(i)] = arg.name();
    // The other argument attributes are the FunctionDef's arg_attr.
    for (NamedAttribute attr : attrs ? attrs.getValue()
                                     : ArrayRef<NamedAttribute>()) {
      StringRef attrName = attr.getName().getValue();
      if (attrName == "tfg.resource_arg_unique_id") {
        (*function.mutable_resource_arg_unique_id())[i] =
            cast<IntegerAttr>(attr.getValue()).getInt();
        continue;
      }
      // TensorFlow's arg attrs carry the prefix "tf." (see the importer).
      if (!attrName.consume_front("tf."))
        continue;
      std::string error;
      auto &argAttrs = *(*function.mutable_arg_attr())[i].mutable_attr();
      if (!tfg::exportAttrValue(attr.getValue(), argAttrs[attrName.str()],
                                error))
        return func.emitError() << "arg attr '" << attrName << "': " << error;
    }
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (failed(exportArg(func.getResultTypes()[i], func.getResultAttrDict(i),
                         *signature.add_output_arg())))
      return failure();

  for (NamedAttribute attr : func->getAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name.starts_with("tfg.") || name == func.getSymNameAttrName() ||
        name == func.getFunctionTypeAttrName() ||
        name == func.getArgAttrsAttrName() ||
        name == func.getResAttrsAttrName() || name == "sym_visibility")
      continue;
    std::string error;
    if (!tfg::exportAttrValue(attr.getValue(),
                              (*function.mutable_attr())[name.str()], error))
      return func.emitError() << "function attr '" << name << "': " << error;
  }

  for (Operation &op : body) {
    if (auto ret = dyn_cast<tfg::ReturnOp>(op)) {
      for (auto [value, arg] :
           llvm::zip(ret.getDataOperands(), signature.output_arg())) {
        FailureOr<std::string> name = inputName(value, /*inFunction=*/true);
        if (failed(name))
          return failure();
        (*function.mutable_ret())[arg.name()] = *name;
      }
      for (auto [value, name] :
           llvm::zip(ret.getControlOperands(), ret.getControlNames())) {
        std::string controlName = cast<StringAttr>(name).str();
        signature.add_control_output(controlName);
        (*function.mutable_control_ret())[controlName] =
            tfg::getNodeName(value.getDefiningOp()).str();
      }
      continue;
    }
    if (failed(exportNode(&op, *function.add_node_def(), /*inFunction=*/true)))
      return failure();
  }
  return success();
}

LogicalResult Exporter::exportModule(ModuleOp module, proto::GraphDef &graph,
                                     StringRef entry, StringRef device) {
  graph.Clear();
  std::optional<DeviceName> wanted;
  if (!device.empty()) {
    wanted = DeviceName::parse(device);
    if (!wanted)
      return emitError(module.getLoc())
             << "--device '" << device << "' is not a device name";
  }
  // The partition device tfc-partition records on each graph.
  auto partitionOf = [](GraphOp graphOp) {
    auto attr = graphOp->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
    return attr ? attr.getValue() : StringRef();
  };
  bool sawGraph = false;
  for (Operation &op : *module.getBody()) {
    if (auto graphOp = dyn_cast<GraphOp>(op)) {
      if (!entry.empty()) {
        auto name = graphOp->getAttrOfType<StringAttr>("tfg.entry");
        if (!name || name.getValue() != entry)
          continue;
      }
      if (wanted && !wanted->matches(DeviceName::parse(partitionOf(graphOp))
                                         .value_or(DeviceName())))
        continue;
      if (sawGraph) {
        InFlightDiagnostic diag = graphOp.emitError(
            "a module exports at most one tfg.graph; choose an entry (step "
            "or init) and, for partitions, a --device (");
        llvm::interleaveComma(
            llvm::make_filter_range(module.getOps<GraphOp>(),
                                    [&](GraphOp g) { return !partitionOf(g).empty(); }),
            diag, [&](GraphOp g) { diag << partitionOf(g); });
        return diag << ")";
      }
      sawGraph = true;
      tfg::VersionAttr version = graphOp.getVersion();
      graph.mutable_versions()->set_producer(version.getProducer());
      graph.mutable_versions()->set_min_consumer(version.getMinConsumer());
      for (int32_t bad : version.getBadConsumers())
        graph.mutable_versions()->add_bad_consumers(bad);
      if (auto legacy =
              graphOp->getAttrOfType<IntegerAttr>("tfg.legacy_version"))
        graph.set_version(legacy.getInt());
      for (Operation &node : graphOp.getBody())
        if (failed(exportNode(&node, *graph.add_node(), /*inFunction=*/false)))
          return failure();
    } else if (auto func = dyn_cast<FuncOp>(op)) {
      if (failed(exportFunction(
              func, *graph.mutable_library()->add_function())))
        return failure();
    } else {
      return op.emitError("cannot export '") << op.getName()
                                             << "' to a GraphDef";
    }
  }
  if (auto gradients = module->getAttrOfType<DictionaryAttr>("tfg.gradients"))
    for (NamedAttribute g : gradients) {
      proto::GradientDef &def = *graph.mutable_library()->add_gradient();
      def.set_function_name(g.getName().str());
      def.set_gradient_func(cast<StringAttr>(g.getValue()).str());
    }
  if (auto registered =
          module->getAttrOfType<DictionaryAttr>("tfg.registered_gradients"))
    for (NamedAttribute g : registered) {
      proto::RegisteredGradient &def =
          *graph.mutable_library()->add_registered_gradients();
      def.set_gradient_func(g.getName().str());
      def.set_registered_op_type(cast<StringAttr>(g.getValue()).str());
    }
  return success();
}

} // namespace

LogicalResult exportGraphDef(ModuleOp module, proto::GraphDef &graph,
                             StringRef entry, StringRef device) {
  if (failed(Exporter().exportModule(module, graph, entry, device)))
    return failure();
  if (!device.empty() && graph.node_size() == 0)
    return emitError(module.getLoc()) << "no partition on device '" << device << "'";
  if (!entry.empty() && graph.node_size() == 0 &&
      llvm::none_of(module.getOps<GraphOp>(), [&](GraphOp g) {
        auto name = g->getAttrOfType<StringAttr>("tfg.entry");
        return name && name.getValue() == entry;
      }))
    return emitError(module.getLoc()) << "no graph with entry '" << entry
                                      << "'";
  return success();
}

} // namespace tfc
