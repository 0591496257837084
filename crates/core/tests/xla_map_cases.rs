//! XLA's own expectations for indexing maps and expressions (`indexing_map_test.cc` and
//! `symbolic_expr_test.cc` of openxla/xla), transcribed as data in
//! `tests/data/xla_map_cases.txt` and checked by our code.
//!
//! Each case names an operation (`op`), the input and XLA's expected result. A map result is
//! checked three ways: it is *sound* (it equals the input at every point, or as a relation where
//! the operation renames variables), it is *equivalent to XLA's* expected map, and it is *no
//! costlier* than XLA's under [`xla_indexing_core::Cost`]. Inputs and expectations are evaluated
//! with the reference reader of `support/reference.rs`, not with our parser, so a mistake of the
//! parser cannot hide one of the simplifier. Boxes of at most 200 000 points are enumerated,
//! larger ones sampled; every case says which (`points all` or `points sample`) and the runner
//! checks the claim. A case whose expectation is wrong in XLA says `xla-wrong` with the reason:
//! the runner confirms that XLA's map differs from the input and checks ours by evaluation. A
//! case where we differ on purpose says `differs` with the reason, and is checked against the
//! reference semantics instead. A case that waits for a feature in progress says `needs`.

mod support;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use support::cases::{COSTLIER, Case, Outcome, Pass, Verdict, parse_cases, run_all};
use support::compare::{
    ALL_LIMIT, Coverage, Graph, SAMPLE, Side, for_points, outer_vars, pointwise, same_relation,
};
use support::reference::{Node, RefMap, parse_expr as ref_expr, parse_map as ref_map};
use xla_indexing_core::{Expr, IndexingMap, Interval, Var, parse_expr};

const CASES: &str = include_str!("data/xla_map_cases.txt");

#[test]
fn xla_map_cases() {
    let cases = parse_cases(CASES).unwrap_or_else(|e| panic!("xla_map_cases.txt: {e}"));
    run_all("xla_map_cases.txt", &cases, run);
}

/// Runs one case by its `op`.
fn run(case: &Case) -> Outcome {
    let op = match case.require("op") {
        Ok(op) => op,
        Err(e) => return Outcome::Fail(e),
    };
    if op == "na" {
        return match case.require("reason") {
            Ok(r) => Outcome::NotApplicable(r.to_string()),
            Err(e) => Outcome::Fail(e),
        };
    }
    let result = match op {
        "simplify" => simplify(case),
        "compose" => compose(case),
        "rescale" => rescale(case),
        "parse" => parse_case(case),
        "expr" => expr_case(case),
        "remove-unused-symbols" | "remove-unused-vars" => remove_unused(case, op).map(Pass::from),
        "convert-symbols" | "convert-range-vars" => convert(case, op).map(Pass::from),
        "read" => read_case(case).map(Pass::from),
        "evaluate" | "satisfied" => evaluate(case, op).map(Pass::from),
        "range" => range(case).map(Pass::from),
        "result-ranges" => result_ranges(case).map(Pass::from),
        "classes" => classes(case).map(Pass::from),
        "verify" => verify(case).map(Pass::from),
        "multiple-of" => multiple_of(case).map(Pass::from),
        "divmod" => divmod(case).map(Pass::from),
        "eval-missing" => eval_missing(case).map(Pass::from),
        "used-vars" => used_vars(case).map(Pass::from),
        "print-expr" => print_expr(case).map(Pass::from),
        "eval-expr" => eval_expr(case).map(Pass::from),
        "replace" => replace(case),
        "expr-classes" => expr_classes(case).map(Pass::from),
        other => Err(format!("unknown op `{other}`")),
    };
    // A documented difference is one whatever the op: `differs` (on purpose) or `xla-wrong`.
    let documented = (case.get("differs").is_some() || case.get("xla-wrong").is_some())
        .then_some(Verdict::Difference);
    result
        .map(|pass| match documented {
            Some(verdict) => Pass::new(verdict, pass.note),
            None => pass,
        })
        .into()
}

/// Why we depart from XLA's expectation on purpose (`differs`).
fn departure(case: &Case) -> Option<&str> {
    case.get("differs")
}

// ---- Reading -------------------------------------------------------------------------------

/// Our reading of map text.
fn ours(text: &str) -> Result<IndexingMap, String> {
    IndexingMap::parse(text).map_err(|e| format!("we cannot read `{text}`: {e}"))
}

/// Our reading of the case's `input` (or another field holding an operand), with the case's
/// `add EXPR in [LO, HI]` constraints added.
fn our_input(case: &Case, text: &str) -> Result<IndexingMap, String> {
    let mut map = ours(text)?;
    for add in case.all("add") {
        let (expr, iv) = split_in(add)?;
        let e = expr_in(&map, expr)?;
        map.add_constraint(e, iv);
    }
    Ok(map)
}

/// The reference reading of map text.
fn reference(text: &str) -> Result<RefMap, String> {
    ref_map(text).map_err(|e| format!("the reference cannot read `{text}`: {e}"))
}

