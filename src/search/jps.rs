//! The search engine behind [`Algorithm::Jps`]: 3D jump point search over the 26-neighbour grid (Harabor & Grastien's JPS carried to 3D as in Nobes,
//! Harabor et al., "The JPS pathfinding system in 3D", SoCS 2022), for any diagonal rule.
//!
//! The pruning rule is [`Canon`]: after entering a voxel by move `d`, only its natural moves
//! and the moves an obstacle forces survive. Expanding a node *sweeps* the canonical subtree
//! of each surviving move: a diagonal line, from each of its steps the lines of its natural
//! sub-moves, down to straight lines. Every voxel a sweep reaches is recorded with its cost and
//! the move it came by; a voxel already reached more cheaply, or as cheaply by the same move,
//! ends that branch. Such a branch carries a path that is not optimal to that voxel (or one
//! another branch carries on identically), so no optimal path is lost, and each voxel is swept
//! about once per cost improvement instead of once per overlapping subtree. Only voxels with a
//! forced move, the goal, and voxels beyond the bound enter the open list. A voxel reached from
//! several directions at the same cost keeps those whose moves change the fewest axes: an
//! arrival by a move of more axes than one already known is not the smallest optimal path's
//! ([`AT_MOST_AXES`] says why), and its branch ends there. Where jumping cannot be used (media
//! with prices, cost models with ties) [`Algorithm::Jps`] runs the A* of [`astar`](super::astar)
//! instead (with prices, pruned by [`Canon`] where the price around a voxel is one); the two
//! share their open list ([`OpenList`]) and node store ([`NodeStore`], here
//! with 16-byte records in 2^3 pages).
//!
//! Sweeps stop where `f` exceeds the current minimum (the open list's key): they cover the
//! search's current `f` level and no further, and at most [`SWEEP_BUDGET`] voxels per
//! expansion, after which the unswept rest waits in the open list. A diagonal runs its own line
//! first and then sweeps the sub-moves of its steps from the far end back, moves toward the
//! goal first, so that an unobstructed goal is reached early; reached at the current `f`, it is
//! optimal and ends the sweep. Straight lines read per-chunk event masks (blocked voxels and
//! obstacle-edge candidates per scan direction, [`ScanCache`]), 16 voxels per load; only
//! candidates read their neighbourhood.
//!
//! Why the sweeps and not classic jumps: on the hard problems of the Warframe maps, about a
//! third to three quarters of the voxels A* expands lie on paths within half a voxel of the
//! optimum (measured with two full Dijkstra searches on A5 problems 1 and 1000), so no
//! admissible heuristic short of the exact distance prunes them, and classic jumps re-scanned
//! the same open space from every jump point (500 million voxels for a 5-million-voxel region
//! on A5 problem 1000, against 10 million for the sweeps).
//!
//! [`Algorithm::Jps`]: crate::Algorithm::Jps

use glam::IVec3;

use crate::error::PathError;
use crate::grid::moves::{MOVES, OFFSETS, REQUIRED, axes};
use crate::grid::pass::Pass;
use crate::grid::scan::{LATERAL, ScanCache};
use crate::grid::world::VoxelWorld;
use crate::search::canonical::{Canon, CanonFor, START, falling_edge, hold};
use crate::search::config::{DiagonalRule, SearchConfig};
use crate::search::memory::{EXPANSION_MARGIN, fit_room};
use crate::search::nodes::{NodeStore, Paged};
use crate::search::open_list::OpenList;
use crate::search::path::{Path, SearchStats};

/// Node pages of 2^3 voxels: a sweep's long lines touch many pages and use few voxels of
/// each, so a page is small (128 bytes of 16-byte records, where an 8^3 page would be 8 KB
/// and a 16^3 chunk page 64 KB); each is cleared when handed out. Chosen on the tuning half
/// of the Warframe maps (docs/benchmarks.md): of 8^3, 4^3 and 2^3 pages, the smaller the page
/// the less memory a query held, and the less time it took (less to clear).
const PAGE_SHIFT: i32 = 1;
/// Voxels one expansion may sweep before the rest of its sweep waits in the open list: keeps
/// an expansion on an `f` plateau short, so ties are broken depth first as in A*.
const SWEEP_BUDGET: usize = 4096;

/// Bits 0-25 of [`Cell::swept`]: moves.
const MOVE_BITS: u32 = (1 << MOVES) - 1;
/// [`Cell::swept`] holds the move that reached the voxel at cost `g` from this bit on.
const IN_SHIFT: u32 = 27;
/// The incoming move of the start.
const NO_MOVE: u32 = 31;

