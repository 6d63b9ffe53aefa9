//===- AssignSections.cpp - arena globals in their memories' sections -----===//
//
// The plan's placement made real in the object: after the conversion to the
// LLVM dialect, every arena global gets its memory's section, a public
// prefixed name and its alignment; constant arenas become externally
// initialised so that the optimizer keeps their bytes and the copies that
// read them. The pass also adds the arena table, the weak hooks, and writes
// the linker-script fragment and the C header (docs/Firmware.md).
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

#include <map>

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAASSIGNSECTIONS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

/// One arena global of the module, as the pass places it.
struct ArenaGlobal {
  LLVM::GlobalOp op;
  std::string arena;   // the global's name before the pass
  std::string name;    // <prefix>_arena_<memory>_<arena>
  std::string memory;
  std::string section;
  bool constant = false;
  uint64_t size = 0;
  uint64_t alignment = 1;
};

struct HeliaAssignSections
    : mlir::helia::impl::HeliaAssignSectionsBase<HeliaAssignSections> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult readRecord(ModuleOp module);
  LogicalResult placeArenas(ModuleOp module);
  LogicalResult createArenaTable(ModuleOp module);
  LogicalResult createCopyHook(ModuleOp module);
  LogicalResult writeLinkerFragment(raw_ostream &os);
  LogicalResult writeHeader(ModuleOp module, raw_ostream &os);
  LogicalResult write(StringRef path,
                      function_ref<LogicalResult(raw_ostream &)> writer);

  std::string prefix;
  PlatformAttr platformAttr;
  ArrayAttr arenaRecords, entryRecords;
  SmallVector<ArenaGlobal> globals;
  unsigned numPlanCopies = 0;
};

} // namespace

/// Returns `name` upper-cased with every character that is not a letter or
/// a digit replaced by '_' (a C macro or a linker region name).
static std::string toIdentifier(StringRef name, bool upper) {
  std::string result;
  for (char c : name) {
    if (!llvm::isAlnum(c))
      c = '_';
    result.push_back(upper ? llvm::toUpper(c) : c);
  }
  return result;
}

static std::string regionName(StringRef memory) {
  return toIdentifier(memory, /*upper=*/true);
}

LogicalResult HeliaAssignSections::readRecord(ModuleOp module) {
  auto record =
      module->getAttrOfType<DictionaryAttr>(HeliaDialect::getFirmwareAttrName());
  if (!record)
    return module.emitError("module has no '")
           << HeliaDialect::getFirmwareAttrName()
           << "' record of its arenas; lower the plan with "
              "helia-lower-to-memref and helia-lower-copies "
              "(erase-memory-spaces=true) before the conversion to LLVM";
  auto prefixAttr = record.getAs<StringAttr>("prefix");
  auto platformText = record.getAs<StringAttr>("platform");
  arenaRecords = record.getAs<ArrayAttr>("arenas");
  entryRecords = record.getAs<ArrayAttr>("entries");
  if (!prefixAttr || !platformText || !arenaRecords)
    return module.emitError("'")
           << HeliaDialect::getFirmwareAttrName()
           << "' needs 'prefix', 'platform' and 'arenas'; lower the plan "
              "with helia-lower-copies (erase-memory-spaces=true)";
  prefix = prefixAttr.str();
  MLIRContext *ctx = module.getContext();
  if (!platform.empty()) {
    platformAttr = getPlatformPreset(ctx, platform);
    if (!platformAttr) {
      std::string names;
      llvm::raw_string_ostream os(names);
      llvm::interleaveComma(getPlatformPresetNames(), os);
      return module.emitError("unknown platform preset '")
             << platform << "'; known presets: " << names;
    }
    return success();
  }
  platformAttr = getPlatformPreset(ctx, platformText.getValue());
  if (!platformAttr) {
    // The parser's own diagnostic would point into the string: report the
    // record instead.
    ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
    platformAttr = dyn_cast_or_null<PlatformAttr>(
        parseAttribute(platformText.getValue(), ctx));
  }
  if (!platformAttr)
    return module.emitError("recorded platform '")
           << platformText.getValue()
           << "' is neither a preset nor a #helia.platform; give "
              "platform=<preset>";
  return success();
}

