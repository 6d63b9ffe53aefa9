// RUN: helia-opt %s -split-input-file -helia-resolve-residency | FileCheck %s --check-prefix=MODULE
// RUN: helia-opt %s -split-input-file -helia-resolve-residency=platform=apollo510_evb | FileCheck %s --check-prefix=A510
// RUN: helia-opt %s -split-input-file -helia-resolve-residency=platform=apollo4p_evb | FileCheck %s --check-prefix=A4P
// RUN: helia-opt %s -split-input-file -helia-resolve-residency=platform=apollo4l_evb | FileCheck %s --check-prefix=A4L
// RUN: not helia-opt %s -split-input-file -helia-resolve-residency=platform=apollo3p_evb 2>&1 | FileCheck %s --check-prefix=A3P
// RUN: not helia-opt %s -split-input-file -helia-resolve-residency=platform=nrf52 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: helia-opt %s -split-input-file -helia-resolve-residency | FileCheck %s --check-prefix=DEFAULT

// Every preset, the option overriding the module attribute, and the default
// platform when neither names one. apollo3p_evb has no psram, so the rule
// that puts `in` there names an unknown memory.

// MODULE: helia.platform = "apollo4l_evb"
// A510: helia.platform = "apollo510_evb"
// A4P: helia.platform = "apollo4p_evb"
// A4L: helia.platform = "apollo4l_evb"
// A3P: error: rule #0 sets memory to unknown memory 'psram'; platform 'apollo3p_evb' has: dtcm, sram, mram
// UNKNOWN: error: unknown platform preset 'nrf52'; known presets: apollo510_evb, apollo4p_evb, apollo4l_evb, apollo3p_evb, mps3_an547
module attributes {helia.platform = "apollo4l_evb",
                   helia.rules = [#helia.rule<id = ["in"], attributes = <memory = "psram">>]} {
  // MODULE: name = "in", kind = scratch, memory = "psram"
  func.func @f(%in: tensor<4xf32> loc("in")) -> tensor<4xf32> {
    return %in : tensor<4xf32>
  }
}

// -----

// DEFAULT: module attributes {helia.platform = "apollo510_evb"}
module {
}