/// The search state of one voxel (16 bytes).
#[derive(Debug, Clone, Copy)]
struct Cell {
    /// Best known cost; `u64::MAX`: untouched.
    g: u64,
    /// Incoming directions (bit `d`, or [`START`]) waiting to be expanded at cost `g`.
    pending: u32,
    /// Moves whose subtrees from this voxel at cost `g` are swept (or being swept), bits 0-25.
    /// A branch passing through at `g` sweeps only the natural moves that are neither swept
    /// nor natural moves of a pending direction (whose expansion will sweep them). From bit
    /// [`IN_SHIFT`] on, a move of fewest axes that reached the voxel at `g`: the
    /// voxel it came from is known at a cost at most `g` minus that move's cost, so following
    /// these moves back from the goal retraces an optimal path.
    swept: u32,
}

impl Default for Cell {
    fn default() -> Self {
        Self { g: u64::MAX, pending: 0, swept: 0 }
    }
}

impl Cell {
    #[inline]
    fn reached(g: u64, pending: u32, swept: u32, m: u32) -> Self {
        Self { g, pending, swept: swept | m << IN_SHIFT }
    }

    #[inline]
    fn in_move(self) -> u32 {
        self.swept >> IN_SHIFT
    }

    /// Another arrival by move `m` at the voxel's cost `g`: whether it may be part of the
    /// smallest optimal path (see [`AT_MOST_AXES`]): not if the move that reached the voxel at
    /// `g` changes fewer axes. If `m` changes fewer, it becomes the voxel's move, and the
    /// pending directions that change more are dropped.
    #[inline]
    fn tie(&mut self, m: usize) -> bool {
        let known = self.in_move() as usize;
        if known >= MOVES {
            return true;
        }
        let (a, k) = (axes(m), axes(known));
        if a > k {
            return false;
        }
        if a < k {
            self.swept = self.swept & !(0x1F << IN_SHIFT) | (m as u32) << IN_SHIFT;
            self.pending &= AT_MOST_AXES[a];
        }
        true
    }
}

/// Per number of axes, the moves that change at most that many (and [`START`]).
///
/// Of two paths of the same cost into a voxel, the one whose last move changes fewer axes is
/// the smaller in an order under which the smallest optimal path survives pruning: by cost,
/// then move by move from the end, fewer axes first. [`Canon`]'s better replacements make a
/// path smaller in it (one move for two is cheaper; two moves for two of the same cost whose
/// first changes more axes have the same axes in all, so the second changes fewer), and a
/// prefix of the smallest path is the smallest path to its end. So an arrival at a voxel's
/// cost by a move of more axes than the voxel's own move is not the smallest optimal path's,
/// and its branch ends there: on plateaus of `f`, where many jump points reach the same voxels
/// at the same cost, this spares most of the sweeps that cross voxels already swept.
const AT_MOST_AXES: [u32; 4] = at_most_axes();

const fn at_most_axes() -> [u32; 4] {
    let mut out = [1 << START; 4];
    let mut a = 1;
    while a <= 3 {
        let mut m = 0;
        while m < MOVES {
            if axes(m) <= a {
                out[a] |= 1 << m;
            }
            m += 1;
        }
        a += 1;
    }
    out
}

/// Node state: [`Cell`]s in pages of 2^3 voxels.
type Nodes = NodeStore<Paged<Cell>, PAGE_SHIFT>;

impl Cell {
    /// Records a sweep through this voxel at cost `g` by move `m`: the natural moves of `m`
    /// whose subtrees are still to sweep from there (none if the voxel is known at a lower
    /// cost, or at `g` with those subtrees already covered: the branch ends).
    #[inline]
    fn visit(&mut self, g: u64, m: usize) -> u32 {
        if g < self.g {
            *self = Cell::reached(g, 0, NATURAL[m], m as u32);
            NATURAL[m]
        } else if g == self.g && self.tie(m) {
            let mut covered = self.swept;
            let mut p = self.pending;
            while p != 0 {
                covered |= NATURAL[p.trailing_zeros() as usize];
                p &= p - 1;
            }
            let todo = NATURAL[m] & !covered;
            self.swept |= todo;
            todo
        } else {
            0
        }
    }
}

/// The natural sub-moves of each diagonal move (the natural moves but itself), larger first.
const fn sub_moves() -> [[u8; 6]; MOVES] {
    let mut out = [[u8::MAX; 6]; MOVES];
    let mut m = 6;
    while m < MOVES {
        let d = OFFSETS[m];
        let mut n = 0;
        // Edges (of a corner) first, then faces.
        let mut want = 2;
        while want >= 1 {
            let mut e = 0;
            while e < MOVES {
                let o = OFFSETS[e];
                let nat = (o.x == 0 || o.x == d.x) && (o.y == 0 || o.y == d.y) && (o.z == 0 || o.z == d.z);
                if nat && e != m && axes(e) == want {
                    out[m][n] = e as u8;
                    n += 1;
                }
                e += 1;
            }
            want -= 1;
        }
        m += 1;
    }
    out
}
const SUB_MOVES: [[u8; 6]; MOVES] = sub_moves();

