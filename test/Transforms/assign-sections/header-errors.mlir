// RUN: helia-opt %s -verify-diagnostics --helia-assign-sections="header=%t.h"

// The C header declares entry points of memrefs and scalars only.
// expected-error @+1 {{cannot declare entry point 'net' in C: its type 'vector<4xf32>' has no C spelling here (memrefs and scalars of f32, f64, i8-i64 and index only)}}
module attributes {helia.firmware = {prefix = "net", platform = "mps3_an547", arenas = [],
                                     entries = [{name = "net", type = (vector<4xf32>) -> ()}]}} {
}
