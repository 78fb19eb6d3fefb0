//! The search engine behind [`Algorithm::Jps`] and [`Algorithm::Weighted`]: 3D jump point
//! search over the 26-neighbour grid (Harabor & Grastien's JPS carried to 3D as in Nobes,
//! Harabor et al., "The JPS pathfinding system in 3D", SoCS 2022), for any diagonal rule.
//!
//! The pruning rule is [`Canon`]: after entering a voxel by move `d`, only its natural moves
//! and the moves an obstacle forces survive. A *jump* follows one move from a voxel until it
//! reaches the goal, a voxel with a forced move, or (for a diagonal) a voxel from which one of
//! its natural sub-moves jumps somewhere; only those jump points enter the open list. A voxel
//! reached from several directions at the same cost keeps all of them, so the optimal path of
//! the pruning argument is never lost. The same engine runs plain A* (every legal move, one step
//! at a time) when jumping cannot be used (media weights) or for [`Fallback::Closest`].
//!
//! Jumps stop where `f` exceeds the current minimum (the open list's key): they sweep the
//! search's current `f` level and no further. A diagonal jump expands the steps whose
//! sub-jumps find jump points on the spot (their results enter the open list directly), so a
//! step's sub-jumps run once. Straight jumps read per-chunk event masks (blocked voxels and
//! obstacle-edge candidates per scan direction, [`ScanCache`]): one load per 16 voxels, and
//! runs of chunks with nothing blocked nearby (a distance field over the chunk table, kept per
//! world revision) are crossed in one step.
//!
//! Status (every 500th problem of the 22 Warframe maps, precise costs, side by side with A* in
//! one run): optimal on all 440; 1.9x A*'s speed in total and at p99. The tail problems expand
//! only 2.4-7.5x fewer nodes than A*, and a jump-point expansion costs 2-4x an A* expansion,
//! so pruning symmetric paths alone cannot reach 10x there.
//!
//! [`Algorithm::Jps`]: crate::Algorithm::Jps
//! [`Algorithm::Weighted`]: crate::Algorithm::Weighted
//! [`Fallback::Closest`]: crate::Fallback::Closest

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::IVec3;

use crate::error::PathError;
use crate::grid::moves::{MOVES, OFFSETS, REQUIRED, axes};
use crate::grid::scan::{LATERAL, ScanCache};
use crate::grid::world::{Pass, VoxelWorld};
use crate::search::canonical::{Canon, START};
use crate::search::config::{DiagonalRule, SearchConfig};
use crate::search::nodes::PageTable;
use crate::search::path::{Path, SearchStats, voxel_length};
use crate::search::radix_heap::RadixHeap;

/// Open-list entry: lowest `f`, then highest `g`, then lowest slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Open {
    f: u64,
    g: u64,
    slot: u32,
}

impl Ord for Open {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.cmp(&self.f).then(self.g.cmp(&o.g)).then(o.slot.cmp(&self.slot))
    }
}
impl PartialOrd for Open {
    #[inline]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The open list: a binary heap on `(f, g)` for weighted searches (their keys are not
/// monotone), the monotone radix heap of A* (newest first among equal `f`) for exact ones.
#[derive(Debug, Default, Clone)]
struct OpenList {
    heap: BinaryHeap<Open>,
    radix: RadixHeap,
    monotone: bool,
}

impl OpenList {
    fn clear(&mut self, monotone: bool) {
        self.heap.clear();
        self.radix.clear();
        self.monotone = monotone;
    }

    #[inline]
    fn push(&mut self, f: u64, g: u64, slot: u32) {
        if self.monotone {
            self.radix.push(f, slot);
        } else {
            self.heap.push(Open { f, g, slot });
        }
    }

    /// The next entry's `f` and slot (its `g` is checked by the caller against `f`).
    #[inline]
    fn peek(&mut self) -> Option<(u64, u32)> {
        if self.monotone { self.radix.peek() } else { self.heap.peek().map(|o| (o.f, o.slot)) }
    }

    #[inline]
    fn pop(&mut self) {
        if self.monotone {
            self.radix.pop();
        } else {
            self.heap.pop();
        }
    }

    #[inline]
    fn len(&self) -> usize {
        if self.monotone { self.radix.len() } else { self.heap.len() }
    }