LogicalResult HeliaAssignSections::placeArenas(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  SymbolTable symbols(module);
  for (auto record : arenaRecords.getAsRange<DictionaryAttr>()) {
    auto globalName = record.getAs<StringAttr>("global");
    auto memoryName = record.getAs<StringAttr>("memory");
    if (!globalName || !memoryName)
      return module.emitError("malformed arena record ")
             << record << "; expected {global = \"...\", memory = \"...\"}";
    auto op = symbols.lookup<LLVM::GlobalOp>(globalName);
    // An arena global that a cleanup after the lowering removed (nothing
    // read it) takes no memory and needs no section.
    if (!op)
      continue;
    MemoryDescAttr memory = platformAttr.lookupMemory(memoryName);
    if (!memory)
      return op.emitError("arena global @")
             << globalName.getValue() << " lives in memory '"
             << memoryName.getValue() << "', which platform '"
             << platformAttr.getName() << "' does not have (it has: "
             << platformAttr.getMemoryNamesForDiagnostic()
             << "); plan and place with the same platform";
    auto array = dyn_cast<LLVM::LLVMArrayType>(op.getGlobalType());
    if (!array || !array.getElementType().isInteger(8))
      return op.emitError("arena global @")
             << globalName.getValue() << " has type " << op.getGlobalType()
             << "; expected an array of i8 as helia-lower-to-memref "
                "creates it";
    ArenaGlobal arena;
    arena.op = op;
    arena.arena = globalName.str();
    arena.memory = memoryName.str();
    arena.name = prefix + "_arena_" + arena.memory + "_" + arena.arena;
    arena.constant = op.getConstant();
    arena.size = array.getNumElements();
    arena.alignment =
        std::max<uint64_t>(op.getAlignment().value_or(1),
                           platformAttr.getAlignment());
    if (!memory.getSection().empty())
      arena.section = memory.getSection().str();
    else
      arena.section = (arena.constant ? ".rodata.helia." : ".bss.helia.") +
                      arena.memory + "." + arena.arena;
    if (symbols.lookup(arena.name))
      return op.emitError("cannot rename arena global @")
             << globalName.getValue() << " to @" << arena.name
             << ": the module already has that symbol; choose another "
                "prefix=";
    globals.push_back(std::move(arena));
  }
  for (ArenaGlobal &arena : globals) {
    StringAttr newName = StringAttr::get(ctx, arena.name);
    if (failed(symbols.replaceAllSymbolUses(arena.op, newName, module)))
      return arena.op.emitError("cannot rename the uses of @") << arena.arena;
    symbols.setSymbolName(arena.op, newName);
    arena.op.setLinkage(LLVM::Linkage::External);
    arena.op.setVisibility(SymbolTable::Visibility::Public);
    arena.op.setSection(arena.section);
    arena.op.setAlignment(arena.alignment);
    if (arena.constant)
      arena.op.setExternallyInitialized(true);
  }
  return success();
}

