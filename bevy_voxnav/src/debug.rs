//! Debug drawing with Bevy gizmos (feature `debug-draw`): each agent's trajectory ahead, the
//! corridor of path voxels around it, and the voxels near it that its media forbid.

use bevy_color::Color;
use bevy_ecs::prelude::*;
use bevy_gizmos::prelude::Gizmos;
use bevy_math::{IVec3, Vec3};
use bevy_transform::components::Transform;

use crate::agent::{NavAgent, NavRoute};
use crate::world::NavWorld;

/// Path voxels drawn on each side of the agent's nearest one.
const CORRIDOR: usize = 6;
/// Voxels around the agent (Chebyshev radius) checked for blocked ones.
const NEAR: i32 = 2;

/// Draws every agent's route (see the module).
pub(crate) fn draw(mut gizmos: Gizmos, nav: Option<Res<NavWorld>>, agents: Query<(&NavAgent, &Transform, &NavRoute)>) {
    let Some(nav) = nav else { return };
    let world = nav.world();
    let size = world.voxel_size();
    let cube = |v: IVec3| Transform::from_translation(world.voxel_center(v)).with_scale(Vec3::splat(size));
    for (agent, transform, route) in &agents {
        let ahead = route.trajectory.samples_by_length(0.5 * size).unwrap_or_default();
        let ahead = ahead.iter().filter(|p| p.s >= route.progress).map(|p| p.position);
        gizmos.linestrip(ahead, Color::srgb(1.0, 0.2, 0.6));
        let here = world.voxel_at(transform.translation);
        let voxels = &route.path.voxels;
        let nearest = (0..voxels.len()).min_by_key(|&i| (voxels[i] - here).abs().max_element()).unwrap_or(0);
        for &v in &voxels[nearest.saturating_sub(CORRIDOR)..(nearest + CORRIDOR + 1).min(voxels.len())] {
            gizmos.cube(cube(v), Color::srgba(0.2, 0.8, 1.0, 0.4));
        }
        let media = agent.agent.media();
        for z in -NEAR..=NEAR {
            for y in -NEAR..=NEAR {
                for x in -NEAR..=NEAR {
                    let v = here + IVec3::new(x, y, z);
                    if !media.allows(world.get(v)) {
                        gizmos.cube(cube(v), Color::srgb(1.0, 0.3, 0.1));
                    }
                }
            }
        }
    }
}