/// The reference reading of the case's `input`, with the case's `add` constraints.
fn reference_input(case: &Case, text: &str) -> Result<RefMap, String> {
    let mut map = reference(text)?;
    for add in case.all("add") {
        let (expr, iv) = split_in(add)?;
        map.constraints.push((ref_expr(expr, &map.names)?, iv));
    }
    Ok(map)
}

/// Splits `EXPR in [LO, HI]`.
fn split_in(text: &str) -> Result<(&str, Interval), String> {
    let (expr, iv) = text
        .rsplit_once(" in ")
        .ok_or_else(|| format!("expected `EXPR in [LO, HI]`, found `{text}`"))?;
    Ok((expr, interval(iv)?))
}

/// Reads `[lo, hi]`.
fn interval(text: &str) -> Result<Interval, String> {
    let t = text.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| format!("expected `[lo, hi]`, found `{t}`"))?;
    let nums = ints(inner)?;
    match nums.as_slice() {
        [lo, hi] => Ok(Interval::new(*lo, *hi)),
        _ => Err(format!("expected `[lo, hi]`, found `{t}`")),
    }
}

/// Reads integers separated by commas or whitespace.
fn ints(text: &str) -> Result<Vec<i64>, String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| format!("bad integer `{s}`")))
        .collect()
}

/// Reads every `[lo, hi]` of a list.
fn intervals(text: &str) -> Result<Vec<Interval>, String> {
    text.split(']')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| interval(&format!("{}]", s.trim_start_matches(','))))
        .collect()
}

/// An expression over the variables of `map`, by their printed names.
fn expr_in(map: &IndexingMap, text: &str) -> Result<Expr, String> {
    let (dims, syms) = map.var_names();
    let r = map.range_vars().len();
    let bounds: Vec<String> = dims
        .iter()
        .chain(&syms)
        .zip(map.all_vars())
        .map(|(n, v)| format!("{n} in [{}, {}]", v.bounds.lo.min(0), v.bounds.hi.max(0)))
        .collect();
    let header = format!(
        "({}){}{}",
        dims.join(", "),
        if r > 0 {
            format!("[{}]", syms[..r].join(", "))
        } else {
            String::new()
        },
        if syms.len() > r {
            format!("{{{}}}", syms[r..].join(", "))
        } else {
            String::new()
        },
    );
    let text = format!("{header} -> ({text}), domain: {}", bounds.join(", "));
    let m = IndexingMap::parse(&text).map_err(|e| format!("we cannot read `{text}`: {e}"))?;
    Ok(m.results()[0].clone())
}

/// Every `expect` of the case (several are alternatives XLA accepts).
fn expectations(case: &Case) -> Result<Vec<&str>, String> {
    let all: Vec<&str> = case.all("expect").collect();
    if all.is_empty() {
        return Err("the case has no `expect`".into());
    }
    Ok(all)
}

// ---- Checks shared by the map operations -----------------------------------------------------

/// Checks the coverage against the case's `points all|sample` claim, where it makes one (a case
/// that must be checked at every point says `points all`).
fn check_points(case: &Case, coverage: Coverage) -> Result<(), String> {
    match case.get("points") {
        Some(claim) if claim != coverage.mode() => Err(format!(
            "the case says `points {claim}`, the check covered {coverage}"
        )),
        _ => Ok(()),
    }
}

/// How two maps are compared.
#[derive(Clone, Copy)]
enum Compare {
    /// Point by point: the same variables.
    Pointwise,
    /// As relations over the dims; symbols (range and runtime) take all their values.
    Relation,
}

fn equivalent(
    a: &dyn Graph,
    b: &dyn Graph,
    how: Compare,
    labels: (&str, &str),
) -> Result<Coverage, String> {
    match how {
        Compare::Pointwise => pointwise(a, b, None, labels),
        Compare::Relation => same_relation(
            &Side {
                label: labels.0,
                maps: vec![(a, outer_vars(a, false))],
            },
            &Side {
                label: labels.1,
                maps: vec![(b, outer_vars(b, false))],
            },
        ),
    }
}

/// The three checks of a map result: sound (equal to `input_ref`, the input as the reference reads
/// it), equivalent to one of XLA's expectations, and no costlier than it. With `xla-wrong`, the
/// runner instead confirms that XLA's expectation is not equivalent to the input.
fn check_result(
    case: &Case,
    result: &IndexingMap,
    input_ref: &dyn Graph,
    how: Compare,
) -> Result<Pass, String> {
    let sound = equivalent(result, input_ref, how, ("ours", "the input"))
        .map_err(|e| format!("unsound: {e}\n  ours: {result}"))?;
    let mut coverage = sound;
    if let Some(why) = case.get("xla-wrong") {
        for text in expectations(case)? {
            let theirs = reference(text)?;
            if equivalent(&theirs, input_ref, how, ("XLA's", "the input")).is_ok() {
                return Err(format!(
                    "says `xla-wrong` ({why}), but XLA's expectation equals the input"
                ));
            }
        }
        check_points(case, coverage)?;
        return Ok(Pass::new(
            Verdict::Difference,
            format!("sound ({coverage}); XLA's expectation is wrong: {why}"),
        ));
    }
    let mut last_error = String::new();
    for text in expectations(case)? {
        let theirs = reference(text)?;
        if theirs.known_empty && !result.is_known_empty() {
            last_error = format!("XLA finds the map KNOWN EMPTY, we do not: {result}");
            continue;
        }
        match equivalent(result, &theirs, how, ("ours", "XLA's")) {
            Ok(c) => coverage = coverage.min(c),
            Err(e) => {
                last_error = format!("differs from XLA's: {e}\n  ours: {result}\n  XLA:  {text}");
                continue;
            }
        }
        let their_cost = ours(text)
            .map_err(|e| format!("equivalent to XLA's, but to cost XLA's map: {e}"))?
            .cost();
        let our_cost = result.cost();
        if their_cost < our_cost {
            return Err(format!(
                "{COSTLIER}: {our_cost:?} against {their_cost:?}\n  ours: {result}\n  XLA:  {text}"
            ));
        }
        check_points(case, coverage)?;
        let verdict = if our_cost < their_cost {
            Verdict::Cheaper
        } else {
            Verdict::Same
        };
        return Ok(Pass::new(
            verdict,
            format!(
                "sound, equivalent to XLA's, cost {our_cost:?} against {their_cost:?} ({coverage})"
            ),
        ));
    }
    Err(last_error)
}

