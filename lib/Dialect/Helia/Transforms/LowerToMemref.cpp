//===- LowerToMemref.cpp - arenas, views and copies from a memory plan ----===//
//
// Makes the memory plan real: arenas become memrefs of bytes in their memory
// space, every planned buffer becomes a `memref.view` into its arena, and
// One-Shot Bufferize writes every compute op in place into those views.
//
// The rewrite happens on tensors, before bufferization: each buffer's root
// (a `tensor.empty`, the init of a destination-style op, a constant, an
// argument) is replaced by `bufferization.to_tensor %view restrict writable`,
// so One-Shot Bufferize uses the view as the op's buffer. Values that the
// plan gives a slot of their own but that bufferize into some other buffer
// (an argument, a call result, a view of an argument) are copied into their
// slot with `bufferization.materialize_in_destination`. Any out-of-place
// decision of One-Shot Analysis, and any allocation left in a planned
// function, is an error: the plan would not have counted that memory.
//
//===----------------------------------------------------------------------===//

#include "LowerConstants.h"

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "helia-lower-to-memref"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIALOWERTOMEMREF
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

/// One arena of the plan and the storage it lowers to.
struct Arena {
  StringAttr name;
  ArenaRole role;
  StringAttr memory;
  StringAttr sourceMemory;
  int64_t size = 0;
  int64_t alignment = 1;
  Location loc;
  /// Constant arenas: the bytes of the blob, filled from the constants.
  SmallVector<uint8_t> bytes;
  /// Constant arenas: the global that holds `bytes` in the image. For a cold
  /// arena it is the arena itself; for a staged one a separate global in the
  /// source memory.
  StringAttr blobGlobal;
  /// Position among the trailing arena arguments (arena-mode=alloc|arg), or
  /// -1 when the arena is a global.
  int argIndex = -1;

  bool isConstant() const { return role == ArenaRole::Constant; }
  bool isStaged() const { return isConstant() && sourceMemory != memory; }
  /// Cold constant arenas are read in place and never written at run time.
  bool isCold() const { return isConstant() && !isStaged(); }

  MemRefType getType(StringAttr space) const {
    return MemRefType::get({size}, IntegerType::get(loc->getContext(), 8),
                           MemRefLayoutAttrInterface(),
                           MemorySpaceAttr::get(loc->getContext(), space));
  }
  /// The type of the memref that tensors are viewed from at run time.
  MemRefType getRuntimeType() const { return getType(memory); }
  /// The type of the blob global of a constant arena.
  MemRefType getBlobType() const { return getType(sourceMemory); }
};

/// True when two bindings name the same bytes.
static bool isSameSlot(BindingAttr a, BindingAttr b) {
  return a && b && a.getArena() == b.getArena() &&
         a.getOffset() == b.getOffset();
}

