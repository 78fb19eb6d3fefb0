//! Moving agents along their routes: each steers toward a point a little ahead on its
//! trajectory, voxnav's [`Avoidance`] (3D ORCA) turns that into velocities that keep agents
//! apart and in the free space of their media, and the agent's `Transform` takes the new
//! position and the trajectory's orientation there.

use bevy_ecs::prelude::*;
use bevy_math::Vec3;
use bevy_time::Time;
use bevy_transform::components::Transform;
use voxnav::{Avoidance, CrowdAgent};

use crate::NavSettings;
use crate::agent::{Destination, NavAgent, NavRoute, NavState};
use crate::messages::Arrived;
use crate::world::NavWorld;

/// The crowd's avoidance state and buffers, reused every frame.
#[derive(Resource, Default)]
pub(crate) struct Crowd {
    avoidance: Avoidance,
    members: Vec<CrowdAgent>,
    entities: Vec<Entity>,
}

/// Seconds over which an agent slows to a stop at its destination.
const BRAKE: f32 = 0.3;

/// Moves every agent by the frame's time (see the module).
#[allow(clippy::too_many_arguments)]
pub(crate) fn move_agents(
    mut commands: Commands,
    time: Res<Time>,
    nav: Option<Res<NavWorld>>,
    settings: Res<NavSettings>,
    mut crowd: ResMut<Crowd>,
    mut agents: Query<(Entity, &NavAgent, &mut Transform, &mut NavState, Option<&mut NavRoute>)>,
    mut arrived: MessageWriter<Arrived>,
) {
    let Some(nav) = nav else { return };
    let world = nav.world();
    let dt = time.delta_secs();
    if !(dt.is_finite() && dt > 0.0) {
        return;
    }
    let size = world.voxel_size();
    let crowd = &mut *crowd;
    crowd.members.clear();
    crowd.entities.clear();
    let mut fastest = 0.0f32;
    for (entity, agent, transform, state, route) in &agents {
        let position = transform.translation;
        let media = agent.agent.media();
        if !media.allows(world.get(world.voxel_at(position))) {
            continue; // walled in by an edit: it waits, and others avoid nothing there
        }
        let mut member = CrowdAgent::new(position, agent.radius(), agent.profile.speed, media);
        if let (NavState::Following, Some(route)) = (state, route) {
            member.velocity = route.velocity;
            let ahead = route.trajectory.pose_at_length(route.progress + settings.look_ahead * size);
            let target = ahead.map_or(position, |p| p.position);
            let to = target - position;
            let at_end = route.progress + settings.look_ahead * size >= route.trajectory.length();
            let speed = if at_end { agent.profile.speed.min(to.length() / BRAKE) } else { agent.profile.speed };
            member.preferred_velocity = to.normalize_or_zero() * speed;
            fastest = fastest.max(agent.profile.speed);
        }
        crowd.members.push(member);
        crowd.entities.push(entity);
    }
    // Steps short enough that no agent crosses more than most of a voxel in one.
    let steps = ((fastest * dt / (0.9 * size)).ceil() as usize).clamp(1, 64);
    let step = dt / steps as f32;
    for _ in 0..steps {
        let Crowd { avoidance, members, .. } = crowd;
        if avoidance.step(world, members, &[], step, &settings.avoidance).is_err() {
            return; // cannot happen with the checks above; nothing moved
        }
    }
    for (member, &entity) in crowd.members.iter().zip(&crowd.entities) {
        let Ok((_, _, mut transform, mut state, route)) = agents.get_mut(entity) else { continue };
        let Some(mut route) = route.filter(|_| *state == NavState::Following) else {
            transform.translation = member.position;
            continue;
        };
        // Progress: the nearest point of the trajectory a little ahead (agents cut corners
        // toward their look-ahead point, so the arc length runs ahead of a projection).
        let length = route.trajectory.length();
        let reach = settings.look_ahead * size;
        let samples = (reach / (0.25 * size)).ceil().max(1.0) as usize;
        let nearest = (0..=samples)
            .map(|k| (route.progress + reach * k as f32 / samples as f32).min(length))
            .filter_map(|s| {
                route.trajectory.pose_at_length(s).ok().map(|p| (s, p.position.distance_squared(member.position)))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((s, _)) = nearest {
            route.progress = route.progress.max(s);
        }
        route.velocity = member.velocity;
        transform.translation = member.position;
        transform.rotation = route.pose().orientation;
        let end = route.trajectory.pose_at_length(length).map_or(member.position, |p| p.position);
        let near_end = route.progress + reach >= length;
        if near_end && member.position.distance(end) <= settings.arrive_distance * size {
            *state = NavState::Arrived;
            route.velocity = Vec3::ZERO;
            commands.entity(entity).remove::<Destination>();
            arrived.write(Arrived { entity });
        }
    }
}
