// Weights broadcast and transposed at run time, as torch-mlir emits them:
// with fold-constants=true they become constants, the report predicts the
// scratch that folding saves, and the outputs stay those of plain
// bufferization in each arena mode.

// RUN: helia-opt %s --helia-memory-pipeline="lower=false plan-report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: helia-opt %s --helia-memory-pipeline="lower=false fold-constants=true plan-report=-" -o /dev/null | FileCheck %s --check-prefix=FOLDED
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true fold-constants=true" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true fold-constants=true arena-mode=arg" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true fold-constants=true arena-mode=alloc" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain_bufferize} | helia-opt --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s

// The broadcast weight (4x2x3 f32, 96 bytes) and the transposed one (3x2
// f32, 24 bytes) are computed from constants alone. The scratch peak is the
// argument copy (32), the broadcast weight (96) and the batch product (48);
// without the weight it is 80, which is what the folded plan needs.
// REPORT: Computed from constants alone
// REPORT-NEXT: 2 scratch buffers, 120, are computed from constants only
// REPORT-NEXT: scratch peak of all scratch arenas together: 176; without them: 80, 96 less
// FOLDED-NOT: Computed from constants alone
// FOLDED: scratch_dtcm: 80 live at step {{[0-9]+}} (arena 80 bytes)
// FOLDED-NOT: Computed from constants alone

// IR-LABEL: func.func @model(
// IR-NOT: linalg.transpose
// IR-NOT: linalg.generic
// IR: linalg.batch_matmul
// IR: linalg.matmul

// x[0] * w = [1.25, 1.5, 3.125]; times transpose(v) = [2.8125, 0.25]; twice.
// CHECK: {{\[\[}}2.8125, {{ *}}0.25]]
// CHECK: {{\[\[}}2.8125, {{ *}}0.25]]

module {
  func.func @model(%x: tensor<4x1x2xf32>) -> tensor<1x2xf32> {
    %w = arith.constant dense<[[1.0, 2.0, 3.0], [0.5, -1.0, 0.25]]> : tensor<2x3xf32>
    %e = tensor.empty() : tensor<4x2x3xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x3xf32>) outs(%e : tensor<4x2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x2x3xf32>
    %z = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<4x1x3xf32>
    %acc = linalg.fill ins(%z : f32) outs(%e1 : tensor<4x1x3xf32>) -> tensor<4x1x3xf32>
    %h = linalg.batch_matmul ins(%x, %b : tensor<4x1x2xf32>, tensor<4x2x3xf32>) outs(%acc : tensor<4x1x3xf32>) -> tensor<4x1x3xf32>
    %hc = tensor.collapse_shape %h [[0, 1], [2]] : tensor<4x1x3xf32> into tensor<4x3xf32>
    %s = tensor.extract_slice %hc[0, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<1x3xf32>
    %v = arith.constant dense<[[1.0, 0.0, 0.5], [-1.0, 1.0, 0.0]]> : tensor<2x3xf32>
    %et = tensor.empty() : tensor<3x2xf32>
    %vt = linalg.transpose ins(%v : tensor<2x3xf32>) outs(%et : tensor<3x2xf32>) permutation = [1, 0]
    %e2 = tensor.empty() : tensor<1x2xf32>
    %acc2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
    %o = linalg.matmul ins(%s, %vt : tensor<1x3xf32>, tensor<3x2xf32>) outs(%acc2 : tensor<1x2xf32>) -> tensor<1x2xf32>
    return %o : tensor<1x2xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[1.0, 0.5]], [[2.0, 0.0]], [[0.0, 1.0]], [[-1.0, 1.0]]]> : tensor<4x1x2xf32>
    %r = call @model(%x) : (tensor<4x1x2xf32>) -> tensor<1x2xf32>
    %u = tensor.cast %r : tensor<1x2xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %r2 = call @model(%x) : (tensor<4x1x2xf32>) -> tensor<1x2xf32>
    %u2 = tensor.cast %r2 : tensor<1x2xf32> to tensor<*xf32>
    call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(tensor<*xf32>)
}
