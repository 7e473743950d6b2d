//===- PlanMemory.cpp - one arena for every intermediate tensor -----------===//
//
// The static memory plan of each entry: every tensor code generation
// materializes gets an offset in one arena, so that a step allocates
// nothing.
//
//  * Schedule: the topological order of nodes and fusion groups (a group
//    runs its members as one node).
//  * Buffers: one per materialized output. `_Arg` outputs live in the
//    caller's buffers and Const outputs in the program's data; handles
//    (resources, variants, strings) need none, nor do variable reads (the
//    variable's buffer in the state area). Identity, StopGradient,
//    Snapshot, Reshape, Squeeze and ExpandDims outputs alias their input.
//    An elementwise group writes in place over an input buffer of the same
//    shape that dies there, and so does a TensorScatterUpdate over its
//    tensor. An outermost loop's variable lives in its initial value's
//    buffer when nothing else reads that from the loop on. A
//    concatenation's operand made by another concatenation along the same
//    axis, by elementwise loops, or by a Conv2D (and its epilogue) along
//    the channels or the batch, that only elementwise loops read besides,
//    lives in its part of the concatenation's buffer (a strided window): the
//    concatenation copies only the other operands
//    (`tfc.in_place_operands`).
//  * Liveness: a buffer lives from its first definition to its last use.
//  * Fetches: a fetched tensor is made in the step's output parameter, not
//    in the arena, when its buffer holds nothing written after it and no
//    loop writes it: the `_Retval` then copies nothing (the copy of a 16 MB
//    product was 8% of its program's time).
//  * Placement: greedy by size (largest first, at the lowest 64-byte-aligned
//    offset not overlapping any placed buffer alive at the same time).
//
// Results: `tfc.offsets` on each scheduled node and group (one offset per
// data output, -1 when not in the arena), `tfc.in_outputs` on those with a
// data output in an output parameter (its index, -1 for the others),
// `tfc.in_place_operands` on concatenations with operands in place (a
// window's offset is its concatenation's buffer's), and
// `tfc.arena_bytes` on the entry's graph.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/LifetimeIndex.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

constexpr int64_t kAlignment = 64;

