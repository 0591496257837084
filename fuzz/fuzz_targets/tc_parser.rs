#![no_main]
//! Tensor Comprehensions text: parse, infer ranges, errors inside the text.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xla_indexing_testkit::invariants::loops::tc_text_is_handled(data)
});
