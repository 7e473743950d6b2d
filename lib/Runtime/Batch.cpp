//===- Batch.cpp - a step over a batch of any size, tile by tile ----------===//
//
// See tfc/Runtime/Batch.h.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Batch.h"
#include "tfc/Runtime/Checkpoint.h"

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
    : model(model), inputTiles(model.num_inputs), outputTiles(model.num_outputs),
      inputs(model.num_inputs), outputs(model.num_outputs) {
  // A tile of one row is always whole.
  if (model.batch_tile <= 1)
    return;
  auto wholeTile = [&](const tfc_tensor_info &info) {
    return std::unique_ptr<uint8_t[]>(
        new uint8_t[size_t(model.batch_tile * rowBytes(info))]);
  };
  for (int32_t i = 0; i < model.num_inputs; ++i)
    if (carriesBatch(model.inputs[i]))
      inputTiles[i] = wholeTile(model.inputs[i]);
  for (int32_t i = 0; i < model.num_outputs; ++i)
    if (carriesBatch(model.outputs[i]))
      outputTiles[i] = wholeTile(model.outputs[i]);
}

void BatchRunner::run(tfc_runtime *runtime, void *arena, void *state,
                      int64_t batch, void *const *given,
                      void *const *wanted) {
  int64_t tile = model.batch_tile;
  if (tile <= 0) {
    model.step(runtime, arena, state, given, wanted);
    return;
  }
  for (int64_t first = 0; first < batch; first += tile) {
    int64_t rows = std::min(tile, batch - first);
    for (int32_t i = 0; i < model.num_inputs; ++i) {
      const tfc_tensor_info &info = model.inputs[i];
      if (!carriesBatch(info)) {
        inputs[i] = given[i];
        continue;
      }
      int64_t row = rowBytes(info);
      auto *from = static_cast<uint8_t *>(given[i]) + first * row;
      if (rows == tile) {
        inputs[i] = from;
        continue;
      }
      uint8_t *staged = inputTiles[i].get();
      std::memcpy(staged, from, size_t(rows * row));
      for (int64_t r = rows; r < tile; ++r)
        std::memcpy(staged + r * row, from + (rows - 1) * row, size_t(row));
      inputs[i] = staged;
    }
    for (int32_t i = 0; i < model.num_outputs; ++i) {
      const tfc_tensor_info &info = model.outputs[i];
      outputs[i] = !carriesBatch(info) ? wanted[i]
                   : rows == tile
                       ? static_cast<uint8_t *>(wanted[i]) + first * rowBytes(info)
                       : outputTiles[i].get();
    }
    model.step(runtime, arena, state, inputs.data(), outputs.data());
    if (rows == tile)
      continue;
    for (int32_t i = 0; i < model.num_outputs; ++i)
      if (carriesBatch(model.outputs[i])) {
        int64_t row = rowBytes(model.outputs[i]);
        std::memcpy(static_cast<uint8_t *>(wanted[i]) + first * row,
                    outputTiles[i].get(), size_t(rows * row));
      }
  }
}

} // namespace tfc::rt
