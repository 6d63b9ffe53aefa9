// Planned in every arena mode, with the stream pool in DTCM, in SRAM, and
// in a DTCM too small to hold every slot; then run. The reference is plain
// One-Shot Bufferize.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true stream-pool=sram})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg stream-budget=32})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc memory-limit=dtcm=128})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s

// Every constant is streamed. Constants read inside a loop (and in the
// branches of an scf.if inside it, and in a callee called from it) hold
// their pool slots while later constants, first read by a return (@bias's
// result, and out/q returned by @model), take the slots they leave: their
// copy comes right before the return. The fuzzer's seeds 339, 808 and 1754
// (`run.py --control-flow 2`) were refused by helia-verify-plan, which did
// not replay that copy.

// x = [1, 2, 3, 4], three iterations of h = (h + loop/w) * step/w - if/k:
// CHECK: ( -4.5, 22.5, -9.75, 402.75 )
// CHECK-NEXT: ( 0.5, -0.5, 0.25, -0.25 )
// CHECK-NEXT: ( 9, 8, 7, 6 )
// With the else branch, the loop's state is else/k, plus bias/b:
// CHECK-NEXT: ( 2.5, 6.5, 1.25, 7.75 )

module attributes {helia.platform = "apollo510_evb",
                   helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
  func.func @bias() -> tensor<4xf32> {
    %b = "tosa.const"() <{values = dense<[0.5, -0.5, 0.25, -0.25]> : tensor<4xf32>}> : () -> tensor<4xf32> loc("bias/b")
    return %b : tensor<4xf32>
  }
  func.func @step(%h: tensor<4xf32>) -> tensor<4xf32> {
    %w = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}> : () -> tensor<4xf32> loc("step/w")
    %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %n = tosa.mul %h, %w, %s : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32> loc("step/mul")
    return %n : tensor<4xf32>
  }
  func.func @model(%x: tensor<4xf32>, %p: i1) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
      %w = "tosa.const"() <{values = dense<[1.0, 1.0, -1.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32> loc("loop/w")
      %a = tosa.add %h, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("loop/add")
      %c = func.call @step(%a) : (tensor<4xf32>) -> tensor<4xf32>
      %d = scf.if %p -> tensor<4xf32> {
        %k = "tosa.const"() <{values = dense<[3.0, 1.0, 4.0, 1.0]> : tensor<4xf32>}> : () -> tensor<4xf32> loc("if/k")
        %e = tosa.sub %c, %k : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("if/sub")
        scf.yield %e : tensor<4xf32>
      } else {
        %k = "tosa.const"() <{values = dense<[2.0, 7.0, 1.0, 8.0]> : tensor<4xf32>}> : () -> tensor<4xf32> loc("else/k")
        scf.yield %k : tensor<4xf32>
      }
      scf.yield %d : tensor<4xf32>
    } loc("loop")
    %b = func.call @bias() : () -> tensor<4xf32>
    %q = "tosa.const"() <{values = dense<[9.0, 8.0, 7.0, 6.0]> : tensor<4xf32>}> : () -> tensor<4xf32> loc("out/q")
    %s = tosa.add %r, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("out/add")
    return %s, %b, %q : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %t = arith.constant true
    %f = arith.constant false
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %r:3 = call @model(%x, %t) : (tensor<4xf32>, i1) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    %v0 = vector.transfer_read %r#0[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v0 : vector<4xf32>
    %v1 = vector.transfer_read %r#1[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v1 : vector<4xf32>
    %v2 = vector.transfer_read %r#2[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v2 : vector<4xf32>
    %s:3 = call @model(%x, %f) : (tensor<4xf32>, i1) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    %w0 = vector.transfer_read %s#0[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %w0 : vector<4xf32>
    return
  }
}
