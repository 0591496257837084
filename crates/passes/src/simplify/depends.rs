//! Which roots each piece of knowledge was found from ([`Depends`]), and, for each root, what
//! was found from it ([`Dependents`]): when a root goes (its value erased or changed), what
//! depended on it is forgotten, in time proportional to that alone.

use std::{collections::HashMap, rc::Rc};

use xla_indexing_core::{Expr, VarRef};

/// Most roots a piece of knowledge records as its sources; beyond, it depends on all of them.
const MAX_DEPENDS: usize = 64;

/// The roots something known was found from: when one of them goes, so does what was found.
#[derive(Clone, Debug)]
pub(super) enum Depends {
    /// These (sorted).
    Roots(Rc<[u32]>),
    /// Too many to list: any root.
    All,
}

impl Depends {
    pub(super) fn on(&self, root: u32) -> bool {
        match self {
            Depends::Roots(roots) => roots.binary_search(&root).is_ok(),
            Depends::All => true,
        }
    }

    /// The union of `parts` and the roots of `exprs`.
    pub(super) fn of<'d>(parts: impl IntoIterator<Item = &'d Depends>, exprs: &[&Expr]) -> Depends {
        let mut roots = Vec::new();
        for part in parts {
            match part {
                Depends::Roots(r) => roots.extend(r.iter().copied()),
                Depends::All => return Depends::All,
            }
        }
        roots.extend(roots_of(exprs.iter().copied()));
        roots.sort_unstable();
        roots.dedup();
        if roots.len() > MAX_DEPENDS {
            Depends::All
        } else {
            Depends::Roots(roots.into())
        }
    }
}

/// What was found from each root, by key (values or blocks): possibly stale, so each entry is
/// checked when a root goes.
#[derive(Default)]
pub(super) struct Dependents {
    by_root: HashMap<u32, Vec<usize>>,
    on_all: Vec<usize>,
}

impl Dependents {
    pub(super) fn add(&mut self, key: usize, depends: &Depends) {
        match depends {
            Depends::Roots(roots) => {
                for root in roots.iter() {
                    self.by_root.entry(*root).or_default().push(key);
                }
            }
            Depends::All => self.on_all.push(key),
        }
    }

    /// The keys that may depend on `root`, forgotten here.
    pub(super) fn take(&mut self, root: u32) -> Vec<usize> {
        let mut keys = self.by_root.remove(&root).unwrap_or_default();
        keys.append(&mut self.on_all);
        keys
    }
}

/// The roots (dimensions) that `exprs` read, sorted, each once.
pub(super) fn roots_of<'e>(exprs: impl IntoIterator<Item = &'e Expr>) -> Vec<u32> {
    let mut roots = Vec::new();
    for x in exprs {
        x.for_each_var(&mut |v| {
            if let VarRef::Dim(i) = v {
                roots.push(i)
            }
        });
    }
    roots.sort_unstable();
    roots.dedup();
    roots
}
