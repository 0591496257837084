//! The table of `xla-check bench`: per kernel and per group of emitters, XLA's figures beside
//! ours; the figures as JSON; the verdict.
//!
//! The table groups the kernels of XLA's loop-family emitters (loop, concatenate, scatter,
//! dynamic-update-slice) and those of the tiled emitter. For a tiled kernel the index ops are
//! counted at two levels: XLA's last stage is its vector code, unrolled per tile, ours is still
//! a loop over tiles (`xtile` ops), which `xla-indexing-lower-xtile` then takes to vectors and
//! upstream's passes to LLVM, where both sides are counted alike.
//! The run fails when our pipeline fails on a kernel, when a check finds a difference, or when
//! the loop family's acceptance is not met: never more divisions and remainders than XLA
//! leaves, kernel by kernel, and strictly fewer in total.

use std::{fmt::Write as _, fs, path::Path};

use anyhow::{Context, Result, bail};
use xla_indexing_xla_check::{check::Check, count::Counts, dump};

use super::{OURS, Row};

/// A table group: its title and whether a kernel of an emitter belongs.
type Group = (&'static str, fn(&dump::Emitter) -> bool);

/// The two groups of the table.
const GROUPS: [Group; 2] = [
    ("loop, concatenate, scatter, dynamic-update-slice", |e| {
        !e.is_tiled()
    }),
    ("tiled", dump::Emitter::is_tiled),
];

/// A group's sums.
#[derive(Default)]
struct Totals {
    kernels: usize,
    /// XLA's counts over every kernel.
    xla: Counts,
    /// Kernels our pipeline ran on, and XLA's and our counts over them.
    ran: usize,
    xla_ran: Counts,
    ours: Counts,
    /// Kernels with a division or remainder left: XLA's (of all), ours (of those it ran on).
    with_divisions: (usize, usize),
    /// Divisions and remainders after `opt -O3` over the kernels both sides have figures for,
    /// and how many those are.
    llvm: (usize, usize),
    llvm_kernels: usize,
    /// XLA's after `opt -O3` over every kernel it has figures for, and how many those are.
    llvm_xla: (usize, usize),
    /// XLA's own optimized IR over every kernel the dump has it for, and how many those are.
    shipped: (usize, usize),
    /// Kernels where ours leaves more divisions and remainders than XLA.
    ours_more: usize,
    /// Checks of ours: same, differ, unchecked.
    checks: [usize; 3],
    /// The checker on XLA's own stages: same, differ, unchecked.
    self_checks: [usize; 3],
}

/// The slot of a check's outcome in a `[same, differ, unchecked]` count.
fn slot(check: &Check) -> usize {
    match check {
        Check::Same { .. } => 0,
        Check::Differs(_) => 1,
        Check::Unchecked(_) => 2,
    }
}

impl Totals {
    /// Whether ours ran on every kernel, never leaves more divisions and remainders than XLA,
    /// and leaves strictly fewer in all.
    fn accepted(&self) -> bool {
        self.ran == self.kernels && self.ours_more == 0 && self.ours.divisions < self.xla.divisions
    }

    fn add(&mut self, row: &Row) {
        self.kernels += 1;
        self.xla += row.xla;
        self.with_divisions.0 += usize::from(row.xla.divisions > 0);
        if let Ok(ours) = &row.ours {
            self.ran += 1;
            self.xla_ran += row.xla;
            self.ours += *ours;
            self.with_divisions.1 += usize::from(ours.divisions > 0);
            self.ours_more += usize::from(ours.divisions > row.xla.divisions);
        }
        if let Some(x) = row.llvm.0 {
            self.llvm_xla.0 += x;
            self.llvm_xla.1 += 1;
            if let Some(o) = row.llvm.1 {
                self.llvm.0 += x;
                self.llvm.1 += o;
                self.llvm_kernels += 1;
            }
        }
        if let Some(x) = row.shipped {
            self.shipped.0 += x;
            self.shipped.1 += 1;
        }
        self.checks[slot(&row.check)] += 1;
        if let Some(check) = &row.self_check {
            self.self_checks[slot(check)] += 1;
        }
    }
}

/// Prints the table, writes the JSON, and fails on a failure of ours, a difference or an
/// unmet acceptance.
pub(super) fn report(rows: &[Row], out: &Path) -> Result<()> {
    let groups: Vec<(&str, Vec<&Row>)> = GROUPS
        .iter()
        .map(|(title, belongs)| {
            (
                *title,
                rows.iter().filter(|r| belongs(&r.emitter)).collect(),
            )
        })
        .collect();
    let totals: Vec<Totals> = groups
        .iter()
        .map(|(title, rows)| print_group(title, rows))
        .collect();
    for row in rows {
        if let Some(check @ (Check::Differs(_) | Check::Unchecked(_))) = &row.self_check {
            println!("{}: the checker on XLA's own stages: {check}", row.name);
        }
    }
    let in_table_order: Vec<&Row> = groups
        .iter()
        .flat_map(|(_, rows)| rows.iter().copied())
        .collect();
    write_json(&in_table_order, out)?;
    print_goals(rows, &totals);
    verdict(rows, &totals[0])
}

/// Prints a group's table and summary: its kernels' rows, their totals, the checks.
fn print_group(title: &str, rows: &[&Row]) -> Totals {
    let opt = |v: Option<usize>| v.map_or("-".to_owned(), |v| v.to_string());
    // A sum of ours, when it covers the whole group.
    let whole = |complete: bool, v: usize| if complete { v.to_string() } else { "-".into() };
    println!("\n{title}");
    println!(
        "{:<62} {:<20} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7} {:>7}  check",
        "kernel", "emitter", "div XLA", "ours", "idx XLA", "ours", "O3 XLA", "ours", "shipped"
    );
    let mut sums = Totals::default();
    for row in rows {
        sums.add(row);
        let (div, idx) = match &row.ours {
            Ok(c) => (c.divisions.to_string(), c.index_ops.to_string()),
            Err(_) => ("failed".to_owned(), "failed".to_owned()),
        };
        println!(
            "{:<62} {:<20} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7} {:>7}  {}",
            row.name,
            row.emitter.to_string(),
            row.xla.divisions,
            div,
            row.xla.index_ops,
            idx,
            opt(row.llvm.0),
            opt(row.llvm.1),
            opt(row.shipped),
            row.check
        );
    }
    let ran_all = sums.ran == sums.kernels;
    println!(
        "{:<62} {:<20} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7} {:>7}",
        format!("total ({} kernels)", sums.kernels),
        "",
        sums.xla.divisions,
        whole(ran_all, sums.ours.divisions),
        sums.xla.index_ops,
        whole(ran_all, sums.ours.index_ops),
        sums.llvm_xla.0,
        whole(sums.llvm_kernels == sums.kernels, sums.llvm.1),
        sums.shipped.0,
    );
    // What ships first: LLVM IR after the optimizer, XLA's own beside both through `opt -O3`.
    println!(
        "what ships (divisions and remainders in optimized LLVM IR): XLA's own optimized IR {} on the {} kernels the dump has it for; through opt -O3, on the {} kernels both sides reach: XLA {}, ours {}",
        sums.shipped.0, sums.shipped.1, sums.llvm_kernels, sums.llvm.0, sums.llvm.1
    );
    println!(
        "at the last MLIR stage, divisions and remainders: XLA {} in {} of {} kernels; ours ran on {} kernels, where XLA leaves {} and ours {} (in {} kernels); index ops there: XLA {}, ours {}",
        sums.xla.divisions,
        sums.with_divisions.0,
        sums.kernels,
        sums.ran,
        sums.xla_ran.divisions,
        sums.ours.divisions,
        sums.with_divisions.1,
        sums.xla_ran.index_ops,
        sums.ours.index_ops,
    );
    println!(
        "XLA's LLVM IR through opt -O3: {} on the {} kernels with LLVM IR",
        sums.llvm_xla.0, sums.llvm_xla.1
    );
    let [same, differ, unchecked] = sums.checks;
    println!("checks of ours against XLA's: {same} same, {differ} differ, {unchecked} unchecked");
    let [same, differ, unchecked] = sums.self_checks;
    if same + differ + unchecked > 0 {
        println!(
            "the checker on XLA's own pipeline (before LowerTensorsPass against its last stage): {same} same, {differ} differ, {unchecked} unchecked"
        );
    }
    sums
}

/// Writes the figures of `rows` to `out/xla.json`.
fn write_json(rows: &[&Row], out: &Path) -> Result<()> {
    let rows: Vec<String> = rows.iter().map(|row| json_row(row)).collect();
    let json = format!(
        "{{\"pipeline\": \"{}\", \"kernels\": [\n{}\n]}}\n",
        OURS,
        rows.join(",\n")
    );
    let path = out.join("xla.json");
    fs::write(&path, json).with_context(|| format!("writing {}", path.display()))
}

/// Prints whether each group meets its goal: the loop family's acceptance, the tiled
/// emitter's goal (the same test).
fn print_goals(rows: &[Row], totals: &[Totals]) {
    let goals = [("acceptance (loop family)", false), ("goal (tiled)", true)];
    for ((title, tiled), group) in goals.into_iter().zip(totals) {
        let more: Vec<&str> = rows
            .iter()
            .filter(|r| r.emitter.is_tiled() == tiled)
            .filter(|r| matches!(&r.ours, Ok(o) if o.divisions > r.xla.divisions))
            .map(|r| r.name.as_str())
            .collect();
        println!(
            "{title}: {} (ours ran on {} of {} kernels, {} divisions and remainders against XLA's {} there; kernels where ours leaves more: {})",
            if group.accepted() { "met" } else { "not met" },
            group.ran,
            group.kernels,
            group.ours.divisions,
            group.xla_ran.divisions,
            if more.is_empty() {
                "none".to_owned()
            } else {
                more.join(", ")
            }
        );
    }
}

/// Fails when our pipeline failed on a kernel, when a check found a difference (on ours or
/// on XLA's own stages), or when the loop family (`loop_family`) misses its acceptance.
fn verdict(rows: &[Row], loop_family: &Totals) -> Result<()> {
    let reasons: Vec<String> = rows
        .iter()
        .filter_map(|r| match (&r.ours, &r.check) {
            (Err(e), _) => Some(format!("{}: our pipeline failed: {e}", r.name)),
            (_, Check::Differs(why)) => Some(format!("{}: differs: {why}", r.name)),
            _ => match &r.self_check {
                Some(Check::Differs(why)) => Some(format!(
                    "{}: the checker finds XLA's own stages differ: {why}",
                    r.name
                )),
                _ => None,
            },
        })
        .collect();
    if !reasons.is_empty() {
        let mut listed = String::new();
        for reason in reasons.iter().take(20) {
            let _ = writeln!(listed, "  {reason}");
        }
        bail!(
            "{} kernels failed or differ{}:\n{listed}",
            reasons.len(),
            if reasons.len() > 20 {
                " (the first 20)"
            } else {
                ""
            }
        );
    }
    if !loop_family.accepted() {
        bail!("acceptance not met (loop family)");
    }
    Ok(())
}

/// A row as a JSON object.
fn json_row(row: &Row) -> String {
    let opt = |v: Option<usize>| v.map_or("null".to_owned(), |v| v.to_string());
    let (div, idx) = match &row.ours {
        Ok(c) => (c.divisions.to_string(), c.index_ops.to_string()),
        Err(_) => ("null".to_owned(), "null".to_owned()),
    };
    format!(
        "  {{\"kernel\": \"{}\", \"emitter\": \"{}\", \"divisions\": [{}, {div}], \"index_ops\": [{}, {idx}], \"llvm_divisions\": [{}, {}], \"shipped_divisions\": {}, \"check\": \"{}\"}}",
        row.name,
        row.emitter,
        row.xla.divisions,
        row.xla.index_ops,
        opt(row.llvm.0),
        opt(row.llvm.1),
        opt(row.shipped),
        row.check.to_string().replace(['"', '\\'], "'")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(xla: usize, ours: Option<usize>) -> Row {
        let counts = |divisions| Counts {
            divisions,
            index_ops: 10,
        };
        Row {
            name: "p.k".into(),
            emitter: dump::Emitter::Loop,
            xla: counts(xla),
            ours: ours.map(counts).ok_or_else(|| "failed".to_owned()),
            llvm: (Some(xla), ours),
            shipped: Some(xla),
            check: Check::Same { elements: 1 },
            self_check: None,
        }
    }

    fn totals(rows: &[Row]) -> Totals {
        let mut totals = Totals::default();
        for row in rows {
            totals.add(row);
        }
        totals
    }

    #[test]
    fn acceptance_is_kernel_by_kernel_and_strict_in_total() {
        assert!(totals(&[row(2, Some(1)), row(0, Some(0))]).accepted());
        // Equal in total is not enough.
        assert!(!totals(&[row(2, Some(2)), row(0, Some(0))]).accepted());
        // One kernel with more fails, whatever the total.
        assert!(!totals(&[row(4, Some(1)), row(0, Some(1))]).accepted());
        // A kernel ours does not reach fails.
        assert!(!totals(&[row(4, Some(1)), row(1, None)]).accepted());
    }

    #[test]
    fn totals_keep_both_sides_apart() {
        let t = totals(&[row(4, Some(1)), row(3, None)]);
        assert_eq!((t.kernels, t.ran), (2, 1));
        assert_eq!(
            (t.xla.divisions, t.xla_ran.divisions, t.ours.divisions),
            (7, 4, 1)
        );
        assert_eq!(t.with_divisions, (2, 1));
        assert_eq!((t.llvm, t.llvm_kernels, t.llvm_xla), ((4, 1), 1, (7, 2)));
        // XLA's own optimized IR counts where the dump has it, whatever ours reaches.
        assert_eq!(t.shipped, (7, 2));
    }
}
