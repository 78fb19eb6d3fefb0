//! Loading level meshes: glTF (`.glb`) and OBJ read right (node transforms, water by name,
//! strips), and bad files (truncated, bit-flipped, random bytes, wrong indices, NaN vertices,
//! absurd counts) give a typed error, never a panic. Seeded, so a failure replays; the real
//! levels add their own truncations and flips when present.

mod common;

use common::levels::levels_dir;
use common::rng;
use glam::Vec3;
use rand::RngExt;
use voxnav::{LevelMesh, MeshError};

/// A `.glb` with one buffer: `positions` (float VEC3) then `indices` (u32), and the given
/// JSON for nodes, meshes and accessors (`{POS}`/`{IDX}` byte lengths are filled in).
fn glb(json_rest: &str, positions: &[[f32; 3]], indices: &[u32]) -> Vec<u8> {
    let mut bin: Vec<u8> = positions.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let pos_len = bin.len();
    bin.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    let idx_len = bin.len() - pos_len;
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"byteLength":{}}}],"bufferViews":[{{"buffer":0,"byteLength":{pos_len}}},{{"buffer":0,"byteOffset":{pos_len},"byteLength":{idx_len}}}],{json_rest}}}"#,
        bin.len()
    )
    .replace("{POSN}", &positions.len().to_string())
    .replace("{IDXN}", &indices.len().to_string());
    let mut json = json.into_bytes();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::new();
    out.extend(b"glTF");
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((json.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(json);
    out.extend((bin.len() as u32).to_le_bytes());
    out.extend(b"BIN\0");
    out.extend(bin);
    out
}

const ACCESSORS: &str = r#""accessors":[{"bufferView":0,"componentType":5126,"count":{POSN},"type":"VEC3","min":[0,0,0],"max":[1,1,1]},{"bufferView":1,"componentType":5125,"count":{IDXN},"type":"SCALAR"}]"#;

/// Two nodes: `world` (a quad, two triangles) under a parent translated by (10, 0, 0) and
/// scaled by 2, and `water` (one triangle) at the origin.
fn sample() -> Vec<u8> {
    let rest = format!(
        r#"{ACCESSORS},"meshes":[{{"name":"walls","primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}},{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1,"mode":5}}]}}],"nodes":[{{"name":"parent","translation":[10,0,0],"scale":[2,2,2],"children":[1]}},{{"name":"world","mesh":0}},{{"name":"Water","mesh":1}}],"scenes":[{{"nodes":[0,2]}}],"scene":0"#
    );
    glb(&rest, &[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0]], &[0, 1, 2, 0, 2, 3])
}

#[test]
fn glb_nodes_are_transformed_and_water_is_chosen_by_name() {
    let level = LevelMesh::from_glb_bytes(&sample(), "water").unwrap();
    assert_eq!(level.solid.triangles.len(), 2);
    // Mode 5 (strip) over 6 indices: 4 triangles.
    assert_eq!(level.water.triangles.len(), 4);
    let (lo, hi) = level.solid.bounds().unwrap();
    assert_eq!((lo, hi), (Vec3::new(10.0, 0.0, 0.0), Vec3::new(12.0, 0.0, 2.0)));
    assert_eq!(level.water.bounds().unwrap(), (Vec3::ZERO, Vec3::new(1.0, 0.0, 1.0)));
    // No pattern: all solid.
    let dry = LevelMesh::from_glb_bytes(&sample(), "").unwrap();
    assert_eq!((dry.solid.triangles.len(), dry.water.triangles.len()), (6, 0));
}

