// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -test-perturb-binding="tensor=b like=a" -helia-verify-plan -verify-diagnostics -o /dev/null

// A valid plan from the planner, with one binding corrupted after it by
// -test-perturb-binding, which keeps every analysis the planner cached: the
// verifier derives storage and lifetimes from the IR itself (PlanLiveness),
// so it reports the corruption at the tensor.

// 'a' and 'b' are two buffers live together (both read by 'c'): bound
// alike, as if the planner had grouped them into one, they overlap.
func.func @group(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-note @+1 {{'a' is here}}
  %a = arith.addf %x, %x {helia.name = "a"} : tensor<16xf32>
  // expected-error @+1 {{tensors 'a' and 'b' are live together but overlap in arena @scratch_dtcm: bytes [128, 192) and [128, 192)}}
  %b = arith.mulf %x, %x {helia.name = "b"} : tensor<16xf32>
  %c = arith.addf %a, %b {helia.name = "c"} : tensor<16xf32>
  return %c : tensor<16xf32>
}