int64_t alignedBytes(int64_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

struct Buffer {
  int64_t size = 0;
  int64_t start = 0, end = 0;
  int64_t offset = -1;
  /// The step output parameter that holds it instead of the arena, or -1.
  int64_t output = -1;
};

class Planner {
public:
  explicit Planner(Block &body) : body(body) {}

  FailureOr<int64_t> run();

private:
  Block &body;
  /// The schedule position of each node and group.
  llvm::DenseMap<Operation *, int64_t> position;
  /// The buffer each value lives in (values absent: not in the arena).
  llvm::DenseMap<Value, unsigned> bufferOf;
  SmallVector<Buffer> buffers;
};

FailureOr<int64_t> Planner::run() {
  SmallVector<Operation *> schedule;
  for (Operation *op : topologicalOrder(body)) {
    if (!isNodeOrGroup(op))
      continue;
    position[op] = schedule.size();
    schedule.push_back(op);
  }

  FailureOr<std::unique_ptr<FrameInfo>> frames = FrameInfo::analyze(body);
  if (failed(frames))
    return failure();
  // The loop variables of outermost loops: each Merge's Enter, and where
  // its loop's stretch of the schedule begins. (An inner loop's variable
  // may start from a value made outside the enclosing loop, which must
  // then stay as it was for the enclosing loop's next iteration.)
  struct VariableStart {
    Operation *enter;
    int64_t loopBegins;
  };
  llvm::DenseMap<Operation *, VariableStart> variableStarts;
  // Where the innermost loop of each node in one ends.
  llvm::DenseMap<Operation *, int64_t> loopEnds;
  // Each loop's stretch of the schedule, first and last positions.
  llvm::DenseMap<const Frame *, std::pair<int64_t, int64_t>> stretches;
  for (const std::unique_ptr<Frame> &frame : (*frames)->getFrames()) {
    int64_t first = INT64_MAX, last = -1;
    for (Operation *node : frame->allNodes) {
      first = std::min(first, position.lookup(node));
      last = std::max(last, position.lookup(node));
    }
    stretches[frame.get()] = {first, last};
    for (Operation *node : frame->allNodes) {
      auto [it, inserted] = loopEnds.try_emplace(node, last);
      if (!inserted)
        it->second = std::min(it->second, last);
    }
    if (frame->parent)
      continue;
    for (const LoopVariable &variable : frame->variables)
      variableStarts[variable.merge] = {variable.enter, first};
  }

  // Concatenations in place: a concatenation's operand made by another
  // concatenation along the same axis, by elementwise loops, or by a
  // convolution along the channels or the batch, and read by nothing else
  // but loops of elementwise code (which read any strides), is made in its part of the
  // reader's buffer (a strided window) and not copied there. A DenseNet block
  // concatenates each layer's new channels (a convolution's) to all
  // before them: its chain of concatenations becomes one buffer that the
  // convolutions write into, instead of each layer copying the whole
  // block so far (a tenth of DenseNet169's step at batch 32). In a loop
  // the operand's maker and its readers are in the concatenation's loop
  // (not an outer one, nor outside): the chain's buffer then lives and
  // dies within an iteration, as the loop's other buffers do (a DenseNet's
  // front in tfc-split-batch's micro-batches: its concatenations took 39
  // ms of a step at batch 32 copied, 5 in place).
  llvm::DenseMap<Value, Value> windowOf; // A window -> the concatenation's.
  llvm::DenseSet<Value> holdingWindows;
  auto sameLoop = [&](Operation *a, Operation *b) {
    return (*frames)->frameOf(a) == (*frames)->frameOf(b);
  };
  auto concatInArena = [&](Operation *node) -> std::optional<int64_t> {
    std::optional<int64_t> axis = concatAxis(node);
    auto type =
        axis
            ? dyn_cast<RankedTensorType>(tfg::getDataResults(node)[0].getType())
            : RankedTensorType();
    if (!type || !type.hasStaticShape() || tensorBytes(type) <= 0)
      return std::nullopt;
    return axis;
  };
  auto readByLoopsOnly = [&](Value piece, Operation *concat) {
    int64_t byConcat = 0;
    for (Operation *reader : piece.getUsers()) {
      if (reader == concat) {
        ++byConcat;
        continue;
      }
      if (!isNodeOrGroup(reader) || !sameLoop(reader, concat) ||
          !llvm::all_of(nodesComputedBy(reader), isElementwise))
        return false;
    }
    return byConcat == 1;
  };
  // What writes its result at any strides: elementwise loops (a
  // linalg.generic's output may be any view), and a Conv2D with or
  // without its epilogue along the channels (tfc_conv2d_params'
  // out_pixel_stride), but for an epilogue that adds a residual (an
  // input of the result's type). Along the batch a window is whole
  // images, laid out as the Conv2D's own buffer would be (only its start
  // moves), so a residual is read alike: a graph that runs a network on
  // parts of its batch and concatenates them.
  auto writesWindow = [&](Operation *producer, int64_t axis) {
    if (!isNodeOrGroup(producer))
      return false;
    auto type =
        dyn_cast<RankedTensorType>(tfg::getDataResults(producer)[0].getType());
    if (!type || !type.hasStaticShape())
      return false;
    SmallVector<Operation *> members = nodesComputedBy(producer);
    if (llvm::all_of(members, isElementwise))
      return true;
    auto format = members.front()->getAttrOfType<StringAttr>("data_format");
    auto residual = [&](Operation *member) {
      return llvm::any_of(tfg::getDataOperands(member), [&](Value operand) {
        return isa<BlockArgument>(operand) && operand.getType() == type;
      });
    };
    bool wholeImages = axis == 0;
    return opKindOf(members.front()) == OpKind::Conv2D &&
           (wholeImages ||
            llvm::none_of(ArrayRef(members).drop_front(), residual)) &&
           llvm::all_of(ArrayRef(members).drop_front(), isElementwise) &&
           type.getRank() == 4 && (axis == 3 || wholeImages) &&
           type.getElementType().isF32() &&
           (!format || format.getValue() == "NHWC");
  };
  llvm::DenseMap<Operation *, SmallVector<int64_t>> inPlaceOperands;
  for (Operation *node : schedule) {
    std::optional<int64_t> axis = concatInArena(node);
    if (!axis)
      continue;
    for (auto [index, piece] :
         llvm::enumerate(tfg::getDataOperands(node).drop_back())) {
      Operation *producer = piece.getDefiningOp();
      if (producer && sameLoop(producer, node) &&
          (concatInArena(producer) == axis || writesWindow(producer, *axis)) &&
          readByLoopsOnly(piece, node)) {
        inPlaceOperands[node].push_back(index);
        windowOf[piece] = tfg::getDataResults(node)[0];
        holdingWindows.insert(tfg::getDataResults(node)[0]);
      }
    }
  }
  // Each chain's outermost concatenation, whose buffer holds the chain.
  auto chainOf = [&](Value value) -> std::optional<Value> {
    if (!windowOf.contains(value) && !holdingWindows.contains(value))
      return std::nullopt;
    while (windowOf.contains(value))
      value = windowOf.lookup(value);
    return value;
  };
  llvm::DenseMap<Value, unsigned> chainBuffers;

  // A buffer lives until its last reader; values join buffers in schedule
  // order, so the end is known for every buffer defined so far.
  auto lastUse = [&](Value value) {
    int64_t last = -1;
    for (Operation *user : value.getUsers())
      if (isNodeOrGroup(user))
        last = std::max(last, position.lookup(user));
    return last;
  };
  // Whether a node or group reads `buffer` at or after position `from`,
  // as far as the values placed so far say (a value placed later in it is
  // an alias or in-place result of one of those, whose reader is a reader
  // of theirs); reads of values `ignoreValue` accepts, and by readers
  // `ignoreReader` accepts, do not count.
  auto readFrom = [&](unsigned buffer, int64_t from,
                      function_ref<bool(Value)> ignoreValue,
                      function_ref<bool(Operation *)> ignoreReader) {
    for (auto &[value, placed] : bufferOf)
      if (placed == buffer && !ignoreValue(value))
        for (Operation *user : value.getUsers())
          if (isNodeOrGroup(user) && position.lookup(user) >= from &&
              !ignoreReader(user))
            return true;
    return false;
  };
  auto assign = [&](Value value, unsigned buffer) {
    bufferOf[value] = buffer;
    buffers[buffer].end = std::max(buffers[buffer].end, lastUse(value));
  };
  for (Operation *node : schedule) {
    int64_t at = position[node];
    OpKind kind = opKindOf(node);
    auto group = dyn_cast<FusionGroupOp>(node);
    SmallVector<Operation *> members = nodesComputedBy(node);
    Operation *root = members.back();
    for (Value result : tfg::getDataResults(node)) {
      int64_t bytes = tensorBytes(result.getType()); // -1: no arena buffer.
      if (bytes < 0 || kind == OpKind::InternalArg || kind == OpKind::Const)
        continue;
      if (std::optional<Value> chain = chainOf(result)) {
        auto [it, first] = chainBuffers.try_emplace(*chain, buffers.size());
        if (first)
          buffers.push_back(
              {alignedBytes(tensorBytes(chain->getType())), at, at, -1});
        assign(result, it->second);
        continue;
      }
      // A variable read is the variable's buffer in the state area, unless
      // it is a snapshot.
      if (isVariableRead(node)) {
        if (!node->hasAttr(kSnapshotAttr))
          continue;
      } else if (isAlias(node)) {
        unsigned port = cast<OpResult>(result).getResultNumber();
        auto it = bufferOf.find(aliasedInput(node, port));
        if (it != bufferOf.end())
          assign(result, it->second);
        continue;
      }
      // A loop variable lives in its initial value's buffer when nothing
      // but its Enter reads that buffer from the loop on: the loop then
      // starts without copying it (a gradient loop's accumulators, which
      // the forward loop filled, say).
      if (auto start = variableStarts.find(node);
          start != variableStarts.end() && result == node->getResult(0)) {
        Value initial = tfg::getDataResults(start->second.enter)[0];
        auto it = bufferOf.find(initial);
        auto ownEnterOrMerge = [&](Operation *reader) {
          return reader == start->second.enter || reader == node;
        };
        if (it != bufferOf.end() && initial.getType() == result.getType() &&
            !readFrom(it->second, start->second.loopBegins,
                      [](Value) { return false; }, ownEnterOrMerge)) {
          assign(result, it->second);
          continue;
        }
      }
      // In place over a same-shape input of the group whose buffer nothing
      // reads after this position.
      // A convolution computing the group reads its input while it writes:
      // only the residual it adds (a same-shape input from outside the
      // group, read by the epilogue after the group's last convolution)
      // may be written over, which lets the kernel accumulate onto it in
      // place, and not where a convolution of the group reads the same
      // buffer (a residual that is also the image: the windows of later
      // positions would read what the kernel wrote). The ReLU before a
      // separable group's depthwise is read through its windows too.
      // A pooling gradient computing the group (its ReluGrad epilogue)
      // reads windows around the positions it writes: nothing is written
      // over.
      bool loopOnly = llvm::all_of(members, [](Operation *member) {
        return isElementwise(member);
      });
      auto lastKernel = llvm::find_if(llvm::reverse(members), [](Operation *member) {
        return !isElementwise(member);
      });
      size_t epilogueStart = loopOnly ? 0 : members.rend() - lastKernel;
      bool poolingGradient = llvm::any_of(members, [](Operation *member) {
        return isWindowGradient(member);
      });
      // The buffer of a member's input from outside the group, if any (and
      // if it has the result's type, where `sameType`).
      auto inputBuffer = [&](Value input,
                             bool sameType) -> std::optional<unsigned> {
        // What the group reads from outside is a block argument.
        if (group) {
          auto argument = dyn_cast<BlockArgument>(input);
          if (!argument)
            return std::nullopt;
          input = group.getInputOf(argument);
        }
        auto it = bufferOf.find(input);
        if (it == bufferOf.end() ||
            (sameType && input.getType() != result.getType()) ||
            windowOf.contains(input)) // (Not where a dense result would be.)
          return std::nullopt;
        return it->second;
      };
      if (isElementwise(root) && !poolingGradient) {
        llvm::SmallDenseSet<unsigned> readByKernels;
        for (Operation *member : ArrayRef(members).take_front(epilogueStart))
          for (Value input : tfg::getDataOperands(member))
            if (std::optional<unsigned> buffer = inputBuffer(input, false))
              readByKernels.insert(*buffer);
        std::optional<unsigned> reuse;
        for (Operation *member : ArrayRef(members).drop_front(epilogueStart))
          for (Value input : tfg::getDataOperands(member)) {
            std::optional<unsigned> buffer = inputBuffer(input, true);
            if (!reuse && buffer && buffers[*buffer].end <= at &&
                !readByKernels.contains(*buffer))
              reuse = buffer;
          }
        if (reuse) {
          assign(result, *reuse);
          continue;
        }
      }
      buffers.push_back({alignedBytes(bytes), at, at, -1});
      assign(result, buffers.size() - 1);
    }
  }

  // A TensorScatterUpdate sets the rows of its tensor in place when no
  // node reads the tensor's buffer after it, but for Exits: a list pushed
  // to in a loop is its loop variable's buffer, updated instead of copied
  // each iteration; the Exit reads the last update, which is the
  // variable's value when the loop ends, and so does whatever comes after
  // the loop (a later loop whose variable took over the buffer).
  for (Operation *node : schedule) {
    if (opKindOf(node) != OpKind::TensorScatterUpdate)
      continue;
    Value tensor = tfg::getDataOperands(node)[0];
    Value result = tfg::getDataResults(node)[0];
    auto in = bufferOf.find(tensor), out = bufferOf.find(result);
    if (in == bufferOf.end() || out == bufferOf.end() ||
        in->second == out->second || tensor.getType() != result.getType())
      continue;
    unsigned from = in->second, into = out->second;
    int64_t at = position[node];
    // What an Exit (or an alias of one) reads is the value the loop ended
    // with.
    std::function<bool(Value)> afterLoop = [&](Value value) {
      Operation *producer = value.getDefiningOp();
      if (!producer || !tfg::isNode(producer))
        return false; // (Groups are never an Exit nor an alias.)
      if (opKindOf(producer) == OpKind::Exit)
        return true;
      return isAlias(producer) &&
             afterLoop(aliasedInput(producer,
                                    cast<OpResult>(value).getResultNumber()));
    };
    auto inLoop = loopEnds.find(node);
    int64_t loopEnd = inLoop == loopEnds.end() ? INT64_MAX : inLoop->second;
    auto madeAfterLoop = [&](Value value) {
      Operation *producer = value.getDefiningOp();
      return producer && isNodeOrGroup(producer) &&
             position.lookup(producer) > loopEnd;
    };
    if (readFrom(
            from, at,
            [&](Value value) { return afterLoop(value) || madeAfterLoop(value); },
            [&](Operation *reader) {
              return reader == node || opKindOf(reader) == OpKind::Exit;
            }))
      continue;
    for (auto &[value, buffer] : bufferOf)
      if (buffer == into)
        buffer = from;
    buffers[from].end = std::max(buffers[from].end, buffers[into].end);
    buffers[into].size = 0; // (Placed nowhere: nothing lives in it.)
  }

  // Loops (tfc-raise-frames laid each out as one stretch of the schedule)
  // run their stretch again and again: what the loop reads but did not
  // make, and its variables' buffers, live through all of it.
  for (const std::unique_ptr<Frame> &frame : (*frames)->getFrames()) {
    auto [first, last] = stretches.lookup(frame.get());
    for (Operation *node : frame->allNodes)
      for (Value operand : tfg::getDataOperands(node)) {
        auto it = bufferOf.find(operand);
        if (it != bufferOf.end() && buffers[it->second].start < first)
          buffers[it->second].end = std::max(buffers[it->second].end, last);
      }
    for (const LoopVariable &variable : frame->variables) {
      auto it = bufferOf.find(tfg::getDataResults(variable.merge)[0]);
      if (it == bufferOf.end())
        continue;
      buffers[it->second].start = std::min(buffers[it->second].start, first);
      buffers[it->second].end = std::max(buffers[it->second].end, last);
    }
  }

  // Fetches in their output parameters. Every value of the buffer must fit
  // the output's bytes (they do: in-place groups and aliases keep the size)
  // and be written before the fetched one, so that the parameter ends with
  // it; values a loop writes are left out (a loop's stretch runs again).
  // Later readers of the buffer read the parameter, which the caller keeps
  // for the whole step and which overlaps no input (tfc_runtime.h).
  auto canHoldOutput = [&](unsigned buffer, Value fetched) {
    int64_t written = position.lookup(fetched.getDefiningOp());
    for (auto &[value, placed] : bufferOf) {
      if (placed != buffer)
        continue;
      Operation *producer = value.getDefiningOp();
      if (loopEnds.contains(producer) ||
          tensorBytes(value.getType()) != tensorBytes(fetched.getType()) ||
          (!isAlias(producer) && position.lookup(producer) > written))
        return false;
    }
    return true;
  };
  for (Operation *node : schedule) {
    if (opKindOf(node) != OpKind::InternalRetval)
      continue;
    Value fetched = tfg::getDataOperands(node)[0];
    auto it = bufferOf.find(fetched);
    if (it == bufferOf.end() || buffers[it->second].output >= 0 ||
        buffers[it->second].size == 0 || !canHoldOutput(it->second, fetched))
      continue;
    buffers[it->second].output =
        node->getAttrOfType<IntegerAttr>("index").getInt();
  }

  // Greedy by size.
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < buffers.size(); ++i)
    if (buffers[i].output < 0)
      order.push_back(i);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return buffers[a].size > buffers[b].size;
  });
  int64_t arena = 0;
  SmallVector<Lifetime> lifetimes;
  for (const Buffer &buffer : buffers)
    lifetimes.push_back({buffer.start, buffer.end});
  LifetimeIndex placed(lifetimes);
  for (unsigned i : order) {
    Buffer &buffer = buffers[i];
    // Placed buffers alive at the same time, by offset.
    SmallVector<unsigned> conflicts;
    placed.overlapping(i, conflicts);
    llvm::sort(conflicts, [&](unsigned a, unsigned b) {
      return buffers[a].offset < buffers[b].offset;
    });
    int64_t offset = 0;
    for (unsigned j : conflicts) {
      if (offset + buffer.size <= buffers[j].offset)
        break;
      offset = std::max(offset, buffers[j].offset + buffers[j].size);
    }
    buffer.offset = offset;
    arena = std::max(arena, offset + buffer.size);
    placed.insert(i);
  }

  Builder builder(body.getParentOp()->getContext());
  for (auto &[node, operands] : inPlaceOperands)
    node->setAttr(kInPlaceOperandsAttr, builder.getDenseI64ArrayAttr(operands));
  for (Operation *node : schedule) {
    SmallVector<int64_t> offsets, outputs;
    for (Value result : tfg::getDataResults(node)) {
      auto it = bufferOf.find(result);
      offsets.push_back(it == bufferOf.end() ? -1 : buffers[it->second].offset);
      outputs.push_back(it == bufferOf.end() ? -1 : buffers[it->second].output);
    }
    if (!offsets.empty())
      node->setAttr(kOffsetsAttr, builder.getDenseI64ArrayAttr(offsets));
    if (llvm::any_of(outputs, [](int64_t output) { return output >= 0; }))
      node->setAttr(kInOutputsAttr, builder.getDenseI64ArrayAttr(outputs));
  }
  return arena;
}

struct PlanMemoryPass : public impl::PlanMemoryPassBase<PlanMemoryPass> {
  PassCounter arenaBytes{this, "arena-bytes", "bytes of the arena"};

  void runOnOperation() override {
    arenaBytes = 0; // Reported even when nothing happens.
    for (auto graph : getOperation().getOps<tfg::GraphOp>()) {
      if (!graph->hasAttr(kEntryAttr))
        continue;
      FailureOr<int64_t> bytes = Planner(graph.getBody()).run();
      if (failed(bytes))
        return signalPassFailure();
      graph->setAttr(kArenaBytesAttr,
                     Builder(&getContext()).getI64IntegerAttr(*bytes));
      arenaBytes += *bytes;
    }
  }
};

} // namespace
} // namespace tfc
