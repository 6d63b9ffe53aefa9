// RUN: rm -rf %t && mkdir -p %t
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{plan-ld=%t/plan.ld})" -o %t/model.llvm.mlir
// RUN: %{run} %t/model.llvm.mlir > %t/host.txt
// RUN: FileCheck %s --input-file=%t/host.txt
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: %{image} %t/model.llvm.mlir %t %{boards}/mps3_an547.ld %t/image.elf
// RUN: %{nm} %t/image.elf.d/model.o | FileCheck %s --check-prefix=HELPERS
// RUN: %if qemu-arm %{ %{qemu} %t/image.elf 2> %t/qemu.txt %}
// RUN: %if qemu-arm %{ cmp %t/host.txt %t/qemu.txt %}

// Every kind of op the pipeline lowers, linked for QEMU's mps3-an547 and
// run there: an int8 network (quantized conv2d and depthwise_conv2d with
// zero points, per-tensor and per-channel rescales, a padded avg_pool2d,
// max_pool2d, add, clamp, table, reshape, matmul, transpose, reduce_sum,
// reduce_max, mul with shift, concat), 64-bit integer division and
// remainder, and 64-bit integer <-> floating-point conversions and remf.
// The documented recipe (tosa-to-arith without include-apply-rescale)
// leaves `tosa.apply_scale` in the rescales; the pipeline lowers it. The
// image prints what the host prints, and what the unplanned module prints.

// The object calls the run-time helpers examples/firmware provides (the
// link would fail on any other undefined symbol).
// HELPERS-DAG: U __aeabi_f2lz
// HELPERS-DAG: U __aeabi_f2ulz
// HELPERS-DAG: U __aeabi_l2f
// HELPERS-DAG: U __aeabi_ldivmod
// HELPERS-DAG: U __aeabi_ul2d
// HELPERS-DAG: U __aeabi_uldivmod
// HELPERS-DAG: U fmodf

// CHECK: ( ( ( ( 119, 119, 119, -24 ), ( 119, 119, 119, 44 ), ( 119, 119, 119, 44 ) ), ( ( 119, 119, 119, -24 ), ( 119, 119, 119, -24 ), ( 119, 119, 119, 44 ) ), ( ( 119, 119, 119, -24 ), ( 119, 119, 119, 44 ), ( 119, 119, 119, -24 ) ) ) )
// CHECK-NEXT: ( ( ( -4735, -3312, 17903, -1064000 ), ( -1252, 619, 2349, -908 ), ( -12628, 5299, 20461, -8512 ) ) )
// CHECK-NEXT: ( -3, -1317624576693539412, -18446693687971, 6374814755557674063, 4, 4294955815, 1, 32 )
// CHECK-NEXT: ( -1.5, 3.5, -41827.7, 6.78526e+09, 1.2, -1, 1e+18, 9.5 )

