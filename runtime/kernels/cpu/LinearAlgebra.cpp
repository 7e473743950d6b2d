//===- LinearAlgebra.cpp - decompositions and solves of batched matrices --===//
//
// The linear algebra ops on [batch, m, n] row-major matrices, float32 or
// float64 (`dtype`), through Eigen's decompositions, the ones TensorFlow's
// kernels use, so that results agree with TensorFlow's (QR's and SVD's
// signs included): LU with partial pivoting for inverses, determinants and
// solves, LLT for Cholesky, Householder QR, divide-and-conquer SVD and
// the self-adjoint eigensolver. A singular matrix (or one that is not
// positive definite, for Cholesky) stops the step with TensorFlow's
// message, naming `node`.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <cmath>
#include <string>

namespace {

template <typename T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T> using ConstMap = Eigen::Map<const Matrix<T>>;
template <typename T> using Map = Eigen::Map<Matrix<T>>;

/// Calls f<float> or f<double> by `dtype`.
template <template <typename> class F, typename... Args>
void byType(int64_t dtype, Args... args) {
  if (dtype == TFC_DOUBLE)
    F<double>::run(args...);
  else
    F<float>::run(args...);
}

/// Whether the LU factors have a zero pivot: a singular matrix, which
/// TensorFlow refuses to invert or solve.
template <typename T> bool singular(const Eigen::PartialPivLU<Matrix<T>> &lu) {
  return lu.rows() && lu.matrixLU().diagonal().cwiseAbs().minCoeff() == T(0);
}

template <typename T> struct Inverse {
  static void run(tfc_runtime *runtime, const void *in, void *out,
                  const char *node, int64_t batch, int64_t n, int64_t adjoint) {
    for (int64_t b = 0; b < batch; ++b) {
      ConstMap<T> a(static_cast<const T *>(in) + b * n * n, n, n);
      Matrix<T> m = adjoint ? Matrix<T>(a.adjoint()) : Matrix<T>(a);
      Eigen::PartialPivLU<Matrix<T>> lu(m);
      if (singular(lu))
        tfc::rt::failAt(runtime, node, "Input is not invertible.");
      Map<T>(static_cast<T *>(out) + b * n * n, n, n) = lu.inverse();
    }
  }
};

/// The sign and log of |det| through LU, as TensorFlow's SLogDet.
template <typename T>
void signAndLog(const Matrix<T> &m, T &sign, T &logAbs) {
  sign = 1;
  logAbs = 0;
  if (m.rows() == 0)
    return;
  Eigen::PartialPivLU<Matrix<T>> lu(m);
  const auto &diagonal = lu.matrixLU().diagonal();
  for (int64_t i = 0; i < diagonal.size(); ++i) {
    T v = diagonal(i);
    if (v == T(0)) {
      sign = 0;
      logAbs = -std::numeric_limits<T>::infinity();
      return;
    }
    if (v < 0)
      sign = -sign;
    logAbs += std::log(std::abs(v));
  }
  sign *= lu.permutationP().determinant();
}

template <typename T> struct Determinant {
  static void run(const void *in, void *sign, void *logAbs, int64_t batch,
                  int64_t n) {
    for (int64_t b = 0; b < batch; ++b) {
      Matrix<T> m = ConstMap<T>(static_cast<const T *>(in) + b * n * n, n, n);
      T s, l;
      signAndLog(m, s, l);
      if (logAbs) {
        static_cast<T *>(sign)[b] = s;
        static_cast<T *>(logAbs)[b] = l;
      } else {
        static_cast<T *>(sign)[b] = s * std::exp(l);
      }
    }
  }
};

template <typename T> struct Cholesky {
  static void run(tfc_runtime *runtime, const void *in, void *out,
                  const char *node, int64_t batch, int64_t n) {
    for (int64_t b = 0; b < batch; ++b) {
      ConstMap<T> a(static_cast<const T *>(in) + b * n * n, n, n);
      Eigen::LLT<Matrix<T>, Eigen::Lower> llt(a);
      if (llt.info() != Eigen::Success)
        tfc::rt::failAt(runtime, node,
                        "Cholesky decomposition was not successful. The "
                        "input might not be valid.");
      Map<T>(static_cast<T *>(out) + b * n * n, n, n) =
          llt.matrixL().toDenseMatrix();
    }
  }
};

template <typename T> struct Solve {
  static void run(tfc_runtime *runtime, const void *matrix, const void *rhs,
                  void *out, const char *node, int64_t batch, int64_t n,
                  int64_t k, int64_t adjoint) {
    for (int64_t b = 0; b < batch; ++b) {
      ConstMap<T> a(static_cast<const T *>(matrix) + b * n * n, n, n);
      ConstMap<T> r(static_cast<const T *>(rhs) + b * n * k, n, k);
      Matrix<T> m = adjoint ? Matrix<T>(a.adjoint()) : Matrix<T>(a);
      Eigen::PartialPivLU<Matrix<T>> lu(m);
      if (singular(lu))
        tfc::rt::failAt(runtime, node, "Input matrix is not invertible.");
      Map<T>(static_cast<T *>(out) + b * n * k, n, k) = lu.solve(r);
    }
  }
};

template <typename T> struct TriangularSolve {
  static void run(const void *matrix, const void *rhs, void *out,
                  int64_t batch, int64_t n, int64_t k, int64_t lower,
                  int64_t adjoint) {
    for (int64_t b = 0; b < batch; ++b) {
      Matrix<T> a = ConstMap<T>(static_cast<const T *>(matrix) + b * n * n, n, n);
      if (adjoint) {
        a.transposeInPlace();
        lower = !lower;
      }
      Matrix<T> x = ConstMap<T>(static_cast<const T *>(rhs) + b * n * k, n, k);
      if (lower)
        a.template triangularView<Eigen::Lower>().solveInPlace(x);
      else
        a.template triangularView<Eigen::Upper>().solveInPlace(x);
      Map<T>(static_cast<T *>(out) + b * n * k, n, k) = x;
      if (adjoint)
        lower = !lower;
    }
  }
};

template <typename T> struct Qr {
  static void run(const void *in, void *q, void *r, int64_t batch, int64_t m,
                  int64_t n, int64_t full) {
    int64_t k = full ? m : std::min(m, n);
    for (int64_t b = 0; b < batch; ++b) {
      Matrix<T> a = ConstMap<T>(static_cast<const T *>(in) + b * m * n, m, n);
      Eigen::HouseholderQR<Matrix<T>> qr(a);
      Map<T>(static_cast<T *>(q) + b * m * k, m, k) =
          qr.householderQ() * Matrix<T>::Identity(m, k);
      Matrix<T> upper = qr.matrixQR().topRows(k).template triangularView<Eigen::Upper>();
      Map<T>(static_cast<T *>(r) + b * k * n, k, n) = upper;
    }
  }
};

template <typename T> struct Svd {
  static void run(const void *in, void *s, void *u, void *v, int64_t batch,
                  int64_t m, int64_t n, int64_t full) {
    int64_t p = std::min(m, n);
    int64_t uCols = full ? m : p, vCols = full ? n : p;
    unsigned options = !u ? 0
                       : full ? Eigen::ComputeFullU | Eigen::ComputeFullV
                              : Eigen::ComputeThinU | Eigen::ComputeThinV;
    for (int64_t b = 0; b < batch; ++b) {
      Matrix<T> a = ConstMap<T>(static_cast<const T *>(in) + b * m * n, m, n);
      Eigen::BDCSVD<Matrix<T>> svd(a, options);
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(static_cast<T *>(s) + b * p, p) =
          svd.singularValues();
      if (!u)
        continue;
      Map<T>(static_cast<T *>(u) + b * m * uCols, m, uCols) = svd.matrixU();
      Map<T>(static_cast<T *>(v) + b * n * vCols, n, vCols) = svd.matrixV();
    }
  }
};

template <typename T> struct SelfAdjointEig {
  static void run(const void *in, void *e, void *v, int64_t batch, int64_t n) {
    for (int64_t b = 0; b < batch; ++b) {
      Matrix<T> a = ConstMap<T>(static_cast<const T *>(in) + b * n * n, n, n);
      Eigen::SelfAdjointEigenSolver<Matrix<T>> solver(
          a, v ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(static_cast<T *>(e) + b * n, n) =
          solver.eigenvalues();
      if (v)
        Map<T>(static_cast<T *>(v) + b * n * n, n, n) = solver.eigenvectors();
    }
  }
};

} // namespace

extern "C" void tfc_cpu_matrix_inverse(tfc_runtime *runtime, const void *in,
                                       void *out, const char *node,
                                       int64_t batch, int64_t n,
                                       int64_t adjoint, int64_t dtype) {
  byType<Inverse>(dtype, runtime, in, out, node, batch, n, adjoint);
}

extern "C" void tfc_cpu_matrix_determinant(tfc_runtime *, const void *in,
                                           void *sign, void *log_abs,
                                           int64_t batch, int64_t n,
                                           int64_t dtype) {
  byType<Determinant>(dtype, in, sign, log_abs, batch, n);
}

extern "C" void tfc_cpu_cholesky(tfc_runtime *runtime, const void *in,
                                 void *out, const char *node, int64_t batch,
                                 int64_t n, int64_t dtype) {
  byType<Cholesky>(dtype, runtime, in, out, node, batch, n);
}

extern "C" void tfc_cpu_matrix_solve(tfc_runtime *runtime, const void *matrix,
                                     const void *rhs, void *out,
                                     const char *node, int64_t batch,
                                     int64_t n, int64_t k, int64_t adjoint,
                                     int64_t dtype) {
  byType<Solve>(dtype, runtime, matrix, rhs, out, node, batch, n, k, adjoint);
}

extern "C" void tfc_cpu_triangular_solve(tfc_runtime *, const void *matrix,
                                         const void *rhs, void *out,
                                         int64_t batch, int64_t n, int64_t k,
                                         int64_t lower, int64_t adjoint,
                                         int64_t dtype) {
  byType<TriangularSolve>(dtype, matrix, rhs, out, batch, n, k, lower, adjoint);
}

extern "C" void tfc_cpu_qr(tfc_runtime *, const void *in, void *q, void *r,
                           int64_t batch, int64_t m, int64_t n, int64_t full,
                           int64_t dtype) {
  byType<Qr>(dtype, in, q, r, batch, m, n, full);
}

extern "C" void tfc_cpu_svd(tfc_runtime *, const void *in, void *s, void *u,
                            void *v, int64_t batch, int64_t m, int64_t n,
                            int64_t full, int64_t dtype) {
  byType<Svd>(dtype, in, s, u, v, batch, m, n, full);
}

extern "C" void tfc_cpu_self_adjoint_eig(tfc_runtime *, const void *in,
                                         void *e, void *v, int64_t batch,
                                         int64_t n, int64_t dtype) {
  byType<SelfAdjointEig>(dtype, in, e, v, batch, n);
}
