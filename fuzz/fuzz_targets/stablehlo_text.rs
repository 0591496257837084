#![no_main]
//! StableHLO's pretty form to generic: no panic, lines kept, errors inside the text.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xla_indexing_stablehlo_text::invariants::pretty_text_is_handled(data)
});
