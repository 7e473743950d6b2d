//===- SplitSteps.cpp - long steps as calls to parts of bounded size ------===//
//
// LLVM's optimizer and code generator take time that grows faster than a
// function's size (dominator tree updates, scalar evolution's guard
// queries, instruction scheduling): the step of a 10,000-node graph, one
// function of about 2,000 loop nests, took 28 s to compile where a
// 1,000-node graph took 0.7 s. This pass cuts each long function into runs
// of consecutive top-level operations of about `max-ops` operations each
// (nested ones counted; a run ends at the first top-level operation after
// it reached that many), moves each run into a function
//
//   NAME_partN(the function's arguments it uses..., !llvm.ptr frame)
//
// marked noinline so that LLVM's inliner does not put them back together,
// and leaves the function a sequence of calls (itself noinline and
// optnone: there is nothing to optimize in it). The parts take the
// function's arguments as they are (the first, the runtime's context,
// always; the others where used), so the arena is a function argument in
// every part as it was in the step, with the same aliasing facts for LLVM.
// A value one part computes and a later part uses travels in one struct on
// the step's stack (the frame); constants and views are recomputed in each
// part that uses them instead (Outlining.h).
//
// A run never ends while a value derived from its own stack (memref.alloca,
// as a kernel's table of addresses) is still to be used, since that stack
// is gone when the part returns. Functions other than steps (whose first
// argument is the runtime's context), functions with results or several
// blocks, and functions whose crossing values cannot travel in a struct,
// are left whole.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallBitVector.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Outlining.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_SPLITSTEPSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// A run of consecutive top-level operations and what crosses its edges.
struct Part {
  unsigned begin, end; // positions in the function's block
  OutsideValues outside;
  llvm::SetVector<Value> outgoing; // computed here, read by a later part
  SmallVector<unsigned> arguments;  // the function's, that this part uses
};

/// What an operation counts for in a part's size: one, but a memref.copy
/// more. A copy of a small tensor (a step's outputs, say) becomes a memcpy
/// that LLVM expands into loads and stores in the same block as the next
/// copies, and the instruction schedulers' time on a block grows as the
/// square of its length: a part of a thousand such copies took 1.5 s.
int64_t weightOf(Operation *op) {
  return isa<memref::CopyOp>(op) ? 8 : 1;
}

