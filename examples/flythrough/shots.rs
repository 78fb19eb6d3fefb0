//! The two shots: an overview of the whole scene with every path drawn, and a chase camera
//! riding behind the drone, oriented (and banking) with it.

use voxnav::VoxelWorld;
use voxnav::glam::{Quat, Vec3};

use crate::flight::Flight;
use crate::render::{Camera, DroneModel, Frame, Headlight, Renderer, Stroke};

/// Path colours (linear RGB): drone, fish, cormorant.
pub const COLORS: [Vec3; 3] = [Vec3::new(1.0, 0.03, 0.35), Vec3::new(1.0, 0.85, 0.02), Vec3::new(0.95, 0.95, 0.95)];

/// The overview camera: from high above the south-west corner, looking over the canyon.
pub fn overview_camera(width: u32, height: u32) -> Camera {
    let target = Vec3::new(94.0, 6.0, 56.0);
    Camera::look_at(Vec3::new(165.0, 200.0, 225.0), target, Vec3::Y, 33f32.to_radians(), width, height)
}

/// The overview picture: the scene, the three paths, their ends and a legend. Rendered at
/// `aa` times the size and averaged down.
pub fn overview(renderer: &Renderer<'_>, camera: &Camera, flights: &[Flight], aa: u32, threads: usize) -> Frame {
    let width = camera.width;
    let camera = camera.scaled(aa);
    let mut frame = renderer.render(&camera, None, None, threads);
    let px = aa as f32;
    for (flight, &color) in flights.iter().zip(&COLORS) {
        let stroke = Stroke { color, width: 4.0 * px, world_width: None, ghost: true };
        frame.draw_path(&camera, &flight.points(), stroke);
    }
    for (flight, &color) in flights.iter().zip(&COLORS) {
        frame.draw_marker(&camera, flight.trip.start, color, 5.0 * px);
        frame.draw_marker(&camera, flight.trip.goal, color, 5.0 * px);
    }
    let mut frame = frame.downsample(aa);
    let scale = if width >= 1200 { 2 } else { 1 };
    legend(&mut frame, flights, scale);
    frame
}

fn legend(frame: &mut Frame, flights: &[Flight], scale: i32) {
    let line = 10 * scale;
    let (x, y) = (8 * scale, 8 * scale);
    let rows: Vec<String> = flights
        .iter()
        .map(|flight| {
            let media = match (flight.trip.agent.media().air, flight.trip.agent.media().water) {
                (Some(_), None) => "AIR ONLY".to_string(),
                (None, Some(_)) => "WATER ONLY".to_string(),
                (Some(a), Some(w)) => format!("AIR, WATER AT {:.0}x", w as f32 / a as f32),
                (None, None) => "NOWHERE".to_string(),
            };
            format!("{} - {} - {:.0} M", flight.trip.name, media, flight.length())
        })
        .collect();
    let widest = rows.iter().map(|r| r.chars().count() as i32 * 6 + 16).max().unwrap_or(0).max(22 * 6);
    let lines = 2 + rows.len() as i32;
    frame.fill_rect(x - 4 * scale, y - 4 * scale, (widest + 8) * scale, lines * line + 6 * scale, Vec3::ZERO, 0.45);
    frame.draw_text(x, y, "VOXNAV FLY-THROUGH", Vec3::ONE, scale);
    for (i, (text, &color)) in rows.iter().zip(&COLORS).enumerate() {
        let row = y + (i as i32 + 1) * line + 4 * scale;
        frame.fill_rect(x, row + 2 * scale, 12 * scale, 3 * scale, color, 1.0);
        frame.draw_text(x + 16 * scale, row, text, Vec3::ONE, scale);
    }
    let row = y + (lines - 1) * line + 4 * scale;
    frame.draw_text(x, row, "DASHED: HIDDEN BY ROCK", Vec3::splat(0.8), scale);
}

/// How far behind the drone the chase camera rides (along the path), and above it.
const CHASE_BACK: f32 = 4.0;
const CHASE_UP: f32 = 1.1;
/// The chase camera looks this much below the drone's forward axis (radians).
const CHASE_TILT: f32 = 0.12;

