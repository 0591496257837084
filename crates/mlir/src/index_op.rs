//! The ops of index arithmetic, decoded once from an op's name (and, for the `gpu` ids, its
//! dimension) into [`IndexOp`], so that what each op means is matched on a type: the ranges of
//! values, the simplifier's reading of ops as expressions and its constant folder, and the
//! coalescing analysis each match on an `IndexOp` rather than on op names. An op of another name
//! decodes to `None`.

use melior::ir::OperationRef;

use crate::indexing_ops::is_apply_indexing;
use crate::ir::{gpu_dimension, op_name};

/// An `arith` integer division or remainder, by how it rounds and how it reads its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Division {
    /// `arith.floordivsi`: the quotient rounded down.
    FloorSigned,
    /// `arith.ceildivsi`: the quotient rounded up.
    CeilSigned,
    /// `arith.divsi`: the quotient rounded toward zero.
    TruncSigned,
    /// `arith.remsi`: the remainder of [`Division::TruncSigned`], of the dividend's sign.
    RemSigned,
    /// `arith.divui`: the quotient of the operands read unsigned.
    Unsigned,
    /// `arith.ceildivui`: the unsigned quotient rounded up.
    CeilUnsigned,
    /// `arith.remui`: the remainder of the operands read unsigned.
    RemUnsigned,
}

/// An `arith` integer cast, by how it keeps the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cast {
    /// `arith.index_cast`, `arith.extsi`: the value read signed, kept.
    Signed,
    /// `arith.index_castui`, `arith.extui`: the value read unsigned, kept.
    Unsigned,
    /// `arith.trunci`: the low bits.
    Truncate,
}

/// What a `gpu` op of one dimension gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuQuery {
    /// `gpu.thread_id`.
    ThreadId,
    /// `gpu.block_id`.
    BlockId,
    /// `gpu.block_dim`.
    BlockDim,
    /// `gpu.grid_dim`.
    GridDim,
}

/// An op of index arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexOp {
    /// `arith.constant`.
    Constant,
    /// `arith.addi`.
    Add,
    /// `arith.subi`.
    Sub,
    /// `arith.muli`.
    Mul,
    /// A division or remainder.
    Div(Division),
    /// `arith.minsi`, `maxsi`, `minui`, `maxui`.
    MinMax {
        /// `max*` rather than `min*`.
        max: bool,
        /// The operands read signed (`*si`).
        signed: bool,
    },
    /// `arith.andi`.
    And,
    /// `arith.ori`.
    Or,
    /// `arith.xori`.
    Xor,
    /// `arith.cmpi`.
    Cmp,
    /// `arith.select`.
    Select,
    /// An integer cast.
    Cast(Cast),
    /// `affine.apply`.
    AffineApply,
    /// `affine.min` (`max: false`) or `affine.max`.
    AffineMinMax {
        /// `affine.max`.
        max: bool,
    },
    /// The `apply_indexing` op of `xla_indexing` or of XLA's `xla` dialect.
    ApplyIndexing,
    /// A `gpu` id or size in dimension `dim` (0 for x, 1 for y, 2 for z).
    Gpu {
        /// What it gives.
        query: GpuQuery,
        /// Its dimension.
        dim: usize,
    },
}

impl IndexOp {
    /// The index op `op` is, or `None` for any other op (and for a `gpu` op without a readable
    /// dimension).
    pub fn of(op: &OperationRef) -> Option<IndexOp> {
        let name = op_name(op);
        let query = match name.as_str() {
            "gpu.thread_id" => GpuQuery::ThreadId,
            "gpu.block_id" => GpuQuery::BlockId,
            "gpu.block_dim" => GpuQuery::BlockDim,
            "gpu.grid_dim" => GpuQuery::GridDim,
            name => return IndexOp::named(name),
        };
        let dim = gpu_dimension(op)?;
        Some(IndexOp::Gpu { query, dim })
    }

    /// The index op named `name`, other than the `gpu` ones (whose dimension is an attribute).
    pub fn named(name: &str) -> Option<IndexOp> {
        use Division::*;
        let op = match name {
            "arith.constant" => IndexOp::Constant,
            "arith.addi" => IndexOp::Add,
            "arith.subi" => IndexOp::Sub,
            "arith.muli" => IndexOp::Mul,
            "arith.floordivsi" => IndexOp::Div(FloorSigned),
            "arith.ceildivsi" => IndexOp::Div(CeilSigned),
            "arith.divsi" => IndexOp::Div(TruncSigned),
            "arith.remsi" => IndexOp::Div(RemSigned),
            "arith.divui" => IndexOp::Div(Unsigned),
            "arith.ceildivui" => IndexOp::Div(CeilUnsigned),
            "arith.remui" => IndexOp::Div(RemUnsigned),
            "arith.minsi" => IndexOp::MinMax {
                max: false,
                signed: true,
            },
            "arith.maxsi" => IndexOp::MinMax {
                max: true,
                signed: true,
            },
            "arith.minui" => IndexOp::MinMax {
                max: false,
                signed: false,
            },
            "arith.maxui" => IndexOp::MinMax {
                max: true,
                signed: false,
            },
            "arith.andi" => IndexOp::And,
            "arith.ori" => IndexOp::Or,
            "arith.xori" => IndexOp::Xor,
            "arith.cmpi" => IndexOp::Cmp,
            "arith.select" => IndexOp::Select,
            "arith.index_cast" | "arith.extsi" => IndexOp::Cast(Cast::Signed),
            "arith.index_castui" | "arith.extui" => IndexOp::Cast(Cast::Unsigned),
            "arith.trunci" => IndexOp::Cast(Cast::Truncate),
            "affine.apply" => IndexOp::AffineApply,
            "affine.min" => IndexOp::AffineMinMax { max: false },
            "affine.max" => IndexOp::AffineMinMax { max: true },
            name if is_apply_indexing(name) => IndexOp::ApplyIndexing,
            _ => return None,
        };
        Some(op)
    }

    /// Whether it is an `arith` op.
    pub fn is_arith(self) -> bool {
        !matches!(
            self,
            IndexOp::AffineApply
                | IndexOp::AffineMinMax { .. }
                | IndexOp::ApplyIndexing
                | IndexOp::Gpu { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name the decoder knows, with what it decodes to.
    #[test]
    fn names_decode_to_their_ops() {
        assert_eq!(IndexOp::named("arith.addi"), Some(IndexOp::Add));
        assert_eq!(
            IndexOp::named("arith.ceildivui"),
            Some(IndexOp::Div(Division::CeilUnsigned))
        );
        assert_eq!(
            IndexOp::named("arith.minui"),
            Some(IndexOp::MinMax {
                max: false,
                signed: false
            })
        );
        assert_eq!(
            IndexOp::named("arith.extui"),
            Some(IndexOp::Cast(Cast::Unsigned))
        );
        assert_eq!(
            IndexOp::named("xla.apply_indexing"),
            Some(IndexOp::ApplyIndexing)
        );
        assert_eq!(IndexOp::named("gpu.thread_id"), None);
        assert_eq!(IndexOp::named("arith.addf"), None);
        assert!(IndexOp::Add.is_arith() && !IndexOp::AffineApply.is_arith());
    }
}
