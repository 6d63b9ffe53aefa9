// RUN: rm -rf %t && mkdir -p %t/apollo
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{plan-ld=%t/plan.ld})" -o %t/model.llvm.mlir
// RUN: %{run} %t/model.llvm.mlir > %t/host.txt
// RUN: FileCheck %s --input-file=%t/host.txt
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: %{image} %t/model.llvm.mlir %t %{boards}/mps3_an547.ld %t/image.elf
// RUN: %{readelf} -S -s -W %t/image.elf | FileCheck %s --check-prefix=ELF
// RUN: %if qemu-arm %{ %{qemu} %t/image.elf 2> %t/qemu.txt %}
// RUN: %if qemu-arm %{ cmp %t/host.txt %t/qemu.txt %}
// The same model for Apollo510's memory map (MRAM for QSPI flash): it links
// with the Apollo510 script and its arenas sit at the SBL script's addresses
// (MRAM constants right after the vector table at 0x00410000).
// RUN: sed 's/"qspi"/"mram"/g; s/"mps3_an547"/"apollo510_evb"/' %s > %t/apollo/model.mlir
// RUN: helia-opt %t/apollo/model.mlir --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{plan-ld=%t/apollo/plan.ld})" -o %t/apollo/model.llvm.mlir
// RUN: %{image} %t/apollo/model.llvm.mlir %t/apollo %{boards}/apollo510_evb.ld %t/apollo/image.elf
// RUN: %{readelf} -S -W %t/apollo/image.elf | FileCheck %s --check-prefix=APOLLO

// Planned, lowered to LLVM with the arenas in their sections, run on the
// host, then as a -O2 image on QEMU's mps3-an547: the same bytes. At -O2
// the image keeps the hydrate copy and the stream copy (calls of the weak
// hook), and every arena.
// RUN: %{objdump} -d %t/image.elf | FileCheck %s --check-prefix=COPIES
// COPIES-COUNT-2: {{b|bl|b.w}} {{.*}} <model_copy>
// COPIES-NOT: {{b|bl|b.w}} {{.*}} <model_copy>

// CHECK: ( -7.775, 1.2, 6.05, 1.525 )
// CHECK-NEXT: ( 17.225, -25.55, -5.075, 14.4 )

// ELF: .helia.dtcm.bss NOBITS 20000000 {{[0-9a-f]+}} 0000d0
// ELF: .helia.qspi.rodata PROGBITS 28000000 {{[0-9a-f]+}} 000100
// ELF-DAG: 20000000 32 OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_dtcm_scratch_dtcm
// ELF-DAG: 64 OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_dtcm_stream_dtcm
// ELF-DAG: 112 OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_dtcm_constant_dtcm_from_qspi
// ELF-DAG: 28000000 112 OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_qspi_constant_dtcm_from_qspi_source
// ELF-DAG: 144 OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_qspi_constant_qspi

// APOLLO: .helia.dtcm.bss NOBITS 20000000 {{[0-9a-f]+}} 0000d0
// APOLLO: .helia.mram.rodata PROGBITS 00410020 {{[0-9a-f]+}} 000100

// Three layers: l1/w and the biases pinned (bytes in QSPI flash, copied into
// DTCM by @model_hydrate_constants), l2/w streamed (copied from QSPI into
// the stream pool right before its matmul), l3/w cold (read in place from
// QSPI). x*w1+b = [2, 4.5, 9.5, 3.5]; *w2+b; *w3+b.
module attributes {helia.platform = "mps3_an547",
                   helia.rules = [#helia.rule<type = constant, attributes = <memory = "qspi">>,
                                  #helia.rule<type = constant, id = ["l1/w", "*/b"], attributes = <constant_destination_memory = "dtcm">>,
                                  #helia.rule<type = constant, id = ["l2/w"], attributes = <residency = stream>>]} {
  func.func @model_hydrate_constants() attributes {helia.unplanned} {
    return
  }

  func.func @model(%x: tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %w1 = "tosa.const"() {values = dense<[[[1.0, 0.0, 0.0, 1.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 3.0, 0.0], [1.0, 0.0, 0.0, 4.0]]]> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32> loc("l1/w")
    %b1 = "tosa.const"() {values = dense<[[[0.5, 0.5, 0.5, 0.5]]]> : tensor<1x1x4xf32>} : () -> tensor<1x1x4xf32> loc("l1/b")
    %w2 = "tosa.const"() {values = dense<[[[0.5, 1.0, 0.0, 0.0], [0.0, 0.5, 1.0, 0.0], [0.0, 0.0, 0.5, 1.0], [1.0, 0.0, 0.0, 0.5]]]> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32> loc("l2/w")
    %b2 = "tosa.const"() {values = dense<[[[-1.0, 0.25, 1.0, 0.125]]]> : tensor<1x1x4xf32>} : () -> tensor<1x1x4xf32> loc("l2/b")
    %w3 = "tosa.const"() {values = dense<[[[1.0, -1.0, 0.0, 0.0], [0.0, 1.0, -1.0, 0.0], [0.0, 0.0, 1.0, -1.0], [-1.0, 0.0, 0.0, 1.0]]]> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32> loc("l3/w")
    %b3 = "tosa.const"() {values = dense<[[[0.1, 0.2, 0.3, 0.4]]]> : tensor<1x1x4xf32>} : () -> tensor<1x1x4xf32> loc("l3/b")
    %m1 = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("l1")
    %a1 = tosa.add %m1, %b1 : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> loc("l1/add")
    %m2 = tosa.matmul %a1, %w2, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("l2")
    %a2 = tosa.add %m2, %b2 : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> loc("l2/add")
    %m3 = tosa.matmul %a2, %w3, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("l3")
    %a3 = tosa.add %m3, %b3 : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> loc("l3/add")
    return %a3 : tensor<1x1x4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    call @model_hydrate_constants() : () -> ()
    %x = arith.constant dense<[[[1.0, 2.0, 3.0, 0.5]]]> : tensor<1x1x4xf32>
    %r = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    // A second run reads the same hydrated constants and streams again.
    %y = arith.constant dense<[[[-1.0, 0.5, 0.25, 8.0]]]> : tensor<1x1x4xf32>
    %s = call @model(%y) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %w = vector.transfer_read %s[%c0, %c0, %c0], %pad : tensor<1x1x4xf32>, vector<4xf32>
    vector.print %w : vector<4xf32>
    return
  }
}
