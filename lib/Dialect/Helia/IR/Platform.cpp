//===- Platform.cpp - built-in platforms and module lookup ----------------===//

#include "helia/Dialect/Helia/IR/Platform.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::helia;

namespace {
constexpr uint64_t KiB = 1024;
constexpr uint64_t MiB = 1024 * KiB;

/// One memory of a preset. Flags follow the chips' data sheets: TCM and SRAM
/// are read-write and loaded with initialised data at boot; MRAM (or NOR
/// flash) is non-volatile and read-only at run time; PSRAM is read-write but
/// empty at boot. `base` is the first address of the memory's region in the
/// vendor's default linker script, `reserved` the bytes at its end that the
/// plan leaves to others and `region` the region's name there
/// (docs/Firmware.md cites the scripts).
struct PresetMemory {
  const char *name;
  uint64_t size;
  bool writable, executable, init, nonvolatile;
  uint64_t base = 0, reserved = 0;
  const char *region = "";
  /// CPU cycles per access of `accessBytes` bytes (MemoryDescAttr).
  uint64_t readCycles = 1, writeCycles = 1, accessBytes = 4;

  PresetMemory at(uint64_t address, uint64_t reservedBytes = 0) const {
    PresetMemory m = *this;
    m.base = address;
    m.reserved = reservedBytes;
    return m;
  }
  /// The access costs: cycles per read and per write of `bytes` bytes.
  PresetMemory costs(uint64_t read, uint64_t write, uint64_t bytes = 4) const {
    PresetMemory m = *this;
    m.readCycles = read;
    m.writeCycles = write;
    m.accessBytes = bytes;
    return m;
  }
  /// The region's name in the vendor's linker script.
  PresetMemory in(const char *regionName) const {
    PresetMemory m = *this;
    m.region = regionName;
    return m;
  }
};

struct Preset {
  const char *name;
  std::vector<PresetMemory> memories;
  std::vector<const char *> preferred;
  uint64_t alignment;
};

PresetMemory itcm(uint64_t size) { return {"itcm", size, true, true, true, false}; }
PresetMemory dtcm(uint64_t size) { return {"dtcm", size, true, false, true, false}; }
PresetMemory sram(uint64_t size) { return {"sram", size, true, false, true, false}; }
PresetMemory mram(uint64_t size) { return {"mram", size, false, true, true, true}; }
PresetMemory psram(uint64_t size) { return {"psram", size, true, false, false, false}; }
PresetMemory rom(const char *name, uint64_t size) {
  return {name, size, false, true, true, true};
}
} // namespace

/// The built-in presets, in a stable order. A function-local static: built
/// on first use, not by a global constructor at load time.
static ArrayRef<Preset> getPresets() {
  // Access costs are estimates, not measurements: Ambiq's public data
  // sheets give no per-access cycle counts for SRAM, MRAM or PSRAM at the
  // CPU's full clock. They are CPU cycles per 32-bit access: TCM is
  // single-cycle (Arm's Cortex-M55 and M4 TRMs: zero wait states); shared
  // SRAM sits behind the bus matrix; MRAM and flash are read through wait
  // states that the cache hides only in part; PSRAM is an MSPI aperture.
  // docs/Placement.md says how to calibrate them with a cycle counter.
  //
  // Apollo4 Plus / Lite: one 384 KiB TCM; the EVBs' PSRAM is 8 MiB. The
  // SDK's script: MCU_MRAM 0x00018000 (1952 KiB), MCU_TCM 0x10000000,
  // SHARED_SRAM 0x10060000.
  static const std::vector<PresetMemory> apollo4 = {
      dtcm(384 * KiB).at(0x10000000).in("MCU_TCM"),
      sram(1 * MiB).at(0x10060000).in("SHARED_SRAM").costs(2, 2),
      mram(2000 * KiB).at(0x00018000, 48 * KiB).in("MCU_MRAM").costs(4, 4),
      psram(8 * MiB).costs(20, 20)};
  static const Preset presets[] = {
      // Apollo510, the SDK's SBL linker script: MCU_ITCM 0x00000000 256 KiB,
      // MCU_TCM 0x20000000 496 KiB of the 512 KiB DTCM, SHARED_SRAM
      // 0x20080000 3 MiB, MCU_MRAM 0x00410000 (the boot loader keeps the first
      // 64 KiB of the 4 MiB). PSRAM is an MSPI aperture the application maps.
      {"apollo510_evb",
       {itcm(256 * KiB).at(0x00000000).in("MCU_ITCM"),
        dtcm(512 * KiB).at(0x20000000, 16 * KiB).in("MCU_TCM"),
        sram(3 * MiB).at(0x20080000).in("SHARED_SRAM").costs(3, 2),
        mram(4 * MiB).at(0x00410000, 64 * KiB).in("MCU_MRAM").costs(6, 6),
        psram(64 * MiB).costs(24, 24)},
       {"dtcm", "sram"},
       16},
      {"apollo4p_evb", apollo4, {"dtcm", "sram"}, 16},
      {"apollo4l_evb", apollo4, {"dtcm", "sram"}, 16},
      // Apollo3 Plus: a 64 KiB TCM at 0x10000000, SRAM from 0x10010000; its
      // 2000 KiB NOR flash plays MRAM's role (from 0x0000C000 after the SBL).
      {"apollo3p_evb",
       {dtcm(64 * KiB).at(0x10000000), sram(700 * KiB).at(0x10010000),
        mram(2000 * KiB).at(0x0000C000).costs(2, 2)},
       {"dtcm", "sram"},
       16},
      // QEMU's mps3-an547 (Arm Corstone SSE-300 with a Cortex-M55): ITCM
      // 0x00000000 512 KiB (the image's code and vector table), SRAM
      // 0x01000000 2 MiB, DTCM 0x20000000 512 KiB (its last 64 KiB hold the
      // application's stack, .data and .bss), QSPI flash 0x28000000 8 MiB as
      // the read-only, initialised memory of cold constants. QEMU does not
      // time memories; the costs are those of the board's FPGA image
      // (estimates: TCM single-cycle, SRAM behind the bus, QSPI slow).
      {"mps3_an547",
       {itcm(512 * KiB).at(0x00000000), sram(2 * MiB).at(0x01000000).costs(2, 2),
        dtcm(512 * KiB).at(0x20000000, 64 * KiB),
        rom("qspi", 8 * MiB).at(0x28000000).costs(10, 10)},
       {"dtcm", "sram"},
       16},
  };
  return presets;
}

