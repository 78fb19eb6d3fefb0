//! The navigation world: built from a level's meshes off the main thread, or loaded from a
//! baked `.vxn` asset (hot-reloadable), and edited by the game at run time.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetEvent, AssetLoader, Assets, Handle, LoadContext};
use bevy_ecs::prelude::*;
use bevy_math::Vec3;
use bevy_reflect::TypePath;
use bevy_tasks::{AsyncComputeTaskPool, Task};
use voxnav::{LevelConfig, LevelMesh, Limits, VoxelWorld, VxnError, build_level};

use crate::messages::NavWorldReady;

/// The world agents navigate. Edit it through [`world_mut`](Self::world_mut) (doors closing,
/// walls blasted open): agents whose routes the edit breaks re-route on the next update.
#[derive(Resource, Debug, Clone)]
pub struct NavWorld {
    world: VoxelWorld,
}

impl NavWorld {
    /// A navigation world over `world`.
    #[must_use]
    pub fn new(world: VoxelWorld) -> Self {
        Self { world }
    }

    /// The voxel world.
    #[must_use]
    pub fn world(&self) -> &VoxelWorld {
        &self.world
    }

    /// The voxel world, to edit (every fill bumps its revision, which the plugin watches).
    pub fn world_mut(&mut self) -> &mut VoxelWorld {
        &mut self.world
    }
}

/// How far a [`NavBuild`] has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BuildStage {
    /// Reading the level's meshes.
    Loading,
    /// Voxelising them, filling interiors, marking what the seeds reach.
    Voxelising,
    /// Done (the world is, or is about to be, the [`NavWorld`]).
    Done,
}

/// A navigation world being built from a level's meshes on Bevy's async compute pool. Insert
/// it as a resource; when it is done the plugin inserts the [`NavWorld`], removes this and
/// sends [`NavWorldReady`].
#[derive(Resource, Debug)]
pub struct NavBuild {
    task: Task<Result<VoxelWorld, String>>,
    stage: Arc<AtomicU8>,
}

impl NavBuild {
    /// Builds from a glTF (`.glb`, `.gltf`) or `.obj` level at `path`: voxels of `voxel_size`
    /// world units, `seeds` points in the level's open air (what they reach is navigable; empty:
    /// everything outside solids is), nodes (or materials) whose name matches `water_pattern`
    /// (`*` wildcards, case-insensitive) as water volumes. Needs `TaskPoolPlugin`.
    #[must_use]
    pub fn from_level(path: impl Into<PathBuf>, voxel_size: f32, seeds: Vec<Vec3>, water_pattern: &str) -> Self {
        let config = LevelConfig { voxel_size, seeds, ..Default::default() };
        Self::from_level_config(path, config, water_pattern)
    }

    /// [`from_level`](Self::from_level) with every setting of voxnav's [`LevelConfig`].
    #[must_use]
    pub fn from_level_config(path: impl Into<PathBuf>, config: LevelConfig, water_pattern: &str) -> Self {
        let (path, pattern) = (path.into(), water_pattern.to_owned());
        let stage = Arc::new(AtomicU8::new(BuildStage::Loading as u8));
        let progress = stage.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let mesh = LevelMesh::load(&path, &pattern).map_err(|e| format!("{}: {e}", path.display()))?;
            progress.store(BuildStage::Voxelising as u8, Ordering::Relaxed);
            let built = build_level(&mesh, &config).map_err(|e| format!("{}: {e}", path.display()))?;
            progress.store(BuildStage::Done as u8, Ordering::Relaxed);
            Ok(built.world)
        });
        Self { task, stage }
    }

    /// Builds from triangles the game already has (see also
    /// [`NavSceneBuild`](crate::NavSceneBuild), which gathers them from the scene's meshes).
    #[must_use]
    pub fn from_mesh(mesh: LevelMesh, config: LevelConfig) -> Self {
        let stage = Arc::new(AtomicU8::new(BuildStage::Voxelising as u8));
        let progress = stage.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let built = build_level(&mesh, &config).map_err(|e| format!("the level's meshes: {e}"))?;
            progress.store(BuildStage::Done as u8, Ordering::Relaxed);
            Ok(built.world)
        });
        Self { task, stage }
    }

    /// How far the build has come.
    #[must_use]
    pub fn stage(&self) -> BuildStage {
        match self.stage.load(Ordering::Relaxed) {
            0 => BuildStage::Loading,
            1 => BuildStage::Voxelising,
            _ => BuildStage::Done,
        }
    }
}

/// A baked world (`.vxn`, see voxnav's `bake` example) as a Bevy asset.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct VxnWorld(pub VoxelWorld);

/// Loads `.vxn` files as [`VxnWorld`] assets (registered by the plugin when `AssetPlugin` is
/// present). Sizes in the file are checked against voxnav's default [`Limits`] before anything
/// is allocated; a bad file is a typed error ([`VxnError`]).
#[derive(Debug, Default, TypePath)]
pub struct VxnLoader;

impl AssetLoader for VxnLoader {
    type Asset = VxnWorld;
    type Settings = ();
    type Error = VxnError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _load_context: &mut LoadContext<'_>,
    ) -> Result<VxnWorld, VxnError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        Ok(VxnWorld(VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT)?))
    }

    fn extensions(&self) -> &[&str] {
        &["vxn"]
    }
}

/// The baked world the navigation world comes from: insert `NavWorldAsset(asset_server.load(
/// "level.vxn"))`. Each time the asset is loaded or changes (hot reload), it becomes the
/// [`NavWorld`] and [`NavWorldReady`] is sent.
#[derive(Resource, Debug, Clone)]
pub struct NavWorldAsset(pub Handle<VxnWorld>);

/// Takes the world of a finished [`NavBuild`].
pub(crate) fn finish_build(
    mut commands: Commands,
    build: Option<ResMut<NavBuild>>,
    mut ready: MessageWriter<NavWorldReady>,
) {
    let Some(mut build) = build else { return };
    let Some(result) = bevy_tasks::futures::check_ready(&mut build.task) else { return };
    commands.remove_resource::<NavBuild>();
    match result {
        Ok(world) => {
            commands.insert_resource(NavWorld::new(world));
            ready.write(NavWorldReady { error: None });
        }
        Err(e) => {
            ready.write(NavWorldReady { error: Some(e) });
        }
    }
}

/// Takes the world of a loaded (or reloaded) [`NavWorldAsset`].
pub(crate) fn take_asset(
    mut commands: Commands,
    source: Option<Res<NavWorldAsset>>,
    assets: Res<Assets<VxnWorld>>,
    mut events: MessageReader<AssetEvent<VxnWorld>>,
    mut ready: MessageWriter<NavWorldReady>,
) {
    let Some(source) = source else {
        events.clear();
        return;
    };
    let id = source.0.id();
    // Collect first: every message is read, so none is seen twice.
    let changed = events.read().fold(false, |hit, e| {
        hit | matches!(e, AssetEvent::Modified { id: i } | AssetEvent::LoadedWithDependencies { id: i } if *i == id)
    });
    if changed && let Some(asset) = assets.get(id) {
        commands.insert_resource(NavWorld::new(asset.0.clone()));
        ready.write(NavWorldReady { error: None });
    }
}
