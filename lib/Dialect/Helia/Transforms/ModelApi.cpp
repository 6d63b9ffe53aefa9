//===- ModelApi.cpp - init, run and bind as LLVM-dialect functions --------===//
//
// The C API of docs/Firmware.md, generated over the lowered entry point:
// `<prefix>_model_run` builds the memref descriptors of the entry point
// from the context's pointers, calls it, and stores the results' addresses;
// `<prefix>_model_init_plan` checks the plan hash and the bound arenas,
// hydrates, and points each input at its slot; `<prefix>_bind_arena`
// records a caller's buffer for an arena the entry points take as an
// argument. Every check returns a status code: nothing traps.
//
//===----------------------------------------------------------------------===//

#include "ModelApi.h"

#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::helia;

namespace {
class ApiEmitter {
public:
  ApiEmitter(ModuleOp module, const FirmwareLayout &layout)
      : module(module), layout(layout), builder(module.getContext()),
        loc(module.getLoc()), ptrType(LLVM::LLVMPointerType::get(
                                  module.getContext())),
        i32(IntegerType::get(module.getContext(), 32)) {}

  LogicalResult emit();

private:
  LogicalResult checkFree(StringRef name);
  LLVM::LLVMFuncOp createFunction(StringRef name, ArrayRef<Type> params);
  Value constant(Type type, int64_t value);
  /// Returns `status` when `condition` holds; continues after it otherwise.
  void returnIf(Value condition, FirmwareStatus status);
  void returnStatus(FirmwareStatus status);
  /// The address of the memory of region `region` plus `offset` bytes.
  Value regionAddress(unsigned region, uint64_t offset);
  Value boundSlot(unsigned argIndex);
  Value contextField(Value context, unsigned field);
  /// Appends the expanded descriptor of a contiguous memref of `shape` at
  /// `pointer` to `args`, typed as `callee`'s parameters from `args.size()`
  /// (checkEntrySignature checked them).
  void appendDescriptor(SmallVectorImpl<Value> &args, LLVM::LLVMFuncOp callee,
                        Value pointer, ArrayRef<int64_t> shape);
  void appendCallerArenas(SmallVectorImpl<Value> &args,
                          LLVM::LLVMFuncOp callee);
  LogicalResult emitBind();
  LogicalResult emitInit();
  LogicalResult emitRun(LLVM::LLVMFuncOp entry);

  ModuleOp module;
  const FirmwareLayout &layout;
  OpBuilder builder;
  Location loc;
  Type ptrType, i32;
  LLVM::LLVMStructType contextType;
  LLVM::LLVMArrayType boundType;
  std::string boundName;
  unsigned numCaller = 0;
};
} // namespace

LogicalResult ApiEmitter::checkFree(StringRef name) {
  if (module.lookupSymbol(name))
    return module.emitError("the module already has a symbol @")
           << name << "; the model API needs the name (choose another "
           << "prefix=)";
  return success();
}

LLVM::LLVMFuncOp ApiEmitter::createFunction(StringRef name,
                                            ArrayRef<Type> params) {
  builder.setInsertionPointToEnd(module.getBody());
  auto func = LLVM::LLVMFuncOp::create(
      builder, loc, name, LLVM::LLVMFunctionType::get(i32, params));
  builder.setInsertionPointToStart(func.addEntryBlock(builder));
  return func;
}

Value ApiEmitter::constant(Type type, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, type,
                                  builder.getIntegerAttr(type, value));
}

void ApiEmitter::returnStatus(FirmwareStatus status) {
  LLVM::ReturnOp::create(builder, loc,
                         constant(i32, static_cast<int32_t>(status)));
}

void ApiEmitter::returnIf(Value condition, FirmwareStatus status) {
  Region *region = builder.getInsertionBlock()->getParent();
  Block *current = builder.getInsertionBlock();
  Block *fail = builder.createBlock(region);
  returnStatus(status);
  Block *next = builder.createBlock(region);
  builder.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(builder, loc, condition, fail, next);
  builder.setInsertionPointToStart(next);
}

