//===- Lowering.cpp - shared pieces of the lowering passes ----------------===//

#include "Lowering.h"

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

MemRefType Arena::getType(StringAttr space) const {
  return MemRefType::get({size}, IntegerType::get(loc->getContext(), 8),
                         MemRefLayoutAttrInterface(),
                         MemorySpaceAttr::get(loc->getContext(), space));
}

ArenaTable::ArenaTable(ModuleOp module, ArenaMode mode) {
  MLIRContext *ctx = module.getContext();
  for (ArenaOp op : module.getOps<ArenaOp>()) {
    Arena arena{op.getSymNameAttr(),
                op.getRole(),
                op.getMemoryAttr(),
                StringAttr::get(ctx, op.getSourceMemoryOrMemory()),
                static_cast<int64_t>(op.getSize()),
                static_cast<int64_t>(op.getAlignment()),
                op.getLoc(),
                {},
                {},
                -1};
    if (arena.isConstant())
      arena.bytes.assign(arena.size, 0);
    if (arena.isStaged())
      arena.blobGlobal = StringAttr::get(ctx, arena.name.getValue() + "_source");
    else if (arena.isCold())
      arena.blobGlobal = arena.name;
    arenas.insert({arena.name, std::move(arena)});
  }
  if (mode != ArenaMode::Global) {
    int index = 0;
    for (auto &[name, arena] : arenas)
      if (!arena.isCold())
        arena.argIndex = index++;
  }
}

bool ArenaTable::anyStaged() const {
  return llvm::any_of(
      arenas, [](const auto &entry) { return entry.second.isStaged(); });
}

SmallVector<Type> ArenaTable::getArgTypes() const {
  SmallVector<Type> types;
  for (const auto &[name, arena] : arenas)
    if (arena.argIndex >= 0)
      types.push_back(arena.getRuntimeType());
  return types;
}

unsigned ArenaTable::getNumArgs() const {
  return llvm::count_if(
      arenas, [](const auto &entry) { return entry.second.argIndex >= 0; });
}

/// The value whose buffer a loop stores `value` in, where `value` is
/// carried by a loop nested in a planned body and has no binding of its own:
/// an `scf.while` after-region argument or result is the value its
/// condition passes on; a loop result is its init's buffer. Null otherwise.
static Value getLoopStorage(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto whileOp = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp());
    if (!whileOp || arg.getParentRegion() != &whileOp.getAfter())
      return {};
    return whileOp.getConditionOp().getArgs()[arg.getArgNumber()];
  }
  auto result = cast<OpResult>(value);
  if (auto whileOp = dyn_cast<scf::WhileOp>(result.getOwner()))
    return whileOp.getConditionOp().getArgs()[result.getResultNumber()];
  auto loop = dyn_cast<LoopLikeOpInterface>(result.getOwner());
  OpOperand *init = loop ? loop.getTiedLoopInit(result) : nullptr;
  return init ? init->get() : Value();
}

BindingAttr FunctionBindings::lookupStorage(Value value) const {
  while (value) {
    if (BindingAttr binding = bindings.lookup(value))
      return binding;
    Value next = getSameLayoutStorage(value);
    value = next ? next : getLoopStorage(value);
  }
  return {};
}

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

LogicalResult mlir::helia::collectBindings(func::FuncOp func,
                                           FunctionBindings &result) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("planned function has ")
           << func.getBody().getBlocks().size()
           << " blocks; helia-lower-to-memref lowers single-block bodies "
              "(structure control flow with scf first)";
  // The buffers are the planner's: a tensor that owns no storage (an scf.if
  // result that may be either of two buffers) has no binding.
  FailureOr<BufferAnalysis> analysis = BufferAnalysis::analyze(func);
  if (failed(analysis))
    return failure();
  for (const BufferInfo &buffer : analysis->getBuffers())
    for (unsigned member : ArrayRef(buffer.members).drop_front())
      result.storedInOperand.insert(analysis->getTensors()[member].value);
  for (const TensorInfo &tensor : analysis->getTensors()) {
    if (analysis->ownsNoStorage(tensor.value))
      continue;
    BindingAttr binding = getBinding(tensor.value);
    if (!binding) {
      Location loc = tensor.value.getLoc();
      return emitError(loc) << "tensor "
                            << (tensor.name ? "'" + tensor.name.str() + "' "
                                            : std::string())
                            << "of a planned function has no helia.binding; "
                               "run helia-assign-bindings on the whole module";
    }
    // The dialect verifier checked that the arenas exist.
    result.bindings[tensor.value] = binding;
  }
  return success();
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

Value ArenaBases::getBase(StringAttr arenaName, bool blob) {
  const Arena &arena = arenas.lookup(arenaName);
  if (arena.isCold())
    blob = true;
  if (!blob && arena.argIndex >= 0)
    return func.getArgument(func.getNumArguments() - arenas.getNumArgs() +
                            arena.argIndex);
  StringAttr global = blob ? arena.blobGlobal : arena.name;
  if (Value base = bases.lookup(global))
    return base;
  auto op = createAtTop<memref::GetGlobalOp>(
      NameLoc::get(global, arena.loc),
      blob ? arena.getBlobType() : arena.getRuntimeType(),
      FlatSymbolRefAttr::get(global));
  bases[global] = op;
  return op;
}

template <typename OpTy, typename... Args>
OpTy ArenaBases::createAtTop(Location loc, Args &&...args) {
  OpBuilder builder(func.getContext());
  if (lastBase)
    builder.setInsertionPointAfter(lastBase);
  else
    builder.setInsertionPointToStart(&func.getBody().front());
  auto op = OpTy::create(builder, loc, std::forward<Args>(args)...);
  lastBase = op;
  return op;
}

Value ArenaBases::getOffsetConstant(uint64_t offset) {
  if (Value value = offsets.lookup(offset))
    return value;
  Value value = createAtTop<arith::ConstantIndexOp>(
      func.getLoc(), static_cast<int64_t>(offset));
  offsets[offset] = value;
  return value;
}

Value ArenaBases::createView(OpBuilder &builder, Location loc, Value base,
                             uint64_t offset, TensorType type) {
  auto baseType = cast<MemRefType>(base.getType());
  auto viewType =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), baseType.getMemorySpace());
  Value shift = getOffsetConstant(offset);
  return memref::ViewOp::create(builder, loc, viewType, base, shift,
                                ValueRange());
}
