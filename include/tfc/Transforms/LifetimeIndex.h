//===- LifetimeIndex.h - which placed lifetimes overlap one -----*- C++ -*-===//
//
// tfc-plan-memory places buffers greedily, largest first, each at the
// lowest offset clear of the placed buffers alive at the same time. The
// index answers that one question: which of the placed lifetimes overlap
// this one? One that does either starts inside it (the placed lifetimes
// sorted by start answer that) or started before it and lives at its
// start (a segment tree over the times, each lifetime held at the
// O(log T) nodes that cover it, answers that). Both take time logarithmic
// plus the answer's size: asking every placed buffer made the plan
// quadratic in the buffers (a chain of 20,000 products).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_LIFETIMEINDEX_H
#define TFC_TRANSFORMS_LIFETIMEINDEX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace tfc {

/// A buffer's lifetime: the schedule positions of its first definition and
/// its last use, both included.
struct Lifetime {
  int64_t start = 0, end = 0;
};

class LifetimeIndex {
public:
  /// An index over `lifetimes` (identified by their positions in it), none
  /// placed yet.
  explicit LifetimeIndex(llvm::ArrayRef<Lifetime> lifetimes);

  /// Places lifetime `id`.
  void insert(unsigned id);

  /// Appends the placed lifetimes that share a time with lifetime `id`
  /// (each once, in no particular order; `id` too if placed).
  void overlapping(unsigned id, llvm::SmallVectorImpl<unsigned> &found) const;

private:
  size_t indexOf(int64_t time) const;
  void cover(size_t node, size_t lo, size_t hi, size_t first, size_t last,
             unsigned id);

  std::vector<Lifetime> lifetimes;
  llvm::SmallVector<int64_t> times; // every start and end, sorted, once each
  /// The segment tree: node 1 covers every time, node n's children are 2n
  /// and 2n + 1; each holds the placed lifetimes covering its times whose
  /// parent's times they do not all cover.
  std::vector<llvm::SmallVector<unsigned, 2>> covering;
  std::set<std::pair<int64_t, unsigned>> byStart;
};

} // namespace tfc

#endif // TFC_TRANSFORMS_LIFETIMEINDEX_H