    fn heap_bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<Open>() + self.radix.heap_bytes()
    }
}

const PAGE_SHIFT: i32 = 3;
const PAGE_MASK: i32 = (1 << PAGE_SHIFT) - 1;
const PAGE_VOXELS: usize = 1 << (3 * PAGE_SHIFT);
const NO_PARENT: u32 = u32::MAX;

/// Node state paged by 8^3 blocks of voxels, handed out on first touch; a stamp per block says
/// whether its page belongs to the current search, so a new search starts for free.
#[derive(Debug, Default, Clone)]
struct Nodes {
    pages: PageTable<PAGE_SHIFT>,
    origin: Vec<IVec3>,
    g: Vec<u64>,
    parent: Vec<u32>,
    /// Incoming directions (bit `d`, or [`START`]) waiting to be expanded at cost `g`.
    pending: Vec<u32>,
    /// Incoming directions already expanded at cost `g`. `pending | done == 0`: untouched.
    done: Vec<u32>,
}

impl Nodes {
    fn reset(&mut self, world_dims: IVec3) {
        self.pages.reset(world_dims.as_uvec3());
    }

    #[inline]
    fn slot(&mut self, v: IVec3) -> usize {
        let (page, new) = self.pages.page(v);
        if new {
            self.new_page(page, (v >> PAGE_SHIFT) << PAGE_SHIFT);
        }
        page * PAGE_VOXELS + PageTable::<PAGE_SHIFT>::local(v)
    }

    #[cold]
    fn new_page(&mut self, page: usize, origin: IVec3) {
        let start = page * PAGE_VOXELS;
        if self.pending.len() < start + PAGE_VOXELS {
            let n = start + PAGE_VOXELS;
            self.g.resize(n, 0);
            self.parent.resize(n, NO_PARENT);
            self.pending.resize(n, 0);
            self.done.resize(n, 0);
            self.origin.push(origin);
        } else {
            self.pending[start..start + PAGE_VOXELS].fill(0);
            self.done[start..start + PAGE_VOXELS].fill(0);
            self.origin[page] = origin;
        }
    }

    /// Whether `y` is known at a cost below `g`, or at `g` with direction bit `dir` already
    /// expanded or waiting (without touching any page).
    #[inline]
    fn covers(&self, y: IVec3, g: u64, dir: u32) -> bool {
        let Some(page) = self.pages.find(y) else {
            return false;
        };
        let s = page * PAGE_VOXELS + PageTable::<PAGE_SHIFT>::local(y);
        let dirs = self.pending[s] | self.done[s];
        dirs != 0 && (self.g[s] < g || (self.g[s] == g && dirs & dir != 0))
    }

    #[inline]
    fn voxel(&self, slot: usize) -> IVec3 {
        let l = (slot % PAGE_VOXELS) as i32;
        self.origin[slot / PAGE_VOXELS]
            + IVec3::new(l & PAGE_MASK, (l >> PAGE_SHIFT) & PAGE_MASK, l >> (2 * PAGE_SHIFT))
    }

    fn heap_bytes(&self) -> usize {
        self.pages.heap_bytes() + self.origin.capacity() * 12 + self.g.capacity() * 20
    }
}

/// Per face move: the bits of the neighbourhood plane behind `x` (the parent's side), the bit
/// shift that carries that plane onto `x`'s plane, and `x`'s plane without `x`.
const fn face_planes() -> [(u32, i32, u32); 6] {
    let mut out = [(0, 0, 0); 6];
    let mut m = 0;
    while m < 6 {
        let d = OFFSETS[m];
        let (axis, sign) = if d.x != 0 {
            (0, d.x)
        } else if d.y != 0 {
            (1, d.y)
        } else {
            (2, d.z)
        };
        let stride = [1, 3, 9][axis];
        let (mut behind, mut lateral) = (0u32, 0u32);
        let mut b = 0;
        while b < 27 {
            let c = [b % 3 - 1, (b / 3) % 3 - 1, b / 9 - 1][axis];
            if c == -sign {
                behind |= 1 << b;
            } else if c == 0 && b != 13 {
                lateral |= 1 << b;
            }
            b += 1;
        }
        out[m] = (behind, sign * stride, lateral);
        m += 1;
    }
    out
}
const FACE_PLANES: [(u32, i32, u32); 6] = face_planes();

