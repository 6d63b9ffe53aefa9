// RUN: split-file %s %t
// RUN: helia-opt %t/unreadable.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/missing.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/syntax.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/syntax.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/format.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/format.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/count.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/count.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/kind.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/kind.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/twice.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/twice.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/nofunction.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/nofunction.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/tensors.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/tensors.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/extra.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/extra.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/unknown.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/unknown.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/renamed.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/renamed.json" -verify-diagnostics -o /dev/null
// RUN: helia-opt %t/grouped.mlir -allow-unregistered-dialect -helia-resolve-residency "-helia-assign-bindings=objective=traffic traffic-profile=%t/grouped.json" -verify-diagnostics -o /dev/null

// Every error of traffic-profile= (docs/Placement.md, "Placement by
// measured traffic"): a file that cannot be read, one that is not a
// profile (the JSON path of the first bad field), and a profile of
// another model (a function, a tensor or a buffer that differs), located
// at the module, the function or the tensor. The model: x (#0), a/w (#1),
// y (#2), b/w (#3), z (#4).

//--- unreadable.mlir
// expected-error-re @+1 {{cannot read traffic profile '{{.*}}missing.json': {{.*}}}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- syntax.mlir
// expected-error-re @+1 {{traffic profile '{{.*}}syntax.json' is malformed: {{.*}}; write it with bench/traffic.py --profile}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- syntax.json
{"format": 
//--- format.mlir
// expected-error-re @+1 {{traffic profile '{{.*}}format.json' is malformed: expected 'helia-traffic-profile' at profile.format; write it with bench/traffic.py --profile}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- format.json
{"format": "helia-plan", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- count.mlir
// expected-error-re @+1 {{traffic profile '{{.*}}count.json' is malformed: expected a non-negative integer at profile.tensors[0].read_bytes; {{.*}}}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- count.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": -4, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- kind.mlir
// expected-error-re @+1 {{traffic profile '{{.*}}kind.json' is malformed: expected 'constant', 'persistent' or 'scratch' at profile.tensors[0].kind; {{.*}}}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- kind.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "weight", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- twice.mlir
// expected-error-re @+1 {{traffic profile '{{.*}}twice.json' is malformed: counts a tensor that another entry counts in the same memory at profile.tensors[1].members; {{.*}}}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- twice.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0},
  {"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- nofunction.mlir
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  // expected-error-re @+1 {{traffic profile '{{.*}}nofunction.json' (of 'm.mlir') was measured on another model: it has no function 'f'; measure this module again (bench/traffic.py --profile) with the options it is planned with}}
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- nofunction.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "g", "tensors": 5}],
 "tensors": [{"function": "g", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- tensors.mlir
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  // expected-error-re @+1 {{traffic profile '{{.*}}tensors.json' (of 'm.mlir') was measured on another model: its function 'f' has 7 tensors, this one 5; {{.*}}}}
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- tensors.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 7}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- extra.mlir
// expected-error-re @+1 {{traffic profile '{{.*}}extra.json' (of 'm.mlir') was measured on another model: it has a function 'g' that this module does not plan; {{.*}}}}
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- extra.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}, {"name": "g", "tensors": 1}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- unknown.mlir
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  // expected-error-re @+1 {{traffic profile '{{.*}}unknown.json' gives tensor #9 of 'f', which has only 5 tensors (#0 to #4)}}
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- unknown.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 9, "members": [9], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0}]}
//--- renamed.mlir
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    // expected-error-re @+1 {{traffic profile '{{.*}}renamed.json' (of 'm.mlir') was measured on another model: its tensor #3 of 'f' is constant 'c/w' of 256 bytes, here constant 'b/w' of 256 bytes; {{.*}}}}
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- renamed.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0},
  {"function": "f", "tensor_id": 3, "members": [3], "name": "c/w", "kind": "constant", "size": 256, "read_bytes": 65536, "write_bytes": 0, "reads": 16384, "writes": 0}]}
//--- grouped.mlir
module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1152, init = true>,
                #helia.memory_desc<name = "flash", size = 16384, writable = false, init = true, nonvolatile = true, read_cycles = 6, write_cycles = 6>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
    %wa = "test.w"() {helia.constant, helia.name = "a/w"} : () -> tensor<16x64xi8>
    %y = "tfl.fully_connected"(%x, %wa) : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi8>
    // expected-error-re @+1 {{traffic profile '{{.*}}grouped.json' counts tensor #3 of 'f' in one buffer with #3, #4, but here its buffer holds #3; measure with the planning options (in-place, pad-in-place) this plan uses}}
    %wb = "test.w"() {helia.constant, helia.name = "b/w"} : () -> tensor<16x16xi8>
    %z = "tfl.fully_connected"(%y, %wb) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
    return %z : tensor<1x16xi8>
  }
}
//--- grouped.json
{"format": "helia-traffic-profile", "version": 1, "model": "m.mlir", "runs": 1,
 "functions": [{"name": "f", "tensors": 5}],
 "tensors": [{"function": "f", "tensor_id": 1, "members": [1], "name": "a/w", "kind": "constant", "size": 1024, "read_bytes": 1024, "write_bytes": 0, "reads": 1024, "writes": 0},
  {"function": "f", "tensor_id": 3, "members": [3, 4], "name": "b/w", "kind": "constant", "size": 256, "read_bytes": 65536, "write_bytes": 0, "reads": 16384, "writes": 0}]}
