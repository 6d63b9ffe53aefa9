// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency=all-placements=true | FileCheck %s

// Which values are tensors, their ids (program order per function: arguments
// first), their names (NameLoc, fused locations with one name per result,
// helia.name) and kinds (ConstantLike, helia.constant, helia.persistent,
// tflm.persistent). Non-tensor results get `unit`.

module attributes {helia.rules = [#helia.rule<id = ["b*"], attributes = <memory = "sram">>]} {
  // CHECK-LABEL: func.func @first
  // CHECK-SAME: helia.placement = #helia.placement<id = 0, name = "in", kind = scratch>
  // CHECK-SAME: helia.placement = #helia.placement<id = 1, name = "st", kind = persistent>
  // An argument cannot be a constant (its bytes are the caller's; see
  // errors.mlir).
  // CHECK-SAME: helia.placement = #helia.placement<id = 2, kind = persistent>
  func.func @first(%in: tensor<2xi8> loc("in"),
                   %st: tensor<2xi8> {helia.persistent} loc("st"),
                   %k: tensor<2xi8> {tflm.persistent}) -> tensor<2xi8> {
    // Scalars and `none` are not tensors.
    // CHECK: "tfl.no_value"() {value} : () -> none
    %none = "tfl.no_value"() {value} : () -> none
    // CHECK: arith.constant 3 : i32
    %c = arith.constant 3 : i32
    // CHECK: "tfl.split"{{.*}}helia.placement = [unit, #helia.placement<id = 3, name = "a", kind = scratch>, #helia.placement<id = 4, name = "b", kind = scratch, memory = "sram">]
    %n, %a, %b = "tfl.split"(%c, %in) : (i32, tensor<2xi8>) -> (i32, tensor<1xi8>, tensor<1xi8>) loc(fused["n", "a", "b"])
    // CHECK: "tfl.concat"{{.*}}helia.name = "bc"{{.*}}helia.placement = [#helia.placement<id = 5, name = "bc", kind = scratch, memory = "sram">]
    %bc = "tfl.concat"(%a, %b) {helia.name = "bc"} : (tensor<1xi8>, tensor<1xi8>) -> tensor<2xi8> loc("ignored")
    // An unregistered op without operands marked helia.constant is an
    // imported weight: a constant, although helia cannot fold it.
    // CHECK: "tfl.weights"() {helia.constant, helia.placement = [#helia.placement<id = 6, name = "w", kind = constant>]}
    %w = "tfl.weights"() {helia.constant} : () -> tensor<2xi8> loc("w")
    // CHECK: "tfl.add"{{.*}}helia.placement = [#helia.placement<id = 7, name = "sum", kind = scratch>]
    %sum = "tfl.add"(%bc, %w) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8> loc(fused<"tfl">["sum"])
    return %sum : tensor<2xi8>
  }

  // Ids restart in every function.
  // CHECK-LABEL: func.func @second
  // CHECK-SAME: helia.placement = #helia.placement<id = 0, name = "x", kind = scratch>
  func.func @second(%x: tensor<2xf32> loc("x")) -> tensor<2xf32> {
    // CHECK: "tfl.variable"() {helia.placement = [#helia.placement<id = 1, name = "s", kind = persistent>], tflm.persistent}
    %s = "tfl.variable"() {tflm.persistent} : () -> tensor<2xf32> loc("s")
    // Ops inside regions belong to their parent's step and are not planned.
    // CHECK: scf.execute_region -> tensor<2xf32> {
    // CHECK-NEXT: arith.addf
    // CHECK-NOT: helia.placement
    // CHECK: } {helia.placement = [#helia.placement<id = 2, name = "r", kind = scratch>]}
    %r = scf.execute_region -> tensor<2xf32> {
      %y = arith.addf %x, %s : tensor<2xf32>
      scf.yield %y : tensor<2xf32>
    } loc("r")
    return %r : tensor<2xf32>
  }

  // Declarations have no tensors to plan.
  // CHECK-LABEL: func.func private @external(tensor<2xf32>)
  func.func private @external(tensor<2xf32>)
}
