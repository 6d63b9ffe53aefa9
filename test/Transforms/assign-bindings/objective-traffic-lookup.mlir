// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings=objective=traffic | FileCheck %s
// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings=objective=traffic -helia-export-plan=json=- -o /dev/null | FileCheck %s --check-prefix=JSON

// A table that a linalg payload reads by `tensor.extract` (a lookup, as the
// exp table of an imported SOFTMAX) is no operand of the op: the traffic
// model counts one element per iteration of the op's domain, 64 bytes
// here, so the objective hydrates the table into dtcm instead of leaving
// it in flash as unread.

// CHECK-LABEL: func.func @f
// CHECK: arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_flash[0]>]} dense<[0, 1,

// JSON-LABEL: "predicted_traffic": {
// JSON: "name": "constant_dtcm_from_flash",
// JSON-NEXT: "memory": "dtcm",
// JSON-NEXT: "read_bytes": 64,
// JSON-NEXT: "write_bytes": 0,
// JSON-NEXT: "reads": 16,

#id = affine_map<(d0) -> (d0)>
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 512, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<64xi8>) -> tensor<64xi8> {
    %table = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
    %e = tensor.empty() : tensor<64xi8>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<64xi8>) outs(%e : tensor<64xi8>) {
    ^bb0(%a: i8, %o: i8):
      %i = arith.index_cast %a : i8 to index
      %c15 = arith.constant 15 : index
      %j = arith.andi %i, %c15 : index
      %v = tensor.extract %table[%j] : tensor<16xi8>
      linalg.yield %v : i8
    } -> tensor<64xi8>
    return %r : tensor<64xi8>
  }
}