/// The natural moves of each move (itself and its sub-moves) as a move mask; all moves for
/// [`START`].
const fn natural_moves() -> [u32; MOVES + 1] {
    let mut out = [(1 << MOVES) - 1; MOVES + 1];
    let mut m = 0;
    while m < MOVES {
        out[m] = 1 << m;
        let mut i = 0;
        while i < 6 && SUB_MOVES[m][i] != u8::MAX {
            out[m] |= 1 << SUB_MOVES[m][i];
            i += 1;
        }
        m += 1;
    }
    out
}
const NATURAL: [u32; MOVES + 1] = natural_moves();

/// Everything a sweep reads.
struct Sweeper<'a> {
    cache: &'a mut ScanCache,
    canon: &'a Canon,
    goal: IVec3,
    strict: bool,
    config: SearchConfig,
    /// A sweep stops at (and puts in the open list) the first voxel whose `f` exceeds this:
    /// the search resumes from there only if the open list ever gets that far.
    bound: u64,
}

impl Sweeper<'_> {
    /// Whether `x`, entered by move `m` with neighbourhood `mask`, has a forced move.
    #[inline]
    fn forced(&self, m: usize, mask: u32) -> bool {
        if m < 6 && self.strict && !falling_edge(m, mask) {
            return false;
        }
        self.canon.forced(m, mask) != 0
    }

    /// The 3x3x3 mask of the voxels around `y` blocked for `pass`: for agents with clearance
    /// from the scan cache (which dilated each chunk once), else from the world.
    #[inline]
    fn blocked_mask(&mut self, world: &VoxelWorld, y: IVec3, pass: Pass) -> u32 {
        if pass.radius() > 0 { self.cache.blocked_mask(world, y) } else { world.blocked_mask(y, pass) }
    }

    #[inline]
    fn beyond(&self, g: u64, y: IVec3) -> bool {
        g + self.config.heuristic.estimate_within(self.goal - y, &self.config.costs) > self.bound
    }
}

/// A step of a diagonal line being swept, waiting for its sub-moves.
#[derive(Debug, Clone, Copy)]
struct Step {
    voxel: IVec3,
    slot: u32,
    g: u64,
    /// Its neighbourhood mask.
    mask: u32,
    /// The sub-moves still to sweep from it.
    subs: u32,
}

#[derive(Debug, Clone, Copy, Default)]
struct Query {
    start: IVec3,
    goal: IVec3,
    config: SearchConfig,
    pass: Option<Pass>,
    move_cost: [u64; MOVES],
    done: bool,
}

/// Reusable state of the jump point search.
#[derive(Debug, Default, Clone)]
pub(crate) struct JumpSearch {
    nodes: Nodes,
    open: OpenList,
    stats: SearchStats,
    /// The diagonal rule and cost model of the last search, and their successor tables.
    canon: Option<CanonFor>,
    q: Query,
    /// Size and revision of the world the search began on.
    world: (glam::UVec3, u64),
    /// Steps of the diagonal lines being swept (2-axis, 3-axis).
    steps: [Vec<Step>; 2],
    /// The `f` of the node being expanded.
    fmin: u64,
    /// A sweep reached the goal at `fmin`: the path is optimal, stop sweeping.
    found: bool,
    /// Voxels the current expansion may still sweep.
    left: usize,
    /// [`SWEEP_BUDGET`], lowered by tests to exercise the waiting rest of a sweep.
    sweep_budget: usize,
    /// Work done by the current search: one per expansion and per voxel swept.
    work: u64,
    /// Chunks whose scan events the current search built.
    chunks: usize,
    /// The last path's voxels, goal first ([`Path::retrace`]).
    retraced: Vec<IVec3>,
}

impl JumpSearch {
    /// Holds the successor tables of `config`'s diagonal rule and cost model ([`hold`]).
    pub(crate) fn take_tables(&mut self, config: &SearchConfig) {
        hold(&mut self.canon, config);
    }

    /// Whether it holds the successor tables of `config`'s diagonal rule and cost model.
    #[cfg(test)]
    pub(crate) fn holds_tables(&self, config: &SearchConfig) -> bool {
        crate::search::canonical::holds(self.canon.as_ref(), config)
    }

