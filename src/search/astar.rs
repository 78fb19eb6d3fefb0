//! The A* engine: 26-neighbour A* over a [`VoxelWorld`], the one A* of the crate. It runs
//! plain exact queries ([`Algorithm::AStar`](crate::Algorithm::AStar), and
//! [`Algorithm::Jps`](crate::Algorithm::Jps) where jumps do not apply), weighted ones (the
//! [`Weighted`](crate::Algorithm::Weighted) and [`Budget`](crate::Algorithm::Budget) modes, a
//! search per budget phase), the searches of the closest-voxel fallback, and repairs' detours
//! with canonical successors only.
//!
//! Node state lives in a paged [`NodeStore`] (best cost and one byte of flags and parent move
//! per voxel, 16^3 chunks a page), and the open list is an [`OpenList`]: the monotone radix
//! heap for exact searches (newest first among equal `f`), a binary heap on `(f, g)` for
//! weighted ones, whose keys `g + h * weight / 100` are not monotone. Every search expands a
//! voxel at most once, a weighted one too: with a consistent heuristic its path stays within
//! its weight of the optimum without reopening (Likhachev, Gordon and Thrun 2003, on ARA*), and
//! a goal it cannot reach costs one pass over what it can (reopening cost up to 7 passes on a
//! sealed room: 15.8 M expansions for 2.1 M voxels).

use glam::IVec3;

use crate::error::PathError;
use crate::grid::layer::CHUNK_SHIFT;
use crate::grid::moves::{MOVES, OFFSETS, axes, bit, legal_moves};
use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::search::canonical::{Canon, CanonFor, START, hold, serves_price};
use crate::search::config::SearchConfig;
use crate::search::guide::Guide;
use crate::search::heuristic::Heuristic;
use crate::search::memory::fit_room;
use crate::search::nodes::{CLOSED, NO_PARENT, NodeStore, OPEN, PARENT_MASK, Paged, Scores, Slots};
use crate::search::open_list::OpenList;
use crate::search::path::{Path, SearchStats};
use crate::search::radix_heap::{BlockBuckets, Buckets};

/// The query an [`AStar`] is working on.
#[derive(Debug, Clone, Copy, Default)]
struct Query {
    goal: IVec3,
    config: SearchConfig,
    pass: Option<Pass>,
    move_cost: [u64; MOVES],
    /// Moves cost more by the medium they enter.
    priced: bool,
    /// Prices (percent, at least 100) of moves into air and into water, when `priced`.
    prices: (u64, u64),
    /// Heuristic weight in percent (100: exact).
    weight: u64,
    /// Only canonical successors (see [`AStar::begin`]).
    canonical: bool,
    /// Estimates also from the [`Guide`] (see [`AStar::follow_guide`]).
    guided: bool,
    done: bool,
    /// The world's dims and revision at `begin`.
    world: (glam::UVec3, u64),
    /// The search may hold this share of the world's search limit (1 over it): searches that
    /// run side by side share it.
    share: usize,
}

impl Query {
    /// The cost of move `m` into a free voxel, priced by its medium (`water`: the water voxels
    /// around the voxel it leaves), as [`SearchConfig::entry_cost`] prices it.
    #[inline]
    fn move_price(&self, m: usize, water: u32) -> u64 {
        let o = OFFSETS[m];
        let price = if water >> bit(o.x, o.y, o.z) & 1 != 0 { self.prices.1 } else { self.prices.0 };
        self.move_cost[m] * price / 100
    }

    /// Canonical searches: whether every free voxel around a voxel (`mask` the blocked ones,
    /// `water` the water ones) has one price, so that its successors may be pruned.
    #[inline]
    fn one_price(&self, water: u32, mask: u32) -> bool {
        let free = !mask & ((1 << 27) - 1);
        let wet = water & free;
        !self.priced || wet == 0 || wet == free || self.prices.0 == self.prices.1
    }

    /// The open list's key of voxel `n` reached at cost `g` (`WEIGHTED`: with the query's
    /// weight; `GUIDED`: the larger of the heuristic's and the guide's estimates).
    #[inline(always)]
    fn key<const WEIGHTED: bool, const GUIDED: bool>(
        &self,
        guide: &mut Guide,
        world: &VoxelWorld,
        n: IVec3,
        g: u64,
    ) -> u64 {
        let mut h = self.config.heuristic.estimate_within(self.goal - n, &self.config.costs);
        if GUIDED && let Some(guided) = guide.estimate(world, n) {
            h = h.max(guided);
        }
        if WEIGHTED { g + h * self.weight / 100 } else { g + h }
    }
}

