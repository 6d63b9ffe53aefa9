// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings="memory-limit=dtcm=64 memory-limit=sram=4096" -helia-verify-plan="memory-limit=dtcm=64" | FileCheck %s
// RUN: not helia-opt %s -helia-resolve-residency -helia-assign-bindings="memory-limit=l2=64" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not helia-opt %s -helia-resolve-residency -helia-assign-bindings="memory-limit=dtcm" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-verify-plan="memory-limit=dtcm=16" 2>&1 | FileCheck %s --check-prefix=VERIFY

// memory-limit caps a memory below its platform size (heliaAOT's memory
// constraints): with 64 bytes of dtcm only the argument stays there and the
// 128-byte result moves to sram.

// CHECK: helia.arena @scratch_dtcm {{.*}}size 64 align
// CHECK: helia.arena @scratch_sram {{.*}}size 128 align
// UNKNOWN: error: memory-limit names unknown memory 'l2'; platform 'apollo510_evb' has: itcm, dtcm, sram, mram, psram
// SYNTAX: error: memory-limit 'dtcm' is not name=bytes (e.g. dtcm=65536)
// VERIFY: error: memory 'dtcm' holds 16 bytes but its arenas take 192, 176 bytes too many
func.func @f(%x: tensor<16xf32>) -> tensor<32xf32> {
  %y = "tosa.concat"(%x, %x) {axis = 0 : i32} : (tensor<16xf32>, tensor<16xf32>) -> tensor<32xf32>
  return %y : tensor<32xf32>
}
