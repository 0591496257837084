//! The opcode table against XLA's list of HLO opcodes, and the README's list of ops with maps
//! against the table.

use std::collections::BTreeMap;
use std::path::Path;

use xla_indexing_hlo::ops::{Indexing, OPCODES, family};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn xla_opcodes() -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hlo_opcodes.txt"),
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_hlo_opcode_is_in_the_table_and_nothing_else() {
    let xla = xla_opcodes();
    let missing: Vec<&String> = xla
        .iter()
        .filter(|o| !OPCODES.iter().any(|(name, _)| name == o))
        .collect();
    assert!(
        missing.is_empty(),
        "opcodes missing from the table: {missing:?}"
    );
    let extra: Vec<&str> = OPCODES
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !xla.iter().any(|o| o == name))
        .collect();
    assert!(extra.is_empty(), "not HLO opcodes: {extra:?}");
    assert!(
        OPCODES.windows(2).all(|w| w[0].0 < w[1].0),
        "the table is sorted and has each opcode once"
    );
}

#[test]
fn lookups_follow_the_table() {
    assert!(family("cosine").is_ok(), "cosine is elementwise");
    assert!(family("count-leading-zeros").is_ok());
    assert_eq!(
        family("cos").unwrap_err(),
        "cos has no indexing (it is no HLO opcode)"
    );
    assert!(
        family("while")
            .unwrap_err()
            .starts_with("while has no indexing (control flow")
    );
}

/// The README's block of ops, as the table gives it: a row per family with maps, then a row
/// per reason for ops without.
fn readme_block() -> String {
    let mut with: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut without: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, indexing) in OPCODES {
        match indexing {
            Indexing::Family(kind) => with.entry(format!("{kind:?}")).or_default().push(name),
            Indexing::NotDefined(reason) => without.entry(reason).or_default().push(name),
        }
    }
    let list = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::from("| maps | opcodes |\n| --- | --- |\n");
    for (family, names) in &with {
        out += &format!("| {family} | {} |\n", list(names));
    }
    for (reason, names) in &without {
        out += &format!("| none: {reason} | {} |\n", list(names));
    }
    out
}

#[test]
fn the_readme_lists_the_ops_with_maps() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block = readme_block();
    assert!(
        readme.contains(&block),
        "the README's table of HLO ops differs from the opcode table; it should read:\n\n{block}"
    );
}