/// Reusable state of the A* engine, with node pages of `2^SHIFT` voxels a side (by default a
/// 16^3 chunk). Memory grows with the nodes a search touches (about 9 bytes per voxel of each
/// page it enters, plus 8 bytes per world chunk for the page table), and the next search
/// reuses it without reallocating.
///
/// What it holds, with the room its vectors keep, stays within its limit ([`fit_room`]); its
/// radix heap keeps entries in `B` (blocks; the jump point search's prelude, whose expansions
/// are few, keeps vectors), and its records `g` and `info` in `G` and `I` (segments of a page
/// each, which never move as a large search grows; the prelude's in vectors).
#[derive(Debug, Default, Clone)]
pub(crate) struct AStar<
    const SHIFT: i32 = CHUNK_SHIFT,
    B: Buckets = BlockBuckets,
    G: Slots<u64> = Paged<u64>,
    I: Slots<u8> = Paged<u8>,
> {
    nodes: NodeStore<Scores<G, I>, SHIFT>,
    open: OpenList<B>,
    stats: SearchStats,
    q: Query,
    /// The diagonal rule and cost model of the last canonical search, and their successor
    /// tables.
    canon: Option<CanonFor>,
    /// Canonical searches: the moves a voxel was reached by at its cost besides the one in its
    /// `info` (which then carries [`TIED`]). Rare: in open space each voxel has one canonical
    /// way in, so a map beats 4 bytes per voxel. Never iterated.
    ties: hashbrown::HashMap<u32, u32>,
    /// The most entries `ties` held in the current search.
    ties_most: usize,
    /// Closed voxels reached again at their cost by a new move: successors still to try.
    late: Vec<(usize, u32)>,
    /// The coarse estimate of guided searches (its regions kept across searches).
    guide: Guide,
    /// The last path's voxels, goal first ([`Path::retrace`]).
    retraced: Vec<IVec3>,
    /// An exact search's entry `(f, g, slot)` that would come out of the open list next,
    /// kept out of it (see [`push_or_hold`]); only ever set within a call of `run`.
    held: Option<(u64, u64, u32)>,
}

/// Canonical searches: the moves the voxel in `slot` (its `info`) was reached by at its cost
/// (bit [`START`] for the start), its ties listed in `ties`.
#[inline(always)]
fn reached_by(info: u8, ties: &hashbrown::HashMap<u32, u32>, slot: usize) -> u32 {
    let m = info & PARENT_MASK;
    if m == NO_PARENT {
        return 1 << START;
    }
    let tied = if m & TIED != 0 { ties.get(&(slot as u32)).copied().unwrap_or(0) } else { 0 };
    1 << (m & !TIED) | tied
}

/// Adds `slot` (key `f`, cost `g`) to `open`. An exact search's list is monotone and gives
/// an entry pushed at the key it is taking out ([`OpenList::taken_key`]) next: such an entry is
/// `held` out of the list instead, for the next expansion to take, and the one held before it
/// goes in. The order of expansions is the same; a node that an expansion passes on at its
/// own level (a dive toward the goal) skips the list's push, pop and stale check.
#[inline(always)]
fn push_or_hold<B: Buckets, const WEIGHTED: bool>(
    open: &mut OpenList<B>,
    held: &mut Option<(u64, u64, u32)>,
    (f, g, slot): (u64, u64, u32),
) {
    if !WEIGHTED && f <= open.taken_key() {
        if let Some((f, g, slot)) = held.replace((f, g, slot)) {
            open.push(f, g, slot);
        }
    } else {
        open.push(f, g, slot);
    }
}

/// Entries of the open list a time slice's refills may read or move per expansion of its
/// budget: reading or moving an entry costs a small part of an expansion, so a slice's
/// refills take about as long as its expansions (docs/living-worlds.md, "Refills in parts").
const REFILL_ENTRIES: usize = 32;

/// Canonical searches: bit of `info`'s move field set when the voxel was reached at its cost by
/// more moves than that one (listed in [`AStar::ties`]). Moves are below 26, and the start
/// ([`NO_PARENT`]) is never reached again at cost 0.
const TIED: u8 = 0x20;

