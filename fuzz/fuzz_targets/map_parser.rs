#![no_main]
//! Map text: parse, verify, print, parse again.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xla_indexing_testkit::invariants::maps::map_text_round_trips(data)
});
