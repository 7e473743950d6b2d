//===- Optimizers.cpp - the optimizers' in-place variable updates ---------===//
//
// TensorFlow's Apply* ops (ApplyGradientDescent, ApplyAdam, ...; the
// Resource* forms are the same update on a handle's buffer) on float32.
// Each kernel takes the op's inputs in the op's order: the variable and
// its slots (updated in place), then scalars and the gradient; scalars are
// pointers to one value, as they may be computed in the step (Adam's
// beta powers are variables). The arithmetic follows TensorFlow's CPU
// kernels (training_ops.cc) term by term, so results agree to rounding.
// Elements are independent: large updates are split over the threads.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"

#include <cmath>

namespace {

/// Runs body(i) for i in [0, n), split over the runtime's threads when n
/// is large enough to pay for it (`bytes` and `compute`: the cost of one
/// element). Each range is a plain loop the compiler vectorizes (the
/// kernels build with -fno-math-errno, so sqrt is an instruction).
template <typename Body>
void forEachElement(tfc_runtime *runtime, int64_t n, double bytes,
                    double compute, Body body) {
  auto range = [&](Eigen::Index first, Eigen::Index last) {
#pragma GCC ivdep
    for (Eigen::Index i = first; i < last; ++i)
      body(i);
  };
  tfc::parallelFor(runtime, n, Eigen::TensorOpCost(bytes, bytes, compute),
                              range);
}

float rsqrt(float x) { return 1.f / std::sqrt(x); }

float sign(float x) { return x > 0.f ? 1.f : x < 0.f ? -1.f : 0.f; }

} // namespace

