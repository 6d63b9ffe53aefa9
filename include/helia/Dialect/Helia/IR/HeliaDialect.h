//===- HeliaDialect.h - helia dialect, enums and attributes -----*- C++ -*-===//

#ifndef HELIA_DIALECT_HELIA_IR_HELIADIALECT_H
#define HELIA_DIALECT_HELIA_IR_HELIADIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "helia/Dialect/Helia/IR/HeliaOpsDialect.h.inc"

#include "helia/Dialect/Helia/IR/HeliaEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "helia/Dialect/Helia/IR/HeliaAttrs.h.inc"

#endif // HELIA_DIALECT_HELIA_IR_HELIADIALECT_H
