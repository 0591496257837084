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
include "mlir/Interfaces/ControlFlowInterfaces.td"
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

def XlaIndexing_LaunchAttr : AttrDef<XlaIndexing_Dialect, "Launch"> {
  let mnemonic = "launch";
  let summary = "a kernel's launch grid and its thread-id indexing map";
  let description = [{
    How a GPU kernel is launched: `block` is the number of threads per block
    along x, y and z, `grid` the number of blocks along x, y and z (three
    positive integers each), and `map` the kernel's thread-id indexing map in
    the project's text form, from the six dimensions `(th_x, th_y, th_z, bl_x,
    bl_y, bl_z)` and the per-thread loop's range variables (the chunk and the
    unrolled element for a loop kernel) to the output element a thread
    writes. The map is parsed and canonicalized by the Rust parser of
    xla-indexing-core, like `#xla_indexing.map`, and must have exactly six
    dimensions. Hardware limits and the agreement of the map's dimension
    bounds with `block` and `grid` are checked by `xla-indexing-launch-grid`.

    Example:

    ```mlir
    #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1],
        map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk, unroll] -> "
              "(bl_x, th_x), domain: th_x in [0, 127], th_y in [0, 0], "
              "th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], "
              "chunk in [0, 0], unroll in [0, 0]">
    ```

    Adjacent string literals are concatenated, so long maps may be split.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "threads per block along x, y, z">:$block,
    ArrayRefParameter<"int64_t", "blocks along x, y, z">:$grid,
    StringRefParameter<"canonical thread-id map text">:$map);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Parses map `text` with the Rust parser and returns the attribute
    /// holding its canonical form, or a null attribute after reporting an
    /// invalid map, block or grid through `emitError`.
    static LaunchAttr parseText(
        ::mlir::MLIRContext *context, ::llvm::ArrayRef<int64_t> block,
        ::llvm::ArrayRef<int64_t> grid, ::llvm::StringRef text,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);
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

def XlaIndexing_LoopOp : XlaIndexing_Op<"loop", [
    AttrSizedOperandSegments, RecursiveMemoryEffects, SingleBlock]> {
  let summary = "runs its body for every point of an indexing map's domain";
  let description = [{
    Iterates the range variables of `indexing_map` over their bounds, in
    order (the first outermost), for the given values of the map's dimension
    variables (the `dims` operands), and runs the body for every point that
    satisfies the map's constraints. The body's arguments are the range
    variables, then the map's results at that point, then the loop-carried
    values, which start as `inits`; the body yields their next values, and the
    op returns their last ones. Maps with runtime variables are not allowed.

    Example: sum the 4 elements of each row of a 16x4 tensor that `%i`
    selects, skipping odd columns.

    ```mlir
    %sum = xla_indexing.loop (%i)[%j] -> (%r0, %r1)
        in #xla_indexing.map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 15], "
                             "s0 in [0, 3], s0 mod 2 in [0, 0]">
        iter_args(%acc = %zero) -> (f32) {
      %x = tensor.extract %t[%r0, %r1] : tensor<16x4xf32>
      %next = arith.addf %acc, %x : f32
      xla_indexing.yield %next : f32
    }
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$dims,
    Variadic<AnyType>:$inits,
    XlaIndexing_IndexingMapAttr:$indexing_map);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def XlaIndexing_FusionOp : XlaIndexing_Op<"fusion", [
    IsolatedFromAbove, SingleBlock]> {
  let summary = "a fused computation: a region of tensor ops";
  let description = [{
    A fused computation, as XLA's `fusion` instruction calls one: the body's
    arguments are the fusion's parameters (one per input, of the same type),
    the body holds tensor ops (StableHLO-like ops in generic form, which
    `xla-indexing import` writes from HLO text), and `xla_indexing.yield`
    gives the results. `name` is the fused computation's name and `kind` the
    fusion kind, as HLO writes them. The body does not see values from
    outside (the op is isolated from above).

    Example:

    ```mlir
    %r = xla_indexing.fusion (%a) {name = "fused_computation", kind = "kLoop"}
        : (tensor<10x20xf32>) -> tensor<20x10xf32> {
    ^bb0(%p0: tensor<10x20xf32>):
      %t = "stablehlo.transpose"(%p0) <{permutation = array<i64: 1, 0>}>
          : (tensor<10x20xf32>) -> tensor<20x10xf32>
      xla_indexing.yield %t : tensor<20x10xf32>
    }
    ```
  }];
  let arguments = (ins
    Variadic<AnyType>:$inputs,
    OptionalAttr<StrAttr>:$name,
    OptionalAttr<StrAttr>:$kind);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasRegionVerifier = 1;
}

def XlaIndexing_YieldOp : XlaIndexing_Op<"yield", [
    Pure, ReturnLike, Terminator, ParentOneOf<["LoopOp", "FusionOp"]>]> {
  let summary = "gives the values of an xla_indexing.loop or fusion body";
  let description = [{
    Ends the body of `xla_indexing.loop` (the next values of the loop-carried
    values) or `xla_indexing.fusion` (the fusion's results). The values must
    match the parent's result types.

    Example:

    ```mlir
    xla_indexing.yield %next : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = [{ ($values^ `:` type($values))? attr-dict }];
  let hasVerifier = 1;
}

#endif // XLA_INDEXING_TD
