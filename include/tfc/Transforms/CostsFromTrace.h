//===- CostsFromTrace.h - measured node times for the placer ----*- C++ -*-===//
//
// `tfc costs-from-trace TRACE.json -o costs.json`: the white paper's
// measured cost model (§3.2.1: "... or it can be measured based on an
// actual set of placement decisions for earlier executions"). A program's
// --trace records every node it ran on the thread of its device; this
// turns those slices into the cost file's `nodes` section (CostModel.cpp),
// which `tfc compile --cost-file` reads:
//
//   {"nodes": {"NAME": {"CPU": MICROSECONDS, ...}, ...}}
//
// A node's time is the median of its slices on devices of one type (a
// node in a loop: one iteration's, as the cost model counts a loop's body
// once). A fused group's time is shared equally by its members, which the
// placer sees as nodes of their own. The runtime's own nodes (_Send,
// _Recv, _Arg, _Retval: made by partitioning, after placement) and the
// driver's steps are left out.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_COSTSFROMTRACE_H
#define TFC_TRANSFORMS_COSTSFROMTRACE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tfc {

/// The cost file of the trace `traceText` (Chrome JSON, as --trace writes
/// it) in `costs`, and how many nodes it times in `nodes`; false and
/// `error` (what is wrong, naming the event) when the text is no such
/// trace.
bool costsFromTrace(llvm::StringRef traceText, std::string &costs,
                    size_t &nodes, std::string &error);

} // namespace tfc

#endif // TFC_TRANSFORMS_COSTSFROMTRACE_H
