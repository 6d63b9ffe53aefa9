//===- Functions.cpp - which functions helia plans ------------------------===//

#include "helia/Dialect/Helia/Analysis/Functions.h"

#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::helia;

bool mlir::helia::isPlannedFunction(FunctionOpInterface func) {
  return !func.isExternal() &&
         !func->hasAttr(HeliaDialect::UnplannedAttrHelper::getNameStr());
}

bool mlir::helia::isBoundFunction(FunctionOpInterface func) {
  if (func.isExternal())
    return false;
  StringRef name = HeliaDialect::BindingAttrHelper::getNameStr();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, name))
      return true;
  return func
      ->walk([&](Operation *op) {
        return op->hasAttr(name) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True for an outermost caller: a function that calls a function defined
/// in the module and that nothing in the module calls, the shape of a test
/// harness or an entry point around the model.
static bool looksLikeHostCode(FunctionOpInterface func) {
  Operation *scope = func->getParentOp();
  if (!scope)
    return false;
  bool callsModule = false;
  func.walk([&](CallOpInterface call) {
    auto symbol = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
    auto callee = dyn_cast_if_present<FunctionOpInterface>(
        symbol ? SymbolTable::lookupNearestSymbolFrom(func, symbol) : nullptr);
    if (callee && !callee.isExternal())
      callsModule = true;
  });
  return callsModule && SymbolTable::symbolKnownUseEmpty(func, scope);
}

void mlir::helia::attachUnplannedNote(InFlightDiagnostic &diag,
                                      FunctionOpInterface func) {
  if (!looksLikeHostCode(func))
    return;
  diag.attachNote(func.getLoc())
      << "if @" << func.getName()
      << " is host code around the model (a test harness, an entry point), "
         "mark it `attributes {helia.unplanned}`: the planner leaves it "
         "alone";
}


StringRef mlir::helia::getCalleeName(CallOpInterface call) {
  auto callee = dyn_cast_if_present<SymbolRefAttr>(
      call.getCallableForCallee().dyn_cast<SymbolRefAttr>());
  return callee ? callee.getLeafReference().getValue() : StringRef();
}
