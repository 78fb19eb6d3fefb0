//! [`Pathfinder`]: reusable state for 26-neighbour A* over a [`VoxelWorld`].

use glam::{IVec3, Vec3};

use crate::error::PathError;
use crate::grid::moves::{MOVES, OFFSETS, axes, legal_moves};
use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::search::canonical::{Canon, START};
use crate::search::config::SearchConfig;
use crate::search::memory::{CHUNK_PAGE_BYTES, search_table_bytes};
use crate::search::nodes::{CLOSED, NO_PARENT, NodeStore, OPEN, PARENT_MASK, SLOT_DELTA, interior};
use crate::search::path::{Path, SearchStats, SearchStep};
use crate::search::radix_heap::RadixHeap;

/// The query a [`Pathfinder`] is working on.
#[derive(Debug, Clone, Copy, Default)]
struct Query {
    goal: IVec3,
    config: SearchConfig,
    pass: Option<Pass>,
    move_cost: [u64; MOVES],
    weighted: bool,
    /// Only canonical successors (see [`Pathfinder::find_detour`]).
    canonical: bool,
    done: bool,
    /// The world's dims and revision at `begin`.
    world: (glam::UVec3, u64),
}

/// Reusable search state for A* over a [`VoxelWorld`].
///
/// Keep one per thread (or per agent) and reuse it: a query's memory grows with the nodes it
/// touches (about 9 bytes per voxel of each 16^3 chunk it enters, plus 8 bytes per world chunk
/// for the page table), and the next query reuses it without reallocating.
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{Pathfinder, SearchConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(20, 10, 20)).unwrap();
/// world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(10, 9, 18), Voxel::Solid).unwrap(); // a wall
/// let mut finder = Pathfinder::new();
/// let path = finder
///     .find_voxel_path(&world, IVec3::new(2, 5, 2), IVec3::new(18, 5, 2), &SearchConfig::default())
///     .unwrap();
/// assert_eq!(path.voxels.first(), Some(&IVec3::new(2, 5, 2)));
/// assert!(path.voxels.iter().all(|&v| !world.is_blocked(v)));
/// ```
#[derive(Debug, Default, Clone)]
pub struct Pathfinder {
    nodes: NodeStore,
    open: RadixHeap,
    stats: SearchStats,
    query: Query,
    /// Jump point search, the budget mode and fallbacks (see `search::dispatch`).
    ext: crate::search::dispatch::Dispatch,
    /// Successor tables of the last canonical search.
    canon: Option<std::sync::Arc<Canon>>,
    /// Canonical searches, per slot beside the node store: for an open voxel the moves it was
    /// reached by at its cost (bit [`START`] for the start), for a closed one the moves tried.
    moves: Vec<u32>,
    /// Closed voxels reached again at their cost by a new move: successors still to try.
    late: Vec<(usize, u32)>,
}

impl Pathfinder {
    /// An empty pathfinder; it allocates on first use.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a path between two world-space points: from the voxel containing `start` to the
    /// voxel containing `goal`. See [`find_voxel_path`](Self::find_voxel_path).
    ///
    /// # Errors
    /// [`PathError::NonFinite`] for a NaN or infinite coordinate, else as
    /// [`find_voxel_path`](Self::find_voxel_path).
    pub fn find_path(
        &mut self,
        world: &VoxelWorld,
        start: Vec3,
        goal: Vec3,
        config: &SearchConfig,
    ) -> Result<Path, PathError> {
        let (start, goal) = endpoint_voxels(world, start, goal)?;
        self.find_voxel_path(world, start, goal, config)
    }

    /// Finds a cheapest path (optimal with [`Heuristic::Octile`](crate::Heuristic::Octile) or
    /// [`Heuristic::Zero`](crate::Heuristic::Zero)) from voxel `start` to voxel `goal`.
    ///
    /// Deterministic: the same world and query give the same path on every run and platform.
    ///
    /// # Errors
    /// [`PathError::InvalidCosts`], [`PathError::StartOutOfBounds`],
    /// [`PathError::GoalOutOfBounds`], [`PathError::StartBlocked`], [`PathError::GoalBlocked`],
    /// [`PathError::Unreachable`], [`PathError::BudgetExhausted`].
    pub fn find_voxel_path(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
    ) -> Result<Path, PathError> {
        self.begin(world, start, goal, config)?;
        self.run_to_end(world)
    }

