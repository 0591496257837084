//! XLA's choice of how a reduction is spread over threads: the family (row, multi-row, column,
//! small column), threads per block, vector width and shared tile, from the reduction's three
//! contiguous components and the bit widths of the fusion's inputs and outputs.
//!
//! The rules are XLA's (its reduction emitters and their `GetVectorSizeForMlir`), so that
//! `launch`, the kernel and XLA's own launch agree:
//!
//! * a **row** of `n` adjacent reduced elements: when `n` is a power of two that a warp covers
//!   with vectors of the width picked below, a *multi-row* reduction (`n / vector` threads per
//!   row, several rows per block, shuffles only); else `min(1024, roundup(ceil(n / 16), 32))`
//!   threads per row, and rows side by side up to 256 threads when the row's threads leave room;
//! * a **column** of kept elements: when the minor kept size divides a warp, a *small column*
//!   reduction (128 threads at most, one loop over the reduced and kept elements together, a
//!   `rows x kept` shared tile); else a 32 x 32 tile of threads, each reading `vector` adjacent
//!   columns.

use crate::device::Device;

/// Threads of a warp (the tilings and the shuffle trees assume it).
pub const WARP: u64 = 32;

/// Threads of a block that XLA aims at when it puts several rows in a block.
const BLOCK_TARGET: i64 = 256;
/// Most threads that reduce one row (XLA's `MinThreadsXRowReduction`).
const ROW_THREADS_LIMIT: i64 = 1024;
/// Reduced elements a row's thread reads before XLA adds threads to the row.
const ROW_ELEMENTS_PER_THREAD: i64 = 16;
/// Threads of a small column reduction's block before it is narrowed to fit 32 shared rows.
const SMALL_COLUMN_THREADS: i64 = 128;

/// The bit widths that XLA's vector choice reads off a fusion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoBits {
    /// The narrowest element of the fusion's parameters (`None` without parameters).
    pub smallest_input: Option<u64>,
    /// The narrowest element of the fusion's outputs.
    pub smallest_output: u64,
    /// Whether a hero reads a complex value (complex accesses are never vectorized).
    pub complex: bool,
}

/// A reduction's components, in the input's layout order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Components {
    /// `rows` rows, each `segments` runs of `segment` adjacent reduced elements.
    Row {
        /// Rows (output elements).
        rows: i64,
        /// Runs of adjacent elements in a row.
        segments: i64,
        /// Elements of a run.
        segment: i64,
    },
    /// `batch x reduced x kept`, the kept elements adjacent.
    Column {
        /// Elements of the kept dimensions before the reduced ones.
        batch: i64,
        /// Elements reduced into each output element.
        reduced: i64,
        /// Elements of the kept dimensions after the reduced ones.
        kept: i64,
    },
}

/// How a reduction is spread over threads (XLA's four reduction emitters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReductionKind {
    /// `rows` rows of `row_length` elements; `group` threads reduce one row, `rows_per_block`
    /// rows share a block.
    Row {
        /// Rows (output elements).
        rows: i64,
        /// Elements of a row.
        row_length: i64,
        /// Threads that reduce one row: whole warps (XLA's row reduction) or a power of two
        /// within a warp (XLA's multi-row reduction).
        group: u64,
        /// Rows of a block.
        rows_per_block: u64,
        /// Adjacent elements a thread reads at each step (`unroll_id`), one vector access
        /// where the maps prove it; it divides the row's runs of adjacent elements.
        vector: u64,
    },
    /// `batch x reduced x kept`: a block of 32 x 32 threads owns `32 x vector` adjacent kept
    /// elements; lane `l` of warp `w` reads rows `w, w + 32, ...` of columns `l * vector + s`.
    Column {
        /// Elements of the kept dimensions before the reduced ones.
        batch: i64,
        /// Elements reduced into each output element.
        reduced: i64,
        /// Elements of the kept dimensions after the reduced ones (adjacent in memory).
        kept: i64,
        /// Adjacent columns a thread reads (`unroll_id`), each its own partial result.
        vector: u64,
    },
    /// `batch x reduced x kept` with `kept` dividing a warp: one block per batch element, whose
    /// threads walk the `reduced x kept` elements together, `vector` adjacent ones per step;
    /// partial results meet in a `shared_rows x kept` tile, `shared_rows` lanes per column.
    SmallColumn {
        /// Elements of the kept dimensions before the reduced ones (one block each).
        batch: i64,
        /// Elements reduced into each output element.
        reduced: i64,
        /// Elements of the kept dimensions after the reduced ones (dividing a warp).
        kept: i64,
        /// Adjacent elements a thread reads at each step, each its own partial result.
        vector: u64,
        /// Threads of a block.
        threads: u64,
        /// Partial results per column in the shared tile (lanes that combine them).
        shared_rows: u64,
    },
}

