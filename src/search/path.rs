//! What a successful search returns.

use glam::{IVec3, Vec3};

use crate::error::PathError;
use crate::grid::moves::{index_of, legal_moves};
use crate::grid::world::VoxelWorld;
use crate::search::config::SearchConfig;

/// Counters of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SearchStats {
    /// Nodes taken from the open list and expanded.
    pub expanded: usize,
    /// Nodes put on the open list (including improvements of a node already on it).
    pub generated: usize,
    /// Largest size the open list reached.
    pub peak_open: usize,
    /// The heuristic weight, in percent, of the search that found the path: its cost is at most
    /// `weight / 100` times the optimum. 100 for the exact searches; for
    /// [`Algorithm::Budget`](crate::Algorithm::Budget), the weight its schedule ended on.
    /// (0 while no path was found.)
    pub weight: u32,
    /// Voxels the sweeps of a jump point search passed through (both sides of a race; 0
    /// for the searches of A*), and the steps of the octile path a query walks first where the
    /// straight line between the ends is clear (see [`Algorithm`](crate::Algorithm)).
    /// With [`expanded`](Self::expanded), the work behind a jump point search's time: one
    /// expansion may sweep thousands of voxels.
    pub swept: usize,
    /// Bytes the query's search held at its peak: the node pages it used and the node page
    /// tables (sized by the world), and its open list's entries (16 bytes each, at their
    /// most). Searches run one after another (the prelude of jump point search, the phases of
    /// the budget mode, the closest-voxel fallback's) count the largest; the two sides of a
    /// race count together. Memory kept for reuse by later queries is not counted: notably
    /// the straight-scan events of jump point search, a cache over the world (6 KB per chunk
    /// with obstacles that any query read, and 8 bytes per chunk of the world; see
    /// [`Pathfinder::memory_bytes`](crate::Pathfinder::memory_bytes)).
    pub peak_bytes: usize,
}

/// A path from start to goal through a [`VoxelWorld`].
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// Voxels from start to goal, inclusive; each step is one legal move.
    pub voxels: Vec<IVec3>,
    /// The centres of [`voxels`](Self::voxels), in world units.
    pub points: Vec<Vec3>,
    /// Total cost in cost units of the query's [`CostModel`](crate::CostModel), media weights
    /// included.
    pub cost: u64,
    /// Euclidean length of the polyline through the voxel centres, in world units.
    pub length: f64,
    /// What the search did.
    pub stats: SearchStats,
    /// The world (object and revision) the path was found on, for [`check`](Self::check).
    pub(crate) made_on: WorldStamp,
}

/// Which world object, in which state, a path was found on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct WorldStamp {
    pub(crate) lineage: u64,
    pub(crate) revision: u64,
    pub(crate) dims: glam::UVec3,
}

impl WorldStamp {
    /// The stamp of `world` as it is now.
    pub(crate) fn of(world: &VoxelWorld) -> Self {
        Self { lineage: world.lineage(), revision: world.revision(), dims: world.dims() }
    }
}

/// What [`Path::check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathCheck {
    /// Every step is still legal.
    Valid,
    /// The path is good up to voxel `at` (an index into [`Path::voxels`]); that voxel is no
    /// longer free for the agent, or the move out of it no longer legal. With `at == 0` the
    /// start itself is blocked.
    Broken {
        /// Index of the last voxel the path still reaches.
        at: usize,
    },
}

/// Euclidean length, in voxels, of a path of voxel steps (each of 1, 2 or 3 axes).
pub(crate) fn voxel_length(voxels: &[IVec3]) -> f64 {
    const LEN: [f64; 4] = [0.0, 1.0, std::f64::consts::SQRT_2, 1.732_050_807_568_877_2];
    voxels
        .windows(2)
        .map(|w| {
            let d = (w[1] - w[0]).abs();
            LEN[(d.x + d.y + d.z) as usize & 3]
        })
        // An empty sum is -0.0; a path of one voxel has length +0.
        .fold(0.0, |a, b| a + b)
}

impl Path {
    /// The same path walked the other way (for a search run from the goal back to the start).
    pub(crate) fn reversed(mut self, world: &crate::VoxelWorld) -> Self {
        self.voxels.reverse();
        self.points.reverse();
        self.length = voxel_length(&self.voxels) * f64::from(world.voxel_size());
        self
    }

