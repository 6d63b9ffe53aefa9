// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-memory-pipeline=lower=false | FileCheck %s

// An op with regions is one step that uses everything its regions use; the
// values inside its regions are not planned. A value read only inside a
// region stays live through the region op's step, so nothing defined at
// that step shares its bytes.

// CHECK: helia.arena @scratch_dtcm {{.*}}size 768 align
// CHECK-LABEL: func.func @loop
// CHECK-SAME: #helia.binding<@scratch_dtcm[0]>
func.func @loop(%a: tensor<64xf32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Read only inside the loop: live through the loop's step, so neither the
  // loop's result (offset 0) nor the copy of the argument (256) takes its
  // bytes.
  // CHECK: "test.op"{{.*}}[512]>], helia.name = "w"
  %w = "test.op"(%a) {helia.name = "w"} : (tensor<64xf32>) -> tensor<64xf32>
  // The loop writes into its iter_arg (an op without bufferization may
  // write its operands) and the argument is the caller's, read-only: the
  // copy bufferization makes is an explicit buffer
  // (helia-insert-tensor-copies). The loop's result is its own buffer, as
  // the body is an op without bufferization.
  // CHECK: bufferization.alloc_tensor() copy(%arg0) {{.*}}[256]>]
  // CHECK: scf.for
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<64xf32> {
    // CHECK-NOT: helia.binding
    %y = "test.op"(%x, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  // CHECK: } {helia.binding = [#helia.binding<@scratch_dtcm[0]>]
  return %r : tensor<64xf32>
}

// -----

// A cycle inside a graph region (an unregistered op's region) is one step.
// Regression: the verifier looked up the binding's arena from the nearest
// symbol table, which for an unregistered op with regions is the op itself,
// and rejected a correct plan ("binding names arena @scratch_dtcm which is
// not a helia.arena").

// CHECK-LABEL: func.func @graph
func.func @graph(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: "test.graph"
  %r = "test.graph"(%a) ({
    %p = "test.op"(%q) : (tensor<4xf32>) -> tensor<4xf32>
    %q = "test.op"(%p) : (tensor<4xf32>) -> tensor<4xf32>
    "test.yield"(%q) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: }) {helia.binding = [#helia.binding<@scratch_dtcm[0]>]
  return %r : tensor<4xf32>
}

// -----

// Block arguments of nested regions are not the function's tensors.

// CHECK-LABEL: func.func @region_arguments
func.func @region_arguments(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "test.region"(%a) ({
  ^bb0(%x: tensor<8xf32>):
    %p = "test.op"(%x) : (tensor<8xf32>) -> tensor<4xf32>
    "test.yield"(%p) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: }) {helia.binding = [#helia.binding<@scratch_dtcm[0]>]
  return %r : tensor<4xf32>
}
