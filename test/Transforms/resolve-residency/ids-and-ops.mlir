// RUN: helia-opt %s --helia-resolve-residency=all-placements=true | FileCheck %s

// Tensors without names (as importers emit them) are selected by the ids
// the report and the JSON plan show, and by the op that produces them.
// Precedence: `op` and `id` both give identity, so a rule with a type and
// an op beats a rule with a type only, whatever their order.

module attributes {helia.rules = [
    #helia.rule<type = constant, attributes = <memory = "mram">>,
    #helia.rule<type = constant, op = ["arith.constant"], attributes = <constant_destination_memory = "dtcm">>,
    #helia.rule<id = ["#3"], attributes = <memory = "sram">>,
    #helia.rule<type = scratch, id = ["g:#1"], attributes = <memory = "psram">>,
    #helia.rule<type = scratch, op = ["linalg.mul", "linalg.sub*"], attributes = <memory = "sram">>,
    #helia.rule<type = constant, op = ["tosa.*"], attributes = <residency = stream>>]} {
  // CHECK-LABEL: func.func @f(
  // CHECK-SAME: #helia.placement<id = 0, kind = scratch>
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: arith.constant {helia.placement = [#helia.placement<id = 1, kind = constant, memory = "mram", constant_destination_memory = "dtcm", residency = pin>]}
    %w = arith.constant dense<2.0> : tensor<4xf32>
    // CHECK: "tosa.const"() {{.*}}#helia.placement<id = 2, kind = constant, memory = "mram", residency = stream>
    %v = "tosa.const"() {values = dense<3.0> : tensor<4xf32>} : () -> tensor<4xf32>
    // CHECK: tensor.empty() {helia.placement = [#helia.placement<id = 3, kind = scratch, memory = "sram">]}
    %e = tensor.empty() : tensor<4xf32>
    // CHECK: linalg.mul {helia.placement = [#helia.placement<id = 4, kind = scratch, memory = "sram">]}
    %m = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // CHECK: linalg.add {helia.placement = [#helia.placement<id = 5, kind = scratch>]}
    %a = linalg.add ins(%m, %v : tensor<4xf32>, tensor<4xf32>) outs(%m : tensor<4xf32>) -> tensor<4xf32>
    return %a : tensor<4xf32>
  }
  // CHECK-LABEL: func.func @g(
  // CHECK-SAME: #helia.placement<id = 0, kind = scratch>
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: tensor.empty() {helia.placement = [#helia.placement<id = 1, kind = scratch, memory = "psram">]}
    %e = tensor.empty() : tensor<4xf32>
    // CHECK: linalg.sub {helia.placement = [#helia.placement<id = 2, kind = scratch, memory = "sram">]}
    %s = linalg.sub ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // CHECK: tensor.empty() {helia.placement = [#helia.placement<id = 3, kind = scratch, memory = "sram">]}
    %e2 = tensor.empty() : tensor<4xf32>
    return %s : tensor<4xf32>
  }
}

// The same selectors in a rules file (heliaAOT's form plus "op").
// RUN: echo '[{"type": "scratch", "op": "linalg.mul", "attributes": {"memory": "sram"}}, {"type": "constant", "id": "#1", "attributes": {"memory": "mram"}}, {"id": "g:#2", "attributes": {"memory": "psram"}}]' > %t.rules.json
// RUN: helia-opt %s "--helia-resolve-residency=rules-file=%t.rules.json all-placements=true" | FileCheck %s --check-prefix=FILE
// FILE-LABEL: func.func @f(
// FILE: arith.constant {helia.placement = [#helia.placement<id = 1, kind = constant, memory = "mram">]}
// FILE: linalg.mul {helia.placement = [#helia.placement<id = 4, kind = scratch, memory = "sram">]}
// FILE-LABEL: func.func @g(
// FILE: tensor.empty() {helia.placement = [#helia.placement<id = 1, kind = scratch>]}
// FILE: linalg.sub {helia.placement = [#helia.placement<id = 2, kind = scratch, memory = "psram">]}
// An id selects every function's tensor of that id: a scratch #1 in @g
// meets the same rule as the constant #1 in @f.
// RUN: echo '[{"id": "#1", "attributes": {"memory": "mram"}}]' > %t.all.json
// RUN: not helia-opt %s "--helia-resolve-residency=rules-file=%t.all.json all-placements=true" 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: error: rule #0 places scratch tensor '#1' in 'mram', which is read-only at run time; choose a writable memory
// RUN: echo '[{"op": 3, "attributes": {"memory": "sram"}}]' > %t.bad.json
// RUN: not helia-opt %s "--helia-resolve-residency=rules-file=%t.bad.json all-placements=true" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: rules file '{{.*}}bad.json': entry 0, field 'op': expected a string or a list of strings
