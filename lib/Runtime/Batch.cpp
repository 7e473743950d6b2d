//===- Batch.cpp - a step over a batch of any size, tile by tile ----------===//
//
// See tfc/Runtime/Batch.h.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Batch.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/Denormals.h"

#include <algorithm>
#include <cstring>

namespace tfc::rt {

int64_t rowBytes(const tfc_tensor_info &info) {
  // String tensors are handles.
  int64_t bytes = info.dtype == TFC_STRING ? 8 : int64_t(elementSize(info.dtype));
  for (int32_t d = carriesBatch(info) ? 1 : 0; d < info.rank; ++d)
    bytes *= info.dims[d];
  return bytes;
}

BatchRunner::BatchRunner(const tfc_model &model)
    : model(model), inputRows(model.num_inputs), outputRows(model.num_outputs),
      inputTiles(model.num_inputs), outputTiles(model.num_outputs),
      inputs(model.num_inputs), outputs(model.num_outputs) {
  auto setUp = [&](const tfc_tensor_info &info, int64_t &row,
                   std::unique_ptr<uint8_t[]> &tile) {
    if (!carriesBatch(info))
      return;
    row = rowBytes(info);
    // A tile of one row is always whole.
    if (model.batch_tile > 1)
      tile.reset(new uint8_t[size_t(model.batch_tile * row)]);
  };
  for (int32_t i = 0; i < model.num_inputs; ++i)
    setUp(model.inputs[i], inputRows[i], inputTiles[i]);
  for (int32_t i = 0; i < model.num_outputs; ++i)
    setUp(model.outputs[i], outputRows[i], outputTiles[i]);
}

void BatchRunner::run(tfc_runtime *runtime, void *arena, void *state,
                      int64_t batch, void *const *given,
                      void *const *wanted) {
  FlushDenormals flush;
  int64_t tile = model.batch_tile;
  if (tile <= 0) {
    model.step(runtime, arena, state, given, wanted);
    return;
  }
  for (int64_t first = 0; first < batch; first += tile) {
    int64_t rows = std::min(tile, batch - first);
    bool whole = rows == tile;
    for (int32_t i = 0; i < model.num_inputs; ++i) {
      int64_t row = inputRows[i];
      auto *from = static_cast<uint8_t *>(given[i]) + first * row;
      inputs[i] = from;
      if (!row || whole)
        continue;
      uint8_t *staged = inputTiles[i].get();
      std::memcpy(staged, from, size_t(rows * row));
      for (int64_t r = rows; r < tile; ++r)
        std::memcpy(staged + r * row, from + (rows - 1) * row, size_t(row));
      inputs[i] = staged;
    }
    for (int32_t i = 0; i < model.num_outputs; ++i)
      outputs[i] = !outputRows[i] || whole
                       ? static_cast<uint8_t *>(wanted[i]) + first * outputRows[i]
                       : outputTiles[i].get();
    model.step(runtime, arena, state, inputs.data(), outputs.data());
    if (whole)
      continue;
    for (int32_t i = 0; i < model.num_outputs; ++i)
      if (outputRows[i])
        std::memcpy(static_cast<uint8_t *>(wanted[i]) + first * outputRows[i],
                    outputTiles[i].get(), size_t(rows * outputRows[i]));
  }
}

} // namespace tfc::rt
