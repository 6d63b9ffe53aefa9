//===- LoweringEntries.cpp - planned functions and helpers ----------------===//

#include "LoweringEntries.h"

#include "helia/Dialect/Helia/Analysis/Functions.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::helia;

LoweringEntries LoweringEntries::compute(ModuleOp module, StringRef prefix) {
  LoweringEntries entries;
  for (auto func : module.getOps<func::FuncOp>())
    if (isBoundFunction(func))
      entries.addPlanned(func);
  entries.prefix = getFirmwarePrefix(module, prefix);
  return entries;
}

LoweringEntries LoweringEntries::fromFirmware(ModuleOp module) {
  LoweringEntries entries;
  FirmwareAttr firmware = FirmwareAttr::lookup(module);
  if (!firmware)
    return entries;
  if (firmware.getPrefix())
    entries.prefix = firmware.getPrefix().str();
  if (firmware.getEntries().empty())
    return entries;
  // One symbol table for all of them: a module lookup without one scans the
  // module, once per entry.
  SymbolTable symbols(module);
  for (FlatSymbolRefAttr entry : firmware.getEntries())
    if (auto func = symbols.lookup<func::FuncOp>(entry.getAttr()))
      entries.addPlanned(func);
  return entries;
}

bool mlir::helia::takesArenas(const LoweringEntries &entries,
                              StringAttr callee) {
  return entries.plannedNames.contains(callee) ||
         callee.getValue() == entries.getHydrateName();
}

// Planned functions and the hydrate function take the writable arenas as
// trailing arguments. A planned caller forwards its own; any other caller
// owns them for its whole body (it allocates them on entry and frees them on
// return), so it must be an outermost caller: arenas allocated by a function
// called in the module would not outlive its call, and hydrated constants or
// persistent state would be lost between calls.
FailureOr<SmallVector<func::FuncOp>>
mlir::helia::collectArenaOwners(ModuleOp module, const LoweringEntries &entries,
                                ArenaMode mode) {
  SmallVector<func::FuncOp> arenaOwners;
  SymbolTableCollection symbolTables;
  SymbolUserMap users(symbolTables, module);
  llvm::SmallPtrSet<Operation *, 4> owners;
  std::string modeName = stringifyArenaMode(mode).str();
  for (auto callee : module.getOps<func::FuncOp>()) {
    if (!takesArenas(entries, callee.getNameAttr()))
      continue;
    for (Operation *user : users.getUsers(callee)) {
      auto call = dyn_cast<func::CallOp>(user);
      auto caller = user->getParentOfType<func::FuncOp>();
      if (!call || !caller)
        return user->emitError("uses @")
               << callee.getName()
               << " other than in a direct call; in arena-mode=" << modeName
               << " it takes its arenas as trailing arguments, which only a "
                  "func.call in a function can supply (call it directly or "
                  "use arena-mode=global)";
      if (takesArenas(entries, caller.getNameAttr()))
        continue;
      ArrayRef<Operation *> callerUsers = users.getUsers(caller);
      if (!callerUsers.empty()) {
        InFlightDiagnostic diag =
            call.emitError("calls @")
            << callee.getName() << ", which takes its arenas as trailing "
            << "arguments in arena-mode=" << modeName << ", from @"
            << caller.getName()
            << ", which is itself used in the module; the arenas belong to "
               "the outermost caller and must outlive every call, so call @"
            << callee.getName()
            << " from a function that nothing in the module calls (or use "
               "arena-mode=global)";
        diag.attachNote(callerUsers.front()->getLoc())
            << "@" << caller.getName() << " is used here";
        return failure();
      }
      owners.insert(caller);
    }
  }
  for (auto func : module.getOps<func::FuncOp>())
    if (owners.contains(func))
      arenaOwners.push_back(func);
  return arenaOwners;
}

FailureOr<func::FuncOp>
mlir::helia::getOrCreateHelper(ModuleOp module, StringRef name,
                               FunctionType type, bool acceptNoArguments) {
  auto existing = module.lookupSymbol<func::FuncOp>(name);
  if (!existing) {
    if (Operation *other = module.lookupSymbol(name))
      return other->emitError("symbol @")
             << name << " is taken; helia-lower-to-memref generates a "
             << "function of that name (choose another prefix=)";
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto func = func::FuncOp::create(builder, module.getLoc(), name, type);
    func.addEntryBlock();
    return func;
  }
  FunctionType existingType = existing.getFunctionType();
  bool typeMatches =
      existingType == type ||
      (acceptNoArguments && existingType.getNumInputs() == 0 &&
       existingType.getNumResults() == 0 && type.getNumResults() == 0);
  Region &body = existing.getBody();
  bool isStub = existing.isExternal() ||
                (body.hasOneBlock() && body.front().getNumArguments() == 0 &&
                 llvm::hasSingleElement(body.front()) &&
                 isa<func::ReturnOp>(body.front().front()));
  if (!typeMatches || !isStub)
    return existing.emitError("@")
           << name << " must be a declaration, or a function whose body is "
           << "only a return, of type " << type
           << " for helia-lower-to-memref to define it (choose another "
              "prefix= or remove it)";
  // A declaration has to be private; the definition is the module's API.
  existing.setPublic();
  body.getBlocks().clear();
  existing.setFunctionType(type);
  existing.addEntryBlock();
  return existing;
}