    /// Starts a search; the endpoints and costs were validated by the caller, and moves cost
    /// the same whatever medium they enter (no [`priced_media`](SearchConfig::priced_media)).
    /// `cache` holds the scan events its sweeps read: the two sides of a race share one, and
    /// a query keeps what the last one read where it can ([`ScanCache::reset`]).
    pub(crate) fn begin(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
        cache: &mut ScanCache,
    ) {
        let pass = config.pass();
        self.take_tables(config);
        let mut move_cost = [0; MOVES];
        for (m, c) in move_cost.iter_mut().enumerate() {
            *c = config.costs.cost(axes(m));
        }
        self.q = Query { start, goal, config: *config, pass: Some(pass), move_cost, done: false };
        self.stats = SearchStats::default();
        self.work = 0;
        self.chunks = 0;
        self.sweep_budget = SWEEP_BUDGET;
        self.world = (world.dims(), world.revision());
        // With a consistent heuristic `f` pops in non-decreasing order.
        self.open.clear(config.heuristic != crate::Heuristic::Manhattan);
        self.nodes.reset(world.dims());
        cache.reset(world, pass);
        let slot = self.nodes.slot(start);
        self.nodes.rec[slot] = Cell::reached(0, 1 << START, 0, NO_MOVE);
        self.fmin = self.f(0, start);
        self.open.push(self.fmin, 0, slot as u32);
        self.stats.generated = 1;
        self.stats.peak_open = 1;
    }

    #[inline]
    fn f(&self, g: u64, v: IVec3) -> u64 {
        g + self.q.config.heuristic.estimate_within(self.q.goal - v, &self.q.config.costs)
    }

    /// Statistics of the current (or last) search.
    pub(crate) fn stats(&self) -> SearchStats {
        SearchStats {
            swept: (self.work - self.stats.expanded as u64) as usize,
            peak_bytes: self.nodes.bytes_in_use() + self.stats.peak_open * self.open.entry_bytes(),
            ..self.stats
        }
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.nodes.heap_bytes() + self.open.heap_bytes() + self.retraced.capacity() * 12
    }

    /// Gives back the memory of its node pages and open list, the search abandoned (a query
    /// that falls back to A* within the whole limit).
    pub(crate) fn release(&mut self) {
        self.q.done = true;
        self.nodes = Nodes::default();
        self.open = OpenList::default();
    }

    /// Gives back the room its node pages and open list keep beside what the current (or
    /// last) search uses.
    pub(crate) fn give_back(&mut self) {
        self.nodes.give_back();
        self.open.give_back();
    }

    /// Chunks whose scan events the current (or last) search built.
    pub(crate) fn chunks_scanned(&self) -> usize {
        self.chunks
    }

    /// Records a path to `y` of cost `g`, entering by move `m`: `y` waits in the open list
    /// for the successors of `m`.
    #[inline]
    fn relax(&mut self, y: IVec3, g: u64, m: usize) {
        let s = self.nodes.slot(y);
        let c = self.nodes.rec[s];
        if g < c.g {
            self.nodes.rec[s] = Cell::reached(g, 1 << m, 0, m as u32);
            let f = self.f(g, y);
            self.open.push(f, g, s as u32);
            self.stats.generated += 1;
        } else if g == c.g && c.pending & 1 << m == 0 && self.nodes.rec[s].tie(m) {
            // Same cost from a new direction (not a larger path, see `Cell::tie`): its
            // successors must be tried too.
            self.nodes.rec[s].pending |= 1 << m;
            if c.pending == 0 {
                let f = self.f(g, y);
                self.open.push(f, g, s as u32);
                self.stats.generated += 1;
            }
        }
    }

    /// Whether the search has ended (found its goal, or failed).
    #[cfg(test)]
    pub(crate) fn finished(&self) -> bool {
        self.q.done
    }

    /// Work done so far: one unit per expansion and per voxel swept (a measure of time that
    /// expansion counts are not: one expansion may sweep thousands of voxels).
    pub(crate) fn work(&self) -> u64 {
        self.work
    }

    /// The `f` of the node expanded last (the start's before the first): a lower bound on the
    /// cost of a path, rising as the search goes (with a consistent heuristic).
    pub(crate) fn level(&self) -> u64 {
        self.fmin
    }

    /// Expands at most `budget` more nodes; see [`Pathfinder::advance`](crate::Pathfinder::advance).
    pub(crate) fn advance(
        &mut self,
        world: &VoxelWorld,
        budget: usize,
        cache: &mut ScanCache,
    ) -> Result<Option<Path>, PathError> {
        self.advance_within(world, budget, u64::MAX, cache)
    }