ArrayRef<StringRef> mlir::helia::getPlatformPresetNames() {
  static const SmallVector<StringRef> names = [] {
    SmallVector<StringRef> result;
    for (const Preset &preset : getPresets())
      result.push_back(preset.name);
    return result;
  }();
  return names;
}

PlatformAttr mlir::helia::getPlatformPreset(MLIRContext *ctx, StringRef name) {
  ArrayRef<Preset> presets = getPresets();
  const Preset *preset =
      llvm::find_if(presets, [&](const Preset &p) { return name == p.name; });
  if (preset == presets.end())
    return {};
  SmallVector<MemoryDescAttr> memories;
  for (const PresetMemory &m : preset->memories)
    memories.push_back(MemoryDescAttr::get(
        ctx, m.name, m.size, /*readable=*/true, m.writable, m.executable,
        m.init, m.nonvolatile, m.base, m.reserved, /*section=*/"", m.region,
        m.readCycles, m.writeCycles, m.accessBytes));
  SmallVector<StringAttr> preferred;
  for (const char *p : preset->preferred)
    preferred.push_back(StringAttr::get(ctx, p));
  return PlatformAttr::get(ctx, preset->name, memories, preferred,
                           preset->alignment);
}

FailureOr<PlatformAttr> mlir::helia::lookupPlatform(ModuleOp module,
                                                    StringRef presetOverride) {
  MLIRContext *ctx = module.getContext();
  auto unknown = [&](StringRef name) {
    std::string names;
    llvm::raw_string_ostream os(names);
    llvm::interleaveComma(getPlatformPresetNames(), os);
    return module.emitError("unknown platform preset '")
           << name << "'; known presets: " << names;
  };
  if (!presetOverride.empty()) {
    if (PlatformAttr preset = getPlatformPreset(ctx, presetOverride))
      return preset;
    return unknown(presetOverride), failure();
  }
  Attribute attr = module->getAttr(HeliaDialect::PlatformAttrHelper::getNameStr());
  if (!attr)
    return getPlatformPreset(ctx, kDefaultPlatformName);
  if (auto platform = dyn_cast<PlatformAttr>(attr))
    return platform;
  if (auto name = dyn_cast<StringAttr>(attr)) {
    if (PlatformAttr preset = getPlatformPreset(ctx, name.getValue()))
      return preset;
    return unknown(name.getValue()), failure();
  }
  module.emitError("'") << HeliaDialect::PlatformAttrHelper::getNameStr()
                        << "' must be a preset name or a #helia.platform";
  return failure();
}

FailureOr<SmallVector<RuleAttr>> mlir::helia::lookupRules(ModuleOp module) {
  SmallVector<RuleAttr> rules;
  Attribute attr = module->getAttr(HeliaDialect::RulesAttrHelper::getNameStr());
  if (!attr)
    return rules;
  auto list = dyn_cast<ArrayAttr>(attr);
  if (!list) {
    module.emitError("'") << HeliaDialect::RulesAttrHelper::getNameStr()
                          << "' must be an array of #helia.rule";
    return failure();
  }
  for (Attribute entry : list) {
    auto rule = dyn_cast<RuleAttr>(entry);
    if (!rule) {
      module.emitError("'") << HeliaDialect::RulesAttrHelper::getNameStr()
                            << "' entry " << entry
                            << " is not a #helia.rule";
      return failure();
    }
    rules.push_back(rule);
  }
  return rules;
}