impl<const SHIFT: i32, B: Buckets, G: Slots<u64>, I: Slots<u8>> AStar<SHIFT, B, G, I> {
    /// Starts a search from `start` to `goal` (validated by the caller) whose open list is
    /// ordered by `g + h * weight / 100` (`weight` in percent; 100 and below: exact A*).
    ///
    /// `canonical`: an exact search tries from each voxel only its *canonical* successors (the
    /// pruning rule of jump point search, [`Canon`], without the jumps): in open space one to
    /// seven moves instead of 26, the same cost. For short searches (a repair's detour), where
    /// jump point search's scan setup does not pay, and for media with prices, where it does
    /// not apply. With prices, the pruning holds only where every free voxel around a voxel has
    /// one price (the tables compare moves of equal prices), so a voxel by the water's edge
    /// tries every move; and only for prices that keep the order of the cost model's moves
    /// ([`serves_price`]), else the search tries every move everywhere.
    pub(crate) fn begin(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
        weight: u32,
        canonical: bool,
    ) {
        let mut move_cost = [0; MOVES];
        for (m, c) in move_cost.iter_mut().enumerate() {
            *c = config.costs.cost(axes(m));
        }
        let weight = weight.max(100);
        let priced = config.priced_media(world);
        let prices = (
            u64::from(config.media.air.map_or(100, |w| w.max(100))),
            u64::from(config.media.water.map_or(100, |w| w.max(100))),
        );
        let served = !priced
            || [config.media.air, config.media.water].into_iter().flatten().all(|w| serves_price(&config.costs, w));
        let mut canonical = canonical && weight == 100 && served;
        if canonical {
            self.take_tables(config);
        }
        // A cost model whose ties make the pruning inexact searches every move.
        canonical = canonical && self.canon.as_ref().is_some_and(|c| c.1.prunes_exactly());
        self.q = Query {
            goal,
            config: *config,
            pass: Some(config.pass()),
            move_cost,
            priced,
            prices,
            weight: u64::from(weight),
            canonical,
            guided: false,
            done: false,
            world: (world.dims(), world.revision()),
            share: 1,
        };
        self.stats = SearchStats { weight, ..SearchStats::default() };
        self.open.clear(weight == 100);
        self.nodes.reset(world.dims());
        let slot = self.nodes.slot(start);
        self.nodes.rec.g[slot] = 0;
        self.nodes.rec.info[slot] = OPEN | NO_PARENT;
        if canonical {
            self.late.clear();
            self.ties.clear();
            self.ties_most = 0;
        }
        self.held = None;
        self.open.push(self.f(0, start), 0, slot as u32);
        self.stats.generated = 1;
        self.stats.peak_open = 1;
    }

    /// Begins no search on `world`: a side of a race that will not run (the prelude's side
    /// away from the obstacle, whose pages are smaller than a chunk). Its statistics are zero
    /// (its memory too: what it holds is room kept from earlier searches) and
    /// [`advance`](Self::advance) reports `Unreachable`; its open list is left as it was (no
    /// [`level`](Self::level) is asked of it) and its page table is not sized for the world,
    /// so that it costs nothing.
    pub(crate) fn idle(&mut self, world: &VoxelWorld) {
        self.q.pass = None;
        self.q.canonical = false;
        self.q.guided = false;
        self.q.world = (world.dims(), world.revision());
        self.stats = SearchStats::default();
        self.nodes.forget();
    }

    /// Makes the search just begun hold at most `1 / parts` of the world's search limit: the
    /// share of one of `parts` searches that run side by side.
    pub(crate) fn share_limit(&mut self, parts: usize) {
        self.q.share = parts.max(1);
    }

    /// Holds the successor tables of `config`'s diagonal rule and cost model ([`hold`]).
    pub(crate) fn take_tables(&mut self, config: &SearchConfig) {
        hold(&mut self.canon, config);
    }

    /// Whether it holds the successor tables of `config`'s diagonal rule and cost model.
    #[cfg(test)]
    pub(crate) fn holds_tables(&self, config: &SearchConfig) -> bool {
        crate::search::canonical::holds(self.canon.as_ref(), config)
    }

    /// Makes the search just begun (weighted, not canonical) follow the [`Guide`] as well, begun
    /// for this query by the caller ([`guide`](Self::guide)): each voxel's estimate is the
    /// larger of the heuristic's and the guide's (where it has one). The start's key is not
    /// changed: it is alone in the open list.
    pub(crate) fn follow_guide(&mut self) {
        if !self.q.canonical && self.stats.expanded == 0 {
            self.q.guided = true;
        }
    }

