//===- HeliaFirmwareAttrs.td - the firmware record ---------*- tablegen -*-===//
//
// `helia.firmware`: what helia-assign-sections and the model API need from
// the lowering, carried through the conversion to LLVM (docs/Firmware.md).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_IR_HELIAFIRMWAREATTRS_TD
#define HELIA_DIALECT_HELIA_IR_HELIAFIRMWAREATTRS_TD

// A Helia_AttrListParameter that may be left out (then empty).
class Helia_OptionalAttrListParameter<string attr, string desc,
                                      string expected>
    : Helia_AttrListParameter<attr, desc, expected> {
  let defaultValue = cppStorageType # "()";
  let comparator = cppType # "($_lhs) == " # cppType # "($_rhs)";
}

def Helia_FirmwareSlotAttr : Helia_Attr<"FirmwareSlot", "firmware_slot"> {
  let summary = "Where the plan put one argument of an entry point";
  let description = [{
    Argument `arg` of the planned function `entry` lives at `offset` in the
    arena `arena`: the model API points the input there.

    ```mlir
    #helia.firmware_slot<entry = @model, arg = 0, arena = @scratch_dtcm, offset = 16>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$entry,
    "uint64_t":$arg,
    "::mlir::FlatSymbolRefAttr":$arena,
    "uint64_t":$offset
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Helia_FirmwareArenaAttr : Helia_Attr<"FirmwareArena", "firmware_arena"> {
  let summary = "An arena the caller supplies: name, memory, size, alignment";
  let description = [{
    In arena-mode=alloc|arg, one of the writable arenas that the planned
    functions take as trailing arguments, in their order.

    ```mlir
    #helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 32, alignment = 16>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$name,
    "::mlir::StringAttr":$memory,
    "uint64_t":$size,
    "uint64_t":$alignment
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Helia_FirmwareGlobalAttr : Helia_Attr<"FirmwareGlobal", "firmware_global"> {
  let summary = "The memory of one global of the lowered module";
  let description = [{
    helia-lower-copies erases the memory spaces; this keeps the memory of
    each global that had one (an arena or a staged constant's blob) for
    helia-assign-sections, which gives it that memory's section.

    ```mlir
    #helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$global,
    "::mlir::StringAttr":$memory
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Helia_FirmwareInterfaceAttr
    : Helia_Attr<"FirmwareInterface", "firmware_interface"> {
  let summary = "A function C calls through its C interface, and its type";
  let description = [{
    The type the conversion to LLVM sees (memory spaces erased); the C
    header declares `_mlir_ciface_<name>` from it.

    ```mlir
    #helia.firmware_interface<name = @model, type = (memref<4xf32>) -> memref<4xf32>>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$name,
    "::mlir::FunctionType":$type
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Helia_FirmwareAttr : Helia_Attr<"Firmware", "firmware"> {
  let summary = "The module's firmware record: its API, platform and globals";
  let description = [{
    The module attribute `helia.firmware`, one shape from the pass that
    creates it to the pass that consumes it:

    - helia-arena-calling-convention records the helper `prefix`, the
      planned functions (`entries`), the `slots` of their arguments and the
      arenas the caller supplies (`caller_arenas`);
    - helia-lower-copies (erase-memory-spaces=true) adds the module's
      `platform` (as `helia.platform` holds it: a preset's name or a
      `#helia.platform`), the memory of every global (`globals`), the C
      interfaces (`interfaces`) and the host code (`unplanned`);
    - helia-assign-sections reads it and removes it.

    The erase of helia-lower-copies leaves no helia attribute for the
    upstream tools that read the lowered module (mlir-opt, mlir-runner):
    there the record takes its builtin form, a dictionary with the same
    fields (`FirmwareAttr::toBuiltin`), which the same verifier checks when
    it is read back.

    Lists left out are empty; a record without `platform` has not been
    through helia-lower-copies, one without `prefix` not through
    helia-arena-calling-convention.

    ```mlir
    module attributes {helia.firmware = #helia.firmware<prefix = "model",
        entries = [@model],
        slots = [#helia.firmware_slot<entry = @model, arg = 0, arena = @scratch_dtcm, offset = 0>],
        platform = "mps3_an547",
        globals = [#helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">],
        interfaces = [#helia.firmware_interface<name = @model, type = (memref<4xf32>) -> memref<4xf32>>]>}
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::StringAttr",
        "the prefix of the generated helpers">:$prefix,
    Helia_OptionalAttrListParameter<"::mlir::FlatSymbolRefAttr",
        "the planned functions", "a symbol reference">:$entries,
    Helia_OptionalAttrListParameter<"::mlir::helia::FirmwareSlotAttr",
        "the slots of the entries' arguments",
        "a #helia.firmware_slot">:$slots,
    Helia_OptionalAttrListParameter<"::mlir::helia::FirmwareArenaAttr",
        "the arenas the caller supplies, in argument order",
        "a #helia.firmware_arena">:$caller_arenas,
    OptionalParameter<"::mlir::Attribute",
        "the platform: a preset's name or a #helia.platform">:$platform,
    Helia_OptionalAttrListParameter<"::mlir::helia::FirmwareGlobalAttr",
        "the memory of every global that had one",
        "a #helia.firmware_global">:$globals,
    Helia_OptionalAttrListParameter<"::mlir::helia::FirmwareInterfaceAttr",
        "the functions C calls through their C interface",
        "a #helia.firmware_interface">:$interfaces,
    Helia_OptionalAttrListParameter<"::mlir::FlatSymbolRefAttr",
        "host code: the helia.unplanned functions",
        "a symbol reference">:$unplanned
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The module's record, typed or in its builtin form, or null.
    static FirmwareAttr lookup(::mlir::Operation *module);
    /// The builtin form: the same fields as a dictionary of builtin
    /// attributes (a #helia.platform as its printed text), which tools
    /// without the helia dialect parse.
    ::mlir::DictionaryAttr toBuiltin() const;
    /// Reads the builtin form back; reports through `emitError` and returns
    /// null when `dict` is not one.
    static FirmwareAttr
    fromBuiltin(::mlir::DictionaryAttr dict,
                ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);
    /// The platform the record names, or null when it names none.
    ::mlir::helia::PlatformAttr getPlatformAttr() const;
    /// The slot of argument `arg` of `entry`, or null.
    FirmwareSlotAttr lookupSlot(::llvm::StringRef entry, uint64_t arg) const;
  }];
}

#endif // HELIA_DIALECT_HELIA_IR_HELIAFIRMWAREATTRS_TD
