//===- MaterializeSlots.cpp - planned tensors into arena views -----------===//
//
// Makes the memory plan real on tensors: the arenas become memref globals
// (ArenaStorage), every planned tensor of a planned function a view of its
// slot (SlotRewriter), and the function boundaries carry each result's
// memory. Afterwards the plan's attributes are dropped: the IR says where
// everything lives, and One-Shot Bufferize (helia-bufferize-in-place) turns
// the tensors into those views.
//
//===----------------------------------------------------------------------===//

#include "ArenaStorage.h"
#include "LoweringEntries.h"
#include "MaterializeSlots.h"
#include "SlotRewriter.h"

#include "helia/Dialect/Helia/Analysis/BufferOwners.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "helia-materialize-slots"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAMATERIALIZESLOTS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

StringAttr mlir::helia::getSlotMemory(const ArenaTable &arenas,
                                      BindingAttr binding) {
  FlatSymbolRefAttr arena = binding.getStreamArena();
  if (!arena)
    arena = binding.getArena();
  return arenas.lookup(arena.getAttr()).memory;
}

/// Returns `value`, a tensor whose buffer is an identity-layout memref in
/// `memorySpace`, as a tensor of `type` whose buffer is in the default
/// memory space: the same bytes, seen through a `memref.memory_space_cast`.
/// Function boundaries outside the planned results are in the default memory
/// space; a buffer in another one cannot be `memref.cast` to them, and
/// One-Shot Bufferize would copy it into a new allocation (or, for an
/// unranked operand such as the `tensor<*xf32>` of `printMemrefF32`, fail).
Value mlir::helia::castToDefaultMemorySpace(OpBuilder &builder, Location loc,
                                            Value value, RankedTensorType type,
                                            Attribute memorySpace,
                                            bool writable) {
  auto spaced = MemRefType::get(type.getShape(), type.getElementType(),
                                MemRefLayoutAttrInterface(), memorySpace);
  Value buffer = bufferization::ToBufferOp::create(builder, loc, spaced, value,
                                                   /*readOnly=*/!writable);
  Value plain = buffer;
  if (memorySpace)
    plain = memref::MemorySpaceCastOp::create(
        builder, loc, MemRefType::get(type.getShape(), type.getElementType()),
        buffer);
  // Not writable (unless the caller says so): a user that writes into the
  // result writes a copy.
  return bufferization::ToTensorOp::create(builder, loc, type, plain,
                                           /*restrict=*/true, writable);
}


/// Drops the plan's attributes: the IR now says where everything lives.
static void stripPlanAttributes(func::FuncOp func) {
  StringRef binding = HeliaDialect::BindingAttrHelper::getNameStr();
  StringRef placement = HeliaDialect::PlacementAttrHelper::getNameStr();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    func.removeArgAttr(i, binding);
    func.removeArgAttr(i, placement);
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    func.removeResultAttr(i, StringAttr::get(func.getContext(), binding));
    func.removeResultAttr(i, StringAttr::get(func.getContext(), placement));
  }
  func.walk([&](Operation *op) {
    op->removeAttr(binding);
    op->removeAttr(placement);
    // One name per result no longer fits once results become memrefs.
    if (isa_and_nonnull<ArrayAttr>(
            op->getAttr(HeliaDialect::NameAttrHelper::getNameStr())))
      op->removeAttr(HeliaDialect::NameAttrHelper::getNameStr());
  });
}

/// Bufferization stores the result of an `scf.if` in the buffer of the value
/// the taken branch yields. The result owns no storage (BufferAnalysis): the
/// plan keeps every buffer it may be live through its last use, and copy
/// insertion made every write that could clobber one of them go to a copy.
/// Each yielded value is therefore handed over as a read-only view of its
/// buffer cast to the default memory space, as at function boundaries:
/// - the branches may yield buffers in different memories (a constant in
///   MRAM, a scratch tensor in DTCM), and bufferization needs one memory
///   space for the result, the default one if the result crosses a call;
/// - One-Shot Analysis would otherwise treat all values the branches yield
///   as aliases of each other and refuse in-place writes the plan counts
///   (e.g. a copy of an argument into its slot).
static LogicalResult
castYieldsToDefaultMemorySpace(func::FuncOp func,
                               const DenseMap<Value, BindingAttr> &bindings) {
  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  bufferization::BufferizationState state;
  SmallVector<Operation *> branchOps;
  func.walk([&](RegionBranchOpInterface op) {
    if (!isa<LoopLikeOpInterface>(op.getOperation()))
      branchOps.push_back(op);
  });
  // Every result is classified before any yield changes: a result that is
  // always one buffer (every branch yields it, also through nested branches)
  // keeps it. At the top level such a result is a member of that buffer,
  // with its slot's binding.
  bufferization::OneShotAnalysisState aliases(func, options);
  SmallVector<OpResult> severalBuffers;
  for (Operation *op : branchOps)
    for (OpResult result : op->getResults()) {
      if (!isa<RankedTensorType>(result.getType()) || bindings.lookup(result))
        continue;
      if (mayBeSeveralBuffers(result, aliases))
        severalBuffers.push_back(result);
    }
  OpBuilder builder(func.getContext());
  for (OpResult result : severalBuffers) {
    Operation *op = result.getOwner();
    auto type = cast<RankedTensorType>(result.getType());
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        auto yield = dyn_cast<scf::YieldOp>(block.getTerminator());
        if (!yield || yield.getNumOperands() != op->getNumResults())
          continue;
        OpOperand &operand = yield->getOpOperand(result.getResultNumber());
        FailureOr<bufferization::BufferLikeType> bufferType =
            bufferization::getBufferType(operand.get(), options, state);
        if (failed(bufferType))
          return failure();
        // A ranked tensor's buffer is a ranked memref (with any layout).
        auto memref = dyn_cast<MemRefType>(*bufferType);
        if (!memref)
          continue;
        builder.setInsertionPoint(yield);
        Location loc = result.getLoc();
        Value buffer = bufferization::ToBufferOp::create(
            builder, loc, memref, operand.get(), /*readOnly=*/true);
        if (memref.getMemorySpace())
          buffer = memref::MemorySpaceCastOp::create(
              builder, loc,
              MemRefType::get(memref.getShape(), memref.getElementType(),
                              memref.getLayout()),
              buffer);
        operand.set(bufferization::ToTensorOp::create(
            builder, loc, type, buffer, /*restrict=*/true,
            /*writable=*/false));
      }
  }
  return success();
}