    /// [`advance`](Self::advance), also stopping (between expansions) once [`work`](Self::work)
    /// reaches `work_limit`.
    pub(crate) fn advance_within(
        &mut self,
        world: &VoxelWorld,
        budget: usize,
        work_limit: u64,
        cache: &mut ScanCache,
    ) -> Result<Option<Path>, PathError> {
        let Some(pass) = self.q.pass.filter(|_| !self.q.done) else {
            return Err(PathError::Unreachable { expanded: 0 });
        };
        if (world.dims(), world.revision()) != self.world {
            self.q.done = true;
            return Err(PathError::WorldChanged);
        }
        let canon = self.canon.take().expect("begun");
        let out = self.run(world, pass, &canon.1, budget, work_limit, cache);
        self.canon = Some(canon);
        if !matches!(out, Ok(None)) {
            self.q.done = true;
        }
        out
    }

    fn run(
        &mut self,
        world: &VoxelWorld,
        pass: Pass,
        canon: &Canon,
        budget: usize,
        work_limit: u64,
        cache: &mut ScanCache,
    ) -> Result<Option<Path>, PathError> {
        let q = self.q;
        let max_expansions = q.config.max_expansions.unwrap_or(usize::MAX);
        let chunks_before = cache.chunks_read;
        let mut sweeper = Sweeper {
            cache,
            canon,
            goal: q.goal,
            strict: q.config.diagonal == DiagonalRule::Strict,
            config: q.config,
            bound: 0,
        };
        let mut left = budget;
        // Each side's room within its half of the limit, less its half of the scan cache's room
        // (the two sides share the cache).
        let room = |cache: &ScanCache| (world.limits().max_search_bytes / 2).saturating_sub(cache.heap_bytes() / 2);
        fit_room(&mut self.nodes, &mut self.open, room(sweeper.cache));
        let mut result = loop {
            let Some((f, slot)) = self.open.peek() else {
                break Err(PathError::Unreachable { expanded: self.stats.expanded });
            };
            let slot = slot as usize;
            let pending = self.nodes.rec[slot].pending;
            let g = self.nodes.rec[slot].g;
            let v = self.nodes.voxel(slot);
            // Stale entries: expanded since, or pushed with a larger `g` (so a larger `f`).
            if pending == 0 || self.f(g, v) != f {
                self.open.pop();
                continue;
            }
            if v == q.goal {
                break Ok(Some(self.build_path(world, slot)));
            }
            if self.stats.expanded >= max_expansions {
                break Err(PathError::BudgetExhausted { expanded: self.stats.expanded });
            }
            if left == 0 || self.work >= work_limit {
                break Ok(None);
            }
            // Memory: what this side uses (not the room its tables kept from earlier searches),
            // plus the most one expansion may add, within its share of the limit (a race's two
            // sides share it).
            let held = self.nodes.bytes_in_use() + self.open.bytes_in_use() + sweeper.cache.bytes_in_use();
            let limit = world.limits().max_search_bytes / 2;
            if held + EXPANSION_MARGIN > limit {
                break Err(PathError::MemoryLimit { needed: held + EXPANSION_MARGIN, limit });
            }
            if self.nodes.grew() || self.open.grew() || self.open.radix_grew() {
                fit_room(&mut self.nodes, &mut self.open, room(sweeper.cache));
            }
            self.open.pop();
            left -= 1;
            self.stats.expanded += 1;
            self.work += 1;
            self.nodes.rec[slot].pending = 0;
            let mask = sweeper.blocked_mask(world, v, pass);
            // Sweeps stop where `f` exceeds the current minimum: they cover the search's
            // current `f` level (its symmetric paths) and no further.
            sweeper.bound = f;
            let mut todo = sweeper.canon.successors_of_any(pending, mask) & !self.nodes.rec[slot].swept & MOVE_BITS;
            self.nodes.rec[slot].swept |= todo;
            self.fmin = f;
            self.found = false;
            self.left = self.sweep_budget;
            self.open.begin_level(f);
            // Moves toward the goal first: a goal in the open ends the sweep early.
            let toward = (q.goal - v).signum();
            let mut order = [(0i32, 0u8); MOVES];
            let mut n = 0;
            while todo != 0 {
                let m = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                order[n] = (-OFFSETS[m].dot(toward), m as u8);
                n += 1;
            }
            order[..n].sort_unstable();
            for &(_, m) in &order[..n] {
                if self.found {
                    break;
                }
                self.sweep(&mut sweeper, world, pass, v, g, m as usize);
            }
            self.open.end_level();
            self.work += (self.sweep_budget - self.left) as u64;
            self.stats.peak_open = self.stats.peak_open.max(self.open.len());
        };
        self.chunks += sweeper.cache.chunks_read - chunks_before;
        if let Ok(Some(path)) = &mut result {
            path.stats = self.stats();
        }
        result
    }

