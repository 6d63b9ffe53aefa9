// A pre-norm transformer encoder block in TOSA, written for
// bench/inplace.py: sequence 16, model width 64, 4 heads of 16, feed-forward
// width 256 with the tanh approximation of GELU. Layer norm, softmax and
// GELU are separate elementwise ops (as a frontend that does not fuse them
// emits them). Weights are splat constants: planning reads only their sizes.
module {
  func.func @transformer_block(%x: tensor<1x16x64xf32>) -> tensor<1x16x64xf32> {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %inv_d = "tosa.const"() <{values = dense<0.015625> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %k0 = "tosa.const"() <{values = dense<0.7978845608> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %k1 = "tosa.const"() <{values = dense<0.044715> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %g1 = "tosa.const"() <{values = dense<1.0> : tensor<1x1x64xf32>}> : () -> tensor<1x1x64xf32>
    %b1 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x64xf32>}> : () -> tensor<1x1x64xf32>
    %wq = "tosa.const"() <{values = dense<0.03125> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
    %wk = "tosa.const"() <{values = dense<-0.015625> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
    %wv = "tosa.const"() <{values = dense<0.0625> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
    %wo = "tosa.const"() <{values = dense<0.046875> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
    %g2 = "tosa.const"() <{values = dense<0.5> : tensor<1x1x64xf32>}> : () -> tensor<1x1x64xf32>
    %b2 = "tosa.const"() <{values = dense<0.125> : tensor<1x1x64xf32>}> : () -> tensor<1x1x64xf32>
    %w1 = "tosa.const"() <{values = dense<0.0234375> : tensor<1x64x256xf32>}> : () -> tensor<1x64x256xf32>
    %c1 = "tosa.const"() <{values = dense<-0.25> : tensor<1x1x256xf32>}> : () -> tensor<1x1x256xf32>
    %w2 = "tosa.const"() <{values = dense<-0.0078125> : tensor<1x256x64xf32>}> : () -> tensor<1x256x64xf32>
    %c2 = "tosa.const"() <{values = dense<0.0625> : tensor<1x1x64xf32>}> : () -> tensor<1x1x64xf32>
    %s_heads = tosa.const_shape {values = dense<[16, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %s_tokens = tosa.const_shape {values = dense<[1, 16, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %ln1_sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
    %ln1_mean = tosa.mul %ln1_sum, %inv_d, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
    %ln1_xc = tosa.sub %x, %ln1_mean : (tensor<1x16x64xf32>, tensor<1x16x1xf32>) -> tensor<1x16x64xf32>
    %ln1_sq = tosa.mul %ln1_xc, %ln1_xc, %shift : (tensor<1x16x64xf32>, tensor<1x16x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
    %ln1_vsum = tosa.reduce_sum %ln1_sq {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
    %ln1_var = tosa.mul %ln1_vsum, %inv_d, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
    %ln1_ve = tosa.add %ln1_var, %eps : (tensor<1x16x1xf32>, tensor<1x1x1xf32>) -> tensor<1x16x1xf32>
    %ln1_rs = tosa.rsqrt %ln1_ve : (tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
    %ln1_n = tosa.mul %ln1_xc, %ln1_rs, %shift : (tensor<1x16x64xf32>, tensor<1x16x1xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
    %ln1_g = tosa.mul %ln1_n, %g1, %shift : (tensor<1x16x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
    %ln1 = tosa.add %ln1_g, %b1 : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
    %q = tosa.matmul %ln1, %wq, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %k = tosa.matmul %ln1, %wk, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %v = tosa.matmul %ln1, %wv, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %qr = tosa.reshape %q, %s_heads : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<16x4x16xf32>
    %qh = tosa.transpose %qr {perms = array<i32: 1, 0, 2>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %kr = tosa.reshape %k, %s_heads : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<16x4x16xf32>
    %kt = tosa.transpose %kr {perms = array<i32: 1, 2, 0>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %vr = tosa.reshape %v, %s_heads : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<16x4x16xf32>
    %vh = tosa.transpose %vr {perms = array<i32: 1, 0, 2>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %sc = tosa.matmul %qh, %kt, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
    %scs = tosa.mul %sc, %scale, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
    %mx = tosa.reduce_max %scs {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
    %sh = tosa.sub %scs, %mx : (tensor<4x16x16xf32>, tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
    %ex = tosa.exp %sh : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %den = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
    %rden = tosa.reciprocal %den : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %p = tosa.mul %ex, %rden, %shift : (tensor<4x16x16xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
    %o = tosa.matmul %p, %vh, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
    %ot = tosa.transpose %o {perms = array<i32: 1, 0, 2>} : (tensor<4x16x16xf32>) -> tensor<16x4x16xf32>
    %or = tosa.reshape %ot, %s_tokens : (tensor<16x4x16xf32>, !tosa.shape<3>) -> tensor<1x16x64xf32>
    %proj = tosa.matmul %or, %wo, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %r1 = tosa.add %x, %proj : (tensor<1x16x64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
    %ln2_sum = tosa.reduce_sum %r1 {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
    %ln2_mean = tosa.mul %ln2_sum, %inv_d, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
    %ln2_xc = tosa.sub %r1, %ln2_mean : (tensor<1x16x64xf32>, tensor<1x16x1xf32>) -> tensor<1x16x64xf32>
    %ln2_sq = tosa.mul %ln2_xc, %ln2_xc, %shift : (tensor<1x16x64xf32>, tensor<1x16x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
    %ln2_vsum = tosa.reduce_sum %ln2_sq {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
    %ln2_var = tosa.mul %ln2_vsum, %inv_d, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
    %ln2_ve = tosa.add %ln2_var, %eps : (tensor<1x16x1xf32>, tensor<1x1x1xf32>) -> tensor<1x16x1xf32>
    %ln2_rs = tosa.rsqrt %ln2_ve : (tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
    %ln2_n = tosa.mul %ln2_xc, %ln2_rs, %shift : (tensor<1x16x64xf32>, tensor<1x16x1xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
    %ln2_g = tosa.mul %ln2_n, %g2, %shift : (tensor<1x16x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
    %ln2 = tosa.add %ln2_g, %b2 : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
    %h = tosa.matmul %ln2, %w1, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x256xf32>
    %hb = tosa.add %h, %c1 : (tensor<1x16x256xf32>, tensor<1x1x256xf32>) -> tensor<1x16x256xf32>
    %h2 = tosa.mul %hb, %hb, %shift : (tensor<1x16x256xf32>, tensor<1x16x256xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
    %h3 = tosa.mul %h2, %hb, %shift : (tensor<1x16x256xf32>, tensor<1x16x256xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
    %h3k = tosa.mul %h3, %k1, %shift : (tensor<1x16x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
    %in = tosa.add %hb, %h3k : (tensor<1x16x256xf32>, tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
    %ink = tosa.mul %in, %k0, %shift : (tensor<1x16x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
    %th = tosa.tanh %ink : (tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
    %th1 = tosa.add %th, %one : (tensor<1x16x256xf32>, tensor<1x1x1xf32>) -> tensor<1x16x256xf32>
    %hh = tosa.mul %hb, %half, %shift : (tensor<1x16x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
    %gelu = tosa.mul %hh, %th1, %shift : (tensor<1x16x256xf32>, tensor<1x16x256xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
    %f = tosa.matmul %gelu, %w2, %zp, %zp : (tensor<1x16x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %fb = tosa.add %f, %c2 : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
    %out = tosa.add %r1, %fb : (tensor<1x16x64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
    return %out : tensor<1x16x64xf32>
  }
}
