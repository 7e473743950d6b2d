//===- Batch.h - a step over a batch of any size, tile by tile --*- C++ -*-===//
//
// A model compiled for any batch size (tfc-tile-batch) has a step that
// computes `batch_tile` rows of the tensors whose first dimension is the
// batch (dims[0] == -1 in its descriptor). A BatchRunner runs it over a
// batch of any number of rows: the step once per tile, each tile's
// inputs and outputs read and written in place in the caller's buffers.
// A last tile of fewer rows than the tile goes through buffers of a whole
// tile, the missing rows copies of its last row (so that they compute what
// a real row does, run-time checks included), and only its own rows are
// copied out. The other tensors are the same at every tile.
//
// Both the programs' driver and the libraries' entry points run steps
// through it, so that a model with static shapes runs as before: one
// step, the buffers as given.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_BATCH_H
#define TFC_RUNTIME_BATCH_H

#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tfc::rt {

/// Whether a model tensor's first dimension is the batch.
inline bool carriesBatch(const tfc_tensor_info &info) {
  return info.rank > 0 && info.dims[0] < 0;
}

/// Bytes of one row of a tensor that carries the batch (of the whole
/// tensor for the others).
int64_t rowBytes(const tfc_tensor_info &info);

class BatchRunner {
public:
  /// Allocates its tile buffers (throws std::bad_alloc): a run allocates
  /// nothing.
  explicit BatchRunner(const tfc_model &model);

  /// Runs the step on `batch` rows (ignored, and one step run, for a model
  /// with static shapes). `inputs` and `outputs` as the step takes them,
  /// the batch's tensors holding `batch` rows.
  void run(tfc_runtime *runtime, void *arena, void *state, int64_t batch,
           void *const *inputs, void *const *outputs);

private:
  const tfc_model &model;
  /// Bytes of a row of each input and output that carries the batch (0
  /// for the others).
  std::vector<int64_t> inputRows, outputRows;
  /// A whole tile of each input and output that carries the batch, for a
  /// last tile that is not whole (none for a tile of one row).
  std::vector<std::unique_ptr<uint8_t[]>> inputTiles, outputTiles;
  std::vector<void *> inputs, outputs;
};

} // namespace tfc::rt

#endif // TFC_RUNTIME_BATCH_H
