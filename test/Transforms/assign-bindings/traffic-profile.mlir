// RUN: split-file %s %t
// RUN: helia-opt %t/model.mlir -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings=objective=traffic -helia-verify-plan | FileCheck %t/model.mlir --check-prefix=STATIC
// RUN: helia-opt %t/model.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/profile.json" -helia-verify-plan | FileCheck %t/model.mlir --check-prefix=PROFILED
// RUN: helia-opt %t/model.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/per-memory.json" -helia-verify-plan | FileCheck %t/model.mlir --check-prefix=STATIC
// RUN: helia-opt %t/model.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/profile.json remarks=true" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/model.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=traffic-profile=%t/profile.json" -o /dev/null 2>&1 | FileCheck %t/model.mlir --check-prefix=DEFAULT

//--- model.mlir
// The static model reads each weight of a fully connected layer once per
// multiply-accumulate: a/w 1024 bytes, b/w 256. DTCM holds one of them
// beside the scratch (1152 - 80 bytes): statically a/w saves more (1278
// cycles per inference against 320) and is pinned. The profile measured
// b/w read 65536 bytes (as a lowering that re-reads it per output tile
// would): pinned, it saves 81920 cycles, so the profile pins b/w and
// leaves a/w in flash. x, y and z are not in the profile: they keep the
// static model's traffic, and a remark says so. per-memory.json measured
// b/w read 1536 bytes in flash but 6144 in DTCM (a run with both weights
// pinned there): pinning it saves 2304 - 1536 = 768 cycles, less than a/w's
// 1278, so a/w is pinned; priced by its flash count alone, b/w would win
// (1920).

// STATIC-LABEL: func.func @f
// STATIC: "test.w"() {helia.binding = [#helia.binding<@constant_dtcm_from_flash[{{.*}}helia.name = "a/w"
// STATIC: "test.w"() {helia.binding = [#helia.binding<@constant_flash[{{.*}}helia.name = "b/w"
// PROFILED-LABEL: func.func @f
// PROFILED: "test.w"() {helia.binding = [#helia.binding<@constant_flash[{{.*}}helia.name = "a/w"
// PROFILED: "test.w"() {helia.binding = [#helia.binding<@constant_dtcm_from_flash[{{.*}}helia.name = "b/w"
// DEFAULT: warning: traffic-profile '{{.*}}profile.json' is not used by objective=default; give objective=traffic

// expected-remark-re @+1 {{traffic profile '{{.*}}profile.json' measured 2 of 5 buffers; the other 3 keep the static model's traffic (remarks=true names them)}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  // expected-remark @+1 {{tensor '#0' is not in traffic profile}}
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    // expected-remark @+1 {{constant 'a/w' (1024 bytes, 1024 bytes read per inference) read in place from 'flash': 1536 cycles per inference; pinning it into 'dtcm' would save 1278 cycles per inference but needs 1024 of 816 bytes left there}}
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    // expected-remark @+1 {{is not in traffic profile}}
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    // expected-remark @+1 {{constant 'b/w' (256 bytes, 65536 bytes read per inference) pinned into 'dtcm': 16384 cycles per inference, hydrated once in 448 cycles; reading it from 'flash' would cost 81920 cycles per inference}}
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    // expected-remark @+1 {{is not in traffic profile}}
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- profile.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0},
  {"function": "f", "tensor_id": 3, "members": [3], "name": "b/w", "kind": "constant", "size": 256, "read_bytes": 65536, "write_bytes": 0, "reads": 16384, "writes": 0}]}
//--- per-memory.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "memory": "flash", "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0},
  {"function": "f", "tensor_id": 3, "members": [3], "name": "b/w", "kind": "constant", "size": 256, "memory": "flash", "read_bytes": 1536, "write_bytes": 0, "reads": 384, "writes": 0},
  {"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "memory": "dtcm", "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0},
  {"function": "f", "tensor_id": 3, "members": [3], "name": "b/w", "kind": "constant", "size": 256, "memory": "dtcm", "read_bytes": 6144, "write_bytes": 0, "reads": 1536, "writes": 0}]}
