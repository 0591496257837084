//! Launch dimensions of a loop kernel: the unroll factor, threads per block and the block grid,
//! checked against the hardware limits of a [`Device`].
//!
//! The rules follow XLA's loop emitter for CUDA: each thread writes `unroll` consecutive output
//! elements (in the output's layout order); a block has `min(4 × warp, n)` threads for
//! `n = ceil(elements / unroll)`; the blocks are split across x and y so that x stays within its
//! limit. A grid that would exceed a limit is an error, never a silently clamped launch.

use crate::device::Device;

/// Threads per block and blocks per grid, x first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchDimensions {
    /// Blocks along x, y and z.
    pub blocks: [u64; 3],
    /// Threads per block along x, y and z.
    pub threads: [u64; 3],
}

/// A launch that cannot be made on the device.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// A block has more threads than the device allows.
    #[error("{threads} threads per block exceed the limit of {limit}")]
    ThreadsPerBlock {
        /// Threads per block, all three axes together.
        threads: u64,
        /// The device's [`Device::threads_per_block_limit`].
        limit: u64,
    },
    /// The grid has more blocks along one axis than the device allows.
    #[error("{count} blocks along {axis} exceed the limit of {limit}")]
    Blocks {
        /// The axis: `x`, `y` or `z`.
        axis: char,
        /// Blocks along that axis.
        count: u64,
        /// The device's limit along that axis ([`Device::block_dim_limit`]).
        limit: u64,
    },
    /// A block or thread count is zero.
    #[error("a launch dimension is zero")]
    Zero,
}

impl LaunchDimensions {
    /// Threads in one block.
    pub fn threads_per_block(&self) -> u64 {
        self.threads.iter().product()
    }

    /// Blocks in the grid.
    pub fn block_count(&self) -> u64 {
        self.blocks.iter().product()
    }

    /// Threads in the grid, `None` on overflow.
    pub fn total_threads(&self) -> Option<u64> {
        self.threads_per_block().checked_mul(self.block_count())
    }

    /// Checks every count against the device's limits.
    pub fn check(&self, device: &Device) -> Result<(), LaunchError> {
        if self.blocks.contains(&0) || self.threads.contains(&0) {
            return Err(LaunchError::Zero);
        }
        let threads = self
            .threads
            .iter()
            .try_fold(1u64, |a, &t| a.checked_mul(t))
            .unwrap_or(u64::MAX);
        if threads > device.threads_per_block_limit {
            return Err(LaunchError::ThreadsPerBlock {
                threads,
                limit: device.threads_per_block_limit,
            });
        }
        for (axis, (&count, &limit)) in ['x', 'y', 'z']
            .into_iter()
            .zip(self.blocks.iter().zip(&device.block_dim_limit))
        {
            if count > limit {
                return Err(LaunchError::Blocks { axis, count, limit });
            }
        }
        Ok(())
    }
}

/// What the unroll factor depends on, besides the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnrollInputs {
    /// Elements of the (first) output.
    pub elements: u64,
    /// Whether the fusion holds an op that keeps the loop emitter from unrolling (reduce-window,
    /// sort, dot, a concatenate of more than 10 operands, a multi-output reduce).
    pub blocks_unrolling: bool,
    /// Bits of the narrowest output element type, when known.
    pub smallest_output_bits: Option<u64>,
}

/// The number of consecutive output elements each thread writes. A large output (at least one
/// full wave of resident threads) is unrolled by the largest power of two up to
/// `device.max_unroll` that divides its element count; sub-byte outputs are then unrolled far
/// enough that every thread writes whole bytes.
pub fn unroll_factor(inputs: &UnrollInputs, device: &Device) -> u64 {
    let wave = device
        .threads_per_core_limit
        .saturating_mul(device.core_count);
    let mut unroll = 1u64;
    if !inputs.blocks_unrolling && inputs.elements >= wave {
        let mut candidate = device.max_unroll.max(1).next_power_of_two();
        if candidate > device.max_unroll.max(1) {
            candidate /= 2;
        }
        while candidate > 1 && !inputs.elements.is_multiple_of(candidate) {
            candidate /= 2;
        }
        unroll = candidate;
    }
    if let Some(bits) = inputs.smallest_output_bits.filter(|&b| b > 0 && b < 8) {
        unroll = unroll.max(8u64.div_ceil(bits));
    }
    unroll
}

