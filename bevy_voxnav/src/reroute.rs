//! Routes after the world is edited: each route is checked against the edits since it was
//! last checked (voxnav's incremental `Path::check`); a broken one is mended from the path voxel
//! nearest the agent (`repair_path`) and flown on from the agent's pose without a jump
//! (`smooth_from`, `Trajectory::continue_from`).

use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use voxnav::{PathCheck, PathError, Pose, Trajectory, smooth_from};

use crate::NavSettings;
use crate::agent::{NavAgent, NavRoute, NavState};
use crate::clock::{FrameClock, spent};
use crate::messages::{PathFailed, Rerouted};
use crate::queue::NavQueue;
use crate::world::NavWorld;

/// Checks and mends the routes of the agents under way when the world has changed.
pub(crate) fn follow_edits(
    nav: Option<Res<NavWorld>>,
    settings: Res<NavSettings>,
    clock: Res<FrameClock>,
    mut queue: ResMut<NavQueue>,
    mut agents: Query<(Entity, &NavAgent, &Transform, &mut NavState, &mut NavRoute)>,
    mut rerouted: MessageWriter<Rerouted>,
    mut failed: MessageWriter<PathFailed>,
) {
    let Some(nav) = nav else { return };
    let world = nav.world();
    let revision = world.revision();
    let deadline = clock.deadline(&settings);
    let mut mended_one = false;
    for (entity, agent, transform, mut state, mut route) in &mut agents {
        if route.checked == revision || *state != NavState::Following {
            continue;
        }
        if mended_one && spent(deadline) {
            return; // the frame's budget is spent: the rest are checked next frame
        }
        route.checked = revision;
        if route.path.check(world, &route.config) == PathCheck::Valid {
            continue;
        }
        mended_one = true;
        let at = transform.translation;
        let from = (0..route.path.voxels.len())
            .min_by(|&a, &b| {
                let d = |i: usize| world.voxel_center(route.path.voxels[i]).distance_squared(at);
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(0);
        let pose = Pose { position: at, orientation: transform.rotation, ..route.pose() };
        let smooth_config = agent.smooth_config(&route.config);
        let mended = queue.finder.repair_path(world, &route.path, from, &route.config).and_then(|path| {
            let smooth = smooth_from(world, pose.position, pose.tangent, &path.voxels, &smooth_config)
                .map_err(|_| PathError::StartBlocked(world.voxel_at(at)))?;
            let trajectory = Trajectory::continue_from(&pose, &smooth, &agent.profile)
                .map_err(|_| PathError::InvalidConfig("the mended path could not be flown"))?;
            Ok((path, trajectory))
        });
        match mended {
            Ok((path, trajectory)) => {
                rerouted.write(Rerouted { entity, length: trajectory.length() });
                route.path = path;
                route.trajectory = trajectory;
                route.progress = 0.0;
            }
            Err(error) => {
                *state = NavState::Failed(error.to_string());
                failed.write(PathFailed { entity, error });
            }
        }
    }
}
