// RUN: helia-opt %s -helia-export-plan="platform=apollo510_evb json=-" -o /dev/null | FileCheck %s --check-prefix=A510
// RUN: helia-opt %s -helia-export-plan="platform=apollo4p_evb json=-" -o /dev/null | FileCheck %s --check-prefix=A4
// RUN: helia-opt %s -helia-export-plan="platform=apollo4l_evb json=-" -o /dev/null | FileCheck %s --check-prefix=A4
// RUN: helia-opt %s -helia-export-plan="platform=apollo3p_evb json=-" -o /dev/null | FileCheck %s --check-prefix=A3
// RUN: helia-opt %s -helia-export-plan="platform=mps3_an547 json=-" -o /dev/null | FileCheck %s --check-prefix=AN547

// The memories and capacities of every built-in preset (Ambiq's published
// memory maps, QEMU's mps3-an547), as the exported plan reports them: the
// size minus the bytes the preset reserves (docs/Firmware.md).

// A510-COUNT-1: "platform": "apollo510_evb"
// A510: "name": "itcm",
// A510-NEXT: "capacity": 262144,
// A510: "name": "dtcm",
// A510-NEXT: "capacity": 507904,
// A510: "name": "sram",
// A510-NEXT: "capacity": 3145728,
// A510: "name": "mram",
// A510-NEXT: "capacity": 4128768,
// A510: "name": "psram",
// A510-NEXT: "capacity": 67108864,

// A4-NOT: "itcm"
// A4: "name": "dtcm",
// A4-NEXT: "capacity": 393216,
// A4: "name": "sram",
// A4-NEXT: "capacity": 1048576,
// A4: "name": "mram",
// A4-NEXT: "capacity": 1998848,
// A4: "name": "psram",
// A4-NEXT: "capacity": 8388608,

// A3: "name": "dtcm",
// A3-NEXT: "capacity": 65536,
// A3: "name": "sram",
// A3-NEXT: "capacity": 716800,
// A3: "name": "mram",
// A3-NEXT: "capacity": 2048000,
// A3-NOT: "psram"

// AN547: "name": "itcm",
// AN547-NEXT: "capacity": 524288,
// AN547: "name": "sram",
// AN547-NEXT: "capacity": 2097152,
// AN547: "name": "dtcm",
// AN547-NEXT: "capacity": 458752,
// AN547: "name": "qspi",
// AN547-NEXT: "capacity": 8388608,
module {
}
