// RUN: rm -rf %t && mkdir -p %t
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{memory-limit=dtcm=524288 plan-ld=%t/plan.ld})" -o %t/model.llvm.mlir
// RUN: not %{image} %t/model.llvm.mlir %t %{boards}/mps3_an547.ld %t/image.elf 2>&1 | FileCheck %s

// A plan larger than its memory's region is a link error. memory-limit lets
// the planner use all 512 KiB of DTCM, but the board's region for the plan
// is the 448 KiB the mps3_an547 preset leaves after its reserved bytes: the
// 480 KiB scratch arena does not fit, and lld says by how much.

// CHECK: error: section '.helia.dtcm.bss' will not fit in region 'DTCM': overflowed by {{[0-9]+}} bytes

module attributes {helia.platform = "mps3_an547"} {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c = arith.constant 0.5 : f32
    %e = tensor.empty() : tensor<120000xf32>
    %big = linalg.fill ins(%c : f32) outs(%e : tensor<120000xf32>) -> tensor<120000xf32>
    %s = tensor.extract_slice %big[0] [4] [1] : tensor<120000xf32> to tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%x, %s : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<1.0> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return
  }
}
