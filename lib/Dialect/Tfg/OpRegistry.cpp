//===- OpRegistry.cpp - TensorFlow op definitions known to tfc ------------===//

#include "tfc/Dialect/Tfg/OpRegistry.h"

#include "graph.pb.h"

#include <google/protobuf/text_format.h>

#include "llvm/Support/ErrorHandling.h"

namespace tfc {

/// The generated OpList text (scripts/gen_op_registry.py).
static const char kOpListText[] =
#include "OpRegistry.gen.inc"
    ;

OpRegistry::OpRegistry() : ops(std::make_unique<proto::OpList>()) {
  if (!google::protobuf::TextFormat::ParseFromString(kOpListText, ops.get()))
    llvm::report_fatal_error("tfc: the built-in op registry does not parse");
  for (const proto::OpDef &op : ops->op())
    byName[op.name()] = &op;
}

OpRegistry::~OpRegistry() = default;

const OpRegistry &OpRegistry::get() {
  static const OpRegistry *registry = new OpRegistry();
  return *registry;
}

const proto::OpDef *OpRegistry::lookup(llvm::StringRef opType) const {
  auto it = byName.find(opType);
  return it == byName.end() ? nullptr : it->second;
}

std::vector<llvm::StringRef> OpRegistry::names() const {
  std::vector<llvm::StringRef> result;
  for (const proto::OpDef &op : ops->op())
    result.push_back(op.name());
  std::sort(result.begin(), result.end());
  return result;
}

} // namespace tfc
