//===- LifetimeIndexTest.cpp - the memory plan's overlap queries ----------===//
//
// LifetimeIndex must answer what asking every placed lifetime would: the
// placed ones sharing a time with the one asked about, each once. Checked
// against that all-pairs answer on random lifetimes (fixed seeds), placed
// in random order and asked about between placements, as the planner does,
// and on the edges: lifetimes that touch at one time, single times, one
// inside another, every lifetime the same.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/LifetimeIndex.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

using tfc::Lifetime;
using tfc::LifetimeIndex;

namespace {

/// The placed lifetimes overlapping `lifetimes[id]`, by asking each.
std::vector<unsigned> allPairs(const std::vector<Lifetime> &lifetimes,
                               const std::vector<bool> &placed, unsigned id) {
  std::vector<unsigned> found;
  for (unsigned other = 0; other < lifetimes.size(); ++other)
    if (placed[other] && lifetimes[other].start <= lifetimes[id].end &&
        lifetimes[id].start <= lifetimes[other].end)
      found.push_back(other);
  return found;
}

/// Places every lifetime in a random order, asking about each before it is
/// placed and about a random placed one after; expects the all-pairs
/// answers.
void checkAgainstAllPairs(const std::vector<Lifetime> &lifetimes,
                          std::mt19937 &random) {
  std::vector<unsigned> order(lifetimes.size());
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), random);
  LifetimeIndex index(lifetimes);
  std::vector<bool> placed(lifetimes.size(), false);
  std::vector<unsigned> done;
  auto expectSame = [&](unsigned id) {
    llvm::SmallVector<unsigned> found;
    index.overlapping(id, found);
    std::vector<unsigned> got(found.begin(), found.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, allPairs(lifetimes, placed, id))
        << "lifetime " << id << " [" << lifetimes[id].start << ", "
        << lifetimes[id].end << "], " << done.size() << " placed";
  };
  for (unsigned id : order) {
    expectSame(id);
    index.insert(id);
    placed[id] = true;
    done.push_back(id);
    expectSame(done[random() % done.size()]);
  }
}

TEST(LifetimeIndexTest, RandomLifetimesMatchAllPairs) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 random(seed);
    // Short and long lifetimes over a schedule of varied length, so that
    // many share their times.
    int64_t positions = 1 + random() % 200;
    std::vector<Lifetime> lifetimes(1 + random() % 300);
    for (Lifetime &lifetime : lifetimes) {
      lifetime.start = random() % positions;
      int64_t longest = random() % 4 == 0 ? positions : 5;
      lifetime.end =
          std::min(positions - 1, lifetime.start + int64_t(random() % longest));
    }
    SCOPED_TRACE("seed " + std::to_string(seed));
    checkAgainstAllPairs(lifetimes, random);
  }
}

TEST(LifetimeIndexTest, Edges) {
  std::mt19937 random(7);
  // Touching at one time, single times, nested, the same lifetime twice.
  checkAgainstAllPairs({{0, 3}, {3, 6}, {6, 6}, {7, 7}, {2, 9}, {4, 5}, {4, 5},
                        {0, 0}, {9, 12}, {13, 13}},
                       random);
  // Every lifetime the same.
  checkAgainstAllPairs(std::vector<Lifetime>(16, Lifetime{5, 8}), random);
  // One lifetime.
  checkAgainstAllPairs({{3, 3}}, random);
}

} // namespace
