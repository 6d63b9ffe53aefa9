// RUN: rm -rf %t && mkdir -p %t
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{plan-ld=%t/plan.ld})" -o %t/model.llvm.mlir
// RUN: %{run} %t/model.llvm.mlir > %t/host.txt
// RUN: FileCheck %s --input-file=%t/host.txt
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, helia-lower-copies)" | helia-opt --convert-math-to-libm %{to_llvm} | %{run} | FileCheck %s
// RUN: %{image} %t/model.llvm.mlir %t %{boards}/mps3_an547.ld %t/image.elf
// RUN: %{nm} %t/image.elf.d/model.o | FileCheck %s --check-prefix=NOLIBM
// RUN: %if qemu-arm %{ %{qemu} %t/image.elf 2> %t/qemu.txt %}
// RUN: %if qemu-arm %{ cmp %t/host.txt %t/qemu.txt %}

// The float activations of TOSA (sigmoid, tanh, exp, log, erf, pow) in an
// image without a libm: helia-approximate-math makes them arithmetic, so
// the object calls no math function, the image links, and QEMU prints the
// bits the host's run of the same module prints. The unplanned module,
// through glibc's libm, prints the same six digits.

// NOLIBM-NOT: U {{(exp|tanh|log|erf|pow)f?$}}

// CHECK:      ( 0.0293122, 0.268941, 0.437824, 0.50025, 0.622459, 0.731059, 0.939913, 0.999877 )
// CHECK-NEXT: ( -0.998178, -0.761594, -0.244919, 0.001, 0.462117, 0.761594, 0.99186, 1 )
// CHECK-NEXT: ( 0.0301974, 0.367879, 0.778801, 1.001, 1.64872, 2.71828, 15.6426, 8103.08 )
// CHECK-NEXT: ( 1.25276, 0, -1.38629, -6.90776, -0.693147, 0, 1.0116, 2.19722 )
// CHECK-NEXT: ( -0.999999, -0.842701, -0.276326, 0.00112838, 0.5205, 0.842701, 0.999899, 1 )
// CHECK-NEXT: ( 0.012467, 1, 1.41421, 0.993116, 0.707107, 1, 16.1497, 3.8742e+08 )

module attributes {helia.platform = "mps3_an547"} {
  func.func @model(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
    %s = tosa.sigmoid %x : (tensor<8xf32>) -> tensor<8xf32> loc("sigmoid")
    %t = tosa.tanh %x : (tensor<8xf32>) -> tensor<8xf32> loc("tanh")
    %e = tosa.exp %x : (tensor<8xf32>) -> tensor<8xf32> loc("exp")
    %a = tosa.abs %x : (tensor<8xf32>) -> tensor<8xf32> loc("abs")
    %l = tosa.log %a : (tensor<8xf32>) -> tensor<8xf32> loc("log")
    %r = tosa.erf %x : (tensor<8xf32>) -> tensor<8xf32> loc("erf")
    %p = tosa.pow %a, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> loc("pow")
    return %s, %t, %e, %l, %r, %p : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[-3.5, -1.0, -0.25, 0.001, 0.5, 1.0, 2.75, 9.0]> : tensor<8xf32>
    %s, %t, %e, %l, %r, %p = call @model(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v0 = vector.transfer_read %s[%c0], %pad : tensor<8xf32>, vector<8xf32>
    vector.print %v0 : vector<8xf32>
    %v1 = vector.transfer_read %t[%c0], %pad : tensor<8xf32>, vector<8xf32>
    vector.print %v1 : vector<8xf32>
    %v2 = vector.transfer_read %e[%c0], %pad : tensor<8xf32>, vector<8xf32>
    vector.print %v2 : vector<8xf32>
    %v3 = vector.transfer_read %l[%c0], %pad : tensor<8xf32>, vector<8xf32>
    vector.print %v3 : vector<8xf32>
    %v4 = vector.transfer_read %r[%c0], %pad : tensor<8xf32>, vector<8xf32>
    vector.print %v4 : vector<8xf32>
    %v5 = vector.transfer_read %p[%c0], %pad : tensor<8xf32>, vector<8xf32>
    vector.print %v5 : vector<8xf32>
    return
  }
}
