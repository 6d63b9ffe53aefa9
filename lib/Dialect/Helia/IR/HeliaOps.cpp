//===- HeliaOps.cpp - helia operations ------------------------------------===//

#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::helia;

//===----------------------------------------------------------------------===//
// ArenaOp
//===----------------------------------------------------------------------===//

/// The arena's role as a bare keyword: `scratch`, `persistent`, `constant`.
static ParseResult parseArenaRole(OpAsmParser &parser, ArenaRoleAttr &role) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ArenaRole> value = symbolizeArenaRole(keyword);
  if (!value)
    return parser.emitError(loc, "expected an arena role (scratch, "
                                 "persistent or constant), got '")
           << keyword << "'";
  role = ArenaRoleAttr::get(parser.getContext(), *value);
  return success();
}

static void printArenaRole(OpAsmPrinter &printer, ArenaOp, ArenaRoleAttr role) {
  printer << stringifyArenaRole(role.getValue());
}

LogicalResult ArenaOp::verify() {
  if (getMemory().empty())
    return emitOpError("needs a non-empty memory");
  if (getRole() != ArenaRole::Constant &&
      getSourceMemoryOrMemory() != getMemory())
    return emitOpError("only constant arenas may have a source_memory ('")
           << *getSourceMemory() << "') other than their memory ('"
           << getMemory() << "')";
  if (getStream() && getRole() != ArenaRole::Scratch)
    return emitOpError("a stream pool must have role scratch");
  return success();
}

ArenaOp mlir::helia::lookupArena(SymbolTableCollection &symbols,
                                 Operation *from, FlatSymbolRefAttr arena) {
  // Arenas live in the module: an unregistered op with regions between
  // `from` and the module counts as a symbol table of its own, so do not
  // look for the nearest one.
  auto module = isa<ModuleOp>(from) ? cast<ModuleOp>(from)
                                    : from->getParentOfType<ModuleOp>();
  if (!module || !arena)
    return {};
  return symbols.lookupSymbolIn<ArenaOp>(module, arena.getAttr());
}

/// Checks a binding against its arena: the arena exists, the tensor of
/// `type` lies inside it, and the offset honours the arena's alignment; the
/// same for its stream slot.
static LogicalResult verifyBinding(SymbolTableCollection &symbols,
                                   Operation *anchor, BindingAttr binding,
                                   Type type) {
  ArenaOp arena = lookupArena(symbols, anchor, binding.getArena());
  if (!arena)
    return anchor->emitOpError("binding names arena ")
           << binding.getArena() << " which is not a helia.arena";
  uint64_t align = arena.getAlignment();
  if (binding.getOffset() % align != 0)
    return anchor->emitOpError("binding offset ")
           << binding.getOffset() << " in arena " << binding.getArena()
           << " is not a multiple of its alignment " << align;
  // A tensor of a sized type lies inside its arena, and its stream slot (if
  // any) inside the stream pool. A hand-written binding may sit on a type of
  // more than 2^64 bytes (nullopt), which overruns every arena.
  auto shaped = dyn_cast<ShapedType>(type);
  bool sized = shaped && shaped.hasStaticShape() &&
               getElementByteSize(shaped.getElementType());
  std::optional<uint64_t> bytes =
      sized ? getTensorByteSize(shaped) : std::nullopt;
  auto checkBounds = [&](ArenaOp target, uint64_t offset) -> LogicalResult {
    if (!sized)
      return success();
    uint64_t size = target.getSize();
    if (bytes && *bytes <= size && offset <= size - *bytes)
      return success();
    InFlightDiagnostic diag = anchor->emitOpError("tensor of ");
    if (bytes)
      diag << *bytes;
    else
      diag << "more than 2^64";
    return diag << " bytes at offset " << offset << " overruns arena @"
                << target.getSymName() << " of " << target.getSize()
                << " bytes";
  };
  if (failed(checkBounds(arena, binding.getOffset())))
    return failure();
  FlatSymbolRefAttr streamArena = binding.getStreamArena();
  if (!streamArena)
    return success();
  if (arena.getRole() != ArenaRole::Constant)
    return anchor->emitOpError("binding streams a tensor of ")
           << stringifyArenaRole(arena.getRole()) << " arena "
           << binding.getArena() << "; only constants are streamed";
  ArenaOp pool = lookupArena(symbols, anchor, streamArena);
  if (!pool || !pool.getStream())
    return anchor->emitOpError("binding streams into ")
           << streamArena << " which is not a helia.arena marked stream";
  uint64_t poolAlign = pool.getAlignment();
  if (*binding.getStreamOffset() % poolAlign != 0)
    return anchor->emitOpError("stream offset ")
           << *binding.getStreamOffset() << " in arena " << streamArena
           << " is not a multiple of its alignment " << poolAlign;
  return checkBounds(pool, *binding.getStreamOffset());
}