    /// A lower bound on the cost of every path to the goal, from a weighted search (not
    /// guided, not canonical) that has not reached it: an optimal path has a voxel `n` in the
    /// open list with `g(n) <= w g*(n)` (its closed predecessors were reached within the weight,
    /// Likhachev, Gordon and Thrun 2003), so the optimum is at least the least
    /// `g / w + octile` over the open list. 0 for other searches.
    pub(crate) fn lower_bound(&self) -> u64 {
        if self.q.weight == 100 || self.q.guided || self.q.canonical {
            return 0;
        }
        let mut least = u64::MAX;
        for slot in self.open.heap_slots() {
            let slot = slot as usize;
            if self.nodes.rec.info[slot] & CLOSED != 0 {
                continue;
            }
            let v = self.nodes.voxel(slot);
            let h = Heuristic::Octile.estimate(self.q.goal - v, &self.q.config.costs);
            least = least.min((self.nodes.rec.g[slot] * 100 / self.q.weight).saturating_add(h));
        }
        if least == u64::MAX { 0 } else { least }
    }

    /// The guide, kept across searches (its regions with it).
    pub(crate) fn guide(&mut self) -> &mut Guide {
        &mut self.guide
    }

    /// The open list's key of voxel `v` reached at cost `g`.
    #[inline]
    fn f(&self, g: u64, v: IVec3) -> u64 {
        let h = self.q.config.heuristic.estimate_within(self.q.goal - v, &self.q.config.costs);
        if self.q.weight == 100 { g + h } else { g + h * self.q.weight / 100 }
    }

    /// The key of the open list's next entry (`u64::MAX` if it is empty): an exact search's
    /// level of `f`, a lower bound on the cost of a path.
    pub(crate) fn level(&mut self) -> u64 {
        self.open.peek().map_or(u64::MAX, |(f, _)| f)
    }

    /// Statistics of the current (or last) search.
    pub(crate) fn stats(&self) -> SearchStats {
        if self.q.pass.is_none() {
            // Idle, or no search begun.
            return SearchStats::default();
        }
        // A canonical search's ties: about 8 bytes an entry.
        let ties = if self.q.canonical { self.ties_most * 8 } else { 0 };
        let guide = if self.q.guided { self.guide.bytes_in_use() } else { 0 };
        let peak_bytes = self.nodes.bytes_in_use() + ties + guide + self.stats.peak_open * self.open.entry_bytes();
        SearchStats { peak_bytes, ..self.stats }
    }

    /// Gives back the memory of its node pages, open list and guide (its regions are built
    /// again as a later search asks), the search abandoned: a query that falls back to plain
    /// A* within the whole limit, or a pathfinder whose other engines need the room.
    pub(crate) fn release(&mut self) {
        self.q.done = true;
        self.nodes = NodeStore::default();
        self.open = OpenList::default();
        self.ties = hashbrown::HashMap::new();
        self.late = Vec::new();
        self.guide = Guide::default();
    }

    /// Gives back the room its node pages and open list keep beside what the current (or
    /// last) search uses, and its guide if that search did not follow it.
    pub(crate) fn give_back(&mut self) {
        self.nodes.give_back();
        self.open.give_back();
        if !self.q.guided {
            self.guide = Guide::default();
        }
    }

    /// Gives back its guide's regions, the cache of the coarse graph beside what the last
    /// search uses (a guided search's node pages and its guide's coarse search take up to the
    /// whole limit, the regions up to a quarter more).
    pub(crate) fn forget_regions(&mut self) {
        self.guide.forget_regions();
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.nodes.heap_bytes()
            + self.open.heap_bytes()
            + self.ties.capacity() * 9
            + self.late.capacity() * 16
            + self.guide.heap_bytes()
            + self.retraced.capacity() * 12
    }

    /// Expands at most `budget` more nodes: `Ok(None)` while the search goes on, the path
    /// once the goal comes out of the open list. `world` must be the world given to `begin`,
    /// unchanged (else [`PathError::WorldChanged`]). After the search ended, or with none
    /// begun, `Unreachable { expanded: 0 }`.
    ///
    /// # Errors
    /// [`PathError::Unreachable`], [`PathError::BudgetExhausted`] (the configuration's
    /// `max_expansions`), [`PathError::MemoryLimit`], [`PathError::WorldChanged`].
    pub(crate) fn advance(&mut self, world: &VoxelWorld, budget: usize) -> Result<Option<Path>, PathError> {
        let Some(pass) = self.q.pass.filter(|_| !self.q.done) else {
            return Err(PathError::Unreachable { expanded: 0 });
        };
        if self.q.world != (world.dims(), world.revision()) {
            self.q.done = true;
            return Err(PathError::WorldChanged);
        }
        // A time slice's refills of the open list stay in proportion to its budget; other
        // calls (levels, bounds) finish a paused one. A call with no budget still answers
        // the goal if it is next, as without the bound.
        let quota = (budget != usize::MAX && budget > 0).then(|| budget.saturating_mul(REFILL_ENTRIES));
        self.open.set_refill_quota(quota);
        let out = match (self.q.weight == 100, self.q.guided) {
            (true, _) if !self.q.priced => self.run::<false, false, false>(world, pass, budget),
            (true, _) => self.run::<false, false, true>(world, pass, budget),
            (false, false) => self.run::<true, false, true>(world, pass, budget),
            (false, true) => self.run::<true, true, true>(world, pass, budget),
        };
        self.open.set_refill_quota(None);
        if !matches!(out, Ok(None)) {
            self.q.done = true;
        }
        out
    }