    /// Sweeps the canonical subtree of move `m` from `x` (at cost `g`): every voxel it
    /// reaches is recorded with its cost; a voxel already reached more cheaply (or as cheaply by
    /// the same move) ends the branch; forced voxels, the goal and voxels beyond the bound
    /// enter the open list. A diagonal first runs its own line, then sweeps the sub-moves of
    /// its steps from the far end back, so that a goal in the open reached at the current `f`
    /// is found before the whole subtree is swept (and ends the sweep: it is optimal).
    #[allow(clippy::too_many_arguments)]
    fn sweep(&mut self, j: &mut Sweeper, world: &VoxelWorld, pass: Pass, x: IVec3, g: u64, m: usize) {
        if m < 6 && j.strict {
            self.sweep_straight(j, world, pass, x, g, m);
            return;
        }
        let d = OFFSETS[m];
        let rule = self.q.config.diagonal as usize;
        let req = REQUIRED[rule][m];
        let c = self.q.move_cost[m];
        let bit = 1u32 << m;
        let diagonal = m >= 6;
        let mut steps = if diagonal { std::mem::take(&mut self.steps[axes(m) - 2]) } else { Vec::new() };
        steps.clear();
        let (mut y, mut gy) = (x, g);
        loop {
            y += d;
            gy += c;
            if y == self.q.goal {
                self.relax(y, gy, m);
                if gy <= self.fmin {
                    self.found = true;
                }
                break;
            }
            if j.beyond(gy, y) || self.left == 0 {
                self.relax(y, gy, m);
                break;
            }
            self.left -= 1;
            let mask = j.blocked_mask(world, y, pass);
            if j.forced(m, mask) {
                self.relax(y, gy, m);
                break;
            }
            let s = self.nodes.slot(y);
            let todo = self.nodes.rec[s].visit(gy, m);
            if diagonal && todo & !bit != 0 {
                steps.push(Step { voxel: y, slot: s as u32, g: gy, mask, subs: todo & !bit });
            }
            if todo & bit == 0 || mask & req != 0 {
                break;
            }
        }
        if diagonal {
            let mut done_to = steps.len();
            for (idx, &Step { voxel: y, g: gy, mask, subs, .. }) in steps.iter().enumerate().rev() {
                if self.left == 0 && !self.found {
                    done_to = idx + 1;
                    break;
                }
                for &sm in &SUB_MOVES[m] {
                    if sm == u8::MAX || self.found {
                        break;
                    }
                    if subs & 1 << sm != 0 && mask & REQUIRED[rule][sm as usize] == 0 {
                        self.sweep(j, world, pass, y, gy, sm as usize);
                    }
                }
                done_to = idx;
            }
            for &Step { voxel: y, slot: s, g: gy, subs, .. } in &steps[..if self.found { 0 } else { done_to }] {
                {
                    // Out of sweep budget: `y` waits in the open list for its sub-moves.
                    let s = s as usize;
                    if self.nodes.rec[s].g == gy && self.nodes.rec[s].swept & subs == subs {
                        self.nodes.rec[s].swept &= !subs;
                        if self.nodes.rec[s].pending == 0 {
                            let f = self.f(gy, y);
                            self.open.push(f, gy, s as u32);
                            self.stats.generated += 1;
                        }
                        self.nodes.rec[s].pending |= bit;
                    }
                }
            }
            self.steps[axes(m) - 2] = steps;
        }
    }

    /// [`sweep`](Self::sweep) along a face move under the strict rule: blocked voxels and
    /// obstacle-edge candidates come 16 at a time from the event masks, so only candidates
    /// read their neighbourhood.
    #[allow(clippy::too_many_arguments)]
    fn sweep_straight(&mut self, j: &mut Sweeper, world: &VoxelWorld, pass: Pass, x: IVec3, g: u64, m: usize) {
        let d = OFFSETS[m];
        let axis = if d.x != 0 {
            0
        } else if d.y != 0 {
            1
        } else {
            2
        };
        let c = self.q.move_cost[m];
        // Past the bound from the first voxel on (where the search fills a dip of its
        // estimate, every step raises `f`): that voxel waits in the open list, and no scan
        // events are read. (The goal past the bound is no path at the current `f`.)
        if j.beyond(g + c, x + d) {
            self.relax(x + d, g + c, m);
            return;
        }
        let sign = d[axis];
        let (ua, va) = LATERAL[axis];
        let (u0, v0, t0) = (x[ua], x[va], x[axis]);
        let goal = self.q.goal;
        let goal_k = if goal[ua] == u0 && goal[va] == v0 && (goal[axis] - t0) * sign > 0 {
            (goal[axis] - t0) * sign
        } else {
            i32::MAX
        };
        let mut k = 0; // voxels 1..=k done
        loop {
            let t = t0 + sign * (k + 1);
            let first = if sign > 0 { t & 15 } else { 15 - (t & 15) };
            let events = j.cache.events(world, axis, sign < 0, t >> 4, u0, v0);
            let (centre, cand) = ((events as u16) >> first, (events >> 16) as u16 >> first);
            let n = 16 - first;
            // Voxels k+1 ..= k+free are free; the one after (if in this segment) is blocked.
            let free = (centre.trailing_zeros() as i32).min(n);
            // Past the f bound from `stop` on (f is convex along a line).
            let mut stop = k + free + 1;
            if j.beyond(g + c * (k + free) as u64, x + d * (k + free)) {
                let (mut lo, mut hi) = (k + 1, k + free);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if j.beyond(g + c * mid as u64, x + d * mid) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                stop = lo;
            }
            let stop = stop.min(goal_k);
            for i in 0..free {
                let kk = k + 1 + i;
                let (y, gy) = (x + d * kk, g + c * kk as u64);
                if kk == stop || self.left == 0 {
                    self.relax(y, gy, m);
                    if kk == goal_k && gy <= self.fmin {
                        self.found = true;
                    }
                    return;
                }
                self.left -= 1;
                if cand >> i & 1 != 0 && j.canon.forced(m, j.blocked_mask(world, y, pass)) != 0 {
                    self.relax(y, gy, m);
                    return;
                }
                let s = self.nodes.slot(y);
                if self.nodes.rec[s].visit(gy, m) == 0 {
                    return;
                }
            }
            if free < n {
                return;
            }
            k += free;
        }
    }

