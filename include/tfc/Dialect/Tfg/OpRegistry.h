//===- OpRegistry.h - TensorFlow op definitions known to tfc ----*- C++ -*-===//
//
// The OpDefs of the ops tfc understands, generated from TensorFlow by
// scripts/gen_op_registry.py. The registry is the source of truth for the
// inputs, outputs and attrs of a node; an op type it does not know is
// "unsupported": it still imports and exports, but does not compile.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFG_OPREGISTRY_H
#define TFC_DIALECT_TFG_OPREGISTRY_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <vector>

namespace tfc {
namespace proto {
class OpDef;
class OpList;
} // namespace proto

class OpRegistry {
public:
  /// The registry of every op tfc knows, built once on first use.
  static const OpRegistry &get();

  /// The OpDef of `opType`, or null when the op is not known.
  const proto::OpDef *lookup(llvm::StringRef opType) const;

  /// All op type names, sorted.
  std::vector<llvm::StringRef> names() const;
  size_t size() const { return byName.size(); }

  ~OpRegistry();

private:
  OpRegistry();
  std::unique_ptr<proto::OpList> ops;
  llvm::StringMap<const proto::OpDef *> byName;
};

} // namespace tfc

#endif // TFC_DIALECT_TFG_OPREGISTRY_H