impl ReductionKind {
    /// XLA's name of the family: `row reduction`, `multi-row reduction`, ...
    pub fn name(&self) -> &'static str {
        match self {
            ReductionKind::Row { group, .. } if *group < WARP => "multi-row reduction",
            ReductionKind::Row { .. } => "row reduction",
            ReductionKind::Column { .. } => "column reduction",
            ReductionKind::SmallColumn { .. } => "small column reduction",
        }
    }

    /// Elements each thread reads at a step: the range of `unroll_id`.
    pub fn vector(&self) -> u64 {
        match *self {
            ReductionKind::Row { vector, .. }
            | ReductionKind::Column { vector, .. }
            | ReductionKind::SmallColumn { vector, .. } => vector,
        }
    }
}

/// XLA's tiling of `components` on `device`.
pub fn tiling(components: Components, io: &IoBits, device: &Device) -> ReductionKind {
    match components {
        Components::Row {
            rows,
            segments,
            segment,
        } => multi_row(rows, segment, io, device)
            .unwrap_or_else(|| row(rows, segment, io))
            .with_length(segments.saturating_mul(segment)),
        Components::Column {
            batch,
            reduced,
            kept,
        } if WARP as i64 % kept == 0 => small_column(batch, reduced, kept, io),
        Components::Column {
            batch,
            reduced,
            kept,
        } => ReductionKind::Column {
            batch,
            reduced,
            kept,
            vector: vector_size(kept, WARP as i64, io),
        },
    }
}

impl ReductionKind {
    fn with_length(mut self, length: i64) -> ReductionKind {
        if let ReductionKind::Row { row_length, .. } = &mut self {
            *row_length = length;
        }
        self
    }
}

/// XLA's vector width for `threads` threads that read `minor` adjacent elements: none for odd
/// sizes, complex values, 64-bit inputs or when some thread would get no vector; 2 for 32-bit
/// inputs or when 4 would leave threads idle; else 4 where it divides `minor`.
fn vector_size(minor: i64, threads: i64, io: &IoBits) -> u64 {
    let bits = io.smallest_input.unwrap_or(u64::MAX);
    if minor % 2 != 0 || threads.saturating_mul(2) > minor || io.complex || bits >= 64 {
        1
    } else if bits >= 32 || threads.saturating_mul(4) > minor {
        2
    } else if minor % 4 == 0 {
        4
    } else {
        2
    }
}

/// Rows of a block with `group` threads per row: all rows when they fit in the 256 threads XLA
/// aims at, else as many as fit.
fn rows_per_block(rows: i64, group: i64) -> i64 {
    if rows.saturating_mul(group) <= BLOCK_TARGET {
        rows.max(1)
    } else {
        (BLOCK_TARGET / group).max(1)
    }
}

/// XLA's multi-row reduction of rows of `segment` adjacent elements, when `segment` is a power
/// of two that one warp covers: the widest vector the inputs and outputs allow (16 bytes at
/// most when some are 32-bit or wider), narrowed while the blocks would not fill every core.
fn multi_row(rows: i64, segment: i64, io: &IoBits, device: &Device) -> Option<ReductionKind> {
    if segment < 1 || segment & (segment - 1) != 0 {
        return None;
    }
    let input = io.smallest_input.unwrap_or(u64::MAX);
    let smallest = input.min(io.smallest_output).max(1);
    let largest = if io.smallest_input.is_some() {
        input.max(io.smallest_output)
    } else {
        io.smallest_output
    };
    let mut vector = segment.min(64 / smallest as i64).max(1);
    if largest >= 32 {
        vector = vector.min((128 / largest as i64).max(1));
    }
    let blocks = |vector: i64| {
        let group = segment / vector;
        let per_block = rows_per_block(rows, group);
        (rows.max(1) + per_block - 1) / per_block
    };
    while vector > 1 && blocks(vector) < device.core_count as i64 {
        vector /= 2;
    }
    if segment > WARP as i64 * vector {
        return None;
    }
    let group = segment / vector;
    Some(ReductionKind::Row {
        rows,
        row_length: segment,
        group: group as u64,
        rows_per_block: rows_per_block(rows, group) as u64,
        vector: vector as u64,
    })
}

