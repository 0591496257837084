// Bad sizes and bad thread-id maps of #xla_indexing.launch are located errors, never crashes.

// RUN: mlir-opt %s %plugins --split-input-file --verify-diagnostics

// expected-error @+1 {{launch block must have 3 sizes (x, y, z), got 2}}
#l = #xla_indexing.launch<block = [128, 1], grid = [8, 1, 1], map = "(a, b, c, d, e, f) -> (a), domain: a in [0, 127], b in [0, 0], c in [0, 0], d in [0, 7], e in [0, 0], f in [0, 0]">
func.func private @two_block_sizes() attributes {l = #l}

// -----

// expected-error @+1 {{launch grid size along z must be positive, got 0}}
#l = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 0], map = "(a, b, c, d, e, f) -> (a), domain: a in [0, 127], b in [0, 0], c in [0, 0], d in [0, 7], e in [0, 0], f in [0, 0]">
func.func private @zero_grid() attributes {l = #l}

// -----

// expected-error @+1 {{launch block size along x must be positive, got -4}}
#l = #xla_indexing.launch<block = [-4, 1, 1], grid = [8, 1, 1], map = "(a, b, c, d, e, f) -> (a), domain: a in [0, 127], b in [0, 0], c in [0, 0], d in [0, 7], e in [0, 0], f in [0, 0]">
func.func private @negative_block() attributes {l = #l}

// -----

// expected-error @+1 {{launch map must have 6 dims (th_x, th_y, th_z, bl_x, bl_y, bl_z), got 2}}
#l = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, bl_x) -> (th_x), domain: th_x in [0, 127], bl_x in [0, 7]">
func.func private @two_dims() attributes {l = #l}

// -----

// expected-error @+1 {{invalid indexing map at column 28: unknown variable 'g'}}
#l = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(a, b, c, d, e, f) -> (a * g), domain: a in [0, 127], b in [0, 0], c in [0, 0], d in [0, 7], e in [0, 0], f in [0, 0]">
func.func private @unknown_variable() attributes {l = #l}

// -----

// expected-error @+1 {{expected '['}}
#l = #xla_indexing.launch<block = 128, grid = [8, 1, 1], map = "(a, b, c, d, e, f) -> (a), domain: a in [0, 127], b in [0, 0], c in [0, 0], d in [0, 7], e in [0, 0], f in [0, 0]">
func.func private @scalar_block() attributes {l = #l}

// -----

// expected-error @+1 {{expected 'grid'}}
#l = #xla_indexing.launch<block = [128, 1, 1], map = "(a, b, c, d, e, f) -> (a), domain: a in [0, 127], b in [0, 0], c in [0, 0], d in [0, 7], e in [0, 0], f in [0, 0]">
func.func private @missing_grid() attributes {l = #l}

// -----

// expected-error @+1 {{expected string}}
#l = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = 3>
func.func private @map_not_a_string() attributes {l = #l}