    /// A cheapest path like [`find_voxel_path`](Self::find_voxel_path) with A* (whatever
    /// `config`'s algorithm), trying from each voxel only its *canonical* successors (the
    /// pruning rule of jump point search, [`Canon`], without the jumps): in open space one to
    /// seven moves instead of 26, the same cost. For short searches (a repair's detour), where
    /// jump point search's scan setup does not pay. Media with prices search every move.
    pub(crate) fn find_detour(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
    ) -> Result<Path, PathError> {
        let config = SearchConfig { algorithm: crate::search::config::Algorithm::AStar, ..*config };
        self.begin(world, start, goal, &config)?;
        if !self.query.weighted {
            if self.canon.as_ref().is_none_or(|c| c.rule != config.diagonal || c.costs != config.costs) {
                self.canon = Some(Canon::shared(config.diagonal, config.costs));
            }
            self.query.canonical = true;
            self.late.clear();
            self.moves.resize(self.nodes.info.len(), 0);
            if let Some(slot) = self.nodes.find(start) {
                self.moves[slot] = 1 << START;
            }
        }
        self.run_to_end(world)
    }

    /// Advances the begun search until it finds the goal or fails.
    pub(crate) fn run_to_end(&mut self, world: &VoxelWorld) -> Result<Path, PathError> {
        loop {
            match self.advance(world, usize::MAX) {
                SearchStep::Found(path) => return Ok(path),
                SearchStep::Failed(e) => return Err(e),
                SearchStep::Pending => {}
            }
        }
    }

    /// Starts a search that [`advance`](Self::advance) carries out, a slice at a time.
    ///
    /// # Errors
    /// The endpoint and cost errors of [`find_voxel_path`](Self::find_voxel_path), at once.
    pub fn begin(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
    ) -> Result<(), PathError> {
        self.query.done = true;
        config.validate()?;
        config.check_costs_fit(world)?;
        let pass = config.pass();
        if !world.contains(start) {
            return Err(PathError::StartOutOfBounds(start));
        }
        if !world.contains(goal) {
            return Err(PathError::GoalOutOfBounds(goal));
        }
        if !world.passable(start, pass) {
            return Err(PathError::StartBlocked(start));
        }
        if !world.passable(goal, pass) {
            return Err(PathError::GoalBlocked(goal));
        }
        let needed = search_table_bytes(world, config);
        let limit = world.limits().max_search_bytes;
        if needed > limit {
            return Err(PathError::MemoryLimit { needed, limit });
        }
        let mut move_cost = [0; MOVES];
        for (m, c) in move_cost.iter_mut().enumerate() {
            *c = config.costs.cost(axes(m));
        }
        if self.ext.begin(world, start, goal, config) {
            return Ok(());
        }
        let weighted = config.priced_media(world);
        self.query = Query {
            goal,
            config: *config,
            pass: Some(pass),
            move_cost,
            weighted,
            canonical: false,
            done: false,
            world: (world.dims(), world.revision()),
        };
        self.stats = SearchStats { weight: 100, ..SearchStats::default() };
        self.open.clear();
        self.nodes.reset(world.dims());
        let slot = self.nodes.slot(start);
        self.nodes.g[slot] = 0;
        self.nodes.info[slot] = OPEN | NO_PARENT;
        let h = config.heuristic.estimate(goal - start, &config.costs);
        self.open.push(h, slot as u32);
        self.stats.generated = 1;
        self.stats.peak_open = 1;
        Ok(())
    }

