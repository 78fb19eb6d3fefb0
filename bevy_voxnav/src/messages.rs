//! What the plugin tells the game, as Bevy messages (read them with `MessageReader`).

use bevy_ecs::prelude::*;
use voxnav::PathError;

/// An agent's path was found; it starts to fly it.
#[derive(Message, Debug, Clone)]
pub struct PathFound {
    /// The agent.
    pub entity: Entity,
    /// Length of the smoothed trajectory, world units.
    pub length: f32,
    /// Nodes the search expanded.
    pub expanded: usize,
}

/// No path could be found (or mended after an edit): the agent stops where it is, in
/// [`NavState::Failed`](crate::NavState::Failed).
#[derive(Message, Debug, Clone)]
pub struct PathFailed {
    /// The agent.
    pub entity: Entity,
    /// Why: the search's error (an unreachable destination, a blocked end, a budget, ...).
    pub error: PathError,
}

/// An agent reached its destination.
#[derive(Message, Debug, Clone)]
pub struct Arrived {
    /// The agent.
    pub entity: Entity,
}

/// An edit of the world broke an agent's route; it was mended from where the agent is and the
/// agent flies on without a jump.
#[derive(Message, Debug, Clone)]
pub struct Rerouted {
    /// The agent.
    pub entity: Entity,
    /// Length of the new trajectory, world units.
    pub length: f32,
}

/// The navigation world is ready (a build finished or a baked asset loaded), or its build
/// failed (`error`).
#[derive(Message, Debug, Clone)]
pub struct NavWorldReady {
    /// Why the build failed, if it did.
    pub error: Option<String>,
}
