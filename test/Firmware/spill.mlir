// RUN: rm -rf %t && mkdir -p %t/apollo
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{memory-limit=dtcm=2048 plan-ld=%t/plan.ld})" -o %t/model.llvm.mlir
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
// RUN: helia-opt %t/apollo/model.mlir --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{memory-limit=dtcm=2048 plan-ld=%t/apollo/plan.ld})" -o %t/apollo/model.llvm.mlir
// RUN: %{image} %t/apollo/model.llvm.mlir %t/apollo %{boards}/apollo510_evb.ld %t/apollo/image.elf
// RUN: %{readelf} -S -W %t/apollo/image.elf | FileCheck %s --check-prefix=APOLLO

// With 2 KiB of DTCM the scratch spills to SRAM: the image has a scratch
// arena in SRAM (0x01000000 on mps3-an547, 0x20080000 on Apollo510) beside
// the one in DTCM, which the spill fills (2048 bytes), and QEMU prints what
// the host prints.

// CHECK: ( 0.71106, 1.52185, 1.41261, 3.42131 )

// ELF: .helia.sram.bss NOBITS 01000000 {{[0-9a-f]+}} 001c80
// ELF: .helia.dtcm.bss NOBITS 20000000 {{[0-9a-f]+}} 000800
// ELF: .helia.qspi.rodata PROGBITS 28000000 {{[0-9a-f]+}} 000430
// ELF-DAG: 01000000 7296 OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_sram_scratch_sram
// ELF-DAG: 20000000 2048 OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_dtcm_scratch_dtcm

// APOLLO: .helia.dtcm.bss NOBITS 20000000 {{[0-9a-f]+}} 000800
// APOLLO: .helia.sram.bss NOBITS 20080000 {{[0-9a-f]+}} 001c80
// APOLLO: .helia.mram.rodata PROGBITS 00410020 {{[0-9a-f]+}} 000430

// A CNN whose activations do not all fit in the 2 KiB of DTCM the test
// allows (memory-limit=dtcm=2048): the planner spills scratch to SRAM, so
// the image has a scratch arena in each memory. Conv, relu, depthwise conv,
// residual add, pooling, fully connected; weights cold in QSPI flash.
module attributes {helia.platform = "mps3_an547",
                   helia.rules = [#helia.rule<type = constant, attributes = <memory = "qspi">>]} {
  func.func @model(%input: tensor<1x8x8x2xf32> loc("input")) -> tensor<1x4xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32> loc("zero_point")
    %w1t = "tosa.const"() {values = dense<0.0625> : tensor<8x3x3x2xf32>} : () -> tensor<8x3x3x2xf32> loc("conv1/weights")
    %b1 = "tosa.const"() {values = dense<[0.5, -0.5, 0.25, 0.0, 1.0, -1.0, 0.125, 0.75]> : tensor<8xf32>} : () -> tensor<8xf32> loc("conv1/bias")
    %c1 = tosa.conv2d %input, %w1t, %b1, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x2xf32>, tensor<8x3x3x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32> loc("conv1")
    %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> loc("relu1")
    %w2 = "tosa.const"() {values = dense<0.125> : tensor<3x3x8x1xf32>} : () -> tensor<3x3x8x1xf32> loc("dw/weights")
    %b2 = "tosa.const"() {values = dense<0.25> : tensor<8xf32>} : () -> tensor<8xf32> loc("dw/bias")
    %c2 = tosa.depthwise_conv2d %r1, %w2, %b2, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32> loc("dw")
    %s = tosa.add %c2, %r1 : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> loc("residual")
    %p = tosa.avg_pool2d %s, %zp, %zp {acc_type = f32, kernel = array<i64: 8, 8>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x8xf32> loc("pool")
    %shape = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3> loc("flat_shape")
    %f = tosa.reshape %p, %shape : (tensor<1x1x1x8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32> loc("flatten")
    %w3 = "tosa.const"() {values = dense<[[[0.5, -0.5, 0.25, 1.0], [0.125, 0.25, -0.75, 0.5], [1.0, 0.0, 0.5, -0.25], [0.0, 1.0, 0.25, 0.5], [-0.5, 0.5, 0.0, 0.125], [0.25, -0.125, 1.0, 0.0], [0.75, 0.5, -0.5, 0.25], [0.0, 0.25, 0.5, 1.0]]]> : tensor<1x8x4xf32>} : () -> tensor<1x8x4xf32> loc("fc/weights")
    %fc = tosa.matmul %f, %w3, %zp, %zp : (tensor<1x1x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("fc")
    %oshape = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2> loc("out_shape")
    %out = tosa.reshape %fc, %oshape : (tensor<1x1x4xf32>, !tosa.shape<2>) -> tensor<1x4xf32> loc("logits")
    return %out : tensor<1x4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[[-1.0, -1.25], [-0.625, -0.5], [-0.25, 0.25], [0.125, 1.0], [0.5, -1.0], [0.875, -0.25], [-0.875, 0.5], [-0.5, 1.25]], [[-0.125, 0.0], [0.25, 0.75], [0.625, -1.25], [1.0, -0.5], [-0.75, 0.25], [-0.375, 1.0], [0.0, -1.0], [0.375, -0.25]], [[0.75, 1.25], [-1.0, -0.75], [-0.625, 0.0], [-0.25, 0.75], [0.125, -1.25], [0.5, -0.5], [0.875, 0.25], [-0.875, 1.0]], [[-0.5, -0.25], [-0.125, 0.5], [0.25, 1.25], [0.625, -0.75], [1.0, 0.0], [-0.75, 0.75], [-0.375, -1.25], [0.0, -0.5]], [[0.375, 1.0], [0.75, -1.0], [-1.0, -0.25], [-0.625, 0.5], [-0.25, 1.25], [0.125, -0.75], [0.5, 0.0], [0.875, 0.75]], [[-0.875, -0.5], [-0.5, 0.25], [-0.125, 1.0], [0.25, -1.0], [0.625, -0.25], [1.0, 0.5], [-0.75, 1.25], [-0.375, -0.75]], [[0.0, 0.75], [0.375, -1.25], [0.75, -0.5], [-1.0, 0.25], [-0.625, 1.0], [-0.25, -1.0], [0.125, -0.25], [0.5, 0.5]], [[0.875, -0.75], [-0.875, 0.0], [-0.5, 0.75], [-0.125, -1.25], [0.25, -0.5], [0.625, 0.25], [1.0, 1.0], [-0.75, -1.0]]]]> : tensor<1x8x8x2xf32>
    %logits = func.call @model(%x) : (tensor<1x8x8x2xf32>) -> tensor<1x4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %logits[%c0, %c0], %pad : tensor<1x4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
