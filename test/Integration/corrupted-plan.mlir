// RUN: split-file %s %t

// helia-verify-plan rejects the plan, independently of the planner.
// RUN: helia-opt %t/bound.mlir --helia-verify-plan -verify-diagnostics

// Lowered anyway, the corrupted plan computes something else than the
// program: z overwrites x, which is still live. (@main, the harness, is
// unplanned: the verifier and the lowering leave its tensors alone.)
// RUN: helia-opt %t/bound.mlir --helia-lower-to-memref --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s --check-prefix=WRONG

// The same program without a plan.
// RUN: helia-opt %t/program.mlir %{plain_bufferize} %{to_llvm} | %{run} | FileCheck %s

// x = [1, 2, 3, 4]; y = x + x; z = y * y; out = z + x.
// CHECK: ( 5, 18, 39, 68 )
// With z on x's bytes: out = z + z.
// WRONG: ( 8, 32, 72, 128 )

//--- bound.mlir
module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 48 align 16
  // expected-note @below {{'x' is here}}
  func.func @model(%x: tensor<4xf32> {helia.name = "x", helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    %e0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : tensor<4xf32>
    %y = linalg.add {helia.name = "y", helia.binding = [#helia.binding<@scratch_dtcm[16]>]} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
    // The corruption: z belongs at 32; at 0 it overlaps x, which the last
    // add still reads. (z's buffer starts at its tensor.empty.)
    // expected-error @below {{tensors 'x' and 'z' are live together but overlap in arena @scratch_dtcm: bytes [0, 16) and [0, 16)}}
    %e1 = tensor.empty() {helia.name = "z", helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %z = linalg.mul {helia.name = "z", helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%y, %y : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : tensor<4xf32>
    %out = linalg.add {helia.name = "out", helia.binding = [#helia.binding<@scratch_dtcm[16]>]} ins(%z, %x : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %out : tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}

//--- program.mlir
module {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e0 = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %z = linalg.mul ins(%y, %y : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %out = linalg.add ins(%z, %x : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %out : tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
