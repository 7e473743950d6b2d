//===- Stacks.h - the stacks of TF1 loop gradients --------------*- C++ -*-===//
//
// A TF1 while loop's gradient keeps what it needs of each forward
// iteration on stacks: StackV2 makes one, the forward loop pushes a tensor
// per iteration, the gradient loop pops them in reverse. The trip count
// is known only as the step runs, so a stack is the one buffer of a step
// that grows; its bytes stay allocated from one step to the next, so a
// step that runs no more iterations than an earlier one allocates nothing.
// Code generation numbers the program's StackV2 nodes; each number is one
// stack of the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_STACKS_H
#define TFC_LIB_RUNTIME_STACKS_H

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfc {

class Stacks {
public:
  /// The bytes of stack `slot` (made empty the first time). Partitions
  /// running on several threads each use their own stacks; the map is
  /// shared, and its elements stay where they are as it grows.
  std::vector<char> &stack(int64_t slot) {
    std::lock_guard<std::mutex> lock(mutex);
    return stacks[slot];
  }

private:
  std::mutex mutex;
  std::unordered_map<int64_t, std::vector<char>> stacks;
};

} // namespace tfc

#endif // TFC_LIB_RUNTIME_STACKS_H
