//===- Functions.h - which functions helia plans ----------------*- C++ -*-===//
//
// Which functions the planning passes plan and which ones they bound, the
// note that points host code around the model at `helia.unplanned`, and the
// callee a direct call names.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_FUNCTIONS_H
#define HELIA_DIALECT_HELIA_ANALYSIS_FUNCTIONS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// True for functions the planning passes plan: those with a body and
/// without `helia.unplanned`.
bool isPlannedFunction(FunctionOpInterface func);

/// True for a function with a body that helia-assign-bindings bound: one of
/// its arguments or ops carries `helia.binding`. The lowering rewrites these.
bool isBoundFunction(FunctionOpInterface func);

/// When `func` looks like host code around the model (it calls a function
/// of the module and nothing calls it: a test harness, an entry point),
/// attaches to `diag` the note, at `func`, that such code is marked
/// `helia.unplanned`; planning errors in a function carry it.
void attachUnplannedNote(InFlightDiagnostic &diag, FunctionOpInterface func);

/// The name of the function `call` calls directly (the leaf of its symbol
/// reference); empty for an indirect call.
StringRef getCalleeName(CallOpInterface call);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_FUNCTIONS_H
