//===- ParallelizeLoops.cpp - generated loops on every thread -------------===//
//
// A step's elementwise loops and row reductions are linalg.generic ops that
// would run on the calling thread only, while the kernels around them use
// every thread of the runtime. This pass splits each large enough one over
// the runtime's OpenMP team: it lowers the op to loops, outlines the loop
// of the first dimension that is parallel and longer than 1 (its outer
// dimensions, if any, are 1 long) into a function
//
//   void NAME_loopN(void *captures, int64_t begin, int64_t end)
//
// and calls tfc_parallel_for (tfc_runtime.h) with it. The values the loop
// uses from outside travel in a struct on the caller's stack, or are
// recomputed inside when they are constants and views (Outlining.h).
//
// Loops whose outlined functions come out the same (ignoring locations)
// share one: a graph that repeats a computation on the same planned
// buffers (a network's front copied once per micro-batch, as
// tfc-split-batch did before it ran the parts in a loop) would have each
// copy compiled through LLVM, which was most of such a compile.
//
// The split dimension must index every output, so that the ranges write
// disjoint elements. Loops whose body may stop the step (tfc_fail) stay
// serial, as do loops too small to pay for waking a thread: below
// kMinimumWork (elements x body ops) at compile time, and below Eigen's
// cost model's threshold at run time (what the kernels' loops use too).
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Outlining.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_PARALLELIZELOOPSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Elements times body operations below which a loop is never split: a
/// few microseconds of work, less than waking the team costs.
constexpr int64_t kMinimumWork = 1 << 15;
/// float32 lanes per vector that the cost given to the runtime assumes
/// (AVX2's), as Eigen's cost of a vectorized expression divides by its
/// packet size.
constexpr double kLanes = 8;

/// The dimension to split `op` along, or -1: the first parallel dimension
/// longer than 1 after dimensions 1 long, indexing every output.
int64_t splitDimension(linalg::GenericOp op, ArrayRef<int64_t> ranges) {
  auto iterators = op.getIteratorTypesArray();
  for (auto [d, extent] : llvm::enumerate(ranges)) {
    if (extent == 1)
      continue;
    if (extent < 2 || iterators[d] != utils::IteratorType::parallel)
      return -1;
    for (OpOperand &output : op.getDpsInitsMutable()) {
      AffineMap map = op.getMatchingIndexingMap(&output);
      if (!llvm::any_of(map.getResults(), [&](AffineExpr e) {
            auto dim = dyn_cast<AffineDimExpr>(e);
            return dim && dim.getPosition() == d;
          }))
        return -1;
    }
    return d;
  }
  return -1;
}