/// `<prefix>_arena_buffers`: {address, size} of every arena by region id.
LogicalResult HeliaAssignSections::createArenaTable(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  std::string name = prefix + "_arena_buffers";
  if (module.lookupSymbol(name))
    return module.emitError("the module already has a symbol @")
           << name << "; choose another prefix=";
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto entryType = LLVM::LLVMStructType::getLiteral(ctx, {ptrType, i32});
  auto tableType = LLVM::LLVMArrayType::get(entryType, globals.size());
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto table = LLVM::GlobalOp::create(
      builder, loc, tableType, /*isConstant=*/true, LLVM::Linkage::External,
      name, Attribute(), /*alignment=*/4);
  Block *body = builder.createBlock(&table.getInitializerRegion());
  builder.setInsertionPointToStart(body);
  Value value = LLVM::UndefOp::create(builder, loc, tableType);
  for (auto [index, arena] : llvm::enumerate(globals)) {
    Value address = LLVM::AddressOfOp::create(builder, loc, ptrType,
                                              arena.name);
    Value size = LLVM::ConstantOp::create(
        builder, loc, i32, builder.getI32IntegerAttr(arena.size));
    int64_t i = static_cast<int64_t>(index);
    value = LLVM::InsertValueOp::create(builder, loc, value, address,
                                        ArrayRef<int64_t>{i, 0});
    value = LLVM::InsertValueOp::create(builder, loc, value, size,
                                        ArrayRef<int64_t>{i, 1});
  }
  LLVM::ReturnOp::create(builder, loc, value);
  return success();
}

/// True when `loc` (or a location it wraps) is helia-lower-copies' name for
/// a hydrate or stream copy.
static bool isPlanCopyLoc(Location loc) {
  bool found = false;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner))
      if (name.getName() == kPlanCopyLocName)
        found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Every hydrate and stream copy becomes a call of the weak
/// `<prefix>_copy(dst, src, bytes)`, whose default body is a memcpy: the
/// optimizer cannot inline or delete a call of a replaceable function, and
/// a firmware may replace it (e.g. with a DMA transfer).
LogicalResult HeliaAssignSections::createCopyHook(ModuleOp module) {
  SmallVector<LLVM::MemcpyOp> copies;
  module.walk([&](LLVM::MemcpyOp copy) {
    if (isPlanCopyLoc(copy.getLoc()))
      copies.push_back(copy);
  });
  if (copies.empty())
    return success();
  MLIRContext *ctx = module.getContext();
  std::string name = prefix + "_copy";
  Type lengthType = copies.front().getLen().getType();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto hookType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx), {ptrType, ptrType, lengthType});
  if (module.lookupSymbol(name))
    return module.emitError("the module already has a symbol @")
           << name << "; choose another prefix=";
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto hook = LLVM::LLVMFuncOp::create(builder, loc, name, hookType,
                                       LLVM::Linkage::Weak);
  Block *entry = hook.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  LLVM::MemcpyOp::create(builder, loc, entry->getArgument(0),
                         entry->getArgument(1), entry->getArgument(2),
                         /*isVolatile=*/false);
  LLVM::ReturnOp::create(builder, loc, ValueRange());
  for (LLVM::MemcpyOp copy : copies) {
    if (copy.getLen().getType() != lengthType)
      return copy.emitError("plan copies of different length types; lower "
                            "the module with one index bitwidth");
    builder.setInsertionPoint(copy);
    LLVM::CallOp::create(builder, copy.getLoc(), hook,
                         ValueRange{copy.getDst(), copy.getSrc(),
                                    copy.getLen()});
    copy.erase();
    ++numPlanCopies;
  }
  return success();
}

