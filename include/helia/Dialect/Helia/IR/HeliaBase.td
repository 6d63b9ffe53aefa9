//===- HeliaBase.td - helia dialect and enums --------------*- tablegen -*-===//
//
// The helia dialect: memory placement of ML tensors on microcontrollers with
// several memories.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_IR_HELIABASE_TD
#define HELIA_DIALECT_HELIA_IR_HELIABASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Helia_Dialect : Dialect {
  let name = "helia";
  let cppNamespace = "::mlir::helia";
  let summary = "Memory placement of tensors on multi-memory microcontrollers";
  let description = [{
    The helia dialect describes where every tensor of a neural network lives
    on a microcontroller with several memories (TCM, SRAM, MRAM, PSRAM): the
    platform and its memories, the user's placement rules, the resolved
    placement of each tensor, the planner's binding of each tensor to an
    arena offset, the arenas themselves, and the copies that hydrate pinned
    constants and stream constants into fast memory.

    The planning passes read two module attributes:

    ```mlir
    module attributes {
      helia.platform = "apollo510_evb",
      helia.rules = [#helia.rule<type = constant, attributes = <memory = "mram">>]
    } { ... }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  // Discardable attributes (`helia.<name>`; the generated
  // `HeliaDialect::<Name>AttrHelper` gives each its name and typed access).
  // `verifyOperationAttribute` and `verifyRegionArgAttribute` check them.
  //
  // - platform: module; a preset name or a `#helia.platform`.
  // - rules: module; the ordered list of `#helia.rule`s.
  // - attributes: op or argument; a `#helia.attributes` that overrides
  //   every rule for the op's results.
  // - name: op or argument; the tensor's name (on an op, a string or one
  //   per result).
  // - constant: op; marks a tensor constant: the op must fold (m_Constant)
  //   or be an unregistered op without operands or regions. On a function
  //   argument it is a located error (the caller writes it).
  // - unplanned: function; the planning passes leave it alone (a test
  //   harness or host code around the planned model).
  // - persistent: op or argument; marks a tensor persistent.
  // - placement: resolved placements: on an op, one `#helia.placement` per
  //   result; on a block argument, one `#helia.placement`.
  // - binding: on an op, one `#helia.binding` (or unit for a result that is
  //   not a planned tensor) per result; on a block argument, one
  //   `#helia.binding`.
  // - in_place: op; written by helia-elementwise-in-place on an op without
  //   bufferization (an imported `tfl.*` elementwise op): the index of the
  //   operand whose buffer the op's one result is written over.
  // - memory_limits: module; written by helia-assign-bindings: memory name
  //   to the capacity in bytes the plan was made for, for each memory a
  //   `memory-limit` set.
  // - memory_costs: module; written by helia-assign-bindings: memory name
  //   to `array<i64: read_cycles, write_cycles, access_bytes>` for each
  //   memory a `memory-cost` set (the platform's figures otherwise).
  // - firmware: module; a #helia.firmware record that carries what
  //   helia-assign-sections needs through the conversion to LLVM
  //   (HeliaFirmwareAttrs.td).
  let discardableAttrs = (ins
    "::mlir::Attribute":$platform,
    "::mlir::ArrayAttr":$rules,
    "::mlir::Attribute":$attributes,
    "::mlir::Attribute":$name,
    "::mlir::UnitAttr":$constant,
    "::mlir::UnitAttr":$unplanned,
    "::mlir::UnitAttr":$persistent,
    "::mlir::Attribute":$placement,
    "::mlir::Attribute":$binding,
    "::mlir::IntegerAttr":$in_place,
    "::mlir::DictionaryAttr":$memory_limits,
    "::mlir::DictionaryAttr":$memory_costs,
    "::mlir::Attribute":$firmware,
    "::mlir::ArrayAttr":$carried
  );
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Helia_Residency : I32EnumAttr<"Residency",
    "how a constant is read at run time", [
      I32EnumAttrCase<"Direct", 0, "direct">,
      I32EnumAttrCase<"Pin", 1, "pin">,
      I32EnumAttrCase<"Stream", 2, "stream">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::helia";
}
def Helia_ResidencyAttr : EnumAttr<Helia_Dialect, Helia_Residency, "residency"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "Residency of a constant: direct, pin or stream";
  let description = [{
    `direct`: read in place from its source memory. `pin`: copied once at
    init into its `constant_destination_memory`. `stream`: copied into the
    stream pool before its first reader when the plan schedules it.

    ```mlir
    #helia.residency<pin>
    ```
  }];
}

def Helia_ArenaRole : I32EnumAttr<"ArenaRole", "role of an arena", [
      I32EnumAttrCase<"Scratch", 0, "scratch">,
      I32EnumAttrCase<"Persistent", 1, "persistent">,
      I32EnumAttrCase<"Constant", 2, "constant">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::helia";
}
def Helia_ArenaRoleAttr : EnumAttr<Helia_Dialect, Helia_ArenaRole, "role"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "Arena role: scratch, persistent or constant";
  let description = [{
    `scratch` arenas are writable and reuse slots by lifetime; `persistent`
    arenas are writable and never reused; `constant` arenas hold weights.

    ```mlir
    #helia.role<scratch>
    ```
  }];
}

def Helia_TensorKind : I32EnumAttr<"TensorKind", "kind of a tensor", [
      I32EnumAttrCase<"Scratch", 0, "scratch">,
      I32EnumAttrCase<"Persistent", 1, "persistent">,
      I32EnumAttrCase<"Constant", 2, "constant">,
      I32EnumAttrCase<"Any", 3, "any">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::helia";
}
def Helia_TensorKindAttr : EnumAttr<Helia_Dialect, Helia_TensorKind, "kind"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "Tensor kind: scratch, persistent, constant (or any in rules)";
  let description = [{
    The kind a rule's `type` matches. `any` (written `*` in a rule and in a
    rules file) matches every kind and only appears in rules.

    ```mlir
    #helia.kind<constant>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Enums of the lowering pass options (C++ enums only, no attributes)
//===----------------------------------------------------------------------===//

def Helia_ArenaMode : I32EnumAttr<"ArenaMode",
    "how helia-lower-to-memref materializes writable arenas", [
      I32EnumAttrCase<"Global", 0, "global">,
      I32EnumAttrCase<"Alloc", 1, "alloc">,
      I32EnumAttrCase<"Arg", 2, "arg">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::helia";
}

def Helia_HydrateMode : I32EnumAttr<"HydrateMode",
    "who runs <prefix>_hydrate_constants", [
      I32EnumAttrCase<"Explicit", 0, "explicit">,
      I32EnumAttrCase<"FirstCall", 1, "first-call">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::helia";
}

def Helia_CopyMode : I32EnumAttr<"CopyMode",
    "what helia-lower-copies turns hydrate and stream copies into", [
      I32EnumAttrCase<"Copy", 0, "copy">,
      I32EnumAttrCase<"Dma", 1, "dma">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::helia";
}

#endif // HELIA_DIALECT_HELIA_IR_HELIABASE_TD