/// Whether the body may run on any thread: it calls nothing of the
/// runtime (tfc_fail stops the step; others may keep state). Its stores
/// to the outputs are what the split dimension keeps apart.
bool bodyIsThreadSafe(linalg::GenericOp op) {
  WalkResult result = op.getRegion().walk([](Operation *inner) {
    if (auto call = dyn_cast<func::CallOp>(inner))
      if (call.getCallee().starts_with("tfc_"))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Whether every value the op uses from outside can reach an outlined
/// function (Outlining.h).
bool canOutline(linalg::GenericOp op) {
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(op.getRegion(), used);
  used.insert(op->operand_begin(), op->operand_end());
  OutsideValues outside =
      classifyOutsideValues(used.getArrayRef(), [](Value) { return false; });
  return llvm::all_of(outside.passed, [](Value value) {
    return ValueStruct::canCarry(value.getType());
  });
}

int64_t bytesOf(Value memref) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  return element.isIntOrFloat() ? (element.getIntOrFloatBitWidth() + 7) / 8
                                : 8;
}

struct ParallelizeLoopsPass
    : public impl::ParallelizeLoopsPassBase<ParallelizeLoopsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    parallelFor = nullptr;
    outlinedByHash.clear();
    LLVMTypeConverter converter(&getContext());
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal() && function.getNumArguments() > 0 &&
          isa<LLVM::LLVMPointerType>(function.getArgument(0).getType()))
        functions.push_back(function);
    for (func::FuncOp function : functions) {
      SmallVector<linalg::GenericOp> candidates;
      function.walk([&](linalg::GenericOp op) { candidates.push_back(op); });
      unsigned count = 0;
      for (linalg::GenericOp op : candidates)
        if (failed(parallelize(op, function, converter, count)))
          return signalPassFailure();
    }
  }

  /// Splits `op` when it qualifies; `count` numbers the outlined loops of
  /// `function`.
  LogicalResult parallelize(linalg::GenericOp op, func::FuncOp function,
                            const LLVMTypeConverter &converter,
                            unsigned &count) {
    if (!op.hasPureBufferSemantics() || op.hasDynamicShape() ||
        !bodyIsThreadSafe(op) || !canOutline(op))
      return success();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t dimension = splitDimension(op, ranges);
    if (dimension < 0)
      return success();
    int64_t elements = 1;
    for (int64_t extent : ranges)
      elements *= extent;
    int64_t bodyOps = std::max<int64_t>(
        1, int64_t(op.getBody()->getOperations().size()) - 1);
    if (elements * bodyOps < kMinimumWork)
      return success();

    // Per iteration of the split dimension, for the run-time cost model.
    double inner = double(elements) / double(ranges[dimension]);
    double loaded = 0, stored = 0;
    for (Value input : op.getDpsInputs())
      if (isa<MemRefType>(input.getType()))
        loaded += inner * double(bytesOf(input));
    for (Value output : op.getDpsInits())
      stored += inner * double(bytesOf(output));
    double cycles = inner * double(bodyOps) / kLanes;

    IRRewriter rewriter(op.getContext());
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops = linalg::linalgOpToLoops(rewriter, op);
    if (failed(loops) || int64_t(loops->size()) != int64_t(ranges.size()))
      return op.emitError("cannot lower the loop to split it");
    rewriter.eraseOp(op);
    auto loop = cast<scf::ForOp>((*loops)[dimension]);
    std::string name = (function.getName() + "_loop" + Twine(count++)).str();
    outline(loop, function, name, ranges[dimension], loaded, stored, cycles,
            converter);
    ++splitLoops;
    return success();
  }

  void outline(scf::ForOp loop, func::FuncOp function, StringRef name,
               int64_t trips, double loaded, double stored, double cycles,
               const LLVMTypeConverter &converter) {
    MLIRContext *context = loop.getContext();
    Location loc = loop.getLoc();
    OpBuilder b(context);
    Type ptr = LLVM::LLVMPointerType::get(context);
    Type i64 = b.getI64Type();

    // What the body uses from outside (Outlining.h): the arena's views
    // are recomputed inside, other values travel in a struct.
    llvm::SetVector<Value> used;
    getUsedValuesDefinedAbove(loop.getRegion(), used);
    OutsideValues outside =
        classifyOutsideValues(used.getArrayRef(), [](Value) { return false; });
    ArrayRef<Value> captures = outside.passed.getArrayRef();
    ValueStruct captured(captures, converter);

    // The outlined function.
    auto module = function->getParentOfType<ModuleOp>();
    b.setInsertionPoint(function);
    auto outlined = b.create<func::FuncOp>(
        loc, name, b.getFunctionType({ptr, i64, i64}, {}));
    outlined.setPrivate();
    Block *entry = outlined.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    for (auto [i, value] : llvm::enumerate(captures))
      mapping.map(value, captured.load(b, loc, entry->getArgument(0), i,
                                       value.getType()));
    for (Operation *producer : outside.recomputed)
      b.clone(*producer, mapping);
    Value begin = b.create<arith::IndexCastOp>(loc, b.getIndexType(),
                                               entry->getArgument(1));
    Value end = b.create<arith::IndexCastOp>(loc, b.getIndexType(),
                                             entry->getArgument(2));
    Value one = b.create<arith::ConstantIndexOp>(loc, 1);
    auto range = b.create<scf::ForOp>(loc, begin, end, one);
    mapping.map(loop.getInductionVar(), range.getInductionVar());
    b.setInsertionPointToStart(range.getBody());
    for (Operation &inner : loop.getBody()->without_terminator())
      b.clone(inner, mapping);
    b.setInsertionPointAfter(range);
    b.create<func::ReturnOp>(loc);
    outlined = shareIdentical(outlined);

    // The call in place of the loop.
    Value capturesOut = captured.allocate(b, loc, function);
    b.setInsertionPoint(loop);
    for (auto [i, value] : llvm::enumerate(captures))
      captured.store(b, loc, capturesOut, i, value);
    Value body = b.create<func::ConstantOp>(loc, outlined.getFunctionType(),
                                            SymbolRefAttr::get(outlined));
    Value bodyPointer =
        b.create<UnrealizedConversionCastOp>(loc, ptr, body).getResult(0);
    auto f64 = [&](double v) -> Value {
      return b.create<arith::ConstantOp>(loc, b.getF64FloatAttr(v));
    };
    SmallVector<Value> args = {function.getArgument(0),
                               bodyPointer,
                               capturesOut,
                               b.create<arith::ConstantIntOp>(loc, trips, 64),
                               f64(loaded),
                               f64(stored),
                               f64(cycles)};
    b.create<func::CallOp>(loc, runtimeParallelFor(module, b, args), args);
    loop.erase();
  }

  /// `outlined`, or an earlier outlined function with the same body (which
  /// then replaces it).
  func::FuncOp shareIdentical(func::FuncOp outlined) {
    llvm::hash_code hash = bodyHash(outlined);
    SmallVector<func::FuncOp> &same = outlinedByHash[hash];
    for (func::FuncOp earlier : same)
      if (OperationEquivalence::isRegionEquivalentTo(
              &earlier.getBody(), &outlined.getBody(),
              OperationEquivalence::IgnoreLocations)) {
        outlined.erase();
        ++sharedLoops;
        return earlier;
      }
    same.push_back(outlined);
    return outlined;
  }

  /// A hash of the operations of `function`'s body, in order, without
  /// their locations or which values they use (isRegionEquivalentTo
  /// compares those).
  static llvm::hash_code bodyHash(func::FuncOp function) {
    llvm::hash_code hash(0);
    function.getBody().walk([&](Operation *op) {
      hash = llvm::hash_combine(
          hash, OperationEquivalence::computeHash(
                    op, OperationEquivalence::ignoreHashValue,
                    OperationEquivalence::ignoreHashValue,
                    OperationEquivalence::IgnoreLocations));
    });
    return hash;
  }

  /// The outlined functions of this run by bodyHash.
  llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp>> outlinedByHash;

  /// Looked up once per run: a lookup walks the module's ops, and a large
  /// graph has thousands of them and hundreds of loops.
  func::FuncOp runtimeParallelFor(ModuleOp module, OpBuilder &b,
                                  ValueRange args) {
    const char *name = "tfc_parallel_for";
    if (parallelFor)
      return parallelFor;
    if ((parallelFor = module.lookupSymbol<func::FuncOp>(name)))
      return parallelFor;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    parallelFor = b.create<func::FuncOp>(
        module.getLoc(), name, b.getFunctionType(args.getTypes(), {}));
    parallelFor.setPrivate();
    return parallelFor;
  }

  /// tfc_parallel_for's declaration, once this run has needed it.
  func::FuncOp parallelFor;

  PassCounter splitLoops{this, "split-loops",
                         "Loops split over the runtime's threads"};
  PassCounter sharedLoops{this, "shared-loops",
                          "Split loops that call an earlier one's function"};
};

} // namespace
} // namespace tfc
