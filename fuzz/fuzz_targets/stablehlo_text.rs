#![no_main]
//! StableHLO's pretty form to generic: no panic, lines kept, errors inside the text.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xla_indexing_testkit::invariants::stablehlo_text::pretty_text_is_handled(data)
});
