// RUN: helia-opt %s -helia-export-plan=report=- -o /dev/null | FileCheck %s

// The report of a hand-written plan whose arenas sum past 2^63 (which
// helia-verify-plan rejects): the sums saturate at 2^63 - 1 instead of
// wrapping negative.

// CHECK: mram{{ +}}4128768 9223372036854775807
// CHECK: hydrated at init: 9223372036854775807
module {
  helia.arena @a constant in "dtcm" from "mram" size 9223372036854775807 align 16
  helia.arena @b constant in "sram" from "mram" size 9223372036854775807 align 16
}
