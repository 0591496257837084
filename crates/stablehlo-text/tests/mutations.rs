//! Bad input never panics: random truncations and mutations of the corpus's pretty text give
//! either text with its lines kept or a `SyntaxError` whose line and column lie inside the input
//! (`invariants::pretty_text_is_handled`). `XLA_INDEXING_PROPTEST_CASES` sets the rounds per
//! program.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use xla_indexing_stablehlo_text::to_generic;
use xla_indexing_testkit::invariants::stablehlo_text::pretty_text_is_handled;

/// xorshift64*: reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces of MLIR syntax to insert: brackets, separators, names, a multi-byte character.
const PIECES: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "\"",
    ",",
    ":",
    "=",
    "->",
    "%",
    "%0",
    "#",
    "#1",
    "@",
    "^bb0",
    "x",
    "-",
    "0",
    "99999999999999999999",
    "\n",
    " ",
    "//",
    "é",
    "stablehlo.add ",
    "stablehlo.reduce",
    "stablehlo.while",
    "chlo.top_k",
    "sdy.mesh",
    "dims = [",
    "init:",
    "applies",
    "across",
    "reducer",
    "cond",
    "do",
    "tensor<",
    "loc(",
    "dense<",
];

fn pretty_corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut texts: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with(".pretty.mlir"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(path).unwrap())
        })
        .collect();
    texts.sort();
    assert!(!texts.is_empty());
    texts
}

/// A char boundary of `text` at or before `at`.
fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Converts `text`: no panic, and the invariants of the fuzz target hold.
fn check(text: &str, what: &str) {
    let result = catch_unwind(AssertUnwindSafe(|| pretty_text_is_handled(text.as_bytes())));
    assert!(result.is_ok(), "{what}:\n{text}");
}

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut text = text.to_string();
    for _ in 0..1 + rng.below(3) {
        let at = boundary(&text, rng.below(text.len() + 1));
        let end = boundary(&text, at + rng.below(24));
        let end = end.max(at);
        match rng.below(4) {
            0 => text.replace_range(at..end, ""),
            1 => text.insert_str(at, PIECES[rng.below(PIECES.len())]),
            2 => text.replace_range(at..end, PIECES[rng.below(PIECES.len())]),
            _ => {
                let copy = text[at..end].to_string();
                text.insert_str(end, &copy);
            }
        }
    }
    text
}

#[test]
fn truncations_never_panic() {
    let mut rng = Rng(0x5eed_0001);
    let (mut cuts, mut refused) = (0, 0);
    for (name, text) in pretty_corpus() {
        for _ in 0..xla_indexing_testkit::proptest_cases(60) {
            let cut = boundary(&text, rng.below(text.len()));
            check(&text[..cut], &format!("{name} cut at byte {cut}"));
            cuts += 1;
            refused += usize::from(to_generic(&text[..cut]).is_err());
        }
    }
    // A cut inside a pretty operation or its region is refused (about half of them here); one
    // between operations leaves text for MLIR to judge (an unclosed function or module).
    assert!(
        3 * refused > cuts,
        "only {refused} of {cuts} truncations were refused"
    );
}

#[test]
fn mutations_never_panic() {
    let mut rng = Rng(0x5eed_0002);
    for (name, text) in pretty_corpus() {
        for round in 0..xla_indexing_testkit::proptest_cases(150) {
            let mutated = mutate(&mut rng, &text);
            check(&mutated, &format!("{name}, mutation {round}"));
        }
    }
}
