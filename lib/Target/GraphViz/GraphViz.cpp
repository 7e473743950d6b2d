//===- GraphViz.cpp - a step's graph as a Graphviz picture ----------------===//

#include "tfc/Target/GraphViz.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Partition.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>

using namespace mlir;

namespace tfc {
namespace {

/// Fill colours of the device boxes, in turn (light, so labels read).
const char *const kDeviceColours[] = {"#e8f0fe", "#fce8e6", "#e6f4ea",
                                      "#fef7e0", "#f3e8fd", "#e0f7fa"};

/// A DOT string literal.
std::string quote(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// Name scopes as nested boxes: the nodes directly in a scope, and its
/// inner scopes by name.
struct Scope {
  SmallVector<Operation *> nodes;
  std::map<std::string, std::unique_ptr<Scope>> inner;
};

class DotWriter {
public:
  explicit DotWriter(llvm::raw_string_ostream &os) : os(os) {}

  void graph(tfg::GraphOp graph, StringRef device, unsigned index) {
    Scope root;
    for (Operation &node : graph.getBody().getOperations()) {
      if (!tfg::isNode(&node))
        continue;
      ids[&node] = "n" + std::to_string(ids.size());
      Scope *scope = &root;
      SmallVector<StringRef> parts;
      tfg::getNodeName(&node).split(parts, '/');
      for (StringRef part : ArrayRef<StringRef>(parts).drop_back()) {
        std::unique_ptr<Scope> &inner = scope->inner[part.str()];
        if (!inner)
          inner = std::make_unique<Scope>();
        scope = inner.get();
      }
      scope->nodes.push_back(&node);
      if (opKindOf(&node) == OpKind::InternalSend)
        sends[rendezvousKey(&node)] = &node;
      else if (opKindOf(&node) == OpKind::InternalRecv)
        recvs.push_back(&node);
    }
    os << "  subgraph cluster_device_" << index << " {\n"
       << "    label=" << quote(device.empty() ? "graph" : device)
       << "; style=filled; fillcolor=" << quote(kDeviceColours[index % 6])
       << "; fontsize=16;\n";
    writeScope(root, "    ", std::to_string(index));
    os << "  }\n";
    for (Operation &node : graph.getBody().getOperations())
      if (tfg::isNode(&node))
        for (Value operand : node.getOperands())
          if (Operation *producer = operand.getDefiningOp())
            if (ids.count(producer))
              os << "  " << ids[producer] << " -> " << ids[&node]
                 << (tfg::isControl(operand) ? " [style=dashed]" : "")
                 << ";\n";
  }

  /// The _Send -> _Recv pairs, once every partition is written.
  void transfers() {
    for (Operation *recv : recvs)
      if (Operation *send = sends.lookup(rendezvousKey(recv)))
        os << "  " << ids[send] << " -> " << ids[recv]
           << " [style=dotted, color=\"#d93025\", constraint=false];\n";
  }

private:
  void writeScope(const Scope &scope, const std::string &indent,
                  const std::string &path) {
    for (Operation *node : scope.nodes) {
      StringRef name = tfg::getNodeName(node);
      std::string tooltip = name.str() + " (" + tfg::getOpType(node).str() + ")";
      if (StringRef device = tfg::getAssignedDevice(node); !device.empty())
        tooltip += "\non " + device.str();
      for (Value result : tfg::getDataResults(node))
        tooltip += "\n" + tfg::tensorTypeName(result.getType());
      bool transfer = opKindOf(node) == OpKind::InternalSend ||
                      opKindOf(node) == OpKind::InternalRecv;
      StringRef last = name.rsplit('/').second.empty() ? name
                                                       : name.rsplit('/').second;
      os << indent << ids[node] << " [label="
         << quote((last + "\n" + tfg::getOpType(node)).str())
         << ", tooltip=" << quote(tooltip)
         << (transfer ? ", shape=cds, color=\"#d93025\"" : "") << "];\n";
    }
    unsigned k = 0;
    for (const auto &[name, inner] : scope.inner) {
      std::string innerPath = path + "_" + std::to_string(k++);
      os << indent << "subgraph cluster_scope_" << innerPath << " {\n"
         << indent << "  label=" << quote(name)
         << "; style=\"rounded,filled\"; fillcolor=white;\n";
      writeScope(*inner, indent + "  ", innerPath);
      os << indent << "}\n";
    }
  }

  llvm::raw_string_ostream &os;
  llvm::DenseMap<Operation *, std::string> ids;
  llvm::StringMap<Operation *> sends;
  SmallVector<Operation *> recvs;
};

} // namespace

std::string stepToDot(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "digraph step {\n"
     << "  rankdir=TB; compound=true; fontname=\"Helvetica\";\n"
     << "  node [shape=box, style=\"rounded,filled\", fillcolor=white, "
        "fontname=\"Helvetica\", fontsize=10];\n"
     << "  edge [arrowsize=0.6];\n";
  DotWriter writer(os);
  unsigned index = 0;
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
    if (entry && entry.getValue() != "step")
      continue;
    auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
    writer.graph(graph, device ? device.getValue() : StringRef(), index++);
  }
  writer.transfers();
  os << "}\n";
  return text;
}

} // namespace tfc