module attributes {helia.platform = "mps3_an547",
                   helia.rules = [#helia.rule<type = constant, attributes = <memory = "qspi">>,
                                  #helia.rule<type = constant, id = ["conv/w"], attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @model(%x: tensor<1x6x6x2xi8>, %n: tensor<8xi64>, %d: tensor<8xi64>, %f: tensor<8xf32>)
      -> (tensor<1x3x3x4xi8>, tensor<1x3x4xi32>, tensor<8xi64>, tensor<8xf32>) {
    %w = "tosa.const"() {values = dense<[[[[0, -11], [5, -17], [-16, 14]], [[-14, 3], [17, -17], [12, -7]], [[-18, -15], [7, 6], [-16, -5]]], [[[-15, 15], [7, -17], [16, -13]], [[-6, 20], [20, 17], [-17, 16]], [[17, 5], [-17, -6], [-18, 15]]], [[[-12, -2], [6, -11], [14, -13]], [[16, -1], [15, -9], [-14, 17]], [[16, 20], [-8, 3], [-14, 15]]], [[[-16, 16], [-17, 19], [-7, 11]], [[14, 7], [0, 9], [17, 9]], [[3, -1], [-5, -9], [-5, -15]]]]> : tensor<4x3x3x2xi8>} : () -> tensor<4x3x3x2xi8> loc("conv/w")
    %b = "tosa.const"() {values = dense<[100, -250, 37, 0]> : tensor<4xi32>} : () -> tensor<4xi32> loc("conv/b")
    %xzp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
    %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
    %c = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xi8>, tensor<4x3x3x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x4xi32> loc("conv")
    %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
    %s = "tosa.const"() {values = dense<42> : tensor<1xi8>} : () -> tensor<1xi8>
    %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %yzp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
    %r = tosa.rescale %c, %m, %s, %zp32, %yzp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x6x6x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x6x6x4xi8> loc("conv/rescale")
    %dw = "tosa.const"() {values = dense<[[[[3], [-6], [1], [0]], [[13], [-5], [8], [-1]], [[-6], [4], [-13], [-12]]], [[[1], [-2], [-10], [9]], [[-5], [-11], [14], [0]], [[-2], [-14], [15], [6]]], [[[-13], [9], [2], [3]], [[10], [13], [11], [-5]], [[-5], [7], [-4], [4]]]]> : tensor<3x3x4x1xi8>} : () -> tensor<3x3x4x1xi8> loc("dw/w")
    %db = "tosa.const"() {values = dense<[7, -7, 70, -70]> : tensor<4xi32>} : () -> tensor<4xi32> loc("dw/b")
    %dc = tosa.depthwise_conv2d %r, %dw, %db, %yzp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x6x6x4xi8>, tensor<3x3x4x1xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x4xi32> loc("dw")
    %pm = "tosa.const"() {values = dense<[1073741824, 1518500250, 2147483647, 1200000000]> : tensor<4xi32>} : () -> tensor<4xi32>
    %ps = "tosa.const"() {values = dense<[38, 39, 40, 37]> : tensor<4xi8>} : () -> tensor<4xi8>
    %dr = tosa.rescale %dc, %pm, %ps, %zp32, %wzp {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x6x6x4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x6x6x4xi8> loc("dw/rescale")
    %ap = tosa.avg_pool2d %dr, %wzp, %wzp {acc_type = i32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x4xi8> loc("avg")
    %mp = tosa.max_pool2d %dr {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x4xi8>) -> tensor<1x3x3x4xi8> loc("max")
    %sum = tosa.add %ap, %mp : (tensor<1x3x3x4xi8>, tensor<1x3x3x4xi8>) -> tensor<1x3x3x4xi8> loc("sum")
    %cl = tosa.clamp %sum {max_val = 100 : i8, min_val = -100 : i8} : (tensor<1x3x3x4xi8>) -> tensor<1x3x3x4xi8> loc("clamp")
    %lut = "tosa.const"() {values = dense<[-117, 108, 53, -42, -69, 124, -98, -17, 19, -62, -2, 75, 72, 126, -87, -43, 101, 77, 14, -58, 92, 14, 84, 55, 66, -10, -51, -86, -38, -51, -10, -9, -122, 120, -35, 6, 16, -126, -54, 86, 61, 35, -64, -101, 105, 72, 75, 76, 73, -75, 118, 77, -97, -31, -94, -22, 97, -45, -72, 46, -102, -76, -128, -51, -77, 58, -115, -92, -22, 64, -52, 1, 49, 58, 114, -66, -69, 121, 110, 117, 119, 31, -85, -55, -76, 47, 7, 117, -46, -117, -23, 57, -53, -115, 24, -82, 5, 59, -43, 54, -14, 40, -14, -29, -6, 77, -12, -26, 124, 54, -114, -114, 15, 113, 4, -29, 48, 100, 50, 58, -87, -16, -76, -12, 112, -28, 44, -24, 119, -128, 117, 48, -85, -67, 70, -26, 116, -37, 94, 42, -84, 74, 109, 77, -85, -47, -41, -63, -114, -51, 110, -54, 114, 51, -49, -61, -118, -121, -76, -57, 94, -29, -20, -114, 0, -20, 21, -5, 38, 4, 86, -61, -97, 53, 106, 87, -62, -51, -119, 97, -35, -126, -52, -40, -56, 114, -67, -97, 38, 119, -74, -99, -1, -31, 13, -107, -78, 103, -114, -96, 98, 38, -26, 13, 103, 116, -2, 4, -25, 101, -58, 85, -66, 72, 98, 33, -91, -5, 91, -91, -20, 27, -66, -49, 59, -55, 1, -58, 111, -16, -80, 75, 121, -45, -14, -46, 92, 78, 45, 87, -28, 54, 35, -81, 59, -119, 45, 106, 97, -119, 68, 41, 23, -96, -71, -11]> : tensor<256xi8>} : () -> tensor<256xi8> loc("lut")
    %tb = tosa.table %cl, %lut : (tensor<1x3x3x4xi8>, tensor<256xi8>) -> tensor<1x3x3x4xi8> loc("table")
    // int8 matmul (i32 accumulator), transpose, reduce and 32-bit shift-multiply.
    %shape = tosa.const_shape {values = dense<[1, 9, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %flat = tosa.reshape %tb, %shape : (tensor<1x3x3x4xi8>, !tosa.shape<3>) -> tensor<1x9x4xi8> loc("flat")
    %mw = "tosa.const"() {values = dense<[[[5, 8, 4, -8], [-8, -2, 5, -8], [-9, -1, 10, 8], [4, -1, 2, 1]]]> : tensor<1x4x4xi8>} : () -> tensor<1x4x4xi8> loc("mm/w")
    %mmr = tosa.matmul %flat, %mw, %wzp, %wzp : (tensor<1x9x4xi8>, tensor<1x4x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x9x4xi32> loc("mm")
    %tr = tosa.transpose %mmr {perms = array<i32: 0, 2, 1>} : (tensor<1x9x4xi32>) -> tensor<1x4x9xi32> loc("tr")
    %rs = tosa.reduce_sum %tr {axis = 2 : i32} : (tensor<1x4x9xi32>) -> tensor<1x4x1xi32> loc("rsum")
    %rshape = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rr = tosa.reshape %rs, %rshape : (tensor<1x4x1xi32>, !tosa.shape<3>) -> tensor<1x1x4xi32> loc("rflat")
    %mul0 = "tosa.const"() {values = dense<[[[3, -5, 7, 1000]]]> : tensor<1x1x4xi32>} : () -> tensor<1x1x4xi32>
    %sh = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
    %mul = tosa.mul %rr, %mul0, %sh : (tensor<1x1x4xi32>, tensor<1x1x4xi32>, tensor<1xi8>) -> tensor<1x1x4xi32> loc("mul")
    %mx = tosa.reduce_max %mmr {axis = 1 : i32} : (tensor<1x9x4xi32>) -> tensor<1x1x4xi32> loc("rmax")
    %cat = tosa.concat %mul, %mx, %rr {axis = 1 : i32} : (tensor<1x1x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4xi32>) -> tensor<1x3x4xi32> loc("cat")
    // 64-bit integer division and remainder, and 64-bit <-> float conversions.
    %e64 = tensor.empty() : tensor<8xi64>
    %q = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%n, %d : tensor<8xi64>, tensor<8xi64>) outs(%e64 : tensor<8xi64>) {
    ^bb0(%a: i64, %bb: i64, %o: i64):
      %sq = arith.divsi %a, %bb : i64
      %sr = arith.remsi %a, %bb : i64
      %uq = arith.divui %a, %bb : i64
      %ur = arith.remui %a, %bb : i64
      %t0 = arith.xori %sq, %uq : i64
      %t1 = arith.muli %sr, %ur : i64
      %t2 = arith.addi %t0, %t1 : i64
      linalg.yield %t2 : i64
    } -> tensor<8xi64> loc("div64")
    %ef = tensor.empty() : tensor<8xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%n, %f : tensor<8xi64>, tensor<8xf32>) outs(%ef : tensor<8xf32>) {
    ^bb0(%a: i64, %v: f32, %o: f32):
      %af = arith.sitofp %a : i64 to f32
      %ud = arith.uitofp %a : i64 to f64
      %vi = arith.fptosi %v : f32 to i64
      %vu = arith.fptoui %v : f32 to i64
      %vd = arith.extf %v : f32 to f64
      %di = arith.fptosi %vd : f64 to i64
      %s1 = arith.addi %vi, %vu : i64
      %s3 = arith.addi %s1, %di : i64
      %sf = arith.sitofp %s3 : i64 to f32
      %uf = arith.truncf %ud : f64 to f32
      %t = arith.addf %af, %sf : f32
      %t4 = arith.divf %t, %uf : f32
      %fm = arith.remf %t, %v : f32
      %r2 = arith.addf %t4, %fm : f32
      linalg.yield %r2 : f32
    } -> tensor<8xf32> loc("conv64")
    return %tb, %cat, %q, %g : tensor<1x3x3x4xi8>, tensor<1x3x4xi32>, tensor<8xi64>, tensor<8xf32>
  }

  func.func @model_hydrate_constants() attributes {helia.unplanned} {
    return
  }

  func.func @main() attributes {helia.unplanned} {
    call @model_hydrate_constants() : () -> ()
    %x = arith.constant dense<[[[[-75, -85], [7, 11], [-108, -36], [10, -62], [88, 4], [79, -52]], [[125, 39], [-83, 14], [-99, -35], [89, -91], [9, -120], [-83, 5]], [[-86, -15], [-94, 7], [-66, 104], [-123, 45], [85, 9], [-62, -106]], [[-6, -72], [-46, 6], [-103, -36], [-25, 31], [28, -23], [20, 100]], [[-37, 10], [49, -119], [0, -110], [-121, -119], [-31, 115], [-3, 100]], [[-74, 93], [125, 73], [29, -18], [-11, 47], [-27, -57], [79, 49]]]]> : tensor<1x6x6x2xi8>
    %n = arith.constant dense<[-9223372036854775807, 9223372036854775806, -1000000000007, 123456789012345, 77, -78, 4294967296, 18]> : tensor<8xi64>
    %d = arith.constant dense<[3, -7, 1000003, -65537, 5, 4294967311, 3, -4]> : tensor<8xi64>
    %f = arith.constant dense<[1.5, -2.75, 123456.8, 3.0e10, 0.3, 7.0, 1.0e18, 9.5]> : tensor<8xf32>
    %t, %cat, %q, %g = call @model(%x, %n, %d, %f) : (tensor<1x6x6x2xi8>, tensor<8xi64>, tensor<8xi64>, tensor<8xf32>) -> (tensor<1x3x3x4xi8>, tensor<1x3x4xi32>, tensor<8xi64>, tensor<8xf32>)
    %c0 = arith.constant 0 : index
    %p8 = arith.constant 0 : i8
    %p32 = arith.constant 0 : i32
    %p64 = arith.constant 0 : i64
    %pf = arith.constant 0.0 : f32
    %v0 = vector.transfer_read %t[%c0, %c0, %c0, %c0], %p8 : tensor<1x3x3x4xi8>, vector<1x3x3x4xi8>
    vector.print %v0 : vector<1x3x3x4xi8>
    %v1 = vector.transfer_read %cat[%c0, %c0, %c0], %p32 : tensor<1x3x4xi32>, vector<1x3x4xi32>
    vector.print %v1 : vector<1x3x4xi32>
    %v2 = vector.transfer_read %q[%c0], %p64 : tensor<8xi64>, vector<8xi64>
    vector.print %v2 : vector<8xi64>
    %v3 = vector.transfer_read %g[%c0], %pf : tensor<8xf32>, vector<8xf32>
    vector.print %v3 : vector<8xf32>
    return
  }
}
