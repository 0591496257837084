//! Names made unique in one scope, for writing HLO instructions into another IR (SSA names,
//! PTX symbols, computation names).

use std::collections::{HashMap, HashSet};

/// Names unique in one scope: a name asked for again gets the first numeric suffix not given
/// to it yet (`add`, `add.1`, `add.2`, ...). Each base name keeps its next suffix, so that `n`
/// names made from one base take time linear in `n`, not quadratic (a chain of thousands of
/// negates names as many `negate`s).
#[derive(Debug, Default)]
pub struct UniqueNames {
    taken: HashSet<String>,
    /// Per base name, the next suffix to try: those below it are taken (names are never given
    /// back).
    next: HashMap<String, usize>,
}

impl UniqueNames {
    /// `base` when it is free, else `base`, `separator` and the first suffix that is; the name
    /// is taken from now on.
    pub fn fresh(&mut self, base: String, separator: char) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        let next = self.next.entry(base.clone()).or_insert(1);
        loop {
            let name = format!("{base}{separator}{next}");
            *next += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }

    /// Takes `name` as it is (a name made elsewhere), so that [`UniqueNames::fresh`] does not
    /// give it.
    pub fn take(&mut self, name: String) {
        self.taken.insert(name);
    }
}
