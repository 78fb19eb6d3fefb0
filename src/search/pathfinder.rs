//! [`Pathfinder`]: reusable search state over a [`VoxelWorld`], the one way in to every search.

use glam::IVec3;

use crate::error::PathError;
use crate::grid::components::Components;
use crate::grid::world::VoxelWorld;
use crate::search::config::{Algorithm, SearchConfig};
use crate::search::dispatch::Dispatch;
use crate::search::labels;
use crate::search::memory::search_table_bytes;
use crate::search::path::{Path, SearchStats, SearchStep};
use crate::search::request::PathRequest;

/// Reusable search state for A*, jump point search and the budget mode over a [`VoxelWorld`].
///
/// Keep one per thread (or per agent) and reuse it: a query's memory grows with the nodes it
/// touches (for A*, about 9 bytes per voxel of each 16^3 chunk it enters, plus 8 bytes per
/// world chunk for the page table), and the next query reuses it without reallocating.
///
/// One way to search: [`find`](Self::find) a [`PathRequest`] at once, or
/// [`begin`](Self::begin) it and [`advance`](Self::advance) it a slice at a time. See also
/// [`find_paths`](crate::find_paths) (a batch across threads), [`PathQueue`](crate::PathQueue)
/// (requests by priority within a per-frame budget) and [`repair_path`](Self::repair_path)
/// (mending a path after an edit).
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(20, 10, 20)).unwrap();
/// world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(10, 9, 18), Voxel::Solid).unwrap(); // a wall
/// let mut finder = Pathfinder::new();
/// let request = PathRequest::new(IVec3::new(2, 5, 2), IVec3::new(18, 5, 2), SearchConfig::default());
/// let path = finder.find(&world, None, &request).unwrap();
/// assert_eq!(path.voxels.first(), Some(&IVec3::new(2, 5, 2)));
/// assert!(path.voxels.iter().all(|&v| !world.is_blocked(v)));
/// ```
#[derive(Debug, Default, Clone)]
pub struct Pathfinder {
    /// The query's phases and the engines that run them (see `search::dispatch`).
    run: Dispatch,
}

impl Pathfinder {
    /// An empty pathfinder; it allocates on first use.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a cheapest path (optimal with [`Heuristic::Octile`](crate::Heuristic::Octile) or
    /// [`Heuristic::Zero`](crate::Heuristic::Zero)) from `request`'s start voxel to its goal
    /// voxel (a world-space [`Endpoint`](crate::Endpoint) stands for the voxel containing it).
    ///
    /// With `components`, the connectivity labels are asked first: a goal in another component
    /// than the start fails at once with `Unreachable { expanded: 0 }` (or, with
    /// [`Fallback::Closest`](crate::Fallback::Closest), the search heads straight for the
    /// closest reachable voxel). Labels that are stale or for other media or another diagonal
    /// rule are ignored (see [`Components::applies_to`]): the search then runs as usual.
    ///
    /// Deterministic: the same world and query give the same path on every run and platform.
    ///
    /// # Errors
    /// [`PathError::NonFinite`], [`PathError::InvalidCosts`], [`PathError::InvalidConfig`],
    /// [`PathError::StartOutOfBounds`], [`PathError::GoalOutOfBounds`],
    /// [`PathError::StartBlocked`], [`PathError::GoalBlocked`], [`PathError::MemoryLimit`],
    /// [`PathError::Unreachable`], [`PathError::BudgetExhausted`].
    pub fn find(
        &mut self,
        world: &VoxelWorld,
        components: Option<&Components>,
        request: &PathRequest,
    ) -> Result<Path, PathError> {
        self.begin(world, components, request)?;
        self.run_to_end(world)
    }

    /// Builds ahead of time what the first query with `config`'s diagonal rule and cost model
    /// would build on its way: the tables of canonical successors that jump point search and
    /// repairs' detours prune with. They are built once per process for each diagonal rule and
    /// cost model (models that order their costs alike share them), and that first build
    /// costs more than many whole searches (docs/benchmarks.md). Call this while a level
    /// loads, so that no query in play pays for it; every pathfinder of the process then finds
    /// them built. Queries give the same answers with or without it.
    ///
    /// # Errors
    /// [`PathError::InvalidCosts`], [`PathError::InvalidConfig`]: `config` is refused, as
    /// [`find`](Self::find) would refuse it.
    ///
    /// # Examples
    /// ```
    /// use glam::IVec3;
    /// use voxnav::{Algorithm, PathRequest, Pathfinder, SearchConfig, VoxelWorld};
    /// let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(32)).unwrap();
    /// let config = SearchConfig { algorithm: Algorithm::Jps, ..Default::default() };
    /// let mut finder = Pathfinder::new();
    /// finder.prepare(&config).unwrap(); // at load time
    /// let path = finder.find(&world, None, &PathRequest::new(IVec3::ZERO, IVec3::splat(31), config));
    /// assert!(path.is_ok());
    /// ```
    pub fn prepare(&mut self, config: &SearchConfig) -> Result<(), PathError> {
        config.validate()?;
        self.run.prepare(config);
        Ok(())
    }

