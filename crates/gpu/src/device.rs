//! The hardware facts the launch maths needs ([`Device`]), and the device of each chip of the
//! table of [`crate::chips`]: the facts every chip shares, and those of its row.

use crate::chips::{Chip, DEFAULT_CHIP, UnknownChip};

/// The hardware facts the launch maths needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// A name for reports (`sm_90`).
    pub name: String,
    /// Threads that run in lockstep (32 on NVIDIA GPUs).
    pub warp_size: u64,
    /// Threads per block, all three axes together.
    pub threads_per_block_limit: u64,
    /// Largest block count along x, y and z.
    pub block_dim_limit: [u64; 3],
    /// Streaming multiprocessors.
    pub core_count: u64,
    /// Resident threads per multiprocessor.
    pub threads_per_core_limit: u64,
    /// Largest unroll factor the loop emitter picks for a large output.
    pub max_unroll: u64,
    /// Bytes of one global-memory transaction.
    pub transaction_bytes: u64,
}

impl Device {
    /// The device facts of `chip`.
    pub fn of(chip: &Chip) -> Device {
        Device {
            name: chip.name_str().to_string(),
            warp_size: 32,
            threads_per_block_limit: 1024,
            block_dim_limit: [(1 << 31) - 1, 65535, 65535],
            core_count: chip.core_count,
            threads_per_core_limit: chip.threads_per_core_limit,
            max_unroll: 4,
            transaction_bytes: 128,
        }
    }

    /// The chip named `name` in the table of [`crate::chips`] (`sm_90`).
    pub fn for_chip(name: &str) -> Result<Device, UnknownChip> {
        Chip::named(name).map(Device::of)
    }

    /// An NVIDIA H100 SXM (sm_90): 132 multiprocessors of 2048 threads.
    pub fn h100() -> Device {
        Device::for_chip("sm_90").expect("sm_90 is in the table")
    }
}

/// The default chip, [`DEFAULT_CHIP`].
impl Default for Device {
    fn default() -> Device {
        Device::for_chip(DEFAULT_CHIP).expect("the default chip is in the table")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chips::CHIPS;

    #[test]
    fn every_chip_gives_a_device_of_its_name() {
        for chip in CHIPS {
            assert_eq!(Device::of(chip).name, chip.name_str());
        }
    }
}