    /// The search loop; `WEIGHTED`: weighted keys; `GUIDED`: estimates from the guide too;
    /// `PRICED`: moves may cost more by the medium they enter (then `self.q.priced` says
    /// whether they do).
    fn run<const WEIGHTED: bool, const GUIDED: bool, const PRICED: bool>(
        &mut self,
        world: &VoxelWorld,
        pass: Pass,
        budget: usize,
    ) -> Result<Option<Path>, PathError> {
        let q = self.q;
        let rule = q.config.diagonal;
        let canon = if q.canonical { self.canon.as_ref().map(|c| std::sync::Arc::clone(&c.1)) } else { None };
        let max_expansions = q.config.max_expansions.unwrap_or(usize::MAX);
        let solid_only = world.solid_only(pass);
        // Room for one expansion's new pages, within this search's share of the limit.
        let (margin, limit) =
            (NodeStore::<Scores<G, I>, SHIFT>::expansion_bytes(), world.limits().max_search_bytes / q.share.max(1));
        let mut left = budget;
        // Past this the search's use and the room it holds beside it could pass the limit
        // (room kept from an earlier search): the radix heap's new blocks check the room again.
        let mut watch = limit;
        if B::HELD_WITHIN_LIMIT {
            watch = self.fit_room(limit, margin);
        }
        // Stale entries this call may pop: a time slice's, in proportion to its budget, as
        // its refills (the end of a large search pops them by the million).
        let mut stale_left =
            if budget == usize::MAX || budget == 0 { usize::MAX } else { budget.saturating_mul(REFILL_ENTRIES) };
        debug_assert!(self.held.is_none(), "a held node outlived its call");
        loop {
            // The node held out of the open list by the last expansion, else the list's next.
            let (slot, taken) = match self.held.take() {
                Some(h) => (h.2 as usize, Some(h)),
                None => {
                    let Some((_, slot)) = self.open.peek() else { break };
                    let slot = slot as usize;
                    // Stale entries: the node was expanded since (a node's newest entry, at
                    // its lowest cost, comes out before its older ones).
                    if self.nodes.rec.info[slot] & CLOSED != 0 {
                        self.open.pop();
                        stale_left -= 1;
                        if stale_left == 0 {
                            return Ok(None);
                        }
                        continue;
                    }
                    (slot, None)
                }
            };
            // Ends the call with the held node back in the open list, where it comes out next.
            let put_back = |s: &mut Self| {
                if let Some((f, g, slot)) = taken {
                    s.open.push(f, g, slot);
                }
            };
            let g = self.nodes.rec.g[slot];
            let v = self.nodes.voxel(slot);
            // One branch, not one per axis (a voxel often shares a coordinate with the goal).
            let to_goal = v ^ q.goal;
            if to_goal.x | to_goal.y | to_goal.z == 0 {
                return Ok(Some(self.build_path(world, slot, g)));
            }
            if self.stats.expanded >= max_expansions {
                put_back(self);
                return Err(PathError::BudgetExhausted { expanded: self.stats.expanded });
            }
            if left == 0 {
                put_back(self);
                return Ok(None);
            }
            // What this search uses (its pages and open-list entries), not the room its tables
            // kept from earlier searches: the answer does not depend on them.
            let held = self.nodes.bytes_in_use()
                + self.open.bytes_in_use()
                + if GUIDED { self.guide.bytes_in_use() } else { 0 };
            let needed = held + margin;
            if needed > watch {
                if needed > limit {
                    put_back(self);
                    return Err(PathError::MemoryLimit { needed, limit });
                }
                if B::HELD_WITHIN_LIMIT && self.open.radix_grew() {
                    watch = self.fit_room(limit, margin);
                }
            }
            if B::HELD_WITHIN_LIMIT && (self.nodes.grew() || self.open.grew()) {
                watch = self.fit_room(limit, margin);
            }
            if taken.is_none() {
                self.open.pop();
            }
            left -= 1;
            self.nodes.rec.info[slot] |= CLOSED;
            self.stats.expanded += 1;
            let inside = NodeStore::<Scores<G, I>, SHIFT>::interior(v);
            let mask = world.mask_of(v, pass, solid_only);
            if let Some(canon) = canon.as_deref() {
                let water = if PRICED && q.priced { world.water_mask_beside(v, pass, mask) } else { 0 };
                let tried = if !PRICED || self.q.one_price(water, mask) {
                    canon.successors_of_any(self.reached_by(slot), mask)
                } else {
                    legal_moves(mask, rule)
                };
                self.relax_canonical::<PRICED>(world, canon, slot, v, g, tried, water);
                while let Some((ls, extra)) = self.late.pop() {
                    let (lv, lg) = (self.nodes.voxel(ls), self.nodes.rec.g[ls]);
                    let water = if PRICED && q.priced { world.water_mask(lv) } else { 0 };
                    self.relax_canonical::<PRICED>(world, canon, ls, lv, lg, extra, water);
                }
                self.stats.peak_open = self.stats.peak_open.max(self.open.len() + usize::from(self.held.is_some()));
                continue;
            }
            let water = if PRICED && q.priced { world.water_mask_beside(v, pass, mask) } else { 0 };
            let mut legal = legal_moves(mask, rule);
            if inside {
                // Every neighbour lies in `v`'s page, and so in the runs of records that hold
                // it: found once, not per move.
                let (g_first, g_run) = self.nodes.rec.g.run_mut(slot);
                let (info_first, info_run) = self.nodes.rec.info.run_mut(slot);
                while legal != 0 {
                    let m = legal.trailing_zeros() as usize;
                    legal &= legal - 1;
                    let cost = if PRICED && q.priced { q.move_price(m, water) } else { q.move_cost[m] };
                    let ns = slot.wrapping_add_signed(NodeStore::<Scores<G, I>, SHIFT>::SLOT_DELTA[m]);
                    let info = info_run[ns - info_first];
                    let ng = g + cost;
                    if info & CLOSED != 0 {
                        continue;
                    }
                    if info & OPEN == 0 || ng < g_run[ns - g_first] {
                        g_run[ns - g_first] = ng;
                        info_run[ns - info_first] = OPEN | m as u8;
                        let n = v + OFFSETS[m];
                        debug_assert!(!q.priced || cost == q.config.entry_cost(world, n, q.move_cost[m]));
                        let f = q.key::<WEIGHTED, GUIDED>(&mut self.guide, world, n, ng);
                        push_or_hold::<B, WEIGHTED>(&mut self.open, &mut self.held, (f, ng, ns as u32));
                        self.stats.generated += 1;
                    }
                }
                self.stats.peak_open = self.stats.peak_open.max(self.open.len() + usize::from(self.held.is_some()));
                continue;
            }
            while legal != 0 {
                let m = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let n = v + OFFSETS[m];
                let cost = if PRICED && q.priced { self.priced(m, water) } else { q.move_cost[m] };
                debug_assert!(!q.priced || cost == q.config.entry_cost(world, n, q.move_cost[m]));
                let ns = self.nodes.neighbour(slot, inside, n, m);
                let info = self.nodes.rec.info[ns];
                let ng = g + cost;
                // Expanded: settled (a weighted search too, see the module's docs).
                if info & CLOSED != 0 {
                    continue;
                }
                if info & OPEN == 0 || ng < self.nodes.rec.g[ns] {
                    self.nodes.rec.g[ns] = ng;
                    self.nodes.rec.info[ns] = OPEN | m as u8;
                    let f = q.key::<WEIGHTED, GUIDED>(&mut self.guide, world, n, ng);
                    push_or_hold::<B, WEIGHTED>(&mut self.open, &mut self.held, (f, ng, ns as u32));
                    self.stats.generated += 1;
                }
            }
            self.stats.peak_open = self.stats.peak_open.max(self.open.len() + usize::from(self.held.is_some()));
        }
        if self.open.paused() {
            return Ok(None);
        }
        Err(PathError::Unreachable { expanded: self.stats.expanded })
    }