    /// Expands at most `budget` more nodes of the search started by [`begin`](Self::begin).
    /// `world` must be the world given to `begin`, unchanged: otherwise the search fails with
    /// [`PathError::WorldChanged`].
    ///
    /// Returns [`SearchStep::Pending`] while the search goes on; the result is the same as
    /// [`find_voxel_path`](Self::find_voxel_path)'s, however it is sliced. After a
    /// `Found`/`Failed` step, or with no search begun, it returns
    /// `Failed(PathError::Unreachable)` until the next `begin`.
    pub fn advance(&mut self, world: &VoxelWorld, budget: usize) -> SearchStep {
        if let Some(step) = self.ext.advance(world, budget) {
            return step;
        }
        let Some(pass) = self.query.pass.filter(|_| !self.query.done) else {
            return SearchStep::Failed(PathError::Unreachable { expanded: 0 });
        };
        let q = self.query;
        if q.world != (world.dims(), world.revision()) {
            self.query.done = true;
            return SearchStep::Failed(PathError::WorldChanged);
        }
        let (rule, heuristic, costs) = (q.config.diagonal, q.config.heuristic, q.config.costs);
        let canon = if q.canonical { self.canon.clone() } else { None };
        let max_expansions = q.config.max_expansions.unwrap_or(usize::MAX);
        let mut left = budget;
        while let Some((_, slot)) = self.open.peek() {
            let slot = slot as usize;
            let g = self.nodes.g[slot];
            if self.nodes.info[slot] & CLOSED != 0 {
                self.open.pop();
                continue;
            }
            let v = self.nodes.voxel(slot);
            if v == q.goal {
                self.query.done = true;
                return SearchStep::Found(self.build_path(world, slot, g));
            }
            if self.stats.expanded >= max_expansions {
                self.query.done = true;
                return SearchStep::Failed(PathError::BudgetExhausted { expanded: self.stats.expanded });
            }
            if left == 0 {
                return SearchStep::Pending;
            }
            // The open list's entries are counted as held (16 bytes each), not its capacity.
            let held = self.nodes.heap_bytes() + self.open.len() * 16;
            if held + 8 * CHUNK_PAGE_BYTES > world.limits().max_search_bytes {
                self.query.done = true;
                let needed = held + 8 * CHUNK_PAGE_BYTES;
                return SearchStep::Failed(PathError::MemoryLimit { needed, limit: world.limits().max_search_bytes });
            }
            self.open.pop();
            left -= 1;
            self.nodes.info[slot] |= CLOSED;
            self.stats.expanded += 1;
            let inside = interior(v);
            let mask = world.blocked_mask(v, pass);
            if let Some(canon) = canon.as_deref() {
                let tried = canon.successors_of_any(self.moves[slot], mask);
                self.moves[slot] = tried;
                self.relax_canonical(world, canon, slot, v, g, tried);
                while let Some((ls, extra)) = self.late.pop() {
                    let (lv, lg) = (self.nodes.voxel(ls), self.nodes.g[ls]);
                    self.relax_canonical(world, canon, ls, lv, lg, extra);
                }
                self.stats.peak_open = self.stats.peak_open.max(self.open.len());
                continue;
            }
            let mut legal = legal_moves(mask, rule);
            while legal != 0 {
                let m = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let n = v + OFFSETS[m];
                let mut cost = q.move_cost[m];
                if q.weighted {
                    cost = q.config.entry_cost(world, n, cost);
                }
                let ns = if inside { slot.wrapping_add_signed(SLOT_DELTA[m]) } else { self.nodes.slot(n) };
                let info = self.nodes.info[ns];
                if info & CLOSED != 0 {
                    continue;
                }
                let ng = g + cost;
                if info & OPEN == 0 || ng < self.nodes.g[ns] {
                    self.nodes.g[ns] = ng;
                    self.nodes.info[ns] = OPEN | m as u8;
                    let f = ng + heuristic.estimate(q.goal - n, &costs);
                    self.open.push(f, ns as u32);
                    self.stats.generated += 1;
                }
            }
            self.stats.peak_open = self.stats.peak_open.max(self.open.len());
        }
        self.query.done = true;
        SearchStep::Failed(PathError::Unreachable { expanded: self.stats.expanded })
    }

    /// The canonical search's relaxation of the voxels `u + OFFSETS[m]` for the moves `m` in
    /// `moves` from the closed voxel `u` (cost `g`); see [`Canon::successors_of_any`] for the
    /// ties it keeps.
    fn relax_canonical(&mut self, world: &VoxelWorld, canon: &Canon, slot: usize, u: IVec3, g: u64, mut moves: u32) {
        let q = self.query;
        let Some(pass) = q.pass else { return };
        let inside = interior(u);
        while moves != 0 {
            let m = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let n = u + OFFSETS[m];
            let ns = if inside {
                slot.wrapping_add_signed(SLOT_DELTA[m])
            } else {
                let ns = self.nodes.slot(n);
                // A new node page may have been made: `moves` follows it.
                self.moves.resize(self.nodes.info.len().max(self.moves.len()), 0);
                ns
            };
            let info = self.nodes.info[ns];
            let ng = g + q.move_cost[m];
            if info & CLOSED != 0 {
                if ng == self.nodes.g[ns] {
                    let extra = canon.untried(m, world.blocked_mask(n, pass), &mut self.moves[ns]);
                    if extra != 0 {
                        self.late.push((ns, extra));
                    }
                }
                continue;
            }
            if info & OPEN == 0 || ng < self.nodes.g[ns] {
                self.nodes.g[ns] = ng;
                self.nodes.info[ns] = OPEN | m as u8;
                self.moves[ns] = 1 << m;
                let f = ng + q.config.heuristic.estimate(q.goal - n, &q.config.costs);
                self.open.push(f, ns as u32);
                self.stats.generated += 1;
            } else if ng == self.nodes.g[ns] {
                self.moves[ns] |= 1 << m;
            }
        }
    }

