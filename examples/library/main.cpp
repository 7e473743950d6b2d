/* main.cpp - the example MLP as a C library, called from C++.
 *
 *   tfc compile examples/mlp/frozen.pb --feed x --fetch Identity \
 *       --emit lib -o libmlp.a                  # writes libmlp.a and mlp.h
 *   c++ -I. -Iexamples/library examples/library/main.cpp libmlp.a \
 *       -ldnnl -lgomp -lpthread -o mlp-cpp
 *   ./mlp-cpp examples/mlp/inputs/0.npy out.npy
 *
 * The same as main.c, the C++ way: the context is owned by a unique_ptr,
 * the buffers are std::arrays, and the arena is the caller's (static
 * storage, aligned as the header says), so the library allocates no memory
 * for it. The step runs several times on one context, as a server would.
 */

#include "mlp.h"
#include "npy.h"

#include <array>
#include <cstdio>
#include <memory>

namespace {

/// The arena for the one context of this program.
alignas(MLP_ARENA_ALIGNMENT) unsigned char arena[MLP_ARENA_BYTES];

/// A context, destroyed with its owner.
using Context = std::unique_ptr<mlp_ctx, decltype(&mlp_destroy)>;

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s X.npy OUT.npy\n", argv[0]);
    return 2;
  }
  std::array<float, MLP_X_ELEMENTS> x;
  std::array<float, MLP_IDENTITY_ELEMENTS> identity;
  if (npy_read(argv[1], "<f4", x.data(), sizeof(float), x.size()) != 0) {
    std::fprintf(stderr, "%s: expected %zu float32 values\n", argv[1],
                 x.size());
    return 2;
  }

  // One thread for the kernels; the arena above.
  Context ctx(mlp_create(1, arena), mlp_destroy);
  if (!ctx) {
    std::fprintf(stderr, "mlp_create failed\n");
    return 1;
  }
  for (int step = 0; step < 3; ++step)
    if (int status = mlp_run(ctx.get(), x.data(), identity.data())) {
      std::fprintf(stderr, "mlp_run failed: %d\n", status);
      return 1;
    }

  std::printf("%s:", MLP_IDENTITY_NAME);
  for (float value : identity)
    std::printf(" %g", value);
  std::printf("\n");
  if (npy_write_f32(argv[2], identity.data(), mlp_identity_shape,
                    MLP_IDENTITY_RANK) != 0) {
    std::fprintf(stderr, "%s: cannot write\n", argv[2]);
    return 1;
  }
  return 0;
}
