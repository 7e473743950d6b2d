//===- OneDnn.h - what the oneDNN kernels share -----------------*- C++ -*-===//
//
// The engine, the per-thread stream, the per-call-site primitive cache,
// each call site's arguments per thread, the per-thread scratchpad, an
// epilogue's post-ops, a product by a constant matrix through the brgemm
// matmul (OneDnnDense.cpp, DepthwisePointwise.cpp), a
// convolution gradient's primitive and how it runs, and a convolution's
// geometry as oneDNN's descriptors take it, for the forward
// (OneDnnConv.cpp), backward (ConvBackprop.cpp) and 3-D (Window3D.cpp)
// kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_ONEDNN_H
#define TFC_RUNTIME_KERNELS_CPU_ONEDNN_H

#include "tfc/Runtime/tfc_runtime.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfc::onednn {

inline dnnl::engine &engine() {
  static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
  return cpu;
}

/// What each call site keeps between calls (its oneDNN primitive, or a
/// constant filter transformed for Winograd's algorithm), keyed by the
/// address of its constant parameters (tfc_runtime.h): made at the call
/// site's first call, null where oneDNN cannot make it (the caller then
/// runs its own loops).
template <typename Primitive> class PrimitiveCache {
public:
  template <typename Make>
  Primitive *lookup(const void *params, Make make) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = entries.find(params);
    if (it != entries.end())
      return it->second.get();
    std::unique_ptr<Primitive> made;
    try {
      made = make();
    } catch (const dnnl::error &) {
      made = nullptr;
    }
    return (entries[params] = std::move(made)).get();
  }

private:
  std::mutex mutex;
  std::unordered_map<const void *, std::unique_ptr<Primitive>> entries;
};

/// The calling thread's stream on the engine, made once: a kernel called
/// thousands of times a second need not make one per call.
inline dnnl::stream &stream() {
  thread_local dnnl::stream threadStream(engine());
  return threadStream;
}

/// The calling thread's scratchpad buffer, grown to `bytes` at least (it
/// may move when it grows). Primitives are made with a user scratchpad so
/// that contexts of one model may run them concurrently.
inline void *scratchpadBuffer(size_t bytes) {
  thread_local std::vector<uint8_t> buffer;
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer.data();
}

/// A memory object of `desc` without a buffer yet (each call sets one).
inline dnnl::memory unbound(const dnnl::memory::desc &desc) {
  return dnnl::memory(desc, engine(), DNNL_MEMORY_NONE);
}

/// A call site's arguments on one thread: memory objects made at its
/// first call there and pointed at each call's buffers (bind). Making
/// them at every call took 3-7 us a call, which a model of small
/// convolutions pays tens of times a step (MobileNetV3Large at batch 1: 67
/// calls in a 5 ms step); a filter the primitive wants in another layout
/// also had a buffer allocated, and a reorder made, at every call. One set
/// per thread (argumentsOf), as contexts of one model may run one call
/// site concurrently.
class CallArguments {
public:
  /// The primitive's arguments, as execute takes them.
  const std::unordered_map<int, dnnl::memory> &all() const { return args; }
  dnnl::memory &at(int argument) { return args.at(argument); }

  /// An argument whose buffer each call binds.
  void addUnbound(int argument, const dnnl::memory::desc &desc) {
    args.insert({argument, unbound(desc)});
  }
  /// An argument with a buffer of this thread's, allocated once (a
  /// workspace between two primitives).
  void addOwned(int argument, const dnnl::memory::desc &desc) {
    args.insert({argument, dnnl::memory(desc, engine())});
  }
  void add(int argument, const dnnl::memory &memory) {
    args.insert({argument, memory});
  }
  /// The scratchpad, which each call points at the thread's buffer.
  void addScratchpad(const dnnl::memory::desc &desc) {
    scratchpadBytes = desc.get_size();
    addUnbound(DNNL_ARG_SCRATCHPAD, desc);
  }
  /// The filter argument (DNNL_ARG_WEIGHTS) or the filter gradient's
  /// (DNNL_ARG_DIFF_WEIGHTS), whose buffer is TensorFlow's layout (`user`)
  /// and the primitive's `layout`: where they differ, the argument is a
  /// buffer of this thread's and a reorder copies the caller's filter into
  /// it before the primitive (`written` false) or the gradient out of it
  /// after (`written` true).
  void addWeights(int argument, const dnnl::memory::desc &user,
                  const dnnl::memory::desc &layout, bool written) {
    userWeights = unbound(user);
    if (user == layout) {
      add(argument, userWeights);
      return;
    }
    dnnl::memory own(layout, engine());
    add(argument, own);
    reorderFrom = written ? own : userWeights;
    reorderTo = written ? userWeights : own;
    weightsReorder = dnnl::reorder(reorderFrom, reorderTo);
    (written ? reorderAfter : reorderBefore) = true;
  }

