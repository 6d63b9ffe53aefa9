// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-export-plan="report=- top=3" -o /dev/null | FileCheck %s

// The readable report: memories, arenas, the largest buffers (tensors that
// share storage once), copies, and the peak of each scratch arena with what
// is live there.

// CHECK:      helia memory plan: platform apollo510_evb, function f
// CHECK:      Memories
// CHECK:        dtcm               507904            384         507520   0.1%
// CHECK:        mram              4128768            192        4128576   0.0%
// CHECK:      Arenas
// CHECK:        scratch_dtcm                 scratch    dtcm     dtcm                192  read-write
// CHECK-NEXT:   constant_dtcm_from_mram      constant   dtcm     mram                192  staged
// CHECK:      Largest buffers (3 of 6; tensors that share storage are listed once)
// CHECK-NEXT:   tensor                                       id kind                    bytes arena                            offset  steps
// CHECK-NEXT:   w                                             1 constant/pin              128 constant_dtcm_from_mram               0  [1, 1]
// CHECK-NEXT:   x                                             0 scratch                    64 scratch_dtcm                          0  [0, 5]
// CHECK-NEXT:   v                                             2 constant/pin               64 constant_dtcm_from_mram             128  [2, 3]
// CHECK:      Copies
// CHECK-NEXT:   hydrated at init: 192
// CHECK-NEXT:   streamed per run: 0 in 0 copies
// CHECK:      Scratch peaks
// The empty tensor, the add and its result are one buffer ('out'), counted
// once; 'x' lives to the last add.
// CHECK-NEXT:   scratch_dtcm: 192 live at step 4 (arena 192 bytes): x (64) sum (64) out (64)

module attributes {helia.rules = [
  #helia.rule<type = constant, attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @f(%x: tensor<16xf32> {helia.name = "x"}) -> tensor<16xf32> {
    %w = arith.constant {helia.name = "w"} dense<1.0> : tensor<32xf32>
    %v = arith.constant {helia.name = "v"} dense<1.0> : tensor<16xf32>
    %sum = arith.addf %x, %v {helia.name = "sum"} : tensor<16xf32>
    %e = tensor.empty() {helia.name = "out"} : tensor<16xf32>
    %out = linalg.add ins(%sum, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %r = arith.addf %out, %sum {helia.name = "r"} : tensor<16xf32>
    return %r : tensor<16xf32>
  }
}
