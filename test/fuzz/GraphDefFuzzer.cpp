//===- GraphDefFuzzer.cpp - libFuzzer target for the importer -------------===//
//
// Feeds arbitrary bytes to the GraphDef importer (and to the MetaGraphDef
// importer, which must only not crash). Any input may be rejected
// (with a diagnostic), but none may crash, leak or hang, and whatever is
// accepted must survive export and import again unchanged: the IR printed
// after the round trip must equal the IR printed after the first import.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Target/GraphDef.h"

#include "graph.pb.h"

#include "mlir/IR/MLIRContext.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

static std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context for the whole run, with threading off so that runs are
  // deterministic, and every diagnostic swallowed.
  static MLIRContext *context = [] {
    auto *ctx = new MLIRContext(MLIRContext::Threading::DISABLED);
    ctx->getOrLoadDialect<tfc::tfg::TfgDialect>();
    ctx->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
    return ctx;
  }();

  StringRef bytes(reinterpret_cast<const char *>(data), size);
  // The same bytes as a MetaGraphDef: rejected or imported, never a crash.
  tfc::importMetaGraphBytes(bytes, "fuzz.meta", context);
  OwningOpRef<ModuleOp> module =
      tfc::importGraphDefBytes(bytes, "fuzz", context);
  if (!module)
    return 0;
  std::string first = print(*module);

  tfc::proto::GraphDef exported;
  if (failed(tfc::exportGraphDef(*module, exported))) {
    std::fprintf(stderr, "imported IR does not export:\n%s\n", first.c_str());
    std::abort();
  }
  std::string serialized = exported.SerializeAsString();
  OwningOpRef<ModuleOp> again =
      tfc::importGraphDefBytes(serialized, "fuzz", context);
  if (!again || print(*again) != first) {
    std::fprintf(stderr, "round trip changed the IR:\n%s\n", first.c_str());
    std::abort();
  }
  return 0;
}
