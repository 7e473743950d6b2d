//===- StackOps.cpp - StackV2, StackPushV2, StackPopV2 --------------------===//

#include "Runtime.h"

#include <cstring>
#include <string>

extern "C" {

void tfc_stack_clear(tfc_runtime *runtime, int64_t slot) {
  runtime->stacks.stack(slot).clear();
}

void tfc_stack_push(tfc_runtime *runtime, const void *data, int64_t slot,
                    int64_t bytes) {
  std::vector<char> &stack = runtime->stacks.stack(slot);
  const char *begin = static_cast<const char *>(data);
  stack.insert(stack.end(), begin, begin + bytes);
}

void tfc_stack_pop(tfc_runtime *runtime, void *out, const char *node,
                   int64_t slot, int64_t bytes) {
  std::vector<char> &stack = runtime->stacks.stack(slot);
  if (static_cast<int64_t>(stack.size()) < bytes)
    tfc_fail(runtime, (std::string("node '") + node +
                       "': pop from an empty stack (the gradient loop ran "
                       "more iterations than the forward loop pushed)")
                          .c_str());
  std::memcpy(out, stack.data() + stack.size() - bytes, bytes);
  stack.resize(stack.size() - bytes);
}

} // extern "C"
