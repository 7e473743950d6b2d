//===- GraphViz.h - a step's graph as a Graphviz picture --------*- C++ -*-===//
//
// `tfc viz`: the graph of a module at some stage of the pipeline as a
// Graphviz DOT graph, for `dot -Tsvg` to lay out (docs/Observability.md).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_GRAPHVIZ_H
#define TFC_TARGET_GRAPHVIZ_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tfc {

/// The DOT text of the module's step: each device's partition (or the one
/// graph) a coloured box, within it each name scope a box of its own (the
/// TensorBoard habit), a node per op labelled with its name's last part
/// and its op type, its full name, device, dtype and shape on hover (the
/// SVG's tooltip); data edges solid, control edges dashed, and a dotted
/// edge from each _Send to its _Recv across the partitions.
std::string stepToDot(mlir::ModuleOp module);

} // namespace tfc

#endif // TFC_TARGET_GRAPHVIZ_H
