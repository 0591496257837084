//===- XlaEmitters.h - XLA's `xla` and `xtile` dialects ---------*- C++ -*-===//
//
// Declarations generated from XlaEmitters.td (the `xla` dialect: apply_indexing,
// loop, yield, pure_call, workgroup_id and its attributes) and XTile.td (the
// `xtile` dialect: entry_func, return, extract, insert and #xtile.layout) and
// XlaCpu.td (the `xla_cpu` dialect: the call frame of CPU kernels).
//
//===----------------------------------------------------------------------===//

#ifndef XLA_EMITTERS_H
#define XLA_EMITTERS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "XlaIndexing/XlaEmittersDialect.h.inc"
#include "XlaIndexing/XlaEmittersEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XlaEmittersAttrs.h.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XlaEmittersOps.h.inc"

namespace xla_emitters {

/// Parses `x`, `y` or `z`: a workgroup dimension as XLA prints it (the
/// `custom<Dimension>` of xla.workgroup_id and xla_cpu.extract_workgroup_id).
::mlir::ParseResult parseDimension(::mlir::OpAsmParser &parser, DimensionAttr &dimension);

/// Prints a workgroup dimension as `parseDimension` reads it.
void printDimension(::mlir::OpAsmPrinter &printer, ::mlir::Operation *op,
                    DimensionAttr dimension);

/// Inlines every xla.pure_call nested in `root` (and those the inlined bodies
/// bring), then erases the private functions left without uses. Reports a
/// callee it cannot inline as an error at the call and fails.
::mlir::LogicalResult inlinePureCalls(::mlir::Operation *root);

} // namespace xla_emitters

#include "XlaIndexing/XTileDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XTileAttrs.h.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XTileOps.h.inc"

#include "XlaIndexing/XlaCpuDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "XlaIndexing/XlaCpuTypes.h.inc"

namespace xla_cpu {
using ::xla_emitters::parseDimension;
using ::xla_emitters::printDimension;
} // namespace xla_cpu

#define GET_OP_CLASSES
#include "XlaIndexing/XlaCpuOps.h.inc"

#endif // XLA_EMITTERS_H
