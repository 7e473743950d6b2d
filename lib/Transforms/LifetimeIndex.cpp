//===- LifetimeIndex.cpp - which placed lifetimes overlap one -------------===//

#include "tfc/Transforms/LifetimeIndex.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace tfc {

LifetimeIndex::LifetimeIndex(llvm::ArrayRef<Lifetime> lifetimes)
    : lifetimes(lifetimes.begin(), lifetimes.end()) {
  for (const Lifetime &lifetime : lifetimes) {
    times.push_back(lifetime.start);
    times.push_back(lifetime.end);
  }
  llvm::sort(times);
  times.erase(std::unique(times.begin(), times.end()), times.end());
  covering.resize(4 * std::max<size_t>(times.size(), 1));
}

void LifetimeIndex::insert(unsigned id) {
  byStart.insert({lifetimes[id].start, id});
  cover(1, 0, times.size() - 1, indexOf(lifetimes[id].start),
        indexOf(lifetimes[id].end), id);
}

void LifetimeIndex::overlapping(
    unsigned id, llvm::SmallVectorImpl<unsigned> &found) const {
  int64_t start = lifetimes[id].start, end = lifetimes[id].end;
  // Those starting inside it.
  for (auto it = byStart.lower_bound({start, 0});
       it != byStart.end() && it->first <= end; ++it)
    found.push_back(it->second);
  // Those living at its start that started before it: on the path from the
  // root to its start's leaf. (Its start is one of `times`.)
  size_t node = 1, lo = 0, hi = times.size() - 1, at = indexOf(start);
  while (true) {
    for (unsigned other : covering[node])
      if (lifetimes[other].start < start)
        found.push_back(other);
    if (lo == hi)
      break;
    size_t mid = (lo + hi) / 2;
    if (at <= mid) {
      node = 2 * node;
      hi = mid;
    } else {
      node = 2 * node + 1;
      lo = mid + 1;
    }
  }
}

size_t LifetimeIndex::indexOf(int64_t time) const {
  return llvm::lower_bound(times, time) - times.begin();
}

void LifetimeIndex::cover(size_t node, size_t lo, size_t hi, size_t first,
                          size_t last, unsigned id) {
  if (last < lo || hi < first)
    return;
  if (first <= lo && hi <= last) {
    covering[node].push_back(id);
    return;
  }
  size_t mid = (lo + hi) / 2;
  cover(2 * node, lo, mid, first, last, id);
  cover(2 * node + 1, mid + 1, hi, first, last, id);
}

} // namespace tfc
