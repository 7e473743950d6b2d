//===- EmitSpectral.cpp - discrete Fourier transforms ---------------------===//
//
// FFT, IFFT, RFFT, IRFFT and their 2D and 3D forms on complex64 or
// complex128 tensors (float or double on the real side): one call of the
// runtime's Fourier kernel (Fourier.cpp), the batch being every dimension
// before the transformed ones.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Runtime/tfc_runtime.h"
#include "tfc/Transforms/GraphUtils.h"

using namespace mlir;

namespace tfc {
namespace {

class FourierPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Value input = tfg::getDataOperands(node)[0];
    Value output = tfg::getDataResults(node)[0];
    auto inType = cast<RankedTensorType>(input.getType());
    auto outType = cast<RankedTensorType>(output.getType());
    StringRef type = tfg::getOpType(node);
    bool realIn = type.starts_with("RFFT"), realOut = type.starts_with("IRFFT");
    auto complex = dyn_cast<ComplexType>(
        (realIn ? outType : inType).getElementType());
    if (!complex)
      return step.error(node) << "needs complex64 or complex128, not "
                              << inType.getElementType();
    int64_t axes = fourierAxes(node);
    tfc_fourier_params params{};
    params.kind = realOut ? 3 : realIn ? 2 : type.starts_with("IFFT") ? 1 : 0;
    params.dtype = tfg::typeToDataType(complex);
    params.batch = 1;
    for (int64_t d = 0; d < inType.getRank() - axes; ++d)
      params.batch *= inType.getDimSize(d);
    // The transformed dimensions, right-aligned in three.
    for (int64_t i = 0; i < 3; ++i) {
      int64_t d = i - (3 - axes);
      params.in_dims[i] = d < 0 ? 1 : inType.getDimSize(inType.getRank() - axes + d);
      params.out_dims[i] =
          d < 0 ? 1 : outType.getDimSize(outType.getRank() - axes + d);
      params.fft_length[i] = params.in_dims[i];
    }
    if (realIn || realOut) {
      std::optional<SmallVector<int64_t>> lengths =
          constantInts(tfg::getDataOperands(node)[1]);
      if (!lengths || int64_t(lengths->size()) != axes)
        return step.error(node) << "needs a constant fft_length of " << axes
                                << " elements";
      for (int64_t d = 0; d < axes; ++d)
        params.fft_length[3 - axes + d] = (*lengths)[d];
    }
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    Location loc = node->getLoc();
    step.callKernel(loc, step.kernelName("fourier"),
                    {step.pointerTo(step.memrefFor(input)), step.pointerTo(*out),
                     step.constantParams(loc, params)},
                    {});
    return success();
  }
};

} // namespace

void populateSpectralPatterns(CodegenPatterns &patterns) {
  patterns.add<FourierPattern>("Fourier");
}

} // namespace tfc
