//===- PopulatePatterns.h - code generation's patterns, by family -*- C++ -*-===//
//
// Code generation lowers each node with an MLIR pattern rooted at its op
// (`tfg.MatMul`, ...), and each fusion group with the pattern rooted at
// `tfc.fusion_group`. Every family file of this directory exports one
// populate<Family>Patterns that adds its patterns; the op table names, for
// each op it compiles, the pattern that lowers it (`Pattern<"MatMul">` in
// OpTable.td), so a pattern is added once per op of the table that names
// it and the ops of a family are listed in one place only.
//
// The step's walk (ConvertTfgToMemref.cpp) applies the patterns node by
// node in schedule order with a PatternApplicator, at the point where the
// step function is being written: a pattern writes the node's code with
// the emitter's builder and its helpers (memrefFor, callKernel, ...) and
// leaves the node in place; the graph is dropped whole once every step is
// written. Private to code generation.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_CODEGEN_POPULATEPATTERNS_H
#define TFC_TRANSFORMS_CODEGEN_POPULATEPATTERNS_H

#include "StepEmitter.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSet.h"

namespace tfc {

/// The lowering of the nodes of one op type (or of fusion groups).
class NodePattern : public mlir::RewritePattern {
public:
  /// Rooted at `tfg.<opType>`, or at `tfc.fusion_group` when `opType` is
  /// empty.
  NodePattern(llvm::StringRef opType, StepEmitter &step,
              mlir::MLIRContext *context, mlir::PatternBenefit benefit = 1);

  mlir::LogicalResult matchAndRewrite(mlir::Operation *node,
                                      mlir::PatternRewriter &) const final {
    if (mlir::failed(match(node)))
      return mlir::failure();
    return lower(node);
  }

  /// Whether this pattern lowers `node` (by default, every node it is
  /// rooted at): a pattern of higher benefit that declines leaves the node
  /// to the next. Once a pattern matches, its lowering is the node's, and
  /// the walk tries no other when it fails.
  virtual mlir::LogicalResult match(mlir::Operation *node) const {
    return mlir::success();
  }

protected:
  /// Writes the node's code at the emitter's insertion point; when it
  /// fails, it has reported why on the node.
  virtual mlir::LogicalResult lower(mlir::Operation *node) const = 0;

  StepEmitter &step;
};

/// The patterns of code generation as the family files add them.
class CodegenPatterns {
public:
  CodegenPatterns(StepEmitter &step, mlir::MLIRContext *context)
      : set(context), step(step) {}

  /// Adds a `Pattern` for every op the op table lowers with the pattern
  /// `name` (Pattern<"name">), or, with `opTypes`, for those ops only (a
  /// second pattern for some of them, as a special case of higher benefit).
  template <typename Pattern>
  void add(llvm::StringRef name,
           llvm::ArrayRef<llvm::StringRef> opTypes = {},
           mlir::PatternBenefit benefit = 1) {
    for (llvm::StringRef opType :
         opTypes.empty() ? opsLoweredBy(name) : llvm::to_vector(opTypes))
      set.add<Pattern>(opType, step, set.getContext(), benefit);
    added.insert(name);
  }

  /// Adds a `Pattern` rooted at tfc.fusion_group (one family lowers the
  /// groups tfc-fuse-elementwise forms).
  template <typename Pattern> void addForFusionGroups() {
    set.add<Pattern>(llvm::StringRef(), step, set.getContext());
  }
  /// Fails, naming them, when the op table names patterns no family adds.
  mlir::LogicalResult verifyCoverTable(mlir::Operation *where) const;

  mlir::RewritePatternSet set;

private:
  static llvm::SmallVector<llvm::StringRef> opsLoweredBy(llvm::StringRef name);

  StepEmitter &step;
  llvm::StringSet<> added;
};

/// The zero of an element type, a complex one included (which arith's
/// constants cannot hold).
mlir::Value zeroElement(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Type element);
/// The complex number `real` + 0i of `type`.
mlir::Value complexConstant(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::ComplexType type, double real);

/// The parameters of the filter gradient a pooled batch norm gradient
/// took in (tfc.filter_gradient: `window`): the convolution's input `in`,
/// its output gradient (the batch norm's x gradient) `out`, its filter
/// `filter` (EmitWindows.cpp, where the window ops' parameters are made).
tfc_conv2d_backprop_params
foldedFilterGradientParams(mlir::RankedTensorType in, mlir::RankedTensorType out,
                           mlir::RankedTensorType filter,
                           llvm::ArrayRef<int64_t> window);

/// Lowers `node` with the first of `applicator`'s patterns (NodePatterns,
/// by benefit) that matches it. MLIR's applicator tries the next pattern
/// after any failure; here only a pattern that declines the node leaves it
/// to the next: a lowering that fails has said why, and another pattern
/// must not write the node anyway.
mlir::LogicalResult applyNodePatterns(mlir::PatternApplicator &applicator,
                                      mlir::PatternRewriter &rewriter,
                                      mlir::Operation *node);

// One per family file.
void populateCheckpointPatterns(CodegenPatterns &patterns);
void populateContractionPatterns(CodegenPatterns &patterns);
void populateControlFlowPatterns(CodegenPatterns &patterns);
void populateDataMovementPatterns(CodegenPatterns &patterns);
void populateElementwisePatterns(CodegenPatterns &patterns);
void populateLinearAlgebraPatterns(CodegenPatterns &patterns);
void populateSpectralPatterns(CodegenPatterns &patterns);
void populateNormalizationPatterns(CodegenPatterns &patterns);
void populateQuantizationPatterns(CodegenPatterns &patterns);
void populateReductionPatterns(CodegenPatterns &patterns);
void populateQueuePatterns(CodegenPatterns &patterns);
void populateSummaryPatterns(CodegenPatterns &patterns);
void populateStackPatterns(CodegenPatterns &patterns);
void populateStatePatterns(CodegenPatterns &patterns);
void populateStringPatterns(CodegenPatterns &patterns);
void populateTablePatterns(CodegenPatterns &patterns);
void populateTensorArrayPatterns(CodegenPatterns &patterns);
void populateWindowPatterns(CodegenPatterns &patterns);
/// The patterns of the step's own nodes (_Retval, aliases, transfers).
void populateStepPatterns(CodegenPatterns &patterns);

/// Every family's patterns.
void populateCodegenPatterns(CodegenPatterns &patterns);

} // namespace tfc

#endif // TFC_TRANSFORMS_CODEGEN_POPULATEPATTERNS_H