struct SplitStepsPass : public impl::SplitStepsPassBase<SplitStepsPass> {
  using impl::SplitStepsPassBase<SplitStepsPass>::SplitStepsPassBase;

  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    SmallVector<func::FuncOp> functions;
    // Steps: their first argument is the runtime's context, which every
    // part takes first too (tfc-parallelize-loops passes it on).
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal() && function.getNumResults() == 0 &&
          function.getBody().hasOneBlock() &&
          function.getNumArguments() > 0 &&
          isa<LLVM::LLVMPointerType>(function.getArgument(0).getType()))
        functions.push_back(function);
    for (func::FuncOp function : functions)
      split(function, converter);
  }

  void split(func::FuncOp function, const LLVMTypeConverter &converter) {
    Block &block = function.getBody().front();
    SmallVector<Operation *> ops;
    SmallVector<int64_t> sizes;
    int64_t total = 0;
    for (Operation &op : block.without_terminator()) {
      int64_t size = 0;
      op.walk([&](Operation *inner) { size += weightOf(inner); });
      ops.push_back(&op);
      sizes.push_back(size);
      total += size;
    }
    if (total <= maxOps)
      return;
    DenseMap<Operation *, unsigned> position;
    for (auto [i, op] : llvm::enumerate(ops))
      position[op] = i;
    auto positionOf = [&](Operation *op) {
      return position.lookup(block.findAncestorOpInBlock(*op));
    };

    // The cuts: after max-ops operations, at the first position that no
    // stack-derived value lives across.
    SmallVector<Part> parts;
    parts.push_back({0, 0, {}, {}});
    llvm::DenseSet<Value> stackDerived;
    unsigned stackLiveUntil = 0; // last position using stack-derived values
    int64_t running = 0;
    for (auto [i, op] : llvm::enumerate(ops)) {
      if (running >= maxOps && stackLiveUntil < i) {
        parts.back().end = i;
        parts.push_back({unsigned(i), 0, {}, {}});
        running = 0;
      }
      running += sizes[i];
      bool onStack = isa<memref::AllocaOp, LLVM::AllocaOp>(op) ||
                     llvm::any_of(op->getOperands(), [&](Value v) {
                       return stackDerived.contains(v);
                     });
      if (!onStack)
        continue;
      for (Value result : op->getResults()) {
        stackDerived.insert(result);
        for (Operation *user : result.getUsers())
          stackLiveUntil = std::max(stackLiveUntil, positionOf(user));
      }
    }
    parts.back().end = ops.size();
    if (parts.size() < 2)
      return;

    // What each part reads from outside it, and which values therefore
    // travel in the frame.
    auto partOf = [&](unsigned pos) {
      return unsigned(llvm::partition_point(parts, [&](const Part &p) {
                        return p.end <= pos;
                      }) -
                      parts.begin());
    };
    auto isArgument = [&](Value value) {
      auto argument = dyn_cast<BlockArgument>(value);
      return argument && argument.getOwner() == &block;
    };
    llvm::SetVector<Value> travelling;
    for (auto [index, part] : llvm::enumerate(parts)) {
      llvm::SetVector<Value> used;
      for (unsigned i = part.begin; i < part.end; ++i)
        ops[i]->walk([&](Operation *inner) {
          for (Value operand : inner->getOperands()) {
            if (isArgument(operand)) {
              used.insert(operand);
              continue;
            }
            Operation *producer = operand.getDefiningOp();
            if (producer && producer->getBlock() == &block &&
                partOf(position.lookup(producer)) != index)
              used.insert(operand);
          }
        });
      part.outside = classifyOutsideValues(used.getArrayRef(), isArgument);
      // The function's arguments the part uses, in order; the first (the
      // runtime's context) always, as the runtime calls expect it first.
      // Passing every argument would make the calls' size grow with the
      // step's inputs and outputs, and their count with its length.
      llvm::SmallBitVector usesArgument(function.getNumArguments());
      usesArgument.set(0);
      auto noteArgument = [&](Value value) {
        if (isArgument(value))
          usesArgument.set(cast<BlockArgument>(value).getArgNumber());
      };
      llvm::for_each(used, noteArgument);
      for (Operation *producer : part.outside.recomputed)
        llvm::for_each(producer->getOperands(), noteArgument);
      for (unsigned i : usesArgument.set_bits())
        part.arguments.push_back(i);
      for (Value value : part.outside.passed) {
        if (!ValueStruct::canCarry(value.getType()))
          return; // left whole
        travelling.insert(value);
        parts[partOf(position.lookup(value.getDefiningOp()))].outgoing.insert(
            value);
      }
    }

    // The parts, each a function before the step; the step calls them in
    // order, with the frame at its entry.
    MLIRContext *context = function.getContext();
    OpBuilder b(context);
    Type ptr = LLVM::LLVMPointerType::get(context);
    ValueStruct frame(travelling.getArrayRef(), converter);
    DenseMap<Value, unsigned> fieldOf;
    for (auto [i, value] : llvm::enumerate(travelling))
      fieldOf[value] = i;
    Value framePointer =
        travelling.empty()
            ? Value(OpBuilder::atBlockBegin(&block).create<LLVM::ZeroOp>(
                  function.getLoc(), ptr))
            : frame.allocate(b, function.getLoc(), function);
    Operation *terminator = block.getTerminator();

    // First every part's entry, cloning the recomputed producers while
    // their operands are still the step's values; then the moves.
    SmallVector<func::FuncOp> outlined;
    SmallVector<IRMapping> mappings(parts.size());
    for (auto [index, part] : llvm::enumerate(parts)) {
      Location loc = ops[part.begin]->getLoc();
      SmallVector<Type> argumentTypes;
      for (unsigned i : part.arguments)
        argumentTypes.push_back(function.getArgument(i).getType());
      argumentTypes.push_back(ptr);
      auto partType = b.getFunctionType(argumentTypes, {});
      b.setInsertionPoint(function);
      auto partFunction = b.create<func::FuncOp>(
          loc, (function.getName() + "_part" + Twine(index)).str(), partType);
      partFunction.setPrivate();
      partFunction->setAttr("passthrough",
                            b.getArrayAttr({b.getStringAttr("noinline")}));
      outlined.push_back(partFunction);
      Block *entry = partFunction.addEntryBlock();
      b.setInsertionPointToStart(entry);
      IRMapping &mapping = mappings[index];
      for (auto [i, argument] : llvm::enumerate(part.arguments))
        mapping.map(function.getArgument(argument), entry->getArgument(i));
      Value framePointerIn = entry->getArguments().back();
      for (Value value : part.outside.passed)
        mapping.map(value, frame.load(b, loc, framePointerIn, fieldOf[value],
                                      value.getType()));
      for (Operation *producer : part.outside.recomputed)
        b.clone(*producer, mapping);
      b.create<func::ReturnOp>(loc);
    }
    for (auto [index, part] : llvm::enumerate(parts)) {
      func::FuncOp partFunction = outlined[index];
      Location loc = partFunction.getLoc();
      Block *entry = &partFunction.getBody().front();
      Operation *ret = entry->getTerminator();
      // The moved operations read the part's own values: rewritten by
      // walking them, not the use lists of what they read, since the
      // step's arguments (the runtime's context, the arena) have uses in
      // every part, and walking those once per part is quadratic.
      const IRMapping &mapping = mappings[index];
      for (unsigned i = part.begin; i < part.end; ++i) {
        ops[i]->moveBefore(ret);
        ops[i]->walk([&](Operation *inner) {
          for (OpOperand &operand : inner->getOpOperands())
            if (Value to = mapping.lookupOrNull(operand.get()))
              operand.set(to);
        });
      }
      b.setInsertionPoint(ret);
      for (Value value : part.outgoing)
        frame.store(b, loc, entry->getArguments().back(), fieldOf[value],
                    value);
      SmallVector<Value> callArguments;
      for (unsigned i : part.arguments)
        callArguments.push_back(function.getArgument(i));
      callArguments.push_back(framePointer);
      b.setInsertionPoint(terminator);
      b.create<func::CallOp>(loc, partFunction, callArguments);
    }
    // What is left only calls the parts: optimizing it gains nothing, and
    // its one block, passing the arguments of a step with thousands of
    // inputs or outputs on to the parts, took the instruction schedulers
    // time quadratic in their number.
    function->setAttr("passthrough",
                      b.getArrayAttr({b.getStringAttr("noinline"),
                                      b.getStringAttr("optnone")}));
    splitParts += parts.size();
  }

  PassCounter splitParts{this, "parts", "Functions the steps were cut into"};
};

} // namespace
} // namespace tfc