LogicalResult HeliaAssignSections::writeLinkerFragment(raw_ostream &os) {
  os << "/* helia plan of '" << prefix << "' for platform '"
     << platformAttr.getName()
     << "': the board's memories and the arenas' output sections.\n"
        "   Generated by helia-assign-sections; do not edit. */\n\n";
  os << "MEMORY\n{\n";
  for (MemoryDescAttr memory : platformAttr.getMemoryList()) {
    std::string flags = "r";
    if (memory.getWritable())
      flags += "w";
    if (memory.getExecutable())
      flags += "x";
    os << llvm::format("  %-12s (%s) : ORIGIN = 0x%08llx, LENGTH = 0x%08llx\n",
                       regionName(memory.getName()).c_str(), flags.c_str(),
                       (unsigned long long)memory.getBase(),
                       (unsigned long long)memory.getUsableSize());
  }
  os << "}\n\nSECTIONS\n{\n";
  for (MemoryDescAttr memory : platformAttr.getMemoryList()) {
    StringRef name = memory.getName();
    SmallVector<const ArenaGlobal *> constants, writables;
    uint64_t alignment = platformAttr.getAlignment();
    for (const ArenaGlobal &arena : globals) {
      if (arena.memory != name)
        continue;
      (arena.constant ? constants : writables).push_back(&arena);
      alignment = std::max(alignment, arena.alignment);
    }
    if (constants.empty() && writables.empty())
      continue;
    std::string id = toIdentifier(name, /*upper=*/false);
    std::string region = regionName(name);
    // The platform names the memory's section: every arena of the memory
    // is in it (and perhaps the application's data too), one output section.
    if (!memory.getSection().empty()) {
      os << "  .helia." << id << " : ALIGN(" << alignment << ")\n  {\n"
         << "    __helia_" << id << "_start = .;\n"
         << "    KEEP(*(" << memory.getSection() << "))\n"
         << "    __helia_" << id << "_end = .;\n"
         << "  } > " << region << "\n";
      continue;
    }
    // Constants first: initialised bytes in the image. Writable arenas
    // after them: NOLOAD (the start-up code may zero them between the
    // _bss_start and _bss_end symbols).
    if (!constants.empty()) {
      os << "  .helia." << id << ".rodata : ALIGN(" << alignment
         << ")\n  {\n    __helia_" << id << "_start = .;\n";
      for (const ArenaGlobal *arena : constants)
        os << "    KEEP(*(" << arena->section << "))\n";
      if (writables.empty())
        os << "    __helia_" << id << "_end = .;\n";
      os << "  } > " << region << "\n";
    }
    if (!writables.empty()) {
      os << "  .helia." << id << ".bss (NOLOAD) : ALIGN(" << alignment
         << ")\n  {\n";
      if (constants.empty())
        os << "    __helia_" << id << "_start = .;\n";
      os << "    __helia_" << id << "_bss_start = .;\n";
      for (const ArenaGlobal *arena : writables)
        os << "    KEEP(*(" << arena->section << "))\n";
      os << "    __helia_" << id << "_bss_end = .;\n"
         << "    __helia_" << id << "_end = .;\n"
         << "  } > " << region << "\n";
    }
  }
  os << "}\n";
  return success();
}

namespace {
/// The C spelling of the memref descriptors and scalars of the entry points.
struct HeaderTypes {
  std::string prefix;
  std::map<std::string, std::string> descriptors; // name -> definition

  FailureOr<std::string> scalar(Type type) {
    if (type.isF32())
      return std::string("float");
    if (type.isF64())
      return std::string("double");
    if (type.isIndex())
      return std::string("int64_t");
    if (auto integer = dyn_cast<IntegerType>(type)) {
      switch (integer.getWidth()) {
      case 1:
      case 8:
        return std::string(integer.isUnsigned() ? "uint8_t" : "int8_t");
      case 16:
        return std::string(integer.isUnsigned() ? "uint16_t" : "int16_t");
      case 32:
        return std::string(integer.isUnsigned() ? "uint32_t" : "int32_t");
      case 64:
        return std::string(integer.isUnsigned() ? "uint64_t" : "int64_t");
      default:
        break;
      }
    }
    return failure();
  }

