//===- LoweringPasses.td - Lowering passes -----------------*- tablegen -*-===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_LOWERINGPASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_LOWERINGPASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// The lowering: helia-lower-to-memref (buildHeliaLoweringPipeline) runs
// these five passes in this order; see docs/Lowering.md.
//===----------------------------------------------------------------------===//

defvar HeliaArenaModeOption =
    Option<"arenaMode", "arena-mode", "::mlir::helia::ArenaMode",
           /*default=*/"::mlir::helia::ArenaMode::Global",
           "How writable arenas are materialized",
           [{::llvm::cl::values(
             clEnumValN(::mlir::helia::ArenaMode::Global, "global",
                        "one memref.global per arena"),
             clEnumValN(::mlir::helia::ArenaMode::Alloc, "alloc",
                        "trailing arena arguments, allocated by "
                        "<prefix>_alloc_arenas"),
             clEnumValN(::mlir::helia::ArenaMode::Arg, "arg",
                        "trailing arena arguments supplied by the caller"))}]>;
defvar HeliaLoweringPrefixOption =
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Prefix of the generated functions (default: the name of the "
           "first planned function)">;

def HeliaVerifyLowerable : Pass<"helia-verify-lowerable", "::mlir::ModuleOp"> {
  let summary = "Check that a bound module can be lowered to memref";
  let description = [{
    The first pass of `helia-lower-to-memref`; it only checks, so that the
    passes after it never stop half-way on a precondition: every op with
    tensors has a bufferization; in `arena-mode=alloc|arg` every call to a
    function that takes the arenas is a direct call from a planned function
    or from an outermost caller; every planned function has one block and a
    `#helia.binding` on every tensor that owns storage. Warns about a module
    that was never planned (it would get plain allocations).
  }];
  let options = [HeliaArenaModeOption, HeliaLoweringPrefixOption];
}

def HeliaArenaCallingConvention
    : Pass<"helia-arena-calling-convention", "::mlir::ModuleOp"> {
  let summary = "Make the writable arenas trailing arguments (arena-mode)";
  let description = [{
    Applies the arena calling convention: records the helper prefix and the
    planned functions in the module's `helia.firmware` dictionary, creates
    `<prefix>_hydrate_constants` (a stub; helia-materialize-slots writes its
    body) and, in `arena-mode=alloc`, `<prefix>_alloc_arenas` and
    `<prefix>_free_arenas`. In `arena-mode=alloc|arg` every planned function
    and the hydrate function take the writable arenas as trailing
    arguments; a planned caller forwards its own, an outermost caller
    allocates them on entry and frees them before each return.
  }];
  let options = [HeliaArenaModeOption, HeliaLoweringPrefixOption];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def HeliaMaterializeSlots
    : Pass<"helia-materialize-slots", "::mlir::ModuleOp"> {
  let summary = "Rewrite planned tensors into views of their arena slots";
  let description = [{
    Makes the plan real on tensors, before bufferization: each arena becomes
    a memref of `i8` in its memory space (`#helia.memory<"dtcm">`), a
    constant arena a read-only global holding the bytes of its constants
    (staged ones also a runtime arena that `<prefix>_hydrate_constants`
    fills), and each planned buffer's root a `memref.view` into its arena
    at its offset, wrapped in `bufferization.to_tensor restrict`; streamed
    constants get a `helia.stream` into their pool slot before their first
    reader. Values bufferized into another buffer are copied into their
    slot with `bufferization.materialize_in_destination`. The binding and
    placement attributes are dropped afterwards. Arena and slot rewriting
    share one pass because the bindings name the `helia.arena` symbols
    that the globals replace.

    ```mlir
    // helia.arena @scratch_dtcm scratch in "dtcm" size 64 align 16
    memref.global "private" @scratch_dtcm : memref<64xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
    %arena = memref.get_global @scratch_dtcm : memref<64xi8, #helia.memory<"dtcm">>
    %view = memref.view %arena[%c32][] : memref<64xi8, #helia.memory<"dtcm">> to memref<8xf32, #helia.memory<"dtcm">>
    ```
  }];
  let options = [HeliaArenaModeOption];
  let statistics = [
    Statistic<"numArenas", "arenas", "Arenas lowered">,
    Statistic<"numConstants", "constants", "Constants packed into arenas">,
    Statistic<"numStreams", "streams", "Streamed constants">,
    Statistic<"numPlanCopies", "plan-copies",
              "Copies into a planned slot (arguments, call results)">,
  ];
  let dependentDialects = [
    "::mlir::helia::HeliaDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def HeliaBufferizeInPlace
    : Pass<"helia-bufferize-in-place", "::mlir::ModuleOp"> {
  let summary = "One-Shot Bufferize into the planned views, in place only";
  let description = [{
    Runs One-Shot Bufferize with helia's options. Where upstream
    `one-shot-bufferize` would copy an operand it must write out of place,
    this pass reports a located error in a planned function: the plan did
    not count the memory of the copy.

    A module with many planned functions that call each other (128 or
    more) bufferizes them in batches of 64, callees first, each batch in a
    module of its own beside declarations of the callees bufferized
    before: upstream builds a symbol table of the whole module for every
    call it bufferizes, which is quadratic in a deep call chain. The rest
    (host code, functions with tensor constants, recursion) is bufferized
    with the module, as before.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
  ];
  let statistics = [
    Statistic<"numBatched", "batched",
              "planned functions bufferized in batches apart from the module">
  ];
}

def HeliaVerifyNoAllocations
    : Pass<"helia-verify-no-allocations", "::mlir::ModuleOp"> {
  let summary = "Check that planned functions allocate nothing";
  let description = [{
    The last pass of `helia-lower-to-memref`: a `memref.alloc` or
    `memref.alloca` left in a function listed in `helia.firmware` is memory
    the plan did not count, reported at the op.
  }];
}

def HeliaHydrateOnFirstCall
    : Pass<"helia-hydrate-on-first-call", "::mlir::ModuleOp"> {
  let summary = "Make a lowered model run its hydrate function by itself";
  let description = [{
    Runs after helia-lower-to-memref, on a module whose plan has staged
    constants, so that no harness can run the model on unhydrated weights.
    With global arenas, each entry point (a planned function called from
    outside the plan, or not called in the module) begins with a guarded
    call of `<prefix>_hydrate_constants` that runs once per program, kept in
    a flag global `<prefix>_hydrated`. With `arena-mode=alloc`,
    `<prefix>_alloc_arenas` hydrates the arenas it allocates. With
    `arena-mode=arg`, a function of the module that allocates the arenas
    and calls the model hydrates them right after allocating; a function
    that receives them from its own caller cannot know when they are fresh
    and draws a warning. The prefix and the entry points are read from the
    module's `helia.firmware` dictionary. See docs/Lowering.md.

    ```mlir
    func.func @model(...) {
      %flag = memref.get_global @model_hydrated : memref<i1>
      %done = memref.load %flag[] : memref<i1>
      scf.if %not_done {
        func.call @model_hydrate_constants() : () -> ()
        memref.store %true, %flag[] : memref<i1>
      }
      ...
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_LOWERINGPASSES_TD
