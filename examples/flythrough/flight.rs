//! From a trip to a flight: plan the voxel path (A*), smooth it for the whole agent
//! ([`smooth_path`]) and orient it ([`Trajectory`]: banks into turns, no flip on climbs).

use std::error::Error;
use std::time::{Duration, Instant};

use voxnav::glam::Vec3;
use voxnav::{
    FlightProfile, Path, Pathfinder, Pose, SearchConfig, SmoothConfig, SmoothPath, Trajectory, VoxelWorld, smooth_path,
};

use crate::scene::{Scene, Trip};

/// How the drone, the fish and the cormorant fly: the drone fast (9 m/s), so it banks into
/// its turns; the fish at the library's swimming profile (little bank, pitch limited).
pub const PROFILES: [FlightProfile; 3] = [
    FlightProfile { speed: 9.0, ..FlightProfile::AIR },
    FlightProfile::SWIM,
    FlightProfile { speed: 7.0, ..FlightProfile::AIR },
];

/// Plans the scene's drone, fish and cormorant, in that order, with [`PROFILES`].
pub fn plan_all(scene: &Scene) -> Result<Vec<Flight>, Box<dyn Error>> {
    let mut finder = Pathfinder::new();
    [scene.drone, scene.fish, scene.bird]
        .into_iter()
        .zip(&PROFILES)
        .map(|(trip, profile)| {
            Flight::plan(&scene.world, &mut finder, trip, profile).map_err(|e| format!("{}: {e}", trip.name).into())
        })
        .collect()
}

/// Gap between the stored poses, world units.
pub const SPACING: f32 = 0.25;

/// A planned, smoothed and oriented trip.
#[derive(Debug, Clone)]
pub struct Flight {
    /// The trip.
    pub trip: Trip,
    /// The voxel path the search found.
    pub path: Path,
    /// The smoothed curve.
    pub smooth: SmoothPath,
    /// The oriented trajectory along it.
    pub trajectory: Trajectory,
    /// Poses every `SPACING` of travel, from start to goal.
    pub poses: Vec<Pose>,
    /// Time the search took.
    pub search_time: Duration,
    /// Time smoothing, orienting and sampling took.
    pub smooth_time: Duration,
}

impl Flight {
    /// Plans `trip` through `world` with `finder`, then smooths and orients the path for an
    /// agent flying (or swimming) with `profile`.
    pub fn plan(
        world: &VoxelWorld,
        finder: &mut Pathfinder,
        trip: Trip,
        profile: &FlightProfile,
    ) -> Result<Flight, Box<dyn Error>> {
        let t = Instant::now();
        let search = SearchConfig { clearance: trip.clearance, ..SearchConfig::for_agent(&trip.agent) };
        let path = finder.find_path(world, trip.start, trip.goal, &search)?;
        let search_time = t.elapsed();
        let t = Instant::now();
        // Longer bends than the default read better at this scale; the smoother falls back to
        // shorter ones (and to sharp corners) where they do not fit.
        let config =
            SmoothConfig { bend_length: 3.0, clearance: trip.clearance, ..SmoothConfig::for_agent(&trip.agent) };
        let smooth = smooth_path(world, &path, &config)?;
        let trajectory = Trajectory::new(&smooth, profile)?;
        let poses = trajectory.samples_by_length(SPACING)?;
        let smooth_time = t.elapsed();
        Ok(Flight { trip, path, smooth, trajectory, poses, search_time, smooth_time })
    }

    /// Length of the smoothed path, world units.
    pub fn length(&self) -> f32 {
        self.trajectory.length()
    }

    /// The pose at `time` seconds from the start (clamped to the flight).
    pub fn pose_at_time(&self, time: f32) -> Pose {
        let time = if time.is_finite() { time } else { 0.0 };
        self.trajectory.pose_at_time(time).expect("a finite time is a valid argument")
    }

    /// The positions of the poses, for drawing.
    pub fn points(&self) -> Vec<Vec3> {
        self.poses.iter().map(|p| p.position).collect()
    }
}
