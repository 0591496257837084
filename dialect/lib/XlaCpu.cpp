//===- XlaCpu.cpp - XLA's `xla_cpu` dialect -------------------------------===//
//
// The call frame of XLA's CPU kernels, in XLA's textual form.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaEmitters.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xla_cpu;

#include "XlaIndexing/XlaCpuDialect.cpp.inc"

void XlaCpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "XlaIndexing/XlaCpuOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "XlaIndexing/XlaCpuTypes.cpp.inc"
      >();
}

LogicalResult LoadOp::verify() {
  int64_t index = getIndexAttr().getInt();
  if (index < 0)
    return emitOpError("buffer index must be non-negative, got ") << index;
  return success();
}

#define GET_TYPEDEF_CLASSES
#include "XlaIndexing/XlaCpuTypes.cpp.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XlaCpuOps.cpp.inc"
