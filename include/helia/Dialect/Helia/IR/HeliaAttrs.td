//===- HeliaAttrs.td - helia attributes --------------------*- tablegen -*-===//

#ifndef HELIA_DIALECT_HELIA_IR_HELIAATTRS_TD
#define HELIA_DIALECT_HELIA_IR_HELIAATTRS_TD

include "helia/Dialect/Helia/IR/HeliaBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Helia_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Helia_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// A list of attributes of one kind, written as `[a, b]` (the syntax of an
// ArrayAttr), whose element kind the parser checks.
class Helia_AttrListParameter<string attr, string desc, string expected>
    : ArrayRefParameter<attr, desc> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::SmallVector<}] # attr # [{>> {
    ::llvm::SmallVector<}] # attr # [{> elements;
    if ($_parser.parseCommaSeparatedList(
            ::mlir::AsmParser::Delimiter::Square, [&]() -> ::mlir::ParseResult {
              ::llvm::SMLoc loc = $_parser.getCurrentLocation();
              ::mlir::Attribute any;
              if ($_parser.parseAttribute(any))
                return ::mlir::failure();
              auto element = ::llvm::dyn_cast<}] # attr # [{>(any);
              if (!element)
                return $_parser.emitError(loc) << "expected " << "}] # expected # [{, got " << any;
              elements.push_back(element);
              return ::mlir::success();
            }))
      return ::mlir::failure();
    return elements;
  }() }];
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer,
                            [&](}] # attr # [{ element) {
                              $_printer.printAttribute(element);
                            });
    $_printer << ']';
  }];
}

def Helia_MemorySpaceAttr : Helia_Attr<"MemorySpace", "memory"> {
  let summary = "A platform memory, usable as a memref memory space";
  let description = [{
    Names one memory of the target platform. Arenas lowered to `memref` carry
    it as their memory space:

    ```mlir
    memref<1024xi8, #helia.memory<"dtcm">>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name);
  let assemblyFormat = "`<` $name `>`";
  let genVerifyDecl = 1;
}

def Helia_MemoryDescAttr : Helia_Attr<"MemoryDesc", "memory_desc"> {
  let summary = "Description of one memory of a platform";
  let description = [{
    A named memory with its size in bytes and its properties. `readable` and
    `writable` default to true; `executable`, `init` (can hold initialised
    data loaded at boot) and `nonvolatile` default to false.

    `base` is the memory's first address on the device (0 when unknown) and
    `reserved` the bytes of it that are not the plan's: the application's
    stack, `.data` and `.bss`, a boot loader, what the vendor's linker
    script keeps for itself. `size` stays the hardware's; capacity checks
    use `size - reserved` (getUsableSize). `section` names the output
    section that holds this memory's arenas in the object (e.g. Ambiq's
    `.shared` for SRAM); empty (the default) gives every arena its own
    `.bss.helia.<memory>.<arena>` or `.rodata.helia.<memory>.<arena>`.
    `region` names the memory's region in the linker script (Ambiq's
    `MCU_TCM`, `SHARED_SRAM`, `MCU_MRAM`); empty (the default) is the
    memory's name in upper case (docs/Firmware.md).

    `read_cycles` and `write_cycles` are the CPU cycles one access of
    `access_bytes` bytes costs (default 1, 1 and 4: a zero-wait-state 32-bit
    memory); the traffic model multiplies them with the accesses a plan makes
    (docs/Placement.md). Writing to a memory that is not `writable` happens
    only at hydration time and is not costed.

    ```mlir
    #helia.memory_desc<name = "mram", size = 4194304, writable = false,
                       executable = true, init = true, nonvolatile = true,
                       base = 0x410000, reserved = 262144, read_cycles = 4>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"name of the memory">:$name,
    "uint64_t":$size,
    DefaultValuedParameter<"bool", "true">:$readable,
    DefaultValuedParameter<"bool", "true">:$writable,
    DefaultValuedParameter<"bool", "false">:$executable,
    DefaultValuedParameter<"bool", "false">:$init,
    DefaultValuedParameter<"bool", "false">:$nonvolatile,
    DefaultValuedParameter<"uint64_t", "0">:$base,
    DefaultValuedParameter<"uint64_t", "0">:$reserved,
    StringRefParameter<"output section of the arenas", "\"\"">:$section,
    StringRefParameter<"linker-script region", "\"\"">:$region,
    DefaultValuedParameter<"uint64_t", "1">:$read_cycles,
    DefaultValuedParameter<"uint64_t", "1">:$write_cycles,
    DefaultValuedParameter<"uint64_t", "4">:$access_bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The bytes the plan may use: the size minus the reserved bytes.
    uint64_t getUsableSize() const { return getSize() - getReserved(); }
    /// The region of the memory in a linker script: `region`, else the
    /// name in upper case with '_' for anything but letters and digits.
    std::string getRegionName() const;
  }];
}

