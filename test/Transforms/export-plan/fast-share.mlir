// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-export-plan=json=- -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-export-plan=report=- -o /dev/null | FileCheck %s --check-prefix=REPORT

// The fast share: the scratch buffers' accessed bytes (size x readers, one
// reader per op that reads the buffer, the return included) held in the
// first preferred memory, over all of them.
//
// x (16 bytes) is read by q and p, q (48) by r, s and t, p (48), r, s and t
// (16 each) once: 32 + 144 + 48 + 16 + 16 + 16 = 272 accessed bytes. dtcm
// (96 bytes) cannot hold q and p beside x and r at steps 2 and 3; p, read
// once, spills: dtcm serves 272 - 48 = 224 of them.

// JSON:      "fast_memory": "dtcm",
// JSON-NEXT: "fast_share": 0.8235,
// JSON-NEXT: "accessed_bytes": 272,
// JSON-NEXT: "fast_accessed_bytes": 224,
// JSON:      "name": "x",
// JSON:      "readers": 2,
// JSON:      "memory": "dtcm",
// JSON:      "name": "q",
// JSON:      "readers": 3,
// JSON:      "memory": "dtcm",
// JSON:      "name": "p",
// JSON:      "readers": 1,
// JSON:      "memory": "sram",

// REPORT:      Fast share
// REPORT-NEXT:   dtcm holds 82.4% of the scratch bytes read (size x readers): 224 of 272

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 96, init = true>,
                #helia.memory_desc<name = "sram", size = 4096, init = true>,
                #helia.memory_desc<name = "flash", size = 8192, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [#helia.rule<id = ["x", "r"], attributes = <memory = "dtcm">>]} {
  func.func @g(%x: tensor<4xf32> {helia.name = "x"}) -> tensor<4xf32> {
    %q = "test.op"(%x) {helia.name = "q"} : (tensor<4xf32>) -> tensor<12xf32>
    %p = "test.op"(%x) {helia.name = "p"} : (tensor<4xf32>) -> tensor<12xf32>
    %r = "test.op"(%p, %q) {helia.name = "r"} : (tensor<12xf32>, tensor<12xf32>) -> tensor<4xf32>
    %s = "test.op"(%q, %r) {helia.name = "s"} : (tensor<12xf32>, tensor<4xf32>) -> tensor<4xf32>
    %t = "test.op"(%q, %s) {helia.name = "t"} : (tensor<12xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %t : tensor<4xf32>
  }
}

// -----

// No scratch byte is read (the only tensor is never used): no share, and no
// section in the report.

// JSON:      "fast_memory": "dtcm",
// JSON-NEXT: "fast_share": null,
// JSON-NEXT: "accessed_bytes": 0,
// JSON-NEXT: "fast_accessed_bytes": 0,
// JSON:      "readers": 0,

// REPORT: Scratch peaks
// REPORT-NOT: Fast share

func.func @unread() {
  %a = "test.op"() : () -> tensor<4xf32>
  return
}
