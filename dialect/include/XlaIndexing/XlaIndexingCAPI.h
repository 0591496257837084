/*===- XlaIndexingCAPI.h - C API of the xla_indexing dialect ------*- C -*-===*\
|*                                                                            *|
|* Used from Rust (crates/mlir/src/ffi.rs) with mlir-sys types.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef XLA_INDEXING_CAPI_H
#define XLA_INDEXING_CAPI_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Rewrite.h"
#include "mlir-c/Support.h"

#include "XlaIndexing/XlaIndexingRust.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XlaIndexing, xla_indexing);

/* XLA's own dialects, in XLA's textual form (XlaEmitters.td, XTile.td,
 * XlaCpu.td). */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Xla, xla);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XTile, xtile);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XlaCpu, xla_cpu);

/* Returns the #xla_indexing.map attribute for the map `text` (any accepted
 * form; stored canonical), or a null attribute after emitting an error
 * diagnostic at an unknown location in `context`. */
MLIR_CAPI_EXPORTED MlirAttribute mlirXlaIndexingMapAttrGet(MlirContext context, MlirStringRef text);

/* Returns whether `attr` is an #xla_indexing.map. */
MLIR_CAPI_EXPORTED bool mlirAttributeIsAXlaIndexingMap(MlirAttribute attr);

/* Returns XLA's #xla.indexing_map attribute for the map `text` (any accepted
 * form; stored canonical in XLA's spelling), or a null attribute after
 * emitting an error diagnostic at an unknown location in `context`. */
MLIR_CAPI_EXPORTED MlirAttribute mlirXlaEmittersMapAttrGet(MlirContext context, MlirStringRef text);

/* Returns whether `attr` is XLA's #xla.indexing_map. */
MLIR_CAPI_EXPORTED bool mlirAttributeIsAXlaEmittersIndexingMap(MlirAttribute attr);

/* Returns the canonical text of an #xla_indexing.map (MLIR's spelling) or an
 * #xla.indexing_map (XLA's spelling); owned by the context. */
MLIR_CAPI_EXPORTED MlirStringRef mlirXlaIndexingMapAttrGetText(MlirAttribute attr);

/* Returns the #xla_indexing.launch attribute of `block` and `grid` (three
 * sizes each, x first) and the thread-id map `map` (any accepted form; stored
 * canonical), or a null attribute after emitting an error diagnostic at an
 * unknown location in `context`. */
MLIR_CAPI_EXPORTED MlirAttribute mlirXlaIndexingLaunchAttrGet(MlirContext context,
                                                              const int64_t *block,
                                                              const int64_t *grid,
                                                              MlirStringRef map);

/* Returns whether `attr` is an #xla_indexing.launch. */
MLIR_CAPI_EXPORTED bool mlirAttributeIsAXlaIndexingLaunch(MlirAttribute attr);

/* Returns the threads per block (`block`) or blocks (`grid`) of an
 * #xla_indexing.launch along `axis` (0 for x, 1 for y, 2 for z). */
MLIR_CAPI_EXPORTED int64_t mlirXlaIndexingLaunchAttrGetBlock(MlirAttribute attr, intptr_t axis);
MLIR_CAPI_EXPORTED int64_t mlirXlaIndexingLaunchAttrGetGrid(MlirAttribute attr, intptr_t axis);

/* Returns the canonical thread-id map text of an #xla_indexing.launch; owned
 * by the context. */
MLIR_CAPI_EXPORTED MlirStringRef mlirXlaIndexingLaunchAttrGetMap(MlirAttribute attr);

/* Inlines every xla.pure_call nested in `op` (also those the inlined bodies
 * bring), as XLA's pipeline does, then erases the private functions that no
 * longer have uses. A callee that is not a function with a one-block body,
 * or calls nested deeper than 64 levels, is an error at the call, and the
 * result a failure. */
MLIR_CAPI_EXPORTED MlirLogicalResult mlirXlaEmittersInlinePureCalls(MlirOperation op);

/* Emits a remark or a warning diagnostic (the C API only emits errors). */
MLIR_CAPI_EXPORTED void mlirXlaIndexingEmitRemark(MlirLocation location, MlirStringRef message);
MLIR_CAPI_EXPORTED void mlirXlaIndexingEmitWarning(MlirLocation location, MlirStringRef message);

/*===----------------------------------------------------------------------===*
 * Passes whose bodies are Rust callbacks
 *===----------------------------------------------------------------------===*/

/* One option of a pass: a bool (`isBool`), one of `numChoices` names (`choices`,
 * NUL-terminated; its value is the index of the name given), or a 64-bit integer. */
typedef struct {
  const char *name;        /* kebab case, NUL-terminated */
  const char *description; /* NUL-terminated */
  bool isBool;
  int64_t defaultValue;
  const char *const *choices;
  size_t numChoices;
} XlaIndexingPassOption;

/* A pass: its names, its options and its body. `run` receives the operation
 * the pass runs on and the option values in `options` order (bools as 0 or
 * 1); it reports errors as diagnostics and returns false to fail the pass.
 * A spec must outlive every pass made from it (Rust keeps them static). */
