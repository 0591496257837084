//===- XlaIndexingCAPI.cpp - C API of the xla_indexing dialect ------------===//

#include "XlaIndexing/XlaIndexingCAPI.h"
#include "XlaIndexing/XlaIndexing.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XlaIndexing, xla_indexing, xla_indexing::XlaIndexingDialect)

MlirAttribute mlirXlaIndexingMapAttrGet(MlirContext context, MlirStringRef text) {
  MLIRContext *ctx = unwrap(context);
  return wrap(xla_indexing::IndexingMapAttr::parseText(
      ctx, unwrap(text), [ctx] { return emitError(UnknownLoc::get(ctx)); }));
}

bool mlirAttributeIsAXlaIndexingMap(MlirAttribute attr) {
  return llvm::isa<xla_indexing::IndexingMapAttr>(unwrap(attr));
}

MlirStringRef mlirXlaIndexingMapAttrGetText(MlirAttribute attr) {
  return wrap(llvm::cast<xla_indexing::IndexingMapAttr>(unwrap(attr)).getText());
}

bool mlirOperationIsAXlaIndexingApplyIndexingOp(MlirOperation op) {
  return llvm::isa<xla_indexing::ApplyIndexingOp>(unwrap(op));
}

bool mlirOperationIsAXlaIndexingLoopOp(MlirOperation op) {
  return llvm::isa<xla_indexing::LoopOp>(unwrap(op));
}

bool mlirOperationIsAXlaIndexingFusionOp(MlirOperation op) {
  return llvm::isa<xla_indexing::FusionOp>(unwrap(op));
}

MlirAttribute mlirXlaIndexingOpGetIndexingMap(MlirOperation op) {
  Operation *operation = unwrap(op);
  if (auto apply = llvm::dyn_cast<xla_indexing::ApplyIndexingOp>(operation))
    return wrap(apply.getIndexingMap());
  if (auto loop = llvm::dyn_cast<xla_indexing::LoopOp>(operation))
    return wrap(loop.getIndexingMap());
  return MlirAttribute{nullptr};
}

void mlirXlaIndexingEmitRemark(MlirLocation location, MlirStringRef message) {
  emitRemark(unwrap(location)) << unwrap(message);
}