Value ApiEmitter::boundSlot(unsigned argIndex) {
  Value table = LLVM::AddressOfOp::create(builder, loc, ptrType, boundName);
  return LLVM::GEPOp::create(
      builder, loc, ptrType, boundType, table,
      ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(argIndex)});
}

Value ApiEmitter::regionAddress(unsigned region, uint64_t offset) {
  const FirmwareRegion &r = layout.regions[region];
  Value base =
      r.global >= 0
          ? Value(LLVM::AddressOfOp::create(builder, loc, ptrType,
                                            layout.arenas[r.global].symbol))
          : Value(LLVM::LoadOp::create(builder, loc, ptrType,
                                       boundSlot(r.argIndex)));
  if (offset == 0)
    return base;
  return LLVM::GEPOp::create(
      builder, loc, ptrType, builder.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
}

Value ApiEmitter::contextField(Value context, unsigned field) {
  return LLVM::GEPOp::create(
      builder, loc, ptrType, contextType, context,
      ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(field)});
}

void ApiEmitter::appendDescriptor(SmallVectorImpl<Value> &args,
                                  LLVM::LLVMFuncOp callee, Value pointer,
                                  ArrayRef<int64_t> shape) {
  Type index = callee.getFunctionType().getParams()[args.size() + 2];
  args.push_back(pointer);
  args.push_back(pointer);
  args.push_back(constant(index, 0));
  for (int64_t dim : shape)
    args.push_back(constant(index, dim));
  int64_t stride = 1;
  SmallVector<Value> strides;
  for (int64_t dim : llvm::reverse(shape)) {
    strides.push_back(constant(index, stride));
    stride *= dim;
  }
  llvm::append_range(args, llvm::reverse(strides));
}

void ApiEmitter::appendCallerArenas(SmallVectorImpl<Value> &args,
                                    LLVM::LLVMFuncOp callee) {
  for (const FirmwareRegion &region : layout.regions)
    if (region.global < 0)
      appendDescriptor(
          args, callee,
          LLVM::LoadOp::create(builder, loc, ptrType, boundSlot(region.argIndex)),
          {static_cast<int64_t>(region.size)});
}

/// `<prefix>_bind_arena(region, buffer, bytes)`.
LogicalResult ApiEmitter::emitBind() {
  LLVM::LLVMFuncOp func =
      createFunction(layout.prefix + "_bind_arena", {i32, ptrType, i32});
  Value region = func.getArgument(0), buffer = func.getArgument(1),
        bytes = func.getArgument(2);
  for (auto [index, r] : llvm::enumerate(layout.regions)) {
    Region *body = &func.getBody();
    Block *current = builder.getInsertionBlock();
    Block *match = builder.createBlock(body);
    if (r.global >= 0) {
      returnStatus(FirmwareStatus::NotBindable);
    } else {
      Value small = LLVM::ICmpOp::create(
          builder, loc, LLVM::ICmpPredicate::ult, bytes,
          constant(i32, static_cast<int64_t>(r.size)));
      returnIf(small, FirmwareStatus::ArenaTooSmall);
      Type intPtr = builder.getI64Type();
      Value address = LLVM::PtrToIntOp::create(builder, loc, intPtr, buffer);
      Value low = LLVM::AndOp::create(
          builder, loc, address,
          constant(intPtr, static_cast<int64_t>(r.alignment) - 1));
      Value misaligned = LLVM::ICmpOp::create(
          builder, loc, LLVM::ICmpPredicate::ne, low, constant(intPtr, 0));
      returnIf(misaligned, FirmwareStatus::ArenaMisaligned);
      LLVM::StoreOp::create(builder, loc, buffer, boundSlot(r.argIndex));
      returnStatus(FirmwareStatus::Ok);
    }
    Block *next = builder.createBlock(body);
    builder.setInsertionPointToEnd(current);
    Value is = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                    region,
                                    constant(i32, static_cast<int64_t>(index)));
    LLVM::CondBrOp::create(builder, loc, is, match, next);
    builder.setInsertionPointToStart(next);
  }
  returnStatus(FirmwareStatus::UnknownRegion);
  return success();
}

