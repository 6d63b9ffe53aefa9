//===- Format.cpp - how the exporters write bytes and arenas --------------===//

#include "helia/Dialect/Helia/Export/Format.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::helia;

std::string mlir::helia::formatBytes(int64_t bytes, ByteStyle style) {
  constexpr int64_t kKiB = 1024, kMiB = 1024 * kKiB;
  std::string result;
  llvm::raw_string_ostream os(result);
  if (bytes < kKiB) {
    os << bytes << (style == ByteStyle::Short ? " B" : "");
    return result;
  }
  if (style == ByteStyle::Exact)
    os << bytes << " (";
  if (bytes >= kMiB)
    os << llvm::format("%.2f MiB", static_cast<double>(bytes) / kMiB);
  else
    os << llvm::format("%.1f KiB", static_cast<double>(bytes) / kKiB);
  if (style == ByteStyle::Exact)
    os << ")";
  return result;
}

StringRef mlir::helia::getArenaKindName(const PlanArena &arena) {
  if (arena.stream)
    return "stream pool";
  if (arena.role != ArenaRole::Constant)
    return "read-write";
  return arena.staged ? "staged" : "cold";
}
