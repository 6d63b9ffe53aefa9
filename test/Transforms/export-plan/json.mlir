// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-export-plan=json=%t.json -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-export-plan=json=- -o /dev/null | FileCheck %s
// RUN: not helia-opt %s -helia-export-plan=json=- 2>&1 | FileCheck %s --check-prefix=UNBOUND
// RUN: not helia-opt %s -helia-export-plan 2>&1 | FileCheck %s --check-prefix=NOPATH

// The JSON plan: platform, functions, the fast share (x, a and b, 64 bytes
// each, read once each, all in dtcm), memories (capacity, used, free),
// arenas, tensors (with lifetime, readers, residency and binding) and
// streams.

// UNBOUND: error: tensor #0 of 'f' has no binding; run helia-assign-bindings first
// NOPATH: error: helia-export-plan needs json=<path>, report=<path> or svg=<path> ('-' for stdout)

// CHECK:      "platform": "apollo510_evb",
// CHECK-NEXT: "function": "f",
// CHECK:      "fast_memory": "dtcm",
// CHECK-NEXT: "fast_share": 1.0000,
// CHECK-NEXT: "accessed_bytes": 192,
// CHECK-NEXT: "fast_accessed_bytes": 192,
// CHECK:      "memories": [
// CHECK:          "name": "dtcm",
// CHECK-NEXT:     "capacity": 507904,
// CHECK-NEXT:     "used": 256,
// CHECK-NEXT:     "free": 507648
// CHECK:          "name": "mram",
// CHECK-NEXT:     "capacity": 4128768,
// CHECK-NEXT:     "used": 128,
// CHECK-NEXT:     "free": 4128640
// CHECK:      "arenas": [
// CHECK:          "region_id": [[SCRATCH:[0-9]+]],
// CHECK-NEXT:     "name": "scratch_dtcm",
// CHECK-NEXT:     "role": "scratch",
// CHECK-NEXT:     "memory": "dtcm",
// CHECK-NEXT:     "source_memory": "dtcm",
// CHECK-NEXT:     "size": 128,
// CHECK-NEXT:     "alignment": 16,
// CHECK-NEXT:     "staged": false,
// CHECK-NEXT:     "stream": false
// CHECK:          "name": "stream_dtcm",
// CHECK:          "stream": true
// CHECK:          "name": "constant_dtcm_from_mram",
// CHECK-NEXT:     "role": "constant",
// CHECK-NEXT:     "memory": "dtcm",
// CHECK-NEXT:     "source_memory": "mram",
// CHECK-NEXT:     "size": 64,
// CHECK-NEXT:     "alignment": 16,
// CHECK-NEXT:     "staged": true,
// CHECK:      "tensors": [
// CHECK:          "function": "f",
// CHECK-NEXT:     "tensor_id": 0,
// CHECK-NEXT:     "buffer": 0,
// CHECK-NEXT:     "name": "x",
// CHECK-NEXT:     "kind": "scratch",
// CHECK-NEXT:     "size": 64,
// CHECK-NEXT:     "first_step": 0,
// CHECK-NEXT:     "last_step": 3,
// CHECK-NEXT:     "readers": 1,
// CHECK-NEXT:     "residency": null,
// CHECK-NEXT:     "stream_fallback": false,
// CHECK-NEXT:     "constant_only": false,
// CHECK-NEXT:     "memory": "dtcm",
// CHECK-NEXT:     "offset": {{[0-9]+}},
// CHECK-NEXT:     "binding": {
// CHECK-NEXT:       "region_id": [[SCRATCH]],
// CHECK-NEXT:       "role": "scratch",
// CHECK:          "name": "w",
// CHECK-NEXT:     "kind": "constant",
// CHECK:          "residency": "pin",
// CHECK-NEXT:     "stream_fallback": false,
// CHECK-NEXT:     "constant_only": false,
// CHECK-NEXT:     "memory": "dtcm",
// CHECK:            "source_memory": "mram",
// CHECK:          "name": "v",
// CHECK:          "residency": "stream",
// CHECK:      "streams": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "function": "f",
// CHECK-NEXT:     "tensor_id": 2,
// CHECK-NEXT:     "region_id": {{[0-9]+}},
// CHECK-NEXT:     "step": 4,
// CHECK-NEXT:     "last_step": 4,
// CHECK-NEXT:     "slot_offset": 0

module attributes {helia.rules = [
  #helia.rule<type = constant, id = ["w"], attributes = <constant_destination_memory = "dtcm">>,
  #helia.rule<type = constant, id = ["v"], attributes = <residency = stream>>]} {
  func.func @f(%x: tensor<16xf32> {helia.name = "x"}) -> tensor<16xf32> {
    %w = arith.constant {helia.name = "w"} dense<1.0> : tensor<16xf32>
    %v = arith.constant {helia.name = "v"} dense<2.0> : tensor<16xf32>
    %a = arith.addf %x, %w : tensor<16xf32>
    %b = arith.addf %a, %v : tensor<16xf32>
    return %b : tensor<16xf32>
  }
}
