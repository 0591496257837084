//! The opcode enum against XLA's list of HLO opcodes, its parser against its printer, and the
//! README's list of ops with maps against the table.

use std::collections::BTreeMap;
use std::path::Path;

use xla_indexing_hlo::ops::{Indexing, Opcode, family, instruction_family};
use xla_indexing_hlo::parse_module;

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
    let missing: Vec<&String> = xla.iter().filter(|o| Opcode::parse(o).is_none()).collect();
    assert!(
        missing.is_empty(),
        "opcodes missing from the table: {missing:?}"
    );
    let extra: Vec<&str> = Opcode::ALL
        .iter()
        .map(|op| op.as_str())
        .filter(|name| !xla.iter().any(|o| o == name))
        .collect();
    assert!(extra.is_empty(), "not HLO opcodes: {extra:?}");
    assert!(
        Opcode::ALL
            .windows(2)
            .all(|w| w[0].as_str() < w[1].as_str() && w[0] < w[1]),
        "the table is sorted by name and has each opcode once"
    );
    for &op in Opcode::ALL {
        assert_eq!(Opcode::parse(op.as_str()), Some(op), "{op} parses back");
    }
}

#[test]
fn lookups_follow_the_table() {
    assert!(family(Opcode::Cosine).is_ok(), "cosine is elementwise");
    assert!(family(Opcode::CountLeadingZeros).is_ok());
    assert_eq!(Opcode::parse("cos"), None);
    assert!(
        family(Opcode::While)
            .unwrap_err()
            .to_string()
            .starts_with("while has no indexing (control flow")
    );
}

#[test]
fn a_custom_call_has_its_target_s_family_or_reason() {
    let module = |target: &str| {
        parse_module(&format!(
            "HloModule m\n\nENTRY e {{\n  p = f32[2,<=5] parameter(0)\n  ROOT c = (f32[2,5], s32[], s32[]) custom-call(p), custom_call_target=\"{target}\"\n}}\n"
        ))
        .unwrap()
    };
    let why = |target: &str| {
        let m = module(target);
        let comp = &m.computations[m.entry];
        instruction_family(&comp.instructions[comp.root])
            .unwrap_err()
            .to_string()
    };
    assert!(
        why("PadToStatic").contains("within its operand's dynamic sizes"),
        "{}",
        why("PadToStatic")
    );
    assert!(
        why("mystery").contains("an opaque custom call"),
        "{}",
        why("mystery")
    );
}

/// The README's block of ops, as the table gives it: a row per family with maps, then a row
/// per reason for ops without.
fn readme_block() -> String {
    let mut with: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut without: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for op in Opcode::ALL {
        let name = op.as_str();
        match op.indexing() {
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

#[test]
fn an_unknown_opcode_is_an_error_at_its_place() {
    let text = "HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT c = f32[4] cos(p)\n}\n";
    let error = parse_module(text).unwrap_err().to_string();
    assert!(
        error.contains("line 5, column 19") && error.contains("'cos' is no HLO opcode"),
        "{error}"
    );
}
