//===- FunctionBufferization.h - bufferize functions a few at a time -*- C++ -*-===//
//
// Upstream One-Shot Module Bufferize finds a call's callee through a symbol
// table of the whole module that it builds anew for every call
// (CallOpInterface::getBufferType in FuncBufferizableOpInterfaceImpl.cpp):
// a module of n functions that call each other takes time n^2 (a
// 30,000-deep call chain, minutes). Bufferized a few at a time, each batch
// in a module of its own beside declarations of the callees bufferized
// before it, every such table is small, and the work stays linear.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_FUNCTIONBUFFERIZATION_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_FUNCTIONBUFFERIZATION_H

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::helia {

/// Bufferizes those of `planned` (functions of `module` whose tensor copies
/// are explicit already: the analysis ran and every write is in place)
/// that can be bufferized apart from the rest: functions with a body, no
/// tensor constant (bufferization would make a global of it, a symbol of
/// the module) and callees that are all such functions. They go, in
/// batches of `batchSize` in callee-first order, into a module of their
/// own with the module's attributes and a declaration of every callee of
/// an earlier batch (already bufferized: its type is final), where
/// upstream bufferizeModuleOp bufferizes them; then back, in their order.
/// Does nothing when fewer than two batches would be made (the whole
/// module then costs no more than one batch) or when the functions call
/// each other recursively. What is left is bufferized with the module as
/// before. Returns how many functions were bufferized in batches.
FailureOr<unsigned>
bufferizeFunctionsInBatches(ModuleOp module, ArrayRef<func::FuncOp> planned,
                            const bufferization::OneShotBufferizationOptions &options,
                            unsigned batchSize = 64);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_FUNCTIONBUFFERIZATION_H
