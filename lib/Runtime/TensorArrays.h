//===- TensorArrays.h - TF1 TensorArrays ------------------------*- C++ -*-===//
//
// A TF1 TensorArray (TensorArrayV3) is storage that ops reach through a
// handle: writes and scatters fill its elements, reads and gathers copy
// them out; the float "flow" values they pass each other only order them.
// A gradient array (TensorArrayGradV3) is the same size as its forward
// array, made on the first request of a step and shared by every later
// one (the gradient of a loop asks in each iteration); writes to it add up
// (the gradients of several reads of one element). Code generation
// numbers the arrays of a program; the runtime keeps their bytes across
// steps.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_TENSORARRAYS_H
#define TFC_LIB_RUNTIME_TENSORARRAYS_H

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfc {

struct TensorArray {
  std::vector<char> bytes;
  /// The elements it holds (an array of dynamic size: its capacity).
  int64_t size = 0;
  /// The elements written or made so far: TensorFlow's size of the array
  /// (`size` unless it is of dynamic size).
  int64_t length = 0;
  /// The step of the forward array it was made in, for a gradient array.
  uint64_t generation = 0;
};

class TensorArrays {
public:
  /// Array `slot` (made empty the first time). The map is shared by the
  /// threads of a multi-device step; its elements stay where they are.
  TensorArray &array(int64_t slot) {
    std::lock_guard<std::mutex> lock(mutex);
    return arrays[slot];
  }

private:
  std::mutex mutex;
  std::unordered_map<int64_t, TensorArray> arrays;
};

} // namespace tfc

#endif // TFC_LIB_RUNTIME_TENSORARRAYS_H
