//! A debug view of a world as a binary glTF (`.glb`) that opens in Blender or any glTF viewer:
//! the boundary of the navigable space (faces between a blocked voxel and a free one,
//! greedy-meshed into rectangles per slice), the water's surface (faces between water and air)
//! in a second material, and optionally paths as line strips. World units, Y up as the world.

use std::io::Write;

use glam::{IVec3, Vec3};
use serde_json::json;

use crate::grid::world::VoxelWorld;
use crate::medium::Voxel;

/// What a view holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ViewStats {
    /// Rectangles on the boundary of the navigable space (node `world`).
    pub solid_quads: usize,
    /// Rectangles on the water's surface (node `water`).
    pub water_quads: usize,
    /// Paths drawn as line strips (node `paths`).
    pub paths: usize,
}

/// Triangles of one material: positions and indices.
#[derive(Default)]
struct Part {
    positions: Vec<[f32; 3]>,
    indices: Vec<u32>,
    quads: usize,
}

impl Part {
    fn quad(&mut self, corners: [Vec3; 4]) {
        let first = self.positions.len() as u32;
        self.positions.extend(corners.map(|c| c.to_array()));
        self.indices.extend([0, 1, 2, 0, 2, 3].map(|i| first + i));
        self.quads += 1;
    }
}