LogicalResult ArenaOp::verifySymbolUses(SymbolTableCollection &symbols) {
  // The first arena of the module checks every binding of the module, in
  // one walk that shares `symbols`' table (the dialect's attribute verifier
  // checks only their shape, and that the module declares arenas at all).
  auto module = dyn_cast_or_null<ModuleOp>((*this)->getParentOp());
  if (!module || *module.getOps<ArenaOp>().begin() != *this)
    return success();
  StringAttr name = StringAttr::get(getContext(),
                                    HeliaDialect::BindingAttrHelper::getNameStr());
  WalkResult result = module->walk([&](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      if (func.isExternal())
        return WalkResult::advance();
      for (BlockArgument arg : func.getArguments())
        if (auto binding = func.getArgAttrOfType<BindingAttr>(
                arg.getArgNumber(), name))
          if (failed(verifyBinding(symbols, op, binding, arg.getType())))
            return WalkResult::interrupt();
      return WalkResult::advance();
    }
    auto list = op->getAttrOfType<ArrayAttr>(name);
    if (!list || list.size() != op->getNumResults())
      return WalkResult::advance();
    for (auto [attr, result] : llvm::zip(list, op->getResults()))
      if (auto binding = dyn_cast<BindingAttr>(attr))
        if (failed(verifyBinding(symbols, op, binding, result.getType())))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

int64_t mlir::helia::getArenaBytesIn(ModuleOp module, StringRef memory) {
  // Saturating: hand-written arenas of up to 2^63 - 1 bytes each must not
  // wrap the sum into a number that fits.
  uint64_t used = 0;
  for (ArenaOp arena : module.getOps<ArenaOp>()) {
    if (arena.getMemory() == memory)
      used = llvm::SaturatingAdd(used, arena.getSize());
    if (arena.isStaged() && arena.getSourceMemoryOrMemory() == memory)
      used = llvm::SaturatingAdd(used, arena.getSize());
  }
  return static_cast<int64_t>(
      std::min<uint64_t>(used, std::numeric_limits<int64_t>::max()));
}

//===----------------------------------------------------------------------===//
// HydrateOp / StreamOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyCopy(Operation *op, Value source, Value target) {
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  std::optional<uint64_t> sourceBytes = getTensorByteSize(sourceType);
  std::optional<uint64_t> targetBytes = getTensorByteSize(targetType);
  for (MemRefType type : {sourceType, targetType})
    if (!getElementByteSize(type.getElementType()))
      return op->emitOpError("copies only memrefs of integer, float, index "
                             "or complex elements, not ")
             << type;
  if (!sourceBytes || !targetBytes)
    return op->emitOpError("copies memrefs of fewer than 2^64 bytes");
  if (*sourceBytes != *targetBytes)
    return op->emitOpError("source holds ")
           << *sourceBytes << " bytes but target holds " << *targetBytes;
  return success();
}

LogicalResult HydrateOp::verify() {
  return verifyCopy(*this, getSource(), getTarget());
}

LogicalResult StreamOp::verify() {
  return verifyCopy(*this, getSource(), getTarget());
}

#define GET_OP_CLASSES
#include "helia/Dialect/Helia/IR/HeliaOps.cpp.inc"