  void bind(int argument, const void *buffer) {
    args.at(argument).set_data_handle(const_cast<void *>(buffer));
  }
  /// Points the scratchpad at the thread's buffer (which moves when it
  /// grows, so at every call).
  void bindScratchpad() {
    bind(DNNL_ARG_SCRATCHPAD, scratchpadBuffer(scratchpadBytes));
  }
  /// Points addWeights' argument at the caller's buffer (the filter, or
  /// where its gradient goes), and reorders a filter the primitive reads
  /// in its own layout.
  void bindWeights(dnnl::stream &stream, const void *filter) {
    userWeights.set_data_handle(const_cast<void *>(filter));
    if (reorderBefore)
      weightsReorder.execute(stream, reorderFrom, reorderTo);
  }
  /// After the primitive: reorders a gradient it wrote in its own layout
  /// into the caller's buffer.
  void weightsAfter(dnnl::stream &stream) {
    if (reorderAfter)
      weightsReorder.execute(stream, reorderFrom, reorderTo);
  }

private:
  std::unordered_map<int, dnnl::memory> args;
  size_t scratchpadBytes = 0;
  dnnl::memory userWeights, reorderFrom, reorderTo;
  dnnl::reorder weightsReorder;
  bool reorderBefore = false, reorderAfter = false;
};

/// The calling thread's arguments of the call site whose primitive is at
/// `primitive` (cached, so never freed): made by make(CallArguments &) at
/// the thread's first call there.
template <typename Make>
CallArguments &argumentsOf(const void *primitive, Make make) {
  thread_local std::unordered_map<const void *, CallArguments> sites;
  auto [it, made] = sites.try_emplace(primitive);
  if (made)
    make(it->second);
  return it->second;
}

/// A convolution gradient's primitive (oneDNN's backward data or backward
/// weights, made from the forward convolution it inverts), 2-D or 3-D,
/// and its tensors: the image (the input, or the input's gradient), the
/// output's gradient, and the filter (or the filter's gradient) in
/// TensorFlow's layout and in the primitive's.
struct ConvGradient {
  dnnl::primitive primitive;
  dnnl::memory::desc image, gradient, userWeights, weights, scratchpad;
  bool filterGradient = false;

  /// One call: `operand` is the filter (for the input's gradient) or the
  /// input (for the filter's), `gradient` the output's gradient. The
  /// filter gradient is written in the primitive's layout and reordered
  /// into TensorFlow's after; the filter, the other way before.
  void run(const void *operand, const void *gradientData, void *out) const {
    dnnl::stream &onStream = stream();
    int weightsArgument = filterGradient ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS;
    int imageArgument = filterGradient ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC;
    CallArguments &bound = argumentsOf(this, [&](CallArguments &made) {
      made.addUnbound(DNNL_ARG_DIFF_DST, gradient);
      made.addUnbound(imageArgument, image);
      made.addScratchpad(scratchpad);
      made.addWeights(weightsArgument, userWeights, weights, filterGradient);
    });
    bound.bind(DNNL_ARG_DIFF_DST, gradientData);
    bound.bindScratchpad();
    if (filterGradient) {
      bound.bind(imageArgument, operand);
      bound.bindWeights(onStream, out);
    } else {
      bound.bindWeights(onStream, operand);
      bound.bind(imageArgument, out);
    }
    primitive.execute(onStream, bound.all());
    bound.weightsAfter(onStream);
    onStream.wait();
  }
};

/// The post-ops of an epilogue after its bias: the residual, in the
/// output's buffer already (2: a sum, which the fastest kernels support)
/// or read from its own (1: a binary add of a tensor of `dst`, the first
/// post-op's DNNL_ARG_SRC_1), then the activation (enum tfc_activation)
/// as an eltwise post-op.
inline dnnl::post_ops epiloguePostOps(int64_t residual,
                                      const dnnl::memory::desc &dst,
                                      int64_t activation) {
  dnnl::post_ops ops;
  if (residual == 2)
    ops.append_sum(1.f);
  else if (residual)
    ops.append_binary(dnnl::algorithm::binary_add, dst);
  auto eltwise = [&](dnnl::algorithm algorithm, float alpha) {
    ops.append_eltwise(1.f, algorithm, alpha, 0.f);
  };
  switch (activation) {
  case TFC_ACTIVATION_RELU:
    eltwise(dnnl::algorithm::eltwise_relu, 0.f);
    break;
  case TFC_ACTIVATION_RELU6:
    eltwise(dnnl::algorithm::eltwise_bounded_relu, 6.f);
    break;
  case TFC_ACTIVATION_SWISH:
    eltwise(dnnl::algorithm::eltwise_swish, 1.f);
    break;
  case TFC_ACTIVATION_HARD_SWISH:
    eltwise(dnnl::algorithm::eltwise_hardswish, 0.f);
    break;
  case TFC_ACTIVATION_GELU:
    eltwise(dnnl::algorithm::eltwise_gelu_erf, 0.f);
    break;
  default:
    break;
  }
  return ops;
}

/// The argument of a residual read by epiloguePostOps' binary add.
constexpr int kResidualArgument =
    DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;

