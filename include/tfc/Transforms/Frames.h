//===- Frames.h - TF1 loop frames raised to structured loops ----*- C++ -*-===//
//
// A TF1 while loop is a frame: Enter nodes carry values into it (loop
// variables, or constants the body reads), each loop variable cycles
// through Merge -> Switch -> body -> NextIteration -> Merge, a LoopCond
// decides whether another iteration runs, and Exit nodes carry the final
// values out. FrameInfo recognises that pattern (nested frames too) and
// orders each frame's nodes as a structured loop runs them: the nodes
// computing the condition, then the body, with inner frames as single
// items. tfc-raise-frames checks it and lays the graph out in that order;
// the memory planner and code generation follow the same structure.
// LoopBuilder makes such a frame, for the passes that make loops.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_FRAMES_H
#define TFC_TRANSFORMS_FRAMES_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tfc {

struct Frame;

/// One step of a frame's (or the graph's) order: a node (or a fusion group,
/// which runs as one), or a whole inner frame.
using FrameItem = llvm::PointerUnion<mlir::Operation *, Frame *>;

/// A loop variable: its Enter, the Merge holding it across iterations, the
/// Switch on the LoopCond, the NextIteration feeding the Merge, and the
/// Exit taking it out (null when the result is unused).
struct LoopVariable {
  mlir::Operation *enter = nullptr, *merge = nullptr, *switchNode = nullptr,
                  *nextIteration = nullptr;
  /// The Exits that leave the loop with the variable (any number).
  llvm::SmallVector<mlir::Operation *, 1> exits;
};

struct Frame {
  std::string name; // The Enter nodes' frame_name.
  Frame *parent = nullptr;
  mlir::Operation *loopCond = nullptr;
  llvm::SmallVector<LoopVariable> variables;
  /// The frame's Enter nodes (variables' and constants').
  llvm::SmallVector<mlir::Operation *> enters;
  /// In order: what computes the condition (before LoopCond), and the
  /// body (after it), each node or inner frame once.
  llvm::SmallVector<FrameItem> condition, body;
  /// The _Sends of the predicate to the loop's other devices (a loop cut
  /// by tfc-partition): right after the LoopCond, every iteration, the
  /// last one included.
  llvm::SmallVector<mlir::Operation *> predicateSends;
  /// Every node of the frame and of its inner frames.
  llvm::SmallVector<mlir::Operation *> allNodes;
  /// The path of frame names from the outermost, joined by ';'.
  std::string path() const;
};

class FrameInfo {
public:
  /// Recognises the frames of `body`; emits an error naming the frame and
  /// the node that breaks the pattern, and fails, when one does not fit.
  static mlir::FailureOr<std::unique_ptr<FrameInfo>> analyze(mlir::Block &body);

  bool hasFrames() const { return !frames.empty(); }
  /// The frame a node runs in; null for the graph itself.
  Frame *frameOf(mlir::Operation *node) const { return frameOfNode.lookup(node); }
  /// The graph's order: its nodes and outermost frames.
  llvm::ArrayRef<FrameItem> topLevel() const { return top; }
  /// Every node in execution order (frames laid out as their loops run).
  llvm::SmallVector<mlir::Operation *> flatten() const;
  llvm::ArrayRef<std::unique_ptr<Frame>> getFrames() const { return frames; }

private:
  std::vector<std::unique_ptr<Frame>> frames;
  llvm::DenseMap<mlir::Operation *, Frame *> frameOfNode;
  llvm::SmallVector<FrameItem> top;
};

/// Whether a node passes TF1 loop values on: Enter, Exit, NextIteration,
/// LoopCond (and the Ref forms).
bool isLoopPlumbing(mlir::Operation *node);

/// Builds a TF1 while loop node by node, the frame the passes that make
/// loops (tfc-inline of a functional While, tfc-split-batch) give the
/// rest of the compiler, laid out as tf.while_loop lays it out: per loop
/// variable an Enter into the frame, a Merge of it and the variable's
/// NextIteration, a Switch on the LoopCond, an Identity of the Switch's
/// true output for the body, and an Exit of its false output for what
/// follows the loop. In three steps, with the caller's nodes between
/// them: start (the variables' values at the loop's head, which the
/// condition reads), decide (the condition's predicate; the variables'
/// values in the body) and close (the body's results, the next
/// iteration's values). New nodes go at the builder's point, with the
/// location and requested device of `like`.
class LoopBuilder {
public:
  /// What a node of the loop is, for its name.
  enum class Role {
    Enter,         // a variable's
    ConstantEnter, // a value every iteration reads unchanged
    Merge,
    LoopCond,
    Switch,
    Identity,
    NextIteration,
    Exit
  };
  /// The op type of a node of `role`.
  static llvm::StringRef opTypeOf(Role role);
  /// The name of the loop's node of `role`: for variable `k` (the
  /// LoopCond's k is 0), or the k-th constant Enter from 1.
  using Namer = std::function<std::string(Role role, unsigned k)>;

  LoopBuilder(mlir::OpBuilder &builder, mlir::Operation *like,
              llvm::StringRef frame, int64_t parallelIterations, Namer name);

  /// The loop's variables enter with their first values, once `control`
  /// ran: their values at the loop's head.
  llvm::SmallVector<mlir::Value> start(mlir::ValueRange initial,
                                       mlir::ValueRange control = {});
  /// `value` held for every iteration (a constant Enter).
  mlir::Value enterConstant(mlir::Value value);
  /// `predicate` decides whether another iteration runs: the variables'
  /// values in the body.
  llvm::SmallVector<mlir::Value> decide(mlir::Value predicate);
  /// `next` (made once `control` ran) are the variables' values in the
  /// next iteration.
  void close(mlir::ValueRange next, mlir::ValueRange control = {});
  /// Variable `k`'s value after the loop (its Exit, made when first asked
  /// for: a variable whose last value nothing reads needs none).
  mlir::Value exit(unsigned k);

private:
  mlir::Operation *create(Role role, unsigned k, mlir::TypeRange types,
                          mlir::ValueRange data, mlir::ValueRange control,
                          llvm::ArrayRef<mlir::NamedAttribute> attrs = {});
  mlir::Value enter(Role role, unsigned k, mlir::Value value,
                    mlir::ValueRange control);

  mlir::OpBuilder &builder;
  mlir::Operation *like;
  std::string frame;
  int64_t parallelIterations;
  Namer name;
  llvm::SmallVector<mlir::Operation *> merges, switches;
  llvm::SmallVector<mlir::Value> exits;
  unsigned constants = 0;
};

} // namespace tfc

#endif // TFC_TRANSFORMS_FRAMES_H
