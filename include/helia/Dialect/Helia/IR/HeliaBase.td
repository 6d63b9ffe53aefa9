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
  let extraClassDeclaration = [{
    /// Module attribute holding the platform (a preset name or a
    /// `#helia.platform`).
    static constexpr ::llvm::StringLiteral getPlatformAttrName() {
      return ::llvm::StringLiteral("helia.platform");
    }
    /// Module attribute holding the ordered list of `#helia.rule`s.
    static constexpr ::llvm::StringLiteral getRulesAttrName() {
      return ::llvm::StringLiteral("helia.rules");
    }
    /// Op attribute (`#helia.attributes`) that overrides every rule for the
    /// op's results.
    static constexpr ::llvm::StringLiteral getAttributesAttrName() {
      return ::llvm::StringLiteral("helia.attributes");
    }
    /// Op or argument attribute giving a tensor its name.
    static constexpr ::llvm::StringLiteral getNameAttrName() {
      return ::llvm::StringLiteral("helia.name");
    }
    /// Op attribute that marks a tensor constant: the op must fold
    /// (m_Constant) or be an unregistered op without operands or regions.
    /// On a function argument it is a located error (the caller writes it).
    static constexpr ::llvm::StringLiteral getConstantAttrName() {
      return ::llvm::StringLiteral("helia.constant");
    }
    /// Function attribute: the planning passes leave this function alone
    /// (a test harness or host code around the planned model).
    static constexpr ::llvm::StringLiteral getUnplannedAttrName() {
      return ::llvm::StringLiteral("helia.unplanned");
    }
    /// Op or argument attribute that marks a tensor persistent.
    static constexpr ::llvm::StringLiteral getPersistentAttrName() {
      return ::llvm::StringLiteral("helia.persistent");
    }
    /// Resolved placements: on an op, an array with one `#helia.placement`
    /// per result; on a block argument, one `#helia.placement`.
    static constexpr ::llvm::StringLiteral getPlacementAttrName() {
      return ::llvm::StringLiteral("helia.placement");
    }
    /// Bindings: on an op, an array with one `#helia.binding` (or unit for a
    /// result that is not a planned tensor) per result; on a block argument,
    /// one `#helia.binding`.
    static constexpr ::llvm::StringLiteral getBindingAttrName() {
      return ::llvm::StringLiteral("helia.binding");
    }
    /// Op attribute written by helia-elementwise-in-place on an op without
    /// bufferization (an imported `tfl.*` elementwise op): the index of the
    /// operand whose buffer the op's one result is written over. The
    /// planner (BufferAnalysis) gives the result that operand's buffer.
    static constexpr ::llvm::StringLiteral getInPlaceAttrName() {
      return ::llvm::StringLiteral("helia.in_place");
    }
    /// Module attribute written by helia-assign-bindings: a dictionary of
    /// memory name to the capacity in bytes the plan was made for, for each
    /// memory a `memory-limit` set (the platform gives the others).
    static constexpr ::llvm::StringLiteral getMemoryLimitsAttrName() {
      return ::llvm::StringLiteral("helia.memory_limits");
    }
    /// Module attribute, a dictionary of builtin attributes that carries
    /// what helia-assign-sections needs through the conversion to LLVM:
    /// `prefix` (set by helia-lower-to-memref), `platform` and `arenas`
    /// (one {global, memory} per arena global, set by helia-lower-copies).
    static constexpr ::llvm::StringLiteral getFirmwareAttrName() {
      return ::llvm::StringLiteral("helia.firmware");
    }
  }];
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
