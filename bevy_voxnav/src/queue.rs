//! Path requests: agents with a new [`Destination`] file one; the queue works them off within
//! the per-frame budget and turns each path into a route.

use bevy_ecs::prelude::*;
use bevy_platform::collections::HashMap;
use bevy_transform::components::Transform;
use voxnav::{
    PathError, PathQueue, PathRequest, Pathfinder, Pose, SearchConfig, Ticket, Trajectory, smooth_from, smooth_path,
};

use crate::NavSettings;
use crate::agent::{Destination, NavAgent, NavRoute, NavState};
use crate::messages::{PathFailed, PathFound};
use crate::world::NavWorld;

/// The plugin's path queue (voxnav's [`PathQueue`]: urgent requests first, nothing starves,
/// results valid on the world of the frame they are delivered in) and the requests in it.
#[derive(Resource, Default)]
pub struct NavQueue {
    queue: PathQueue,
    /// Each open request: its agent and search settings.
    open: HashMap<Ticket, (Entity, SearchConfig)>,
    /// Each agent's open request.
    of_agent: HashMap<Entity, Ticket>,
    /// For repairs after edits.
    pub(crate) finder: Pathfinder,
}

impl NavQueue {
    /// Requests waiting or being searched.
    #[must_use]
    pub fn len(&self) -> usize {
        self.open.len()
    }

    /// Whether no request is open.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    fn cancel(&mut self, entity: Entity) {
        if let Some(ticket) = self.of_agent.remove(&entity) {
            self.queue.cancel(ticket);
            self.open.remove(&ticket);
        }
    }
}

/// Files a request for every agent whose [`Destination`] is new or changed (or that waited for
/// the navigation world).
pub(crate) fn request_paths(
    nav: Option<Res<NavWorld>>,
    settings: Res<NavSettings>,
    mut queue: ResMut<NavQueue>,
    mut agents: Query<(Entity, &NavAgent, &Transform, Ref<Destination>, &mut NavState)>,
    mut failed: MessageWriter<PathFailed>,
) {
    let Some(nav) = nav else { return };
    let world = nav.world();
    for (entity, agent, transform, destination, mut state) in &mut agents {
        if !(destination.is_changed() || *state == NavState::Idle) {
            continue;
        }
        queue.cancel(entity);
        let config = match agent.search_config(world, settings.algorithm) {
            Ok(c) => c,
            Err(e) => {
                *state = NavState::Failed(e.to_string());
                failed.write(PathFailed {
                    entity,
                    error: PathError::InvalidConfig("the agent is too large for the world's voxels"),
                });
                continue;
            }
        };
        let request = PathRequest::new(world.voxel_at(transform.translation), world.voxel_at(destination.0), config);
        let ticket = queue.queue.push(request, agent.priority);
        queue.open.insert(ticket, (entity, config));
        queue.of_agent.insert(entity, ticket);
        *state = NavState::Planning;
    }
}

/// Works the queue for at most the frame's budget and gives each finished path to its agent.
pub(crate) fn run_queue(
    mut commands: Commands,
    nav: Option<Res<NavWorld>>,
    settings: Res<NavSettings>,
    mut queue: ResMut<NavQueue>,
    mut agents: Query<(&NavAgent, &Transform, &mut NavState, Option<&NavRoute>)>,
    mut found: MessageWriter<PathFound>,
    mut failed: MessageWriter<PathFailed>,
) {
    let Some(nav) = nav else { return };
    if queue.is_empty() {
        return;
    }
    let world = nav.world();
    let started = std::time::Instant::now();
    let mut left = settings.expansions_per_frame;
    while left > 0 && !queue.is_empty() {
        let slice = if settings.time_budget.is_some() { left.min(TIME_SLICE) } else { left };
        left -= slice;
        let done = queue.queue.update(world, None, slice);
        deliver(&mut commands, world, &mut queue, &mut agents, done, &mut found, &mut failed);
        if settings.time_budget.is_none_or(|budget| started.elapsed() >= budget) {
            break;
        }
    }
}

/// Expansions per slice of the queue's work when a time budget is set.
const TIME_SLICE: usize = 500;

/// Turns finished requests into routes (or failures).
#[allow(clippy::type_complexity)]
fn deliver(
    commands: &mut Commands,
    world: &voxnav::VoxelWorld,
    queue: &mut NavQueue,
    agents: &mut Query<(&NavAgent, &Transform, &mut NavState, Option<&NavRoute>)>,
    done: Vec<(Ticket, Result<voxnav::Path, PathError>)>,
    found: &mut MessageWriter<PathFound>,
    failed: &mut MessageWriter<PathFailed>,
) {
    for (ticket, result) in done {
        let Some((entity, config)) = queue.open.remove(&ticket) else { continue };
        queue.of_agent.remove(&entity);
        let Ok((agent, transform, mut state, old)) = agents.get_mut(entity) else { continue };
        let path = match result {
            Ok(path) => path,
            Err(error) => {
                *state = NavState::Failed(error.to_string());
                failed.write(PathFailed { entity, error });
                continue;
            }
        };
        let smooth_config = agent.smooth_config(&config);
        // An agent under way goes on from its pose; a resting one starts at its voxel.
        let moving = old.filter(|r| r.velocity.length_squared() > 1e-6);
        let trajectory = match moving {
            Some(route) => {
                let pose = Pose {
                    position: transform.translation,
                    tangent: route.velocity.normalize(),
                    orientation: transform.rotation,
                    ..route.pose()
                };
                smooth_from(world, pose.position, pose.tangent, &path.voxels, &smooth_config)
                    .map_err(|e| e.to_string())
                    .and_then(|s| Trajectory::continue_from(&pose, &s, &agent.profile).map_err(|e| e.to_string()))
            }
            None => smooth_path(world, &path, &smooth_config)
                .map_err(|e| e.to_string())
                .and_then(|s| Trajectory::new(&s, &agent.profile).map_err(|e| e.to_string())),
        };
        match trajectory {
            Ok(trajectory) => {
                found.write(PathFound { entity, length: trajectory.length(), expanded: path.stats.expanded });
                let velocity = moving.map_or(bevy_math::Vec3::ZERO, |r| r.velocity);
                let checked = world.revision();
                commands.entity(entity).insert(NavRoute { path, trajectory, progress: 0.0, velocity, config, checked });
                *state = NavState::Following;
            }
            Err(e) => {
                *state = NavState::Failed(e);
                failed.write(PathFailed { entity, error: PathError::InvalidConfig("the path could not be smoothed") });
            }
        }
    }
}
