//===- GraphViz.h - a step's graph as a Graphviz picture --------*- C++ -*-===//
//
// `tfc viz`: the graph of a module at some stage of the pipeline as a
// Graphviz DOT graph, for `dot -Tsvg` to lay out, or as a page whose name
// scopes open and close (docs/Observability.md). Graphviz's `dot` is run
// as a program.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_GRAPHVIZ_H
#define TFC_TARGET_GRAPHVIZ_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tfc {

/// The DOT text of the module's step: each device's partition (or the
/// nodes placed on it; the one graph before placement) a coloured box,
/// within it each name scope a box of its own (the TensorBoard habit) and
/// each fusion group an outlined box of its members, a node per op
/// labelled with its name's last part and its op type, its full name,
/// device, dtype and shape on hover (the SVG's tooltip); data edges solid,
/// control edges dashed, and a dotted edge from each _Send to its _Recv
/// across the partitions.
std::string stepToDot(mlir::ModuleOp module);

/// The same picture as a self-contained HTML page (no network) whose scope
/// boxes open and close on a click, each box's contents laid out by dot.
/// False, with `error`, when dot cannot run.
bool stepToHtml(mlir::ModuleOp module, llvm::StringRef title,
                std::string &html, std::string &error);

/// Runs Graphviz's `dot -T<format>` on `input`. False, with `error`, when
/// dot is not installed or fails.
bool runDot(llvm::StringRef format, llvm::StringRef input, std::string &output,
            std::string &error);

} // namespace tfc

#endif // TFC_TARGET_GRAPHVIZ_H
