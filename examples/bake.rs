//! Bakes a game level (glTF `.glb`/`.gltf` or Wavefront `.obj`) into a voxnav world file.
//!
//! ```text
//! cargo run --release --example bake -- LEVEL.glb --voxel S [--water PATTERN] [--seed x,y,z ...]
//!     --out LEVEL.vxn [--export-3dmap LEVEL.3dmap] [--export-glb VIEW.glb]
//! ```
//!
//! Loads the mesh (nodes, meshes or materials whose name matches `--water`, default `water`,
//! are water volumes), voxelises it at `--voxel` metres, seals what the `--seed` points (open
//! air, world units; several allowed) do not reach, writes the baked world to `--out`, loads it
//! back (timed) and checks it is the same world, and prints one summary line:
//! `bake triangles=.. solid=.. water=.. origin=x,y,z voxel=.. dims=X,Y,Z bake_ms=.. tris_per_s=..
//! file_bytes=.. load_ms=..`. `--export-3dmap` also writes, in the Moving AI format with the
//! world's voxel indices, every voxel an agent may not enter (solid, filled interiors, space cut
//! off from the seeds; water is not blocked). `--export-glb` writes a debug view that opens in
//! Blender or any glTF viewer: the navigable space's boundary (greedy-meshed voxel faces, node
//! `world`) and the water's surface (node `water`, translucent).

use std::process::ExitCode;
use std::time::Instant;

use glam::{IVec3, Vec3};
use voxnav::{LevelConfig, LevelMesh, Limits, VoxelWorld, build_level};

const HELP: &str = "usage: bake LEVEL.glb|LEVEL.obj --voxel S [--water PATTERN] [--seed x,y,z ...] --out LEVEL.vxn \
[--export-3dmap LEVEL.3dmap] [--export-glb VIEW.glb]";

struct Args {
    level: std::path::PathBuf,
    voxel: f32,
    water: String,
    seeds: Vec<Vec3>,
    out: std::path::PathBuf,
    export_3dmap: Option<std::path::PathBuf>,
    export_glb: Option<std::path::PathBuf>,
}

fn parse_point(text: &str) -> Result<Vec3, String> {
    let parts: Vec<f32> =
        text.split(',').map(|p| p.trim().parse::<f32>()).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    match parts[..] {
        [x, y, z] if parts.iter().all(|v| v.is_finite()) => Ok(Vec3::new(x, y, z)),
        _ => Err(format!("`{text}`: expected three finite numbers x,y,z")),
    }
}

fn parse_args() -> Result<Args, lexopt::Error> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let (mut level, mut voxel, mut out, mut export_3dmap, mut export_glb) = (None, None, None, None, None);
    let (mut water, mut seeds) = (String::from("water"), Vec::new());
    while let Some(arg) = parser.next()? {
        match arg {
            Long("voxel") => voxel = Some(parser.value()?.parse::<f32>()?),
            Long("water") => water = parser.value()?.string()?,
            Long("seed") => seeds.push(parser.value()?.parse_with(parse_point)?),
            Long("out") => out = Some(parser.value()?.into()),
            Long("export-3dmap") => export_3dmap = Some(parser.value()?.into()),
            Long("export-glb") => export_glb = Some(parser.value()?.into()),
            Short('h') | Long("help") => {
                println!("{HELP}");
                std::process::exit(0);
            }
            Value(v) if level.is_none() => level = Some(v.into()),
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(Args {
        level: level.ok_or("missing LEVEL")?,
        voxel: voxel.ok_or("missing --voxel S")?,
        water,
        seeds,
        out: out.ok_or("missing --out FILE")?,
        export_3dmap,
        export_glb,
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\n{HELP}");
            return ExitCode::from(2);
        }
    };
    // Baking: loading the mesh and voxelising it, what loading the baked file saves.
    let t = Instant::now();
    let mesh = match LevelMesh::load(&args.level, &args.water) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}: {e}", args.level.display());
            return ExitCode::FAILURE;
        }
    };
    let config = LevelConfig { voxel_size: args.voxel, seeds: args.seeds.clone(), ..Default::default() };
    let built = match build_level(&mesh, &config) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("build: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bake_ms = t.elapsed().as_secs_f64() * 1e3;
    let world = built.world;
    let mut bytes = Vec::new();
    if let Err(e) = world.write_vxn(&mut bytes).and_then(|()| std::fs::write(&args.out, &bytes)) {
        eprintln!("{}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    let t = Instant::now();
    let back = match VoxelWorld::load_vxn(&args.out, Limits::DEFAULT) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    if !same(&world, &back) {
        eprintln!("{}: the loaded world differs from the built one", args.out.display());
        return ExitCode::FAILURE;
    }
    if let Some(path) = &args.export_3dmap {
        let written = std::fs::File::create(path).map(std::io::BufWriter::new).and_then(|f| world.write_3dmap(f));
        if let Err(e) = written {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if let Some(path) = &args.export_glb {
        let written =
            std::fs::File::create(path).map(std::io::BufWriter::new).and_then(|f| world.write_glb_view(f, &[]));
        if let Err(e) = written {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let (o, d, s) = (world.origin(), world.dims(), built.stats);
    println!(
        "bake triangles={} solid={} water={} origin={},{},{} voxel={} dims={},{},{} bake_ms={bake_ms:.1} tris_per_s={:.0} \
         file_bytes={} load_ms={load_ms:.2}",
        s.triangles + s.water_triangles,
        s.solid_voxels,
        s.water_voxels,
        o.x,
        o.y,
        o.z,
        world.voxel_size(),
        d.x,
        d.y,
        d.z,
        (s.triangles + s.water_triangles) as f64 / (bake_ms / 1e3),
        bytes.len(),
    );
    ExitCode::SUCCESS
}

/// Whether two worlds hold the same voxels, by chunks of rows: every voxel compared.
fn same(a: &VoxelWorld, b: &VoxelWorld) -> bool {
    if (a.dims(), a.origin(), a.voxel_size()) != (b.dims(), b.origin(), b.voxel_size()) {
        return false;
    }
    let d = a.dims().as_ivec3();
    (0..d.z).all(|z| (0..d.y).all(|y| (0..d.x).all(|x| a.get(IVec3::new(x, y, z)) == b.get(IVec3::new(x, y, z)))))
}