    /// A cheapest path like [`find`](Self::find) with A* (whatever `config`'s algorithm),
    /// trying from each voxel only its *canonical* successors (the pruning rule of jump point
    /// search, without the jumps): in open space one to seven moves instead of 26, the same
    /// cost. For short searches (a repair's detour), where jump point search's scan setup does
    /// not pay. Media with prices search every move.
    pub(crate) fn find_detour(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
    ) -> Result<Path, PathError> {
        let config = SearchConfig { algorithm: Algorithm::AStar, ..*config };
        self.begin_query(world, start, goal, &config, true)?;
        self.run_to_end(world)
    }

    /// Advances the begun search until it finds the goal or fails.
    fn run_to_end(&mut self, world: &VoxelWorld) -> Result<Path, PathError> {
        loop {
            match self.advance(world, usize::MAX) {
                SearchStep::Found(path) => return Ok(path),
                SearchStep::Failed(e) => return Err(e),
                SearchStep::Pending => {}
            }
        }
    }

    /// Starts the search for `request` (asking `components` first, as [`find`](Self::find)
    /// does) that [`advance`](Self::advance) carries out, a slice at a time.
    ///
    /// # Errors
    /// The endpoint, configuration and memory errors of [`find`](Self::find), at once, and
    /// [`PathError::Unreachable`] when `components` answer.
    pub fn begin(
        &mut self,
        world: &VoxelWorld,
        components: Option<&Components>,
        request: &PathRequest,
    ) -> Result<(), PathError> {
        let (start, goal) = request.voxels(world)?;
        match components {
            Some(components) => {
                let (goal, config) = labels::aim(components, world, start, goal, &request.config)?;
                self.begin_query(world, start, goal, &config, false)
            }
            None => self.begin_query(world, start, goal, &request.config, false),
        }
    }

    /// [`begin`](Self::begin) between two voxels, without labels; `canonical`: a detour (see
    /// [`find_detour`](Self::find_detour)).
    fn begin_query(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
        canonical: bool,
    ) -> Result<(), PathError> {
        self.run.stop();
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
        self.run.begin(world, start, goal, config, canonical);
        Ok(())
    }

    /// Expands at most `budget` more nodes of the search started by [`begin`](Self::begin).
    /// `world` must be the world given to `begin`, unchanged: otherwise the search fails with
    /// [`PathError::WorldChanged`].
    ///
    /// Returns [`SearchStep::Pending`] while the search goes on; the result is the same as
    /// [`find`](Self::find)'s, however it is sliced. A slice's other work is bounded in
    /// proportion to its budget too: a large A\* search's open list now and then moves a share of
    /// its entries between its buckets (millions at once near the end of a search of millions
    /// of nodes), and a slice does a budget's share of that work and returns `Pending`, maybe
    /// having expanded fewer nodes, or none. After a `Found`/`Failed` step, or with no
    /// search begun, it returns `Failed(PathError::Unreachable)` until the next `begin`.
    ///
    /// # Examples
    /// ```
    /// use glam::IVec3;
    /// use voxnav::{PathRequest, Pathfinder, SearchConfig, SearchStep, VoxelWorld};
    /// let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(32)).unwrap();
    /// let request = PathRequest::new(IVec3::ZERO, IVec3::splat(31), SearchConfig::default());
    /// let mut finder = Pathfinder::new();
    /// finder.begin(&world, None, &request).unwrap();
    /// let path = loop {
    ///     match finder.advance(&world, 10) {
    ///         SearchStep::Pending => {} // the next frame
    ///         SearchStep::Found(path) => break path,
    ///         SearchStep::Failed(e) => panic!("{e}"),
    ///     }
    /// };
    /// assert_eq!(Ok(path), Pathfinder::new().find(&world, None, &request));
    /// ```
    pub fn advance(&mut self, world: &VoxelWorld, budget: usize) -> SearchStep {
        let step = self.run.advance(world, budget);
        if !matches!(step, SearchStep::Pending) {
            self.run.keep_within(world.limits().max_search_bytes);
        }
        step
    }

