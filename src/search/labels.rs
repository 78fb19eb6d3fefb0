//! Searches that ask [`Components`] first: a goal in another component than the start is
//! answered at once, and [`Fallback::Closest`] heads straight for the closest reachable voxel.
//! The labels themselves (`grid/components.rs`) know nothing of searches.

use glam::IVec3;

use crate::error::PathError;
use crate::grid::components::Components;
use crate::grid::world::VoxelWorld;
use crate::search::config::{CostModel, DiagonalRule, Fallback, SearchConfig};
use crate::search::heuristic::Heuristic;

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

/// What `components` say of a query from `start` to `goal`: the goal and configuration to
/// search with. A goal in another component than the start fails at once with
/// `Unreachable { expanded: 0 }`, or, with [`Fallback::Closest`], becomes the closest voxel of
/// the start's component (searched for with [`Fallback::Fail`]). Labels that are stale or for
/// other media or another diagonal rule are ignored (see [`Components::applies_to`]): the
/// query is then searched as given.
///
/// # Errors
/// The configuration's errors (checked even where the labels alone could answer), and
/// [`PathError::Unreachable`].
pub(crate) fn aim(
    components: &Components,
    world: &VoxelWorld,
    start: IVec3,
    goal: IVec3,
    config: &SearchConfig,
) -> Result<(IVec3, SearchConfig), PathError> {
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
                return Ok((goal, *config));
            }
            if let Some(target) = closest(components, world, a, goal) {
                return Ok((target, SearchConfig { fallback: Fallback::Fail, ..*config }));
            }
        }
        return Err(PathError::Unreachable { expanded: 0 });
    }
    Ok((goal, *config))
}