    /// Statistics of the current (or last) search.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.ext.stats().unwrap_or(self.stats)
    }

    /// Bytes of heap this pathfinder holds.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.nodes.heap_bytes() + self.open.heap_bytes() + self.ext.heap_bytes()
    }

    fn build_path(&self, world: &VoxelWorld, goal_slot: usize, cost: u64) -> Path {
        let nodes = &self.nodes;
        Path::retrace(world, nodes.voxel(goal_slot), cost, self.stats, |v| {
            let slot = nodes.find(v).expect("a parent was touched by this search");
            let m = nodes.info[slot] & PARENT_MASK;
            (m != NO_PARENT).then_some(m as usize)
        })
    }
}

/// The voxels of two world-space endpoints.
///
/// # Errors
/// [`PathError::NonFinite`] naming the first endpoint with a NaN or infinite coordinate.
pub(crate) fn endpoint_voxels(world: &VoxelWorld, start: Vec3, goal: Vec3) -> Result<(IVec3, IVec3), PathError> {
    if !start.is_finite() {
        return Err(PathError::NonFinite { which: "start" });
    }
    if !goal.is_finite() {
        return Err(PathError::NonFinite { which: "goal" });
    }
    Ok((world.voxel_at(start), world.voxel_at(goal)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The canonical detour search against plain A* (exact) on sparse seeded worlds full of
    /// equal-cost ties: from one start to every voxel, the same cost, and a path whenever A*
    /// finds one (with one move kept per voxel, ties cost optimality and reachability).
    #[test]
    fn canonical_detours_cost_what_plain_a_star_does() {
        use crate::medium::Voxel;
        use crate::search::config::{CostModel, DiagonalRule};
        let mut seed = 0x5EED_u64;
        let mut next = |n: u32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % u64::from(n)) as i32
        };
        let (mut plain, mut canonical) = (Pathfinder::new(), Pathfinder::new());
        let mut compared = 0;
        for i in 0..120 {
            let dims = glam::UVec3::new(5 + next(8) as u32, 5 + next(8) as u32, 3 + next(6) as u32);
            let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
            let d = dims.as_ivec3();
            let density = [3, 8, 15][i % 3];
            for _ in 0..(d.x * d.y * d.z * density / 100) {
                let v = IVec3::new(next(d.x as u32), next(d.y as u32), next(d.z as u32));
                world.set(v, Voxel::Solid).unwrap();
            }
            let diagonal = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][i / 3 % 3];
            let costs = [CostModel::GAME, CostModel::PRECISE, CostModel { face: 10, edge: 20, corner: 30 }][i / 9 % 3];
            let config = SearchConfig { diagonal, costs, ..Default::default() };
            let a = IVec3::new(next(d.x as u32), next(d.y as u32), next(d.z as u32));
            for z in 0..d.z {
                for y in 0..d.y {
                    for x in 0..d.x {
                        let b = IVec3::new(x, y, z);
                        let want = plain.find_voxel_path(&world, a, b, &config).map(|p| p.cost);
                        let got = canonical.find_detour(&world, a, b, &config).map(|p| p.cost);
                        assert_eq!(got, want, "world {i}: {a} -> {b}, {diagonal:?}, {costs:?}");
                        compared += usize::from(want.is_ok());
                    }
                }
            }
        }
        assert!(compared > 20_000, "only {compared} paths compared");
    }

    #[test]
    fn world_and_pathfinder_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<VoxelWorld>();
        check::<Pathfinder>();
    }
}