/// True when `op` carries a binding, or one of `func`'s arguments does.
static bool isPlanned(func::FuncOp func) {
  StringRef name = HeliaDialect::getBindingAttrName();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, name))
      return true;
  return func
      .walk([&](Operation *op) {
        return op->hasAttr(name) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

static bool hasTensorSemantics(Operation *op) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

/// Returns `value`, a tensor whose buffer is an identity-layout memref in
/// `memorySpace`, as a tensor of `type` whose buffer is in the default
/// memory space: the same bytes, seen through a `memref.memory_space_cast`.
/// Function boundaries outside the planned results are in the default memory
/// space; a buffer in another one cannot be `memref.cast` to them, and
/// One-Shot Bufferize would copy it into a new allocation (or, for an
/// unranked operand such as the `tensor<*xf32>` of `printMemrefF32`, fail).
static Value castToDefaultMemorySpace(OpBuilder &builder, Location loc,
                                      Value value, RankedTensorType type,
                                      Attribute memorySpace,
                                      bool writable = false) {
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

/// Forgets the bindings of the results of every op that a rewrite erases.
struct ForgetErasedBindings : public RewriterBase::Listener {
  explicit ForgetErasedBindings(DenseMap<Value, BindingAttr> &bindings)
      : bindings(bindings) {}
  void notifyOperationErased(Operation *op) override {
    for (Value result : op->getResults())
      bindings.erase(result);
  }
  DenseMap<Value, BindingAttr> &bindings;
};

struct HeliaLowerToMemref
    : mlir::helia::impl::HeliaLowerToMemrefBase<HeliaLowerToMemref> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // One-Shot Bufferize needs the external models of the ops it meets.
    registerBufferizationModels(registry);
  }

  void runOnOperation() override;

private:
  LogicalResult collectArenas(ModuleOp module);
  LogicalResult checkModule(ModuleOp module);
  LogicalResult collectBindings(func::FuncOp func);
  LogicalResult packConstants(func::FuncOp func);
  void createArenaStorage(ModuleOp module);
  LogicalResult lowerFunction(func::FuncOp func);
  FailureOr<func::FuncOp> getOrCreateHelper(ModuleOp module, StringRef name,
                                            FunctionType type,
                                            bool acceptNoArguments = false);
  LogicalResult createHydrateFunction(ModuleOp module);
  LogicalResult createAllocFunctions(ModuleOp module);
  void supplyArenas(ModuleOp module);
  LogicalResult bufferize(ModuleOp module);
  LogicalResult checkNoAllocations();

  /// Helpers of lowerFunction.
  Value getArenaBase(StringAttr arena, bool blob);
  Value getOffsetConstant(uint64_t offset);
  /// Inserts `op` with the arena bases at the top of the current function.
  template <typename OpTy, typename... Args>
  OpTy createAtTop(Location loc, Args &&...args);
  Value createSlot(OpBuilder &builder, Location loc, BindingAttr binding,
                   TensorType type, bool writable);
  Value createView(OpBuilder &builder, Location loc, Value base,
                   uint64_t offset, TensorType type);
  void lowerArgument(OpBuilder &builder, BlockArgument arg);
  LogicalResult lowerConstant(OpBuilder &builder, Operation *op);
  void lowerDestinationStyle(OpBuilder &builder,
                             DestinationStyleOpInterface op);
  LogicalResult lowerAllocating(IRRewriter &rewriter, Operation *op);
  void lowerAllocTensor(IRRewriter &rewriter,
                        bufferization::AllocTensorOp alloc);
  LogicalResult castYieldsToDefaultMemorySpace(func::FuncOp func);
  void copyIntoSlots(OpBuilder &builder, Operation *op);
  /// Erases `op` and the bindings of its results: a later value may be
  /// allocated at the address of an erased one.
  void forgetAndErase(Operation *op) {
    for (Value result : op->getResults())
      bindings.erase(result);
    op->erase();
  }
  void castCallOperands(OpBuilder &builder, func::CallOp call);
  StringAttr getSlotMemory(BindingAttr binding) const;
  void typeResults(func::FuncOp func, SymbolUserMap &users,
                   const llvm::DenseSet<Operation *> &plannedSet);

  /// Arenas in declaration order.
  llvm::MapVector<StringAttr, Arena> arenas;
  SmallVector<func::FuncOp> planned;
  /// The binding of every planned tensor, including the tensors that
  /// replace them during the rewrite.
  DenseMap<Value, BindingAttr> bindings;
  /// The arena memrefs inside the function being lowered, by arena name;
  /// blob globals are keyed by the blob's name.
  DenseMap<StringAttr, Value> bases;
  /// The offset constants of the function being lowered.
  DenseMap<uint64_t, Value> offsets;
  /// Where the next arena base of the function being lowered goes.
  Operation *lastBase = nullptr;
  func::FuncOp currentFunc;
  std::string helperPrefix;
  /// arena-mode=alloc|arg: the functions that take the writable arenas as
  /// trailing arguments (planned functions, the hydrate function), and the
  /// other functions that call them and own the arenas, in module order.
  llvm::DenseSet<StringAttr> arenaTakers;
  SmallVector<func::FuncOp> arenaOwners;
  /// Tensors that bufferization stores in an operand's buffer (the members
  /// of a buffer after its root): they are in their slot already.
  llvm::DenseSet<Value> storedInOperand;
  /// The copies that copy insertion made explicit before planning (and the
  /// undefined tensors it created), as they are after the rewrite: a call
  /// that is their only user may write into them.
  llvm::DenseSet<Value> explicitCopies;
};

} // namespace

LogicalResult HeliaLowerToMemref::collectArenas(ModuleOp module) {
  arenas.clear();
  for (ArenaOp op : module.getOps<ArenaOp>()) {
    Arena arena{op.getSymNameAttr(),
                op.getRole(),
                op.getMemoryAttr(),
                StringAttr::get(&getContext(), op.getSourceMemoryOrMemory()),
                static_cast<int64_t>(op.getSize()),
                static_cast<int64_t>(op.getAlignment()),
                op.getLoc(),
                {},
                {},
                -1};
    if (arena.isConstant())
      arena.bytes.assign(arena.size, 0);
    arenas.insert({arena.name, std::move(arena)});
  }
  if (arenaMode != ArenaMode::Global) {
    int index = 0;
    for (auto &[name, arena] : arenas)
      if (!arena.isCold())
        arena.argIndex = index++;
  }
  return success();
}