    /// Keeps its node pages and open list within `limit` ([`fit_room`]), and returns what the
    /// search may use (with `margin`) before the room they hold beside that use could take it
    /// past `limit`: from there the radix heap's new blocks call this again.
    #[cold]
    #[inline(never)]
    fn fit_room(&mut self, limit: usize, margin: usize) -> usize {
        fit_room(&mut self.nodes, &mut self.open, limit);
        let unused = self.nodes.heap_bytes().saturating_sub(self.nodes.bytes_in_use()) + self.open.unused_bytes();
        limit.saturating_sub(unused).max(margin)
    }

    /// The cost of move `m` into a free voxel, priced by its medium (`water`: the water voxels
    /// around the voxel it leaves), as [`SearchConfig::entry_cost`] prices it.
    #[inline]
    fn priced(&self, m: usize, water: u32) -> u64 {
        self.q.move_price(m, water)
    }

    /// The canonical search's relaxation of the voxels `u + OFFSETS[m]` for the moves `m` in
    /// `moves` from the closed voxel `u` (cost `g`; `water`: the water voxels around `u`, for
    /// priced media); see [`Canon::successors_of_any`] for the ties it keeps.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn relax_canonical<const PRICED: bool>(
        &mut self,
        world: &VoxelWorld,
        canon: &Canon,
        slot: usize,
        u: IVec3,
        g: u64,
        mut moves: u32,
        water: u32,
    ) {
        // The query's few fields read here, not the whole query (its move costs are an array).
        let (goal, heuristic, costs) = (self.q.goal, self.q.config.heuristic, self.q.config.costs);
        let Some(pass) = self.q.pass else { return };
        let inside = NodeStore::<Scores<G, I>, SHIFT>::interior(u);
        while moves != 0 {
            let m = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let n = u + OFFSETS[m];
            let ns = self.nodes.neighbour(slot, inside, n, m);
            let ng = g + if PRICED && self.q.priced { self.priced(m, water) } else { self.q.move_cost[m] };
            debug_assert!(!self.q.priced || ng - g == self.q.config.entry_cost(world, n, self.q.move_cost[m]));
            // The common case, a voxel reached first or more cheaply, through the runs of
            // records that hold it (each found once, not per read).
            let (info_first, info_run) = self.nodes.rec.info.run_mut(ns);
            let info = info_run[ns - info_first];
            let (g_first, g_run) = self.nodes.rec.g.run_mut(ns);
            if info & CLOSED == 0 && (info & OPEN == 0 || ng < g_run[ns - g_first]) {
                if info & OPEN != 0 && info & PARENT_MASK != NO_PARENT && info & TIED != 0 {
                    self.ties.remove(&(ns as u32));
                }
                g_run[ns - g_first] = ng;
                info_run[ns - info_first] = OPEN | m as u8;
                let f = ng + heuristic.estimate_within(goal - n, &costs);
                push_or_hold::<B, false>(&mut self.open, &mut self.held, (f, ng, ns as u32));
                self.stats.generated += 1;
                continue;
            }
            // Reached again at its cost by another move: a tie.
            if ng != g_run[ns - g_first] {
                continue;
            }
            let before = reached_by(info, &self.ties, ns);
            if before & 1 << m != 0 {
                continue;
            }
            if info & CLOSED != 0 {
                // Its successors were tried for the moves it was reached by: try the new
                // move's others now (none if it tried every move).
                let mask = world.blocked_mask(n, pass);
                let nwater = if PRICED && self.q.priced { world.water_mask_beside(n, pass, mask) } else { 0 };
                if !PRICED || self.q.one_price(nwater, mask) {
                    let extra = canon.successors(m, mask) & !canon.successors_of_any(before, mask);
                    if extra != 0 {
                        self.late.push((ns, extra));
                    }
                }
            }
            info_run[ns - info_first] |= TIED;
            *self.ties.entry(ns as u32).or_insert(0) |= 1 << m;
            self.ties_most = self.ties_most.max(self.ties.len());
        }
    }

    /// Canonical searches: the moves the voxel in `slot` was reached by at its cost (bit
    /// [`START`] for the start).
    #[inline(always)]
    fn reached_by(&self, slot: usize) -> u32 {
        reached_by(self.nodes.rec.info[slot], &self.ties, slot)
    }

    fn build_path(&mut self, world: &VoxelWorld, goal_slot: usize, cost: u64) -> Path {
        let stats = self.stats();
        let nodes = &self.nodes;
        // The slot of the voxel `came_by` is asked about, walked back with it: within a page a
        // parent is a fixed offset away, not a lookup.
        let mut slot = goal_slot;
        Path::retrace(world, nodes.voxel(goal_slot), cost, stats, &mut self.retraced, |v| {
            debug_assert_eq!(nodes.find(v), Some(slot));
            let m = nodes.rec.info[slot] & PARENT_MASK;
            if m == NO_PARENT {
                return None;
            }
            let m = (m & !TIED) as usize;
            slot = nodes.parent(slot, v, m).expect("a parent was touched by this search");
            Some(m)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::medium::Voxel;
    use crate::search::config::{CostModel, DiagonalRule};

    /// A weighted search toward a walled-in goal runs its open list dry having expanded each
    /// voxel it reached once: its expansions are exactly the voxels it closed, and the same
    /// as an exact search's (which closes every voxel reachable from the start).
    #[test]
    fn a_weighted_search_that_runs_dry_expands_each_voxel_once() {
        let mut rng = crate::grid::seeded::Rng(0xA57A_5EED);
        let (mut weighted, mut exact) = (<AStar>::default(), <AStar>::default());
        let mut checked = 0;
        for world_index in 0..60 {
            let dims = glam::UVec3::new(6 + rng.below(7), 5 + rng.below(5), 6 + rng.below(7));
            let density = 10 + rng.below(25);
            let mut world = rng.world(dims, density);
            let goal = rng.voxel(dims);
            world.set(goal, Voxel::Air).unwrap();
            for &d in &OFFSETS {
                if world.contains(goal + d) {
                    world.set(goal + d, Voxel::Solid).unwrap();
                }
            }
            let start = rng.voxel(dims);
            if world.is_blocked(start) {
                continue;
            }
            let diagonal = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][world_index % 3];
            let costs = [CostModel::GAME, CostModel::PRECISE][world_index % 2];
            let config = SearchConfig { diagonal, costs, ..Default::default() };
            weighted.begin(&world, start, goal, &config, 100 + 50 * (1 + world_index as u32 % 8), false);
            assert!(matches!(weighted.advance(&world, usize::MAX), Err(PathError::Unreachable { .. })));
            exact.begin(&world, start, goal, &config, 100, false);
            assert!(matches!(exact.advance(&world, usize::MAX), Err(PathError::Unreachable { .. })));
            let mut closed = 0;
            for z in 0..dims.z as i32 {
                for y in 0..dims.y as i32 {
                    for x in 0..dims.x as i32 {
                        let v = IVec3::new(x, y, z);
                        let slot = weighted.nodes.find(v).filter(|&s| weighted.nodes.rec.info[s] & CLOSED != 0);
                        closed += usize::from(slot.is_some());
                    }
                }
            }
            assert_eq!(weighted.stats().expanded, closed, "world {world_index}");
            assert_eq!(weighted.stats().expanded, exact.stats().expanded, "world {world_index}");
            checked += closed;
        }
        assert!(checked > 10_000, "checked {checked}");
    }

    /// A large search's records grow by segments of a page each and never move: a time slice
    /// that enters new pages copies none of the records so far (a vector that doubles copies
    /// them all, within one slice). Its answer is the same as the prelude's engine's, whose
    /// records are vectors.
    #[test]
    fn a_large_search_grows_its_records_without_moving_them() {
        let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(160, 48, 160)).unwrap();
        let (start, goal) = (IVec3::new(1, 1, 1), IVec3::new(158, 46, 158));
        // No estimate (Dijkstra): a search of many pages.
        let config = SearchConfig { heuristic: Heuristic::Zero, ..Default::default() };
        let mut search = <AStar>::default();
        search.begin(&world, start, goal, &config, 100, false);
        assert!(matches!(search.advance(&world, 10), Ok(None)));
        let first = search.nodes.rec.g.run_mut(0).1.as_ptr();
        let pages = search.nodes.pages_used();
        let path = loop {
            if let Some(path) = search.advance(&world, 1000).unwrap() {
                break path;
            }
            assert_eq!(search.nodes.rec.g.run_mut(0).1.as_ptr(), first);
        };
        assert!(search.nodes.pages_used() > 16 * pages, "{} pages, {pages} at first", search.nodes.pages_used());
        let mut vectors = AStar::<CHUNK_SHIFT, BlockBuckets, Vec<u64>, Vec<u8>>::default();
        vectors.begin(&world, start, goal, &config, 100, false);
        let again = vectors.advance(&world, usize::MAX).unwrap().unwrap();
        assert_eq!((path.cost, path.stats.expanded), (again.cost, again.stats.expanded));
    }
}
