//! Whether XLA's reduction emitter takes a reduction whose layout it could tile, or leaves it
//! to the loop emitter because a thread per output element is estimated faster: XLA's
//! `IsUnnestedReductionFasterThanElemental` (`xla/service/gpu/reduction_utils.cc`), on the
//! reduction's contiguous components.
//!
//! * A **row** reduction is worth it when its minor run of reduced elements fills a warp, or
//!   divides a warp so that several rows share one (a multi-row reduction).
//! * A **column** reduction is worth it unless the reduced size is small for its kept size, by
//!   a rule XLA took from sweeping small column reductions: fewer than 32 reduced elements, or
//!   fewer than 64 with fewer than 32 kept, fewer than 128 with fewer than 8 kept, fewer than
//!   256 with fewer than 3 kept.

use crate::error::PlanError;
use crate::reduction_tiling::{Components, WARP};

/// `Ok` when XLA's reduction emitter takes a reduction of `components`; otherwise why XLA
/// leaves it to the loop emitter.
pub(crate) fn check_faster_than_loop(components: Components) -> Result<(), PlanError> {
    let warp = WARP as i64;
    match components {
        Components::Row { segment, .. } => {
            if segment >= warp || warp.checked_rem(segment) == Some(0) {
                return Ok(());
            }
            Err(PlanError::Unsupported(format!(
                "the minor run of {segment} reduced elements is shorter than a warp of {warp} and \
                 does not divide it, so XLA's IsUnnestedReductionFasterThanElemental estimates \
                 the loop emitter faster"
            )))
        }
        Components::Column { reduced, kept, .. } => {
            let small = [(1, None), (2, Some(warp)), (4, Some(8)), (8, Some(3))]
                .into_iter()
                .find(|&(warps, kept_limit)| {
                    reduced < warps * warp && kept_limit.is_none_or(|limit| kept < limit)
                });
            let Some((warps, kept_limit)) = small else {
                return Ok(());
            };
            let kept_clause = kept_limit.map_or(String::new(), |limit| {
                format!(" and {kept} kept, fewer than {limit}")
            });
            Err(PlanError::Unsupported(format!(
                "a column reduction of {reduced} reduced elements, fewer than {}{kept_clause}, so \
                 XLA's IsUnnestedReductionFasterThanElemental estimates the loop emitter faster",
                warps * warp
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(segment: i64) -> Components {
        Components::Row {
            rows: 4,
            segments: 3,
            segment,
        }
    }

    fn column(reduced: i64, kept: i64) -> Components {
        Components::Column {
            batch: 1,
            reduced,
            kept,
        }
    }

    #[test]
    fn rows_that_fill_or_divide_a_warp_are_reductions() {
        for segment in [1, 2, 4, 8, 16, 32, 33, 1000] {
            check_faster_than_loop(row(segment)).unwrap();
        }
        for segment in [3, 5, 7, 31] {
            let why = check_faster_than_loop(row(segment))
                .unwrap_err()
                .to_string();
            assert!(
                why.starts_with(&format!("the minor run of {segment} reduced elements")),
                "{why}"
            );
        }
    }

    #[test]
    fn small_columns_follow_the_swept_rule() {
        for (reduced, kept) in [(32, 32), (64, 8), (128, 3), (256, 2), (256, 1)] {
            check_faster_than_loop(column(reduced, kept)).unwrap();
        }
        for (reduced, kept, clause) in [
            (31, 1000, "fewer than 32,"),
            (63, 31, "fewer than 64 and 31 kept, fewer than 32"),
            (127, 7, "fewer than 128 and 7 kept, fewer than 8"),
            (255, 2, "fewer than 256 and 2 kept, fewer than 3"),
        ] {
            let why = check_faster_than_loop(column(reduced, kept))
                .unwrap_err()
                .to_string();
            assert!(why.contains(clause), "{why}");
        }
    }
}