#[test]
fn glb_bad_data_is_a_typed_error() {
    let quad = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0]];
    let one = |positions: &[[f32; 3]], indices: &[u32], accessors: &str| {
        let rest = format!(
            r#"{accessors},"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],"nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
        );
        LevelMesh::from_glb_bytes(&glb(&rest, positions, indices), "water")
    };
    assert!(one(&quad, &[0, 1, 2], ACCESSORS).is_ok());
    assert!(matches!(one(&quad, &[0, 1, 3], ACCESSORS), Err(MeshError::IndexOutOfRange { index: 3, vertices: 3 })));
    let nan = [[0.0, f32::NAN, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0]];
    assert!(matches!(one(&nan, &[0, 1, 2], ACCESSORS), Err(MeshError::NonFinite { vertex: 0 })));
    // An absurd count: far more elements than the view holds.
    let absurd = ACCESSORS.replace("{POSN}", "4000000000");
    assert!(matches!(
        one(&quad, &[0, 1, 2], &absurd),
        Err(MeshError::BadAccessor { .. } | MeshError::Gltf(_) | MeshError::TooLarge(_))
    ));
    let absurd = ACCESSORS.replace("{IDXN}", "1000000");
    assert!(matches!(one(&quad, &[0, 1, 2], &absurd), Err(MeshError::BadAccessor { .. } | MeshError::Gltf(_))));
    // Wrong types and sparse accessors are refused, not misread.
    let bytes = ACCESSORS.replace(r#""componentType":5126"#, r#""componentType":5123"#);
    assert!(one(&quad, &[0, 1, 2], &bytes).is_err());
    let sparse = ACCESSORS.replace(
        r#""type":"SCALAR"}"#,
        r#""type":"SCALAR","sparse":{"count":1,"indices":{"bufferView":1,"componentType":5125},"values":{"bufferView":1}}}"#,
    );
    assert!(one(&quad, &[0, 1, 2], &sparse).is_err());
    // A node that is its own child does not loop.
    let cyclic = format!(
        r#"{ACCESSORS},"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],"nodes":[{{"mesh":0,"children":[0]}}],"scenes":[{{"nodes":[0]}}]"#
    );
    assert!(LevelMesh::from_glb_bytes(&glb(&cyclic, &quad, &[0, 1, 2]), "").is_err());
    // A doubling tree of nodes (each node twice the child of the next): instancing is capped.
    let mut nodes = vec![r#"{"mesh":0}"#.to_string()];
    for i in 1..40 {
        nodes.push(format!(r#"{{"children":[{},{}]}}"#, i - 1, i - 1));
    }
    let tree = format!(
        r#"{ACCESSORS},"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],"nodes":[{}],"scenes":[{{"nodes":[39]}}]"#,
        nodes.join(",")
    );
    assert!(LevelMesh::from_glb_bytes(&glb(&tree, &quad, &[0, 1, 2]), "").is_err());
    assert!(matches!(LevelMesh::from_glb_bytes(b"glTF", ""), Err(MeshError::Gltf(_))));
    assert!(matches!(LevelMesh::load("level.fbx", ""), Err(MeshError::UnknownFormat(_))));
    assert!(matches!(LevelMesh::load("/nonexistent/level.glb", ""), Err(MeshError::Io { .. })));
}

/// Loads every truncation and many seeded bit flips and random byte strings of `bytes`; each
/// must return (a result or an error), never panic. Returns how many loaded.
fn shake(
    bytes: &[u8],
    load: impl Fn(&[u8]) -> Result<LevelMesh, MeshError>,
    seed: u64,
    cuts: usize,
    flips: usize,
) -> usize {
    let mut r = rng(seed);
    let mut ok = 0;
    let step = (bytes.len() / cuts).max(1);
    for n in (0..bytes.len()).step_by(step) {
        ok += load(&bytes[..n]).is_ok() as usize;
    }
    for _ in 0..flips {
        let mut b = bytes.to_vec();
        for _ in 0..r.random_range(1..4) {
            let i = r.random_range(0..b.len());
            b[i] ^= 1 << r.random_range(0..8);
        }
        ok += load(&b).is_ok() as usize;
    }
    for _ in 0..flips / 4 {
        let n = r.random_range(0..256);
        let b: Vec<u8> = (0..n).map(|_| r.random()).collect();
        ok += load(&b).is_ok() as usize;
    }
    ok
}

#[test]
fn truncated_flipped_and_random_glb_never_panic() {
    let sample = sample();
    shake(&sample, |b| LevelMesh::from_glb_bytes(b, "water"), 11, sample.len(), 3000);
    if let Some(dir) = levels_dir() {
        let real = std::fs::read(dir.join("oa_dm7.glb")).unwrap();
        let ok = shake(&real, |b| LevelMesh::from_glb_bytes(b, "water"), 12, 100, 200);
        assert!(ok > 0, "some flips land in vertex data and still load");
    }
}

#[test]
fn obj_reads_objects_and_rejects_bad_files() {
    let obj = "o world\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\no water_pool\nv 0 -1 0\nv 1 -1 0\nv 0 -1 1\nf -3 -2 -1\n";
    let level = LevelMesh::from_obj_bytes(obj.as_bytes(), "water").unwrap();
    assert_eq!((level.solid.triangles.len(), level.water.triangles.len()), (2, 1));
    assert_eq!(level.water.bounds().unwrap(), (Vec3::new(0.0, -1.0, 0.0), Vec3::new(1.0, -1.0, 1.0)));
    assert!(LevelMesh::from_obj_bytes(b"v 0 0 0\nf 1 2 3\n", "").is_err());
    assert!(matches!(
        LevelMesh::from_obj_bytes(b"v 0 0 inf\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", ""),
        Err(MeshError::NonFinite { .. })
    ));
    assert!(LevelMesh::from_obj_bytes(b"v 0 0\nf 1 1 1\n", "").is_err());
    assert!(LevelMesh::from_obj_bytes(b"f 0 0 0\n", "").is_err());
}

#[test]
fn truncated_flipped_and_random_obj_never_panic() {
    let obj = b"o world\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\ng water\nv 0 -1 0\nv 1 -1 0\nv 0 -1 1\nf 5/1/1 6 7\nvt 0 0\nvn 0 1 0\n";
    shake(obj, |b| LevelMesh::from_obj_bytes(b, "water"), 21, obj.len(), 3000);
    if let Some(dir) = levels_dir() {
        let real = std::fs::read(dir.join("oa_hydronex.obj")).unwrap();
        let ok = shake(&real, |b| LevelMesh::from_obj_bytes(b, "water"), 22, 20, 20);
        assert!(ok > 0);
    }
}

#[test]
fn gltf_with_an_external_bin_loads_from_its_folder() {
    let positions = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0]];
    let mut bin: Vec<u8> = positions.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    bin.extend([0u32, 1, 2].iter().flat_map(|i| i.to_le_bytes()));
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"uri":"level.bin","byteLength":{}}}],"bufferViews":[{{"buffer":0,"byteLength":36}},{{"buffer":0,"byteOffset":36,"byteLength":12}}],{},"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],"nodes":[{{"mesh":0,"translation":[0,5,0]}}],"scenes":[{{"nodes":[0]}}]}}"#,
        bin.len(),
        ACCESSORS.replace("{POSN}", "3").replace("{IDXN}", "3")
    );
    let dir = std::env::temp_dir().join(format!("voxnav-gltf-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("level.gltf"), &json).unwrap();
    std::fs::write(dir.join("level.bin"), &bin).unwrap();
    let level = LevelMesh::load(dir.join("level.gltf"), "water");
    // From bytes, the external buffer cannot be read.
    let from_bytes = LevelMesh::from_glb_bytes(json.as_bytes(), "water");
    std::fs::write(dir.join("level.bin"), &bin[..20]).unwrap();
    let short = LevelMesh::load(dir.join("level.gltf"), "water");
    std::fs::remove_dir_all(&dir).unwrap();
    let level = level.unwrap();
    assert_eq!(level.solid.triangles.len(), 1);
    assert_eq!(level.solid.bounds().unwrap(), (Vec3::new(0.0, 5.0, 0.0), Vec3::new(1.0, 5.0, 1.0)));
    assert!(matches!(from_bytes, Err(MeshError::Unsupported(_))));
    assert!(matches!(short, Err(MeshError::Gltf(_))));
}