/// Whether, for face move `m` into a voxel with neighbourhood `mask`, some voxel beside the
/// parent is blocked while the voxel beside `x` in the same direction is free. Under the strict
/// rule no move is forced without such an obstacle edge (tested against the tables), so a
/// straight scan only consults [`Canon::forced`] where this holds.
#[inline]
pub(crate) fn falling_edge(m: usize, mask: u32) -> bool {
    let (behind, shift, lateral) = FACE_PLANES[m];
    let b = mask & behind;
    let moved = if shift > 0 { b << shift } else { b >> -shift };
    moved & !mask & lateral != 0
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

/// Everything a jump reads.
struct Jumper<'a> {
    world: &'a VoxelWorld,
    cache: &'a mut ScanCache,
    pass: Pass,
    canon: &'a Canon,
    goal: IVec3,
    strict: bool,
    /// Voxels stepped over by jumps (a work counter for the statistics).
    scanned: u64,
    config: SearchConfig,
    weight: u64,
    move_cost: [u64; MOVES],
    /// A jump stops at (and returns) the first voxel whose `f` exceeds this: the search
    /// resumes from there only if the open list ever gets that far.
    bound: u64,
}

impl Jumper<'_> {
    /// Whether `x`, entered by move `m` with neighbourhood `mask`, has a forced move.
    #[inline]
    fn forced(&self, m: usize, mask: u32) -> bool {
        if m < 6 && self.strict && !falling_edge(m, mask) {
            return false;
        }
        self.canon.forced(m, mask) != 0
    }

    #[inline]
    fn beyond(&self, g: u64, y: IVec3) -> bool {
        let h = self.config.heuristic.estimate(self.goal - y, &self.config.costs);
        g + if self.weight == 100 { h } else { h * self.weight / 100 } > self.bound
    }

    /// Jumps from `x` (reached at cost `g`) along move `m` (legal at `x`); the number of steps
    /// to the jump point.
    #[inline]
    fn jump(&mut self, x: IVec3, g: u64, m: usize) -> Option<i32> {
        match axes(m) {
            1 => self.straight(x, g, m),
            _ => self.diagonal(x, g, m),
        }
    }

    /// Straight jump by bit rows, 16 voxels at a time (strict rule): candidates are the
    /// voxels past an obstacle edge ([`falling_edge`]), confirmed with [`Canon::forced`].
    fn straight(&mut self, x: IVec3, g: u64, m: usize) -> Option<i32> {
        if !self.strict {
            return self.straight_slow(x, g, m);
        }
        let d = OFFSETS[m];
        let axis = if d.x != 0 {
            0
        } else if d.y != 0 {
            1
        } else {
            2
        };
        let sign = d[axis];
        let (ua, va) = LATERAL[axis];
        let (u0, v0, t0) = (x[ua], x[va], x[axis]);
        let goal_k = if self.goal[ua] == u0 && self.goal[va] == v0 && (self.goal[axis] - t0) * sign > 0 {
            (self.goal[axis] - t0) * sign
        } else {
            i32::MAX
        };
        let step = self.move_cost[m];
        // The first voxel (free: `m` is legal at `x`) is the goal or beyond the bound: no scan.
        if x + d == self.goal || self.beyond(g + step, x + d) {
            self.scanned += 1;
            return Some(1);
        }
        // Bit i of segment c is voxel c * 16 + i (forward) or c * 16 + 15 - i.
        let pos = |c: i32, i: i32| if sign > 0 { c * 16 + i } else { c * 16 + 15 - i };
        let mut k_done = 0; // voxels 1..=k_done examined
        loop {
            let t = t0 + sign * (k_done + 1);
            let c = t >> 4;
            let first = if sign > 0 { t & 15 } else { 15 - (t & 15) };
            let run = self.cache.free_run(axis, c, u0, v0);
            if run > 0 {
                // Chunks c ..= c_end hold no event: only the goal or the bound stop there.
                let c_end = c + sign * (run - 1);
                let k_last = (pos(c_end, 15) - t0) * sign;
                let mut k_stop = goal_k.min(k_last + 1);
                if self.beyond(g + step * k_last as u64, x + d * k_last) {
                    let (mut lo, mut hi) = (k_done + 1, k_last);
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        if self.beyond(g + step * mid as u64, x + d * mid) {
                            hi = mid;
                        } else {
                            lo = mid + 1;
                        }
                    }
                    k_stop = k_stop.min(lo);
                }
                if k_stop <= k_last {
                    self.scanned += k_stop as u64;
                    return Some(k_stop);
                }
                k_done = k_last;
                continue;
            }
            let events = self.cache.events(self.world, axis, sign < 0, c, u0, v0);
            let (centre, cand) = (events as u16, (events >> 16) as u16);
            let range = u16::MAX << first;
            let blocked = centre & range;
            let end = blocked.trailing_zeros() as i32; // first blocked bit (16: none)
            let free = if end == 16 { range } else { range & ((1u16 << end) - 1) };
            let mut cand = cand & free;
            if free == 0 {
                self.scanned += k_done as u64;
                return None;
            }
            let last_bit = 15 - free.leading_zeros() as i32;
            let k_last = (pos(c, last_bit) - t0) * sign;
            // First voxel beyond the f bound in this segment, if any (f is convex on a line).
            let mut k_stop = goal_k.min(k_last + 1);
            if self.beyond(g + step * k_last as u64, x + d * k_last) {
                let (mut lo, mut hi) = (k_done + 1, k_last);
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    if self.beyond(g + step * mid as u64, x + d * mid) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                k_stop = k_stop.min(lo);
            }
            while cand != 0 {
                let i = cand.trailing_zeros() as i32;
                cand &= cand - 1;
                let k = (pos(c, i) - t0) * sign;
                if k >= k_stop {
                    break;
                }
                let mask = self.world.blocked_mask(x + d * k, self.pass);
                if self.canon.forced(m, mask) != 0 {
                    self.scanned += k as u64;
                    return Some(k);
                }
            }
            if k_stop <= k_last {
                self.scanned += k_stop as u64;
                return Some(k_stop);
            }
            if end < 16 {
                self.scanned += k_last as u64;
                return None;
            }
            k_done = k_last;
        }
    }

    fn straight_slow(&mut self, x: IVec3, g: u64, m: usize) -> Option<i32> {
        let d = OFFSETS[m];
        let req = REQUIRED[self.canon.rule as usize][m];
        let (mut y, mut k, mut g) = (x, 0, g);
        loop {
            y += d;
            k += 1;
            g += self.move_cost[m];
            if y == self.goal || self.beyond(g, y) {
                self.scanned += k as u64;
                return Some(k);
            }
            let mask = self.world.blocked_mask(y, self.pass);
            if self.forced(m, mask) {
                self.scanned += k as u64;
                return Some(k);
            }
            if mask & req != 0 {
                self.scanned += k as u64;
                return None;
            }
        }
    }

    /// A diagonal jump from an expanded voxel: like [`diagonal`](Self::diagonal), but a step
    /// `y` whose sub-jumps find jump points does not end the jump. `y` is expanded on the spot
    /// (it has no forced move, so its successors are the diagonal's continuation and these
    /// sub-jumps): each found point is pushed to `out` as `(steps to y, sub-move, its steps)`
    /// and the diagonal goes on. Saves expanding `y` later, which would repeat the sub-jumps.
    fn diagonal_from(
        &mut self,
        x: IVec3,
        g: u64,
        m: usize,
        nodes: &Nodes,
        out: &mut Vec<(i32, u8, i32)>,
    ) -> Option<i32> {
        let d = OFFSETS[m];
        let rule = self.canon.rule as usize;
        let req = REQUIRED[rule][m];
        let (mut y, mut k, mut g) = (x, 0, g);
        loop {
            y += d;
            k += 1;
            g += self.move_cost[m];
            self.scanned += 1;
            if y == self.goal || self.beyond(g, y) {
                return Some(k);
            }
            let mask = self.world.blocked_mask(y, self.pass);
            if self.forced(m, mask) {
                return Some(k);
            }
            let mark = out.len();
            for &s in &SUB_MOVES[m] {
                if s == u8::MAX {
                    break;
                }
                if mask & REQUIRED[rule][s as usize] == 0
                    && let Some(j) = self.jump(y, g, s as usize)
                {
                    out.push((k, s, j));
                }
            }
            // `y` is a jump point: as when it enters the open list, a path as good that
            // already took `m` there (or a better one) makes this one redundant.
            if out.len() > mark && nodes.covers(y, g, 1 << m) {
                out.truncate(mark);
                return None;
            }
            if mask & req != 0 {
                return None;
            }
        }
    }

    fn diagonal(&mut self, x: IVec3, g: u64, m: usize) -> Option<i32> {
        let d = OFFSETS[m];
        let rule = self.canon.rule as usize;
        let req = REQUIRED[rule][m];
        let (mut y, mut k, mut g) = (x, 0, g);
        loop {
            y += d;
            k += 1;
            g += self.move_cost[m];
            self.scanned += 1;
            if y == self.goal || self.beyond(g, y) {
                return Some(k);
            }
            let mask = self.world.blocked_mask(y, self.pass);
            if self.forced(m, mask) {
                return Some(k);
            }
            for &s in &SUB_MOVES[m] {
                if s == u8::MAX {
                    break;
                }
                let s = s as usize;
                if mask & REQUIRED[rule][s] == 0 && self.jump(y, g, s).is_some() {
                    return Some(k);
                }
            }
            if mask & req != 0 {
                return None;
            }
        }
    }
}

