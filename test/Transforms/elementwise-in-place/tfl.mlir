// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-elementwise-in-place | FileCheck %s
// The planner stores a marked result in its operand's buffer: one binding.
// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-elementwise-in-place -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s --check-prefix=PLAN

// Ops of the table write their one result over an operand of the same
// shape and byte size that dies there: the first such operand (a broadcast
// operand is never one).
// CHECK-LABEL: func.func @activations
// CHECK: %[[FC:.*]] = "tfl.fully_connected"
// CHECK-NOT: helia.in_place
// CHECK: %[[L:.*]] = "tfl.logistic"(%[[FC]]) {helia.in_place = 0 : i64}
// CHECK: %[[B:.*]] = "tfl.add"(%[[W:.*]], %[[L]]) {helia.in_place = 1 : i64}
// CHECK: "tfl.quantize"(%[[B]]) {helia.in_place = 0 : i64} : (tensor<1x16xi8>) -> tensor<1x16xui8>
// Two buffers: the input and the one the four results share.
// PLAN: helia.arena @scratch_dtcm {{.*}}size 32 align
// PLAN-LABEL: func.func @activations
// PLAN: "tfl.fully_connected"{{.*}}{{\[}}[[OFF:[0-9]+]]]>]
// PLAN: "tfl.logistic"{{.*}}{{\[}}[[OFF]]]>]
// PLAN: "tfl.add"{{.*}}{{\[}}[[OFF]]]>]
// PLAN: "tfl.quantize"{{.*}}{{\[}}[[OFF]]]>]
func.func @activations(%x: tensor<1x8xi8>) -> tensor<1x16xui8> {
  %w = "tfl.pseudo_const"() {helia.constant} : () -> tensor<16x8xi8>
  %bias = "tfl.pseudo_const"() {helia.constant} : () -> tensor<1x1xi8>
  %fc = "tfl.fully_connected"(%x, %w) : (tensor<1x8xi8>, tensor<16x8xi8>) -> tensor<1x16xi8>
  %l = "tfl.logistic"(%fc) : (tensor<1x16xi8>) -> tensor<1x16xi8>
  %b = "tfl.add"(%bias, %l) : (tensor<1x1xi8>, tensor<1x16xi8>) -> tensor<1x16xi8>
  %q = "tfl.quantize"(%b) : (tensor<1x16xi8>) -> tensor<1x16xui8>
  return %q : tensor<1x16xui8>
}

// -----

// Negative: an operand read later, an argument (the caller's), a persistent
// tensor, a conversion to another byte size, an op outside the table. The
// tanh's operand dies at the mul, which may write over it.
// CHECK-LABEL: func.func @kept
// CHECK: "tfl.relu"(%{{.*}}) : (tensor<1x16xf32>)
// CHECK: "tfl.tanh"(%{{.*}}) : (tensor<1x16xf32>)
// CHECK: "tfl.mul"(%{{.*}}, %{{.*}}) {helia.in_place = 0 : i64}
// CHECK: "tfl.maximum"(%{{.*}}, %{{.*}}) : (tensor<1x16xf32>, tensor<1x16xf32>)
// CHECK: "tfl.quantize"(%{{.*}}) : (tensor<1x16xf32>)
// CHECK: "tfl.custom"(%{{.*}}) : (tensor<1x16xf32>)
// PLAN-LABEL: func.func @kept
func.func @kept(%x: tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xi8>) {
  %r = "tfl.relu"(%x) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %t = "tfl.tanh"(%r) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = "tfl.mul"(%r, %t) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %p = "tfl.variable"() {tflm.persistent} : () -> tensor<1x16xf32>
  %m = "tfl.maximum"(%p, %p) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %q = "tfl.quantize"(%m) : (tensor<1x16xf32>) -> tensor<1x16xi8>
  %c = "tfl.custom"(%s) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %x, %c, %q : tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xi8>
}
