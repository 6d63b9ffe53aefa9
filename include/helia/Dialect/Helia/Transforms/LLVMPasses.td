//===- LLVMPasses.td - Passes to LLVM and firmware ---------*- tablegen -*-===//
//
// After the lowering: the copies, then the conversion to the LLVM dialect
// and the firmware sections (buildHeliaToLLVMPipeline).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_LLVMPASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_LLVMPASSES_TD

include "mlir/Pass/PassBase.td"

def HeliaLowerCopies : Pass<"helia-lower-copies", "::mlir::ModuleOp"> {
  let summary = "Lower helia.hydrate and helia.stream, erase memory spaces";
  let description = [{
    Turns every `helia.hydrate` and `helia.stream` into a `memref.copy`
    (`mode=copy`, the default) or a `memref.dma_start`/`memref.dma_wait`
    pair on a module-level tag (`mode=dma`). With `erase-memory-spaces`
    (the default) it then rewrites every `#helia.memory<...>` memory space
    to the default one: a microcontroller's memories share one flat address
    space, so placement is carried by the arena globals and their names,
    and the module converts with `--finalize-memref-to-llvm`.

    Before the erase it adds to the module's `#helia.firmware` record the
    platform, the memory of every global that has one, the C interfaces
    and the host code, and asks for the C interface of the planned
    functions; the record then takes its builtin form (tools without the
    helia dialect read the module), which helia-assign-sections reads
    after the conversion to LLVM.
    The copies carry the location name `helia.copy` so that it finds them
    (docs/Firmware.md).

    ```mlir
    helia.stream %w, %slot : memref<64xf32, #helia.memory<"mram">>, memref<64xf32, #helia.memory<"dtcm">>
    // becomes
    memref.copy %w, %slot : memref<64xf32> to memref<64xf32>
    ```
  }];
  let options = [
    Option<"mode", "mode", "::mlir::helia::CopyMode",
           /*default=*/"::mlir::helia::CopyMode::Copy",
           "What hydrate and stream copies become",
           [{::llvm::cl::values(
             clEnumValN(::mlir::helia::CopyMode::Copy, "copy", "memref.copy"),
             clEnumValN(::mlir::helia::CopyMode::Dma, "dma",
                        "memref.dma_start followed by memref.dma_wait"))}]>,
    Option<"eraseMemorySpaces", "erase-memory-spaces", "bool",
           /*default=*/"true",
           "Rewrite #helia.memory memory spaces to the default memory space">,
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset recorded for helia-assign-sections; overrides "
           "the module's helia.platform">,
  ];
  let statistics = [
    Statistic<"numCopies", "copies", "Copies lowered">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def HeliaExpandStridedCopies
    : Pass<"helia-expand-strided-copies", "::mlir::ModuleOp"> {
  let summary = "Rewrite memref.copy of non-contiguous memrefs as loops";
  let description = [{
    `--finalize-memref-to-llvm` lowers a `memref.copy` whose source or
    target is not contiguous to a call of the `memrefCopy` runtime function,
    which a firmware image does not have. This pass rewrites each such copy
    as a `linalg.copy`, which `--convert-linalg-to-loops` turns into loops;
    contiguous copies stay `memref.copy` (an `llvm.intr.memcpy`). Run it
    before `--convert-linalg-to-loops`. See docs/Firmware.md.

    ```mlir
    memref.copy %a, %b : memref<2x2xf32, strided<[4, 1]>> to memref<2x2xf32>
    // becomes
    linalg.copy ins(%a : memref<2x2xf32, strided<[4, 1]>>) outs(%b : memref<2x2xf32>)
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def HeliaOutlineLoopNests
    : Pass<"helia-outline-loop-nests", "::mlir::ModuleOp"> {
  let summary = "Give every top-level loop nest a function of its own";
  let description = [{
    After `--convert-linalg-to-loops` a network is one function of many
    loop nests, one per op. The register allocator then works on the whole
    function: which loop bounds and counters it spills, and where it
    reloads them, follows from every op's code, so moving one buffer to
    another arena moves stack traffic in loops that never touch it. This
    pass moves each top-level `scf.for` and `scf.parallel` (without
    results) of a function with one block into a private function of its
    own, with internal linkage and marked `noinline`, and calls it in its
    place, as a kernel library runs one kernel call per op: each op's
    registers are allocated in its own function. The values a loop nest
    uses from outside are cloned into its function when they are free of
    memory effects (constants, `memref.get_global` of an arena, views and
    casts of it, index arithmetic), so that every access still traces to
    its arena (the slot alias scopes, docs/Firmware.md); the others
    (function arguments, loaded scalars) become arguments. The functions
    are named `<function>_op<N>`, N counting the nests of the function in
    order. Run it after `--convert-linalg-to-loops` and before
    `--convert-scf-to-cf` (helia-memory-pipeline `outline-ops`).

    ```mlir
    func.func @model() {
      %a = memref.get_global @arena : memref<64xi8>
      scf.for %i = %c0 to %c64 step %c1 { ... %a ... }
      return
    }
    // becomes
    func.func private @model_op0() attributes {
        llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]} {
      %a = memref.get_global @arena : memref<64xi8>
      scf.for %i = %c0 to %c64 step %c1 { ... %a ... }
      return
    }
    func.func @model() {
      call @model_op0() : () -> ()
      return
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def HeliaApproximateMath
    : Pass<"helia-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Rewrite math functions as polynomial approximations";
  let description = [{
    Runs before the conversion to LLVM (`to-llvm=true` of
    helia-memory-pipeline, unless `approximate-math=false`). The conversion
    turns `math.exp`, `math.tanh`, `math.log`, ... into calls of libm
    (`expf`, `tanhf`, ...), which a firmware image does not have, and
    leaves `math.erf`. This pass rewrites them with MLIR's f32 expansions
    and polynomial approximations (`populateMathF32ExpansionPatterns`,
    `populateMathPolynomialApproximationPatterns`): plain arithmetic, so
    the module calls no math library and the host's run of the lowered
    module prints the device's bits. See docs/Firmware.md.

    ```mlir
    %y = math.tanh %x : f32
    // becomes a rational approximation: arith.mulf, arith.addf, math.fma,
    // arith.divf and a clamp of %x
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def HeliaMarkSlotAliasScopes
    : Pass<"helia-mark-slot-alias-scopes", "::mlir::ModuleOp"> {
  let summary = "Mark which slot every memref load and store accesses";
  let description = [{
    Runs on the memref loops, before `expand-strided-metadata` (while
    subviews, in bounds by construction, are not yet reinterpret casts) and
    the conversion to the LLVM dialect (`to-llvm=true` of
    helia-memory-pipeline). A planned function's
    slots are views of one arena: to LLVM they are offsets into one object,
    and a load of one slot may alias a store to another whenever an index
    is variable. A convolution's accumulator is then stored after every
    multiply-accumulate, because LLVM cannot keep it in a register across a
    loop that reads the input window from the same arena.

    For every `memref.load`, `memref.store`, `vector.load` and
    `vector.store`, the pass follows the accessed memref through `subview`,
    `reinterpret_cast`, `cast`, `expand_shape`, `collapse_shape`,
    `extract_strided_metadata` and `memref.view` (a constant byte shift) to
    its root (an arena global, a function argument, an allocation) and
    computes the byte range the access can touch: from the memref's static
    layout, or from the view's extent when only in-bounds views lie between.
    Each distinct range of a root is an LLVM alias scope (one domain per
    function); an access is marked `noalias` with every range of the *same
    root* that is disjoint from its own. Nothing is claimed between
    different roots, or for ranges that overlap (a slot shared by two
    tensors in time, an in-place update, two views of one buffer): those
    stay ordered. An access whose range is unknown (a dynamic layout, a
    dynamic shift) is left unmarked.

    The marks travel on the ops' locations (a `FusedLoc` whose metadata is
    `{helia.alias_scopes, helia.noalias_scopes}`), which the conversion
    patterns carry to the `llvm.load`/`llvm.store` they create;
    helia-attach-slot-alias-scopes moves them onto those ops. See
    docs/Firmware.md, "Alias scopes of the slots".
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def HeliaAttachSlotAliasScopes
    : Pass<"helia-attach-slot-alias-scopes", "::mlir::ModuleOp"> {
  let summary = "Move the slot alias scopes onto the LLVM loads and stores";
  let description = [{
    Runs after the conversion to the LLVM dialect. Every `llvm.load` and
    `llvm.store` whose location carries the marks of
    helia-mark-slot-alias-scopes gets them as its `alias_scopes` and
    `noalias_scopes` (LLVM IR's `!alias.scope` and `!noalias` metadata);
    every location in the module is then restored to the one it had before
    the marking.
  }];
}

def HeliaNameSlotAddresses
    : Pass<"helia-name-slot-addresses", "::mlir::ModuleOp"> {
  let summary = "Give the address of every slot of an arena a symbol of its own";
  let description = [{
    Runs after the conversion to the LLVM dialect. A slot is a constant byte
    shift into an arena global (an `llvm.getelementptr` of `i8` with a
    constant index on the global's address, which the lowering of a
    `memref.view` makes). The ARM backend does not fold an offset into a
    global's address: it materializes the arena's address once and adds
    each slot's offset, in a load's immediate when it is below 4096 and in
    a register of its own otherwise, so the code of an op, and the
    registers it spills, change with the offsets and the arenas the plan
    gives its operands. This pass replaces each such address by a
    `private` `llvm.mlir.alias` of the arena at that offset (an assembler
    label, no symbol in the object): every slot is then one
    rematerializable address (`movw`/`movt`) wherever it lives, and LLVM's
    alias analysis still sees through the alias to the arena and the
    offset. See docs/Firmware.md, "Slot addresses".

    `arenas=constant` names the slots of constant (read-only) arenas
    only, `writable` those of writable arenas only, `all` (the default)
    both.
  }];
  let options = [
    Option<"arenas", "arenas", "std::string", /*default=*/"\"all\"",
           "Which arenas' slots get names: all, constant or writable">,
  ];
}

def HeliaVerifyLLVM : Pass<"helia-verify-llvm", "::mlir::ModuleOp"> {
  let summary = "Check that the conversion to LLVM left only LLVM-dialect ops";
  let description = [{
    Runs after the conversion to the LLVM dialect (`to-llvm=true` of
    helia-memory-pipeline). The upstream conversions are partial: an op no
    pattern converts (a `tosa.apply_scale` that `tosa-to-arith` without
    `include-apply-rescale` left inside a `linalg.generic`, an op of an
    unregistered dialect) would stay, and only mlir-translate would fail.
    Every op outside the LLVM dialect is a located error that names the
    pass that lowers it. See docs/Firmware.md.

    ```mlir
    llvm.func @f(%a: i32, %m: i32, %s: i8) -> i32 {
      // error: 'tosa.apply_scale' is left after the conversion to the LLVM
      // dialect; it needs tosa-to-arith{include-apply-rescale=true} ...
      %0 = tosa.apply_scale %a, %m, %s {rounding_mode = DOUBLE_ROUND} : (i32, i32, i8) -> i32
      llvm.return %0 : i32
    }
    ```
  }];
}

def HeliaAssignSections : Pass<"helia-assign-sections", "::mlir::ModuleOp"> {
  let summary = "Place every arena global in its memory's section (LLVM)";
  let description = [{
    Runs on the LLVM dialect, after the upstream conversions of a module that
    `helia-lower-copies` recorded (module attribute `helia.firmware`: the
    prefix, the platform, and the memory of every arena global). Each arena
    `llvm.mlir.global` gets a public name `<prefix>_arena_<memory>_<arena>`,
    its memory's section (the platform's `section` of the memory, else
    `.bss.helia.<memory>.<arena>` for writable arenas and
    `.rodata.helia.<memory>.<arena>` for constant ones), the alignment of
    the arena (at least the platform's), and constant arenas become
    `externally_initialized` so that the optimizer neither folds their bytes
    nor deletes the copies that read them. It adds the arena table
    `<prefix>_arena_buffers` (address and size of every arena, by region
    id), makes `<prefix>_hydrate_constants` weak (an empty one when nothing
    is staged), turns the hydrate and stream copies into calls of the weak
    `<prefix>_copy`, makes the `helia.unplanned` host code weak (a C `main`
    replaces the harness) and every function `nounwind`. It generates the
    model API over the first planned function: `<prefix>_model_init_plan`,
    `<prefix>_model_run`, `<prefix>_bind_arena` and the plan hash
    (`<prefix>_plan_hash`, `<prefix>_plan_<hash>`), the same symbols
    whatever the plan. With `ld=<path>` it writes a linker-script fragment
    (one output section per memory, in the board's MEMORY regions), with
    `header=<path>` the C header: the model API (context, shapes, regions,
    status codes) and, underneath, the arenas, the table and the entry
    points' C interface. See docs/Firmware.md.

    ```mlir
    llvm.mlir.global private @scratch_dtcm() {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
    // becomes
    llvm.mlir.global external @model_arena_dtcm_scratch_dtcm() {addr_space = 0 : i32, alignment = 16 : i64, section = ".bss.helia.dtcm.scratch_dtcm"} : !llvm.array<64 x i8>
    ```
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the platform helia-lower-copies "
           "recorded">,
    Option<"ld", "ld", "std::string", /*default=*/"\"\"",
           "Write the linker-script fragment to this path ('-': stdout)">,
    Option<"ldMemory", "ld-memory", "bool", /*default=*/"true",
           "Put the board's MEMORY block in the fragment (false: the "
           "application's script has the regions, e.g. the vendor's)">,
    Option<"header", "header", "std::string", /*default=*/"\"\"",
           "Write the C header to this path ('-': stdout)">,
    Option<"triple", "triple", "std::string", /*default=*/"\"\"",
           "Target triple to set on the module (e.g. "
           "thumbv8.1m.main-none-unknown-eabihf)">,
    Option<"dataLayout", "data-layout", "std::string", /*default=*/"\"\"",
           "LLVM data layout string to set on the module">,
    Option<"modelApi", "model-api", "bool", /*default=*/"true",
           "Generate the model API (init, run, bind, plan hash); false "
           "leaves only the entry points' C interface">,
  ];
  let statistics = [
    Statistic<"numArenas", "arenas", "Arena globals placed">,
    Statistic<"numPlanCopies", "plan-copies",
              "Hydrate and stream copies turned into calls of the hook">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
  ];
}

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_LLVMPASSES_TD