/// How the engine generates successors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Mode {
    /// Every legal move, one step, media weights applied.
    #[default]
    Plain,
    /// Canonical successors, jumping.
    Jump,
}

#[derive(Debug, Clone, Copy, Default)]
struct Query {
    start: IVec3,
    goal: IVec3,
    config: SearchConfig,
    pass: Option<Pass>,
    mode: Mode,
    weight: u64,
    weighted_media: bool,
    move_cost: [u64; MOVES],
    done: bool,
}

/// Reusable state of the jump point search (and of the plain A* it falls back on).
#[derive(Debug, Default, Clone)]
pub(crate) struct JumpSearch {
    nodes: Nodes,
    open: OpenList,
    stats: SearchStats,
    canon: Option<Canon>,
    q: Query,
    /// Voxels the jumps stepped over in the current search.
    pub(crate) scanned: u64,
    cache: ScanCache,
    /// Jump points found by the sub-jumps of one diagonal jump (see `Jumper::diagonal_from`).
    emits: Vec<(i32, u8, i32)>,
    /// Size and revision of the world the search began on.
    world: (glam::UVec3, u64),
}

impl JumpSearch {
    /// Starts a search; the endpoints and costs were validated by the caller.
    /// `jump`: use jump point search (else every legal move, with media weights).
    /// `weight`: heuristic weight in percent (100: exact).
    pub(crate) fn begin(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
        jump: bool,
        weight: u32,
    ) {
        let pass = Pass::new(&config.media);
        let weighted_media =
            [config.media.air, config.media.water].iter().any(|w| w.is_some_and(|w| w > 100)) && world.has_water();
        let mode = if jump && !weighted_media { Mode::Jump } else { Mode::Plain };
        if mode == Mode::Jump
            && self.canon.as_ref().is_none_or(|c| c.rule != config.diagonal || c.costs != config.costs)
        {
            self.canon = Some(Canon::new(config.diagonal, config.costs));
        }
        let mut move_cost = [0; MOVES];
        for (m, c) in move_cost.iter_mut().enumerate() {
            *c = config.costs.cost(axes(m));
        }
        self.q = Query {
            start,
            goal,
            config: *config,
            pass: Some(pass),
            mode,
            weight: u64::from(weight.max(100)),
            weighted_media,
            move_cost,
            done: false,
        };
        self.stats = SearchStats::default();
        self.scanned = 0;
        self.world = (world.dims(), world.revision());
        // Exact searches with a consistent heuristic pop `f` in non-decreasing order.
        self.open.clear(weight <= 100 && config.heuristic != crate::Heuristic::Manhattan);
        self.nodes.reset(world.dims().as_ivec3());
        if mode == Mode::Jump {
            self.cache.reset(world, pass);
        }
        let slot = self.nodes.slot(start);
        self.nodes.g[slot] = 0;
        self.nodes.parent[slot] = NO_PARENT;
        self.nodes.pending[slot] = 1 << START;
        self.open.push(self.f(0, start), 0, slot as u32);
        self.stats.generated = 1;
        self.stats.peak_open = 1;
    }