/// A product of `rows` rows (plain, [rows, depth]) by a constant matrix
/// ([depth, columns]) through oneDNN's brgemm matmul, with a bias row
/// where it has one and an epilogue's post-ops (epiloguePostOps); the
/// matrix reordered once into the blocked layout the kernel reads.
struct BrgemmProduct {
  dnnl::matmul matmul;
  dnnl::memory::desc src, dst, bias, scratchpad;
  std::shared_ptr<dnnl::memory> weights;
  bool hasBias = false;
  int64_t residual = 0;

  /// out = epilogue(a . weights + bias + residual), on the calling thread
  /// (inside a parallel region) or on the threads the product was made
  /// for; `bias` and `residual` are read only where the product has them.
  void run(const void *a, void *out, const void *biasRow,
           const void *residualRows) const {
    dnnl::stream &onStream = stream();
    CallArguments &bound = argumentsOf(this, [&](CallArguments &made) {
      made.addUnbound(DNNL_ARG_SRC, src);
      made.addUnbound(DNNL_ARG_DST, dst);
      made.addScratchpad(scratchpad);
      made.add(DNNL_ARG_WEIGHTS, *weights);
      if (hasBias)
        made.addUnbound(DNNL_ARG_BIAS, bias);
      if (residual == 1)
        made.addUnbound(kResidualArgument, dst);
    });
    bound.bind(DNNL_ARG_SRC, a);
    bound.bind(DNNL_ARG_DST, out);
    bound.bindScratchpad();
    if (hasBias)
      bound.bind(DNNL_ARG_BIAS, biasRow);
    if (residual == 1)
      bound.bind(kResidualArgument, residualRows);
    matmul.execute(onStream, bound.all());
    onStream.wait();
  }
};

/// The product of `rows` x `depth` by `weights` (laid out as `user` says,
/// [depth, columns]) for the threads OpenMP offers now (oneDNN's brgemm
/// matmul splits its work when it is made), or null where oneDNN's
/// matmul for it is not a brgemm one (below AVX-512 in oneDNN 2.6, where
/// it wraps sgemm). The weights are reordered here, unless `shared` (a
/// product by the same matrix) has them in the layout this one reads.
inline std::unique_ptr<BrgemmProduct>
makeBrgemmProduct(int64_t rows, int64_t depth, int64_t columns,
                  const dnnl::memory::desc &user, const void *weights,
                  bool hasBias, int64_t residual, int64_t activation,
                  const BrgemmProduct *shared = nullptr) {
  using dnnl::memory;
  auto f32 = memory::data_type::f32;
  auto result = std::make_unique<BrgemmProduct>();
  result->hasBias = hasBias;
  result->residual = residual;
  result->src = memory::desc({rows, depth}, f32, memory::format_tag::ab);
  result->dst = memory::desc({rows, columns}, f32, memory::format_tag::ab);
  memory::desc anyWeights({depth, columns}, f32, memory::format_tag::any);
  if (hasBias)
    result->bias = memory::desc({1, columns}, f32, memory::format_tag::ab);
  auto desc = hasBias ? dnnl::matmul::desc(result->src, anyWeights,
                                           result->bias, result->dst)
                      : dnnl::matmul::desc(result->src, anyWeights, result->dst);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  attr.set_post_ops(epiloguePostOps(residual, result->dst, activation));
  dnnl::matmul::primitive_desc pd(desc, attr, engine());
  if (std::strncmp(pd.impl_info_str(), "brg", 3) != 0)
    return nullptr;
  result->matmul = dnnl::matmul(pd);
  result->scratchpad = pd.scratchpad_desc();
  if (shared && shared->weights->get_desc() == pd.weights_desc()) {
    result->weights = shared->weights;
    return result;
  }
  memory given(user, engine(), const_cast<void *>(weights));
  result->weights = std::make_shared<memory>(pd.weights_desc(), engine());
  dnnl::stream &onStream = stream();
  dnnl::reorder(given, *result->weights)
      .execute(onStream, given, *result->weights);
  onStream.wait();
  return result;
}

struct ConvGeometry {
  dnnl::memory::dims strides, dilations, padBefore, padAfter;
};

/// The padding after a dimension, which follows from the output size
/// (never negative: a remainder of the input is simply not read).
inline int64_t paddingAfter(int64_t in, int64_t out, int64_t window,
                            int64_t stride, int64_t dilation, int64_t before) {
  return std::max<int64_t>(
      0, (out - 1) * stride + (window - 1) * dilation + 1 - in - before);
}

/// From tfc_conv2d_params or tfc_conv2d_backprop_params (tfc_runtime.h),
/// which name these fields alike.
template <typename Params> ConvGeometry convGeometry(const Params &p) {
  // oneDNN counts dilation from 0.
  return {{p.stride_h, p.stride_w},
          {p.dilation_h - 1, p.dilation_w - 1},
          {p.pad_top, p.pad_left},
          {paddingAfter(p.h, p.oh, p.kh, p.stride_h, p.dilation_h, p.pad_top),
           paddingAfter(p.w, p.ow, p.kw, p.stride_w, p.dilation_w, p.pad_left)}};
}

} // namespace tfc::onednn

#endif // TFC_RUNTIME_KERNELS_CPU_ONEDNN_H
