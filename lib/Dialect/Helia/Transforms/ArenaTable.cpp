//===- ArenaTable.cpp - the arenas as the lowering reads them -------------===//

#include "ArenaTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

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