  /// The descriptor struct of `type` (defined once), or a scalar.
  FailureOr<std::string> get(Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return scalar(type);
    FailureOr<std::string> element = scalar(memref.getElementType());
    if (failed(element))
      return failure();
    std::string elementId;
    llvm::raw_string_ostream ids(elementId);
    memref.getElementType().print(ids);
    std::string name = prefix + "_memref_" +
                       std::to_string(memref.getRank()) + "d_" +
                       toIdentifier(elementId, /*upper=*/false) + "_t";
    if (!descriptors.count(name)) {
      std::string def;
      llvm::raw_string_ostream os(def);
      os << "/* memref<";
      for (int64_t i = 0; i < memref.getRank(); ++i)
        os << "?x";
      os << elementId << "> as the MLIR C interface passes it. */\n";
      os << "typedef struct {\n  " << *element << " *allocated;\n  "
         << *element << " *aligned;\n  int64_t offset;\n";
      if (memref.getRank() > 0)
        os << "  int64_t sizes[" << memref.getRank() << "];\n  int64_t strides["
           << memref.getRank() << "];\n";
      os << "} " << name << ";\n";
      descriptors[name] = def;
    }
    return name + " *";
  }
};
} // namespace

LogicalResult HeliaAssignSections::writeHeader(ModuleOp module,
                                               raw_ostream &os) {
  std::string upper = toIdentifier(prefix, /*upper=*/true);
  HeaderTypes types{prefix, {}};
  // Entry points first, so that their descriptor types are known.
  std::string prototypes;
  llvm::raw_string_ostream protos(prototypes);
  if (entryRecords) {
    for (auto record : entryRecords.getAsRange<DictionaryAttr>()) {
      auto name = record.getAs<StringAttr>("name");
      auto typeAttr = record.getAs<TypeAttr>("type");
      auto type = typeAttr ? dyn_cast<FunctionType>(typeAttr.getValue())
                           : FunctionType();
      if (!name || !type)
        return module.emitError("malformed entry record ") << record;
      SmallVector<std::string> params;
      std::string returnType = "void";
      auto cannot = [&](Type t) {
        return module.emitError("cannot declare entry point '")
               << name.getValue() << "' in C: its type " << t
               << " has no C spelling here (memrefs and scalars of f32, "
                  "f64, i8-i64 and index only)";
      };
      if (type.getNumResults() == 1 && !isa<MemRefType>(type.getResult(0))) {
        FailureOr<std::string> r = types.scalar(type.getResult(0));
        if (failed(r))
          return cannot(type.getResult(0));
        returnType = *r;
      } else if (type.getNumResults() == 1) {
        FailureOr<std::string> r = types.get(type.getResult(0));
        if (failed(r))
          return cannot(type.getResult(0));
        params.push_back(*r + "result");
      } else if (type.getNumResults() > 1) {
        // The C interface returns several results as one struct.
        std::string structName = prefix + "_" + name.str() + "_results_t";
        std::string def;
        llvm::raw_string_ostream ds(def);
        ds << "typedef struct {\n";
        for (auto [i, result] : llvm::enumerate(type.getResults())) {
          FailureOr<std::string> r = types.get(result);
          if (failed(r))
            return cannot(result);
          std::string field = *r;
          if (isa<MemRefType>(result))
            field.resize(field.size() - 2); // the struct, not a pointer
          ds << "  " << field << " result" << i << ";\n";
        }
        ds << "} " << structName << ";\n";
        types.descriptors[structName] = def;
        params.push_back(structName + " *results");
      }
      for (auto [i, input] : llvm::enumerate(type.getInputs())) {
        FailureOr<std::string> p = types.get(input);
        if (failed(p))
          return cannot(input);
        std::string param = *p;
        if (!StringRef(param).ends_with("*"))
          param += " ";
        params.push_back(param + "arg" + std::to_string(i));
      }
      protos << "/* " << name.getValue() << type << " */\n";
      protos << returnType << " _mlir_ciface_" << name.getValue() << "(";
      if (params.empty())
        protos << "void";
      llvm::interleaveComma(params, protos);
      protos << ");\n";
    }
  }

  os << "/* helia plan of '" << prefix << "' for platform '"
     << platformAttr.getName()
     << "'. Generated by helia-assign-sections; do not edit. */\n";
  os << "#ifndef " << upper << "_HELIA_H\n#define " << upper
     << "_HELIA_H\n\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern "
        "\"C\" {\n#endif\n\n";
  os << "/* Arenas, by region id (the index in " << prefix
     << "_arena_buffers). */\n";
  os << "#define " << upper << "_ARENA_COUNT " << globals.size() << "\n";
  for (auto [index, arena] : llvm::enumerate(globals)) {
    std::string macro = upper + "_ARENA_" +
                        toIdentifier(arena.memory + "_" + arena.arena, true);
    os << "#define " << macro << " " << index << "\n";
    os << "#define " << macro << "_SIZE " << arena.size << "u\n";
  }
  os << "\n";
  for (const ArenaGlobal &arena : globals)
    os << "/* " << arena.memory << ", section " << arena.section << " */\n"
       << "extern " << (arena.constant ? "const " : "") << "uint8_t "
       << arena.name << "[" << arena.size << "];\n";
  os << "\ntypedef struct {\n  void *address;\n  uint32_t size;\n} " << prefix
     << "_arena_t;\n";
  os << "extern const " << prefix << "_arena_t " << prefix << "_arena_buffers["
     << std::max<size_t>(globals.size(), 1) << "];\n\n";
  if (module.lookupSymbol<LLVM::LLVMFuncOp>(prefix + "_hydrate_constants"))
    os << "/* Copies the staged constants into their memories; call it once "
          "before the\n   first run. Weak: define your own to replace it. */\n"
       << "void " << prefix << "_hydrate_constants(void);\n\n";
  if (auto hook = module.lookupSymbol<LLVM::LLVMFuncOp>(prefix + "_copy")) {
    auto length = cast<IntegerType>(hook.getArgumentTypes()[2]);
    os << "/* Every hydrate and stream copy calls this (default: memcpy). "
          "Weak: define\n   your own, e.g. a DMA transfer that returns when "
          "done. */\n"
       << "void " << prefix << "_copy(void *dst, const void *src, int"
       << length.getWidth() << "_t bytes);\n\n";
  }
  for (auto &[name, def] : types.descriptors)
    os << def << "\n";
  os << prototypes;
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << upper
     << "_HELIA_H */\n";
  return success();
}

