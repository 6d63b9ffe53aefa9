//===- Platform.h - built-in platforms and module lookup -------*- C++ -*-===//
//
// The built-in platform presets (sizes from Ambiq's published memory maps)
// and the lookup of a module's platform and rules.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_IR_PLATFORM_H
#define HELIA_DIALECT_HELIA_IR_PLATFORM_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::helia {

/// Name of the platform used when neither an option nor the module names
/// one.
inline constexpr llvm::StringLiteral kDefaultPlatformName = "apollo510_evb";

/// Largest tensor and largest platform alignment helia plans, in bytes. No
/// microcontroller addresses more; the bound keeps every sum of sizes and
/// offsets the planner forms far from int64 overflow.
inline constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 40;
/// Largest memory size (and memory-limit) helia accepts, in bytes.
inline constexpr uint64_t kMaxMemoryBytes = uint64_t(1) << 62;

/// Largest `access_bytes` and `read_cycles`/`write_cycles` of a memory: a
/// bus moves at most a cache line per access, and no memory of a
/// microcontroller stalls a million cycles; the bounds keep cycle sums far
/// from overflow.
inline constexpr uint64_t kMaxAccessBytes = 1024;
inline constexpr uint64_t kMaxAccessCycles = uint64_t(1) << 20;

/// Names of the built-in presets, in a stable order.
ArrayRef<StringRef> getPlatformPresetNames();

/// Returns the preset named `name`, or null if there is none.
PlatformAttr getPlatformPreset(MLIRContext *ctx, StringRef name);

/// Returns the platform of `module`: the preset named `presetOverride` when it
/// is not empty, else the module's `helia.platform` attribute (a preset name
/// or a `#helia.platform`), else the default preset. Emits a located error
/// and fails on an unknown preset or a malformed attribute.
FailureOr<PlatformAttr> lookupPlatform(ModuleOp module,
                                       StringRef presetOverride = {});

/// Returns the module's `helia.rules` in order (empty when absent). Emits a
/// located error and fails when the attribute is not an array of rules.
FailureOr<SmallVector<RuleAttr>> lookupRules(ModuleOp module);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_IR_PLATFORM_H
