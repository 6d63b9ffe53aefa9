//===- FirmwareApi.cpp - the model API: its description and its header ----===//
//
// The model API's regions and entry point, read from the record
// helia-lower-copies left, and its part of the C header. What a C
// programmer calls without knowing MLIR: `<prefix>_model_init`,
// `<prefix>_model_run`, `<prefix>_bind_arena`, a context with one typed
// pointer per input and output, shape macros per tensor and the regions by
// name. The same declarations whatever the plan; the plan hash ties the
// header to the object it was generated with (docs/Firmware.md).
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Export/FirmwareLayout.h"

#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::helia;

uint64_t FirmwareTensor::getNumElements() const {
  uint64_t count = 1;
  for (int64_t dim : shape)
    count *= static_cast<uint64_t>(dim);
  return count;
}

static FailureOr<FirmwareTensor>
describeTensor(Type type, Location loc, StringRef entry, const Twine &what) {
  FirmwareTensor tensor;
  tensor.elementType = type;
  if (auto memref = dyn_cast<MemRefType>(type)) {
    tensor.isMemRef = true;
    tensor.elementType = memref.getElementType();
    llvm::append_range(tensor.shape, memref.getShape());
    if (!memref.hasStaticShape() || !memref.getLayout().isIdentity())
      return emitError(loc, "cannot pass ")
             << what << " of @" << entry << " (" << type
             << ") through the model API: it takes statically shaped, "
                "contiguous memrefs; call the entry point through its C "
                "interface (model-api=false)";
  }
  if (failed(getCScalarType(tensor.elementType)))
    return emitError(loc, "cannot pass ")
           << what << " of @" << entry << " (" << type
           << ") through the model API: its element type has no C spelling "
              "here (f16, bf16, f32, f64, i1-i64 and index only; "
              "model-api=false leaves the entry points' C interface)";
  return tensor;
}

LogicalResult FirmwareLayout::describeModel(Operation *module,
                                            FirmwareAttr record) {
  FirmwareLayout &layout = *this;
  Location loc = module->getLoc();
  for (auto [index, arena] : llvm::enumerate(layout.arenas))
    layout.regions.push_back({arena.arena, arena.memory, arena.size,
                              arena.alignment, static_cast<int>(index), -1});
  unsigned numCaller = 0;
  for (FirmwareArenaAttr arena : record.getCallerArenas())
    layout.regions.push_back(
        {arena.getName().getValue().str(), arena.getMemory().str(),
         arena.getSize(),
         std::max<uint64_t>(arena.getAlignment(),
                            layout.platform.getAlignment()),
         -1, static_cast<int>(numCaller++)});

  std::string hydrate = getHydrateFunctionName(layout.prefix);
  const FirmwareEntry *entry = nullptr;
  for (const FirmwareEntry &candidate : layout.entries)
    if (candidate.name != hydrate) {
      entry = &candidate;
      break;
    }
  if (!entry)
    return success();
  FunctionType type = entry->type;
  if (type.getNumInputs() < numCaller)
    return module->emitError("entry point @")
           << entry->name << " takes " << type.getNumInputs()
           << " arguments, fewer than the " << numCaller
           << " arenas the caller supplies";
  FirmwareModel model;
  model.entry = entry->name;
  for (auto [i, input] :
       llvm::enumerate(type.getInputs().drop_back(numCaller))) {
    FailureOr<FirmwareTensor> tensor =
        describeTensor(input, loc, entry->name, "argument " + Twine(i));
    if (failed(tensor))
      return failure();
    if (FirmwareSlotAttr slot = record.lookupSlot(entry->name, i);
        slot && tensor->isMemRef) {
      for (auto [r, region] : llvm::enumerate(layout.regions))
        if (region.arena == slot.getArena().getValue()) {
          tensor->slotRegion = r;
          tensor->slotOffset = slot.getOffset();
          break;
        }
    }
    model.inputs.push_back(*tensor);
  }
  for (auto [i, result] : llvm::enumerate(type.getResults())) {
    FailureOr<FirmwareTensor> tensor =
        describeTensor(result, loc, entry->name, "result " + Twine(i));
    if (failed(tensor))
      return failure();
    model.outputs.push_back(*tensor);
  }
  layout.model = std::move(model);
  return success();
}

static std::string getRegionMacro(StringRef upper, const FirmwareRegion &r) {
  return (upper + "_REGION_" + toCIdentifier(r.memory + "_" + r.arena, true))
      .str();
}

