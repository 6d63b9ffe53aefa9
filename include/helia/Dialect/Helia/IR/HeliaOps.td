//===- HeliaOps.td - helia operations ----------------------*- tablegen -*-===//

#ifndef HELIA_DIALECT_HELIA_IR_HELIAOPS_TD
#define HELIA_DIALECT_HELIA_IR_HELIAOPS_TD

include "helia/Dialect/Helia/IR/HeliaAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Helia_Op<string mnemonic, list<Trait> traits = []>
    : Op<Helia_Dialect, mnemonic, traits>;

def Helia_ArenaOp : Helia_Op<"arena", [Symbol]> {
  let summary = "A planned arena: one buffer per (role, memory, source memory)";
  let description = [{
    Declares one arena of the memory plan. Scratch arenas reuse bytes by
    lifetime, persistent arenas never do, constant arenas hold weights.
    A constant arena is *cold* when `source_memory` is absent or equals
    `memory` (its bytes are read in place) and *staged* otherwise (a
    writable runtime arena in `memory`, hydrated once from a read-only
    source blob in `source_memory`). A `stream` arena is the pool that
    streamed constants are copied into before their first reader.

    ```mlir
    helia.arena @scratch_dtcm {role = #helia.role<scratch>, memory = "dtcm",
                               size = 4096, alignment = 16}
    helia.arena @constant_dtcm_from_mram {role = #helia.role<constant>,
        memory = "dtcm", source_memory = "mram", size = 1024, alignment = 16}
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    Helia_ArenaRoleAttr:$role,
    StrAttr:$memory,
    OptionalAttr<StrAttr>:$source_memory,
    I64Attr:$size,
    I64Attr:$alignment,
    UnitAttr:$stream
  );
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The memory holding the arena's bytes in the image: `source_memory` if
    /// present, `memory` otherwise.
    ::llvm::StringRef getSourceMemoryOrMemory() {
      return getSourceMemory().value_or(getMemory());
    }
    /// True for a constant arena copied from another memory at init.
    bool isStaged() { return getSourceMemoryOrMemory() != getMemory(); }
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
