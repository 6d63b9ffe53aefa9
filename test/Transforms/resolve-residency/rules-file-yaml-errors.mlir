// RUN: split-file %s %t
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/syntax.yaml" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/notlist.yaml" 2>&1 | FileCheck %s --check-prefix=NOTLIST
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/entry.yaml" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/field.yaml" 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/type.yaml" 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/id.yaml" 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/attrs.yaml" 2>&1 | FileCheck %s --check-prefix=ATTRS
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/attrfield.yaml" 2>&1 | FileCheck %s --check-prefix=ATTRFIELD
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/memory.yaml" 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/residency.yaml" 2>&1 | FileCheck %s --check-prefix=RESIDENCY
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/conflict.yaml" 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/glob.yaml" 2>&1 | FileCheck %s --check-prefix=GLOB
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/unknown.yaml" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/alias.yaml" 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/twice.yaml" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/documents.yaml" 2>&1 | FileCheck %s --check-prefix=DOCUMENTS
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/bool.yaml" 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: python3 -c "import sys; sys.stdout.buffer.write(b'- type: constant\n- id: \"a\xffb\"\n')" > %t/utf8.yaml
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/utf8.yaml" 2>&1 | FileCheck %s --check-prefix=UTF8
// RUN: python3 -c "print('- {id: a, attributes: {}}\n- ' + '[' * 100000 + ']' * 100000)" > %t/deep.yaml
// RUN: not helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/deep.yaml" 2>&1 | FileCheck %s --check-prefix=DEEP

// A malformed YAML rules file is an error at its line and column in the
// file, with the JSON reader's words (rules-file-errors.mlir): the file, the
// entry and the field. A rule that parses but names what the platform
// lacks is an error at the rule's line. (The path is known at run time
// only, so FileCheck reads the messages.)

// SYNTAX: syntax.yaml:3:{{[0-9]+}}: error: rules file '{{.*}}syntax.yaml' is not valid YAML: Could not find closing ]
// NOTLIST: notlist.yaml:1:1: error: rules file '{{.*}}notlist.yaml': expected a YAML list of rules (or a mapping with a 'rules' list)
// ENTRY: entry.yaml:3:3: error: rules file '{{.*}}entry.yaml': entry 1: expected an object with 'type', 'id', 'op' and 'attributes'
// FIELD: field.yaml:2:3: error: rules file '{{.*}}field.yaml': entry 0, field 'kind': unknown field; a rule has 'type', 'id', 'op' and 'attributes'
// TYPE: type.yaml:4:3: error: rules file '{{.*}}type.yaml': entry 1, field 'type': expected "constant", "persistent", "scratch" or "*"
// ID: id.yaml:1:3: error: rules file '{{.*}}id.yaml': entry 0, field 'id': expected a string or a list of strings
// ATTRS: attrs.yaml:2:3: error: rules file '{{.*}}attrs.yaml': entry 0, field 'attributes': expected an object
// ATTRFIELD: attrfield.yaml:3:5: error: rules file '{{.*}}attrfield.yaml': entry 0, field 'attributes.placement': unknown field; attributes are 'memory', 'constant_destination_memory' and 'residency'
// MEMORY: memory.yaml:3:5: error: rules file '{{.*}}memory.yaml': entry 0, field 'memory': expected a memory name (a non-empty string) or null
// RESIDENCY: residency.yaml:4:5: error: rules file '{{.*}}residency.yaml': entry 0, field 'attributes.residency': expected "direct", "pin" or "stream"
// CONFLICT: conflict.yaml:2:3: error: rules file '{{.*}}conflict.yaml': entry 1: constant_destination_memory 'dtcm' implies residency pin but residency is stream; drop one of the two
// GLOB: glob.yaml:1:3: error: rules file '{{.*}}glob.yaml': entry 0: rule id '[x' is not a valid glob
// UNKNOWN: unknown.yaml:3:3: error: rule #1 sets memory to unknown memory 'l3'; platform 'apollo510_evb' has: itcm, dtcm, sram, mram, psram
// ALIAS: alias.yaml:2:3: error: rules file '{{.*}}alias.yaml': aliases ('*weights') are not supported; write the value out
// TWICE: twice.yaml:3:3: error: rules file '{{.*}}twice.yaml': field 'type' is given twice
// DOCUMENTS: documents.yaml:3:1: error: rules file '{{.*}}documents.yaml': holds several YAML documents; put every rule in one list
// BOOL: bool.yaml:1:3: error: rules file '{{.*}}bool.yaml': entry 0, field 'type': expected "constant", "persistent", "scratch" or "*"
// UTF8: utf8.yaml:2:7: error: rules file '{{.*}}utf8.yaml': holds text that is not valid UTF-8
// DEEP: deep.yaml:2:{{[0-9]+}}: error: rules file '{{.*}}deep.yaml': lists and mappings nest more than 64 levels deep; rules need at most four: a list of mappings whose 'attributes' is a mapping

//--- model.mlir
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
//--- syntax.yaml
- type: constant
  id: [a, b
- type: scratch
//--- notlist.yaml
type: constant
//--- entry.yaml
- type: constant
  attributes: {}
- 3
//--- field.yaml
- type: constant
  kind: constant
//--- type.yaml
# The second rule is wrong.
- type: constant
- id: x
  type: weights
//--- id.yaml
- id: 7
//--- attrs.yaml
- type: constant
  attributes: [memory]
//--- attrfield.yaml
- type: constant
  attributes:
    placement: dtcm
//--- memory.yaml
- type: constant
  attributes:
    memory: ""
//--- residency.yaml
- type: constant
  attributes:
    memory: mram
    residency: resident
//--- conflict.yaml
- type: constant
- type: constant
  attributes: {constant_destination_memory: dtcm, residency: stream}
//--- glob.yaml
- id: "[x"
  attributes: {}
//--- unknown.yaml
- type: constant
  attributes: {memory: mram}
- attributes:
    memory: l3
//--- alias.yaml
- &weights {type: constant}
- *weights
//--- twice.yaml
- id: x
  type: constant
  type: scratch
//--- documents.yaml
- type: constant
---
- type: scratch
//--- bool.yaml
- type: true
