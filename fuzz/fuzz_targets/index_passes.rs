#![no_main]
//! The index passes (`xla-indexing-simplify`, then `xla-indexing-lower-apply`) in process on
//! random programs of index arithmetic (an input whose first byte is even seeds the generator)
//! and on module text (the rest of an input whose first byte is odd, mutated by the fuzzer):
//! nothing crashes, and where a function runs its values are unchanged.

use xla_indexing_passes::opt::{OptOptions, Session};
use xla_indexing_testkit::invariants::passes::fuzz_index_passes;

thread_local! {
    /// One MLIR context for the whole run: making one registers every dialect and pass.
    static SESSION: Session = xla_indexing_passes::opt::session("fuzz", OptOptions::default());
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    SESSION.with(|session| fuzz_index_passes(session, data))
});