extern "C" {

void tfc_cpu_apply_gradient_descent_f32(tfc_runtime *runtime, float *var,
                                        const float *alpha,
                                        const float *delta, int64_t n) {
  const float lr = *alpha;
  forEachElement(runtime, n, 12, 2, [=](int64_t i) { var[i] -= delta[i] * lr; });
}

void tfc_cpu_apply_momentum_f32(tfc_runtime *runtime, float *var, float *accum,
                                const float *lr, const float *grad,
                                const float *momentum, int64_t n,
                                int64_t nesterov) {
  const float l = *lr, m = *momentum;
  if (nesterov)
    forEachElement(runtime, n, 20, 5, [=](int64_t i) {
      accum[i] = accum[i] * m + grad[i];
      var[i] -= grad[i] * l + accum[i] * m * l;
    });
  else
    forEachElement(runtime, n, 20, 4, [=](int64_t i) {
      accum[i] = accum[i] * m + grad[i];
      var[i] -= accum[i] * l;
    });
}

/// ApplyAdagrad (epsilon null) and ApplyAdagradV2.
void tfc_cpu_apply_adagrad_f32(tfc_runtime *runtime, float *var, float *accum,
                               const float *lr, const float *epsilon,
                               const float *grad, int64_t n,
                               int64_t update_slots) {
  const float l = *lr;
  const float *eps = epsilon;
  forEachElement(runtime, n, 20, 8, [=](int64_t i) {
    if (update_slots)
      accum[i] += grad[i] * grad[i];
    if (eps)
      var[i] -= grad[i] * l / (std::sqrt(accum[i]) + *eps);
    else
      var[i] -= grad[i] * l * rsqrt(accum[i]);
  });
}

void tfc_cpu_apply_rmsprop_f32(tfc_runtime *runtime, float *var, float *ms,
                               float *mom, const float *lr, const float *rho,
                               const float *momentum, const float *epsilon,
                               const float *grad, int64_t n) {
  const float l = *lr, r = *rho, m = *momentum, e = *epsilon;
  forEachElement(runtime, n, 28, 12, [=](int64_t i) {
    ms[i] += (grad[i] * grad[i] - ms[i]) * (1.f - r);
    mom[i] = mom[i] * m + (grad[i] * l) / std::sqrt(ms[i] + e);
    var[i] -= mom[i];
  });
}

void tfc_cpu_apply_centered_rmsprop_f32(tfc_runtime *runtime, float *var,
                                        float *mg, float *ms, float *mom,
                                        const float *lr, const float *rho,
                                        const float *momentum,
                                        const float *epsilon,
                                        const float *grad, int64_t n) {
  const float l = *lr, r = *rho, m = *momentum, e = *epsilon;
  forEachElement(runtime, n, 36, 16, [=](int64_t i) {
    ms[i] += (grad[i] * grad[i] - ms[i]) * (1.f - r);
    mg[i] += (grad[i] - mg[i]) * (1.f - r);
    float denominator = (ms[i] - mg[i] * mg[i]) + e;
    mom[i] = mom[i] * m + (grad[i] * l) / std::sqrt(denominator);
    var[i] -= mom[i];
  });
}

void tfc_cpu_apply_adam_f32(tfc_runtime *runtime, float *var, float *m,
                            float *v, const float *beta1_power,
                            const float *beta2_power, const float *lr,
                            const float *beta1, const float *beta2,
                            const float *epsilon, const float *grad, int64_t n,
                            int64_t nesterov) {
  const float b1 = *beta1, b2 = *beta2, e = *epsilon;
  const float alpha =
      *lr * std::sqrt(1.f - *beta2_power) / (1.f - *beta1_power);
  if (nesterov)
    forEachElement(runtime, n, 28, 16, [=](int64_t i) {
      m[i] += (grad[i] - m[i]) * (1.f - b1);
      v[i] += (grad[i] * grad[i] - v[i]) * (1.f - b2);
      var[i] -= ((grad[i] * (1.f - b1) + b1 * m[i]) * alpha) /
                (std::sqrt(v[i]) + e);
    });
  else
    forEachElement(runtime, n, 28, 14, [=](int64_t i) {
      m[i] += (grad[i] - m[i]) * (1.f - b1);
      v[i] += (grad[i] * grad[i] - v[i]) * (1.f - b2);
      var[i] -= (m[i] * alpha) / (std::sqrt(v[i]) + e);
    });
}

void tfc_cpu_apply_adadelta_f32(tfc_runtime *runtime, float *var, float *accum,
                                float *accum_update, const float *lr,
                                const float *rho, const float *epsilon,
                                const float *grad, int64_t n) {
  const float l = *lr, r = *rho, e = *epsilon;
  forEachElement(runtime, n, 28, 16, [=](int64_t i) {
    accum[i] = accum[i] * r + grad[i] * grad[i] * (1.f - r);
    float update =
        std::sqrt(accum_update[i] + e) * rsqrt(accum[i] + e) * grad[i];
    var[i] -= update * l;
    accum_update[i] = accum_update[i] * r + update * update * (1.f - r);
  });
}

/// ApplyFtrl (l2_shrinkage null) and ApplyFtrlV2, with or without
/// multiply_linear_by_lr.
void tfc_cpu_apply_ftrl_f32(tfc_runtime *runtime, float *var, float *accum,
                            float *linear, const float *grad, const float *lr,
                            const float *l1, const float *l2,
                            const float *l2_shrinkage, const float *lr_power,
                            int64_t n, int64_t multiply_linear_by_lr) {
  const float l = *lr, a = *l1, b = *l2, p = *lr_power;
  const float shrinkage = l2_shrinkage ? *l2_shrinkage : 0.f;
  const bool hasShrinkage = l2_shrinkage != nullptr;
  // accum^-lr_power, with TensorFlow's shortcut for the usual -0.5.
  auto power = [p](float x) { return p == -0.5f ? std::sqrt(x) : std::pow(x, -p); };
  forEachElement(runtime, n, 32, 30, [=](int64_t i) {
    float g = grad[i];
    float shrunk = hasShrinkage ? g + 2.f * shrinkage * var[i] : g;
    float newAccum = accum[i] + g * g;
    if (multiply_linear_by_lr) {
      linear[i] += shrunk * l - (power(newAccum) - power(accum[i])) * var[i];
      float x = a * l * sign(linear[i]) - linear[i];
      float y = power(newAccum) + 2.f * b * l;
      var[i] = std::fabs(linear[i]) > a * l ? x / y : 0.f;
    } else {
      linear[i] += shrunk - (power(newAccum) - power(accum[i])) / l * var[i];
      float x = a * sign(linear[i]) - linear[i];
      float y = power(newAccum) / l + 2.f * b;
      var[i] = std::fabs(linear[i]) > a ? x / y : 0.f;
    }
    accum[i] = newAccum;
  });
}

} // extern "C"