impl VoxelWorld {
    /// Writes the debug view described in the module docs (`io/glb_view.rs`): nodes `world`
    /// (the navigable space's boundary, opaque), `water` (the water's surface, translucent)
    /// and `paths` (each of `paths` as a line strip of world points). Reading the world costs
    /// a few reads per voxel of its volume; the output follows the boundary's area.
    ///
    /// # Errors
    /// Any error of `out`.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 0.5, UVec3::new(8, 8, 8)).unwrap();
    /// world.fill_voxels(IVec3::new(2, 2, 2), IVec3::new(4, 4, 4), Voxel::Solid).unwrap();
    /// let mut glb = Vec::new();
    /// let stats = world.write_glb_view(&mut glb, &[]).unwrap();
    /// // The block's 6 faces, and the 6 faces of the world's own bounds seen from inside.
    /// assert_eq!(stats.solid_quads, 12);
    /// assert_eq!(&glb[..4], b"glTF");
    /// ```
    pub fn write_glb_view(&self, mut out: impl Write, paths: &[&[Vec3]]) -> std::io::Result<ViewStats> {
        let (solid, water) = self.boundary_parts();
        let stats = ViewStats { solid_quads: solid.quads, water_quads: water.quads, paths: paths.len() };
        let mut bin: Vec<u8> = Vec::new();
        let (mut views, mut accessors) = (Vec::new(), Vec::new());
        // One accessor over a new buffer view of `bytes`; returns its index.
        let mut add = |bytes: &[u8], accessor: serde_json::Value, target: u32| -> usize {
            while !bin.len().is_multiple_of(4) {
                bin.push(0);
            }
            views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len(), "target": target}));
            bin.extend_from_slice(bytes);
            let mut a = accessor;
            a["bufferView"] = json!(views.len() - 1);
            accessors.push(a);
            accessors.len() - 1
        };
        let positions = |points: &[[f32; 3]], add: &mut dyn FnMut(&[u8], serde_json::Value, u32) -> usize| {
            let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
            let mut bytes = Vec::with_capacity(points.len() * 12);
            for p in points {
                lo = lo.min(Vec3::from_array(*p));
                hi = hi.max(Vec3::from_array(*p));
                p.iter().for_each(|c| bytes.extend_from_slice(&c.to_le_bytes()));
            }
            let accessor = json!({"componentType": 5126, "count": points.len(), "type": "VEC3",
                "min": lo.to_array(), "max": hi.to_array()});
            add(&bytes, accessor, 34962)
        };
        let mut meshes = Vec::new();
        let mut nodes = Vec::new();
        for (name, part, material) in [("world", &solid, 0), ("water", &water, 1)] {
            if part.quads == 0 {
                continue;
            }
            let pos = positions(&part.positions, &mut add);
            let bytes: Vec<u8> = part.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
            let idx = add(&bytes, json!({"componentType": 5125, "count": part.indices.len(), "type": "SCALAR"}), 34963);
            meshes.push(json!({"name": name, "primitives": [{"attributes": {"POSITION": pos}, "indices": idx,
                "material": material, "mode": 4}]}));
            nodes.push(json!({"name": name, "mesh": meshes.len() - 1}));
        }
        let mut lines = Vec::new();
        for path in paths.iter().filter(|p| p.len() >= 2 && p.iter().all(|q| q.is_finite())) {
            let points: Vec<[f32; 3]> = path.iter().map(|p| p.to_array()).collect();
            let pos = positions(&points, &mut add);
            lines.push(json!({"attributes": {"POSITION": pos}, "material": 2, "mode": 3}));
        }
        if !lines.is_empty() {
            meshes.push(json!({"name": "paths", "primitives": lines}));
            nodes.push(json!({"name": "paths", "mesh": meshes.len() - 1}));
        }
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let material = |name: &str, rgba: [f32; 4], blend: bool| {
            let mut m = json!({"name": name, "doubleSided": true,
                "pbrMetallicRoughness": {"baseColorFactor": rgba, "metallicFactor": 0.0, "roughnessFactor": 0.9}});
            if blend {
                m["alphaMode"] = json!("BLEND");
            }
            m
        };
        let mut document = json!({
            "asset": {"version": "2.0", "generator": "voxnav write_glb_view"},
            "scene": 0,
            "scenes": [{"nodes": (0..nodes.len()).collect::<Vec<_>>()}],
            "nodes": nodes,
            "meshes": meshes,
            "materials": [material("navigable boundary", [0.72, 0.70, 0.66, 1.0], false),
                material("water", [0.15, 0.4, 0.8, 0.45], true), material("path", [1.0, 0.25, 0.1, 1.0], false)],
            "accessors": accessors,
            "bufferViews": views,
        });
        if !bin.is_empty() {
            document["buffers"] = json!([{"byteLength": bin.len()}]);
        }
        let mut text = serde_json::to_vec(&document).map_err(std::io::Error::other)?;
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let total = 12 + 8 + text.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
        let total = u32::try_from(total).map_err(|_| std::io::Error::other("view larger than 4 GiB"))?;
        let mut glb = Vec::with_capacity(total as usize);
        glb.extend_from_slice(b"glTF");
        glb.extend_from_slice(&2u32.to_le_bytes());
        glb.extend_from_slice(&total.to_le_bytes());
        glb.extend_from_slice(&(text.len() as u32).to_le_bytes());
        glb.extend_from_slice(b"JSON");
        glb.extend_from_slice(&text);
        if !bin.is_empty() {
            glb.extend_from_slice(&(bin.len() as u32).to_le_bytes());
            glb.extend_from_slice(b"BIN\0");
            glb.extend_from_slice(&bin);
        }
        out.write_all(&glb)?;
        Ok(stats)
    }

    /// The greedy-meshed boundary faces: (blocked | free, water | air).
    fn boundary_parts(&self) -> (Part, Part) {
        let (mut solid, mut water) = (Part::default(), Part::default());
        let d = self.dims().as_ivec3();
        let (origin, s) = (self.origin(), self.voxel_size());
        for a in 0..3 {
            let (u, v) = ((a + 1) % 3, (a + 2) % 3);
            let (nu, nv) = (d[u] as usize, d[v] as usize);
            let mut mask = vec![0u8; nu * nv];
            for k in 0..=d[a] {
                // Face between voxel `k - 1` (below) and `k` (above) along `a`.
                for j in 0..nv {
                    for i in 0..nu {
                        let mut q = IVec3::ZERO;
                        (q[a], q[u], q[v]) = (k, i as i32, j as i32);
                        let mut p = q;
                        p[a] -= 1;
                        let (below, above) = (self.get(p), self.get(q));
                        mask[j * nu + i] = match (below, above) {
                            (Voxel::Solid, Voxel::Solid) => 0,
                            (Voxel::Solid, _) => 1, // normal +a, toward the free side
                            (_, Voxel::Solid) => 2,
                            (Voxel::Water, Voxel::Air) => 3, // the surface, seen from the air
                            (Voxel::Air, Voxel::Water) => 4,
                            _ => 0,
                        };
                    }
                }
                // Greedy: grow each face along u, then along v while the whole row matches.
                for j in 0..nv {
                    let mut i = 0;
                    while i < nu {
                        let code = mask[j * nu + i];
                        if code == 0 {
                            i += 1;
                            continue;
                        }
                        let mut w = 1;
                        while i + w < nu && mask[j * nu + i + w] == code {
                            w += 1;
                        }
                        let mut h = 1;
                        while j + h < nv && mask[(j + h) * nu + i..(j + h) * nu + i + w].iter().all(|&c| c == code) {
                            h += 1;
                        }
                        for jj in j..j + h {
                            mask[jj * nu + i..jj * nu + i + w].fill(0);
                        }
                        let corner = |du: usize, dv: usize| {
                            let mut c = Vec3::ZERO;
                            (c[a], c[u], c[v]) = (k as f32, (i + du) as f32, (j + dv) as f32);
                            origin + c * s
                        };
                        let mut q = [corner(0, 0), corner(w, 0), corner(w, h), corner(0, h)];
                        if code % 2 == 0 {
                            q.reverse(); // counter-clockwise seen from the normal's side
                        }
                        if code <= 2 { &mut solid } else { &mut water }.quad(q);
                        i += w;
                    }
                }
            }
        }
        (solid, water)
    }
}