// ---- Map operations ------------------------------------------------------------------------

/// `op simplify`: `input`, `expect` (one or more alternatives); `idempotent` asks that a second
/// simplification changes nothing.
fn simplify(case: &Case) -> Result<Pass, String> {
    let input = case.require("input")?;
    let mut map = our_input(case, input)?;
    map.simplify();
    if case.get("idempotent").is_some() {
        let mut again = map.clone();
        if again.simplify() {
            return Err(format!(
                "a second simplification changes {map} into {again}"
            ));
        }
    }
    check_result(
        case,
        &map,
        &reference_input(case, input)?,
        Compare::Pointwise,
    )
}

/// A composition as the reference sees it: the first map's variables, then the second's
/// symbols; a point is in the domain when the first map's point is and the second map's point at
/// the first's results is.
struct Composed {
    first: RefMap,
    second: RefMap,
}

impl Composed {
    fn split(&self, p: &[i64]) -> Option<(Vec<i64>, Vec<i64>)> {
        let n = self.first.bounds.len();
        let mid = self.first.value(&p[..n])?;
        let mut q = mid;
        q.extend_from_slice(&p[n..]);
        Some((p[..n].to_vec(), q))
    }
}

impl Graph for Composed {
    fn num_dims(&self) -> usize {
        self.first.num_dims
    }
    fn num_range(&self) -> usize {
        self.bounds().len() - self.first.num_dims
    }
    fn num_rt(&self) -> usize {
        0
    }
    fn bounds(&self) -> Vec<Interval> {
        let mut b = self.first.bounds.clone();
        b.extend_from_slice(&self.second.bounds[self.second.num_dims..]);
        b
    }
    fn holds(&self, p: &[i64]) -> bool {
        self.first.holds(&p[..self.first.bounds.len()])
            && self.split(p).is_some_and(|(_, q)| self.second.holds(&q))
    }
    fn value(&self, p: &[i64]) -> Option<Vec<i64>> {
        self.second.value(&self.split(p)?.1)
    }
    fn known_empty(&self) -> bool {
        self.first.known_empty || self.second.known_empty
    }
}

/// `op compose`: `input` is XLA's consumer (applied first), `second` the producer; `simplify`
/// asks to simplify the composition; `results N` checks the arity of the result.
fn compose(case: &Case) -> Result<Pass, String> {
    let (first_text, second_text) = (case.require("input")?, case.require("second")?);
    let (first, second) = (our_input(case, first_text)?, ours(second_text)?);
    let mut map = first
        .compose(&second)
        .map_err(|e| format!("we cannot compose: {e}"))?;
    if case.get("simplify").is_some() {
        map.simplify();
    }
    if let Some(n) = case.get("results") {
        let n: usize = n.parse().map_err(|_| "bad `results`")?;
        if map.results().len() != n {
            return Err(format!("{} results, XLA has {n}", map.results().len()));
        }
    }
    let composed = Composed {
        first: reference_input(case, first_text)?,
        second: reference(second_text)?,
    };
    check_result(case, &map, &composed, Compare::Relation)
}

/// `op rescale`: `RescaleSymbols`, then `Simplify` when the case says `simplify`.
fn rescale(case: &Case) -> Result<Pass, String> {
    let input = case.require("input")?;
    let mut map = our_input(case, input)?;
    map.rescale_symbols();
    if case.get("simplify").is_some() {
        map.simplify();
    }
    if map.verify().is_err() {
        return Err(format!("the rescaled map fails to verify: {map}"));
    }
    check_result(
        case,
        &map,
        &reference_input(case, input)?,
        Compare::Relation,
    )
}

