// helia-elementwise-in-place changes no output bit: the model runs planned
// with in-place=true in every arena mode and with plain One-Shot Bufferize,
// and the printed bit patterns of its result are identical (the address of
// the printed buffer aside).
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | sed "s/base@ = 0x[0-9a-f]*//" > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true in-place=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | sed "s/base@ = 0x[0-9a-f]*//" > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true in-place=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | sed "s/base@ = 0x[0-9a-f]*//" > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true in-place=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | sed "s/base@ = 0x[0-9a-f]*//" > %t.alloc
// RUN: diff %t.plain %t.alloc
// Without the pass the same plan takes more scratch bytes.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | FileCheck %s --check-prefix=NOINPLACE

// A layer norm, a tanh GELU and a softmax as separate TOSA ops (each
// elementwise op a linalg.generic after tosa-to-linalg, most of them
// written over their dying input), then, on linalg directly, a read of the
// softmax in reversed row order (same type, dies there, but read at other
// indices: never written over) and a named linalg.add written over it.

// IR: memref.global "private" @scratch_dtcm : memref<400xi8>
// IR-LABEL: func.func @model(
// IR-NOT: memref.alloc
// IR: return
// NOINPLACE: memref.global "private" @scratch_dtcm : memref<512xi8>

// CHECK: rank = 3 offset = 0 sizes = [1, 4, 8] strides = [32, 8, 1]

module attributes {helia.platform = "apollo510_evb"} {
  func.func private @printMemrefI32(tensor<*xi32>)

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[0.5, -1.25, 2.0, 0.75, -0.5, 1.5, -2.25, 0.125],
                                [1.0, 0.25, -0.75, 3.0, -1.5, 0.5, 2.5, -0.25],
                                [-2.0, 1.75, 0.5, -0.125, 1.25, -1.0, 0.375, 2.25],
                                [0.0, -0.5, 1.0, -1.75, 2.75, 0.625, -0.875, 1.125]]]> : tensor<1x4x8xf32>
    %r = func.call @model(%x) : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %be = tensor.empty() : tensor<1x4x8xi32>
    %bits = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%r : tensor<1x4x8xf32>) outs(%be : tensor<1x4x8xi32>) {
    ^bb0(%a: f32, %o: i32):
      %b = arith.bitcast %a : f32 to i32
      linalg.yield %b : i32
    } -> tensor<1x4x8xi32>
    %u = tensor.cast %bits : tensor<1x4x8xi32> to tensor<*xi32>
    func.call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
    return
  }

  func.func @model(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %inv_d = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %k0 = "tosa.const"() <{values = dense<0.7978845608> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %k1 = "tosa.const"() <{values = dense<0.044715> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
    %mean = tosa.mul %sum, %inv_d, %shift : (tensor<1x4x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1xf32>
    %xc = tosa.sub %x, %mean : (tensor<1x4x8xf32>, tensor<1x4x1xf32>) -> tensor<1x4x8xf32>
    %sq = tosa.mul %xc, %xc, %shift : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %vs = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
    %var = tosa.mul %vs, %inv_d, %shift : (tensor<1x4x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1xf32>
    %ve = tosa.add %var, %eps : (tensor<1x4x1xf32>, tensor<1x1x1xf32>) -> tensor<1x4x1xf32>
    %rs = tosa.rsqrt %ve : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
    %n = tosa.mul %xc, %rs, %shift : (tensor<1x4x8xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %h2 = tosa.mul %n, %n, %shift : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %h3 = tosa.mul %h2, %n, %shift : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %h3k = tosa.mul %h3, %k1, %shift : (tensor<1x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %in = tosa.add %n, %h3k : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %ink = tosa.mul %in, %k0, %shift : (tensor<1x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %th = tosa.tanh %ink : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %th1 = tosa.add %th, %one : (tensor<1x4x8xf32>, tensor<1x1x1xf32>) -> tensor<1x4x8xf32>
    %hh = tosa.mul %n, %half, %shift : (tensor<1x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %g = tosa.mul %hh, %th1, %shift : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %mx = tosa.reduce_max %g {axis = 2 : i32} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
    %sh = tosa.sub %g, %mx : (tensor<1x4x8xf32>, tensor<1x4x1xf32>) -> tensor<1x4x8xf32>
    %ex = tosa.exp %sh : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %den = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
    %rd = tosa.reciprocal %den : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
    %p = tosa.mul %ex, %rd, %shift : (tensor<1x4x8xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %e0 = tensor.empty() : tensor<1x4x8xf32>
    %rev = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, -d1 + 3, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%p : tensor<1x4x8xf32>) outs(%e0 : tensor<1x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.mulf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<1x4x8xf32>
    %e1 = tensor.empty() : tensor<1x4x8xf32>
    %r = linalg.add ins(%rev, %x : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%e1 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    return %r : tensor<1x4x8xf32>
  }
}