LogicalResult HeliaAssignSections::write(
    StringRef path, function_ref<LogicalResult(raw_ostream &)> writer) {
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
  if (!file)
    return getOperation().emitError("cannot write '")
           << path << "': " << message;
  if (failed(writer(file->os())))
    return failure();
  file->keep();
  return success();
}

void HeliaAssignSections::runOnOperation() {
  ModuleOp module = getOperation();
  globals.clear();
  numPlanCopies = 0;
  if (failed(readRecord(module)) || failed(placeArenas(module)) ||
      failed(createArenaTable(module)) || failed(createCopyHook(module)))
    return signalPassFailure();
  if (auto hydrate = module.lookupSymbol<LLVM::LLVMFuncOp>(
          prefix + "_hydrate_constants"))
    if (!hydrate.isExternal())
      hydrate.setLinkage(LLVM::Linkage::Weak);
  // Nothing helia generates throws: without nounwind, an ARM object
  // references the unwinder's personality routines.
  module.walk([](LLVM::LLVMFuncOp func) { func.setNoUnwind(true); });
  MLIRContext *ctx = module.getContext();
  if (!triple.empty())
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(ctx, triple));
  if (!dataLayout.empty())
    module->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    StringAttr::get(ctx, dataLayout));
  if (!ld.empty() && failed(write(ld, [&](raw_ostream &os) {
        return writeLinkerFragment(os);
      })))
    return signalPassFailure();
  if (!header.empty() && failed(write(header, [&](raw_ostream &os) {
        return writeHeader(module, os);
      })))
    return signalPassFailure();
  // Consumed: LLVM translation has no use for it.
  module->removeAttr(HeliaDialect::getFirmwareAttrName());
}
