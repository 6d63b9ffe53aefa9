// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -test-perturb-binding="tensor=sum offset=64" -helia-verify-plan -verify-diagnostics -o /dev/null

// A valid plan from the planner, with one binding corrupted after it by
// -test-perturb-binding, which keeps every analysis the planner cached: the
// verifier derives storage and lifetimes from the IR itself (PlanLiveness),
// so it reports the corruption at the tensor.

// The linalg.add writes into its destination: the two are one buffer (at
// offset 0, -test-print-allocation shows it), and moving the result alone
// to offset 64 splits it.
func.func @split(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() {helia.name = "dest"} : tensor<16xf32>
  // expected-error @+1 {{tensor 'sum' shares storage with the value at}}
  %s = linalg.add {helia.name = "sum"} ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %a = arith.addf %s, %s {helia.name = "a"} : tensor<16xf32>
  %b = arith.mulf %s, %s {helia.name = "b"} : tensor<16xf32>
  %c = arith.addf %a, %b {helia.name = "c"} : tensor<16xf32>
  return %c : tensor<16xf32>
}
