//===- LowerTensorLists.cpp - TensorLists as dense tensors ----------------===//
//
// TF2's loops keep per-step tensors in TensorLists (Keras RNNs read their
// input sequence from one and write their outputs to another). A list
// whose element shape and length are known at compile time is a dense
// tensor [length, element...]; this pass rewrites the list ops into the
// tensor ops that compute it, as TensorFlow's own list-to-tensor rewrites
// do:
//
//   TensorListReserve(shape, n)      -> a zero Const [n, shape...]
//   TensorListFromTensor(t, shape)   -> Identity(t)
//   TensorListGetItem(l, i, shape)   -> GatherV2(l, i, 0)
//   TensorListSetItem(l, i, item)    -> TensorScatterUpdate(l, [[i]], [item])
//   TensorListStack(l, shape)        -> Identity(l)
//
// and gives the nodes that carry a list through a loop (Enter, Merge,
// Switch, Identity, NextIteration, Exit) the dense type in place of the
// variant. A list op it cannot rewrite (an unknown element shape or
// length, other list ops) stays, and code generation names it.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_LOWERTENSORLISTSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool isVariant(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<tfg::VariantType>(tensor.getElementType());
}

struct LowerTensorListsPass
    : public impl::LowerTensorListsPassBase<LowerTensorListsPass> {
  PassCounter numLowered{this, "lowered", "TensorList ops rewritten"};

  void runOnOperation() override {
    numLowered = 0;
    for (Block *body : getBodies(getOperation()))
      lowerBody(*body);
  }

  void lowerBody(Block &body) {
    NameUniquer names(body);
    OpBuilder builder(body.getParentOp()->getContext());
    // The dense values that replaced lists, for the retyping below.
    SmallVector<Value> lists;
    SmallVector<Operation *> nodes;
    for (Operation &op : body)
      if (tfg::isNode(&op) && tfg::getOpType(&op).starts_with("TensorList"))
        nodes.push_back(&op);
    for (Operation *op : nodes) {
      StringRef type = tfg::getOpType(op);
      OperandRange in = tfg::getDataOperands(op);
      auto dtype = op->getAttrOfType<TypeAttr>("element_dtype");
      if (!dtype)
        continue;
      Type element = dtype.getValue();
      auto unranked = UnrankedTensorType::get(element);
      auto T = builder.getNamedAttr("T", TypeAttr::get(element));
      std::string name = tfg::getNodeName(op).str();
      builder.setInsertionPoint(op);
      // New nodes wait for what the list op waited for.
      auto node = [&](StringRef opType, StringRef nodeName, TypeRange results,
                      ValueRange data, ArrayRef<NamedAttribute> attrs) {
        return createNodeLike(builder, op, opType, nodeName, results, data,
                              tfg::getControlOperands(op), attrs);
      };
      auto i32 = builder.getI32Type();
      auto i32Const = [&](StringRef suffix, ArrayRef<int64_t> shape,
                          ArrayRef<int32_t> values) {
        auto type = RankedTensorType::get(shape, i32);
        return node("Const", names.get(name + suffix.str()), type, {},
                    {builder.getNamedAttr("dtype", TypeAttr::get(i32)),
                     builder.getNamedAttr("value",
                                          DenseElementsAttr::get(type, values))})
            ->getResult(0);
      };
      Operation *replacement = nullptr;
      if (type == "TensorListReserve") {
        auto shape = constantInts(in[0]);
        auto length = constantInts(in[1]);
        if (!shape || !length || length->size() != 1 ||
            llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
          continue;
        SmallVector<int64_t> dims = {(*length)[0]};
        llvm::append_range(dims, *shape);
        auto tensorType = RankedTensorType::get(dims, element);
        replacement = node("Const", name, tensorType, {},
                           {builder.getNamedAttr("dtype", dtype),
                            builder.getNamedAttr(
                                "value", DenseElementsAttr::get(
                                             tensorType, builder.getZeroAttr(element)))});
      } else if (type == "TensorListFromTensor" || type == "TensorListStack") {
        replacement = node("Identity", name, unranked, in[0], {T});
      } else if (type == "TensorListGetItem") {
        replacement = node("GatherV2", name, unranked,
                           {in[0], in[1], i32Const("/axis", {}, {0})},
                           {builder.getNamedAttr("Tparams", TypeAttr::get(element)),
                            builder.getNamedAttr("Tindices", TypeAttr::get(i32)),
                            builder.getNamedAttr("Taxis", TypeAttr::get(i32)),
                            builder.getNamedAttr("batch_dims", builder.getI64IntegerAttr(0))});
      } else if (type == "TensorListSetItem") {
        Operation *index = node("Reshape", names.get(name + "/index"),
                                UnrankedTensorType::get(i32),
                                {in[1], i32Const("/index_shape", {2}, {1, 1})},
                                {builder.getNamedAttr("T", TypeAttr::get(i32)),
                                 builder.getNamedAttr("Tshape", TypeAttr::get(i32))});
        Operation *update = node("ExpandDims", names.get(name + "/update"), unranked,
                                 {in[2], i32Const("/axis", {}, {0})},
                                 {T, builder.getNamedAttr("Tdim", TypeAttr::get(i32))});
        replacement = node("TensorScatterUpdate", name, unranked,
                           {in[0], index->getResult(0), update->getResult(0)},
                           {T, builder.getNamedAttr("Tindices", TypeAttr::get(i32))});
      } else {
        continue;
      }
      // The replacement takes the name; the list op goes.
      tfg::getDataResults(op)[0].replaceAllUsesWith(replacement->getResult(0));
      tfg::getControlToken(op).replaceAllUsesWith(tfg::getControlToken(replacement));
      // (An item read is an element, not a list.)
      if (type != "TensorListGetItem")
        lists.push_back(replacement->getResult(0));
      op->erase();
      ++numLowered;
    }
    // The nodes that carry a list on take its dense type.
    llvm::SetVector<Value> worklist(lists.begin(), lists.end());
    for (size_t k = 0; k < worklist.size(); ++k) {
      Value value = worklist[k];
      auto tensor = cast<TensorType>(value.getType());
      for (Operation *user : value.getUsers()) {
        if (!tfg::isNode(user))
          continue;
        StringRef type = tfg::getOpType(user);
        if (type != "Enter" && type != "Merge" && type != "Switch" &&
            type != "Identity" && type != "NextIteration" && type != "Exit")
          continue;
        for (Value result : tfg::getDataResults(user)) {
          if (!isVariant(result.getType()))
            continue;
          result.setType(UnrankedTensorType::get(tensor.getElementType()));
          worklist.insert(result);
        }
        user->setAttr("T", TypeAttr::get(tensor.getElementType()));
      }
    }
  }
};

} // namespace
} // namespace tfc
