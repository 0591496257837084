//===- XlaIndexing.h - the xla_indexing dialect -----------------*- C++ -*-===//
//
// Declarations generated from XlaIndexing.td: the dialect, the
// #xla_indexing.map and #xla_indexing.launch attributes and the ops
// apply_indexing, loop, fusion and yield.
//
//===----------------------------------------------------------------------===//

#ifndef XLA_INDEXING_H
#define XLA_INDEXING_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "XlaIndexing/XlaIndexingDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XlaIndexingAttrs.h.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XlaIndexingOps.h.inc"

#endif // XLA_INDEXING_H