def Helia_PlatformAttr : Helia_Attr<"Platform", "platform"> {
  let summary = "A target platform: its memories, preferred order, alignment";
  let description = [{
    A named set of memories, the order in which the planner prefers memories
    for tensors whose placement the rules leave open (readable, writable
    memories only: they hold tensors written at run time), and the minimum
    alignment of every buffer. The module attribute `helia.platform` holds
    either this attribute or the name of a built-in preset
    (`apollo510_evb`, `apollo4p_evb`, `apollo4l_evb`, `apollo3p_evb`,
    `mps3_an547`).

    ```mlir
    #helia.platform<name = "tiny",
      memories = [#helia.memory_desc<name = "dtcm", size = 65536, init = true>,
                  #helia.memory_desc<name = "flash", size = 262144,
                                     writable = false, init = true,
                                     nonvolatile = true>],
      preferred = ["dtcm"], alignment = 16>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"name of the platform">:$name,
    Helia_AttrListParameter<"::mlir::helia::MemoryDescAttr",
                            "memories, in declaration order",
                            "a #helia.memory_desc">:$memories,
    Helia_AttrListParameter<"::mlir::StringAttr", "preferred memory order",
                            "a memory name (a string)">:$preferred,
    "uint64_t":$alignment
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The memories, in declaration order.
    ::llvm::ArrayRef<::mlir::helia::MemoryDescAttr> getMemoryList() const {
      return getMemories();
    }
    /// The preferred memory order.
    ::llvm::ArrayRef<::mlir::StringAttr> getPreferredList() const {
      return getPreferred();
    }
    /// Returns the memory named `name`, or null.
    ::mlir::helia::MemoryDescAttr lookupMemory(::llvm::StringRef name) const;
    /// Returns the memory names, comma-separated, for diagnostics.
    std::string getMemoryNamesForDiagnostic() const;
  }];
}

def Helia_TensorAttributesAttr : Helia_Attr<"TensorAttributes", "attributes"> {
  let summary = "What a rule or an op override sets for a tensor";
  let description = [{
    heliaAOT's TensorAttributes. Every field is optional; an absent field
    lets a lower-precedence rule or the planner decide. `memory` is where the
    tensor lives (for a constant: its source memory in the image);
    `constant_destination_memory` is the writable memory a pinned constant is
    copied into at init; `residency` is `direct`, `pin` or `stream`.
    A destination may not be paired with `direct` or `stream`.

    ```mlir
    #helia.attributes<memory = "mram", constant_destination_memory = "dtcm">
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::StringAttr">:$memory,
    OptionalParameter<"::mlir::StringAttr">:$constant_destination_memory,
    OptionalParameter<"std::optional<::mlir::helia::Residency>">:$residency
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Helia_RuleAttr : Helia_Attr<"Rule", "rule"> {
  let summary = "A placement rule: {type, id, op, attributes}";
  let description = [{
    Selects tensors by kind (`type`; absent or `any` matches every kind), by
    identity (`id`: names or globs over names, or the ids the report and the
    JSON plan show, `#12` or, to name one function's tensor, `model:#12`;
    absent matches every tensor) and by the name of the op that produces
    them (`op`: globs such as `linalg.conv_2d*`; a function argument has no
    producing op), and sets their attributes. `id` and `op` both select
    identity: a rule with both matches tensors that satisfy both.
    Precedence follows heliaAOT: a rule that gives both a type and an
    identity (id or op) beats one with a type only, which beats one with an
    identity only, which beats one with neither; ties go to the later rule;
    fields merge one by one. `type = any` does not count as giving a type.

    ```mlir
    #helia.rule<type = constant, id = ["conv1*", "fc/w"],
                attributes = <memory = "mram", constant_destination_memory = "dtcm">>
    #helia.rule<type = scratch, op = ["linalg.conv_2d*"],
                attributes = <memory = "sram">>
    ```
  }];
  let parameters = (ins
    OptionalParameter<"std::optional<::mlir::helia::TensorKind>">:$type,
    OptionalParameter<"::mlir::ArrayAttr">:$id,
    "::mlir::helia::TensorAttributesAttr":$attributes,
    OptionalParameter<"::mlir::ArrayAttr">:$op
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True if the rule restricts the kind (`type` present and not `any`).
    bool givesType() const;
    /// True if the rule restricts the identity (`id` or `op` present).
    bool givesId() const;
  }];
}

def Helia_PlacementAttr : Helia_Attr<"Placement", "placement"> {
  let summary = "The resolved placement of one tensor";
  let description = [{
    Written by `helia-resolve-residency`: the tensor's stable id (program
    order), its name if it has one, its kind, and the merged attributes.
    Fields that no rule set stay absent: the planner chooses them.

    ```mlir
    #helia.placement<id = 3, name = "conv1/w", kind = constant,
                     memory = "mram", constant_destination_memory = "dtcm",
                     residency = pin>
    ```
  }];
  let parameters = (ins
    "uint64_t":$id,
    OptionalParameter<"::mlir::StringAttr">:$name,
    "::mlir::helia::TensorKind":$kind,
    OptionalParameter<"::mlir::StringAttr">:$memory,
    OptionalParameter<"::mlir::StringAttr">:$constant_destination_memory,
    OptionalParameter<"std::optional<::mlir::helia::Residency>">:$residency
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Helia_BindingAttr : Helia_Attr<"Binding", "binding"> {
  let summary = "TensorBinding: where the planner put a tensor";
  let description = [{
    The planner's decision for one tensor: its arena (a `helia.arena`
    symbol) and its byte offset there, written `@arena[offset]`. The role,
    memory and source memory of heliaAOT's TensorBinding are the arena's
    (`helia.arena` says them once; getArenaOf finds the arena). A streamed
    constant also names its slot in the stream pool.

    ```mlir
    #helia.binding<@scratch_dtcm[64]>
    #helia.binding<@constant_mram[512], stream = @stream_sram[0]>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$arena,
    "uint64_t":$offset,
    OptionalParameter<"::mlir::FlatSymbolRefAttr">:$stream_arena,
    OptionalParameter<"std::optional<uint64_t>">:$stream_offset
  );
  let assemblyFormat = [{
    `<` $arena `[` $offset `]`
    (`,` `stream` `=` $stream_arena^ `[` $stream_offset `]`)? `>`
  }];
  let genVerifyDecl = 1;
}

include "helia/Dialect/Helia/IR/HeliaFirmwareAttrs.td"

#endif // HELIA_DIALECT_HELIA_IR_HELIAATTRS_TD
