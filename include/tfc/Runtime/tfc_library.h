/*===- tfc_library.h - what the entry points of a tfc library call -------===*
 *
 * `tfc compile --emit lib` makes a static library whose generated header
 * declares typed entry points (NAME_create, NAME_run, ...). Those entry
 * points are a few lines of generated code that call the functions below
 * with the library's model descriptor; the work (checking arguments and
 * the ABI version, owning the runtime context and the arena) is done here, once,
 * in ordinary C++. Users never include this header: the generated one is
 * self-contained.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TFC_LIBRARY_H
#define TFC_LIBRARY_H

#include "tfc/Runtime/tfc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A model ready to run: its runtime (thread count) and its arena. */
typedef struct tfc_library_context tfc_library_context;

/* What tfc_library_run returns. */
enum tfc_library_status {
  TFC_LIBRARY_OK = 0,
  /* The context or a tensor pointer is NULL. */
  TFC_LIBRARY_NULL_ARGUMENT = 1,
  /* The context was created for another model. */
  TFC_LIBRARY_WRONG_MODEL = 2,
  /* A model for any batch size was given a batch of fewer than one row. */
  TFC_LIBRARY_BAD_BATCH = 3,
  /* A count of a dimension --max-dim bounds (rows_inputs) is negative or
   * past the bound. */
  TFC_LIBRARY_BAD_COUNT = 4,
};

/* A context for `model` with `threads` intra-op threads (0: one per core).
 * `arena`: NULL to allocate one, or `model->arena_bytes` bytes aligned to
 * `model->arena_alignment` that the caller owns. NULL if the model was
 * built for another runtime ABI, `arena` is misaligned, or memory or
 * threads cannot be had. */
tfc_library_context *tfc_library_create(const tfc_model *model,
                                        int32_t threads, void *arena);

/* Frees the context, its runtime and the arena if it allocated it. NULL is
 * allowed. */
void tfc_library_destroy(tfc_library_context *context);

/* Runs one step of `model` in `context`; returns a tfc_library_status.
 * For a model compiled for any batch size (model->batch_tile > 0),
 * `batch` is the number of rows of the inputs and outputs whose first
 * dimension is the batch; the others ignore it. No output may overlap
 * another output or an input: the step may compute into an output and
 * read it back. */
int32_t tfc_library_run(const tfc_model *model, tfc_library_context *context,
                        int64_t batch, void *const *inputs,
                        void *const *outputs);

#ifdef __cplusplus
}
#endif

#endif /* TFC_LIBRARY_H */
