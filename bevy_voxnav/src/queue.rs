//! Path requests: agents with a new [`Destination`] file one; the queue works them off within
//! the per-frame budget and turns each path into a route.

use std::collections::VecDeque;
use std::time::Duration;

use bevy_ecs::prelude::*;
use bevy_platform::collections::HashMap;
use bevy_transform::components::Transform;
use voxnav::{
    PathCheck, PathError, PathQueue, PathRequest, Pathfinder, Pose, SearchConfig, Ticket, Trajectory, smooth_from,
    smooth_path,
};

use crate::NavSettings;
use crate::agent::{Destination, NavAgent, NavRoute, NavState};
use crate::clock::{FrameClock, spent};
use crate::messages::{PathFailed, PathFound};
use crate::world::NavWorld;

/// The plugin's path queue (voxnav's [`PathQueue`]: urgent requests first, nothing starves,
/// results valid on the world of the frame they are delivered in) and the requests in it.
#[derive(Resource)]
pub struct NavQueue {
    queue: PathQueue,
    /// Each open request: its agent and search settings.
    open: HashMap<Ticket, (Entity, SearchConfig)>,
    /// Each agent's open request.
    of_agent: HashMap<Entity, Ticket>,
    /// Results not yet given to their agents (the frame's time budget ran out).
    pending: VecDeque<(Ticket, Result<voxnav::Path, PathError>)>,
    /// Recent cost of delivering a path (smoothing it, making its trajectory), per voxel of
    /// the path: a moving average.
    per_voxel: Duration,
    /// Frames in a row that ended with paths waiting and none delivered.
    stalled: u32,
    /// For repairs after edits.
    pub(crate) finder: Pathfinder,
}

impl Default for NavQueue {
    fn default() -> Self {
        Self {
            queue: PathQueue::default(),
            open: HashMap::default(),
            of_agent: HashMap::default(),
            pending: VecDeque::new(),
            // A prior until deliveries are measured (1.5 us per voxel was typical on a
            // 2-core VM): generous, so the first frames do not overrun.
            per_voxel: Duration::from_micros(3),
            stalled: 0,
            finder: Pathfinder::default(),
        }
    }
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

/// Works the queue for at most the frame's budget and gives each finished path to its agent:
/// first those that waited from earlier frames, then what this frame's search finishes.
pub(crate) fn run_queue(
    nav: Option<Res<NavWorld>>,
    settings: Res<NavSettings>,
    clock: Res<FrameClock>,
    mut queue: ResMut<NavQueue>,
    mut out: Out,
) {
    let Some(nav) = nav else { return };
    if queue.is_empty() {
        return;
    }
    let world = nav.world();
    let deadline = clock.deadline(&settings);
    // Paths that waited go first (while the next one's expected cost fits), then the search
    // runs to the deadline (at least one slice when nothing waits); what it finds is delivered
    // while that fits, else first thing next frame.
    let mut delivered = false;
    deliver(world, &mut queue, &mut out, deadline, &mut delivered);
    if !queue.queue.is_empty() && (queue.pending.is_empty() || !spent(deadline)) {
        let done = queue.queue.update_until(world, None, settings.expansions_per_frame, deadline);
        queue.pending.extend(done);
        deliver(world, &mut queue, &mut out, deadline, &mut delivered);
    }
    // A path that never fits the budget is delivered anyway after a few frames of waiting.
    queue.stalled = if delivered || queue.pending.is_empty() { 0 } else { queue.stalled + 1 };
}

/// Where delivered paths go.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Out<'w, 's> {
    commands: Commands<'w, 's>,
    #[allow(clippy::type_complexity)]
    agents: Query<'w, 's, (&'static NavAgent, &'static Transform, &'static mut NavState, Option<&'static NavRoute>)>,
    found: MessageWriter<'w, PathFound>,
    failed: MessageWriter<'w, PathFailed>,
}

/// Delivers waiting results while the next one's expected cost fits before the deadline (or,
/// after [`STALL_FRAMES`] frames without a delivery, one anyway); `delivered` tells whether
/// one was this frame.
fn deliver(
    world: &voxnav::VoxelWorld,
    queue: &mut NavQueue,
    out: &mut Out,
    deadline: Option<std::time::Instant>,
    delivered: &mut bool,
) {
    while let Some((ticket, result)) = queue.pending.pop_front() {
        let voxels = result.as_ref().map_or(1, |p| p.voxels.len()) as u32;
        let fits = deadline.is_none_or(|d| std::time::Instant::now() + queue.per_voxel * voxels <= d);
        if !fits && (*delivered || queue.stalled < STALL_FRAMES) {
            queue.pending.push_front((ticket, result));
            break;
        }
        let t = std::time::Instant::now();
        deliver_one(world, queue, out, ticket, result);
        // A moving average: one slow delivery (the machine busy elsewhere) must not hold back
        // the next ones for long.
        queue.per_voxel = queue.per_voxel.mul_f32(0.75) + (t.elapsed() / voxels.max(1)).mul_f32(0.25);
        *delivered = true;
    }
}

/// Frames a waiting path may wait for time to be delivered in before it is delivered anyway.
const STALL_FRAMES: u32 = 3;

/// Turns a finished request into a route (or a failure). A path found on an earlier world
/// that an edit has broken since is asked for again.
fn deliver_one(
    world: &voxnav::VoxelWorld,
    queue: &mut NavQueue,
    out: &mut Out,
    ticket: Ticket,
    result: Result<voxnav::Path, PathError>,
) {
    let Out { commands, agents, found, failed } = out;
    {
        let Some((entity, config)) = queue.open.remove(&ticket) else { return };
        queue.of_agent.remove(&entity);
        let Ok((agent, transform, mut state, old)) = agents.get_mut(entity) else { return };
        let path = match result {
            Ok(path) if path.check(world, &config) != PathCheck::Valid => {
                *state = NavState::Idle; // filed again next frame
                return;
            }
            Ok(path) => path,
            Err(error) => {
                *state = NavState::Failed(error.to_string());
                failed.write(PathFailed { entity, error });
                return;
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
