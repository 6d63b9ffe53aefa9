// RUN: split-file %s %t
// RUN: helia-opt %t/model.mlir -allow-unregistered-dialect -helia-resolve-residency="rules-file=%t/nothing.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTHING
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/number.json" 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/string.json" 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/rules-object.json" 2>&1 | FileCheck %s --check-prefix=RULESOBJ
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/type-number.json" 2>&1 | FileCheck %s --check-prefix=TYPENUM
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/type-any.json" 2>&1 | FileCheck %s --check-prefix=TYPEANY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/id-bool.json" 2>&1 | FileCheck %s --check-prefix=IDBOOL
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/id-nested.json" 2>&1 | FileCheck %s --check-prefix=IDNESTED
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/id-empty.json" 2>&1 | FileCheck %s --check-prefix=IDEMPTY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/attrs-list.json" 2>&1 | FileCheck %s --check-prefix=ATTRSLIST
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/memory-number.json" 2>&1 | FileCheck %s --check-prefix=MEMNUM
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/memory-empty.json" 2>&1 | FileCheck %s --check-prefix=MEMEMPTY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/residency-bool.json" 2>&1 | FileCheck %s --check-prefix=RESBOOL
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/entry-null.json" 2>&1 | FileCheck %s --check-prefix=ENTRYNULL
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/binary.json" 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/empty-list.json" | FileCheck %s --check-prefix=EMPTY
// RUN: python3 -c "print('[{\"id\": \"a[{\", \"attributes\": {}},\n  ' + '[' * 100000 + ']' * 100000 + ']')" > %t/deep.json
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/deep.json" 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: python3 -c "print('[' * 64 + ']' * 64)" > %t/depth64.json
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/depth64.json" 2>&1 | FileCheck %s --check-prefix=DEPTH64

// Rule files with values of the wrong JSON type are located errors naming
// the file, the entry and the field; rules that match nothing are warnings.

// NOTHING-DAG: warning: rule #0 #helia.rule<type = persistent, attributes = <memory = "sram">> matches no tensor
// NOTHING-DAG: warning: rule #1 #helia.rule<id = ["no/such/*"], attributes = <memory = "sram">> matches no tensor
// NOTHING-DAG: warning: rule #2 #helia.rule<type = constant, id = ["a"], attributes = <memory = "mram">> matches no tensor
// NUMBER: error: rules file '{{.*}}number.json': expected a JSON array of rules (or an object with a "rules" array)
// STRING: error: rules file '{{.*}}string.json': expected a JSON array of rules (or an object with a "rules" array)
// RULESOBJ: error: rules file '{{.*}}rules-object.json': expected a JSON array of rules (or an object with a "rules" array)
// TYPENUM: error: rules file '{{.*}}type-number.json': entry 0, field 'type': expected "constant", "persistent", "scratch" or "*"
// TYPEANY: error: rules file '{{.*}}type-any.json': entry 0, field 'type': expected "constant", "persistent", "scratch" or "*"
// A file nested 100,000 levels deep overflowed the stack in the recursive
// JSON parser; nesting is measured before parsing (brackets inside strings do
// not count), up to 64 levels parse.
// DEEP: error: rules file '{{.*}}deep.json' nests arrays and objects more than 64 levels deep (at line 2, column 66); rules need at most four: an array of objects whose 'attributes' is an object
// DEPTH64: error: rules file '{{.*}}depth64.json': entry 0: expected an object with 'type', 'id' and 'attributes'
// IDBOOL: error: rules file '{{.*}}id-bool.json': entry 0, field 'id': expected a string or a list of strings
// IDNESTED: error: rules file '{{.*}}id-nested.json': entry 0, field 'id': expected a string or a list of strings
// IDEMPTY: error: rules file '{{.*}}id-empty.json': entry 0: rule id list is empty; omit id to match every tensor
// ATTRSLIST: error: rules file '{{.*}}attrs-list.json': entry 0, field 'attributes': expected an object
// MEMNUM: error: rules file '{{.*}}memory-number.json': entry 0, field 'memory': expected a memory name (a non-empty string) or null
// MEMEMPTY: error: rules file '{{.*}}memory-empty.json': entry 0, field 'constant_destination_memory': expected a memory name (a non-empty string) or null
// RESBOOL: error: rules file '{{.*}}residency-bool.json': entry 0, field 'attributes.residency': expected "direct", "pin" or "stream"
// ENTRYNULL: error: rules file '{{.*}}entry-null.json': entry 0: expected an object with 'type', 'id' and 'attributes'
// BINARY: error: rules file '{{.*}}binary.json' is not valid JSON
// EMPTY: module attributes {helia.platform = "apollo510_evb", helia.rules = []}

//--- model.mlir
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
//--- nothing.json
[{"type": "persistent", "attributes": {"memory": "sram"}},
 {"id": "no/such/*", "attributes": {"memory": "sram"}},
 {"type": "constant", "id": "a", "attributes": {"memory": "mram"}}]
//--- number.json
42
//--- string.json
"rules"
//--- rules-object.json
{"rules": {"type": "constant"}}
//--- type-number.json
[{"type": 1, "attributes": {}}]
//--- type-any.json
[{"type": "any", "attributes": {}}]
//--- id-bool.json
[{"id": true, "attributes": {}}]
//--- id-nested.json
[{"id": [["a"]], "attributes": {}}]
//--- id-empty.json
[{"id": [], "attributes": {}}]
//--- attrs-list.json
[{"attributes": ["memory", "sram"]}]
//--- memory-number.json
[{"attributes": {"memory": 3}}]
//--- memory-empty.json
[{"attributes": {"constant_destination_memory": ""}}]
//--- residency-bool.json
[{"type": "constant", "attributes": {"residency": true}}]
//--- entry-null.json
[null]
//--- binary.json
[{"type": "constant"
//--- empty-list.json
[]
