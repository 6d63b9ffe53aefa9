"""Builders of the layer operators of ops.py's cases: convolutions,
fully connected, transpose convolution, pooling, LSTM. Each builder
returns a function that fills a Model (ops_models.py)."""

from ops_models import (acc_scale, act_q, conv_out, m_elt, per_channel, quant,
                        weights_i8)


def conv2d(t="i8", n=1, k=3, stride=1, dilation=1, padding="SAME", act="NONE",
           hw=(9, 9), cin=3, cout=4, bias=True):
    def build(m):
        np = m.np
        ih, iw = hw
        oh = conv_out(ih, k, stride, dilation, padding)
        ow = conv_out(iw, k, stride, dilation, padding)
        opts = ("Conv2DOptions", {"padding": padding, "stride_w": stride,
                                  "stride_h": stride,
                                  "fused_activation_function": act,
                                  "dilation_w_factor": dilation,
                                  "dilation_h_factor": dilation})
        if t == "f32":
            x = m.input([n, ih, iw, cin], "f32")
            w = m.tensor([cout, k, k, cin], "f32",
                         data=m.rs.normal(0, 0.3, size=(cout, k, k, cin)))
            b = m.tensor([cout], "f32", data=m.rs.normal(0, 0.5, size=cout))
            y = m.output([n, oh, ow, cout], "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (cout, k, k, cin), 0)
            x = m.input([n, ih, iw, cin], "i8", xq)
            w = m.tensor([cout, k, k, cin], "i8", per_channel(ws, 0), wv)
            in_s = xq["scale"][0]
            b = m.tensor([cout], "i32", per_channel([in_s * s for s in ws], 0),
                         m.rs.randint(-3000, 3000, size=cout))
            y = m.output([n, oh, ow, cout], "i8",
                         act_q(m, acc_scale(in_s, ws, k * k * cin)))
        m.op("CONV_2D", [x, w, b if bias else -1], [y], opts,
             version=2 if t == "i8" else 1)
    return build


def depthwise(t="i8", n=1, k=3, stride=1, dilation=1, padding="SAME", act="NONE",
              hw=(8, 8), cin=3, mult=1):
    def build(m):
        ih, iw = hw
        cout = cin * mult
        oh = conv_out(ih, k, stride, dilation, padding)
        ow = conv_out(iw, k, stride, dilation, padding)
        opts = ("DepthwiseConv2DOptions", {
            "padding": padding, "stride_w": stride, "stride_h": stride,
            "depth_multiplier": mult, "fused_activation_function": act,
            "dilation_w_factor": dilation, "dilation_h_factor": dilation})
        if t == "f32":
            x = m.input([n, ih, iw, cin], "f32")
            w = m.tensor([1, k, k, cout], "f32",
                         data=m.rs.normal(0, 0.3, size=(1, k, k, cout)))
            b = m.tensor([cout], "f32", data=m.rs.normal(0, 0.5, size=cout))
            y = m.output([n, oh, ow, cout], "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (1, k, k, cout), 3)
            x = m.input([n, ih, iw, cin], "i8", xq)
            w = m.tensor([1, k, k, cout], "i8", per_channel(ws, 3), wv)
            in_s = xq["scale"][0]
            b = m.tensor([cout], "i32", per_channel([in_s * s for s in ws], 0),
                         m.rs.randint(-3000, 3000, size=cout))
            y = m.output([n, oh, ow, cout], "i8",
                         act_q(m, acc_scale(in_s, ws, k * k)))
        m.op("DEPTHWISE_CONV_2D", [x, w, b], [y], opts,
             version=2 if t == "i8" else 1)
    return build


def fully_connected(t="i8", in_shape=(2, 16), units=5, keep=False,
                    act="NONE", per_tensor=False, bias=True, depth=None):
    def build(m):
        depth_ = depth or in_shape[-1]
        total = 1
        for d in in_shape:
            total *= d
        rows = total // depth_
        out_shape = list(in_shape[:-1]) + [units] if keep else [rows, units]
        opts = ("FullyConnectedOptions", {"fused_activation_function": act,
                                          "keep_num_dims": keep})
        if t == "f32":
            x = m.input(list(in_shape), "f32")
            w = m.tensor([units, depth_], "f32",
                         data=m.rs.normal(0, 0.3, size=(units, depth_)))
            b = m.tensor([units], "f32", data=m.rs.normal(0, 0.5, size=units))
            y = m.output(out_shape, "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (units, depth_), 0)
            if per_tensor:
                ws = ws[:1]
            x = m.input(list(in_shape), "i8", xq)
            w = m.tensor([units, depth_], "i8", per_channel(ws, 0), wv)
            in_s = xq["scale"][0]
            b = m.tensor([units], "i32",
                         per_channel([in_s * s for s in ws], 0) if not per_tensor
                         else quant(in_s * ws[0]),
                         m.rs.randint(-3000, 3000, size=units))
            y = m.output(out_shape, "i8", act_q(m, acc_scale(in_s, ws, depth_)))
        m.op("FULLY_CONNECTED", [x, w, b if bias else -1], [y], opts,
             version=4 if t == "i8" else 1)
    return build


def transpose_conv(t="i8", n=1, k=3, stride=2, padding="SAME", hw=(4, 4), cin=3,
                   cout=2, bias=True, out_hw=None):
    def build(m):
        ih, iw = hw
        if out_hw:
            oh, ow = out_hw
        elif padding == "SAME":
            oh, ow = ih * stride, iw * stride
        else:
            oh, ow = (ih - 1) * stride + k, (iw - 1) * stride + k
        shape = m.const_i32([n, oh, ow, cout])
        opts = ("TransposeConvOptions", {"padding": padding, "stride_w": stride,
                                         "stride_h": stride})
        if t == "f32":
            w = m.tensor([cout, k, k, cin], "f32",
                         data=m.rs.normal(0, 0.3, size=(cout, k, k, cin)))
            x = m.input([n, ih, iw, cin], "f32")
            b = m.tensor([cout], "f32", data=m.rs.normal(0, 0.5, size=cout))
            y = m.output([n, oh, ow, cout], "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (cout, k, k, cin), 0)
            w = m.tensor([cout, k, k, cin], "i8", per_channel(ws, 0), wv)
            x = m.input([n, ih, iw, cin], "i8", xq)
            in_s = xq["scale"][0]
            b = m.tensor([cout], "i32", per_channel([in_s * s for s in ws], 0),
                         m.rs.randint(-3000, 3000, size=cout))
            taps = max(1, (k * k * cin) // (stride * stride))
            y = m.output([n, oh, ow, cout], "i8",
                         act_q(m, acc_scale(in_s, ws, taps)))
        m.op("TRANSPOSE_CONV", [shape, w, x] + ([b] if bias else []), [y],
             opts, version=3 if bias else 2)
    return build


def pool(name, t="i8", n=1, k=3, stride=2, padding="SAME", act="NONE", hw=(9, 9),
         c=3):
    def build(m):
        ih, iw = hw
        oh = conv_out(ih, k, stride, 1, padding)
        ow = conv_out(iw, k, stride, 1, padding)
        opts = ("Pool2DOptions", {"padding": padding, "stride_w": stride,
                                  "stride_h": stride, "filter_width": k,
                                  "filter_height": k,
                                  "fused_activation_function": act})
        q = act_q(m) if t == "i8" else quant(3e-4) if t == "i16" else None
        x = m.input([n, ih, iw, c], t, q)
        y = m.output([n, oh, ow, c], t, q)
        m.op(name, [x], [y], opts, version=2 if t == "i8" else 1)
    return build


def lstm(t="i8", batch=1, steps=5, n_in=6, units=4, time_major=False,
         clip=0.0, cell_power=-11, hidden_zp=5, state_input=False):
    """UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite's converter writes it: 24
    inputs (peephole, projection and layer norm absent), the hidden and
    cell states variable tensors, five intermediates (scaleless but the
    effective hidden scale), TANH on the cell gate. Integer models are
    8x8_16 (t="i8") or 16x8 (t="i16"), weights per tensor."""
    def build(m):
        np, rs = m.np, m.rs
        shape = [steps, batch, n_in] if time_major else [batch, steps, n_in]
        out_shape = [steps, batch, units] if time_major else [batch, steps, units]
        opts = ("UnidirectionalSequenceLSTMOptions",
                {"fused_activation_function": "TANH", "cell_clip": clip,
                 "time_major": time_major})
        ins = [-1] * 24
        inter = []
        if t == "f32":
            ins[0] = m.input(shape, "f32")
            for k in range(1, 5):
                ins[k] = m.tensor([units, n_in], "f32",
                                  data=rs.normal(0, 0.5, size=(units, n_in)))
            for k in range(5, 9):
                ins[k] = m.tensor([units, units], "f32",
                                  data=rs.normal(0, 0.5, size=(units, units)))
            for k in range(12, 16):
                ins[k] = m.tensor([units], "f32",
                                  data=rs.normal(0, 0.5, size=units) + (1.0 if k == 13 else 0))
            for k in (18, 19):
                ins[k] = m.tensor([batch, units], "f32", variable=True)
            y = m.output(out_shape, "f32")
        else:
            is8 = t == "i8"
            in_q = act_q(m) if is8 else quant(float(rs.uniform(2e-4, 5e-4)))
            h_q = quant(1 / 128, hidden_zp) if is8 else quant(1 / 32768)
            ins[0] = m.input(shape, t, in_q)
            w_q = {}
            for k in range(1, 9):
                cols = n_in if k < 5 else units
                w_q[k] = float(rs.uniform(0.005, 0.03))
                ins[k] = m.tensor([units, cols], "i8", quant(w_q[k]),
                                  rs.randint(-127, 128, size=(units, cols)))
            for k in range(12, 16):
                bs = in_q["scale"][0] * w_q[k - 11]
                ins[k] = m.tensor([units], "i32" if is8 else "i64", quant(bs),
                                  rs.randint(-800, 800, size=units) * (1 if is8 else 30))
            ins[18] = m.tensor([batch, units], t, h_q, variable=True)
            ins[19] = m.tensor([batch, units], "i16", quant(2.0 ** cell_power),
                               variable=True)
            y = m.output(out_shape, t, h_q)
            for g in ("input", "forget", "cell", "output"):
                inter.append(m.tensor([0], "i16"))
                m.tensors[-1]["name"] = f"input_to_{g}_intermediate"
                m.tensors[-1]["shape"] = []
            inter.append(m.tensor([], t, h_q))
            m.tensors[-1]["name"] = "effective_hidden_scale_intermediate"
        if state_input:
            # The states as subgraph inputs instead of variables.
            for k in (18, 19):
                m.tensors[ins[k]].pop("is_variable", None)
                m.inputs.append(ins[k])
                lim = {"f32": (-1.0, 1.0), "i8": (-100, 100),
                       "i16": (-3000, 3000)}
                m.ranges[ins[k]] = lim[m_elt(m, ins[k])]
        m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [y], opts, version=1,
             intermediates=inter)
    return build
