//! The components a game adds to its flying and swimming entities.

use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec3};
use bevy_transform::components::Transform;
use voxnav::{Agent, FlightProfile, Media, Path, Pose, SearchConfig, SmoothConfig, Trajectory, VoxelWorld, WorldError};

/// A flying or swimming agent: its size and media (voxnav's [`Agent`]), how it flies
/// ([`FlightProfile`]: speed, bank, pitch) and how urgent its requests are.
///
/// Its `Transform` is driven by the plugin while it follows a route: translation along the
/// trajectory (steered around other agents), rotation the trajectory's orientation (forward
/// -Z, up +Y, banking into turns).
#[derive(Component, Debug, Clone)]
#[require(Transform, NavState)]
pub struct NavAgent {
    /// Size and media.
    pub agent: Agent,
    /// How it flies or swims.
    pub profile: FlightProfile,
    /// Priority of its path requests (higher first; waiting requests age, see voxnav's
    /// `PathQueue`).
    pub priority: u32,
}

impl NavAgent {
    /// A drone `size` world units across: air only, voxnav's flying profile.
    ///
    /// # Panics
    /// If `size` is not finite and positive.
    #[must_use]
    pub fn drone(size: f32) -> Self {
        let agent = Agent::with_media(size, size, size / 2.0, Media::AIR).expect("a finite, positive size");
        Self { agent, profile: FlightProfile::AIR, priority: 0 }
    }

    /// A fish `size` world units long: water only, voxnav's swimming profile.
    ///
    /// # Panics
    /// If `size` is not finite and positive.
    #[must_use]
    pub fn fish(size: f32) -> Self {
        let agent = Agent::with_media(size, size * 0.4, size * 0.4, Media::WATER).expect("a finite, positive size");
        Self { agent, profile: FlightProfile::SWIM, priority: 0 }
    }

    /// Radius of the sphere other agents keep clear of, world units: half its longest side.
    #[must_use]
    pub fn radius(&self) -> f32 {
        0.5 * self.agent.length().max(self.agent.width()).max(self.agent.height())
    }

    /// Its search settings in `world`: its media, the clearance its size needs in the world's
    /// voxels, `algorithm`.
    ///
    /// # Errors
    /// [`WorldError::AgentTooLarge`] if it needs more clearance than voxnav searches for.
    pub fn search_config(&self, world: &VoxelWorld, algorithm: voxnav::Algorithm) -> Result<SearchConfig, WorldError> {
        let clearance = self.agent.clearance_in(world.voxel_size())?;
        Ok(SearchConfig { clearance, algorithm, ..SearchConfig::for_agent(&self.agent) })
    }

    /// Its smoothing settings for a search made with `search`.
    #[must_use]
    pub fn smooth_config(&self, search: &SearchConfig) -> SmoothConfig {
        SmoothConfig { clearance: search.clearance, ..SmoothConfig::for_agent(&self.agent) }
    }
}

/// Where an agent should go (a world point; the plugin plans to its voxel). Insert or change it
/// to send the agent; it is removed when the agent arrives.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Destination(pub Vec3);

/// What an agent is doing.
#[derive(Component, Debug, Clone, Default, PartialEq)]
pub enum NavState {
    /// Nowhere to go (no [`Destination`], or no navigation world yet).
    #[default]
    Idle,
    /// Its path request is in the queue.
    Planning,
    /// Flying its [`NavRoute`].
    Following,
    /// At its destination.
    Arrived,
    /// No path: the reason. It stays where it is until given a new [`Destination`].
    Failed(String),
}

/// The route an agent flies: its voxel path, the oriented trajectory along it, and how far it
/// has come. Inserted by the plugin.
#[derive(Component, Debug, Clone)]
pub struct NavRoute {
    /// The voxel path (after a re-route, from where the agent was then).
    pub path: Path,
    /// The trajectory it flies (after a re-route, continuing from its pose then).
    pub trajectory: Trajectory,
    /// How far along the trajectory it is, world units.
    pub progress: f32,
    /// Its velocity, world units per second (steered around other agents).
    pub velocity: Vec3,
    /// The search settings it was planned with.
    pub config: SearchConfig,
    /// The world revision the route was last checked on.
    pub(crate) checked: u64,
}

impl NavRoute {
    /// The trajectory's pose where the agent is along it.
    #[must_use]
    pub fn pose(&self) -> Pose {
        self.trajectory.pose_at_length(self.progress).unwrap_or(Pose {
            s: 0.0,
            time: 0.0,
            position: Vec3::ZERO,
            tangent: Vec3::NEG_Z,
            orientation: Quat::IDENTITY,
        })
    }
}