    /// Statistics of the current (or last) search.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.run.stats()
    }

    /// 16^3 chunks whose straight-scan events the jump point search of the last query built
    /// (0 for A*, and for a query its first phase answered). Each costs microseconds, much of
    /// a small query's time. Unlike [`SearchStats`], this depends on the pathfinder's history:
    /// events read by an earlier query on the same world with the same media are kept and not
    /// built again. For measurements.
    #[must_use]
    pub fn chunks_scanned(&self) -> usize {
        self.run.chunks_scanned()
    }

    /// Bytes of heap this pathfinder holds: after a query, at most the world's
    /// [`max_search_bytes`](crate::Limits::max_search_bytes).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.run.heap_bytes()
    }

    /// A testing hook, outside the supported API: how many expansions of A* with canonical
    /// successors an exact jump point search runs before it races its jump searches, and the
    /// budget mode before its first weighted phase (`None`: the default). Answers of exact
    /// searches never depend on it; the query harness sets 0 so that its small worlds reach
    /// the race.
    #[doc(hidden)]
    pub fn set_jps_prelude(&mut self, expansions: Option<usize>) {
        self.run.set_prelude(expansions);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

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
        for i in 0..216 {
            let dims = glam::UVec3::new(5 + next(8) as u32, 5 + next(8) as u32, 3 + next(6) as u32);
            let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
            let d = dims.as_ivec3();
            let density = [3, 8, 15][i % 3];
            for _ in 0..(d.x * d.y * d.z * density / 100) {
                let v = IVec3::new(next(d.x as u32), next(d.y as u32), next(d.z as u32));
                world.set(v, Voxel::Solid).unwrap();
            }
            let diagonal = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][i / 3 % 3];
            // The built-in models, then ties: 2 face = edge, corner + face = 2 edge, and
            // edge = corner (where the pruning is off).
            let models = [(10, 14, 17), (10, 20, 30), (10, 15, 20), (6, 8, 8), (10, 10, 10)];
            let costs = match models.get(i / 9 % 6) {
                Some(&(face, edge, corner)) => CostModel { face, edge, corner },
                None => CostModel::PRECISE,
            };
            let config = SearchConfig { diagonal, costs, ..Default::default() };
            let a = IVec3::new(next(d.x as u32), next(d.y as u32), next(d.z as u32));
            for z in 0..d.z {
                for y in 0..d.y {
                    for x in 0..d.x {
                        let b = IVec3::new(x, y, z);
                        let want = plain.find(&world, None, &PathRequest::new(a, b, config)).map(|p| p.cost);
                        let got = canonical.find_detour(&world, a, b, &config).map(|p| p.cost);
                        assert_eq!(got, want, "world {i}: {a} -> {b}, {diagonal:?}, {costs:?}");
                        compared += usize::from(want.is_ok());
                    }
                }
            }
        }
        assert!(compared > 20_000, "only {compared} paths compared");
    }

    /// `prepare` hands every pruning engine the process's shared tables, refuses what `find`
    /// refuses, and changes no answer.
    #[test]
    fn prepare_hands_out_the_tables_a_query_would_build() {
        use crate::search::config::{Algorithm, CostModel, DiagonalRule};
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, glam::UVec3::new(40, 20, 20)).unwrap();
        world.fill_voxels(IVec3::new(20, 0, 0), IVec3::new(20, 17, 19), crate::medium::Voxel::Solid).unwrap();
        for (diagonal, costs) in [
            (DiagonalRule::Strict, CostModel::GAME),
            (DiagonalRule::Unchecked, CostModel::PRECISE),
            (DiagonalRule::Strict, CostModel { face: 10, edge: 20, corner: 30 }),
        ] {
            let config = SearchConfig { algorithm: Algorithm::Jps, diagonal, costs, ..Default::default() };
            let mut prepared = Pathfinder::new();
            assert!(!prepared.run.holds_tables(&config));
            prepared.prepare(&config).unwrap();
            assert!(prepared.run.holds_tables(&config), "{diagonal:?} {costs:?}");
            let request = PathRequest::new(IVec3::new(2, 3, 4), IVec3::new(37, 5, 15), config);
            assert_eq!(prepared.find(&world, None, &request), Pathfinder::new().find(&world, None, &request));
        }
        let bad = SearchConfig { costs: CostModel { face: 0, edge: 14, corner: 17 }, ..Default::default() };
        let request = PathRequest::new(IVec3::new(2, 3, 4), IVec3::new(37, 5, 15), bad);
        let refused = Pathfinder::new().find(&world, None, &request).unwrap_err();
        assert_eq!(Pathfinder::new().prepare(&bad), Err(refused));
    }

    #[test]
    fn world_and_pathfinder_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<VoxelWorld>();
        check::<Pathfinder>();
    }
}
