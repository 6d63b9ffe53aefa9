//===- FirmwareApi.h - the model API of a firmware image ---------*- C++ -*-===//
//
// What the model API (`<prefix>_model_init`, `<prefix>_model_run`,
// `<prefix>_bind_arena`) is made of: the regions it names, the inputs and
// outputs of the entry point it wraps, and its status codes. FirmwareLayout
// describes a model with these (FirmwareLayout::describeModel) and writes
// its part of the C header (FirmwareLayout::writeModelApi, FirmwareApi.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_EXPORT_FIRMWAREAPI_H
#define HELIA_DIALECT_HELIA_EXPORT_FIRMWAREAPI_H

#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::helia {

/// An argument or result of the model's entry point as the model API passes
/// it: a pointer to its elements (a memref) or a value (a scalar).
struct FirmwareTensor {
  Type elementType;
  /// The memref's shape; empty for a scalar.
  SmallVector<int64_t> shape;
  bool isMemRef = false;
  /// Arguments: the region and byte offset of the slot the entry point
  /// copies the argument into, when the plan gives it one. The model API
  /// points the input at it, so that the copy is one of a buffer onto
  /// itself.
  std::optional<unsigned> slotRegion;
  uint64_t slotOffset = 0;

  uint64_t getNumElements() const;
};

/// One arena as the model API names it (a region): an arena global of the
/// image, or an arena the caller supplies with `<prefix>_bind_arena`.
struct FirmwareRegion {
  /// The arena's name in the plan (`<arena>_source` for a staged blob).
  std::string arena;
  std::string memory;
  uint64_t size = 0;
  uint64_t alignment = 1;
  /// Index of its global in FirmwareLayout::arenas, or -1 when the caller
  /// supplies it.
  int global = -1;
  /// Position among the entry points' trailing arena arguments, or -1.
  int argIndex = -1;
};

/// The entry point the model API wraps: `<prefix>_model_run` calls it with
/// the context's inputs and stores its results in the context.
struct FirmwareModel {
  std::string entry;
  std::vector<FirmwareTensor> inputs, outputs;
};

/// Status codes of the model API (`<PREFIX>_OK`, `<PREFIX>_ERROR_...`).
enum class FirmwareStatus : int32_t {
  Ok = 0,
  PlanMismatch = 1,
  NotInitialized = 2,
  UnboundArena = 3,
  UnknownRegion = 4,
  NotBindable = 5,
  ArenaTooSmall = 6,
  ArenaMisaligned = 7,
  NoInput = 8,
};

/// The context's `state` after a successful `<prefix>_model_init` ("HELI").
constexpr uint32_t kFirmwareReadyState = 0x494C4548u;

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_EXPORT_FIRMWAREAPI_H
