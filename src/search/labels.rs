//! Searches that ask [`Components`] first: a goal in another component than the start is
//! answered at once, and [`Fallback::Closest`] heads straight for the closest reachable voxel.
//! The labels themselves (`grid/components.rs`) know nothing of searches.

use glam::{IVec3, Vec3};

use crate::error::PathError;
use crate::grid::components::Components;
use crate::grid::world::VoxelWorld;
use crate::search::config::{CostModel, DiagonalRule, Fallback, SearchConfig};
use crate::search::heuristic::Heuristic;
use crate::search::path::Path;
use crate::search::pathfinder::Pathfinder;

impl Components {
    /// Whether these labels answer queries with `config` on `world`: current, same media, same
    /// diagonal rule (see [`describes`](Self::describes)), and no
    /// [`clearance`](SearchConfig::clearance) (labels are for agents of one voxel).
    #[must_use]
    pub fn applies_to(&self, world: &VoxelWorld, config: &SearchConfig) -> bool {
        config.clearance == 0 && self.describes(world, &config.media, config.diagonal)
    }
}

/// The voxel of component `label` closest to `goal` in [`Fallback::Closest`]'s order: octile
/// distance, then lowest `(z, y, x)`.
fn closest(components: &Components, world: &VoxelWorld, label: u32, goal: IVec3) -> Option<IVec3> {
    components.closest_by(world, label, goal, |v| Heuristic::Octile.estimate(goal - v, &CostModel::PRECISE))
}

impl Pathfinder {
    /// [`begin`](Pathfinder::begin), asking `components` first: a goal in another component
    /// than the start fails at once with `Unreachable { expanded: 0 }` (or, with
    /// [`Fallback::Closest`], the search heads straight for the closest reachable voxel).
    /// Labels that are stale or for other media or another diagonal rule are ignored (see
    /// [`Components::applies_to`]): the search then runs as usual.
    ///
    /// # Errors
    /// As [`begin`](Pathfinder::begin), plus [`PathError::Unreachable`] at once.
    pub fn begin_with(
        &mut self,
        world: &VoxelWorld,
        components: &Components,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
    ) -> Result<(), PathError> {
        // A bad configuration is an error even where the labels alone could answer.
        config.validate()?;
        config.check_costs_fit(world)?;
        if components.applies_to(world, config)
            && let (Some(a), Some(b)) = (components.label(world, start), components.label(world, goal))
            && a != b
        {
            if config.fallback == Fallback::Closest {
                // Under `Faces`, a voxel with the start's label may still be out of reach: the
                // search's own fallback finds the closest reachable one.
                if components.rule() == DiagonalRule::Faces {
                    return self.begin(world, start, goal, config);
                }
                if let Some(target) = closest(components, world, a, goal) {
                    return self.begin(world, start, target, &SearchConfig { fallback: Fallback::Fail, ..*config });
                }
            }
            return Err(PathError::Unreachable { expanded: 0 });
        }
        self.begin(world, start, goal, config)
    }

    /// [`find_voxel_path`](Pathfinder::find_voxel_path), asking `components` first (see
    /// [`begin_with`](Self::begin_with)).
    ///
    /// # Errors
    /// As [`find_voxel_path`](Pathfinder::find_voxel_path); an unreachable goal fails at once.
    pub fn find_voxel_path_with(
        &mut self,
        world: &VoxelWorld,
        components: &Components,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
    ) -> Result<Path, PathError> {
        self.begin_with(world, components, start, goal, config)?;
        self.run_to_end(world)
    }

    /// [`find_path`](Pathfinder::find_path) (world-space endpoints), asking `components` first.
    ///
    /// # Errors
    /// [`PathError::NonFinite`], else as [`find_voxel_path_with`](Self::find_voxel_path_with).
    pub fn find_path_with(
        &mut self,
        world: &VoxelWorld,
        components: &Components,
        start: Vec3,
        goal: Vec3,
        config: &SearchConfig,
    ) -> Result<Path, PathError> {
        let (start, goal) = crate::search::pathfinder::endpoint_voxels(world, start, goal)?;
        self.find_voxel_path_with(world, components, start, goal, config)
    }
}