/// The macros and the element type of input or output `index`.
static void writeTensor(raw_ostream &os, StringRef prefix, StringRef upper,
                        StringRef kind, size_t index,
                        const FirmwareTensor &tensor) {
  std::string lower = (prefix + "_" + kind.lower() + "_" + Twine(index)).str();
  std::string macro = (upper + "_" + kind + "_" + Twine(index)).str();
  std::string cType = *getCScalarType(tensor.elementType);
  std::string typeText;
  llvm::raw_string_ostream typeOs(typeText);
  tensor.elementType.print(typeOs);
  os << "/* " << kind.lower() << " " << index << ": ";
  for (int64_t dim : tensor.shape)
    os << dim << "x";
  os << typeText << (tensor.isMemRef ? "" : " (a value)") << " */\n";
  os << "typedef " << cType << " " << lower << "_t;\n";
  os << "#define " << macro << "_TYPE " << cType << "\n";
  os << "#define " << macro << "_RANK " << tensor.shape.size() << "\n";
  for (auto [i, dim] : llvm::enumerate(tensor.shape))
    os << "#define " << macro << "_DIM_" << i << " " << dim << "\n";
  os << "#define " << macro << "_SIZE " << tensor.getNumElements() << "u\n";
  os << "#define " << macro << "_BYTES "
     << tensor.getNumElements() * *getElementByteSize(tensor.elementType)
     << "u\n";
}

/// The status codes the model API's functions return.
static void writeStatuses(raw_ostream &os, StringRef upper) {
  os << "/* What the functions below return. */\n";
  static const std::pair<FirmwareStatus, const char *> statuses[] = {
      {FirmwareStatus::Ok, "OK"},
      {FirmwareStatus::PlanMismatch, "ERROR_PLAN_MISMATCH"},
      {FirmwareStatus::NotInitialized, "ERROR_NOT_INITIALIZED"},
      {FirmwareStatus::UnboundArena, "ERROR_UNBOUND_ARENA"},
      {FirmwareStatus::UnknownRegion, "ERROR_UNKNOWN_REGION"},
      {FirmwareStatus::NotBindable, "ERROR_NOT_BINDABLE"},
      {FirmwareStatus::ArenaTooSmall, "ERROR_ARENA_TOO_SMALL"},
      {FirmwareStatus::ArenaMisaligned, "ERROR_ARENA_MISALIGNED"},
      {FirmwareStatus::NoInput, "ERROR_NO_INPUT"},
  };
  for (auto [status, name] : statuses)
    os << "#define " << upper << "_" << name << " "
       << static_cast<int32_t>(status) << "\n";
}

/// Every arena of the plan by region id, with its size, alignment and
/// whether the caller supplies it.
static void writeRegions(raw_ostream &os, StringRef prefix, StringRef upper,
                         ArrayRef<FirmwareRegion> regions) {
  os << "\n/* Every arena of the plan by region id: the image's arenas (as in "
     << prefix << "_arena_buffers),\n   then those the caller supplies with "
     << prefix << "_bind_arena before " << prefix << "_model_init. */\n";
  os << "typedef enum {\n";
  for (auto [index, region] : llvm::enumerate(regions))
    os << "  " << getRegionMacro(upper, region) << " = " << index << ",\n";
  os << "  " << upper << "_REGION_COUNT = " << regions.size() << "\n} "
     << prefix << "_region_t;\n";
  // The same facts as initialisers, for code that binds every caller
  // region in a loop whatever the plan.
  auto list = [&](StringRef name,
                  function_ref<uint64_t(const FirmwareRegion &)> get) {
    os << "#define " << upper << "_REGION_" << name << " {";
    llvm::interleaveComma(regions, os,
                          [&](const FirmwareRegion &r) { os << get(r); });
    os << "}\n";
  };
  list("SIZES", [](const FirmwareRegion &r) { return r.size; });
  list("ALIGNS", [](const FirmwareRegion &r) { return r.alignment; });
  list("CALLERS",
       [](const FirmwareRegion &r) -> uint64_t { return r.global < 0; });
  for (const FirmwareRegion &region : regions) {
    std::string macro = getRegionMacro(upper, region);
    os << "#define " << macro << "_SIZE " << region.size << "u\n"
       << "#define " << macro << "_ALIGN " << region.alignment << "u\n"
       << "#define " << macro << "_CALLER " << (region.global < 0 ? 1 : 0)
       << "\n";
  }
}

