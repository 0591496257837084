#![no_main]
//! HLO text: parse, analyse both ways, errors inside the text.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xla_indexing_testkit::invariants::hlo::hlo_text_is_handled(data)
});
