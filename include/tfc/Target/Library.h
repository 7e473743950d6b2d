//===- Library.h - `tfc compile --emit lib`: library and header -*- C++ -*-===//
//
// A model compiled as a library for C and C++ programs (the use case of
// TensorFlow's tfcompile): `libNAME.a` holds the model's object, whose only
// exported symbols are typed entry points prefixed with NAME, together with
// the members of the runtime and kernel archives; `NAME.h` declares the
// entry points and describes the feeds and fetches. docs/Library.md is the
// user's guide; the entry points forward to tfc_library.h in the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_LIBRARY_H
#define TFC_TARGET_LIBRARY_H

#include "tfc/Target/Program.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace tfc {

/// The C prefix that `-o PATH` implies: the file's stem without a leading
/// "lib", every character that cannot be in a C identifier replaced by '_'
/// ("out/libmy-model.a" -> "my_model"). May still fail checkLibraryName.
std::string defaultLibraryName(llvm::StringRef outputPath);

/// The header that `-o PATH` implies: next to it, named after the stem
/// without "lib" ("out/libmlp.a" -> "out/mlp.h").
std::string defaultHeaderPath(llvm::StringRef outputPath);

/// Why `name` cannot prefix a library's C symbols; empty if it can. It must
/// be a C identifier, and not claim the runtime's own `tfc_` prefix.
std::string checkLibraryName(llvm::StringRef name);

/// The header for the model: plain C, declaring `name`_create,
/// `name`_destroy, `name`_arena_bytes and the typed `name`_run, with the
/// feeds' and fetches' names, dtypes and shapes as constants; its comments
/// name the library file `libraryFile`. Fails, with an error at `loc`, when
/// a feed or fetch has a dtype without a C type.
mlir::FailureOr<std::string> renderLibraryHeader(const ModelInterface &model,
                                                 llvm::StringRef name,
                                                 llvm::StringRef libraryFile,
                                                 mlir::Location loc);

/// Gives `module` (which has tfc_compiled_model) the entry points that
/// renderLibraryHeader declares, and makes every other definition internal,
/// so that libraries of different names link into one program.
void addLibraryEntryPoints(llvm::Module &module, const ModelInterface &model,
                           llvm::StringRef name);

/// Writes the static library at `libraryPath` (the model's `object`, named
/// `name`_model.o, and the members of libTfcRuntime.a and of the
/// `kernelArchives` of the model's device targets, DeviceTarget.h) and the
/// header text at `headerPath`: both, or, after a one-line error, neither.
mlir::LogicalResult writeLibrary(llvm::StringRef object, llvm::StringRef name,
                                 llvm::StringRef libraryPath,
                                 llvm::StringRef header,
                                 llvm::StringRef headerPath,
                                 llvm::ArrayRef<std::string> kernelArchives);

} // namespace tfc

#endif // TFC_TARGET_LIBRARY_H
