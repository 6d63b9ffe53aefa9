//===- BindingPlanWriter.cpp - a binding plan written into the IR --------===//

#include "BindingPlanWriter.h"

#include "helia/Dialect/Helia/IR/HeliaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <map>

using namespace mlir;
using namespace mlir::helia;

void mlir::helia::writeBindingPlan(ModuleOp module, const BindingPlan &plan) {
  MLIRContext *ctx = module.getContext();
  for (auto arena : llvm::make_early_inc_range(module.getOps<ArenaOp>()))
    arena.erase();
  // Names derive from memory names, so two keys may want the same one (a
  // memory named "dtcm_from_mram" and dtcm staged from mram), as may any
  // other symbol of the module: the symbol table renames a clash with a
  // suffix, in the deterministic order of the keys.
  SymbolTable symbols(module);
  // Each arena's attributes, interned once for all its tensors.
  std::map<ArenaKey, FlatSymbolRefAttr> arenaNames;
  FlatSymbolRefAttr streamArena;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  int64_t alignment = plan.getAlignment();
  for (const auto &[key, bytes] : plan.getArenaSizes()) {
    if (key.sourceBlob)
      continue;
    auto arena = ArenaOp::create(
        builder, module.getLoc(), builder.getStringAttr(key.getName()),
        ArenaRoleAttr::get(ctx, key.role), builder.getStringAttr(key.memory),
        key.isStaged() ? builder.getStringAttr(key.source) : StringAttr(),
        builder.getI64IntegerAttr(std::max<int64_t>(bytes, alignment)),
        builder.getI64IntegerAttr(alignment),
        key.stream ? builder.getUnitAttr() : UnitAttr());
    FlatSymbolRefAttr &name = arenaNames[key];
    name = FlatSymbolRefAttr::get(symbols.insert(arena));
    // The last stream pool in key order, as every streamed binding names.
    if (key.stream)
      streamArena = name;
  }

  StringAttr bindingName =
      StringAttr::get(ctx, HeliaDialect::BindingAttrHelper::getNameStr());
  // A single-result op gets its list at once; only ops with several results
  // collect theirs (a map entry per op would be most of the pass's peak
  // memory on a large module).
  DenseMap<Operation *, SmallVector<Attribute, 2>> multiResultBindings;
  for (const BufferPlan &buffer : plan.getBuffers()) {
    const ArenaKey &key = buffer.arena;
    std::optional<uint64_t> streamOffset;
    if (buffer.streamed)
      streamOffset = buffer.streamOffset;
    auto binding = BindingAttr::get(
        ctx, arenaNames.at(key), buffer.offset,
        buffer.streamed ? streamArena : FlatSymbolRefAttr(), streamOffset);
    const BufferAnalysis &analysis = plan.getAnalysis(buffer);
    for (unsigned member : buffer.info->members) {
      Value value = analysis.getTensors()[member].value;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        analysis.getFunction().setArgAttr(arg.getArgNumber(), bindingName,
                                          binding);
        continue;
      }
      auto result = cast<OpResult>(value);
      Operation *owner = result.getOwner();
      if (owner->getNumResults() == 1) {
        owner->setAttr(bindingName, ArrayAttr::get(ctx, {binding}));
        continue;
      }
      SmallVector<Attribute, 2> &list = multiResultBindings[owner];
      if (list.empty())
        list.assign(result.getOwner()->getNumResults(), UnitAttr::get(ctx));
      list[result.getResultNumber()] = binding;
    }
  }
  for (auto &[op, list] : multiResultBindings)
    op->setAttr(bindingName, ArrayAttr::get(ctx, list));
}
