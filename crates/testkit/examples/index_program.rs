//! Prints the random index program of a seed, to reproduce a property-test failure:
//! `cargo run -p xla-indexing-testkit --example index_program -- SEED`.

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            eprintln!("usage: index_program SEED");
            std::process::exit(2)
        });
    print!(
        "{}",
        xla_indexing_testkit::index_program::random_program(seed).text
    );
}
