//! The NVIDIA chips the launch maths, coalescing and code generation know, from sm_70 to
//! sm_100: one row per compute capability, with the hardware facts that differ between them
//! (the [`Device`](crate::device::Device) of a row adds those they share).
//!
//! Every chip of the table has warps of 32 threads, blocks of at most 1024 threads, grids of
//! `2^31 - 1 x 65535 x 65535` blocks and 128-byte global-memory transactions; they differ in
//! multiprocessors and in resident threads per multiprocessor. The multiprocessor count is that
//! of the product named in the row (the largest data-center part of its generation where there
//! is one).

use std::ffi::CStr;

/// One chip: its `sm_NN` name and the facts that differ between chips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chip {
    /// `sm_NN`, as NVPTX and `--chip` name it.
    pub name: &'static CStr,
    /// The product whose multiprocessor count the row has.
    pub product: &'static str,
    /// Streaming multiprocessors.
    pub core_count: u64,
    /// Resident threads per multiprocessor.
    pub threads_per_core_limit: u64,
    /// The PTX ISA version the chip's code is written in, as an NVPTX feature (`+ptx80`).
    pub ptx_features: &'static str,
}

/// The chips, in order of compute capability.
pub const CHIPS: &[Chip] = &[
    chip(c"sm_70", "V100 SXM2", 80, 2048, "+ptx80"),
    chip(c"sm_75", "T4", 40, 1024, "+ptx80"),
    chip(c"sm_80", "A100 SXM", 108, 2048, "+ptx80"),
    chip(c"sm_86", "A40", 84, 1536, "+ptx80"),
    chip(c"sm_89", "L40S", 142, 1536, "+ptx80"),
    chip(c"sm_90", "H100 SXM", 132, 2048, "+ptx80"),
    chip(c"sm_100", "B200", 148, 2048, "+ptx86"),
];

/// The chip used when none is named.
pub const DEFAULT_CHIP: &str = "sm_90";

const fn chip(
    name: &'static CStr,
    product: &'static str,
    core_count: u64,
    threads_per_core_limit: u64,
    ptx_features: &'static str,
) -> Chip {
    Chip {
        name,
        product,
        core_count,
        threads_per_core_limit,
        ptx_features,
    }
}

/// A chip name that is not in [`CHIPS`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown chip `{0}` (known: {known})", known = chip_names().join(", "))]
pub struct UnknownChip(pub String);

/// The names of the chips, in the table's order.
pub fn chip_names() -> Vec<&'static str> {
    CHIPS.iter().map(Chip::name_str).collect()
}

impl Chip {
    /// The name as a `&str`.
    pub fn name_str(&self) -> &'static str {
        self.name.to_str().expect("chip names are ASCII")
    }

    /// The row named `name` (`sm_90`; an `a` or `f` suffix, as in `sm_90a`, names the same row).
    pub fn named(name: &str) -> Result<&'static Chip, UnknownChip> {
        let base = name.trim_end_matches(['a', 'f']);
        CHIPS
            .iter()
            .find(|c| c.name_str() == base)
            .ok_or_else(|| UnknownChip(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chip_is_found_by_its_name_and_the_default_is_one() {
        for chip in CHIPS {
            assert_eq!(Chip::named(chip.name_str()), Ok(chip));
        }
        assert!(Chip::named(DEFAULT_CHIP).is_ok());
        assert_eq!(Chip::named("sm_90a").unwrap().name_str(), "sm_90");
        let names: Vec<u32> = chip_names()
            .iter()
            .map(|n| n[3..].parse().unwrap())
            .collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "in order: {names:?}");
    }

    #[test]
    fn an_unknown_chip_lists_the_known_ones() {
        let error = Chip::named("sm_42").unwrap_err().to_string();
        assert!(
            error.starts_with("unknown chip `sm_42` (known: sm_70, sm_75"),
            "{error}"
        );
    }
}