/// The launch of a loop kernel writing `elements` output elements, `unroll` per thread, checked
/// against the device.
pub fn launch_dimensions(
    elements: u64,
    unroll: u64,
    device: &Device,
) -> Result<LaunchDimensions, LaunchError> {
    let unroll = unroll.max(1);
    if elements <= 1 {
        return Ok(LaunchDimensions {
            blocks: [1, 1, 1],
            threads: [1, 1, 1],
        });
    }
    let n = elements.div_ceil(unroll);
    let per_block = device.warp_size.saturating_mul(4).min(n);
    if per_block == 0 {
        return Err(LaunchError::Zero);
    }
    let total_blocks = n.div_ceil(per_block);
    let x_limit = device.block_dim_limit[0].max(1);
    let blocks_y = total_blocks.div_ceil(x_limit);
    let blocks_x = total_blocks.div_ceil(blocks_y);
    let launch = LaunchDimensions {
        blocks: [blocks_x, blocks_y, 1],
        threads: [per_block, 1, 1],
    };
    launch.check(device)?;
    Ok(launch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_example_unrolls_by_four_on_24576_blocks() {
        let d = Device::h100();
        let elements = 6 * 512 * 4096;
        let inputs = UnrollInputs {
            elements,
            blocks_unrolling: false,
            smallest_output_bits: Some(16),
        };
        let unroll = unroll_factor(&inputs, &d);
        assert_eq!(unroll, 4);
        let l = launch_dimensions(elements, unroll, &d).unwrap();
        assert_eq!(l.threads, [128, 1, 1]);
        assert_eq!(l.blocks, [24576, 1, 1]);
    }

    #[test]
    fn small_outputs_are_not_unrolled_but_sub_byte_ones_write_whole_bytes() {
        let d = Device::h100();
        let small = UnrollInputs {
            elements: 20,
            blocks_unrolling: false,
            smallest_output_bits: Some(32),
        };
        assert_eq!(unroll_factor(&small, &d), 1);
        let nibbles = UnrollInputs {
            smallest_output_bits: Some(4),
            ..small
        };
        assert_eq!(unroll_factor(&nibbles, &d), 2);
        let blocked = UnrollInputs {
            elements: 1 << 24,
            blocks_unrolling: true,
            smallest_output_bits: Some(32),
        };
        assert_eq!(unroll_factor(&blocked, &d), 1);
        let odd = UnrollInputs {
            elements: (1 << 20) * 3 + 2,
            blocks_unrolling: false,
            smallest_output_bits: Some(32),
        };
        assert_eq!(unroll_factor(&odd, &d), 2);
        assert_eq!(
            launch_dimensions(20, 1, &d).unwrap(),
            LaunchDimensions {
                blocks: [1, 1, 1],
                threads: [20, 1, 1]
            }
        );
    }

    #[test]
    fn blocks_split_into_y_when_x_is_full_and_fail_beyond_y() {
        let mut d = Device::h100();
        d.block_dim_limit = [1000, 65535, 65535];
        let l = launch_dimensions(128 * 2500, 1, &d).unwrap();
        assert_eq!(l.blocks, [834, 3, 1]);
        assert!(l.block_count() >= 2500);
        let err = launch_dimensions(128 * 1000 * 65536, 1, &d).unwrap_err();
        assert_eq!(
            err,
            LaunchError::Blocks {
                axis: 'y',
                count: 65536,
                limit: 65535
            }
        );
        let huge = launch_dimensions(u64::MAX, 1, &Device::h100()).unwrap_err();
        assert!(matches!(huge, LaunchError::Blocks { axis: 'y', .. }));
    }

    #[test]
    fn check_refuses_oversized_blocks() {
        let l = LaunchDimensions {
            blocks: [1, 1, 1],
            threads: [1024, 2, 1],
        };
        assert!(matches!(
            l.check(&Device::h100()),
            Err(LaunchError::ThreadsPerBlock { threads: 2048, .. })
        ));
    }
}
