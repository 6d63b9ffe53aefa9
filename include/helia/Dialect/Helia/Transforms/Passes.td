//===- Passes.td - helia passes ----------------------------*- tablegen -*-===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HeliaInsertTensorCopies
    : Pass<"helia-insert-tensor-copies", "::mlir::ModuleOp"> {
  let summary = "Make every copy One-Shot Bufferize will make an explicit op";
  let description = [{
    Runs One-Shot Analysis on the module with the options that
    `helia-lower-to-memref` bufferizes with, and resolves each conflict it
    finds in a planned function with upstream tensor copy insertion: a
    `bufferization.alloc_tensor` (with `copy` when the old value is read)
    where bufferization would otherwise allocate a buffer of its own. After
    it, bufferization writes every op of a planned function in place, so the
    buffers the planner counts (BufferAnalysis) are exactly the buffers
    bufferization creates, and each `alloc_tensor` is one of them.

    The arguments of planned functions are read-only for the analysis (they
    are the caller's data; constants are read-only anyway): an op that would
    write into one writes into a copy. So does an op that writes into a
    value that may be one of several buffers (the result of an `scf.if`
    whose branches yield different buffers), which owns no storage of its
    own. Functions marked `helia.unplanned`
    are analysed, for their calls, but not changed; ops without
    bufferization (`tfl.*`, TOSA) are left as they are.

    The planner counts the buffers of the tensors at the top level of a
    function body, so storage created inside `scf.if` branches is given one
    there: the results of a call in a branch are copied (`linalg.copy`) into
    a new tensor, as helia's callers copy call results into their own slots,
    and after copy insertion every tensor with undefined contents created in
    a branch (`tensor.empty`, `alloc_tensor` without `copy`) moves right
    before the top-level op that holds it. Storage created in a loop body
    stays there; the planner reports it. `helia-memory-pipeline` runs this
    pass first.

    A tensor that an `scf.for` carries and computes anew in every iteration
    is written into the carried buffer (one slot) when its old value is no
    longer read from the successor's first write on; otherwise the
    successor gets a slot of its own and is copied back into the carried
    slot before the `scf.yield` (two slots, a copy per iteration). The
    loop records each choice and its reason in `helia.carried` (an array
    of `{iter_arg, choice, reason}`), which the plan's JSON and report
    show. `carry-in-place=false` forces the second form on every such
    value (to measure what double buffering costs).
  }];
  let options = [
    Option<"carryInPlace", "carry-in-place", "bool", /*default=*/"true",
           "Write a loop-carried tensor computed anew in each iteration "
           "into the carried buffer when its old value is dead by then "
           "(false: a second slot and a copy back, for measuring)">,
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::helia::HeliaDialect"];
}

def HeliaFuseAccumulators
    : InterfacePass<"helia-fuse-accumulators",
                    "::mlir::FunctionOpInterface"> {
  let summary = "Compute wide accumulators one tile at a time";
  let description = [{
    A quantized convolution, depthwise convolution, matmul or pooling op
    lowered from TOSA writes its whole output in its accumulator type (i32
    for int8, i48 for 16x8) before an elementwise `linalg.generic` adds the
    bias, rescales and clamps it to int8: the plan then holds the
    accumulator at four times the output's size, which TFLite Micro never
    materialises. This pass tiles each such elementwise consumer to single
    elements and fuses the reduction op and its initialisation into the
    tile loop, so that the accumulator is one scalar at a time (an `scf.for`
    nest whose tile temporaries helia plans as one small buffer each). Every
    output element is still computed from its window exactly once: the
    smaller tile costs loop overhead, not arithmetic. A convolution's padded
    input is not built either: each output position fills a window-sized
    tile with the padding value and inserts the part of the input that the
    window covers (clamped at the borders), once per position, so that the
    plan holds a layer's input and output as TFLite Micro does, plus two
    tiles. Chains of elementwise generics are merged first
    (as `linalg-fuse-elementwise-ops` does, except into reductions, so that
    a pooling op's sum does not swallow the rescale of the convolution
    before it). Only reductions directly in the function body are tiled:
    one inside a region (an LSTM's gates in its time loop) already
    accumulates one iteration's values. Run it after `tosa-to-linalg`; the
    computation is unchanged, element for element (docs/TFLite.md,
    "Memory").

    ```mlir
    %acc = linalg.conv_2d_nhwc_fhwc_q ins(%in, %w, ...) outs(%bias : tensor<1x8x8x6xi32>)
    %out = linalg.generic ... ins(%acc : tensor<1x8x8x6xi32>) outs(%e : tensor<1x8x8x6xi8>)
    // becomes, per output element (%y, %x, %c):
    %a = linalg.conv_2d_nhwc_fhwc_q ins(%window, %w_c, ...) outs(%bias_c : tensor<1x1x1x1xi32>)
    %o = linalg.generic ... ins(%a : tensor<1x1x1x1xi32>) outs(... : tensor<1x1x1x1xi8>)
    %r = tensor.insert_slice %o into %carried[0, %y, %x, %c] [1, 1, 1, 1] [1, 1, 1, 1]
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numFused", "fused", "reduction ops fused into their consumer's tile loop">
  ];
}

def HeliaPadInPlace
    : InterfacePass<"helia-pad-in-place", "::mlir::FunctionOpInterface"> {
  let summary = "Make the producer of a padded tensor write into the padding";
  let description = [{
    `tensor.pad` copies its source into a larger tensor: a convolution with
    SAME padding holds its input twice, once as the previous layer wrote it
    and once padded. When the source is computed into a `tensor.empty`
    (through destination operands, `scf.for` iter_args and
    `tensor.insert_slice` destinations, each with no other reader), this
    pass fills a tensor of the padded shape with the padding value before
    the producer runs and makes the producer write into its interior; the
    pad becomes a `tensor.insert_slice` of the source into the same place,
    which bufferizes in place. One buffer holds the layer's input with its
    border, as in TFLite Micro's kernels, which read around the input.

    ```mlir
    %e = tensor.empty() : tensor<1x8x8x4xi8>
    %x = linalg.generic ... outs(%e : tensor<1x8x8x4xi8>)
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] { tensor.yield %zp : i8 }
    // becomes
    %b = tensor.empty() : tensor<1x10x10x4xi8>
    %f = linalg.fill ins(%zp : i8) outs(%b : tensor<1x10x10x4xi8>)
    %e = tensor.extract_slice %f[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
    %x = linalg.generic ... outs(%e : tensor<1x8x8x4xi8>)
    %p = tensor.insert_slice %x into %f[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numPads", "pads", "pads whose source is now written in place">
  ];
}

def HeliaFoldConstantSubgraphs
    : InterfacePass<"helia-fold-constant-subgraphs",
                    "::mlir::FunctionOpInterface"> {
  let summary = "Fold ops that only move constant elements into constants";
  let description = [{
    Evaluates at compile time the ops of a planned function that compute a
    tensor from constants by moving elements only, so that the result is a
    constant (flash) instead of a scratch tensor (RAM): `linalg.broadcast`,
    `linalg.transpose`, `linalg.copy`, a `linalg.generic` whose body only
    yields an input element (each input dimension a loop dimension or a
    constant index, the output map a permutation), `linalg.fill` of a
    constant, and reshapes of constants. Chains fold as a whole. A result is
    folded only when every user reads it (none writes into it as a
    destination). There is no arithmetic, so the folded bytes are exactly the
    bytes the op would write. The plan report lists the scratch computed from
    constants alone and the RAM folding saves (docs/Frontend.md).

    ```mlir
    %e = tensor.empty() : tensor<16x64x192xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, ...],
                         iterator_types = ["parallel", "parallel", "parallel"]}
           ins(%w : tensor<64x192xf32>) outs(%e : tensor<16x64x192xf32>) {...}
    // becomes
    %b = arith.constant dense<...> : tensor<16x64x192xf32>
    ```
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "Ops folded into constants">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def HeliaElementwiseInPlace
    : Pass<"helia-elementwise-in-place", "::mlir::ModuleOp"> {
  let summary = "Write elementwise results over inputs that die there";
  let description = [{
    Lets an elementwise op write its result over an input that nothing reads
    afterwards, so that the planner counts one buffer where it counted two.
    The input must be a scratch tensor computed in the function (never an
    argument, which the caller still owns, a constant or a persistent
    tensor), none of whose storage is read by a later op (BufferAnalysis),
    and read by the op at exactly the index written.

    On linalg: an op with parallel loops only (`linalg.generic`, or a named
    op such as `linalg.add`, `linalg.exp`) with a scratch result, whose
    init is a `tensor.empty` (or `alloc_tensor` without copy) that the
    payload does not read, takes
    as init an input of the result's type whose indexing map is the init's
    and a permutation (no broadcast, no transposed read); One-Shot Bufferize
    then writes in place. A `linalg.generic` reads that input through the
    init's block argument (the input and its block argument go); a named op
    keeps it as an input too (bufferization reads and writes it at the same
    index). The unused `tensor.empty` goes. One result per op.

    On ops without bufferization: an op of the table of elementwise
    TensorFlow Lite ops (`tfl.add`, `sub`, `mul`, `div`,
    `squared_difference`, `maximum`, `minimum`, `logistic`, `tanh`,
    `relu`, `relu6`, `relu_n1_to_1`, `relu_0_to_1`, `leaky_relu`,
    `hard_swish`, `elu`, `exp`, `log`, `sqrt`, `rsqrt`, `abs`, `neg`,
    `square`, `floor`, `ceil`, `round`, `sin`, `cos`, `logical_not`,
    `quantize`, `dequantize`, `cast`) with one scratch result gets
    `helia.in_place = <operand index>` for its first operand of the
    result's shape and byte size whose buffer dies there; BufferAnalysis
    stores the result in that operand's buffer (and rejects a mark whose
    operand is read later). The kernels of these ops must tolerate an
    output that aliases that input (docs/Design.md).

    Then One-Shot Analysis (with the options and read-only arguments of
    `helia-insert-tensor-copies`) runs before and after the new
    destinations: a destination it would not write in place, or one that
    makes it copy another operand, is given back, so that bufferization
    still writes every op in place and the plan counts every buffer.

    Functions marked `helia.unplanned` are left alone. The analysis
    assumes that every op writes in place, so run it after
    `helia-insert-tensor-copies` (which gives each destination a tensor of
    its own); `helia-memory-pipeline` does with `in-place=true`.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::helia::HeliaDialect"];
}

def HeliaResolveResidency : Pass<"helia-resolve-residency", "::mlir::ModuleOp"> {
  let summary = "Give every tensor its kind and its resolved placement";
  let description = [{
    For every tensor of every function (op results and entry-block
    arguments) decides its kind (`constant`, `persistent`, `scratch`), applies
    the placement rules with heliaAOT's precedence, and attaches the merged
    attributes as `helia.placement`. See docs/Rules.md.
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    Option<"rulesFile", "rules-file", "std::string", /*default=*/"\"\"",
           "JSON rules file (heliaAOT field names); overrides helia.rules">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark per tensor saying which rule set each field">,
    Option<"allPlacements", "all-placements", "bool", /*default=*/"false",
           "Write a #helia.placement on every tensor, also those that no "
           "rule places (to inspect ids, names and kinds); by default only "
           "tensors a rule or helia.attributes sets a field of get one">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

def HeliaAssignBindings : Pass<"helia-assign-bindings", "::mlir::ModuleOp"> {
  let summary = "Bind every tensor to an arena offset and create the arenas";
  let description = [{
    Groups tensors into the buffers One-Shot Bufferize creates (a value
    stored in an operand's buffer, e.g. a view or a destination-style
    result, joins it; see helia-insert-tensor-copies), computes lifetimes
    on the schedule, chooses a
    memory for every tensor the rules left open (the platform's preferred
    order, spilling to the next memory when one is full; constants cold in
    the first non-volatile memory, never in one empty at boot such as
    PSRAM), schedules streamed constants into the stream pool, and packs
    every arena with the packing library. Writes a `#helia.binding` on every
    tensor and one `helia.arena` per (role, memory, source memory). Over
    capacity is a located error that names the memory, the shortfall and the
    tensors live at the peak step. The planning is the planner classes'
    (`Analysis/BindingPlanner.h`); the pass parses its options, builds the
    schedule and writes the plan.
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    Option<"algorithm", "algorithm", "::helia::planner::Algorithm",
           /*default=*/"::helia::planner::Algorithm::Best",
           "Packing algorithm",
           [{::llvm::cl::values(
             clEnumValN(::helia::planner::Algorithm::GreedyBySize,
                        "greedy-by-size", "TFLite Micro's greedy planner"),
             clEnumValN(::helia::planner::Algorithm::Heuristic, "heuristic",
                        "portfolio of greedy orderings, no search"),
             clEnumValN(::helia::planner::Algorithm::Best, "best",
                        "heuristics, then branch-and-bound search"))}]>,
    Option<"effort", "effort", "uint64_t",
           /*default=*/"::helia::planner::kDefaultEffort",
           "Search budget of algorithm=best, in search nodes">,
    Option<"streamPool", "stream-pool", "std::string", /*default=*/"\"\"",
           "Memory of the stream pool (default: the first preferred memory)">,
    Option<"streamBudget", "stream-budget", "uint64_t", /*default=*/"0",
           "Byte budget of the stream pool (0: only the memory's capacity)">,
    ListOption<"memoryLimits", "memory-limit", "std::string",
               "Byte limit of a memory, as name=bytes (repeatable)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Explain spills, stream fallbacks and the objective's choices "
           "with remarks">,
    Option<"objective", "objective", "::helia::planner::Objective",
           /*default=*/"::helia::planner::Objective::Default",
           "What the homes of open constants and the scratch spills "
           "optimise (docs/Placement.md)",
           [{::llvm::cl::values(
             clEnumValN(::helia::planner::Objective::Default, "default",
                        "constants cold where the rules put them"),
             clEnumValN(::helia::planner::Objective::Traffic, "traffic",
                        "predicted memory cycles per inference"),
             clEnumValN(::helia::planner::Objective::Exact, "exact",
                        "the same, solved exactly (small models)"),
             clEnumValN(::helia::planner::Objective::Hand, "hand",
                        "pin the constants with the most traffic that fit"),
             clEnumValN(::helia::planner::Objective::FastShare, "fast-share",
                        "pin by size x readers, the fast_share proxy"))}]>,
    Option<"amortize", "amortize", "uint64_t", /*default=*/"1000",
           "Inferences a pin's one hydration is amortised over">,
    ListOption<"memoryCosts", "memory-cost", "std::string",
               "Access costs of a memory, as name=read,write[,access_bytes] "
               "in cycles (repeatable)">,
    Option<"trafficProfile", "traffic-profile", "std::string",
           /*default=*/"\"\"",
           "Measured traffic per tensor (bench/traffic.py --profile) that "
           "the objective prices placements by instead of the static model; "
           "tensors it does not give keep the static model's">,
  ];
  let statistics = [
    Statistic<"numProfiled", "profiled",
              "Buffers whose traffic comes from the traffic profile">,
    Statistic<"numSpilled", "spilled",
              "Scratch buffers moved to a later preferred memory">,
    Statistic<"numPinnedByObjective", "pinned-by-objective",
              "Constants the objective pinned into a preferred memory">,
    Statistic<"numStreamFallbacks", "stream-fallbacks",
              "Streamed constants read in place instead">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

def HeliaVerifyPlan : Pass<"helia-verify-plan", "::mlir::ModuleOp"> {
  let summary = "Check a bound module independently of the planner";
  let description = [{
    Recomputes buffers and lifetimes and checks the plan written in the IR:
    every tensor bound; tensors that share storage bound alike; no two
    tensors live at the same step overlap in the same arena (constants and
    persistent tensors are live for the whole program; stream slots from
    their copy to their last reader); every tensor inside its arena and
    aligned; every memory's arenas within its capacity.

    Then, without the module timeline the planner packs on, it replays the
    module's execution (calls, argument and result copies, stream copies,
    hydration) and checks that every read of a tensor finds the bytes its
    buffer wrote (docs/Design.md, "Time across calls"). `replay-only` runs
    that check alone.

    A plan with staged constants needs `<prefix>_hydrate_constants` called
    once before the model runs: host code in the module (an
    `helia.unplanned` function) that calls a planned function with no call
    of the hydrate function before it draws a warning, unless the lowering
    hydrates by itself (`hydrate=first-call`).
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    ListOption<"memoryLimits", "memory-limit", "std::string",
               "Byte limit of a memory, as name=bytes (repeatable)">,
    Option<"replayOnly", "replay-only", "bool", /*default=*/"false",
           "Only replay the module's execution (no module timeline)">,
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Prefix of <prefix>_hydrate_constants (default: the first "
           "planned function's name, as helia-lower-to-memref)">,
    Option<"hydrate", "hydrate", "::mlir::helia::HydrateMode",
           /*default=*/"::mlir::helia::HydrateMode::Explicit",
           "Who hydrates staged constants: first-call (the pipeline then "
           "runs helia-hydrate-on-first-call) needs no call in host code",
           [{::llvm::cl::values(
             clEnumValN(::mlir::helia::HydrateMode::Explicit, "explicit",
                        "host code must call <prefix>_hydrate_constants"),
             clEnumValN(::mlir::helia::HydrateMode::FirstCall, "first-call",
                        "the model hydrates itself"))}]>,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

def HeliaExportPlan : Pass<"helia-export-plan", "::mlir::ModuleOp"> {
  let summary = "Write the memory plan of a bound module as JSON or a report";
  let description = [{
    Reads the plan back from the IR (arenas, bindings, lifetimes, streams)
    and writes it as JSON (docs/PlanFormat.md) and/or as a readable report.
    The IR is not changed.
  }];
  let options = [
    Option<"json", "json", "std::string", /*default=*/"\"\"",
           "Path of the JSON plan ('-' for stdout)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Path of the readable report ('-' for stdout)">,
    Option<"svg", "svg", "std::string", /*default=*/"\"\"",
           "Path of the SVG timeline of every arena ('-' for stdout)">,
    Option<"top", "top", "unsigned", /*default=*/"10",
           "Number of largest tensors the report lists">,
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

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

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
