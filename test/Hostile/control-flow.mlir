// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-memory-pipeline -verify-diagnostics

// Lifetimes are intervals of program order, which a branch back to an
// earlier block breaks. Regression: this loop was planned with "w" (read
// again in ^bb1 on every iteration) and "y" (defined in ^bb2) at the same
// offset, so the second iteration read y's bytes as w. Unstructured control
// flow is now a located error; scf ops (see regions.mlir) are planned.

// expected-error @+1 {{function 'f' has 4 blocks; helia plans function bodies of one block (express control flow with scf ops)}}
func.func @f(%a: tensor<64xf32>, %n: i1) -> tensor<64xf32> {
  %w = "test.op"(%a) {helia.name = "w"} : (tensor<64xf32>) -> tensor<64xf32>
  cf.br ^bb1
^bb1:
  %x = "test.op"(%w) {helia.name = "x"} : (tensor<64xf32>) -> tensor<64xf32>
  cf.br ^bb2
^bb2:
  %y = "test.op"(%x) {helia.name = "y"} : (tensor<64xf32>) -> tensor<64xf32>
  %z = "test.op"(%y) {helia.name = "z"} : (tensor<64xf32>) -> tensor<64xf32>
  cf.cond_br %n, ^bb1, ^bb3
^bb3:
  return %z : tensor<64xf32>
}