/// `op remove-unused-symbols` / `remove-unused-vars`: also checks the arity against XLA's and,
/// with `removed`, the mask of removed variables (1 = removed).
fn remove_unused(case: &Case, op: &str) -> Result<String, String> {
    let input = case.require("input")?;
    let mut map = our_input(case, input)?;
    let removed = if op == "remove-unused-vars" {
        map.remove_unused_vars()
    } else {
        map.remove_unused_symbols()
    };
    if let Some(want) = case.get("removed") {
        let got: Vec<i64> = removed.iter().map(|&r| i64::from(r)).collect();
        if got != ints(want)? {
            return Err(format!("removed {got:?}, XLA removes {want}"));
        }
    }
    let theirs = reference(expectations(case)?[0])?;
    let arity = |g: &dyn Graph| (g.num_dims(), g.num_range(), g.num_rt());
    if arity(&map) != arity(&theirs) {
        return Err(format!(
            "ours has (dims, range, runtime) = {:?}, XLA's {:?}: {map}",
            arity(&map),
            arity(&theirs)
        ));
    }
    // Sound: the relation over the kept dims is the input's, with removed dims quantified.
    let input_ref = reference_input(case, input)?;
    let kept: Vec<usize> = if op == "remove-unused-vars" {
        (0..input_ref.num_dims).filter(|&i| !removed[i]).collect()
    } else {
        (0..input_ref.num_dims).collect()
    };
    let sound = same_relation(
        &Side {
            label: "ours",
            maps: vec![(&map, outer_vars(&map, false))],
        },
        &Side {
            label: "the input",
            maps: vec![(&input_ref, kept)],
        },
    )
    .map_err(|e| format!("unsound: {e}\n  ours: {map}"))?;
    let same = equivalent(&map, &theirs, Compare::Relation, ("ours", "XLA's"))
        .map_err(|e| format!("differs from XLA's: {e}\n  ours: {map}"))?;
    let coverage = sound.min(same);
    check_points(case, coverage)?;
    Ok(format!(
        "sound, equivalent to XLA's, same arity ({coverage})"
    ))
}

/// `op convert-symbols` / `convert-range-vars` (with `ids`): the variables move, the values stay.
fn convert(case: &Case, op: &str) -> Result<String, String> {
    let input = case.require("input")?;
    let map = our_input(case, input)?;
    let input_ref = reference_input(case, input)?;
    let (result, perm) = if op == "convert-symbols" {
        let n = input_ref.bounds.len();
        (map.convert_symbols_to_dims(), (0..n).collect::<Vec<_>>())
    } else {
        let ids: Vec<usize> = ints(case.require("ids")?)?
            .into_iter()
            .map(|i| i as usize)
            .collect();
        let (nd, nr) = (input_ref.num_dims, input_ref.num_range);
        let mut perm: Vec<usize> = (0..nd).collect();
        perm.extend(ids.iter().map(|i| nd + i));
        perm.extend((0..nr).filter(|i| !ids.contains(i)).map(|i| nd + i));
        perm.extend(nd + nr..input_ref.bounds.len());
        (map.convert_range_vars_to_dims(&ids), perm)
    };
    let sound = pointwise(&input_ref, &result, Some(&perm), ("the input", "ours"))
        .map_err(|e| format!("unsound: {e}\n  ours: {result}"))?;
    let theirs = reference(expectations(case)?[0])?;
    let same = pointwise(&result, &theirs, None, ("ours", "XLA's"))
        .map_err(|e| format!("differs from XLA's: {e}\n  ours: {result}"))?;
    let arity = |g: &dyn Graph| (g.num_dims(), g.num_range(), g.num_rt());
    if arity(&result) != arity(&theirs) {
        return Err(format!(
            "ours has (dims, range, runtime) = {:?}, XLA's {:?}",
            arity(&result),
            arity(&theirs)
        ));
    }
    let coverage = sound.min(same);
    check_points(case, coverage)?;
    Ok(format!("sound and equal to XLA's ({coverage})"))
}

/// `op parse`: our reading of `input` (with `add` constraints) against XLA's `expect`;
/// `constraints N` checks how many constraints remain.
fn parse_case(case: &Case) -> Result<Pass, String> {
    let input = case.require("input")?;
    let map = our_input(case, input)?;
    if let Some(n) = case.get("constraints") {
        let n: usize = n.parse().map_err(|_| "bad `constraints`")?;
        if map.constraints().len() != n {
            return Err(format!(
                "{} constraints, XLA has {n}: {map}",
                map.constraints().len()
            ));
        }
    }
    check_result(
        case,
        &map,
        &reference_input(case, input)?,
        Compare::Pointwise,
    )
}

