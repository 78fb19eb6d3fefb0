//! The Moving AI file readers: good files load, bad ones give typed errors naming the line, and
//! thousands of seeded random mutations of valid files never panic.

mod common;

use common::rng;
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{LoadError, Scenario};

const MAP: &str = "voxel 4 3 2\n0 0 0\n3 2 1\n\n1 1 1\r\n";
const SCEN: &str = "version 1\nsmall.3dmap\n0 1 0 3 0 1 3.41421356 1.000\n1 0 1 2 2 0 2.82842712 1.000\n";

fn line_of(e: &LoadError) -> Option<usize> {
    match e {
        LoadError::Syntax { line, .. } | LoadError::OutOfRange { line, .. } | LoadError::World { line, .. } => {
            Some(*line)
        }
        _ => None,
    }
}

#[test]
fn reads_a_map_and_a_scenario() {
    let world = VoxelWorld::from_3dmap(MAP).unwrap();
    assert_eq!(world.dims(), UVec3::new(4, 3, 2));
    assert!(world.is_blocked(IVec3::new(3, 2, 1)) && world.is_blocked(IVec3::ONE));
    assert!(!world.is_blocked(IVec3::new(1, 0, 0)));
    let scen = Scenario::from_3dscen(SCEN).unwrap();
    assert_eq!(scen.map, "small.3dmap");
    assert_eq!(scen.problems.len(), 2);
    assert_eq!(scen.problems[1].goal, IVec3::new(2, 2, 0));
    assert_eq!(scen.problems[0].optimal_length, 3.41421356);
}

#[test]
fn malformed_maps_name_the_line() {
    let cases: &[(&str, usize)] = &[
        ("", 1),
        ("voxels 1 2 3\n", 1),
        ("voxel 1 2\n", 1),
        ("voxel 1 2 3 4\n", 1),
        ("voxel -1 2 3\n", 1),
        ("voxel 0 2 3\n", 1),
        ("voxel 100000 100000 100000\n", 1),
        ("voxel 99999999999 1 1\n", 1),
        ("voxel 2 2 2\n0 0 0\n0 0\n", 3),
        ("voxel 2 2 2\n0 0 x\n", 2),
        ("voxel 2 2 2\n0 0 2\n", 2),
        ("voxel 2 2 2\n0 -1 0\n", 2),
        ("voxel 2 2 2\n1 1 1 1\n", 2),
        ("voxel 2 2 2\n\n\n1.5 1 1\n", 4),
        ("voxel 2 2 2\n99999999999999999999 0 0\n", 2),
    ];
    for &(text, line) in cases {
        let e = VoxelWorld::from_3dmap(text).unwrap_err();
        assert_eq!(line_of(&e), Some(line), "{text:?}: {e}");
        assert!(e.to_string().contains(&format!("line {line}")), "{e}");
    }
}

#[test]
fn malformed_scenarios_name_the_line() {
    let cases: &[(&str, usize)] = &[
        ("", 1),
        ("version 2\nm\n", 1),
        ("version 1\n", 2),
        ("version 1\nm\n1 2 3 4 5 6 7\n", 3),
        ("version 1\nm\n1 2 3 4 5 6 7 8 9\n", 3),
        ("version 1\nm\n1 2 3 4 5 6.5 7 8\n", 3),
        ("version 1\nm\n1 2 3 4 5 6 nan 8\n", 3),
        ("version 1\nm\n1 2 3 4 5 6 -1 8\n", 3),
        ("version 1\nm\n1 2 3 4 5 6 1 1\n1 2 3 4 5 6 1 inf\n", 4),
    ];
    for &(text, line) in cases {
        let e = Scenario::from_3dscen(text).unwrap_err();
        assert_eq!(line_of(&e), Some(line), "{text:?}: {e}");
    }
}

#[test]
fn missing_files_are_io_errors() {
    assert!(matches!(VoxelWorld::load_3dmap("/nonexistent/x.3dmap"), Err(LoadError::Io(_))));
    assert!(matches!(Scenario::load("/nonexistent/x.3dscen"), Err(LoadError::Io(_))));
}

/// Random edits of a valid file: every outcome is Ok or a typed error, never a panic; and an
/// Ok map answers queries without panicking either.
#[test]
fn mutated_files_never_panic() {
    let mut r = rng(0xF022);
    let alphabet = b"0123456789 -\n\rvoxelrsin.x\t";
    for (base, is_map) in [(MAP, true), (SCEN, false)] {
        for _ in 0..5000 {
            let mut bytes = base.as_bytes().to_vec();
            for _ in 0..r.random_range(1..6) {
                let at = r.random_range(0..=bytes.len());
                match r.random_range(0..3) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 if at < bytes.len() => bytes[at] = alphabet[r.random_range(0..alphabet.len())],
                    _ => bytes.insert(at, alphabet[r.random_range(0..alphabet.len())]),
                }
            }
            let Ok(text) = std::str::from_utf8(&bytes) else { continue };
            if is_map {
                if let Ok(world) = VoxelWorld::from_3dmap(text) {
                    let d = world.dims().as_ivec3();
                    let _ = Pathfinder::new().find(
                        &world,
                        None,
                        &PathRequest::new(IVec3::ZERO, d - 1, SearchConfig::default()),
                    );
                    let _ = Pathfinder::new().find(&world, None, &PathRequest::new(d, -d, SearchConfig::default()));
                }
            } else {
                let _ = Scenario::from_3dscen(text);
            }
        }
    }
}

#[test]
fn written_maps_read_back_as_the_same_world() {
    let mut rng = rng(0x3D3A);
    for _ in 0..20 {
        let dims = glam::UVec3::new(rng.random_range(1..60), rng.random_range(1..40), rng.random_range(1..50));
        let world = common::walled_world(&mut rng, dims, 20, 20);
        let mut text = Vec::new();
        let n = world.write_3dmap(&mut text).unwrap();
        let back = VoxelWorld::from_3dmap(std::str::from_utf8(&text).unwrap()).unwrap();
        assert_eq!(back.dims(), world.dims());
        let d = dims.as_ivec3();
        let mut solid = 0;
        for z in 0..d.z {
            for y in 0..d.y {
                for x in 0..d.x {
                    let v = IVec3::new(x, y, z);
                    // Water is free in a .3dmap, as every medium is.
                    assert_eq!(back.is_blocked(v), world.is_blocked(v), "{v}");
                    solid += usize::from(world.is_blocked(v));
                }
            }
        }
        assert_eq!(n, solid);
    }
}