    #[inline]
    fn f(&self, g: u64, v: IVec3) -> u64 {
        let h = self.q.config.heuristic.estimate(self.q.goal - v, &self.q.config.costs);
        if self.q.weight == 100 { g + h } else { g + h * self.q.weight / 100 }
    }

    /// Statistics of the current (or last) search.
    pub(crate) fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.nodes.heap_bytes() + self.open.heap_bytes() + self.cache.heap_bytes()
    }

    /// Records a path to `y` of cost `g` through `parent`, entering by move `m`.
    #[inline]
    fn relax(&mut self, y: IVec3, g: u64, parent: usize, m: usize) {
        let dir = if self.q.mode == Mode::Jump { 1u32 << m } else { 1 << START };
        let s = self.nodes.slot(y);
        let (pending, done) = (self.nodes.pending[s], self.nodes.done[s]);
        if pending | done == 0 || g < self.nodes.g[s] {
            self.nodes.g[s] = g;
            self.nodes.parent[s] = parent as u32;
            self.nodes.pending[s] = dir;
            self.nodes.done[s] = 0;
            let f = self.f(g, y);
            self.open.push(f, g, s as u32);
            self.stats.generated += 1;
        } else if g == self.nodes.g[s] && (pending | done) & dir == 0 {
            // Same cost from a new direction: its successors must be tried too.
            self.nodes.pending[s] |= dir;
            if pending == 0 {
                let f = self.f(g, y);
                self.open.push(f, g, s as u32);
                self.stats.generated += 1;
            }
        }
    }

    /// Records `y`, reached at cost `g` through `parent` by move `m`, as expanded from `m`
    /// without passing through the open list (a step of a diagonal jump whose successors the
    /// jump generated). Its slot, or `None` if `y` is already known at a lower cost (the
    /// successors through this path are then dominated).
    #[inline]
    fn expanded_on_the_way(&mut self, y: IVec3, g: u64, parent: usize, m: usize) -> Option<usize> {
        let bit = 1u32 << m;
        let s = self.nodes.slot(y);
        let (pending, done) = (self.nodes.pending[s], self.nodes.done[s]);
        if pending | done == 0 || g < self.nodes.g[s] {
            self.nodes.g[s] = g;
            self.nodes.parent[s] = parent as u32;
            self.nodes.pending[s] = 0;
            self.nodes.done[s] = bit;
            Some(s)
        } else if g == self.nodes.g[s] {
            self.nodes.pending[s] = pending & !bit;
            self.nodes.done[s] = done | bit;
            Some(s)
        } else {
            None
        }
    }

    /// Expands at most `budget` more nodes; see [`Pathfinder::advance`](crate::Pathfinder::advance).
    pub(crate) fn advance(&mut self, world: &VoxelWorld, budget: usize) -> Result<Option<Path>, PathError> {
        let Some(pass) = self.q.pass.filter(|_| !self.q.done) else {
            return Err(PathError::Unreachable { expanded: 0 });
        };
        if (world.dims(), world.revision()) != self.world {
            self.q.done = true;
            return Err(PathError::WorldChanged);
        }
        let canon = self.canon.take();
        let out = self.run(world, pass, canon.as_ref(), budget);
        self.canon = canon;
        if !matches!(out, Ok(None)) {
            self.q.done = true;
        }
        out
    }

    fn run(
        &mut self,
        world: &VoxelWorld,
        pass: Pass,
        canon: Option<&Canon>,
        budget: usize,
    ) -> Result<Option<Path>, PathError> {
        let q = self.q;
        let max_expansions = q.config.max_expansions.unwrap_or(usize::MAX);
        let rule = q.config.diagonal;
        let mut cache = std::mem::take(&mut self.cache);
        let mut emits = std::mem::take(&mut self.emits);
        let mut jumper = canon.filter(|_| q.mode == Mode::Jump).map(|canon| Jumper {
            world,
            cache: &mut cache,
            pass,
            canon,
            goal: q.goal,
            strict: rule == DiagonalRule::Strict,
            scanned: 0,
            config: q.config,
            weight: q.weight,
            move_cost: q.move_cost,
            bound: 0,
        });
        let mut left = budget;
        let result = loop {
            let Some((f, slot)) = self.open.peek() else {
                break Err(PathError::Unreachable { expanded: self.stats.expanded });
            };
            let slot = slot as usize;
            let pending = self.nodes.pending[slot];
            let g = self.nodes.g[slot];
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
            if left == 0 {
                break Ok(None);
            }
            self.open.pop();
            left -= 1;
            self.stats.expanded += 1;
            let done = self.nodes.done[slot];
            self.nodes.pending[slot] = 0;
            self.nodes.done[slot] = done | pending;
            let mask = world.blocked_mask(v, pass);
            match jumper.as_mut() {
                None => {
                    if done != 0 {
                        continue;
                    }
                    let mut legal = crate::grid::moves::legal_moves(mask, rule);
                    while legal != 0 {
                        let m = legal.trailing_zeros() as usize;
                        legal &= legal - 1;
                        let n = v + OFFSETS[m];
                        let mut cost = q.move_cost[m];
                        if q.weighted_media {
                            cost = cost * u64::from(q.config.media.weight(world.get(n)).unwrap_or(100)) / 100;
                        }
                        self.relax(n, g + cost, slot, m);
                    }
                }
                Some(jumper) => {
                    // Jumps stop where `f` exceeds the current minimum: they sweep the search's
                    // current `f` level (its symmetric paths) and no further. Measured faster
                    // than unbounded jumps, which rescan whole octants of open space.
                    jumper.bound = f;
                    let succ = |dirs: u32| {
                        let (mut dirs, mut out) = (dirs, 0);
                        while dirs != 0 {
                            let d = dirs.trailing_zeros() as usize;
                            dirs &= dirs - 1;
                            out |= jumper.canon.successors(d, mask);
                        }
                        out
                    };
                    let mut todo = succ(pending) & !succ(done);
                    while todo != 0 {
                        let m = todo.trailing_zeros() as usize;
                        todo &= todo - 1;
                        if axes(m) == 1 {
                            if let Some(k) = jumper.jump(v, g, m) {
                                self.relax(v + OFFSETS[m] * k, g + q.move_cost[m] * k as u64, slot, m);
                            }
                            continue;
                        }
                        emits.clear();
                        let end = jumper.diagonal_from(v, g, m, &self.nodes, &mut emits);
                        // Steps expanded on the way, and the points their sub-jumps found.
                        let mut at: Option<(i32, Option<usize>)> = None;
                        for &(k, s, j) in &emits {
                            let (y, gy) = (v + OFFSETS[m] * k, g + q.move_cost[m] * k as u64);
                            if at.is_none_or(|(ak, _)| ak != k) {
                                at = Some((k, self.expanded_on_the_way(y, gy, slot, m)));
                            }
                            if let Some((_, Some(ys))) = at {
                                let s = s as usize;
                                self.relax(y + OFFSETS[s] * j, gy + q.move_cost[s] * j as u64, ys, s);
                            }
                        }
                        if let Some(k) = end {
                            self.relax(v + OFFSETS[m] * k, g + q.move_cost[m] * k as u64, slot, m);
                        }
                    }
                }
            }
            self.stats.peak_open = self.stats.peak_open.max(self.open.len());
        };
        if let Some(j) = jumper {
            self.scanned += j.scanned;
        }
        self.cache = cache;
        self.emits = emits;
        result
    }

    fn build_path(&self, world: &VoxelWorld, goal_slot: usize) -> Path {
        let mut corners = vec![goal_slot];
        while let Some(&s) = corners.last() {
            let p = self.nodes.parent[s];
            if p == NO_PARENT {
                break;
            }
            corners.push(p as usize);
        }
        corners.reverse();
        let mut voxels = vec![self.q.start];
        for pair in corners.windows(2) {
            let (a, b) = (self.nodes.voxel(pair[0]), self.nodes.voxel(pair[1]));
            let d = (b - a).signum();
            let mut v = a;
            while v != b {
                v += d;
                voxels.push(v);
            }
        }
        let points = voxels.iter().map(|&v| world.voxel_center(v)).collect();
        let length = voxel_length(&voxels) * f64::from(world.voxel_size());
        Path { voxels, points, cost: self.nodes.g[goal_slot], length, stats: self.stats }
    }
}
