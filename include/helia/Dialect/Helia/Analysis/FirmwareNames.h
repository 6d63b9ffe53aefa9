//===- FirmwareNames.h - names of the generated entry points ----*- C++ -*-===//
//
// The prefix of the firmware entry points a lowered module defines, and the
// names of the helpers the lowering generates with it.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_FIRMWARENAMES_H
#define HELIA_DIALECT_HELIA_ANALYSIS_FIRMWARENAMES_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::helia {

/// The prefix of the firmware entry points a lowered module defines
/// (`<prefix>_hydrate_constants`, `<prefix>_alloc_arenas`): `option` when
/// set, else the name of the first bound function, else "helia".
std::string getFirmwarePrefix(ModuleOp module, StringRef option);

/// `<prefix>_hydrate_constants`: copies staged constants into their arenas.
std::string getHydrateFunctionName(StringRef prefix);
/// `<prefix>_alloc_arenas` (`arena-mode=alloc`): allocates the arenas.
std::string getAllocFunctionName(StringRef prefix);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_FIRMWARENAMES_H
