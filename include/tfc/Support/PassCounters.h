//===- PassCounters.h - what each pass did, in any LLVM build ---*- C++ -*-===//
//
// MLIR's Pass::Statistic is compiled out of release builds of LLVM (those
// without LLVM_ENABLE_STATS, as Debian's packages are), so
// --mlir-pass-statistics prints an empty report there. tfc's passes count
// with PassCounter instead, which works in any build, and the tools print
// these counts in MLIR's report format when that flag is given.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_SUPPORT_PASSCOUNTERS_H
#define TFC_SUPPORT_PASSCOUNTERS_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace tfc {

/// A counter of a pass instance; used like Pass::Statistic.
class PassCounter {
public:
  PassCounter(mlir::Pass *pass, const char *name, const char *description);
  PassCounter &operator++() { return *this += 1; }
  PassCounter &operator+=(uint64_t delta);
  PassCounter &operator=(uint64_t value);
  uint64_t value() const;

private:
  mlir::Pass *pass;
  const char *name;
  const char *description;
  /// Index into the report, once the counter has counted.
  int64_t entry = -1;
};

/// Prints the counters of every pass that ran, in pipeline order, as MLIR's
/// pass statistics report does.
void printPassCounters(llvm::raw_ostream &os);

/// Whether --mlir-pass-statistics was given on the command line. Call after
/// parsing and before MLIR's pass-manager options are applied: it clears
/// MLIR's own flag, whose report would be empty, so that only tfc's prints.
bool takePassStatisticsFlag();

} // namespace tfc

#endif // TFC_SUPPORT_PASSCOUNTERS_H
