//===- OutputFile.h - the files the passes write ----------------*- C++ -*-===//
//
// The plan exports, the linker-script fragment and the C header are opened
// the same way: '-' is stdout, and missing parent directories are created
// (`plan-ld=out/plan.ld` works without `mkdir out`).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_OUTPUTFILE_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_OUTPUTFILE_H

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::helia {

/// Opens `path` for writing, creating its parent directories; null with
/// `*message` set on failure.
inline std::unique_ptr<llvm::ToolOutputFile>
openOutputCreatingParents(llvm::StringRef path, std::string *message) {
  if (path != "-")
    if (llvm::StringRef parent = llvm::sys::path::parent_path(path);
        !parent.empty())
      if (std::error_code error = llvm::sys::fs::create_directories(parent)) {
        *message = "cannot create directory '" + parent.str() +
                   "': " + error.message();
        return nullptr;
      }
  return openOutputFile(path, message);
}

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_OUTPUTFILE_H
