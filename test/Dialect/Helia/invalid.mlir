// RUN: helia-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// One case per verifier message of the helia dialect.

// expected-error @+1 {{memory space needs a non-empty memory name}}
func.func private @f(memref<4xi8, #helia.memory<"">>)

// -----

// expected-error @+1 {{memory needs a non-empty name}}
module attributes {test.m = #helia.memory_desc<name = "", size = 4>} {}

// -----

// expected-error @+1 {{memory 'dtcm' has size 0; give it a positive size in bytes}}
module attributes {test.m = #helia.memory_desc<name = "dtcm", size = 0>} {}

// -----

// expected-error @+1 {{memory 'dtcm' reserves 4096 of its 4096 bytes; reserve fewer bytes than the size}}
module attributes {test.m = #helia.memory_desc<name = "dtcm", size = 4096, reserved = 4096>} {}

// -----

// expected-error @+1 {{memory 'dtcm' at base 18446744073709551615 with size 4096 ends past 2^64; give a smaller base}}
module attributes {test.m = #helia.memory_desc<name = "dtcm", size = 4096, base = 0xffffffffffffffff>} {}

// -----

// expected-error @+1 {{memory 'sram' section '.shared data' contains a space or a quote; give a plain section name such as .shared}}
module attributes {test.m = #helia.memory_desc<name = "sram", size = 4096, section = ".shared data">} {}

// -----

// expected-error @+1 {{memory 'dtcm' region 'MCU TCM' is not a linker-script identifier; use letters, digits and '_' (e.g. MCU_TCM)}}
module attributes {test.m = #helia.memory_desc<name = "dtcm", size = 4096, region = "MCU TCM">} {}

// -----

// expected-error @+1 {{platform needs a non-empty name}}
module attributes {helia.platform = #helia.platform<name = "", memories = [#helia.memory_desc<name = "a", size = 4>], preferred = [], alignment = 16>} {}

// -----

// expected-error @+1 {{platform 'p' declares no memory}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [], preferred = [], alignment = 16>} {}

// -----

// expected-error @+2 {{expected a #helia.memory_desc, got "a"}}
// expected-error @+1 {{failed to parse Helia_PlatformAttr parameter 'memories'}}
module attributes {helia.platform = #helia.platform<name = "p", memories = ["a"], preferred = [], alignment = 16>} {}

// -----

// expected-error @+2 {{expected a memory name (a string), got 1 : i64}}
// expected-error @+1 {{failed to parse Helia_PlatformAttr parameter 'preferred'}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [#helia.memory_desc<name = "a", size = 4>], preferred = [1], alignment = 16>} {}

// -----

// expected-error @+1 {{platform 'p' alignment 12 is not a positive power of two}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [#helia.memory_desc<name = "a", size = 4>], preferred = [], alignment = 12>} {}

// -----

// expected-error @+1 {{platform 'p' declares memory 'a' twice}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [#helia.memory_desc<name = "a", size = 4>, #helia.memory_desc<name = "a", size = 8>], preferred = [], alignment = 16>} {}

// -----

// expected-error @+1 {{platform 'p' prefers memory 'b' which it does not declare}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [#helia.memory_desc<name = "a", size = 4>], preferred = ["b"], alignment = 16>} {}

// -----

// expected-error @+1 {{platform 'p' lists memory 'a' twice in its preferred order}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [#helia.memory_desc<name = "a", size = 4>], preferred = ["a", "a"], alignment = 16>} {}

// -----

// expected-error @+1 {{memory must be a non-empty memory name}}
module attributes {test.a = #helia.attributes<memory = "">} {}

// -----

// expected-error @+1 {{constant_destination_memory must be a non-empty memory name}}
module attributes {test.a = #helia.attributes<constant_destination_memory = "">} {}

// -----

// expected-error @+2 {{constant_destination_memory 'dtcm' implies residency pin but residency is direct; drop one of the two}}
// expected-error @+1 {{failed to parse Helia_RuleAttr parameter 'attributes'}}
module attributes {helia.rules = [#helia.rule<type = constant, attributes = <constant_destination_memory = "dtcm", residency = direct>>]} {}

// -----

// expected-error @+2 {{constant_destination_memory 'dtcm' implies residency pin but residency is stream; drop one of the two}}
// expected-error @+1 {{failed to parse Helia_RuleAttr parameter 'attributes'}}
module attributes {helia.rules = [#helia.rule<attributes = <constant_destination_memory = "dtcm", residency = stream>>]} {}

// -----

// expected-error @+1 {{rule id list is empty; omit id to match every tensor}}
module attributes {helia.rules = [#helia.rule<id = [], attributes = <>>]} {}

// -----

// expected-error @+1 {{rule id entries must be non-empty strings}}
module attributes {helia.rules = [#helia.rule<id = [1], attributes = <>>]} {}

// -----

// expected-error @+1 {{rule id '[a' is not a valid glob}}
module attributes {helia.rules = [#helia.rule<id = ["[a"], attributes = <>>]} {}

// -----

// expected-error @+1 {{a placement needs a concrete kind, not any}}
module attributes {test.p = #helia.placement<id = 0, kind = any>} {}

// -----

// expected-error @+1 {{only constants take a residency or a constant_destination_memory}}
module attributes {test.p = #helia.placement<id = 0, kind = scratch, residency = direct>} {}

// -----

// expected-error @+1 {{residency pin needs a constant_destination_memory}}
module attributes {test.p = #helia.placement<id = 0, kind = constant, residency = pin>} {}

// -----

// A stream slot is an arena and an offset, both or neither.
// expected-error @+1 {{expected '['}}
module attributes {test.b = #helia.binding<@a[0], stream = @s>} {}

// -----

helia.arena @a scratch in "dtcm" size 64 align 16
helia.arena @s scratch in "dtcm" stream size 64 align 16
// expected-error @+1 {{binding streams a tensor of scratch arena @a; only constants are streamed}}
%0 = "test.op"() {helia.binding = [#helia.binding<@a[0], stream = @s[0]>]} : () -> tensor<4xf32>

// -----

module {
  // expected-error @+1 {{'helia.platform' belongs on a builtin.module}}
  func.func private @f() attributes {helia.platform = "apollo510_evb"}
}

// -----

// expected-error @+1 {{unknown platform preset 'apollo9'; known presets: apollo510_evb, apollo4p_evb, apollo4l_evb, apollo3p_evb, mps3_an547}}
module attributes {helia.platform = "apollo9"} {}

// -----

// expected-error @+1 {{'helia.platform' must be a preset name or a #helia.platform}}
module attributes {helia.platform = 3} {}

// -----

module {
  // expected-error @+1 {{'helia.rules' belongs on a builtin.module}}
  func.func private @f() attributes {helia.rules = []}
}

// -----

// expected-error @+1 {{'helia.rules' must be an array of #helia.rule}}
module attributes {helia.rules = ["x"]} {}

// -----

// expected-error @+1 {{'helia.attributes' must be a #helia.attributes}}
"test.op"() {helia.attributes = 1} : () -> ()

// -----

// expected-error @+1 {{'helia.name' must be a string or one string per result}}
%0 = "test.op"() {helia.name = ["a", "b"]} : () -> tensor<4xf32>

// -----

// expected-error @+1 {{'helia.constant' must be a unit attribute}}
%0 = "test.op"() {helia.constant = 1} : () -> tensor<4xf32>

// -----

// expected-error @+1 {{'helia.placement' must hold one #helia.placement (or unit) per result}}
%0 = "test.op"() {helia.placement = []} : () -> tensor<4xf32>

// -----

// expected-error @+1 {{'helia.binding' must hold one #helia.binding (or unit) per result}}
%0 = "test.op"() {helia.binding = [unit, unit]} : () -> tensor<4xf32>

// -----

// expected-error @+1 {{binding names arena @nowhere which is not a helia.arena}}
%0 = "test.op"() {helia.binding = [#helia.binding<@nowhere[0]>]} : () -> tensor<4xf32>

// -----

helia.arena @a scratch in "dtcm" size 64 align 16
// expected-error @+1 {{binding offset 8 in arena @a is not a multiple of its alignment 16}}
%0 = "test.op"() {helia.binding = [#helia.binding<@a[8]>]} : () -> tensor<4xf32>

// -----

// The module has arenas, but not the one the binding names (checked by the
// arenas' verifySymbolUses).
helia.arena @a scratch in "dtcm" size 64 align 16
// expected-error @+1 {{binding names arena @b which is not a helia.arena}}
%0 = "test.op"() {helia.binding = [#helia.binding<@b[0]>]} : () -> tensor<4xf32>

// -----

helia.arena @a scratch in "dtcm" size 64 align 16
// expected-error @+1 {{tensor of 64 bytes at offset 16 overruns arena @a of 64 bytes}}
%0 = "test.op"() {helia.binding = [#helia.binding<@a[16]>]} : () -> tensor<16xf32>

// -----

// A stream slot lies inside its pool; an offset near 2^63 must not wrap
// into range (helia-verify-plan accepted it).
helia.arena @c constant in "mram" size 64 align 16
helia.arena @s scratch in "dtcm" stream size 64 align 16
// expected-error @+1 {{tensor of 64 bytes at offset 9223372036854775792 overruns arena @s of 64 bytes}}
%0 = "test.op"() {helia.binding = [#helia.binding<@c[0], stream = @s[9223372036854775792]>]} : () -> tensor<16xf32>

// -----

helia.arena @c constant in "mram" size 64 align 16
helia.arena @s scratch in "dtcm" stream size 64 align 16
// expected-error @+1 {{stream offset 8 in arena @s is not a multiple of its alignment 16}}
%0 = "test.op"() {helia.binding = [#helia.binding<@c[0], stream = @s[8]>]} : () -> tensor<4xf32>

// -----

helia.arena @c constant in "mram" size 64 align 16
helia.arena @d scratch in "dtcm" size 64 align 16
// expected-error @+1 {{binding streams into @d which is not a helia.arena marked stream}}
%0 = "test.op"() {helia.binding = [#helia.binding<@c[0], stream = @d[0]>]} : () -> tensor<4xf32>

// -----

// expected-error @+1 {{unknown helia attribute 'helia.bogus'}}
"test.op"() {helia.bogus} : () -> ()

// -----

// expected-error @+1 {{argument attribute 'helia.name' must be a string}}
func.func private @f(tensor<4xf32> {helia.name = 1})

// -----

// expected-error @+1 {{argument attribute 'helia.persistent' must be a unit attribute}}
func.func private @f(tensor<4xf32> {helia.persistent = 1})

// -----

// expected-error @+1 {{argument attribute 'helia.attributes' must be a #helia.attributes}}
func.func private @f(tensor<4xf32> {helia.attributes = 1})

// -----

// expected-error @+1 {{argument attribute 'helia.placement' must be a #helia.placement}}
func.func private @f(tensor<4xf32> {helia.placement = 1})

// -----

// expected-error @+1 {{argument attribute 'helia.binding' must be a #helia.binding}}
func.func private @f(tensor<4xf32> {helia.binding = 1})

// -----

// expected-error @+1 {{unknown helia argument attribute 'helia.bogus'}}
func.func private @f(tensor<4xf32> {helia.bogus})

// -----

// expected-error @+1 {{attribute 'size' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
helia.arena @a scratch in "dtcm" size 0 align 16

// -----

// The accessors are unsigned: -128 must not read as 2^64 - 128.
// expected-error @+1 {{attribute 'size' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
helia.arena @a scratch in "dtcm" size -128 align 16

// -----

// -2^63 is a power of two as an unsigned number.
// expected-error @+1 {{attribute 'alignment' failed to satisfy constraint}}
helia.arena @a scratch in "dtcm" size 64 align -9223372036854775808

// -----

// expected-error @+1 {{attribute 'alignment' failed to satisfy constraint}}
helia.arena @a scratch in "dtcm" size 64 align 24

// -----

// expected-error @+1 {{needs a non-empty memory}}
helia.arena @a scratch in "" size 64 align 16

// -----

// expected-error @+1 {{only constant arenas may have a source_memory ('mram') other than their memory ('dtcm')}}
helia.arena @a scratch in "dtcm" from "mram" size 64 align 16

// -----

// expected-error @+1 {{a stream pool must have role scratch}}
helia.arena @a persistent in "dtcm" stream size 64 align 16

// -----

func.func @f(%a: memref<16xi8>, %b: memref<8xi8>) {
  // expected-error @+1 {{source holds 16 bytes but target holds 8}}
  helia.hydrate %a, %b : memref<16xi8>, memref<8xi8>
  return
}

// -----

func.func @f(%a: memref<2xvector<4xf32>>, %b: memref<32xi8>) {
  // expected-error @+1 {{copies only memrefs of integer, float, index or complex elements, not 'memref<2xvector<4xf32>>'}}
  helia.stream %a, %b : memref<2xvector<4xf32>>, memref<32xi8>
  return
}

// -----

// index elements take 8 bytes (ByteSize.h), like every other byte size.
func.func @f(%a: memref<2xindex>, %b: memref<8xi8>) {
  // expected-error @+1 {{source holds 16 bytes but target holds 8}}
  helia.stream %a, %b : memref<2xindex>, memref<8xi8>
  return
}

// -----

func.func @f(%a: memref<4294967296x4294967296xi8>, %b: memref<16xi8>) {
  // expected-error @+1 {{copies memrefs of fewer than 2^64 bytes}}
  helia.stream %a, %b : memref<4294967296x4294967296xi8>, memref<16xi8>
  return
}

// -----

// expected-error @+1 {{'helia.unplanned' must be a unit attribute on a function}}
"test.op"() {helia.unplanned} : () -> ()

// -----

// expected-error @+1 {{'helia.unplanned' must be a unit attribute on a function}}
func.func private @f() attributes {helia.unplanned = 1}

// -----

// Preferred memories hold the tensors written at run time.
// expected-error @+1 {{platform 'p' prefers memory 'ram', which is read-only at run time (writable = false); preferred memories hold the tensors written at run time: list only readable, writable memories in preferred (keep read-only ones for constants)}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [#helia.memory_desc<name = "ram", size = 100, writable = false>], preferred = ["ram"], alignment = 16>} {
}

// -----

// expected-error @+1 {{platform 'p' prefers memory 'wo', which is not readable (readable = false)}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [#helia.memory_desc<name = "dtcm", size = 100>, #helia.memory_desc<name = "wo", size = 100, readable = false>], preferred = ["dtcm", "wo"], alignment = 16>} {
}
