/*===- XlaIndexingCAPI.h - C API of the xla_indexing dialect ------*- C -*-===*\
|*                                                                            *|
|* Used from Rust (crates/mlir) with mlir-sys types.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef XLA_INDEXING_CAPI_H
#define XLA_INDEXING_CAPI_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XlaIndexing, xla_indexing);

/* Returns the #xla_indexing.map attribute for the map `text` (any accepted
 * form; stored canonical), or a null attribute after emitting an error
 * diagnostic at an unknown location in `context`. */
MLIR_CAPI_EXPORTED MlirAttribute mlirXlaIndexingMapAttrGet(MlirContext context, MlirStringRef text);

/* Returns whether `attr` is an #xla_indexing.map. */
MLIR_CAPI_EXPORTED bool mlirAttributeIsAXlaIndexingMap(MlirAttribute attr);

/* Returns the canonical text of an #xla_indexing.map; owned by the context. */
MLIR_CAPI_EXPORTED MlirStringRef mlirXlaIndexingMapAttrGetText(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif /* XLA_INDEXING_CAPI_H */
