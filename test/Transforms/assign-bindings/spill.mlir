// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings=remarks -helia-verify-plan -verify-diagnostics | FileCheck %s

// Scratch tensors the rules leave open follow the preferred order (dtcm,
// then sram) and spill to the next memory when one is full; a remark says
// which and why. A tensor a rule placed stays where it is.

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 256, init = true>,
                #helia.memory_desc<name = "sram", size = 4096, init = true>,
                #helia.memory_desc<name = "flash", size = 8192, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [#helia.rule<id = ["pinned"], attributes = <memory = "dtcm">>]} {
  // CHECK-DAG: helia.arena @scratch_dtcm {{.*}}size 192 align
  // CHECK-DAG: helia.arena @scratch_sram {{.*}}size 256 align
  // CHECK-LABEL: func.func @f
  // CHECK-SAME: <@scratch_dtcm[
  func.func @f(%in: tensor<64xi8>) -> tensor<64xi8> {
    // At step 2, 64 + 128 + 256 bytes are live: dtcm (256) cannot hold all,
    // and 'big' is the open tensor that makes the peak.
    // CHECK: "test.op"{{.*}}<@scratch_dtcm[0]>
    %p = "test.op"(%in) {helia.name = "pinned"} : (tensor<64xi8>) -> tensor<128xi8>
    // expected-remark @+2 {{tensor 'big' (256 bytes) spills from 'dtcm': its 256 free bytes cannot hold it beside the tensors live with it}}
    // CHECK: "test.op"{{.*}}<@scratch_sram[0]>
    %big = "test.op"(%in) {helia.name = "big"} : (tensor<64xi8>) -> tensor<256xi8>
    // CHECK: "test.op"{{.*}}<@scratch_dtcm[128]>
    %out = "test.op"(%p, %big) : (tensor<128xi8>, tensor<256xi8>) -> tensor<64xi8>
    return %out : tensor<64xi8>
  }
}