/// Checks what must hold before anything is rewritten: every op with tensors
/// can be bufferized, and calls can still supply arena arguments.
LogicalResult HeliaLowerToMemref::checkModule(ModuleOp module) {
  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  WalkResult walk = module.walk([&](Operation *op) {
    if (!hasTensorSemantics(op) || options.dynCastBufferizableOp(op))
      return WalkResult::advance();
    op->emitError("'")
        << op->getName()
        << "' has no bufferization, so its tensors cannot live in arena "
           "views; lower it first (e.g. --tosa-to-linalg for TOSA) or stop "
           "after helia-verify-plan";
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  if (arenaMode == ArenaMode::Global)
    return success();
  // Planned functions and the hydrate function take the writable arenas as
  // trailing arguments. A planned caller forwards its own; any other caller
  // owns them for its whole body (it allocates them on entry and frees them
  // on return), so it must be an outermost caller: arenas allocated by a
  // function called in the module would not outlive its call, and hydrated
  // constants or persistent state would be lost between calls.
  arenaTakers.clear();
  arenaOwners.clear();
  for (func::FuncOp func : planned)
    arenaTakers.insert(func.getNameAttr());
  arenaTakers.insert(
      StringAttr::get(&getContext(), helperPrefix + "_hydrate_constants"));
  SymbolTableCollection symbolTables;
  SymbolUserMap users(symbolTables, module);
  llvm::SmallPtrSet<Operation *, 4> owners;
  std::string mode = stringifyArenaMode(arenaMode).str();
  for (auto callee : module.getOps<func::FuncOp>()) {
    if (!arenaTakers.contains(callee.getNameAttr()))
      continue;
    for (Operation *user : users.getUsers(callee)) {
      auto call = dyn_cast<func::CallOp>(user);
      auto caller = user->getParentOfType<func::FuncOp>();
      if (!call || !caller)
        return user->emitError("uses @")
               << callee.getName()
               << " other than in a direct call; in arena-mode=" << mode
               << " it takes its arenas as trailing arguments, which only a "
                  "func.call in a function can supply (call it directly or "
                  "use arena-mode=global)";
      if (arenaTakers.contains(caller.getNameAttr()))
        continue;
      ArrayRef<Operation *> callerUsers = users.getUsers(caller);
      if (!callerUsers.empty()) {
        InFlightDiagnostic diag =
            call.emitError("calls @")
            << callee.getName() << ", which takes its arenas as trailing "
            << "arguments in arena-mode=" << mode << ", from @"
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
  return success();
}

/// Records the binding of every tensor of `func`; every tensor needs one.
LogicalResult HeliaLowerToMemref::collectBindings(func::FuncOp func) {
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
      storedInOperand.insert(analysis->getTensors()[member].value);
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
    bindings[tensor.value] = binding;
  }
  return success();
}

/// Writes the bytes of every bound constant into its arena's blob.
LogicalResult HeliaLowerToMemref::packConstants(func::FuncOp func) {
  for (Operation &op : func.getBody().front()) {
    Attribute value;
    if (op.getNumResults() != 1 || !matchPattern(&op, m_Constant(&value)))
      continue;
    BindingAttr binding = bindings.lookup(op.getResult(0));
    if (!binding || binding.getRole() != ArenaRole::Constant)
      continue;
    Arena &arena = arenas.find(binding.getArena().getAttr())->second;
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

/// Creates the globals of the arenas (all of them in arena-mode=global,
/// else only the constant blobs) where the arena ops are.
void HeliaLowerToMemref::createArenaStorage(ModuleOp module) {
  SymbolTable symbols(module);
  MLIRContext *ctx = &getContext();
  for (ArenaOp op : llvm::make_early_inc_range(module.getOps<ArenaOp>())) {
    Arena &arena = arenas.find(op.getSymNameAttr())->second;
    OpBuilder builder(op->getBlock(), std::next(op->getIterator()));
    IntegerAttr alignment = builder.getI64IntegerAttr(arena.alignment);
    StringAttr privateVis = builder.getStringAttr("private");
    // The globals take the arena's place and name.
    symbols.erase(op);
    ++numArenas;
    if (arena.isConstant()) {
      // The blob: read-only bytes in the image, in the source memory.
      StringAttr blobName =
          arena.isStaged()
              ? StringAttr::get(ctx, arena.name.getValue() + "_source")
              : arena.name;
      auto blob = memref::GlobalOp::create(
          builder, arena.loc, blobName, privateVis,
          TypeAttr::get(arena.getBlobType()),
          getByteInitializer(ctx, arena.bytes), builder.getUnitAttr(),
          alignment);
      arena.blobGlobal = symbols.insert(blob);
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

/// Returns the memref of `arenaName` in the current function: its runtime
/// storage, or with `blob` its read-only blob.
Value HeliaLowerToMemref::getArenaBase(StringAttr arenaName, bool blob) {
  Arena &arena = arenas.find(arenaName)->second;
  if (arena.isCold())
    blob = true;
  if (!blob && arena.argIndex >= 0)
    return currentFunc.getArgument(currentFunc.getNumArguments() -
                                   llvm::count_if(arenas, [](auto &entry) {
                                     return entry.second.argIndex >= 0;
                                   }) +
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
OpTy HeliaLowerToMemref::createAtTop(Location loc, Args &&...args) {
  OpBuilder builder(&getContext());
  if (lastBase)
    builder.setInsertionPointAfter(lastBase);
  else
    builder.setInsertionPointToStart(&currentFunc.getBody().front());
  auto op = OpTy::create(builder, loc, std::forward<Args>(args)...);
  lastBase = op;
  return op;
}

Value HeliaLowerToMemref::getOffsetConstant(uint64_t offset) {
  if (Value value = offsets.lookup(offset))
    return value;
  Value value = createAtTop<arith::ConstantIndexOp>(
      currentFunc.getLoc(), static_cast<int64_t>(offset));
  offsets[offset] = value;
  return value;
}

Value HeliaLowerToMemref::createView(OpBuilder &builder, Location loc,
                                     Value base, uint64_t offset,
                                     TensorType type) {
  auto baseType = cast<MemRefType>(base.getType());
  auto viewType =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), baseType.getMemorySpace());
  Value shift = getOffsetConstant(offset);
  ++numViews;
  return memref::ViewOp::create(builder, loc, viewType, base, shift,
                                ValueRange());
}

/// Creates the tensor of a planned slot: a view of the arena at the
/// binding's offset, wrapped so that One-Shot Bufferize writes into it.
Value HeliaLowerToMemref::createSlot(OpBuilder &builder, Location loc,
                                     BindingAttr binding, TensorType type,
                                     bool writable) {
  Value base = getArenaBase(binding.getArena().getAttr(), /*blob=*/false);
  Value view = createView(builder, loc, base, binding.getOffset(), type);
  Value tensor = bufferization::ToTensorOp::create(
      builder, loc, type, view, /*restrict=*/true, writable);
  bindings[tensor] = binding;
  return tensor;
}

/// An argument lives in its slot: the caller's tensor is copied there on
/// entry (as a heliaAOT caller copies its input into the arena).
void HeliaLowerToMemref::lowerArgument(OpBuilder &builder, BlockArgument arg) {
  BindingAttr binding = bindings.lookup(arg);
  auto type = cast<TensorType>(arg.getType());
  Value slot = createSlot(builder, arg.getLoc(), binding, type, true);
  auto copy = bufferization::MaterializeInDestinationOp::create(
      builder, arg.getLoc(), arg, slot);
  arg.replaceAllUsesExcept(copy.getResult(), copy);
  bindings[copy.getResult()] = binding;
  ++numPlanCopies;
}

/// A constant becomes a read-only view of its arena; a streamed one is
/// copied into its pool slot right before its first reader and read there.
LogicalResult HeliaLowerToMemref::lowerConstant(OpBuilder &builder,
                                                Operation *op) {
  Value result = op->getResult(0);
  BindingAttr binding = bindings.lookup(result);
  auto type = cast<TensorType>(result.getType());
  Location loc = op->getLoc();
  if (binding.getRole() != ArenaRole::Constant) {
    // A constant planned in writable memory gets its value at run time.
    builder.setInsertionPointAfter(op);
    Value slot = createSlot(builder, loc, binding, type, true);
    auto copy = bufferization::MaterializeInDestinationOp::create(
        builder, loc, result, slot);
    result.replaceAllUsesExcept(copy.getResult(), copy);
    ++numPlanCopies;
    return success();
  }
  if (result.use_empty()) {
    forgetAndErase(op);
    return success();
  }
  Value tensor;
  if (FlatSymbolRefAttr pool = binding.getStreamArena()) {
    Block *block = op->getBlock();
    Operation *firstReader = nullptr;
    for (Operation *user : result.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!firstReader || ancestor->isBeforeInBlock(firstReader))
        firstReader = ancestor;
    }
    builder.setInsertionPoint(firstReader);
    Value source =
        createView(builder, loc,
                   getArenaBase(binding.getArena().getAttr(), false),
                   binding.getOffset(), type);
    Value target = createView(builder, loc,
                              getArenaBase(pool.getAttr(), false),
                              *binding.getStreamOffset(), type);
    StreamOp::create(builder, loc, source, target);
    tensor = bufferization::ToTensorOp::create(builder, loc, type, target,
                                               /*restrict=*/true,
                                               /*writable=*/false);
    ++numStreams;
  } else {
    builder.setInsertionPoint(op);
    // Staged constants are read from their runtime copy, cold ones in
    // place; neither is ever written, so the tensor is not writable.
    tensor = createSlot(builder, loc, binding, type, /*writable=*/false);
  }
  bindings[tensor] = binding;
  result.replaceAllUsesWith(tensor);
  forgetAndErase(op);
  return success();
}

/// Every init of a destination-style op becomes the slot of its tied result:
/// an empty init is replaced by the slot, an init in another slot is copied
/// into it (when the op reads it), an init already in the slot is kept.
void HeliaLowerToMemref::lowerDestinationStyle(
    OpBuilder &builder, DestinationStyleOpInterface op) {
  builder.setInsertionPoint(op);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    OpResult result = op.getTiedOpResult(&init);
    BindingAttr binding = bindings.lookup(result);
    if (!binding)
      continue;
    Value value = init.get();
    auto type = cast<TensorType>(value.getType());
    if (value.getDefiningOp<tensor::EmptyOp>()) {
      init.set(createSlot(builder, op.getLoc(), binding, type, true));
      continue;
    }
    if (isSameSlot(bindings.lookup(value), binding))
      continue;
    Value slot = createSlot(builder, op.getLoc(), binding, type, true);
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
    if (!linalgOp || linalgOp.payloadUsesValueFromOperand(&init)) {
      slot = bufferization::MaterializeInDestinationOp::create(
                 builder, op.getLoc(), value, slot)
                 .getResult();
      ++numPlanCopies;
    }
    init.set(slot);
  }
}

/// Ops that bufferize to a fresh allocation are first rewritten in
/// destination-passing style; the `tensor.empty` at the root of the new
/// chain then becomes the slot.
LogicalResult HeliaLowerToMemref::lowerAllocating(IRRewriter &rewriter,
                                                  Operation *op) {
  BindingAttr binding = bindings.lookup(op->getResult(0));
  Type resultType = op->getResult(0).getType();
  rewriter.setInsertionPoint(op);
  Value replacement;
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    FailureOr<SmallVector<Value>> values = concat.decomposeOperation(rewriter);
    if (failed(values))
      return op->emitError("cannot rewrite this concatenation into its "
                           "planned slot");
    replacement = values->front();
    rewriter.replaceOp(op, *values);
  } else {
    FailureOr<Operation *> newOp = failure();
    if (auto pad = dyn_cast<tensor::PadOp>(op))
      newOp = linalg::rewriteInDestinationPassingStyle(rewriter, pad);
    else if (auto generate = dyn_cast<tensor::GenerateOp>(op))
      newOp = linalg::rewriteInDestinationPassingStyle(rewriter, generate);
    else if (auto elements = dyn_cast<tensor::FromElementsOp>(op))
      newOp = linalg::rewriteInDestinationPassingStyle(rewriter, elements);
    if (failed(newOp))
      return op->emitError("cannot rewrite '")
             << op->getName() << "' into its planned slot";
    replacement = (*newOp)->getResult(0);
  }
  // A shape cast may close the chain (a concat of one operand).
  Value root = replacement;
  while (true) {
    if (auto cast = root.getDefiningOp<tensor::CastOp>()) {
      root = cast.getSource();
      continue;
    }
    auto dps = root.getDefiningOp<DestinationStyleOpInterface>();
    if (!dps)
      break;
    root = dps.getTiedOpOperand(cast<OpResult>(root))->get();
  }
  // The chain starts at a tensor.empty or, for linalg's rewrites, at an
  // alloc_tensor without a copy: both are undefined bytes, i.e. the slot.
  Operation *empty = root.getDefiningOp<tensor::EmptyOp>();
  if (auto alloc = root.getDefiningOp<bufferization::AllocTensorOp>();
      alloc && !alloc.getCopy() && alloc.getDynamicSizes().empty())
    empty = alloc;
  if (!empty || root.getType() != resultType) {
    // Nothing to place: copy the value into the slot instead.
    bindings[replacement] = binding;
    copyIntoSlots(rewriter, replacement.getDefiningOp());
    return success();
  }
  rewriter.setInsertionPoint(empty);
  Value slot = createSlot(rewriter, empty->getLoc(), binding,
                          cast<TensorType>(root.getType()), true);
  rewriter.replaceOp(empty, slot);
  bindings[replacement] = binding;
  return success();
}

/// A buffer that copy insertion made explicit (helia-insert-tensor-copies)
/// is its slot: `alloc_tensor()` becomes the slot itself, `alloc_tensor
/// copy(%v)` a copy of `%v` into the slot.
void HeliaLowerToMemref::lowerAllocTensor(IRRewriter &rewriter,
                                          bufferization::AllocTensorOp alloc) {
  BindingAttr binding = bindings.lookup(alloc.getResult());
  rewriter.setInsertionPoint(alloc);
  Value replacement = createSlot(rewriter, alloc.getLoc(), binding,
                                 alloc.getType(), /*writable=*/true);
  if (Value copy = alloc.getCopy()) {
    replacement = bufferization::MaterializeInDestinationOp::create(
                      rewriter, alloc.getLoc(), copy, replacement)
                      .getResult();
    ++numPlanCopies;
  }
  rewriter.replaceOp(alloc, replacement);
  bindings[replacement] = binding;
  explicitCopies.insert(replacement);
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
LogicalResult
HeliaLowerToMemref::castYieldsToDefaultMemorySpace(func::FuncOp func) {
  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  bufferization::BufferizationState state;
  SmallVector<Operation *> branchOps;
  func.walk([&](RegionBranchOpInterface op) {
    if (!isa<LoopLikeOpInterface>(op.getOperation()))
      branchOps.push_back(op);
  });
  OpBuilder builder(&getContext());
  for (Operation *op : branchOps) {
    for (OpResult result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      // A result that is always one buffer (every branch yields it) is a
      // member of that buffer, with its slot's binding.
      if (!type || bindings.lookup(result))
        continue;
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
  }
  return success();
}

/// The memory that holds the bytes a tensor with `binding` is read from: its
/// arena's, or for a streamed constant its stream pool's.
StringAttr HeliaLowerToMemref::getSlotMemory(BindingAttr binding) const {
  FlatSymbolRefAttr arena = binding.getStreamArena();
  if (!arena)
    arena = binding.getArena();
  return arenas.find(arena.getAttr())->second.memory;
}

/// Tensors passed to a function are in the default memory space at its
/// boundary: each planned operand of `call` is handed over as its slot cast
/// to the default memory space, read-only (a callee that writes into an
/// argument gets a copy, which in a planned function is reported), except
/// the copy that helia-insert-tensor-copies made for the call, which the
/// plan counts.
void HeliaLowerToMemref::castCallOperands(OpBuilder &builder,
                                          func::CallOp call) {
  builder.setInsertionPoint(call);
  for (OpOperand &operand : call->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    BindingAttr binding = bindings.lookup(operand.get());
    if (!type || type.getEncoding() || !binding)
      continue;
    // A copy that copy insertion made for this call (the callee writes into
    // its argument) is the callee's to write: nothing else reads it.
    bool writable = explicitCopies.contains(operand.get()) &&
                    operand.get().hasOneUse();
    operand.set(castToDefaultMemorySpace(
        builder, call.getLoc(), operand.get(), type,
        MemorySpaceAttr::get(&getContext(), getSlotMemory(binding)),
        writable));
  }
}

/// Results that bufferization does not store in an operand's buffer are
/// copied into their own slot right after the op: call results.
void HeliaLowerToMemref::copyIntoSlots(OpBuilder &builder, Operation *op) {
  for (OpResult result : op->getResults()) {
    BindingAttr binding = bindings.lookup(result);
    if (!binding || result.use_empty() || storedInOperand.contains(result))
      continue;
    // Closed lifetimes overlap at the op's step, so a result shares bytes
    // with an operand only when the plan made them one buffer.
    if (llvm::any_of(op->getOperands(), [&](Value operand) {
          return isSameSlot(bindings.lookup(operand), binding);
        }))
      continue;
    builder.setInsertionPointAfter(op);
    Value slot = createSlot(builder, op->getLoc(), binding,
                            cast<TensorType>(result.getType()), true);
    auto copy = bufferization::MaterializeInDestinationOp::create(
        builder, op->getLoc(), result, slot);
    result.replaceAllUsesExcept(copy.getResult(), copy);
    bindings[copy.getResult()] = binding;
    ++numPlanCopies;
  }
}

LogicalResult HeliaLowerToMemref::lowerFunction(func::FuncOp func) {
  currentFunc = func;
  bases.clear();
  offsets.clear();
  lastBase = nullptr;
  Block &entry = func.getBody().front();
  ForgetErasedBindings listener(bindings);
  IRRewriter rewriter(&getContext(), &listener);

  SmallVector<Operation *> ops;
  for (Operation &op : entry.without_terminator())
    ops.push_back(&op);

  // The arena memrefs come first, in declaration order.
  llvm::DenseSet<StringAttr> used;
  auto markUsed = [&](Value value) {
    BindingAttr binding = bindings.lookup(value);
    if (!binding)
      return;
    used.insert(binding.getArena().getAttr());
    if (FlatSymbolRefAttr pool = binding.getStreamArena())
      used.insert(pool.getAttr());
  };
  for (BlockArgument arg : entry.getArguments())
    markUsed(arg);
  for (Operation *op : ops)
    for (Value result : op->getResults())
      markUsed(result);
  for (auto &[name, arena] : arenas)
    if (used.contains(name))
      (void)getArenaBase(name, /*blob=*/false);

  // Arguments first, after the arena memrefs, in order.
  for (BlockArgument arg : entry.getArguments()) {
    if (!bindings.lookup(arg))
      continue;
    if (!ops.empty())
      rewriter.setInsertionPoint(ops.front());
    else
      rewriter.setInsertionPoint(entry.getTerminator());
    lowerArgument(rewriter, arg);
  }

  SmallVector<tensor::EmptyOp> empties;
  for (Operation *op : ops) {
    bool hasBinding = llvm::any_of(op->getResults(), [&](Value result) {
      return static_cast<bool>(bindings.lookup(result));
    });
    if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
      empties.push_back(empty);
      continue;
    }
    if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op);
        alloc && hasBinding) {
      lowerAllocTensor(rewriter, alloc);
      continue;
    }
    if (op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1 &&
        hasBinding) {
      if (failed(lowerConstant(rewriter, op)))
        return failure();
      continue;
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
        dps && dps.hasPureTensorSemantics()) {
      lowerDestinationStyle(rewriter, dps);
      continue;
    }
    // Calls in the op's regions too (a call in an scf.if branch).
    op->walk([&](func::CallOp call) { castCallOperands(rewriter, call); });
    if (!hasBinding)
      continue;
    if (isa<tensor::PadOp, tensor::GenerateOp, tensor::FromElementsOp,
            tensor::ConcatOp>(op)) {
      if (failed(lowerAllocating(rewriter, op)))
        return failure();
      continue;
    }
    copyIntoSlots(rewriter, op);
  }

  // An empty tensor still used by something other than a destination-style
  // init (e.g. returned as is) is its own slot.
  for (tensor::EmptyOp empty : empties) {
    BindingAttr binding = bindings.lookup(empty.getResult());
    if (!empty.getResult().use_empty() && binding) {
      rewriter.setInsertionPoint(empty);
      Value slot =
          createSlot(rewriter, empty.getLoc(), binding, empty.getType(), true);
      rewriter.replaceOp(empty, slot);
      continue;
    }
    if (empty.getResult().use_empty())
      rewriter.eraseOp(empty);
  }
  return success();
}

/// A planned function returns its results in their slots: each result type
/// gets its memory as encoding (`tensor<8xf32, #helia.memory<"dtcm">>`), so
/// that bufferization returns the view itself instead of a copy in the
/// default memory space. Callers cast back to the plain tensor type.
void HeliaLowerToMemref::typeResults(
    func::FuncOp func, SymbolUserMap &users,
    const llvm::DenseSet<Operation *> &plannedSet) {
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<Type> resultTypes(func.getResultTypes());
  OpBuilder builder(returnOp);
  bool changed = false;
  for (OpOperand &operand : returnOp->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    BindingAttr binding = bindings.lookup(operand.get());
    if (!type || type.getEncoding() || !binding)
      continue;
    StringAttr memory = getSlotMemory(binding);
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

/// Returns the helper function `name` of type `type`: a new public function,
/// or the one that a caller in the module wrote for it: a declaration, or a
/// stub whose body is only a return (so that the unplanned program runs
/// too). With `acceptNoArguments`, the caller's version may be `() -> ()`:
/// written before planning, it cannot know the arena arguments.
FailureOr<func::FuncOp>
HeliaLowerToMemref::getOrCreateHelper(ModuleOp module, StringRef name,
                                      FunctionType type,
                                      bool acceptNoArguments) {
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

/// Trailing arena arguments of planned and generated functions.
static SmallVector<Type> getArenaArgTypes(
    const llvm::MapVector<StringAttr, Arena> &arenas) {
  SmallVector<Type> types;
  for (const auto &[name, arena] : arenas)
    if (arena.argIndex >= 0)
      types.push_back(arena.getRuntimeType());
  return types;
}

LogicalResult HeliaLowerToMemref::createHydrateFunction(ModuleOp module) {
  std::string name = helperPrefix + "_hydrate_constants";
  bool anyStaged = llvm::any_of(
      arenas, [](const auto &entry) { return entry.second.isStaged(); });
  if (!anyStaged && !module.lookupSymbol(name))
    return success();
  auto type = FunctionType::get(&getContext(), getArenaArgTypes(arenas), {});
  FailureOr<func::FuncOp> func =
      getOrCreateHelper(module, name, type, /*acceptNoArguments=*/true);
  if (failed(func))
    return failure();
  currentFunc = *func;
  bases.clear();
  offsets.clear();
  lastBase = nullptr;
  OpBuilder builder = OpBuilder::atBlockEnd(&func->getBody().front());
  for (auto &[arenaName, arena] : arenas) {
    if (!arena.isStaged())
      continue;
    Value blob = getArenaBase(arenaName, /*blob=*/true);
    Value runtime = getArenaBase(arenaName, /*blob=*/false);
    builder.setInsertionPointToEnd(&func->getBody().front());
    HydrateOp::create(builder, arena.loc, blob, runtime);
  }
  builder.setInsertionPointToEnd(&func->getBody().front());
  func::ReturnOp::create(builder, module.getLoc());
  return success();
}

LogicalResult HeliaLowerToMemref::createAllocFunctions(ModuleOp module) {
  if (arenaMode != ArenaMode::Alloc)
    return success();
  SmallVector<Type> types = getArenaArgTypes(arenas);
  FailureOr<func::FuncOp> alloc = getOrCreateHelper(
      module, helperPrefix + "_alloc_arenas",
      FunctionType::get(&getContext(), {}, types));
  if (failed(alloc))
    return failure();
  OpBuilder builder = OpBuilder::atBlockEnd(&alloc->getBody().front());
  SmallVector<Value> buffers;
  for (auto &[name, arena] : arenas)
    if (arena.argIndex >= 0)
      buffers.push_back(memref::AllocOp::create(
          builder, NameLoc::get(name, arena.loc), arena.getRuntimeType(),
          builder.getI64IntegerAttr(arena.alignment)));
  func::ReturnOp::create(builder, module.getLoc(), buffers);

  FailureOr<func::FuncOp> release = getOrCreateHelper(
      module, helperPrefix + "_free_arenas",
      FunctionType::get(&getContext(), types, {}));
  if (failed(release))
    return failure();
  builder.setInsertionPointToEnd(&release->getBody().front());
  for (BlockArgument arg : release->getArguments())
    memref::DeallocOp::create(builder, module.getLoc(), arg);
  func::ReturnOp::create(builder, module.getLoc());
  return success();
}

/// arena-mode=alloc|arg: every call to a function that takes the arenas
/// gets them: a planned caller passes its own arena arguments; any other
/// caller (an outermost one, checked by checkModule) allocates them on
/// entry, with `<prefix>_alloc_arenas` in alloc mode or `memref.alloc` in
/// arg mode, and frees them before each return.
void HeliaLowerToMemref::supplyArenas(ModuleOp module) {
  if (arenaMode == ArenaMode::Global)
    return;
  SmallVector<Type> types = getArenaArgTypes(arenas);
  if (types.empty())
    return;
  MLIRContext *ctx = &getContext();
  DenseMap<Operation *, SmallVector<Value>> owned;
  for (func::FuncOp owner : arenaOwners) {
    Location loc = owner.getLoc();
    OpBuilder builder = OpBuilder::atBlockBegin(&owner.getBody().front());
    SmallVector<Value> &values = owned[owner];
    if (arenaMode == ArenaMode::Alloc) {
      auto call = func::CallOp::create(
          builder, loc,
          FlatSymbolRefAttr::get(ctx, helperPrefix + "_alloc_arenas"), types,
          ValueRange());
      llvm::append_range(values, call.getResults());
    } else {
      for (auto &[name, arena] : arenas)
        if (arena.argIndex >= 0)
          values.push_back(memref::AllocOp::create(
              builder, NameLoc::get(name, loc), arena.getRuntimeType(),
              builder.getI64IntegerAttr(arena.alignment)));
    }
    owner.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      if (arenaMode == ArenaMode::Alloc) {
        func::CallOp::create(
            builder, loc,
            FlatSymbolRefAttr::get(ctx, helperPrefix + "_free_arenas"),
            TypeRange(), values);
        return;
      }
      for (Value value : values)
        memref::DeallocOp::create(builder, loc, value);
    });
  }
  module.walk([&](func::CallOp call) {
    if (!arenaTakers.contains(call.getCalleeAttr().getAttr()))
      return;
    auto caller = call->getParentOfType<func::FuncOp>();
    if (arenaTakers.contains(caller.getNameAttr())) {
      call.getArgOperandsMutable().append(
          caller.getArguments().take_back(types.size()));
      return;
    }
    call.getArgOperandsMutable().append(owned.lookup(caller));
  });
}

LogicalResult HeliaLowerToMemref::bufferize(ModuleOp module) {
  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  bufferization::OneShotAnalysisState state(module, options);
  if (failed(bufferization::analyzeModuleOp(module, state)))
    return failure();
  // The plan counted one buffer per slot: an out-of-place write would need
  // one more.
  bool ok = true;
  for (func::FuncOp func : planned) {
    func.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<TensorType>(operand.get().getType()) ||
            !state.bufferizesToMemoryWrite(operand) || state.isInPlace(operand))
          continue;
        if (auto call = dyn_cast<func::CallOp>(op)) {
          call.emitError("@")
              << call.getCallee() << " may write into argument #"
              << operand.getOperandNumber()
              << ", a planned tensor, so bufferization would copy it into "
                 "memory the plan did not count; if the callee only reads "
                 "it, say so on its declaration ({bufferization.access = "
                 "\"read\"}) or give it a body";
          ok = false;
          continue;
        }
        op->emitError("bufferization must write operand #")
            << operand.getOperandNumber()
            << " out of place because its old value is read later; the "
               "plan shares that buffer, so the copy would need memory it "
               "did not count (give the result a slot of its own)";
        ok = false;
      }
    });
  }
  if (!ok)
    return failure();
  bufferization::BufferizationState bufferizationState;
  if (failed(bufferization::insertTensorCopies(module, state,
                                               bufferizationState)) ||
      failed(bufferization::bufferizeModuleOp(module, options,
                                              bufferizationState)))
    return failure();
  return success();
}

LogicalResult HeliaLowerToMemref::checkNoAllocations() {
  bool ok = true;
  for (func::FuncOp func : planned)
    func.walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      op->emitError("bufferization allocated a buffer here that the plan "
                    "does not count; this op needs a destination-passing "
                    "form (or a slot) that helia-lower-to-memref can place");
      ok = false;
    });
  return success(ok);
}

