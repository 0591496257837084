//! The lanes of an unrolled thread's group while a kernel computes them one by one: which lane
//! is being emitted, where the thread loop's body is, and the vector loads, views and offsets the
//! lanes share (`vector.rs` emits their accesses).

use std::collections::HashMap;

use xla_indexing_core::IndexingMap;

/// The lanes of a thread's group while the kernel computes them one by one.
#[derive(Debug)]
pub struct Lanes {
    /// The kernel's thread-id map: where the plan's proofs hold.
    pub(crate) thread_map: IndexingMap,
    /// Elements per thread.
    pub(crate) unroll: u64,
    /// Per lane, the `index` constant that stands for `unroll_id`.
    pub(crate) names: Vec<String>,
    /// The lane being emitted.
    pub(crate) lane: usize,
    /// How many regions deep the thread loop's body is.
    pub(crate) regions: usize,
    /// How many of the emitter's scopes are open in the thread loop's body.
    pub(crate) scopes: usize,
    /// Whether accesses the plan proves are vector loads and stores (else every lane's are
    /// scalar).
    pub(crate) vectors: bool,
    /// Per buffer, its one-dimensional view: SSA name and memref type.
    pub(crate) views: HashMap<String, (String, String)>,
    /// The vector loads made so far: (buffer, map, group) to the vector's SSA name.
    pub(crate) loads: HashMap<(String, String, u64), String>,
    /// The scalar reads' offsets computed so far: (buffer, map) to one offset per lane.
    pub(crate) offsets: HashMap<(String, String), Vec<String>>,
}

impl Lanes {
    /// The lanes of a kernel with `thread_map` and `unroll` elements per thread; `names` are the
    /// lanes' `index` constants, `(regions, scopes)` the depth of the thread loop's body in
    /// regions and in the emitter's scopes.
    pub fn new(
        thread_map: IndexingMap,
        unroll: u64,
        names: Vec<String>,
        (regions, scopes): (usize, usize),
    ) -> Lanes {
        Lanes {
            thread_map,
            unroll,
            names,
            lane: 0,
            regions,
            scopes,
            vectors: true,
            views: HashMap::new(),
            loads: HashMap::new(),
            offsets: HashMap::new(),
        }
    }

    /// The same lanes with scalar accesses only (each lane's own `memref.load` and store).
    pub fn scalar(mut self) -> Lanes {
        self.vectors = false;
        self
    }
}
