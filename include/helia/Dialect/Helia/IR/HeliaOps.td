//===- HeliaOps.td - helia operations ----------------------*- tablegen -*-===//

#ifndef HELIA_DIALECT_HELIA_IR_HELIAOPS_TD
#define HELIA_DIALECT_HELIA_IR_HELIAOPS_TD

include "helia/Dialect/Helia/IR/HeliaAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Helia_Op<string mnemonic, list<Trait> traits = []>
    : Op<Helia_Dialect, mnemonic, traits>;

def Helia_ArenaOp : Helia_Op<"arena", [Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A planned arena: one buffer per (role, memory, source memory)";
  let description = [{
    Declares one arena of the memory plan: its role, the memory its tensors
    live in at run time, and for a constant arena copied at init the memory
    its bytes come from (`from`). Scratch arenas reuse bytes by lifetime,
    persistent arenas never do, constant arenas hold weights. A constant
    arena is *cold* when it has no `from` memory, or the same one (its bytes
    are read in place), and *staged* otherwise (a writable runtime arena in
    `memory`, hydrated once from a read-only source blob in `source_memory`).
    A `stream` arena is the pool that streamed constants are copied into
    before their first reader. Size and alignment are in bytes.

    ```mlir
    helia.arena @scratch_dtcm scratch in "dtcm" size 4096 align 16
    helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram"
        size 1024 align 16
    helia.arena @stream_sram scratch in "sram" stream size 512 align 16
    ```

    Tensors refer to their arena by name (`#helia.binding<@scratch_dtcm[64]>`);
    the arena checks, once per module, that every binding naming it lies
    inside it at its alignment (verifySymbolUses).
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    Helia_ArenaRoleAttr:$role,
    StrAttr:$memory,
    OptionalAttr<StrAttr>:$source_memory,
    ConfinedAttr<I64Attr, [IntPositive]>:$size,
    IntValidAlignment<I64Attr>:$alignment,
    UnitAttr:$stream
  );
  let assemblyFormat = [{
    $sym_name custom<ArenaRole>($role) `in` $memory
    (`from` $source_memory^)? (`stream` $stream^)?
    `size` $size `align` $alignment attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The memory holding the arena's bytes in the image: `source_memory` if
    /// present, `memory` otherwise.
    ::llvm::StringRef getSourceMemoryOrMemory() {
      return getSourceMemory().value_or(getMemory());
    }
    /// What the arena is (role and memories), with its predicates.
    ::mlir::helia::ArenaClass getArenaClass() {
      return {getRole(), getMemory(), getSourceMemoryOrMemory()};
    }
    /// True for a constant arena copied from another memory at init.
    bool isStaged() { return getArenaClass().isStaged(); }
    /// True for a constant arena read in place.
    bool isCold() { return getArenaClass().isCold(); }
  }];
}

class Helia_CopyOp<string mnemonic> : Helia_Op<mnemonic> {
  let arguments = (ins Arg<AnyStaticShapeMemRef, "bytes to copy", [MemRead]>:$source,
                       Arg<AnyStaticShapeMemRef, "where they go", [MemWrite]>:$target);
  let assemblyFormat = [{
    $source `,` $target attr-dict `:` type($source) `,` type($target)
  }];
  let hasVerifier = 1;
}

def Helia_HydrateOp : Helia_CopyOp<"hydrate"> {
  let summary = "Copy a staged constant arena from its source blob at init";
  let description = [{
    Copies the read-only source blob of a staged constant arena into its
    writable runtime arena, once, before the first run. Source and target
    hold the same number of bytes.

    ```mlir
    helia.hydrate %src, %dst : memref<1024xi8, #helia.memory<"mram">>,
                               memref<1024xi8, #helia.memory<"dtcm">>
    ```
  }];
}

def Helia_StreamOp : Helia_CopyOp<"stream"> {
  let summary = "Copy a streamed constant into its stream-pool slot";
  let description = [{
    Copies a constant from its source memory into its slot in the stream
    pool right before its first reader. Source and target hold the same
    number of bytes.

    ```mlir
    helia.stream %w, %slot : memref<16x16xf32, #helia.memory<"mram">>,
                             memref<16x16xf32, #helia.memory<"sram">>
    ```
  }];
}

#endif // HELIA_DIALECT_HELIA_IR_HELIAOPS_TD
