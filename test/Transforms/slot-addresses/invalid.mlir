// RUN: helia-opt %s --helia-name-slot-addresses=arenas=scratch -verify-diagnostics -o /dev/null

// expected-error@+1 {{helia-name-slot-addresses: arenas='scratch' is not all, constant or writable (slot-addresses= of the pipeline also takes none)}}
module {
}
