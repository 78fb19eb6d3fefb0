//! `--doors`: the world changes while the agents fly, and they re-route without a jump.
//!
//! The scene gets a second, longer way through the ridge (an old mine gallery above the
//! tunnel), so the drone still plans through the tunnel. Then, while the agents fly:
//! 1. **A door closes** across the tunnel when the drone has passed the arch. Every agent
//!    checks its path; the drone's is broken, so it mends it from where it is
//!    ([`Pathfinder::repair_path`]) and flies on from its pose ([`Flight::reroute`]: the new
//!    curve starts where it is, heading where it heads, banked as it is), up into the mine.
//! 2. **The dam is blasted open** under water when the fish is a little way into its swim.
//!    Nothing is broken, but a fresh search from each agent may now be cheaper: the fish
//!    swims through the breach instead of the cave, the cormorant dives into it.
//!
//! The game loop here is the one a game would run: step the clock, apply the edits due, and
//! after an edit check, mend or shorten each agent's path.

use std::error::Error;

use voxnav::glam::{IVec3, Vec3};
use voxnav::{PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};

use crate::flight::Flight;
use crate::scene::{Scene, WATER_LEVEL, canyon_z};

/// The mine gallery through the ridge: above the tunnel, longer, winding north.
const MINE: [(f32, f32, f32); 6] = [
    (138.0, 30.0, 0.0),
    (144.0, 32.0, 14.0),
    (150.0, 35.0, 24.0),
    (158.0, 35.0, 24.0),
    (164.0, 31.0, 14.0),
    (171.0, 24.0, 0.0),
];
/// Radius of the mine gallery (m).
const MINE_RADIUS: f32 = 2.8;
/// The drone's x at which the door closes (past the arch, before the ridge).
const DOOR_TRIGGER_X: f32 = 134.0;
/// The fraction of the fish's swim after which the dam is blasted open.
const BLAST_TRIGGER: f32 = 0.12;
/// Seconds per step of the game loop.
const STEP: f32 = 0.05;
/// A fresh path replaces the current one only if it is cheaper by this fraction (so agents do
/// not swap between ways of nearly equal cost).
const SHORTER: f64 = 0.03;

/// The door across the tunnel (min and max corner, world units).
pub fn door() -> (Vec3, Vec3) {
    let x = 150.0;
    let z = canyon_z(x) + 1.4;
    (Vec3::new(x, 14.0, z - 5.0), Vec3::new(x + 1.5, 25.0, z + 5.0))
}

/// The breach blasted through the dam under water, on the fish's straight line.
pub fn breach() -> (Vec3, Vec3) {
    let x = 89.0;
    let z = canyon_z(x);
    (Vec3::new(x - 2.0, 1.0, z - 7.0), Vec3::new(x + 2.0, WATER_LEVEL - 1.5, z + 7.0))
}

/// Carves the mine gallery (before planning).
pub fn prepare(scene: &mut Scene) -> Result<(), Box<dyn Error>> {
    let mine = MINE.map(|(x, y, dz)| Vec3::new(x, y, canyon_z(x) + dz));
    for w in mine.windows(2) {
        scene.world.fill_capsule(w[0], w[1], MINE_RADIUS, Voxel::Air)?;
    }
    scene.gates.push(door());
    Ok(())
}

/// What happened while the agents flew.
#[derive(Debug, Clone)]
pub struct Story {
    /// The world after each edit, with the time of the edit (the first at 0: the world planned on).
    pub worlds: Vec<(f32, VoxelWorld)>,
    /// One line per edit and per agent's answer.
    pub log: Vec<String>,
    /// Paths found broken and mended.
    pub repaired: usize,
    /// Paths swapped for a cheaper fresh one.
    pub shortened: usize,
}

/// Flies the agents through the edits (see the module).
pub fn play(scene: &mut Scene, flights: &mut [Flight]) -> Result<Story, Box<dyn Error>> {
    let mut story = Story { worlds: vec![(0.0, scene.world.clone())], log: Vec::new(), repaired: 0, shortened: 0 };
    let mut finder = Pathfinder::new();
    let (mut door_closed, mut blasted) = (false, false);
    let end = flights.iter().map(Flight::duration).fold(0.0, f32::max);
    let mut time = 0.0;
    while time < end && !(door_closed && blasted) {
        time += STEP;
        let mut edit = None;
        if !door_closed && flights[0].pose_at_time(time).position.x >= DOOR_TRIGGER_X {
            door_closed = true;
            let (lo, hi) = door();
            scene.world.fill_box(lo, hi, Voxel::Solid)?;
            edit = Some("the tunnel's door closes");
        } else if !blasted && time >= BLAST_TRIGGER * flights[1].duration() {
            blasted = true;
            let (lo, hi) = breach();
            scene.world.fill_box(lo, hi, Voxel::Water)?;
            edit = Some("the dam is blasted open under water");
        }
        let Some(what) = edit else { continue };
        story.log.push(format!("{time:5.2} s  {what}"));
        story.worlds.push((time, scene.world.clone()));
        for flight in flights.iter_mut() {
            if time >= flight.duration() {
                continue;
            }
            let answer = respond(&scene.world, &mut finder, flight, time, &mut story)?;
            story.log.push(format!("         {}: {answer}", flight.trip.name));
        }
    }
    Ok(story)
}

/// One agent's answer to an edit at `time`: mend its path if broken, else take a fresh path
/// if it is clearly cheaper.
fn respond(
    world: &VoxelWorld,
    finder: &mut Pathfinder,
    flight: &mut Flight,
    time: f32,
    story: &mut Story,
) -> Result<String, Box<dyn Error>> {
    let config = SearchConfig { clearance: flight.trip.clearance, ..SearchConfig::for_agent(&flight.trip.agent) };
    let from = flight.nearest_voxel(world, time);
    let rest: Vec<IVec3> = flight.path.voxels[from..].to_vec();
    let mended = finder.repair_path(world, &flight.path, from, &config)?;
    if mended.voxels != rest {
        let detour = mended.length;
        flight.reroute(world, time, mended)?;
        story.repaired += 1;
        return Ok(format!("path broken; mended from where it is ({detour:.1} m to go), flies on"));
    }
    let fresh = finder.find(world, None, &PathRequest::new(rest[0], *rest.last().expect("a path"), config))?;
    if (fresh.cost as f64) < (mended.cost as f64) * (1.0 - SHORTER) {
        let line = format!(
            "path intact; a new way is shorter ({:.1} m instead of {:.1} m), takes it",
            fresh.length, mended.length
        );
        flight.reroute(world, time, fresh)?;
        story.shortened += 1;
        return Ok(line);
    }
    Ok(format!("path intact; keeps it ({:.1} m to go)", mended.length))
}
