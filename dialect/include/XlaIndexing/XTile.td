//===- XTile.td - XLA's `xtile` dialect, as its dumps print it -*- tablegen -*-===//
//
// The entry function, tile extract/insert and the memref layout of XLA's
// tiled emitter, with XLA's textual forms, so that its kernels parse, verify
// and print back unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_TD
#define XTILE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def XTile_Dialect : Dialect {
  let name = "xtile";
  let summary = "XLA's tiled emitter: entry functions and tiles of memrefs";
  let cppNamespace = "::xtile";
  let useDefaultAttributePrinterParser = 1;
}

def XTile_LayoutAttr : AttrDef<XTile_Dialect, "Layout",
    [DeclareAttrInterfaceMethods<MemRefLayoutAttrInterface, ["verifyLayout"]>]> {
  let mnemonic = "layout";
  let summary = "a memref layout given as XLA's minor-to-major dimension order";
  let description = [{
    `#xtile.layout<[1, 0]>`: the dimensions of the memref from the most minor
    to the most major, a permutation of `0 .. rank - 1`. Its affine map is
    the permutation that lists the dimensions from major to minor.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "minor-to-major order">:$minorToMajor);
  let assemblyFormat = "`<` `[` $minorToMajor `]` `>`";
  let genVerifyDecl = 1;
}

class XTile_Op<string mnemonic, list<Trait> traits = []> : Op<XTile_Dialect, mnemonic, traits>;

def XTile_EntryFuncOp : XTile_Op<"entry_func", [
    Symbol, IsolatedFromAbove, AutomaticAllocationScope, FunctionOpInterface]> {
  let summary = "the entry function of a tiled kernel";
  let description = [{
    Takes the kernel's buffers (memrefs), then `num_opaque_args` other
    arguments, then the tile id (an index), and returns nothing. Its one block
    ends with `xtile.return`.

    ```mlir
    xtile.entry_func @f(%arg0: memref<384xf32>, %arg1: index) attributes {num_opaque_args = 0 : i32} {
      xtile.return
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs,
    DefaultValuedAttr<I32Attr, "0">:$num_opaque_args);
  let results = (outs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The callable region: the body.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// The argument types of the function.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    /// The result types of the function (none).
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
  }];
}

def XTile_ReturnOp : XTile_Op<"return", [Pure, HasParent<"EntryFuncOp">, ReturnLike, Terminator]> {
  let summary = "ends an xtile.entry_func";
  let assemblyFormat = "attr-dict";
}

def XTile_ExtractTileOp : XTile_Op<"extract"> {
  let summary = "reads a tile of a memref as a tensor";
  let description = [{
    Reads the tile of shape `full_tile_shape` at `offsets` with `strides`
    from `source`. The result has the tile's shape, possibly with unit
    dimensions dropped.

    ```mlir
    %t = xtile.extract %arg0[%i, %c0] [1, 8] [1, 1] : memref<4x8xf32> -> tensor<1x8xf32>
    ```
  }];
  let arguments = (ins
    AnyMemRef:$source,
    Variadic<Index>:$offsets,
    DenseI64ArrayAttr:$full_tile_shape,
    DenseI64ArrayAttr:$strides);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `[` $offsets `]` $full_tile_shape $strides
    `:` type($source) `->` type($result) attr-dict
  }];
  let hasVerifier = 1;
}

def XTile_InsertTileOp : XTile_Op<"insert"> {
  let summary = "writes a tensor as a tile of a memref";
  let description = [{
    Writes `source` into the tile of `destination` of shape `full_tile_shape`
    at `offsets` with `strides` (the tensor may drop unit dimensions of the
    tile). With `accumulate`, the tile is added to what is there.

    ```mlir
    xtile.insert %t into %arg1[%i] [8] [1] : tensor<8xf32> -> memref<64xf32>
    ```
  }];
  let arguments = (ins
    AnyRankedTensor:$source,
    AnyMemRef:$destination,
    Variadic<Index>:$offsets,
    DenseI64ArrayAttr:$full_tile_shape,
    DenseI64ArrayAttr:$strides,
    UnitAttr:$accumulate);
  let assemblyFormat = [{
    $source `into` $destination `[` $offsets `]` $full_tile_shape $strides
    `:` type($source) `->` type($destination) attr-dict
  }];
  let hasVerifier = 1;
}

#endif // XTILE_TD
