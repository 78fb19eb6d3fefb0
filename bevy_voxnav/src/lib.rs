//! # bevy_voxnav: flying and swimming agents for Bevy
//!
//! [voxnav](https://docs.rs/voxnav)'s 3D navigation as a Bevy 0.19 plugin: a navigation world
//! built off the main thread from the meshes of a scene the game spawned ([`NavMeshSource`],
//! [`NavSceneBuild`]) or from a glTF/OBJ level file ([`NavBuild`]), or loaded from a baked
//! `.vxn` asset ([`NavWorldAsset`]), agents
//! that ask for paths through a prioritised queue within a per-frame budget, fly or swim the
//! smoothed, banked trajectory by driving their `Transform`, steer around each other (3D ORCA),
//! and re-route when the world is edited.
//!
//! ```no_run
//! use bevy_app::{App, TaskPoolPlugin, Update};
//! use bevy_ecs::prelude::*;
//! use bevy_math::Vec3;
//! use bevy_voxnav::{Arrived, Destination, NavAgent, NavBuild, VoxNavPlugin};
//!
//! let mut app = App::new();
//! app.add_plugins((TaskPoolPlugin::default(), bevy_time::TimePlugin, VoxNavPlugin::default()));
//! // Build the navigation world from the level's meshes, off the main thread.
//! app.insert_resource(NavBuild::from_level("level.glb", 0.5, vec![Vec3::new(0.0, 2.0, 0.0)], "water"));
//! // A drone that flies to a point; `Arrived` tells when it is there.
//! app.world_mut().spawn((NavAgent::drone(1.0), Destination(Vec3::new(20.0, 5.0, -8.0))));
//! app.add_systems(Update, |mut arrived: MessageReader<Arrived>| {
//!     for a in arrived.read() {
//!         println!("{:?} arrived", a.entity);
//!     }
//! });
//! app.run();
//! ```
//!
//! ## Conventions
//! World units and axes are the game's (metres, +Y up) and voxnav's: the world's voxels are
//! cubes of [`VoxelWorld::voxel_size`](voxnav::VoxelWorld::voxel_size) from its origin. The math
//! types are Bevy's own (`bevy_math` and voxnav use the same glam), so `Vec3` and `Quat` pass
//! straight through.
//!
//! ## Systems
//! In `PostUpdate`, after transform propagation, a [`NavSceneBuild`] gathers the marked meshes
//! once they are loaded and starts a [`NavBuild`]. The rest run in `Update`, in [`NavSet`], in
//! this order: the world ([`NavWorld`]) is taken from a finished [`NavBuild`] or a loaded
//! [`NavWorldAsset`]; agents whose [`Destination`] is new file a request
//! ([`NavState::Planning`]); agents move along their routes with local avoidance ([`Arrived`]
//! at the end); routes that an edit of the world broke are mended from where the agent is
//! ([`Rerouted`]); the queue works for at most [`NavSettings::expansions_per_frame`]
//! expansions (and [`NavSettings::time_budget`]) and turns finished paths into routes
//! ([`PathFound`] or [`PathFailed`]), which agents fly from the next frame on.

mod agent;
mod clock;
#[cfg(feature = "debug-draw")]
mod debug;
mod follow;
mod messages;
mod queue;
mod reroute;
mod scene;
mod world;

use bevy_app::{App, Plugin, Update};
use bevy_ecs::schedule::{IntoScheduleConfigs, SystemSet};

pub use agent::{Destination, NavAgent, NavRoute, NavState};
pub use messages::{Arrived, NavWorldReady, PathFailed, PathFound, Rerouted};
pub use queue::NavQueue;
pub use scene::{NavMeshSource, NavSceneBuild};
pub use world::{BuildStage, NavBuild, NavWorld, NavWorldAsset, VxnLoader, VxnWorld};

/// The voxnav library itself, re-exported.
pub use voxnav;

/// The plugin's systems, in `Update`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, SystemSet)]
pub struct NavSet;

/// How the plugin works; a resource (change it at run time if you like).
#[derive(bevy_ecs::resource::Resource, Debug, Clone)]
pub struct NavSettings {
    /// Node expansions the path queue may spend per frame, over all requests (default 20,000:
    /// a fraction of a millisecond to a few milliseconds).
    pub expansions_per_frame: usize,
    /// How agents steer around each other (voxnav's ORCA settings).
    pub avoidance: voxnav::AvoidanceConfig,
    /// How far ahead along its trajectory an agent steers to, in voxels (default 2).
    pub look_ahead: f32,
    /// Distance to its destination, in voxels, at which an agent at the end of its trajectory
    /// has arrived (default 0.5).
    pub arrive_distance: f32,
    /// The search used for new paths (default exact jump point search).
    pub algorithm: voxnav::Algorithm,
    /// Wall-clock time the plugin's systems may spend per frame (default `None`: only
    /// `expansions_per_frame` bounds the work). With a budget, the agents move first; in what
    /// is left, routes broken by edits are mended, paths found earlier are turned into routes
    /// (smoothed, made trajectories) while the expected cost of the next one (its length times
    /// the recent cost per voxel) fits, and the queue searches, looking at the clock every 16
    /// expansions. What is not reached waits for the next frame; a waiting path is checked
    /// against the edits made meanwhile before it is used. Each frame mends at least one
    /// broken route and searches at least one slice, and a path that waited three frames is
    /// delivered whatever its cost, so work always moves on; a slow machine does less per
    /// frame, so the plugin's behaviour then depends on the machine's speed.
    pub time_budget: Option<std::time::Duration>,
}

impl Default for NavSettings {
    fn default() -> Self {
        Self {
            expansions_per_frame: 20_000,
            avoidance: voxnav::AvoidanceConfig::default(),
            look_ahead: 2.0,
            arrive_distance: 0.5,
            algorithm: voxnav::Algorithm::Jps,
            time_budget: None,
        }
    }
}

/// The plugin: see the crate's documentation. Add it after `TaskPoolPlugin` and `TimePlugin`
/// (and after `AssetPlugin` to load `.vxn` assets).
#[derive(Debug, Clone, Default)]
pub struct VoxNavPlugin {
    /// The settings it starts with.
    pub settings: NavSettings,
}

impl Plugin for VoxNavPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.settings.clone())
            .init_resource::<NavQueue>()
            .init_resource::<follow::Crowd>()
            .init_resource::<clock::FrameClock>()
            .add_message::<PathFound>()
            .add_message::<PathFailed>()
            .add_message::<Arrived>()
            .add_message::<Rerouted>()
            .add_message::<NavWorldReady>()
            .add_systems(
                Update,
                (
                    clock::start_frame,
                    world::finish_build,
                    queue::request_paths,
                    follow::move_agents,
                    reroute::follow_edits,
                    queue::run_queue,
                )
                    .chain()
                    .in_set(NavSet),
            );
        // After transforms propagate, so a scene spawned this frame is gathered where it is.
        app.add_systems(bevy_app::PostUpdate, scene::gather_meshes.after(bevy_transform::TransformSystems::Propagate));
        if app.is_plugin_added::<bevy_asset::AssetPlugin>() {
            bevy_asset::AssetApp::init_asset::<VxnWorld>(app);
            bevy_asset::AssetApp::register_asset_loader(app, VxnLoader);
            app.add_systems(
                Update,
                world::take_asset.in_set(NavSet).after(world::finish_build).before(queue::request_paths),
            );
        }
        #[cfg(feature = "debug-draw")]
        app.add_systems(Update, debug::draw.after(NavSet));
    }
}