    /// The path that ends at `goal`, retraced backwards: `came_by(v)` is the move (an index
    /// into the move offsets) by which the search reached `v`, or `None` at the start.
    /// `scratch` (kept by the caller across searches) holds the voxels goal first, so that the
    /// path's own vector is allocated once, at its length.
    pub(crate) fn retrace(
        world: &crate::VoxelWorld,
        goal: IVec3,
        cost: u64,
        stats: SearchStats,
        scratch: &mut Vec<IVec3>,
        mut came_by: impl FnMut(IVec3) -> Option<usize>,
    ) -> Self {
        scratch.clear();
        scratch.push(goal);
        let mut v = goal;
        while let Some(m) = came_by(v) {
            v -= crate::grid::moves::OFFSETS[m];
            scratch.push(v);
        }
        let voxels: Vec<IVec3> = scratch.iter().rev().copied().collect();
        Self::of_voxels(world, voxels, cost, stats)
    }

    /// The path through `voxels` (start first, one legal move a step) of `cost`.
    pub(crate) fn new(world: &crate::VoxelWorld, voxels: &[IVec3], cost: u64, stats: SearchStats) -> Self {
        Self::of_voxels(world, voxels.to_vec(), cost, stats)
    }

    fn of_voxels(world: &crate::VoxelWorld, voxels: Vec<IVec3>, cost: u64, stats: SearchStats) -> Self {
        let points = voxels.iter().map(|&v| world.voxel_center(v)).collect();
        let length = voxel_length(&voxels) * f64::from(world.voxel_size());
        Self { voxels, points, cost, length, stats, made_on: WorldStamp::of(world) }
    }

    /// Checks the path against `world` as it is now, for an agent searching with `config`
    /// (its media and diagonal rule): whether every step is still legal, or where the path
    /// first breaks. Edits, and chunks whose medium changed, count.
    ///
    /// On the world object the path was found on, or a clone of it made since, only the steps
    /// near chunks edited since are re-checked (the world stamps each 16^3 chunk with the
    /// revision of its last edit; a clone inherits the stamps): the cost follows the path's
    /// length, never the world's size, and an unedited world answers at once. On another world
    /// object (a replaced world, a clone made before the path) every step is checked.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{PathCheck, PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(20, 4, 4)).unwrap();
    /// let config = SearchConfig::default();
    /// let request = PathRequest::new(IVec3::new(0, 1, 1), IVec3::new(19, 1, 1), config);
    /// let path = Pathfinder::new().find(&world, None, &request).unwrap();
    /// assert_eq!(path.check(&world, &config), PathCheck::Valid);
    /// world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(10, 3, 3), Voxel::Solid).unwrap(); // a door closes
    /// let PathCheck::Broken { at } = path.check(&world, &config) else { panic!("the door blocks it") };
    /// assert_eq!(path.voxels[at + 1].x, 10);
    /// ```
    #[must_use]
    pub fn check(&self, world: &VoxelWorld, config: &SearchConfig) -> PathCheck {
        let now = WorldStamp::of(world);
        if now == self.made_on {
            return PathCheck::Valid;
        }
        let since = self.made_on.revision;
        let same_world = now.dims == self.made_on.dims && world.knows_changes_since(self.made_on.lineage, since);
        let pass = config.pass();
        for (i, &v) in self.voxels.iter().enumerate() {
            let next = self.voxels.get(i + 1).copied();
            if same_world && !step_edited_since(world, v, next, i32::from(pass.radius()), since) {
                continue;
            }
            if !world.passable(v, pass) {
                return PathCheck::Broken { at: i.saturating_sub(1) };
            }
            if let Some(n) = next {
                let legal = world.contains(n)
                    && index_of(n - v)
                        .is_some_and(|m| legal_moves(world.blocked_mask(v, pass), config.diagonal) >> m & 1 != 0);
                if !legal {
                    return PathCheck::Broken { at: i };
                }
            }
        }
        PathCheck::Valid
    }
}

/// Whether an edit after `revision` may have changed the step from `v` to `next` (or voxel
/// `v` alone) for an agent of clearance `radius`: whether a chunk within `radius` of the step's
/// box was edited since.
pub(crate) fn step_edited_since(world: &VoxelWorld, v: IVec3, next: Option<IVec3>, radius: i32, revision: u64) -> bool {
    let (lo, hi) = next.map_or((v, v), |n| (v.min(n), v.max(n)));
    let last = world.dims().as_ivec3() - 1;
    let (lo, hi) = ((lo - radius).max(IVec3::ZERO), (hi + radius).min(last));
    lo.cmple(hi).all() && world.edited_since(lo, hi, revision)
}

/// Where a search stands after [`Pathfinder::advance`](crate::Pathfinder::advance).
#[derive(Debug, Clone, PartialEq)]
pub enum SearchStep {
    /// Not finished: call [`Pathfinder::advance`](crate::Pathfinder::advance) again.
    Pending,
    /// The goal was reached.
    Found(Path),
    /// No path (see the error).
    Failed(PathError),
}
