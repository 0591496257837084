#![no_main]
//! Simplification: sound at every enumerated or sampled point, idempotent.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xla_indexing_testkit::invariants::maps::simplification_is_sound(data)
});