    fn build_path(&mut self, world: &VoxelWorld, goal_slot: usize) -> Path {
        let nodes = &self.nodes;
        let path = Path::retrace(world, self.q.goal, nodes.rec[goal_slot].g, self.stats, &mut self.retraced, |v| {
            let slot = nodes.find(v).expect("the voxel a move came from was reached");
            let m = nodes.rec[slot].in_move();
            (m != NO_MOVE).then_some(m as usize)
        });
        debug_assert_eq!(path.voxels.first(), Some(&self.q.start));
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The jump search alone (no prelude, no race): A* and jump point search on one query.
    fn expansions(world: &VoxelWorld, start: IVec3, goal: IVec3, costs: crate::CostModel) -> [usize; 2] {
        let config = SearchConfig { costs, ..Default::default() };
        let (mut jps, mut astar, mut cache) =
            (JumpSearch::default(), <crate::search::astar::AStar>::default(), ScanCache::default());
        astar.begin(world, start, goal, &config, 100, false);
        let a = astar.advance(world, usize::MAX).expect("found").expect("found");
        jps.begin(world, start, goal, &config, &mut cache);
        let j = jps.advance(world, usize::MAX, &mut cache).expect("found").expect("found");
        assert_eq!(j.cost, a.cost);
        [a.stats.expanded, j.stats.expanded]
    }

    #[test]
    fn jump_search_expands_fewer_nodes_than_astar_in_open_space() {
        let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(64, 32, 64)).unwrap();
        let [astar, jps] = expansions(&world, IVec3::new(1, 2, 3), IVec3::new(60, 20, 50), crate::CostModel::GAME);
        assert!(jps < astar, "{jps} vs {astar}");
    }

    /// A Warframe map and its scenario (`VOXNAV_WARFRAME_DIR`, or
    /// `../shared/benchmarks/warframe`): `None` with a notice where they are missing, a failure
    /// in CI (`CI` set).
    fn warframe(map: &str) -> Option<(VoxelWorld, crate::Scenario)> {
        let dir = std::env::var_os("VOXNAV_WARFRAME_DIR").map_or_else(
            || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe"),
            std::path::PathBuf::from,
        );
        let (Ok(world), Ok(scen)) = (
            VoxelWorld::load_3dmap(dir.join(format!("maps/{map}.3dmap"))),
            crate::Scenario::load(dir.join(format!("scenarios/{map}.3dmap.3dscen"))),
        ) else {
            assert!(std::env::var_os("CI").is_none(), "Warframe benchmark not found at {}", dir.display());
            eprintln!("Warframe benchmark not found at {} (set VOXNAV_WARFRAME_DIR): skipped", dir.display());
            return None;
        };
        Some((world, scen))
    }

    /// A5 problem 3000 ends on a wide plateau of equal `f`: the jump search must dive across
    /// it deepest node first, as A* does newest first, instead of widening the plateau from
    /// the start (it once expanded 4,550 nodes there against A*'s 782).
    #[test]
    fn jump_search_dives_across_a_plateau_like_astar() {
        let Some((world, scen)) = warframe("A5") else { return };
        let p = scen.problems[3000];
        let [astar, jps] = expansions(&world, p.start, p.goal, crate::CostModel::PRECISE);
        assert!(jps <= astar, "JPS expanded {jps} nodes, A* {astar}");
    }

