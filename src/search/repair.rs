//! Repair, not replan: after an edit, a path is mended around the stretch it broke on, reusing
//! what is still good on both sides.

use glam::IVec3;

use crate::error::PathError;
use crate::grid::moves::{axes, index_of, legal_moves};
use crate::grid::world::VoxelWorld;
use crate::search::config::{Algorithm, Fallback, SearchConfig};
use crate::search::path::{Path, WorldStamp, step_edited_since, voxel_length};
use crate::search::pathfinder::Pathfinder;
use crate::search::request::PathRequest;

/// Voxels of the old path given back to the detour on each side of the broken stretch. Tuned
/// on the tuning half of the Warframe maps (`docs/living-worlds.md`): the smallest margin
/// whose worst map keeps the mean excess within 1.5 % (half the target), which was also the
/// fastest there.
const MARGIN: usize = 4;

impl Pathfinder {
    /// Mends `path` for an agent now at `path.voxels[from]`, on `world` as it is now: the
    /// stretch from the agent up to a few voxels before the first step that is no longer legal
    /// is kept, a search (with `config`'s algorithm) goes from there to a few voxels past the
    /// first voxel after which the rest of the old path is legal again, and that rest is kept
    /// too. A path that is still legal comes back from `from` on, unchanged. If the detour
    /// finds no way (under
    /// [`DiagonalRule::Faces`](crate::DiagonalRule::Faces) a rejoin point can be out of reach
    /// while the goal is not), a fresh search from the agent to the goal answers instead, with
    /// `config`'s fallback: with [`Fallback::Closest`] and the goal cut off, its path ends at
    /// the closest voxel the agent can reach.
    ///
    /// The result starts at `path.voxels[from]`, ends at the old goal (or, in that case, at the
    /// closest voxel), is legal on `world`, and costs at least the optimum (the detour is optimal
    /// between its ends for the exact algorithms, the whole need not be). Its
    /// [`stats`](Path::stats) are the detour's. Cost: one check of the path's remaining steps,
    /// plus a search whose size follows the detour.
    ///
    /// # Errors
    /// [`PathError::InvalidConfig`] if `from` is past the path's end or the path is empty;
    /// [`PathError::StartBlocked`] if the agent's own voxel is no longer free,
    /// [`PathError::GoalBlocked`] if the goal is not; otherwise those of the search.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{PathCheck, PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(30, 8, 8)).unwrap();
    /// let config = SearchConfig::default();
    /// let mut finder = Pathfinder::new();
    /// let request = PathRequest::new(IVec3::new(0, 3, 3), IVec3::new(29, 3, 3), config);
    /// let path = finder.find(&world, None, &request).unwrap();
    /// world.fill_voxels(IVec3::new(14, 2, 2), IVec3::new(16, 4, 4), Voxel::Solid).unwrap(); // a block drops
    /// assert!(matches!(path.check(&world, &config), PathCheck::Broken { .. }));
    /// let mended = finder.repair_path(&world, &path, 5, &config).unwrap();
    /// assert_eq!(mended.voxels[0], path.voxels[5]);
    /// assert_eq!(mended.voxels.last(), path.voxels.last());
    /// assert_eq!(mended.check(&world, &config), PathCheck::Valid);
    /// ```
    pub fn repair_path(
        &mut self,
        world: &VoxelWorld,
        path: &Path,
        from: usize,
        config: &SearchConfig,
    ) -> Result<Path, PathError> {
        config.validate()?;
        let voxels = &path.voxels;
        if from >= voxels.len() {
            return Err(PathError::InvalidConfig("repair from a voxel past the path's end"));
        }
        let pass = config.pass();
        let rest = &voxels[from..];
        // On the world the path was found on (or a clone made since), a step away from every
        // chunk edited since is as legal as it was: only steps near edits are checked.
        let (lineage, since) = (path.made_on.lineage, path.made_on.revision);
        let known = world.dims() == path.made_on.dims && world.knows_changes_since(lineage, since);
        let radius = i32::from(pass.radius());
        let unchanged = |i: usize| known && !step_edited_since(world, rest[i], rest.get(i + 1).copied(), radius, since);
        let free = |v: IVec3| world.passable(v, pass);
        let step_ok = |a: IVec3, b: IVec3| {
            world.contains(b)
                && index_of(b - a)
                    .is_some_and(|m| legal_moves(world.blocked_mask(a, pass), config.diagonal) >> m & 1 != 0)
        };
        if !free(rest[0]) {
            return Err(PathError::StartBlocked(rest[0]));
        }
        let goal = rest[rest.len() - 1];
        if !free(goal) {
            return Err(PathError::GoalBlocked(goal));
        }
        // The first step that is no longer legal.
        let holds = |i: usize| unchanged(i) || free(rest[i + 1]) && step_ok(rest[i], rest[i + 1]);
        let Some(broken) = (0..rest.len() - 1).position(|i| !holds(i)) else {
            return Ok(spliced(world, config, rest.to_vec(), path.stats));
        };
        // The first voxel past it from which the rest of the old path is legal: scan back from
        // the goal while the steps hold.
        let mut rejoin = rest.len() - 1;
        while rejoin > broken + 1 && holds(rejoin - 1) && (unchanged(rejoin - 1) || free(rest[rejoin - 1])) {
            rejoin -= 1;
        }
        // Leave the old path a little before the break and rejoin it a little after, so the
        // detour is free to round the obstacle as a fresh search would.
        let (leave, rejoin) = (broken.saturating_sub(MARGIN), (rejoin + MARGIN).min(rest.len() - 1));
        // A detour is short: A* with canonical successors beats jump point search's per-chunk
        // scan setup there; the bounded-suboptimal modes keep their own search. It must end at
        // the rejoin point or fail: a path to the voxel closest to it would not join the rest.
        let detour_config = SearchConfig { fallback: Fallback::Fail, ..*config };
        let detour = match config.algorithm {
            Algorithm::Jps | Algorithm::AStar => self.find_detour(world, rest[leave], rest[rejoin], &detour_config),
            _ => self.find(world, None, &PathRequest::new(rest[leave], rest[rejoin], detour_config)),
        };
        match detour {
            Ok(detour) => {
                let mut mended = Vec::with_capacity(leave + detour.voxels.len() + rest.len() - rejoin);
                mended.extend_from_slice(&rest[..leave]);
                mended.extend_from_slice(&detour.voxels);
                mended.extend_from_slice(&rest[rejoin + 1..]);
                Ok(spliced(world, config, mended, detour.stats))
            }
            Err(PathError::Unreachable { .. }) => self.find(world, None, &PathRequest::new(rest[0], goal, *config)),
            Err(e) => Err(e),
        }
    }
}

/// A path through `voxels` on `world` as it is now, its cost summed step by step.
fn spliced(world: &VoxelWorld, config: &SearchConfig, voxels: Vec<IVec3>, stats: crate::SearchStats) -> Path {
    let priced = config.priced_media(world);
    let cost = voxels
        .windows(2)
        .map(|w| {
            let base = index_of(w[1] - w[0]).map_or(0, |m| config.costs.cost(axes(m)));
            if priced { config.entry_cost(world, w[1], base) } else { base }
        })
        .sum();
    let points = voxels.iter().map(|&v| world.voxel_center(v)).collect();
    let length = voxel_length(&voxels) * f64::from(world.voxel_size());
    Path { voxels, points, cost, length, stats, made_on: WorldStamp::of(world) }
}
