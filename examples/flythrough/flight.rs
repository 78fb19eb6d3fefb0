//! From a trip to a flight: plan the voxel path (A*), smooth it for the whole agent
//! ([`smooth_path`]) and orient it ([`Trajectory`]: banks into turns, no flip on climbs); after
//! an edit, fly on along a new path from where the agent is ([`smooth_from`],
//! [`Trajectory::continue_from`]).

use std::error::Error;
use std::time::{Duration, Instant};

use voxnav::glam::{IVec3, Vec3};
use voxnav::{
    FlightProfile, Path, PathRequest, Pathfinder, Pose, SearchConfig, SmoothConfig, SmoothPath, Trajectory, VoxelWorld,
    smooth_from, smooth_path,
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
    /// The smoothed curve (the last one, after re-routes).
    pub smooth: SmoothPath,
    /// The oriented trajectories flown one after the other: the planned one, then one per
    /// re-route, each continuing the last from the agent's pose at the time of the re-route.
    pub legs: Vec<Leg>,
    /// Poses every `SPACING` of travel, from start to goal, over all legs.
    pub poses: Vec<Pose>,
    /// Time the search took.
    pub search_time: Duration,
    /// Time smoothing, orienting and sampling took.
    pub smooth_time: Duration,
    /// How it flies.
    pub profile: FlightProfile,
    /// How its paths are smoothed.
    pub config: SmoothConfig,
}

/// One trajectory of a flight, flown from `time` seconds into the flight, `s` metres along it.
#[derive(Debug, Clone)]
pub struct Leg {
    /// Seconds into the flight at which this leg starts.
    pub time: f32,
    /// Metres flown before this leg.
    pub s: f32,
    /// The trajectory (its own time and length start at 0).
    pub trajectory: Trajectory,
}

impl Leg {
    /// `pose` of this leg's trajectory, in the flight's time and length.
    fn global(&self, pose: Pose) -> Pose {
        Pose { time: pose.time + self.time, s: pose.s + self.s, ..pose }
    }
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
        let path = finder.find(world, None, &PathRequest::new(trip.start, trip.goal, search))?;
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
        let legs = vec![Leg { time: 0.0, s: 0.0, trajectory }];
        Ok(Flight { trip, path, smooth, legs, poses, search_time, smooth_time, profile: *profile, config })
    }

    /// Flies on from `time` seconds into the flight along `path` (which starts at or next to
    /// the agent): smoothed from the agent's pose then, oriented to continue it.
    pub fn reroute(&mut self, world: &VoxelWorld, time: f32, path: Path) -> Result<(), Box<dyn Error>> {
        let pose = self.pose_at_time(time);
        let smooth = smooth_from(world, pose.position, pose.tangent, &path.voxels, &self.config)?;
        let trajectory = Trajectory::continue_from(&pose, &smooth, &self.profile)?;
        self.legs.retain(|leg| leg.time < pose.time);
        self.legs.push(Leg { time: pose.time, s: pose.s, trajectory });
        (self.path, self.smooth) = (path, smooth);
        // Every leg sampled up to the start of the next one.
        let mut poses = Vec::new();
        for (i, leg) in self.legs.iter().enumerate() {
            let end = self.legs.get(i + 1).map_or(f32::INFINITY, |next| next.time);
            let samples = leg.trajectory.samples_by_length(SPACING)?;
            poses.extend(samples.into_iter().map(|p| leg.global(p)).filter(|p| p.time < end));
        }
        self.poses = poses;
        Ok(())
    }

    /// The voxel of the current path nearest to the agent `time` seconds into the flight.
    pub fn nearest_voxel(&self, world: &VoxelWorld, time: f32) -> usize {
        let at = self.pose_at_time(time).position;
        let d = |v: IVec3| world.voxel_center(v).distance_squared(at);
        (0..self.path.voxels.len())
            .min_by(|&a, &b| d(self.path.voxels[a]).total_cmp(&d(self.path.voxels[b])))
            .unwrap_or(0)
    }

    /// The path ahead as the agent knew it `time` seconds into the flight (its current leg to
    /// the goal; later re-routes not yet known), from `gap` metres ahead of it.
    pub fn plan_at(&self, time: f32, gap: f32) -> Vec<Vec3> {
        let leg = self.leg_at(time);
        let now = self.pose_at_time(time).s;
        let samples = leg.trajectory.samples_by_length(SPACING).unwrap_or_default();
        samples.into_iter().map(|p| leg.global(p)).filter(|p| p.s > now + gap).map(|p| p.position).collect()
    }

    /// Whether the agent re-routed in the `window` seconds before `time`.
    pub fn rerouted_before(&self, time: f32, window: f32) -> bool {
        self.legs.iter().skip(1).any(|leg| leg.time <= time && time < leg.time + window)
    }

    /// The leg flown at `time` seconds into the flight.
    pub fn leg_at(&self, time: f32) -> &Leg {
        self.legs.iter().rev().find(|leg| leg.time <= time).unwrap_or(&self.legs[0])
    }

    /// Length of the whole flight, world units.
    pub fn length(&self) -> f32 {
        self.legs.last().map_or(0.0, |leg| leg.s + leg.trajectory.length())
    }

    /// Seconds from start to goal.
    pub fn duration(&self) -> f32 {
        self.legs.last().map_or(0.0, |leg| leg.time + leg.trajectory.duration())
    }

    /// The pose at `time` seconds from the start (clamped to the flight).
    pub fn pose_at_time(&self, time: f32) -> Pose {
        let time = if time.is_finite() { time } else { 0.0 };
        let leg = self.leg_at(time);
        leg.global(leg.trajectory.pose_at_time(time - leg.time).expect("a finite time is a valid argument"))
    }

    /// The pose `s` metres along the flight (clamped to it).
    pub fn pose_at_length(&self, s: f32) -> Pose {
        let s = if s.is_finite() { s } else { 0.0 };
        let leg = self.legs.iter().rev().find(|leg| leg.s <= s).unwrap_or(&self.legs[0]);
        leg.global(leg.trajectory.pose_at_length(s - leg.s).expect("a finite length is a valid argument"))
    }

    /// The positions of the poses, for drawing.
    pub fn points(&self) -> Vec<Vec3> {
        self.poses.iter().map(|p| p.position).collect()
    }
}
