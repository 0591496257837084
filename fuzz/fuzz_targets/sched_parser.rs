#![no_main]
//! TVM schedule text: parse, infer bounds, print, errors inside the text.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xla_indexing_testkit::invariants::loops::sched_text_is_handled(data)
});