/// A planned function returns its results in their slots: each result type
/// gets its memory as encoding (`tensor<8xf32, #helia.memory<"dtcm">>`), so
/// that bufferization returns the view itself instead of a copy in the
/// default memory space. Callers cast back to the plain tensor type.
static void typeResults(func::FuncOp func, SymbolUserMap &users,
                        const llvm::DenseSet<Operation *> &plannedSet,
                        const ArenaTable &arenas,
                        const DenseMap<Value, BindingAttr> &bindings) {
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<Type> resultTypes(func.getResultTypes());
  OpBuilder builder(returnOp);
  bool changed = false;
  for (OpOperand &operand : returnOp->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    BindingAttr binding = bindings.lookup(operand.get());
    if (!type || type.getEncoding() || !binding)
      continue;
    StringAttr memory = getSlotMemory(arenas, binding);
    auto encoded = RankedTensorType::get(
        type.getShape(), type.getElementType(),
        MemorySpaceAttr::get(func.getContext(), memory));
    operand.set(tensor::CastOp::create(builder, returnOp.getLoc(), encoded,
                                       operand.get()));
    resultTypes[operand.getOperandNumber()] = encoded;
    changed = true;
  }
  SmallVector<Type> oldTypes(func.getResultTypes());
  if (changed)
    func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                   resultTypes));
  for (Operation *user : users.getUsers(func)) {
    auto call = dyn_cast<func::CallOp>(user);
    if (!call)
      continue;
    // A planned caller copies each result into its own slot (the plan
    // keeps the callee's result live until then).
    bool ownedByPlan =
        plannedSet.contains(call->getParentOfType<func::FuncOp>());
    builder.setInsertionPointAfter(call);
    for (auto [result, oldType, newType] :
         llvm::zip(call.getResults(), oldTypes, resultTypes)) {
      auto plainType = dyn_cast<RankedTensorType>(oldType);
      if (!plainType || (oldType == newType && ownedByPlan))
        continue;
      SmallVector<OpOperand *> users = llvm::map_to_vector(
          result.getUses(), [](OpOperand &use) { return &use; });
      Value back = result;
      if (oldType != newType) {
        result.setType(newType);
        back = castToDefaultMemorySpace(
            builder, call.getLoc(), result, plainType,
            cast<RankedTensorType>(newType).getEncoding());
      }
      // Host code keeps a copy of every result, also of one that has no
      // slot of its own (an scf.if's, in the buffer of whichever value was
      // yielded): the arenas are reused by the next planned call, while
      // the caller may read the result after it.
      if (!ownedByPlan)
        back = bufferization::AllocTensorOp::create(
            builder, call.getLoc(), plainType, ValueRange(), back);
      for (OpOperand *user : users)
        user->set(back);
    }
  }
}


namespace {
struct HeliaMaterializeSlots
    : WithBufferizationModels<mlir::helia::impl::HeliaMaterializeSlotsBase<
          HeliaMaterializeSlots>> {
  using WithBufferizationModels::WithBufferizationModels;

  void runOnOperation() override;
};
} // namespace

void HeliaMaterializeSlots::runOnOperation() {
  ModuleOp module = getOperation();
  LoweringEntries entries = LoweringEntries::fromFirmware(module);
  ArenaTable arenas(module, arenaMode);
  LDBG() << entries.planned.size() << " planned functions, " << arenas.size()
         << " arenas";
  SlotState state;
  ArenaStorage storage(arenas);
  for (func::FuncOp func : entries.planned)
    if (failed(collectBindings(func, state)) ||
        failed(storage.packConstants(func, state.bindings)))
      return signalPassFailure();
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      for (BlockArgument arg : func.getArguments())
        if (arg.use_empty())
          state.ignoredArguments.insert(
              {func.getSymNameAttr(), arg.getArgNumber()});
  numConstants += storage.numConstants;
  numArenas += arenas.size();
  storage.createGlobals(module);

  for (func::FuncOp func : entries.planned) {
    SlotRewriter rewriter(arenas, func, state);
    if (failed(rewriter.run()))
      return signalPassFailure();
    numPlanCopies += rewriter.getNumPlanCopies();
    numStreams += rewriter.getNumStreams();
  }
  // After every body is rewritten: a planned caller has copied each call
  // result into its slot, and that copy now reads the cast result.
  {
    SymbolTableCollection symbolTables;
    SymbolUserMap users(symbolTables, module);
    llvm::DenseSet<Operation *> plannedSet;
    for (func::FuncOp func : entries.planned)
      plannedSet.insert(func);
    for (func::FuncOp func : entries.planned)
      typeResults(func, users, plannedSet, arenas, state.bindings);
  }
  for (func::FuncOp func : entries.planned)
    if (failed(castYieldsToDefaultMemorySpace(func, state.bindings)))
      return signalPassFailure();
  storage.writeHydrateFunction(module, entries);
  for (auto func : module.getOps<func::FuncOp>())
    stripPlanAttributes(func);
}
