// RUN: helia-opt %s -helia-export-plan=report=- -o /dev/null | FileCheck %s

// The report of a hand-written plan whose arenas sum past 2^63 (which
// helia-verify-plan rejects): the sums saturate at 2^63 - 1 instead of
// wrapping negative.

// CHECK: mram{{ +}}4194304 9223372036854775807
// CHECK: hydrated at init: 9223372036854775807
module {
  helia.arena @a {role = #helia.role<constant>, memory = "dtcm", source_memory = "mram", size = 9223372036854775807, alignment = 16}
  helia.arena @b {role = #helia.role<constant>, memory = "sram", source_memory = "mram", size = 9223372036854775807, alignment = 16}
}