/// The model's inputs and outputs and the context that holds them.
static void writeModelState(raw_ostream &os, StringRef prefix, StringRef upper,
                            const FirmwareModel &m) {
  os << "\n/* Inputs and outputs of " << m.entry << ". */\n";
  os << "#define " << upper << "_INPUT_COUNT " << m.inputs.size() << "\n";
  os << "#define " << upper << "_OUTPUT_COUNT " << m.outputs.size() << "\n";
  for (auto [i, tensor] : llvm::enumerate(m.inputs))
    writeTensor(os, prefix, upper, "INPUT", i, tensor);
  for (auto [i, tensor] : llvm::enumerate(m.outputs))
    writeTensor(os, prefix, upper, "OUTPUT", i, tensor);

  os << "\n/* The model's state. " << prefix
     << "_model_init points each input at its slot in\n   the arena (or "
        "leaves it NULL when the plan gives it none): fill it there, or\n   "
        "point it at your own buffer. "
     << prefix
     << "_model_run points each output at the\n   result, valid until the "
        "next run. */\n";
  os << "typedef struct {\n  uint32_t plan_hash;\n  uint32_t state;\n";
  for (auto [i, tensor] : llvm::enumerate(m.inputs))
    os << "  " << prefix << "_input_" << i << "_t "
       << (tensor.isMemRef ? "*" : "") << "input_" << i << ";\n";
  for (auto [i, tensor] : llvm::enumerate(m.outputs))
    os << "  " << prefix << "_output_" << i << "_t "
       << (tensor.isMemRef ? "*" : "") << "output_" << i << ";\n";
  os << "} " << prefix << "_model_context_t;\n\n";
}

/// The functions of the model API.
static void writeModelFunctions(raw_ostream &os, StringRef prefix,
                                StringRef hash) {
  os << "/* Gives region `region` (a " << prefix
     << "_region_t) the caller's buffer: at least\n   <REGION>_SIZE bytes, "
        "aligned to <REGION>_ALIGN. Only for regions with\n   <REGION>_CALLER "
        "1; the image's own arenas are not bindable. */\n"
     << "int32_t " << prefix
     << "_bind_arena(int32_t region, void *buffer, uint32_t bytes);\n\n";
  os << "/* Checks the plan hash and that every caller region is bound, "
        "hydrates the\n   staged constants, and sets up the context. */\n"
     << "int32_t " << prefix << "_model_init_plan(" << prefix
     << "_model_context_t *ctx, uint32_t plan_hash);\n"
     << "static inline int32_t " << prefix << "_model_init(" << prefix
     << "_model_context_t *ctx) {\n  return " << prefix
     << "_model_init_plan(ctx, " << prefix << "_plan_" << hash << ");\n}\n\n";
  os << "/* Runs the model on the context's inputs and points its outputs at "
        "the\n   results. */\n"
     << "int32_t " << prefix << "_model_run(" << prefix
     << "_model_context_t *ctx);\n";
}

void FirmwareLayout::writeModelApi(raw_ostream &os) const {
  std::string upper = toCIdentifier(prefix, /*upper=*/true);
  std::string hash;
  llvm::raw_string_ostream(hash) << llvm::format_hex_no_prefix(planHash, 8);
  os << "\n/*=== The model API (docs/Firmware.md) "
        "=====================================*/\n\n";
  os << "/* The plan this header belongs to. " << prefix
     << "_model_init refers to the object's\n   " << prefix << "_plan_" << hash
     << ": with a header of another plan the link fails. */\n"
     << "#define " << upper << "_PLAN_HASH 0x" << hash << "u\n"
     << "extern const uint32_t " << prefix << "_plan_hash;\n"
     << "extern const uint32_t " << prefix << "_plan_" << hash << ";\n\n";
  writeStatuses(os, upper);
  writeRegions(os, prefix, upper, regions);
  writeModelState(os, prefix, upper, *model);
  writeModelFunctions(os, prefix, hash);
}

FailureOr<uint32_t> FirmwareLayout::computePlanHash(Location loc) const {
  FirmwareLayout canonical = *this;
  canonical.planHash = 0;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(canonical.writeHeader(os, loc)))
    return failure();
  // Where the inputs live is not in the header but in the object's init.
  if (model)
    for (const FirmwareTensor &input : model->inputs)
      if (input.slotRegion)
        os << "slot " << *input.slotRegion << " " << input.slotOffset << "\n";
  return static_cast<uint32_t>(
      llvm::xxh3_64bits(llvm::arrayRefFromStringRef(text)));
}