/// `<prefix>_model_init_plan(ctx, plan_hash)`.
LogicalResult ApiEmitter::emitInit() {
  LLVM::LLVMFuncOp func =
      createFunction(layout.prefix + "_model_init_plan", {ptrType, i32});
  Value context = func.getArgument(0);
  Value hash = constant(i32, static_cast<int64_t>(layout.planHash));
  returnIf(LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne,
                                func.getArgument(1), hash),
           FirmwareStatus::PlanMismatch);
  for (const FirmwareRegion &region : layout.regions)
    if (region.global < 0) {
      Value bound = LLVM::LoadOp::create(builder, loc, ptrType,
                                         boundSlot(region.argIndex));
      Value null = LLVM::ZeroOp::create(builder, loc, ptrType);
      returnIf(LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                    bound, null),
               FirmwareStatus::UnboundArena);
    }
  // Staged constants: hydrated here, once per init. A model that hydrates
  // on its first call (a `<prefix>_hydrated` flag) does it itself.
  if (auto hydrate = module.lookupSymbol<LLVM::LLVMFuncOp>(
          getHydrateFunctionName(layout.prefix));
      hydrate && !layout.hydratesItself) {
    SmallVector<Value> args;
    if (hydrate.getNumArguments() > 0) {
      if (failed(checkEntrySignature(hydrate, {}, {}, numCaller, {}, {})))
        return failure();
      appendCallerArenas(args, hydrate);
    }
    LLVM::CallOp::create(builder, loc, hydrate, args);
  }
  LLVM::StoreOp::create(builder, loc, hash, contextField(context, 0));
  LLVM::StoreOp::create(builder, loc,
                        constant(i32, static_cast<int64_t>(kFirmwareReadyState)),
                        contextField(context, 1));
  unsigned field = 2;
  for (const FirmwareTensor &input : layout.model->inputs) {
    Type type = contextType.getBody()[field];
    Value value = input.slotRegion
                      ? regionAddress(*input.slotRegion, input.slotOffset)
                      : Value(LLVM::ZeroOp::create(builder, loc, type));
    LLVM::StoreOp::create(builder, loc, value, contextField(context, field++));
  }
  for (size_t i = 0; i < layout.model->outputs.size(); ++i) {
    Type type = contextType.getBody()[field];
    LLVM::StoreOp::create(builder, loc,
                          LLVM::ZeroOp::create(builder, loc, type),
                          contextField(context, field++));
  }
  returnStatus(FirmwareStatus::Ok);
  return success();
}

/// `<prefix>_model_run(ctx)`.
LogicalResult ApiEmitter::emitRun(LLVM::LLVMFuncOp entry) {
  LLVM::LLVMFuncOp func = createFunction(layout.prefix + "_model_run", {ptrType});
  Value context = func.getArgument(0);
  Value hash = LLVM::LoadOp::create(builder, loc, i32, contextField(context, 0));
  Value state = LLVM::LoadOp::create(builder, loc, i32, contextField(context, 1));
  Value stale = LLVM::ICmpOp::create(
      builder, loc, LLVM::ICmpPredicate::ne, hash,
      constant(i32, static_cast<int64_t>(layout.planHash)));
  Value notReady = LLVM::ICmpOp::create(
      builder, loc, LLVM::ICmpPredicate::ne, state,
      constant(i32, static_cast<int64_t>(kFirmwareReadyState)));
  returnIf(LLVM::OrOp::create(builder, loc, stale, notReady),
           FirmwareStatus::NotInitialized);
  SmallVector<Value> args;
  unsigned field = 2;
  for (const FirmwareTensor &input : layout.model->inputs) {
    Type type = contextType.getBody()[field];
    Value value =
        LLVM::LoadOp::create(builder, loc, type, contextField(context, field++));
    if (!input.isMemRef) {
      args.push_back(value);
      continue;
    }
    Value null = LLVM::ZeroOp::create(builder, loc, ptrType);
    returnIf(LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                  value, null),
             FirmwareStatus::NoInput);
    appendDescriptor(args, entry, value, input.shape);
  }
  appendCallerArenas(args, entry);
  auto call = LLVM::CallOp::create(builder, loc, entry, args);
  size_t numOutputs = layout.model->outputs.size();
  for (auto [i, output] : llvm::enumerate(layout.model->outputs)) {
    Value value = call.getResult();
    if (numOutputs > 1)
      value = LLVM::ExtractValueOp::create(builder, loc, value,
                                           ArrayRef<int64_t>{(int64_t)i});
    if (output.isMemRef) {
      Value aligned = LLVM::ExtractValueOp::create(builder, loc, value,
                                                   ArrayRef<int64_t>{1});
      Value offset = LLVM::ExtractValueOp::create(builder, loc, value,
                                                  ArrayRef<int64_t>{2});
      Type element = output.elementType.isIndex()
                         ? offset.getType()
                         : output.elementType;
      value = LLVM::GEPOp::create(builder, loc, ptrType, element, aligned,
                                  ValueRange{offset});
    }
    LLVM::StoreOp::create(builder, loc, value, contextField(context, field++));
  }
  returnStatus(FirmwareStatus::Ok);
  return success();
}

