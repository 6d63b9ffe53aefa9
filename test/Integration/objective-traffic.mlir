// objective=traffic pins the weights it chooses (no rule asks for it) and
// the planned program still computes what the plain one does.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{objective=traffic lower=true})" | FileCheck %s --check-prefix=IR
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{objective=traffic lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// With DTCM too small for every weight, some go to SRAM; same results.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{objective=traffic memory-limit=dtcm=192 lower=true})" | FileCheck %s --check-prefix=TIGHT
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{objective=traffic memory-limit=dtcm=192 lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// Reference: plain One-Shot Bufferize.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// The weights and the first bias are hydrated from MRAM into DTCM; the
// rule keeps "fc2/b" read in place from MRAM, and so is the matmuls' zero
// point, which the lowered matmuls never read (pinning it saves nothing).
// IR: memref.global "private" constant @constant_dtcm_from_mram_source
// IR: memref.global "private" @constant_dtcm_from_mram : memref<{{[0-9]+}}xi8, #helia.memory<"dtcm">>
// IR: memref.global "private" constant @constant_mram : memref<32xi8, #helia.memory<"mram">>
// IR-LABEL: func.func @model_hydrate_constants()
// IR: helia.hydrate

// TIGHT-DAG: memref.global "private" @constant_dtcm_from_mram : memref<{{[0-9]+}}xi8, #helia.memory<"dtcm">>
// TIGHT-DAG: memref.global "private" @constant_sram_from_mram : memref<{{[0-9]+}}xi8, #helia.memory<"sram">>

// x = [1, 2, -1, 0.5]; x*w1 + b1 = [-1, 2.75, 1, 3.75, -2, 0.75];
// relu = [0, 2.75, 1, 3.75, 0, 0.75]; *w2 + b2 = [-1.75, 8]
// CHECK: ( -1.75, 8 )

module attributes {helia.platform = "apollo510_evb",
                   helia.rules = [#helia.rule<type = constant, id = ["fc2/b"], attributes = <residency = direct>>]} {
  func.func @model(%x: tensor<1x1x4xf32>) -> tensor<1x1x2xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %w1 = "tosa.const"() {values = dense<[[[1.0, 0.0, -1.0, 0.5, 2.0, 0.0], [0.0, 1.0, 1.0, 0.5, -1.0, 0.0],
                                           [1.0, 1.0, 0.0, -0.5, 0.0, 1.0], [-1.0, 0.0, 2.0, 0.5, 1.0, 1.0]]]> : tensor<1x4x6xf32>} : () -> tensor<1x4x6xf32> loc("fc1/w")
    %b1 = "tosa.const"() {values = dense<[[[0.5, -0.5, 0.0, 1.0, -2.0, 0.25]]]> : tensor<1x1x6xf32>} : () -> tensor<1x1x6xf32> loc("fc1/b")
    %w2 = "tosa.const"() {values = dense<[[[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0], [0.0, 1.0], [2.0, 0.0], [1.0, 1.0]]]> : tensor<1x6x2xf32>} : () -> tensor<1x6x2xf32> loc("fc2/w")
    %b2 = "tosa.const"() {values = dense<[[[0.0, 0.5]]]> : tensor<1x1x2xf32>} : () -> tensor<1x1x2xf32> loc("fc2/b")
    %m1 = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x6xf32> loc("fc1")
    %h1 = tosa.add %m1, %b1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
    %r1 = tosa.clamp %h1 {min_val = 0.0 : f32, max_val = 100.0 : f32} : (tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
    %m2 = tosa.matmul %r1, %w2, %zp, %zp : (tensor<1x1x6xf32>, tensor<1x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32> loc("fc2")
    %o = tosa.add %m2, %b2 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    return %o : tensor<1x1x2xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    call @model_hydrate_constants() : () -> ()
    %x = arith.constant dense<[[[1.0, 2.0, -1.0, 0.5]]]> : tensor<1x1x4xf32>
    %r = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x2xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x2xf32>, vector<2xf32>
    vector.print %v : vector<2xf32>
    return
  }

  // Nothing to hydrate in the unplanned program; helia-lower-to-memref
  // defines the function of a planned one.
  func.func @model_hydrate_constants() attributes {helia.unplanned} {
    return
  }
}
