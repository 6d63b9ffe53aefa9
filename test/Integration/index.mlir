// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// tensor<4xindex> crashed the binding verifier (three byte-size rules
// disagreed about index). Index tensors are planned as 8 bytes per element,
// scratch and constants alike, and run as plain bufferization does.

// CHECK: [30,  20,  120,  80]

#map = affine_map<(d0) -> (d0)>
module {
  func.func @model(%x: tensor<4xindex>) -> tensor<4xi64> {
    %c = arith.constant dense<[10, 20, 30, 40]> : tensor<4xindex>
    %e = tensor.empty() : tensor<4xindex>
    %s = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%x, %c : tensor<4xindex>, tensor<4xindex>) outs(%e : tensor<4xindex>) {
    ^bb0(%a: index, %b: index, %o: index):
      %r = arith.muli %a, %b : index
      linalg.yield %r : index
    } -> tensor<4xindex>
    %e2 = tensor.empty() : tensor<4xi64>
    %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%s : tensor<4xindex>) outs(%e2 : tensor<4xi64>) {
    ^bb0(%a: index, %o: i64):
      %r = arith.index_cast %a : index to i64
      linalg.yield %r : i64
    } -> tensor<4xi64>
    return %t : tensor<4xi64>
  }
  func.func private @printMemrefI64(tensor<*xi64>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[3, 1, 4, 2]> : tensor<4xindex>
    %r = call @model(%x) : (tensor<4xindex>) -> tensor<4xi64>
    %u = tensor.cast %r : tensor<4xi64> to tensor<*xi64>
    call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
    return
  }
}
