//! The `xla_indexing` dialect from Rust: parsing and printing through the Rust grammar,
//! diagnostics for bad maps, attributes to and from `IndexingMap`s, and the ODS op builders.

use std::{cell::RefCell, rc::Rc};

use expect_test::expect;
use melior::{
    Context,
    dialect::{DialectRegistry, func},
    ir::{
        Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type,
        attribute::{StringAttribute, TypeAttribute},
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::FunctionType,
    },
    utility::register_all_dialects,
};
use xla_indexing_core::IndexingMap;
use xla_indexing_mlir::{
    AttributeError, attribute_map, dialect, map_attribute, ods, parse_map_attribute,
};

const RT_MAP: &str = "(d0, d1)[s0]{rt0} -> (d0 floordiv 8 + s0, d1 + rt0), domain: d0 in [0, 15], \
                      d1 in [0, 9], s0 in [0, 3], rt0 in [0, 5], d0 mod 2 in [0, 0]";

fn context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    dialect::register(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}

/// Collects the error diagnostics of `context` while `f` runs.
fn errors_of<T>(context: &Context, f: impl FnOnce() -> T) -> (T, Vec<String>) {
    let errors = Rc::new(RefCell::new(Vec::new()));
    let sink = errors.clone();
    let id = context.attach_diagnostic_handler(move |diagnostic| {
        sink.borrow_mut()
            .push(format!("{}: {diagnostic}", diagnostic.location()));
        true
    });
    let result = f();
    context.detach_diagnostic_handler(id);
    let errors = errors.borrow().clone();
    (result, errors)
}

/// The `indexing_map` attribute texts of every `apply_indexing` in `module`.
fn applied_maps(module: &Module) -> Vec<IndexingMap> {
    let mut maps = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("xla_indexing.apply_indexing") {
            maps.push(attribute_map(op.attribute("indexing_map").unwrap()).unwrap());
        }
        WalkResult::Advance
    });
    maps
}

#[test]
fn module_round_trips_through_the_rust_grammar() {
    let context = context();
    let source = format!(
        r#"func.func @f(%a: index, %b: index, %c: index, %d: index) -> (index, index) {{
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"{RT_MAP}">(%a, %b, %c, %d) : index, index
  return %0#0, %0#1 : index, index
}}"#
    );
    let module = Module::parse(&context, &source).expect("module parses");
    assert!(module.as_operation().verify());
    let printed = module.as_operation().to_string();
    expect![[r#"
        module {
          func.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index) {
            %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1)[s0]{rt0} -> (s0 + d0 floordiv 8, d1 + rt0), domain: d0 in [0, 15], d1 in [0, 9], s0 in [0, 3], rt0 in [0, 5], d0 mod 2 in [0, 0]">(%arg0, %arg1, %arg2, %arg3) : index, index
            return %0#0, %0#1 : index, index
          }
        }
    "#]].assert_eq(&printed);
    let expected = IndexingMap::parse(RT_MAP).unwrap();
    assert_eq!(applied_maps(&module), vec![expected]);

    let reparsed = Module::parse(&context, &printed).expect("printed module parses");
    assert_eq!(reparsed.as_operation().to_string(), printed);
}

#[test]
fn alternative_spellings_are_stored_canonical() {
    let context = context();
    let source = r#"func.func @f(%a: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 / 4 + d0 % 4)," " domain: d0 in [0, 15]">(%a) : index
  return %0 : index
}"#;
    let module = Module::parse(&context, source).expect("module parses");
    let canonical =
        IndexingMap::parse("(d0) -> (d0 floordiv 4 + d0 mod 4), domain: d0 in [0, 15]").unwrap();
    assert_eq!(applied_maps(&module), vec![canonical.clone()]);
    expect![[r#"
        module {
          func.func @f(%arg0: index) -> index {
            %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 4 + d0 mod 4), domain: d0 in [0, 15]">(%arg0) : index
            return %0 : index
          }
        }
    "#]].assert_eq(&module.as_operation().to_string());
}

#[test]
fn parse_errors_are_diagnostics_at_the_failing_character() {
    let context = context();
    let source = "func.func @f(%a: index) -> index {\n  \
                  %0 = xla_indexing.apply_indexing #xla_indexing.map<\"(d0) -> (d0 + d1), domain: d0 in [0, 3]\">(%a) : index\n  \
                  return %0 : index\n}";
    let (module, errors) = errors_of(&context, || Module::parse(&context, source));
    assert!(module.is_none());
    assert_eq!(errors.len(), 1, "{errors:?}");
    // The string's quote is at column 54 of line 2; `d0 + d1` fails at the undeclared `d1`,
    // column 15 of the map, so column 69 of the line.
    assert!(errors[0].contains(":2:69"), "{errors:?}");
    assert!(
        errors[0].contains("invalid indexing map at column 15"),
        "{errors:?}"
    );
}

#[test]
fn op_verifier_checks_operand_and_result_counts() {
    let context = context();
    let source = r#"func.func @f(%a: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 1]">(%a) : index
  return %0 : index
}"#;
    let (module, errors) = errors_of(&context, || Module::parse(&context, source));
    assert!(module.is_none());
    assert!(
        errors.iter().any(|e| e.contains("expected 2 operands")),
        "{errors:?}"
    );
}

#[test]
fn attributes_convert_to_and_from_maps() {
    let context = context();
    let map = IndexingMap::parse(RT_MAP).unwrap();
    let attribute = map_attribute(&context, &map).unwrap();
    assert_eq!(
        attribute.to_string(),
        format!("#xla_indexing.map<\"{map}\">")
    );
    assert_eq!(attribute_map(attribute).unwrap(), map);

    let named = parse_map_attribute(
        &context,
        "(th_x) -> (th_x floordiv 32), domain: th_x in [0, 127]",
    )
    .unwrap();
    expect![[r##"#xla_indexing.map<"(th_x) -> (th_x floordiv 32), domain: th_x in [0, 127]">"##]]
        .assert_eq(&named.to_string());

    let error =
        parse_map_attribute(&context, "(d0) -> (d0 floordiv 0), domain: d0 in [0, 3]").unwrap_err();
    assert!(matches!(error, AttributeError::Parse { .. }), "{error}");
    let not_a_map = attribute_map(StringAttribute::new(&context, "x").into()).unwrap_err();
    assert!(
        matches!(not_a_map, AttributeError::NotAMap(_)),
        "{not_a_map}"
    );
}

#[test]
fn ods_builder_makes_a_verified_apply_indexing() {
    let context = context();
    let location = Location::unknown(&context);
    let index = Type::index(&context);
    let map = IndexingMap::parse("(d0)[s0] -> (d0 * 4 + s0), domain: d0 in [0, 9], s0 in [0, 3]")
        .unwrap();
    let module = Module::new(location);
    let block = Block::new(&[(index, location), (index, location)]);
    let op = ods::xla_indexing::apply_indexing(
        &context,
        &[index],
        &[
            block.argument(0).unwrap().into(),
            block.argument(1).unwrap().into(),
        ],
        map_attribute(&context, &map).unwrap(),
        location,
    );
    let result = block.append_operation(op.into()).result(0).unwrap();
    block.append_operation(func::r#return(&[result.into()], location));
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(func::func(
        &context,
        StringAttribute::new(&context, "g"),
        TypeAttribute::new(FunctionType::new(&context, &[index, index], &[index]).into()),
        region,
        &[(
            Identifier::new(&context, "sym_visibility"),
            StringAttribute::new(&context, "private").into(),
        )],
        location,
    ));
    assert!(module.as_operation().verify());
    assert_eq!(applied_maps(&module), vec![map]);
}
