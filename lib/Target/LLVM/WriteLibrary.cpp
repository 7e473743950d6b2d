//===- WriteLibrary.cpp - the static library and header files -------------===//
//
// `--emit lib` writes two files: a static library holding the model's
// object and every member of the runtime's archives (libTfcRuntime.a and
// the kernel library of the target's ISA level; not the program main), so
// that it links on its own,
// and the header. The archive is written in-process by LLVM's archive
// writer, in the format of the runtime's archives, deterministically (no
// timestamps or owners). Both files are written to temporaries beside
// their destinations and renamed only when both are complete: a failure
// leaves neither behind.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/Library.h"
#include "tfc/Target/Program.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace mlir;

namespace tfc {
namespace {

/// The members of the runtime's archives, and what they point into.
struct RuntimeMembers {
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> buffers;
  std::vector<std::unique_ptr<llvm::object::Archive>> archives;
  std::vector<llvm::NewArchiveMember> members;
};

/// Reads the members of the runtime's archives into `result`; on failure
/// prints a one-line error.
LogicalResult readRuntimeMembers(RuntimeMembers &result,
                                 llvm::ArrayRef<std::string> kernelArchives) {
  std::vector<std::string> files = {"libTfcRuntime.a"};
  files.insert(files.end(), kernelArchives.begin(), kernelArchives.end());
  for (const std::string &file : files) {
    std::string path = (llvm::Twine(runtimeLibraryDir()) + "/" + file).str();
    auto fail = [&](const llvm::Twine &message) {
      llvm::errs() << "tfc: error: cannot read the runtime library " << path
                   << ": " << message << "\n";
      return failure();
    };
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer)
      return fail(buffer.getError().message());
    llvm::Expected<std::unique_ptr<llvm::object::Archive>> archive =
        llvm::object::Archive::create((*buffer)->getMemBufferRef());
    if (!archive)
      return fail(llvm::toString(archive.takeError()));
    llvm::Error error = llvm::Error::success();
    for (const llvm::object::Archive::Child &child :
         (*archive)->children(error)) {
      llvm::Expected<llvm::NewArchiveMember> member =
          llvm::NewArchiveMember::getOldMember(child, /*Deterministic=*/true);
      if (!member) {
        llvm::consumeError(std::move(error));
        return fail(llvm::toString(member.takeError()));
      }
      result.members.push_back(std::move(*member));
    }
    if (error)
      return fail(llvm::toString(std::move(error)));
    result.buffers.push_back(std::move(*buffer));
    result.archives.push_back(std::move(*archive));
  }
  return success();
}

/// A temporary file beside `path`, for `write` to fill; null, after a
/// one-line error naming `path`, when it cannot be created or written.
std::optional<llvm::sys::fs::TempFile>
writeTemporary(llvm::StringRef path,
               llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write) {
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp) {
    llvm::errs() << path << ": error: " << llvm::toString(temp.takeError())
                 << "\n";
    return std::nullopt;
  }
  llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
  llvm::Error error = write(os);
  os.flush();
  if (!error && os.has_error())
    error = llvm::errorCodeToError(os.error());
  if (error) {
    llvm::errs() << path << ": error: " << llvm::toString(std::move(error))
                 << "\n";
    os.clear_error();
    llvm::consumeError(temp->discard());
    return std::nullopt;
  }
  return std::move(*temp);
}

} // namespace

LogicalResult writeLibrary(llvm::StringRef object, llvm::StringRef name,
                           llvm::StringRef libraryPath, llvm::StringRef header,
                           llvm::StringRef headerPath,
                           llvm::ArrayRef<std::string> kernelArchives) {
  RuntimeMembers runtime;
  if (failed(readRuntimeMembers(runtime, kernelArchives)))
    return failure();
  std::string objectName = (name + "_model.o").str();
  std::vector<llvm::NewArchiveMember> members;
  members.emplace_back(llvm::MemoryBufferRef(object, objectName));
  for (llvm::NewArchiveMember &member : runtime.members)
    members.push_back(std::move(member));
  llvm::object::Archive::Kind kind = runtime.archives.front()->kind();

  std::optional<llvm::sys::fs::TempFile> library =
      writeTemporary(libraryPath, [&](llvm::raw_ostream &os) {
        return llvm::writeArchiveToStream(
            os, members, llvm::SymtabWritingMode::NormalSymtab, kind,
            /*Deterministic=*/true, /*Thin=*/false);
      });
  if (!library)
    return failure();
  std::optional<llvm::sys::fs::TempFile> headerFile =
      writeTemporary(headerPath, [&](llvm::raw_ostream &os) {
        os << header;
        return llvm::Error::success();
      });
  if (!headerFile) {
    llvm::consumeError(library->discard());
    return failure();
  }

  // Both are complete: the header first, taken back if the library fails.
  if (llvm::Error error = headerFile->keep(headerPath)) {
    llvm::errs() << headerPath
                 << ": error: " << llvm::toString(std::move(error)) << "\n";
    llvm::consumeError(library->discard());
    return failure();
  }
  if (llvm::Error error = library->keep(libraryPath)) {
    llvm::errs() << libraryPath
                 << ": error: " << llvm::toString(std::move(error)) << "\n";
    llvm::sys::fs::remove(headerPath);
    return failure();
  }
  return success();
}

} // namespace tfc
