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
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_FRAMES_H
#define TFC_TRANSFORMS_FRAMES_H

#include "mlir/IR/Block.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/SmallVector.h"

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

} // namespace tfc

#endif // TFC_TRANSFORMS_FRAMES_H
