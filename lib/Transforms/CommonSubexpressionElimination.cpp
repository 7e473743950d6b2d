//===- CommonSubexpressionElimination.cpp - merge identical nodes ---------===//
//
// Click-style global value numbering over each graph and function body
// (white paper §5.1): nodes are visited in topological order, so a node's
// inputs are already canonical when it is hashed, and a node equivalent to
// one seen before is replaced by it. Two nodes are equivalent when they
// have the same op type, the same attrs (the name aside), the same data
// inputs in order, the same set of control inputs, the same requested and
// assigned devices, and the same result types.
//
// As in TensorFlow's own CSE, stateful nodes (random ops, variables, ...),
// nodes reading refs, placeholders and graph arguments are never merged, and
// roots (_Retval, sends, targets) stay as they are.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_COMMONSUBEXPRESSIONELIMINATIONPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// What two nodes must share to be merged.
struct NodeKey {
  OperationName name;
  DictionaryAttr attrs;
  SmallVector<Value> data;
  SmallVector<Value> control; // Sorted, without duplicates.
  SmallVector<Type> resultTypes;

  bool operator==(const NodeKey &other) const {
    return name == other.name && attrs == other.attrs && data == other.data &&
           control == other.control && resultTypes == other.resultTypes;
  }
  llvm::hash_code hash() const {
    return llvm::hash_combine(
        name.getAsOpaquePointer(), attrs.getAsOpaquePointer(),
        llvm::hash_combine_range(data.begin(), data.end()),
        llvm::hash_combine_range(control.begin(), control.end()));
  }
};

NodeKey keyOf(Operation *node) {
  NodeKey key{node->getName(), {}, {}, {}, {}};
  // Attributes that do not change what the node computes: its name and
  // where it came from.
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : node->getAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name != tfg::kNameAttr && name != "tfg.original_node_names" &&
        name != "tfg.original_func_names")
      attrs.push_back(attr);
  }
  key.attrs = DictionaryAttr::get(node->getContext(), attrs);
  llvm::append_range(key.data, tfg::getDataOperands(node));
  llvm::append_range(key.control, tfg::getControlOperands(node));
  llvm::sort(key.control, [](Value a, Value b) {
    return a.getAsOpaquePointer() < b.getAsOpaquePointer();
  });
  key.control.erase(std::unique(key.control.begin(), key.control.end()),
                    key.control.end());
  llvm::append_range(key.resultTypes, node->getResultTypes());
  return key;
}

bool isCandidate(Operation *node, const llvm::StringSet<> &roots) {
  if (!tfg::isNode(node) || isStateful(node) || isRoot(node, roots))
    return false;
  if (llvm::is_contained({OpKind::Placeholder, OpKind::PlaceholderV2,
                          OpKind::PlaceholderWithDefault, OpKind::InternalArg,
                          OpKind::InternalRecv, OpKind::InternalHostRecv},
                         opKindOf(node)))
    return false;
  // A node reading a ref reads a mutable buffer at the time it runs.
  return llvm::none_of(tfg::getDataOperands(node), [](Value v) {
    return isa<tfg::RefType>(cast<TensorType>(v.getType()).getElementType());
  });
}

struct CommonSubexpressionEliminationPass
    : public impl::CommonSubexpressionEliminationPassBase<
          CommonSubexpressionEliminationPass> {
  PassCounter numMerged{this, "merged", "nodes merged into an equivalent one"};
  void runOnOperation() override {
    numMerged = 0; // Reported even when nothing happens.
    llvm::StringSet<> roots = getRootNames(getOperation());
    for (Block *body : getBodies(getOperation())) {
      // Hash buckets of the canonical nodes seen so far.
      llvm::DenseMap<llvm::hash_code, SmallVector<std::pair<NodeKey, Operation *>, 1>>
          table;
      // Merged node name -> the name of the node that replaced it.
      llvm::StringMap<std::string> replacements;
      for (Operation *node : topologicalOrder(*body)) {
        if (!isCandidate(node, roots))
          continue;
        NodeKey key = keyOf(node);
        auto &bucket = table[key.hash()];
        auto it = llvm::find_if(bucket, [&](const auto &entry) {
          return entry.first == key;
        });
        if (it == bucket.end()) {
          bucket.emplace_back(std::move(key), node);
          continue;
        }
        replacements[tfg::getNodeName(node)] =
            tfg::getNodeName(it->second).str();
        node->replaceAllUsesWith(it->second);
        node->erase();
        ++numMerged;
      }
      updateColocations(*body, replacements);
    }
  }
};

} // namespace
} // namespace tfc
