//! Architecture invariant: the modules of a crate do not import each other in a loop.
//!
//! Each file of a crate's `src/` is a module, and it depends on the modules whose paths it
//! names (see `support/rust_paths.rs`). A module and its own submodules are one unit: a parent
//! declares, re-exports and dispatches to its children, and a child may use what its parent
//! declares, so a dependency between a module and one of its ancestors is not an edge. Every
//! other dependency is an edge between the two siblings under their deepest common ancestor
//! (`simplify::values` naming `ranges::Ranges` is `simplify -> ranges`), and the siblings of
//! each module must depend on each other without a loop. A loop means that neither side can be
//! read, tested or moved without the other; the piece both need goes into a module of its own.

#[path = "support/rust_paths.rs"]
mod rust_paths;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use rust_paths::named_paths;

/// The crates whose modules still form loops, and one loop of each: checked too, so that the
/// entry goes once the loop is broken.
const LOOPS_NOT_YET_BROKEN: &[(&str, &[&str])] = &[
    ("hlo", &["attrs", "parser"]),
    ("translate", &["op_table::convert", "op_table::literal"]),
    ("xla-check", &["interp::arith", "interp::table"]),
    ("stablehlo-text", &["convert", "ops"]),
];

/// A module's path in its crate (`["simplify", "values"]`; the crate root is empty).
type ModPath = Vec<String>;

/// A crate's modules and the edges between siblings, each with a path that makes it.
struct ModuleGraph {
    files: BTreeMap<ModPath, PathBuf>,
    edges: BTreeMap<ModPath, BTreeMap<ModPath, String>>,
}

impl ModuleGraph {
    /// The graph of the modules whose path and text are `sources`.
    fn new(sources: &[(ModPath, PathBuf, String)]) -> ModuleGraph {
        let files: BTreeMap<ModPath, PathBuf> = sources
            .iter()
            .map(|(m, file, _)| (m.clone(), file.clone()))
            .collect();
        let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, String>> = BTreeMap::new();
        for (module, _, code) in sources {
            let children: Vec<String> = files
                .keys()
                .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
                .map(|m| m[module.len()].clone())
                .collect();
            for path in named_paths(code, &children) {
                let Some(target) = resolve(module, &path, &children, &files) else {
                    continue;
                };
                if let Some((from, to)) = sibling_edge(module, &target) {
                    let entry = edges.entry(from).or_default();
                    entry.entry(to).or_insert_with(|| {
                        format!("{} names `{}`", files[module].display(), path.join("::"))
                    });
                }
            }
        }
        ModuleGraph { files, edges }
    }

    /// The graph of the crate in `dir` (its `src/`, without `tests.rs` files, which are
    /// `#[cfg(test)]` modules).
    fn of_crate(dir: &Path) -> ModuleGraph {
        let src = dir.join("src");
        let mut sources = Vec::new();
        for file in rust_files(&src) {
            let relative = file.strip_prefix(&src).expect("under src");
            let mut module: ModPath = relative
                .with_extension("")
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|l| l == "tests") {
                continue;
            }
            if module
                .last()
                .is_some_and(|l| ["lib", "main", "mod"].contains(&l.as_str()))
            {
                module.pop();
            }
            let text = fs::read_to_string(&file).expect("readable source");
            sources.push((module, relative.to_path_buf(), text));
        }
        ModuleGraph::new(&sources)
    }

    /// The loops: every set of two or more modules that reach each other (Tarjan's strongly
    /// connected components), each with the edges inside it.
    fn loops(&self) -> Vec<Vec<(ModPath, ModPath, String)>> {
        let mut tarjan = Tarjan::default();
        for module in self.files.keys() {
            if !tarjan.index.contains_key(module) {
                tarjan.visit(module, &self.edges);
            }
        }
        tarjan
            .components
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|component| {
                let inside: BTreeSet<&ModPath> = component.iter().collect();
                let mut edges = Vec::new();
                for from in &component {
                    for (to, why) in self.edges.get(from).into_iter().flatten() {
                        if inside.contains(to) {
                            edges.push((from.clone(), to.clone(), why.clone()));
                        }
                    }
                }
                edges.sort();
                edges
            })
            .collect()
    }
}

/// Tarjan's algorithm over the sibling edges.
#[derive(Default)]
struct Tarjan {
    index: BTreeMap<ModPath, usize>,
    low: BTreeMap<ModPath, usize>,
    stack: Vec<ModPath>,
    on_stack: BTreeSet<ModPath>,
    components: Vec<Vec<ModPath>>,
}