/// The header `(…)[…]{…}` of map text, without whitespace.
fn header(text: &str) -> String {
    let head = text.split("->").next().unwrap_or("");
    head.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `op read`: XLA's printed text reads back: our reading prints the same header (variable names
/// and kinds), reads again to an equal map, and agrees with the reference at every point.
fn read_case(case: &Case) -> Result<String, String> {
    let text = case.require("input")?;
    let map = ours(text)?;
    let printed = map.to_string();
    if header(&printed) != header(text) {
        return Err(format!(
            "we print the header `{}`, XLA `{}`",
            header(&printed),
            header(text)
        ));
    }
    let again =
        IndexingMap::parse(&printed).map_err(|e| format!("our own print does not read: {e}"))?;
    if again != map || again.var_names() != map.var_names() {
        return Err(format!("reading our print gives another map: {again}"));
    }
    let coverage = pointwise(&map, &reference(text)?, None, ("ours", "the reference"))?;
    check_points(case, coverage)?;
    Ok(format!(
        "reads, prints the same header and reads back ({coverage})"
    ))
}

/// Splits `at D... | S...` into dims and symbols.
fn point(case: &Case) -> Result<(Vec<i64>, Vec<i64>), String> {
    let at = case.require("at")?;
    let (d, s) = at.split_once('|').unwrap_or((at, ""));
    Ok((ints(d)?, ints(s)?))
}

/// `op evaluate` (results at `at`, outside the domain too) and `op satisfied` (whether the
/// constraints hold at `at`, bounds aside).
fn evaluate(case: &Case, op: &str) -> Result<String, String> {
    let input = case.require("input")?;
    let map = our_input(case, input)?;
    let reference = reference_input(case, input)?;
    let (d, s) = point(case)?;
    let flat: Vec<i64> = d.iter().chain(&s).copied().collect();
    let want = case.require("expect")?;
    if op == "evaluate" {
        let want = ints(want)?;
        let (got, truth) = (map.evaluate(&d, &s), reference.value(&flat));
        if truth.as_ref() != Some(&want) {
            return Err(format!(
                "the reference gives {truth:?}, XLA expects {want:?}"
            ));
        }
        return match got {
            Some(g) if g == want => Ok("results as XLA's".into()),
            other => Err(format!("we give {other:?}, XLA {want:?}")),
        };
    }
    let want = yes_no(want)?;
    let truth = reference
        .constraints
        .iter()
        .all(|(e, iv)| e.eval(&flat).is_some_and(|v| iv.contains(v)));
    if truth != want {
        return Err(format!("the reference says {truth}, XLA expects {want}"));
    }
    match map.constraints_hold(&d, &s) {
        got if got == want => Ok("as XLA's".into()),
        got => Err(format!("we say {got}, XLA {want}")),
    }
}

fn yes_no(text: &str) -> Result<bool, String> {
    match text {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(format!("expected `yes` or `no`, found `{text}`")),
    }
}

/// The exact range of a reference expression over a map's domain, by enumeration; `None` when no
/// point is in the domain.
fn true_range(reference: &RefMap, e: &Node) -> Result<(Option<Interval>, Coverage), String> {
    let mut range: Option<Interval> = None;
    let coverage = for_points(&reference.bounds, ALL_LIMIT, SAMPLE, |p| {
        if reference.holds(p) {
            let v = e.eval(p).ok_or("undefined")?;
            range = Some(range.map_or(Interval::point(v), |r| r.hull(Interval::point(v))));
        }
        Ok(())
    })?;
    Ok((range, coverage))
}

/// Checks one of our ranges: it holds every value (sound) and lies inside XLA's (as strong).
fn check_range(
    ours: Interval,
    truth: Option<Interval>,
    xla: Interval,
    what: &str,
) -> Result<(), String> {
    if let Some(t) = truth
        && !ours.contains_interval(t)
    {
        return Err(format!(
            "unsound range of {what}: ours {ours}, values reach {t}"
        ));
    }
    if !xla.contains_interval(ours) {
        return Err(format!(
            "range of {what}: ours {ours} is looser than XLA's {xla}"
        ));
    }
    Ok(())
}

/// `op range`: the range of `expr` over `input`'s domain: `expect [LO, HI]`, or `nonneg yes|no`
/// (whether XLA proves the expression non-negative).
fn range(case: &Case) -> Result<String, String> {
    let input = case.require("input")?;
    let text = case.require("expr")?;
    let map = our_input(case, input)?;
    let reference = reference_input(case, input)?;
    let truth_expr = ref_expr(text, &reference.names)?;
    let (truth, coverage) = true_range(&reference, &truth_expr)?;
    check_points(case, coverage)?;
    let got = map.expr_range(&expr_in(&map, text)?);
    if let Some(nonneg) = case.get("nonneg") {
        let nonneg = yes_no(nonneg)?;
        let truly = truth.is_none_or(|t| t.lo >= 0);
        if nonneg && !truly {
            return Err(format!(
                "XLA proves it non-negative, but it reaches {truth:?}"
            ));
        }
        if (got.lo >= 0) != nonneg {
            return Err(format!(
                "our range {got}: non-negative is {}, XLA's {nonneg}",
                got.lo >= 0
            ));
        }
        return Ok(format!("range {got} as XLA's ({coverage})"));
    }
    let xla = interval(case.require("expect")?)?;
    check_range(got, truth, xla, text)?;
    Ok(format!(
        "range {got}, sound and within XLA's {xla} ({coverage})"
    ))
}

/// `op result-ranges`: the range of every result, `expect [LO, HI] ...`.
fn result_ranges(case: &Case) -> Result<String, String> {
    let input = case.require("input")?;
    let map = our_input(case, input)?;
    let reference = reference_input(case, input)?;
    let xla = intervals(case.require("expect")?)?;
    if xla.len() != map.results().len() {
        return Err(format!(
            "{} results, XLA gives {} ranges",
            map.results().len(),
            xla.len()
        ));
    }
    let mut coverage = Coverage::All(0);
    for (i, (r, x)) in map.results().iter().zip(&xla).enumerate() {
        let (truth, c) = true_range(&reference, &reference.results[i])?;
        coverage = c;
        check_range(map.expr_range(r), truth, *x, &format!("result #{i}"))?;
    }
    check_points(case, coverage)?;
    Ok(format!("result ranges sound and within XLA's ({coverage})"))
}

fn hash_of(x: &impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// Checks that items with the same label are equal with equal hashes, and items with different
/// labels differ.
fn check_classes<T: PartialEq + Hash + std::fmt::Debug>(
    items: &[(String, T)],
) -> Result<String, String> {
    for (la, a) in items {
        for (lb, b) in items {
            let (same, eq) = (la == lb, a == b);
            if same != eq {
                return Err(format!(
                    "{la} {a:?} and {lb} {b:?}: equal is {eq}, XLA says {same}"
                ));
            }
            if eq && hash_of(a) != hash_of(b) {
                return Err(format!("{a:?} and {b:?} are equal with different hashes"));
            }
        }
    }
    Ok(format!("{} items in the classes XLA gives", items.len()))
}

/// `op classes`: `map LABEL TEXT` lines, or `interval LABEL [LO, HI]` lines.
fn classes(case: &Case) -> Result<String, String> {
    let maps = case
        .all("map")
        .map(|v| {
            let (label, text) = v
                .split_once(char::is_whitespace)
                .ok_or("expected `map LABEL TEXT`")?;
            Ok((label.to_string(), ours(text)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let ivs = case
        .all("interval")
        .map(|v| {
            let (label, text) = v
                .split_once(char::is_whitespace)
                .ok_or("expected `interval LABEL [LO, HI]`")?;
            Ok((label.to_string(), interval(text)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if maps.is_empty() == ivs.is_empty() {
        return Err("give either `map` or `interval` lines".into());
    }
    if maps.is_empty() {
        check_classes(&ivs)
    } else {
        check_classes(&maps)
    }
}

/// `op verify`: the map of `results` over dims and symbols of the given sizes (`dims`,
/// `symbols`) verifies (`expect ok`) or fails (`expect error`). With `differs`: ours must verify
/// and every result's variables must exist in the map.
fn verify(case: &Case) -> Result<String, String> {
    let dims = ints(case.get("dims").unwrap_or(""))?;
    let syms = ints(case.get("symbols").unwrap_or(""))?;
    let names: Vec<String> = (0..dims.len()).map(|i| format!("d{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let results = case
        .require("results")?
        .split(';')
        .map(|r| parse_expr(r.trim(), &refs).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let map = IndexingMap::new(
        results,
        Var::from_sizes(&dims),
        Var::from_sizes(&syms),
        Vec::new(),
    );
    let got = map.verify();
    if let Some(why) = departure(case) {
        return match got {
            Ok(()) => Ok(format!("verifies: {map}; we differ on purpose: {why}")),
            Err(e) => Err(format!("fails to verify: {e}")),
        };
    }
    match (case.require("expect")?, got) {
        ("ok", Ok(())) => Ok("verifies, as XLA's".into()),
        ("error", Err(e)) => Ok(format!("fails, as XLA's: {e}")),
        (want, got) => Err(format!("XLA expects {want}, we get {got:?}")),
    }
}

// ---- Expressions ---------------------------------------------------------------------------

/// The variable names of an expression case (`vars`, default `v0 v1 v2`).
fn expr_vars(case: &Case) -> Vec<String> {
    case.get("vars")
        .unwrap_or("v0 v1 v2")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// Our reading of an expression over the case's variables (as dims).
fn our_expr(case: &Case, text: &str) -> Result<Expr, String> {
    let names = expr_vars(case);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    parse_expr(text, &refs).map_err(|e| format!("we cannot read `{text}`: {e}"))
}

/// The grid expressions are compared on: every variable in `[-12, 12]`.
fn grid(n: usize) -> Vec<Interval> {
    vec![Interval::new(-12, 12); n]
}

/// Whether our expression and a reference one agree on the grid.
fn same_on_grid(ours: &Expr, theirs: &Node, n: usize, what: &str) -> Result<Coverage, String> {
    for_points(&grid(n), ALL_LIMIT, SAMPLE, |p| {
        let (a, b) = (ours.eval(p, &[]), theirs.eval(p));
        if a != b {
            return Err(format!(
                "{what}: at {p:?} ours is {a:?}, it should be {b:?}"
            ));
        }
        Ok(())
    })
}

/// `op expr`: our normal form of `input` against XLA's canonical `expect`: equal on the grid to
/// the input (sound) and to XLA's, and no costlier.
fn expr_case(case: &Case) -> Result<Pass, String> {
    let names = expr_vars(case);
    let input = case.require("input")?;
    let e = our_expr(case, input)?;
    let coverage = same_on_grid(&e, &ref_expr(input, &names)?, names.len(), "unsound")?;
    if let Some(why) = departure(case) {
        let want = case.require("expect")?;
        if same_on_grid(&e, &ref_expr(want, &names)?, names.len(), "").is_ok() {
            return Err(format!(
                "says `differs` ({why}), but ours equals XLA's `{want}`"
            ));
        }
        return Ok(Pass::new(
            Verdict::Difference,
            format!("sound on the grid ({coverage}); we differ on purpose: {why}"),
        ));
    }
    let want = case.require("expect")?;
    same_on_grid(
        &e,
        &ref_expr(want, &names)?,
        names.len(),
        "differs from XLA's",
    )?;
    let theirs = our_expr(case, want)?;
    let (our_cost, their_cost) = (e.cost(), theirs.cost());
    let Some(verdict) = Verdict::by_cost(our_cost, their_cost) else {
        return Err(format!(
            "{COSTLIER}: ours `{e:?}` costs {our_cost:?}, XLA's `{want}` {their_cost:?}"
        ));
    };
    Ok(Pass::new(
        verdict,
        format!(
            "`{e:?}`: sound, equal to XLA's, cost {our_cost:?} against {their_cost:?} ({coverage})"
        ),
    ))
}

/// `op multiple-of`: whether `input` is a multiple of `k` for every value of the variables
/// (`expect yes|no`). Yes: our `input mod k` folds to 0 as it is built. No: the reference finds
/// a value on the grid that is not a multiple.
fn multiple_of(case: &Case) -> Result<String, String> {
    let names = expr_vars(case);
    let input = case.require("input")?;
    let k: i64 = case.require("k")?.parse().map_err(|_| "bad `k`")?;
    let e = our_expr(case, input)?;
    let truth = ref_expr(input, &names)?;
    same_on_grid(&e, &truth, names.len(), "unsound")?;
    let folded = e.modulo(k).map_err(|err| err.to_string())?;
    if yes_no(case.require("expect")?)? {
        return match folded.as_constant() {
            Some(0) => Ok(format!("`{input} mod {k}` folds to 0")),
            _ => Err(format!(
                "`{input} mod {k}` stays `{folded:?}`, XLA proves it 0"
            )),
        };
    }
    let witness = for_points(&grid(names.len()), ALL_LIMIT, SAMPLE, |p| {
        match truth.eval(p) {
            Some(v) if v.rem_euclid(k) != 0 => Err(format!("{p:?}")),
            _ => Ok(()),
        }
    });
    match witness {
        Err(p) => Ok(format!("not a multiple at {p}, as XLA says")),
        Ok(_) => Err(format!(
            "XLA says `{input}` is not a multiple of {k}, but it is on the grid"
        )),
    }
}

/// `op divmod`: `input N D`. XLA: a remainder is 0 exactly when `D` divides `N`, positive
/// otherwise, and `floordiv + 1 = ceildiv` when it does not divide. With `differs`, ours is
/// checked against the reference semantics instead.
fn divmod(case: &Case) -> Result<String, String> {
    let nd = ints(case.require("input")?)?;
    let [n, d] = nd[..] else {
        return Err("expected `input N D`".into());
    };
    let c = Expr::constant(n);
    let arith = |r: Result<Expr, xla_indexing_core::ArithError>| {
        r.map_err(|e| e.to_string())?
            .as_constant()
            .ok_or_else(|| "not a constant".to_string())
    };
    let (m, q, cq) = (
        arith(c.modulo(d))?,
        arith(c.floor_div(d))?,
        arith(c.ceil_div(d))?,
    );
    let names: Vec<String> = Vec::new();
    let truth = |op: &str| {
        ref_expr(&format!("{n} {op} ({d})"), &names)
            .ok()
            .and_then(|e| e.eval(&[]))
    };
    let semantics = [
        (m, truth("mod")),
        (q, truth("floordiv")),
        (cq, truth("ceildiv")),
    ];
    if let Some((got, want)) = semantics.iter().find(|(got, want)| Some(*got) != *want) {
        return Err(format!(
            "{n}, {d}: we compute {got}, the reference {want:?}"
        ));
    }
    if let Some(why) = departure(case) {
        let xla_holds = if n % d == 0 { m == 0 } else { m > 0 };
        if xla_holds {
            return Err(format!(
                "says `differs` ({why}), but ours satisfies XLA's expectation"
            ));
        }
        return Ok(format!(
            "mod {m}, floordiv {q}, ceildiv {cq} as the reference; we differ on purpose: {why}"
        ));
    }
    let ok = if n % d == 0 {
        m == 0 && q == cq
    } else {
        m > 0 && q + 1 == cq
    };
    if !ok {
        return Err(format!(
            "{n}, {d}: mod {m}, floordiv {q}, ceildiv {cq} break XLA's expectation"
        ));
    }
    Ok(format!("mod {m}, floordiv {q}, ceildiv {cq}"))
}

/// `op eval-missing`: evaluating `input` without a value for one of its variables (`at`) gives
/// nothing (XLA dies).
fn eval_missing(case: &Case) -> Result<String, String> {
    let e = our_expr(case, case.require("input")?)?;
    let (d, s) = point(case)?;
    match e.eval(&d, &s) {
        None => Ok("no value without every variable".into()),
        Some(v) => Err(format!("we evaluate to {v} with a variable missing")),
    }
}

/// `op used-vars`: the dims and symbols that `input` (expressions separated by `;`, over
/// `(d0, d1)[s0, s1]`) uses: `expect DIMS | SYMBOLS`.
fn used_vars(case: &Case) -> Result<String, String> {
    let input = case.require("input")?;
    let text = format!(
        "(d0, d1)[s0, s1] -> ({}), domain: d0 in [0, 9], d1 in [0, 9], s0 in [0, 9], s1 in [0, 9]",
        input.replace(';', ",")
    );
    let map = IndexingMap::parse(&text).map_err(|e| format!("we cannot read `{input}`: {e}"))?;
    let mut dims = Vec::new();
    let mut syms = Vec::new();
    for r in map.results() {
        for v in r.distinct_vars() {
            match v {
                xla_indexing_core::VarRef::Dim(i) => dims.push(i64::from(i)),
                xla_indexing_core::VarRef::Sym(i) => syms.push(i64::from(i)),
            }
        }
    }
    dims.sort_unstable();
    dims.dedup();
    syms.sort_unstable();
    syms.dedup();
    let want = case.require("expect")?;
    let (wd, ws) = want.split_once('|').unwrap_or((want, ""));
    if (ints(wd)?, ints(ws)?) != (dims.clone(), syms.clone()) {
        return Err(format!(
            "we find dims {dims:?} and symbols {syms:?}, XLA {want}"
        ));
    }
    Ok("the variables XLA finds".into())
}

/// `op eval-expr`: the value of `input` at `at` (one value per variable of `vars`) is XLA's
/// `expect`, as the reference computes it too.
fn eval_expr(case: &Case) -> Result<String, String> {
    let names = expr_vars(case);
    let input = case.require("input")?;
    let at = ints(case.require("at")?)?;
    let want: i64 = case
        .require("expect")?
        .parse()
        .map_err(|_| "bad `expect`")?;
    let truth = ref_expr(input, &names)?.eval(&at);
    if truth != Some(want) {
        return Err(format!("the reference gives {truth:?}, XLA expects {want}"));
    }
    match our_expr(case, input)?.eval(&at, &[]) {
        Some(v) if v == want => Ok(format!("{want} at {at:?}, as XLA's")),
        other => Err(format!("we give {other:?} at {at:?}, XLA {want}")),
    }
}

/// `op replace`: `input` with every `replace FROM => TO` applied at once (XLA's `Replace`,
/// `ReplaceDims`, `ReplaceSymbols` and `ReplaceVariables`, all over the names of `vars`) is
/// XLA's `expect`: the same normal form, and equal on the grid. With `differs`, ours is checked
/// against the reference semantics of the replacements instead (the reason says how XLA's
/// differs).
fn replace(case: &Case) -> Result<Pass, String> {
    let names = expr_vars(case);
    let e = our_expr(case, case.require("input")?)?;
    let pairs = case
        .all("replace")
        .map(|r| {
            let (from, to) = r
                .split_once("=>")
                .ok_or_else(|| format!("expected `replace FROM => TO`, found `{r}`"))?;
            Ok((our_expr(case, from.trim())?, our_expr(case, to.trim())?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let replaced = e.replace(&pairs).map_err(|err| err.to_string())?;
    let want = case.require("expect")?;
    let same = same_on_grid(&replaced, &ref_expr(want, &names)?, names.len(), "");
    if let Some(why) = departure(case) {
        if same.is_ok() {
            return Err(format!(
                "says `differs` ({why}), but ours equals XLA's `{want}`"
            ));
        }
        return Ok(Pass::new(
            Verdict::Difference,
            format!("`{replaced:?}`; we differ on purpose: {why}"),
        ));
    }
    let coverage = same?;
    let theirs = our_expr(case, want)?;
    if replaced != theirs {
        return Err(format!(
            "we give `{replaced:?}`, XLA `{want}` (`{theirs:?}`)"
        ));
    }
    Ok(Pass::new(
        Verdict::Same,
        format!("`{replaced:?}` as XLA's ({coverage})"),
    ))
}

/// `op print-expr`: `input` printed with the names `vars` reads back as XLA's printed `expect`.
fn print_expr(case: &Case) -> Result<String, String> {
    let e = our_expr(case, case.require("input")?)?;
    let want = case.require("expect")?;
    let theirs = our_expr(case, want)?;
    if e != theirs {
        return Err(format!(
            "we read XLA's `{want}` as `{theirs:?}`, not `{e:?}`"
        ));
    }
    let names = expr_vars(case);
    let printed = e
        .display(&xla_indexing_core::print::Names {
            dims: &names,
            syms: &[],
        })
        .to_string();
    if our_expr(case, &printed)? != e {
        return Err(format!("our print `{printed}` does not read back"));
    }
    Ok(format!("prints `{printed}`, which reads as XLA's `{want}`"))
}

/// `op expr-classes`: `expr LABEL TEXT` lines; equal labels are equal expressions with equal
/// hashes. With `differs`, the labels are ours (the reason gives XLA's).
fn expr_classes(case: &Case) -> Result<String, String> {
    let items = case
        .all("expr")
        .map(|v| {
            let (label, text) = v
                .split_once(char::is_whitespace)
                .ok_or("expected `expr LABEL TEXT`")?;
            Ok((label.to_string(), our_expr(case, text)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let note = check_classes(&items)?;
    match departure(case) {
        Some(why) => Ok(format!("{note}; we differ on purpose: {why}")),
        None => Ok(note),
    }
}
