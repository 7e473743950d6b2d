//===- GraphDef.h - GraphDef and SavedModel import/export -------*- C++ -*-===//
//
// Reading TensorFlow models into the tfg dialect and writing them back:
//
//   GraphDef (.pb binary or .pbtxt text, detected from content)
//     -> module { tfg.graph {...}  tfg.func @f {...} ... }
//   SavedModel directory (saved_model.pb, tag set, signatures)
//     -> the same, with the signatures and feeds/fetches as module attributes
//   MetaGraphDef (.meta, beside a TF1 checkpoint)
//     -> the same, with its saver, queue runners and checkpoint
//
// Import, export and import again gives identical IR. Errors are emitted as
// MLIR diagnostics, one per failure, naming the file and the node.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_GRAPHDEF_H
#define TFC_TARGET_GRAPHDEF_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace tfc {
namespace proto {
class GraphDef;
} // namespace proto

/// Module attributes that a SavedModel import sets.
inline constexpr llvm::StringLiteral kSignaturesAttr = "tfg.signatures";
inline constexpr llvm::StringLiteral kSignatureFeedsAttr = "tfg.feeds";
inline constexpr llvm::StringLiteral kSignatureFetchesAttr = "tfg.fetches";
inline constexpr llvm::StringLiteral kSaverAttr = "tfg.saver";
inline constexpr llvm::StringLiteral kSavedModelAttr = "tfg.saved_model";
/// A MetaGraph's partitioned variables (the save_slice_info_def of its
/// variables collections): each part's variable node name to a dictionary
/// of the full variable's checkpoint key ("key") and the part's slice of
/// it ("slice", a saver's shape_and_slices spec, "10 4 0,5:0,4").
inline constexpr llvm::StringLiteral kVariableSlicesAttr = "tfg.variable_slices";
/// A MetaGraph's queue runners (its "queue_runners" collection), as
/// --queue-runner takes them: one string of enqueue op names per runner.
inline constexpr llvm::StringLiteral kMetaGraphQueueRunnersAttr =
    "tfg.queue_runners";

struct ModelImportOptions {
  /// SavedModel: the tag set of the MetaGraphDef to load.
  std::vector<std::string> tags = {"serve"};
  /// SavedModel: the signature whose inputs/outputs become the feeds and
  /// fetches. Empty: "serving_default", or the only signature if there is
  /// one.
  std::string signature;

  /// Options from command-line values; empty `tags` keeps the default.
  static ModelImportOptions fromFlags(llvm::ArrayRef<std::string> tags,
                                      llvm::StringRef signature) {
    ModelImportOptions options;
    if (!tags.empty())
      options.tags.assign(tags.begin(), tags.end());
    options.signature = signature.str();
    return options;
  }
};

/// Imports a parsed GraphDef. `sourceName` names the file in diagnostics.
mlir::OwningOpRef<mlir::ModuleOp> importGraphDef(const proto::GraphDef &graph,
                                                 mlir::MLIRContext *context,
                                                 llvm::StringRef sourceName);

/// Imports the bytes of a GraphDef, binary or text. `sourceName` names the
/// file in diagnostics.
mlir::OwningOpRef<mlir::ModuleOp>
importGraphDefBytes(llvm::StringRef bytes, llvm::StringRef sourceName,
                    mlir::MLIRContext *context);

/// Imports the bytes of a TF1 MetaGraphDef, binary or text (a `.meta`
/// file: tf.compat.v1.train.Saver writes PREFIX.meta beside the checkpoint
/// PREFIX): its graph, saver and queue runners, and the checkpoint
/// PREFIX, if `path` has one beside it, as a SavedModel's variables (they
/// then freeze or load as a SavedModel's do without --init).
mlir::OwningOpRef<mlir::ModuleOp>
importMetaGraphBytes(llvm::StringRef bytes, llvm::StringRef path,
                     mlir::MLIRContext *context);

/// Reads and imports a model file (a `.meta` file is a MetaGraphDef) or
/// SavedModel directory.
mlir::OwningOpRef<mlir::ModuleOp>
importModel(llvm::StringRef path, mlir::MLIRContext *context,
            const ModelImportOptions &options = {});

/// Converts a module of the tfg dialect to a GraphDef. A module holds at
/// most one graph, unless `entry` names which one to export: the graph
/// whose `tfg.entry` is "step" or "init" after pruning; of a partitioned
/// module, `device` (a full or partial device name) picks the partition.
mlir::LogicalResult exportGraphDef(mlir::ModuleOp module,
                                   proto::GraphDef &graph,
                                   llvm::StringRef entry = {},
                                   llvm::StringRef device = {});

/// Exports `module` to `path`: binary when the name ends in ".pb", text
/// otherwise; "-" writes text to stdout. No file is left behind on failure.
mlir::LogicalResult writeGraphDef(mlir::ModuleOp module, llvm::StringRef path,
                                  llvm::StringRef entry = {},
                                  llvm::StringRef device = {});

} // namespace tfc

#endif // TFC_TARGET_GRAPHDEF_H
