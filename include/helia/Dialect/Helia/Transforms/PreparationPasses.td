//===- PreparationPasses.td - Rewrites before planning -----*- tablegen -*-===//
//
// Rewrites before planning: the copies bufferization will make, made
// explicit, and the optional rewrites that change what is planned
// (buildHeliaPlanningPipeline runs them first).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PREPARATIONPASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_PREPARATIONPASSES_TD

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

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PREPARATIONPASSES_TD