    /// On wide plateaus of `f`, jump points reached by forced moves sweep regions that other
    /// sweeps already reached at the same cost; only arrivals by moves of fewest axes go on
    /// ([`Cell::tie`]), so the sweeps cross each voxel about once. Searched from the goal,
    /// EB2 problem 5900 swept 1.23 times the voxels it reached and FB1 problem 4300 1.66
    /// times when every such arrival went on (1.00 and 1.02 now), with the same costs.
    #[test]
    fn sweeps_cross_plateaus_about_once() {
        for (map, index) in [("EB2", 5900), ("FB1", 4300)] {
            let Some((world, scen)) = warframe(map) else { return };
            let p = scen.problems[index];
            let config = SearchConfig { costs: crate::CostModel::PRECISE, ..Default::default() };
            let (mut jps, mut cache) = (JumpSearch::default(), ScanCache::default());
            jps.begin(&world, p.goal, p.start, &config, &mut cache);
            let path = jps.advance(&world, usize::MAX, &mut cache).expect("found").expect("found");
            assert!((path.length - p.optimal_length).abs() <= 1e-6, "{map} {index}: {}", path.length);
            let used = jps.nodes.pages_used() * Nodes::PAGE_VOXELS;
            let reached = (0..used).filter(|&s| jps.nodes.rec[s].g != u64::MAX).count();
            let swept = jps.stats().swept;
            assert!(swept * 10 <= reached * 11, "{map} {index}: swept {swept} voxels, reached {reached}");
        }
    }

    /// Two arrivals at one voxel at the same cost: the one by a move of fewer axes is kept
    /// whichever comes first, the other goes on only if it came first.
    #[test]
    fn ties_keep_the_move_of_fewest_axes() {
        let (face, edge) = (0, 6);
        assert_eq!((axes(face), axes(edge)), (1, 2));
        // The face move first: the edge move's branch ends.
        let mut cell = Cell::default();
        assert_eq!(cell.visit(100, face), NATURAL[face]);
        assert_eq!(cell.visit(100, edge), 0);
        assert_eq!(cell.in_move(), face as u32);
        // The edge move first, waiting in the open list: the face move takes over, the edge
        // direction no longer waits, and the face move's subtree is swept.
        let mut cell = Cell::reached(100, 1 << edge, 0, edge as u32);
        assert_eq!(cell.visit(100, face), NATURAL[face]);
        assert_eq!((cell.in_move(), cell.pending), (face as u32, 0));
        // A cheaper arrival of any move replaces both.
        assert_eq!(cell.visit(90, edge), NATURAL[edge]);
        assert_eq!(cell.in_move(), edge as u32);
    }

    /// With a sweep budget of a few voxels, nearly every sweep leaves its rest waiting in the
    /// open list: the costs must still equal plain A*'s (itself checked against Dijkstra).
    #[test]
    fn sweeps_cut_short_by_the_budget_stay_optimal() {
        let mut rng = crate::grid::seeded::Rng(0x5EED_5EED);
        let (mut jps, mut astar) = (JumpSearch::default(), <crate::search::astar::AStar>::default());
        let mut cache = ScanCache::default();
        let mut compared = 0;
        for world_index in 0..300 {
            let dims = glam::UVec3::new(6 + rng.below(10), 6 + rng.below(8), 6 + rng.below(10));
            let density = 5 + rng.below(30);
            let world = rng.world(dims, density);
            let rule = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][world_index % 3];
            let costs = if world_index % 2 == 0 { crate::CostModel::GAME } else { crate::CostModel::PRECISE };
            let config = SearchConfig { diagonal: rule, costs, ..Default::default() };
            for _ in 0..6 {
                let (start, goal) = (rng.voxel(dims), rng.voxel(dims));
                if world.is_blocked(start) || world.is_blocked(goal) || start == goal {
                    continue;
                }
                jps.begin(&world, start, goal, &config, &mut cache);
                jps.sweep_budget = 1 + world_index % 4;
                astar.begin(&world, start, goal, &config, 100, false);
                let (a, b) = (jps.advance(&world, usize::MAX, &mut cache), astar.advance(&world, usize::MAX));
                match (a, b) {
                    (Ok(Some(a)), Ok(Some(b))) => {
                        assert_eq!(a.cost, b.cost, "world {world_index} {rule:?} {start} -> {goal}");
                        compared += 1;
                    }
                    (Err(PathError::Unreachable { .. }), Err(PathError::Unreachable { .. })) => {}
                    (a, b) => panic!("world {world_index} {start} -> {goal}: {a:?} vs {b:?}"),
                }
            }
        }
        assert!(compared > 500, "compared {compared}");
    }
}