/// When the chase camera starts (seconds into the drone's flight), so it is behind the drone.
pub fn chase_start(drone: &Flight) -> f32 {
    drone.duration() * CHASE_BACK / drone.length().max(CHASE_BACK)
}

/// The chase camera `time` seconds into the drone's flight, the drone model's pose, and the
/// camera's headlight.
///
/// The camera rides the path `CHASE_BACK` behind the drone and `CHASE_UP` above it along the
/// drone's up axis (less, if that would put it in rock), and takes the drone's orientation
/// from the library's [`Trajectory`](voxnav::Trajectory), tilted down a little: it banks and
/// pitches with the drone.
pub fn chase_camera(
    world: &VoxelWorld,
    drone: &Flight,
    time: f32,
    width: u32,
    height: u32,
) -> (Camera, DroneModel, Headlight) {
    let pose = drone.pose_at_time(time);
    let behind = drone.pose_at_length(pose.s - CHASE_BACK);
    let up = pose.up();
    let mut eye = behind.position;
    for k in [1.0, 0.6, 0.3] {
        let candidate = behind.position + up * CHASE_UP * k;
        if !world.is_blocked(world.voxel_at(candidate)) {
            eye = candidate;
            break;
        }
    }
    let rotation = pose.orientation * Quat::from_rotation_x(-CHASE_TILT);
    let camera = Camera { position: eye, rotation, fov_y: 68f32.to_radians(), width, height };
    let light = Headlight { position: eye, direction: rotation * -Vec3::Z, intensity: 2.5 };
    (camera, DroneModel { position: pose.position, rotation: pose.orientation }, light)
}

/// One chase frame `time` seconds into the drone's flight: the world with the drone, the
/// drone's path ahead as a trail of beads, the other paths, and a heads-up line with the
/// drone's bank, pitch and height from its pose.
pub fn chase_frame(
    renderer: &Renderer<'_>,
    world: &VoxelWorld,
    flights: &[Flight],
    time: f32,
    width: u32,
    height: u32,
    threads: usize,
) -> Frame {
    let drone = &flights[0];
    let (camera, model, light) = chase_camera(world, drone, time, width, height);
    let mut frame = renderer.render(&camera, Some(light), Some(model), threads);
    let pose = drone.pose_at_time(time);
    let ahead = drone.plan_at(time, 2.0);
    frame.draw_beads(&camera, &ahead, 2.0, 0.12, COLORS[0]);
    for (flight, &color) in flights.iter().zip(&COLORS).skip(1) {
        frame.draw_path(&camera, &flight.points(), Stroke { color, width: 1.0, world_width: Some(0.25), ghost: false });
    }
    let scale = if width >= 640 { 2 } else { 1 };
    // Euler angles of the library's pose; roll is positive when the right wing rises.
    let (_, pitch, roll) = pose.euler_angles();
    let (roll, pitch) = (roll.to_degrees(), pitch.to_degrees());
    let side = if roll > 0.5 {
        "L"
    } else if roll < -0.5 {
        "R"
    } else {
        " "
    };
    let hud = format!(
        "BANK {:2.0}° {side}  PITCH {:+3.0}°  ALT {:2.0} M  {:3.0}/{:.0} M",
        roll.abs(),
        pitch,
        pose.position.y,
        pose.s,
        drone.length()
    );
    let y = height as i32 - 11 * scale;
    frame.fill_rect(0, y - 3 * scale, width as i32, 14 * scale, Vec3::ZERO, 0.4);
    frame.draw_text(4 * scale, y, &hud, Vec3::ONE, scale);
    frame.draw_text(4 * scale, 4 * scale, "DRONE CHASE CAM", Vec3::ONE, scale);
    if drone.rerouted_before(time, 2.5) {
        let text = "PATH BLOCKED - REROUTED";
        let x = width as i32 / 2 - 3 * scale * text.len() as i32;
        frame.fill_rect(x - 4 * scale, 16 * scale, (6 * text.len() as i32 + 8) * scale, 12 * scale, Vec3::ZERO, 0.5);
        frame.draw_text(x, 18 * scale, text, Vec3::new(1.0, 0.8, 0.1), scale);
    }
    frame
}
