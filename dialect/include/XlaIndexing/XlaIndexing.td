//===- XlaIndexing.td - the xla_indexing dialect -----------*- tablegen -*-===//
//
// Indexing maps as MLIR attributes and the op that evaluates them. The map
// grammar lives in Rust (xla-indexing-core): the attribute's parse, print and
// verify hooks call it through the extern "C" functions declared in
// XlaIndexing/XlaIndexingRust.h, so MLIR and the command line accept and print
// exactly the same text.
//
//===----------------------------------------------------------------------===//

#ifndef XLA_INDEXING_TD
#define XLA_INDEXING_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def XlaIndexing_Dialect : Dialect {
  let name = "xla_indexing";
  let summary = "Symbolic indexing maps for tensor programs";
  let description = [{
    Indexing maps in the form of XLA's indexing analysis: quasi-affine
    expressions over dimension variables `d*`, range variables `s*` and
    runtime variables `rt*` (or their given names), each bounded by an
    interval, plus constraints on expressions.
  }];
  let cppNamespace = "::xla_indexing";
  let useDefaultAttributePrinterParser = 1;
}

def XlaIndexing_IndexingMapAttr : AttrDef<XlaIndexing_Dialect, "IndexingMap"> {
  let mnemonic = "map";
  let summary = "an indexing map, stored as its canonical text";
  let description = [{
    An indexing map in the project's text form. The text is parsed and
    printed by the Rust parser of xla-indexing-core; the attribute stores the
    canonical single-line text together with the variable and result counts
    that verifiers need.

    Example:

    ```mlir
    #xla_indexing.map<"(d0, d1)[s0]{rt0} -> (d0 floordiv 8 + s0, d1 + rt0), "
                      "domain: d0 in [0, 15], d1 in [0, 9], s0 in [0, 3], rt0 in [0, 5]">
    ```

    Adjacent string literals are concatenated, so long maps may be split.
  }];
  let parameters = (ins
    StringRefParameter<"canonical map text">:$text,
    "unsigned":$numDims,
    "unsigned":$numRangeVars,
    "unsigned":$numRuntimeVars,
    "unsigned":$numResults);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Parses `text` with the Rust parser and returns the attribute holding
    /// its canonical form, or a null attribute after reporting the error
    /// through `emitError`.
    static IndexingMapAttr parseText(
        ::mlir::MLIRContext *context, ::llvm::StringRef text,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);

    /// Number of operands an op applying this map takes: one per dimension,
    /// range and runtime variable, in that order.
    unsigned getNumInputs() const {
      return getNumDims() + getNumRangeVars() + getNumRuntimeVars();
    }
  }];
}

class XlaIndexing_Op<string mnemonic, list<Trait> traits = []> :
    Op<XlaIndexing_Dialect, mnemonic, traits>;

def XlaIndexing_ApplyIndexingOp : XlaIndexing_Op<"apply_indexing", [Pure]> {
  let summary = "evaluates an indexing map";
  let description = [{
    Applies `indexing_map` to its operands, which are the values of the map's
    dimension variables, then its range variables, then its runtime
    variables, and returns one index per map result.

    Example:

    ```mlir
    %r:2 = xla_indexing.apply_indexing
        #xla_indexing.map<"(d0)[s0] -> (d0 floordiv 8, d0 mod 8 + s0), "
                          "domain: d0 in [0, 63], s0 in [0, 3]">(%d, %s) : index, index
    ```
  }];
  let arguments = (ins Variadic<Index>:$operands, XlaIndexing_IndexingMapAttr:$indexing_map);
  let results = (outs Variadic<Index>:$results);
  let assemblyFormat = [{
    qualified($indexing_map) `(` $operands `)` attr-dict (`:` type($results)^)?
  }];
  let hasVerifier = 1;
}

#endif // XLA_INDEXING_TD
