//===- XlaIndexingCAPI.cpp - C API of the xla_indexing dialect ------------===//

#include "XlaIndexing/XlaIndexingCAPI.h"
#include "XlaIndexing/XlaEmitters.h"
#include "XlaIndexing/XlaIndexing.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XlaIndexing, xla_indexing, xla_indexing::XlaIndexingDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Xla, xla, xla_emitters::XlaDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XTile, xtile, xtile::XTileDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XlaCpu, xla_cpu, xla_cpu::XlaCpuDialect)

MlirAttribute mlirXlaIndexingMapAttrGet(MlirContext context, MlirStringRef text) {
  MLIRContext *ctx = unwrap(context);
  return wrap(xla_indexing::IndexingMapAttr::parseText(
      ctx, unwrap(text), [ctx] { return emitError(UnknownLoc::get(ctx)); }));
}

bool mlirAttributeIsAXlaIndexingMap(MlirAttribute attr) {
  return llvm::isa<xla_indexing::IndexingMapAttr>(unwrap(attr));
}

MlirAttribute mlirXlaEmittersMapAttrGet(MlirContext context, MlirStringRef text) {
  MLIRContext *ctx = unwrap(context);
  return wrap(xla_emitters::IndexingMapAttr::parseText(
      ctx, unwrap(text), [ctx] { return emitError(UnknownLoc::get(ctx)); }));
}

MlirLogicalResult mlirXlaEmittersInlinePureCalls(MlirOperation op) {
  return wrap(xla_emitters::inlinePureCalls(unwrap(op)));
}

bool mlirAttributeIsAXlaEmittersIndexingMap(MlirAttribute attr) {
  return llvm::isa<xla_emitters::IndexingMapAttr>(unwrap(attr));
}

MlirStringRef mlirXlaIndexingMapAttrGetText(MlirAttribute attr) {
  Attribute attribute = unwrap(attr);
  if (auto xla = llvm::dyn_cast<xla_emitters::IndexingMapAttr>(attribute))
    return wrap(xla.getText());
  return wrap(llvm::cast<xla_indexing::IndexingMapAttr>(attribute).getText());
}

MlirAttribute mlirXlaIndexingLaunchAttrGet(MlirContext context, const int64_t *block,
                                           const int64_t *grid, MlirStringRef map) {
  MLIRContext *ctx = unwrap(context);
  return wrap(xla_indexing::LaunchAttr::parseText(ctx, ArrayRef<int64_t>(block, 3),
                                                  ArrayRef<int64_t>(grid, 3), unwrap(map),
                                                  [ctx] { return emitError(UnknownLoc::get(ctx)); }));
}

bool mlirAttributeIsAXlaIndexingLaunch(MlirAttribute attr) {
  return llvm::isa<xla_indexing::LaunchAttr>(unwrap(attr));
}

int64_t mlirXlaIndexingLaunchAttrGetBlock(MlirAttribute attr, intptr_t axis) {
  return llvm::cast<xla_indexing::LaunchAttr>(unwrap(attr)).getBlock()[axis];
}

int64_t mlirXlaIndexingLaunchAttrGetGrid(MlirAttribute attr, intptr_t axis) {
  return llvm::cast<xla_indexing::LaunchAttr>(unwrap(attr)).getGrid()[axis];
}

MlirStringRef mlirXlaIndexingLaunchAttrGetMap(MlirAttribute attr) {
  return wrap(llvm::cast<xla_indexing::LaunchAttr>(unwrap(attr)).getMap());
}

void mlirXlaIndexingEmitRemark(MlirLocation location, MlirStringRef message) {
  emitRemark(unwrap(location)) << unwrap(message);
}

void mlirXlaIndexingEmitWarning(MlirLocation location, MlirStringRef message) {
  emitWarning(unwrap(location)) << unwrap(message);
}
