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

// Calls between planned functions, planned, lowered to LLVM, run on the host
// and as an image on QEMU's mps3-an547: the same bytes.

// y = 2x = [2, -2, 1, 4]; z = y * w = [2, -4, 3, 16]; z2 = z * v; z2 + y:
// CHECK: ( 3, -1, 1.375, 28 )

// ELF: .helia.dtcm.bss NOBITS 20000000 {{[0-9a-f]+}} 000060
// ELF: .helia.qspi.rodata PROGBITS 28000000 {{[0-9a-f]+}} 000020
// ELF-DAG: 20000000 96 OBJECT GLOBAL DEFAULT {{[0-9]+}} layer_arena_dtcm_scratch_dtcm
// ELF-DAG: 28000000 32 OBJECT GLOBAL DEFAULT {{[0-9]+}} layer_arena_qspi_constant_qspi

// APOLLO: .helia.dtcm.bss NOBITS 20000000 {{[0-9a-f]+}} 000060
// APOLLO: .helia.mram.rodata PROGBITS 00410020 {{[0-9a-f]+}} 000020

// Calls between planned functions: the planned @model calls the planned
// @layer twice (inside the call's step, on the same arenas) and the
// unplanned @peek; the unplanned @main calls @model.
module attributes {helia.platform = "mps3_an547"} {
  func.func @peek(%t: tensor<4xf32>) attributes {helia.unplanned} {
    return
  }

  func.func @layer(%a: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.mul ins(%a, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %v = arith.constant dense<[0.5, -0.25, 0.125, 1.5]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %z = call @layer(%y, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    call @peek(%z) : (tensor<4xf32>) -> ()
    %z2 = call @layer(%z, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%z2, %y : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, 2.0]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
