// RUN: split-file %s %t
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/syntax.json" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/notlist.json" 2>&1 | FileCheck %s --check-prefix=NOTLIST
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/entry.json" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/field.json" 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/type.json" 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/id.json" 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/attrs.json" 2>&1 | FileCheck %s --check-prefix=ATTRS
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/attrfield.json" 2>&1 | FileCheck %s --check-prefix=ATTRFIELD
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/memory.json" 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/residency.json" 2>&1 | FileCheck %s --check-prefix=RESIDENCY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/conflict.json" 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/glob.json" 2>&1 | FileCheck %s --check-prefix=GLOB
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/unknown.json" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// A malformed rules file is an error that names the file, the entry and the
// field. (The file path is only known at run time, so these cases check the
// message with FileCheck rather than -verify-diagnostics.)

// MISSING: error: cannot read rules file '{{.*}}missing.json'
// SYNTAX: error: rules file '{{.*}}syntax.json' is not valid JSON
// NOTLIST: error: rules file '{{.*}}notlist.json': expected a JSON array of rules (or an object with a "rules" array)
// ENTRY: error: rules file '{{.*}}entry.json': entry 1: expected an object with 'type', 'id', 'op' and 'attributes'
// FIELD: error: rules file '{{.*}}field.json': entry 0, field 'kind': unknown field; a rule has 'type', 'id', 'op' and 'attributes'
// TYPE: error: rules file '{{.*}}type.json': entry 0, field 'type': expected "constant", "persistent", "scratch" or "*"
// ID: error: rules file '{{.*}}id.json': entry 0, field 'id': expected a string or a list of strings
// ATTRS: error: rules file '{{.*}}attrs.json': entry 0, field 'attributes': expected an object
// ATTRFIELD: error: rules file '{{.*}}attrfield.json': entry 0, field 'attributes.placement': unknown field; attributes are 'memory', 'constant_destination_memory' and 'residency'
// MEMORY: error: rules file '{{.*}}memory.json': entry 0, field 'memory': expected a memory name (a non-empty string) or null
// RESIDENCY: error: rules file '{{.*}}residency.json': entry 0, field 'attributes.residency': expected "direct", "pin" or "stream"
// CONFLICT: error: rules file '{{.*}}conflict.json': entry 0: constant_destination_memory 'dtcm' implies residency pin but residency is stream; drop one of the two
// GLOB: error: rules file '{{.*}}glob.json': entry 0: rule id '[x' is not a valid glob
// UNKNOWN: error: rule #0 sets memory to unknown memory 'l3'; platform 'apollo510_evb' has: itcm, dtcm, sram, mram, psram

//--- model.mlir
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
//--- syntax.json
[{"type": "constant",}]
//--- notlist.json
{"type": "constant"}
//--- entry.json
[{"type": "constant", "attributes": {}}, 3]
//--- field.json
[{"kind": "constant"}]
//--- type.json
[{"type": "weights"}]
//--- id.json
[{"id": 7}]
//--- attrs.json
[{"attributes": ["memory"]}]
//--- attrfield.json
[{"attributes": {"placement": "dtcm"}}]
//--- memory.json
[{"attributes": {"memory": ""}}]
//--- residency.json
[{"type": "constant", "attributes": {"residency": "resident"}}]
//--- conflict.json
[{"type": "constant", "attributes": {"constant_destination_memory": "dtcm", "residency": "stream"}}]
//--- glob.json
[{"id": "[x", "attributes": {}}]
//--- unknown.json
[{"attributes": {"memory": "l3"}}]