impl Tarjan {
    fn visit(&mut self, v: &ModPath, edges: &BTreeMap<ModPath, BTreeMap<ModPath, String>>) {
        let n = self.index.len();
        self.index.insert(v.clone(), n);
        self.low.insert(v.clone(), n);
        self.stack.push(v.clone());
        self.on_stack.insert(v.clone());
        for w in edges.get(v).into_iter().flat_map(BTreeMap::keys) {
            if !self.index.contains_key(w) {
                self.visit(w, edges);
                let low = self.low[v].min(self.low[w]);
                self.low.insert(v.clone(), low);
            } else if self.on_stack.contains(w) {
                let low = self.low[v].min(self.index[w]);
                self.low.insert(v.clone(), low);
            }
        }
        if self.low[v] == self.index[v] {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack.remove(&w);
                let done = &w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            component.sort();
            self.components.push(component);
        }
    }
}

/// The module that `path`, named in `module`, refers to: the longest prefix of its segments
/// that is a module; `None` for paths outside the crate.
fn resolve(
    module: &ModPath,
    path: &[String],
    children: &[String],
    files: &BTreeMap<ModPath, PathBuf>,
) -> Option<ModPath> {
    let (mut full, rest) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("self") => (module.clone(), &path[1..]),
        Some("super") => {
            let supers = path.iter().take_while(|s| *s == "super").count();
            let base = module[..module.len().checked_sub(supers)?].to_vec();
            (base, &path[supers..])
        }
        Some(first) if children.iter().any(|c| c == first) => (module.clone(), path),
        _ => return None,
    };
    full.extend(rest.iter().filter(|s| *s != "self").cloned());
    (0..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|prefix| files.contains_key(prefix))
}

/// The edge between the siblings under the deepest common ancestor of `from` and `to`; `None`
/// when one of them is the other or its ancestor.
fn sibling_edge(from: &ModPath, to: &ModPath) -> Option<(ModPath, ModPath)> {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    (common < from.len() && common < to.len())
        .then(|| (from[..=common].to_vec(), to[..=common].to_vec()))
}

/// The `.rs` files under `dir`, in order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("readable directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// `a::b` for a module path, `crate` for the root.
fn name(module: &ModPath) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

/// The crate directories of the workspace.
fn crate_dirs() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&crates)
        .expect("crates/")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn no_modules_of_a_crate_import_each_other_in_a_loop() {
    let mut report = String::new();
    for dir in crate_dirs() {
        let krate = dir.file_name().unwrap().to_string_lossy().into_owned();
        let loops = ModuleGraph::of_crate(&dir).loops();
        if let Some((_, known)) = LOOPS_NOT_YET_BROKEN.iter().find(|(c, _)| *c == krate) {
            let known: Vec<String> = known.iter().map(|m| m.to_string()).collect();
            let still = loops.iter().any(|edges| {
                known
                    .iter()
                    .all(|k| edges.iter().any(|(from, _, _)| &name(from) == k))
            });
            if !still {
                report.push_str(&format!(
                    "{krate}: the loop through {known:?} is broken; drop it from LOOPS_NOT_YET_BROKEN\n"
                ));
            }
            continue;
        }
        for edges in loops {
            report.push_str(&format!("{krate}: modules in a loop:\n"));
            for (from, to, why) in edges {
                report.push_str(&format!("  {} -> {}: {why}\n", name(&from), name(&to)));
            }
        }
    }
    assert!(report.is_empty(), "{report}");
}

/// One module of a made-up crate: its path, file and text.
fn source(module: &[&str], text: &str) -> (ModPath, PathBuf, String) {
    let module: ModPath = module.iter().map(|s| s.to_string()).collect();
    let file = PathBuf::from(format!("{}.rs", name(&module)));
    (module, file, text.to_string())
}

#[test]
fn the_scan_finds_loops_through_use_trees_and_spelled_paths() {
    // `a` imports `b`, `b` calls into `c::d`, `c::d` names `a` from two levels down: a loop of
    // the siblings `a`, `b` and `c`, whatever comments, strings and tests say.
    let graph = ModuleGraph::new(&[
        source(&[], "mod a;\nmod b;\nmod c;\npub use a::A;\n"),
        source(
            &["a"],
            "use crate::{b::{self, B}, x as y};\npub struct A;\n",
        ),
        source(&["b"], "pub fn f() { crate::c::d::g() }\n// super::a::A\n"),
        source(&["c"], "mod d;\n"),
        source(
            &["c", "d"],
            "pub fn g() { let _ = \"crate::b\"; let _ = super::super::a::A; }\n",
        ),
        source(
            &["e"],
            "use super::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n}\n",
        ),
    ]);
    let loops: Vec<Vec<(String, String)>> = graph
        .loops()
        .into_iter()
        .map(|edges| {
            edges
                .into_iter()
                .map(|(from, to, _)| (name(&from), name(&to)))
                .collect()
        })
        .collect();
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        loops,
        [vec![pair("a", "b"), pair("b", "c"), pair("c", "a")]]
    );
    assert_eq!(
        graph.edges[&vec!["e".to_string()]]
            .keys()
            .collect::<Vec<_>>(),
        [&vec!["a".to_string()]],
        "the test module's import is not an edge"
    );
}
