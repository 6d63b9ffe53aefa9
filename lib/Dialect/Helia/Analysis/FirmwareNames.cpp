//===- FirmwareNames.cpp - names of the generated entry points ------------===//

#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"

#include "helia/Dialect/Helia/Analysis/Functions.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::helia;

std::string mlir::helia::getFirmwarePrefix(ModuleOp module, StringRef option) {
  if (!option.empty())
    return option.str();
  for (auto func : module.getOps<FunctionOpInterface>())
    if (isBoundFunction(func))
      return func.getName().str();
  return "helia";
}

std::string mlir::helia::getHydrateFunctionName(StringRef prefix) {
  return (prefix + "_hydrate_constants").str();
}

std::string mlir::helia::getAllocFunctionName(StringRef prefix) {
  return (prefix + "_alloc_arenas").str();
}
