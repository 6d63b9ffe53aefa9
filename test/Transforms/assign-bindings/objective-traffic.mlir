// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings=objective=traffic -helia-verify-plan | FileCheck %s --check-prefixes=CHECK,ROOMY
// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings=objective=exact -helia-verify-plan | FileCheck %s --check-prefixes=CHECK,ROOMY
// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic memory-limit=dtcm=352" -helia-verify-plan="memory-limit=dtcm=352" | FileCheck %s --check-prefixes=CHECK,TIGHT
// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=exact memory-limit=dtcm=352" | FileCheck %s --check-prefixes=CHECK,TIGHT
// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic remarks=true" -verify-diagnostics -o /dev/null
// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings=objective=traffic -helia-export-plan=json=- -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-export-plan=json=- -o /dev/null | FileCheck %s --check-prefix=DEFAULT

// Costs per 4-byte access: dtcm 1, sram 3 (2 to write), flash 6. The
// scratch peaks at 208 bytes (x and y, at the convolution), so 304 bytes
// of dtcm are left for pins. The convolution reads its weight 128 x 18
// times (2304 bytes) and its bias 512 bytes: both go to dtcm (176 bytes),
// saving 2880 + 640 cycles per inference; the 2048-byte weight of the
// fully connected layer fits only sram, where it saves 1536. Rules are
// constraints: "direct/b" stays in flash, "pinned/w" in sram. With dtcm
// limited to 352 bytes (144 for pins) the bias goes to sram too.

// CHECK-LABEL: func.func @f
// ROOMY: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_dtcm_from_flash[0]>]
// ROOMY-NEXT: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_dtcm_from_flash[144]>]
// TIGHT: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_dtcm_from_flash[0]>]
// TIGHT-NEXT: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_sram_from_flash[0]>]
// CHECK-NEXT: "tfl.conv_2d"
// ROOMY-NEXT: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_sram_from_flash[0]>]
// TIGHT-NEXT: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_sram_from_flash[32]>]
// CHECK-NEXT: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_flash[0]>]
// CHECK-NEXT: "tfl.fully_connected"
// CHECK-NEXT: "test.w"() {{.*}}helia.binding = [#helia.binding<@constant_sram_from_flash[

// Predicted per inference (docs/Placement.md): dtcm reads x, both
// convolution constants, y and z (1808 accesses) and writes y, z and the
// result (37): 1845 cycles; sram reads the two fully connected weights
// (528 accesses, 1584 cycles); flash the rule's direct bias (96 cycles).
// JSON-LABEL: "predicted_traffic": {
// JSON-NEXT: "cycles": 3525,
// JSON-NEXT: "hydrate_bytes": 2288,
// JSON-NEXT: "hydrate_cycles": 4532,
// JSON: "name": "dtcm",
// JSON-NEXT: "read_bytes": 7232,
// JSON-NEXT: "write_bytes": 148,
// JSON-NEXT: "reads": 1808,
// JSON-NEXT: "writes": 37,
// JSON-NEXT: "cycles": 1845
// JSON: "name": "sram",
// JSON-NEXT: "read_bytes": 2112,
// JSON-NEXT: "write_bytes": 0,
// JSON-NEXT: "reads": 528,
// JSON-NEXT: "writes": 0,
// JSON-NEXT: "cycles": 1584

// Everything open read from flash: 1141 + 7392 + 48 cycles.
// DEFAULT-LABEL: "predicted_traffic": {
// DEFAULT-NEXT: "cycles": 8581,

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 512, init = true>,
                #helia.memory_desc<name = "sram", size = 4096, init = true, read_cycles = 3, write_cycles = 2>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [
    #helia.rule<type = constant, id = ["direct/*"], attributes = <residency = direct>>,
    #helia.rule<type = constant, id = ["pinned/*"], attributes = <constant_destination_memory = "sram">>]} {
  func.func @f(%x: tensor<1x6x6x2xi8>) -> tensor<1x4xi8> {
    // expected-remark @+1 {{constant 'hot/w' (144 bytes, 2304 bytes read per inference) pinned into 'dtcm': 576 cycles per inference, hydrated once in 252 cycles; reading it from 'flash' would cost 2880 cycles per inference; pinning it into 'sram' would cost 1152 cycles per inference}}
    %wa = "test.w"() {helia.constant, helia.name = "hot/w"} : () -> tensor<8x3x3x2xi8>
    // expected-remark @+1 {{constant 'hot/b' (32 bytes, 512 bytes read per inference) pinned into 'dtcm'}}
    %ba = "test.w"() {helia.constant, helia.name = "hot/b"} : () -> tensor<8xi32>
    %y = "tfl.conv_2d"(%x, %wa, %ba) : (tensor<1x6x6x2xi8>, tensor<8x3x3x2xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
    // expected-remark @+1 {{constant 'fc/w' (2048 bytes, 2048 bytes read per inference) pinned into 'sram': 1536 cycles per inference, hydrated once in 4096 cycles; reading it from 'flash' would cost 1532 cycles per inference; pinning it into 'dtcm' would save 1025 cycles per inference but needs 2048 of 128 bytes left there}}
    %wf = "test.w"() {helia.constant, helia.name = "fc/w"} : () -> tensor<16x128xi8>
    %bf = "test.w"() {helia.constant, helia.name = "direct/b"} : () -> tensor<16xi32>
    %z = "tfl.fully_connected"(%y, %wf, %bf) : (tensor<1x4x4x8xi8>, tensor<16x128xi8>, tensor<16xi32>) -> tensor<1x16xi8>
    %wp = "test.w"() {helia.constant, helia.name = "pinned/w"} : () -> tensor<4x16xi8>
    %o = "tfl.fully_connected"(%z, %wp) : (tensor<1x16xi8>, tensor<4x16xi8>) -> tensor<1x4xi8>
    return %o : tensor<1x4xi8>
  }
}
