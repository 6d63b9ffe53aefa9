//===- ArenaStorage.cpp - arena globals, constant blobs, hydration --------===//
//
// Constant arenas become read-only blobs holding the bytes of their
// constants (in the source memory); a staged arena also gets a writable
// runtime arena that `<prefix>_hydrate_constants` fills from its blob.
// Writable arenas become uninitialized globals, unless they are trailing
// arguments (arena-mode=alloc|arg).
//
//===----------------------------------------------------------------------===//

#include "ArenaStorage.h"
#include "ConstantBytes.h"

#include "helia/Dialect/Helia/IR/ByteSize.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::helia;

LogicalResult
ArenaStorage::packConstants(func::FuncOp func,
                            const DenseMap<Value, BindingAttr> &bindings) {
  for (Operation &op : func.getBody().front()) {
    Attribute value;
    if (op.getNumResults() != 1 || !matchPattern(&op, m_Constant(&value)))
      continue;
    BindingAttr binding = bindings.lookup(op.getResult(0));
    if (!binding)
      continue;
    Arena &arena = arenas.lookup(binding.getArena().getAttr());
    if (!arena.isConstant())
      continue;
    uint64_t size =
        *getTensorByteSize(cast<TensorType>(op.getResult(0).getType()));
    MutableArrayRef<uint8_t> slot(arena.bytes.data() + binding.getOffset(),
                                  size);
    if (failed(packConstantBytes(value, slot, op.getLoc())))
      return failure();
    ++numConstants;
  }
  return success();
}

void ArenaStorage::createGlobals(ModuleOp module) {
  SymbolTable symbols(module);
  MLIRContext *ctx = module.getContext();
  for (ArenaOp op : llvm::make_early_inc_range(module.getOps<ArenaOp>())) {
    Arena &arena = arenas.lookup(op.getSymNameAttr());
    OpBuilder builder(op->getBlock(), std::next(op->getIterator()));
    IntegerAttr alignment = builder.getI64IntegerAttr(arena.alignment);
    StringAttr privateVis = builder.getStringAttr("private");
    // The globals take the arena's place and name.
    symbols.erase(op);
    if (arena.isConstant()) {
      // The blob: read-only bytes in the image, in the source memory.
      auto blob = memref::GlobalOp::create(
          builder, arena.loc, arena.blobGlobal, privateVis,
          TypeAttr::get(arena.getBlobType()),
          getByteInitializer(ctx, arena.bytes), builder.getUnitAttr(),
          alignment);
      symbols.insert(blob);
      if (arena.isCold())
        continue;
    }
    if (arena.argIndex >= 0)
      continue;
    auto global = memref::GlobalOp::create(
        builder, arena.loc, arena.name, privateVis,
        TypeAttr::get(arena.getRuntimeType()), builder.getUnitAttr(),
        UnitAttr(), alignment);
    symbols.insert(global);
  }
}

/// helia-arena-calling-convention created the function (a stub of the
/// right type) if the module has staged arenas or asked for it.
void ArenaStorage::writeHydrateFunction(ModuleOp module,
                                        const LoweringEntries &entries) {
  auto func = module.lookupSymbol<func::FuncOp>(entries.getHydrateName());
  if (!func || func.isExternal() || !func.getBody().hasOneBlock() ||
      !llvm::hasSingleElement(func.getBody().front()))
    return;
  Block &body = func.getBody().front();
  body.getTerminator()->erase();
  ArenaBases hydrateBases(arenas, func);
  OpBuilder builder = OpBuilder::atBlockEnd(&body);
  for (auto &[arenaName, arena] : arenas) {
    if (!arena.isStaged())
      continue;
    Value blob = hydrateBases.getBase(arenaName, /*blob=*/true);
    Value runtime = hydrateBases.getBase(arenaName, /*blob=*/false);
    builder.setInsertionPointToEnd(&body);
    HydrateOp::create(builder, arena.loc, blob, runtime);
  }
  builder.setInsertionPointToEnd(&body);
  func::ReturnOp::create(builder, module.getLoc());
}