/// Drops the plan's attributes: the IR now says where everything lives.
static void stripPlanAttributes(func::FuncOp func) {
  StringRef binding = HeliaDialect::getBindingAttrName();
  StringRef placement = HeliaDialect::getPlacementAttrName();
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
            op->getAttr(HeliaDialect::getNameAttrName())))
      op->removeAttr(HeliaDialect::getNameAttrName());
  });
}

/// Records the prefix and the planned functions in the module's
/// `helia.firmware` dictionary: helia-assign-sections names the arena
/// globals after the prefix, and its C header declares the functions.
static void recordFirmwareEntries(ModuleOp module, StringRef prefix,
                                  ArrayRef<func::FuncOp> planned) {
  MLIRContext *ctx = module.getContext();
  SmallVector<Attribute> entries;
  for (func::FuncOp func : planned)
    entries.push_back(func.getSymNameAttr());
  module->setAttr(
      HeliaDialect::getFirmwareAttrName(),
      DictionaryAttr::get(ctx, {NamedAttribute(StringAttr::get(ctx, "prefix"),
                                               StringAttr::get(ctx, prefix)),
                                NamedAttribute(StringAttr::get(ctx, "entries"),
                                               ArrayAttr::get(ctx, entries))}));
}

void HeliaLowerToMemref::runOnOperation() {
  ModuleOp module = getOperation();
  bindings.clear();
  planned.clear();
  explicitCopies.clear();
  storedInOperand.clear();
  if (failed(collectArenas(module)))
    return signalPassFailure();
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && isPlanned(func))
      planned.push_back(func);
  helperPrefix = prefix;
  if (helperPrefix.empty())
    helperPrefix = planned.empty() ? "helia" : planned.front().getName().str();
  recordFirmwareEntries(module, helperPrefix, planned);
  LDBG() << planned.size() << " planned functions, " << arenas.size()
         << " arenas";
  // A module that never went through the planning passes bufferizes with
  // plain allocations: legal, but rarely what was meant.
  if (planned.empty() && arenas.empty())
    for (auto func : module.getOps<FunctionOpInterface>()) {
      bool hasTensors = func.walk([](Operation *op) {
        return llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      }).wasInterrupted() ||
          llvm::any_of(func.getArgumentTypes(), llvm::IsaPred<TensorType>);
      if (!isPlannedFunction(func) || !hasTensors)
        continue;
      emitWarning(func.getLoc())
          << "function '" << func.getName()
          << "' was never planned (the module has no helia.arena and no "
             "helia.binding), so its tensors get plain allocations; run "
             "helia-resolve-residency and helia-assign-bindings first (or "
             "helia-memory-pipeline), or mark it helia.unplanned";
      break;
    }

  if (failed(checkModule(module)))
    return signalPassFailure();
  for (func::FuncOp func : planned)
    if (failed(collectBindings(func)) || failed(packConstants(func)))
      return signalPassFailure();

  createArenaStorage(module);
  for (func::FuncOp func : planned) {
    for (auto &[name, arena] : arenas)
      if (arena.argIndex >= 0)
        (void)func.insertArgument(func.getNumArguments(),
                                  arena.getRuntimeType(), DictionaryAttr(),
                                  NameLoc::get(name, arena.loc));
    if (failed(lowerFunction(func)))
      return signalPassFailure();
  }
  // After every body is rewritten: a planned caller has copied each call
  // result into its slot, and that copy now reads the cast result.
  {
    SymbolTableCollection symbolTables;
    SymbolUserMap users(symbolTables, module);
    llvm::DenseSet<Operation *> plannedSet;
    for (func::FuncOp func : planned)
      plannedSet.insert(func);
    for (func::FuncOp func : planned)
      typeResults(func, users, plannedSet);
  }
  for (func::FuncOp func : planned)
    if (failed(castYieldsToDefaultMemorySpace(func)))
      return signalPassFailure();
  if (failed(createHydrateFunction(module)) ||
      failed(createAllocFunctions(module)))
    return signalPassFailure();
  supplyArenas(module);
  for (auto func : module.getOps<func::FuncOp>())
    stripPlanAttributes(func);

  if (failed(bufferize(module)) || failed(checkNoAllocations()))
    return signalPassFailure();
}