typedef struct {
  const char *argument;    /* the pipeline name, e.g. "xla-indexing-simplify" */
  const char *name;        /* the display name, e.g. "XlaIndexingSimplify" */
  const char *description;
  const XlaIndexingPassOption *options;
  size_t numOptions;
  bool (*run)(MlirOperation op, const int64_t *values, size_t numValues);
} XlaIndexingPassSpec;

/* Puts the pass into MLIR's global registry, so that pipelines name it. */
MLIR_CAPI_EXPORTED void mlirXlaIndexingRegisterPass(const XlaIndexingPassSpec *spec);

/* Makes a pass with the options `options` (as in a pipeline: "a=1 b=true").
 * On a bad option passes the message to `onError` and returns a null pass. */
MLIR_CAPI_EXPORTED MlirPass mlirXlaIndexingCreatePass(const XlaIndexingPassSpec *spec,
                                                      MlirStringRef options,
                                                      XlaIndexingStringCallback onError,
                                                      void *userData);


/*===----------------------------------------------------------------------===*
 * Rewriting from Rust (XlaIndexingRewrite.cpp)
 *===----------------------------------------------------------------------===*/

/* What the greedy driver changed; the object is an MlirValue's pointer, a
 * block or an operation. */
typedef enum {
  XlaIndexingValueErased,
  XlaIndexingValueModified, /* its op changed in place */
  XlaIndexingBlockErased,
  XlaIndexingOperationErased,
  XlaIndexingRegionsModified, /* an op with regions changed in place */
} XlaIndexingChange;

/* Receives one change as it happens (before an erased object goes). */
typedef void (*XlaIndexingChangeCallback)(XlaIndexingChange change, void *object, void *userData);

/* Runs MLIR's greedy pattern driver on the regions of `op` (ops top-down
 * when `topDown`, folding ops when `fold`, with MLIR's usual region
 * simplification when `simplifyRegions`, stopping after `maxRewrites`
 * rewrites unless it is negative) and passes every change it makes to
 * `onChange`. Returns success when the driver converged. */
MLIR_CAPI_EXPORTED MlirLogicalResult mlirXlaIndexingApplyPatternsGreedily(
    MlirOperation op, MlirFrozenRewritePatternSet patterns, bool topDown, bool fold,
    bool simplifyRegions, int64_t maxRewrites, XlaIndexingChangeCallback onChange,
    void *userData);

/* Returns whether `user` may use `value`: the value properly dominates it and
 * no op between them is isolated from above. */
MLIR_CAPI_EXPORTED bool mlirXlaIndexingValueIsUsableAt(MlirValue value, MlirOperation user);

/* Returns whether `op` (with everything nested in it) has no memory effects,
 * so that the greedy driver erases it once its results are unused. */
MLIR_CAPI_EXPORTED bool mlirXlaIndexingOperationIsMemoryEffectFree(MlirOperation op);

/* Returns whether `value` is an index that affine ops accept as a dimension
 * or a symbol operand. */
MLIR_CAPI_EXPORTED bool mlirXlaIndexingValueIsValidAffineOperand(MlirValue value);

/* Asks `op`'s InferIntRangeInterface for the signed range of result `result`,
 * given the signed range [operandLo[i], operandHi[i]] of each of its
 * `numOperands` operands (ignored for operands that are not integers or
 * index). Returns false when the op does not implement the interface, the
 * result is not an integer or index of at most 64 bits, or the op infers
 * nothing for it; else writes the range to `lo` and `hi`. */
MLIR_CAPI_EXPORTED bool mlirXlaIndexingInferResultRange(MlirOperation op, intptr_t result,
                                                       const int64_t *operandLo,
                                                       const int64_t *operandHi,
                                                       intptr_t numOperands, int64_t *lo,
                                                       int64_t *hi);

/* Called with a value and its signed range [lo, hi]. */
typedef void (*XlaIndexingRangeCallback)(MlirValue value, int64_t lo, int64_t hi,
                                         void *userData);

/* Runs MLIR's integer range analysis (the dataflow solver with dead code
 * analysis and constant propagation, as `int-range-optimizations` does) on
 * `op`. Every used result of an op nested in `op` that the analysis proves to
 * take one value is replaced by that constant (made by the op's dialect, else
 * by `arith`), and the op erased when it is then unused and has no memory
 * effects or regions. Then `onRange` gets the signed range of every integer or
 * index value of at most 64 bits nested in `op` that the analysis bounds (an
 * `i1`'s true is -1). Returns the number of results replaced, or -1 when the
 * solver fails or cannot run on `op` (nothing is changed then): LLVM 22's
 * crashes on a loop that gives no bounds, such as an `affine.for` whose bounds
 * are not constants. */
MLIR_CAPI_EXPORTED intptr_t mlirXlaIndexingSolveIntegerRanges(MlirOperation op,
                                                             XlaIndexingRangeCallback onRange,
                                                             void *userData);

/* Runs MLIR's common subexpression elimination (what the `cse` pass does) on
 * the regions of `op`. */
MLIR_CAPI_EXPORTED void mlirXlaIndexingEliminateCommonSubexpressions(MlirOperation op);

#ifdef __cplusplus
}
#endif

#endif /* XLA_INDEXING_CAPI_H */