/// XLA's row reduction: whole warps per row, about 16 elements per thread, up to 1024 threads;
/// several rows per block when a row's threads take at most half of 256.
fn row(rows: i64, segment: i64, io: &IoBits) -> ReductionKind {
    let per_thread = (segment.max(1) + ROW_ELEMENTS_PER_THREAD - 1) / ROW_ELEMENTS_PER_THREAD;
    let warp = WARP as i64;
    let group = ((per_thread + warp - 1) / warp * warp).min(ROW_THREADS_LIMIT);
    let per_block = if group * 2 <= BLOCK_TARGET {
        rows_per_block(rows, group)
    } else {
        1
    };
    ReductionKind::Row {
        rows,
        row_length: segment,
        group: group as u64,
        rows_per_block: per_block as u64,
        vector: vector_size(segment, group, io),
    }
}

/// XLA's small column reduction: 128 threads walking `reduced x kept` with the vector width of
/// that many elements, vector and then threads halved until at most 32 partial results per
/// column meet in the shared tile.
fn small_column(batch: i64, reduced: i64, kept: i64, io: &IoBits) -> ReductionKind {
    let mut vector = vector_size(reduced.saturating_mul(kept), WARP as i64, io) as i64;
    let mut threads = SMALL_COLUMN_THREADS;
    let mut shared_rows = vector * threads / kept;
    let warp = WARP as i64;
    while shared_rows > warp && vector > 1 {
        vector /= 2;
        shared_rows /= 2;
    }
    if shared_rows > warp {
        threads /= shared_rows / warp;
        shared_rows = warp;
    }
    ReductionKind::SmallColumn {
        batch,
        reduced,
        kept,
        vector: vector as u64,
        threads: threads as u64,
        shared_rows: shared_rows as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_io() -> IoBits {
        IoBits {
            smallest_input: Some(32),
            smallest_output: 32,
            complex: false,
        }
    }

    #[test]
    fn xla_choices_for_its_own_test_shapes() {
        let h100 = Device::h100();
        // f32[100,256,2] reduced over dimension 1: 64 threads, no vector, 32 shared rows.
        assert_eq!(
            tiling(
                Components::Column {
                    batch: 100,
                    reduced: 256,
                    kept: 2
                },
                &f32_io(),
                &h100
            ),
            ReductionKind::SmallColumn {
                batch: 100,
                reduced: 256,
                kept: 2,
                vector: 1,
                threads: 64,
                shared_rows: 32
            }
        );
        // f32[2048,64] reduced over dimension 0: two columns per thread.
        assert_eq!(
            tiling(
                Components::Column {
                    batch: 1,
                    reduced: 2048,
                    kept: 64
                },
                &f32_io(),
                &h100
            )
            .vector(),
            2
        );
        // f32[1024,4] reduced over dimension 1: four threads per row, no vector (8 blocks
        // of 2-wide vectors would leave cores idle).
        assert_eq!(
            tiling(
                Components::Row {
                    rows: 1024,
                    segments: 1,
                    segment: 4
                },
                &f32_io(),
                &h100
            ),
            ReductionKind::Row {
                rows: 1024,
                row_length: 4,
                group: 4,
                rows_per_block: 64,
                vector: 1
            }
        );
        // A long f32 row: 256 threads, 2-wide vectors.
        assert_eq!(
            tiling(
                Components::Row {
                    rows: 3,
                    segments: 1,
                    segment: 4096
                },
                &f32_io(),
                &h100
            ),
            ReductionKind::Row {
                rows: 3,
                row_length: 4096,
                group: 256,
                rows_per_block: 1,
                vector: 2
            }
        );
    }
}