LogicalResult ApiEmitter::emit() {
  MLIRContext *ctx = module.getContext();
  std::string hex;
  llvm::raw_string_ostream(hex) << llvm::format_hex_no_prefix(layout.planHash, 8);
  for (std::string name :
       {layout.prefix + "_plan_hash", layout.prefix + "_plan_" + hex}) {
    if (failed(checkFree(name)))
      return failure();
    builder.setInsertionPointToEnd(module.getBody());
    LLVM::GlobalOp::create(builder, loc, i32, /*isConstant=*/true,
                           LLVM::Linkage::External, name,
                           builder.getI32IntegerAttr(layout.planHash),
                           /*alignment=*/4);
  }
  if (!layout.model)
    return success();
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(layout.model->entry);
  if (!entry || entry.isExternal())
    return module.emitError("the model's entry point @")
           << layout.model->entry << " is not defined in the module";
  for (StringRef suffix : {"_bind_arena", "_model_init_plan", "_model_run",
                           "_bound_arenas"})
    if (failed(checkFree(layout.prefix + suffix.str())))
      return failure();

  // The context: plan hash, state, then one field per input and output (a
  // pointer, or the value of a scalar), as the header declares it.
  SmallVector<Type> fields = {i32, i32};
  auto fieldType = [&](const FirmwareTensor &tensor) -> Type {
    if (tensor.isMemRef)
      return ptrType;
    if (tensor.elementType.isIndex())
      return IntegerType::get(ctx, 64);
    return tensor.elementType;
  };
  for (const FirmwareTensor &input : layout.model->inputs)
    fields.push_back(fieldType(input));
  for (const FirmwareTensor &output : layout.model->outputs)
    fields.push_back(fieldType(output));
  contextType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  numCaller = llvm::count_if(layout.regions, [](const FirmwareRegion &r) {
    return r.global < 0;
  });
  size_t numInputs = layout.model->inputs.size();
  if (failed(checkEntrySignature(
          entry, layout.model->inputs,
          ArrayRef(fields).slice(2, numInputs), numCaller,
          layout.model->outputs, ArrayRef(fields).drop_front(2 + numInputs))))
    return failure();
  boundName = layout.prefix + "_bound_arenas";
  boundType = LLVM::LLVMArrayType::get(ptrType, std::max(numCaller, 1u));
  builder.setInsertionPointToEnd(module.getBody());
  auto bound = LLVM::GlobalOp::create(builder, loc, boundType,
                                      /*isConstant=*/false,
                                      LLVM::Linkage::Internal, boundName,
                                      Attribute(), /*alignment=*/4);
  builder.setInsertionPointToStart(
      builder.createBlock(&bound.getInitializerRegion()));
  LLVM::ReturnOp::create(builder, loc,
                         Value(LLVM::ZeroOp::create(builder, loc, boundType)));

  return success(succeeded(emitBind()) && succeeded(emitInit()) &&
                 succeeded(emitRun(entry)));
}

LogicalResult mlir::helia::emitModelApi(ModuleOp module,
                                        const FirmwareLayout &layout) {
  return ApiEmitter(module, layout).emit();
}
