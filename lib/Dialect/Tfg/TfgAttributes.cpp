//===- TfgAttributes.cpp - attributes of the tfg dialect ------------------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tfc::tfg;

#define GET_ATTRDEF_CLASSES
#include "tfc/Dialect/Tfg/TfgAttributes.cpp.inc"

void TfgDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tfc/Dialect/Tfg/TfgAttributes.cpp.inc"
      >();
}

// #tfg.shape<2x?x3>, #tfg.shape<> for a scalar, #tfg.shape<*> for an
// unknown rank: the dimension-list syntax of builtin tensor types.
Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalStar())) {
    if (parser.parseGreater())
      return {};
    return ShapeAttr::get(parser.getContext(), {}, /*unranked=*/true);
  }
  SmallVector<int64_t> dims;
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseDimensionList(dims, /*allowDynamic=*/true,
                                  /*withTrailingX=*/false) ||
        parser.parseGreater())
      return {};
  }
  return ShapeAttr::get(parser.getContext(), dims, /*unranked=*/false);
}

void ShapeAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (getUnranked()) {
    printer << '*';
  } else {
    llvm::interleave(
        getDims(), printer.getStream(),
        [&](int64_t dim) {
          if (ShapedType::isDynamic(dim))
            printer << '?';
          else
            printer << dim;
        },
        "x");
  }
  printer << '>';
}
