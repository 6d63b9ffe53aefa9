//===- NameSlotAddresses.cpp - a symbol for the address of every slot -----===//
//
// After the conversion to LLVM, a slot of an arena is a constant byte shift
// of the arena global's address. The ARM backend materializes a global's
// address once and adds each offset to it: in a load's immediate below 4096
// bytes, in a register of its own above, and shared by every slot of the
// arena. So the code of an op depended on the offsets and the arenas of its
// operands: moving one weight changed the registers of the loops that read
// it, and their spills. This pass names every slot's address by a private
// alias of the arena at that offset, which the backend materializes as a
// symbol of its own, the same code wherever the slot lives.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIANAMESLOTADDRESSES
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
/// A pointer that is `offset` bytes past the start of an arena global.
struct ArenaAddress {
  LLVM::GlobalOp global;
  int64_t offset = 0;
};
} // namespace

/// An arena is a global array of bytes.
static bool isArena(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return array && array.getElementType().isInteger(8);
}

/// The bytes a GEP adds to its base when they are constant: every index
/// zero, or one constant index over `i8`.
static std::optional<int64_t> getConstantByteShift(LLVM::GEPOp gep) {
  SmallVector<int64_t> indices;
  for (auto index : gep.getIndices()) {
    if (auto attr = dyn_cast<IntegerAttr>(index)) {
      indices.push_back(attr.getInt());
      continue;
    }
    APInt value;
    if (!matchPattern(cast<Value>(index), m_ConstantInt(&value)))
      return std::nullopt;
    indices.push_back(value.getSExtValue());
  }
  if (llvm::all_of(indices, [](int64_t i) { return i == 0; }))
    return 0;
  if (indices.size() == 1 && gep.getElemType().isInteger(8))
    return indices.front();
  return std::nullopt;
}

/// The value inserted at `position` of the aggregate `container` (a memref
/// descriptor built by insertvalue), if it is found.
static Value getInsertedValue(Value container, ArrayRef<int64_t> position) {
  while (auto insert = container.getDefiningOp<LLVM::InsertValueOp>()) {
    ArrayRef<int64_t> inserted = insert.getPosition();
    if (inserted == position)
      return insert.getValue();
    // A part of the field or the field within a larger part: not followed.
    size_t common = std::min(inserted.size(), position.size());
    if (inserted.take_front(common) == position.take_front(common))
      return nullptr;
    container = insert.getContainer();
  }
  return nullptr;
}

/// Follows `ptr` through constant shifts and memref descriptors to the
/// address of an arena global.
static std::optional<ArenaAddress>
traceArenaAddress(Value ptr, SymbolTableCollection &symbols,
                  ModuleOp module) {
  int64_t offset = 0;
  while (Operation *def = ptr.getDefiningOp()) {
    if (auto address = dyn_cast<LLVM::AddressOfOp>(def)) {
      auto global = dyn_cast_or_null<LLVM::GlobalOp>(
          symbols.lookupSymbolIn(module, address.getGlobalNameAttr()));
      if (!global || !isArena(global))
        return std::nullopt;
      return ArenaAddress{global, offset};
    }
    if (auto gep = dyn_cast<LLVM::GEPOp>(def)) {
      std::optional<int64_t> shift = getConstantByteShift(gep);
      if (!shift)
        return std::nullopt;
      offset += *shift;
      ptr = gep.getBase();
      continue;
    }
    if (auto extract = dyn_cast<LLVM::ExtractValueOp>(def)) {
      ptr = getInsertedValue(extract.getContainer(), extract.getPosition());
      if (!ptr)
        return std::nullopt;
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {
struct HeliaNameSlotAddresses
    : mlir::helia::impl::HeliaNameSlotAddressesBase<HeliaNameSlotAddresses> {
  using Base::Base;

  bool isNamed(LLVM::GlobalOp global) const {
    if (arenas == "constant")
      return global.getConstant();
    if (arenas == "writable")
      return !global.getConstant();
    return true;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (arenas != "all" && arenas != "constant" && arenas != "writable") {
      module.emitError("helia-name-slot-addresses: arenas='")
          << arenas.getValue()
          << "' is not all, constant or writable (slot-addresses= of the "
             "pipeline also takes none)";
      return signalPassFailure();
    }
    lastOfArena.clear();
    SymbolTableCollection symbols;
    // The slots' addresses, in order of first use, and their aliases.
    llvm::MapVector<std::pair<Operation *, int64_t>, LLVM::AliasOp> aliases;
    SmallVector<std::pair<LLVM::GEPOp, ArenaAddress>> shifts;
    module.walk([&](LLVM::GEPOp gep) {
      if (!gep->getParentOfType<LLVM::LLVMFuncOp>())
        return;
      std::optional<ArenaAddress> address =
          traceArenaAddress(gep.getResult(), symbols, module);
      // Offset 0 is the arena's own address, a symbol already.
      if (address && address->offset != 0 && isNamed(address->global))
        shifts.push_back({gep, *address});
    });
    SymbolTable &table = symbols.getSymbolTable(module);
    for (auto [gep, address] : shifts) {
      LLVM::AliasOp &alias =
          aliases[{address.global.getOperation(), address.offset}];
      if (!alias)
        alias = createAlias(address, table);
      OpBuilder builder(gep);
      Value named = LLVM::AddressOfOp::create(builder, gep.getLoc(),
                                              gep.getType(),
                                              alias.getSymName());
      gep.getResult().replaceAllUsesWith(named);
    }
    // The shifts replaced, and what computed only them.
    for (auto [gep, address] : shifts)
      if (gep->use_empty())
        gep->erase();
  }

  /// `private @<arena>.<offset>`: the arena's address plus `offset`.
  LLVM::AliasOp createAlias(const ArenaAddress &address, SymbolTable &table) {
    LLVM::GlobalOp global = address.global;
    MLIRContext *ctx = global.getContext();
    OpBuilder builder(ctx);
    // After the arena and its aliases so far, in order of first use.
    Operation *&last = lastOfArena[global.getOperation()];
    builder.setInsertionPointAfter(last ? last : global.getOperation());
    Location loc = global.getLoc();
    auto alias = LLVM::AliasOp::create(
        builder, loc, IntegerType::get(ctx, 8), LLVM::Linkage::Private,
        (global.getSymName() + "." + Twine(address.offset)).str());
    Region &initializer = alias.getInitializerRegion();
    Block *body = initializer.empty() ? builder.createBlock(&initializer)
                                      : &initializer.front();
    builder.setInsertionPointToStart(body);
    auto ptrType = LLVM::LLVMPointerType::get(ctx, global.getAddrSpace());
    Value base =
        LLVM::AddressOfOp::create(builder, loc, ptrType, global.getSymName());
    Value shifted = LLVM::GEPOp::create(
        builder, loc, ptrType, IntegerType::get(ctx, 8), base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(address.offset)},
        LLVM::GEPNoWrapFlags::inbounds);
    LLVM::ReturnOp::create(builder, loc, shifted);
    // A name taken already (by another symbol) gets a suffix.
    table.insert(alias);
    last = alias;
    return alias;
  }

  DenseMap<Operation *, Operation *> lastOfArena;
};
} // namespace
