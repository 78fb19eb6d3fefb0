//! Water stage: the voxels whose centre lies inside a closed water shell, into a [`Bits`].
//!
//! The water mesh is split into shells (triangles joined through shared vertex positions), and
//! each shell is filled on its own by parity along x-rows through voxel centres, so shells
//! that overlap each other still fill their union, and shells need not be convex. A row centre
//! on a shared edge or vertex is counted by exactly one triangle of a front- or back-facing
//! fan (a top-left rule on edge functions computed in one canonical order), so parity holds on
//! ties.

use glam::{DVec2, DVec3};
use hashbrown::HashMap;

use super::bits::{Bits, Grid, set_run};
use super::mesh::TriangleMesh;

/// Triangle indices of `mesh` grouped into shells (connected through shared positions),
/// shells in order of their first triangle.
pub(crate) fn shells(mesh: &TriangleMesh) -> Vec<Vec<usize>> {
    let mut weld: HashMap<[u32; 3], u32> = HashMap::new();
    let ids: Vec<u32> = mesh
        .positions
        .iter()
        .map(|p| {
            let n = weld.len() as u32;
            *weld.entry(p.to_array().map(|c| (c + 0.0).to_bits())).or_insert(n)
        })
        .collect();
    let mut parent: Vec<u32> = (0..weld.len() as u32).collect();
    fn find(p: &mut [u32], mut a: u32) -> u32 {
        while p[a as usize] != a {
            p[a as usize] = p[p[a as usize] as usize];
            a = p[a as usize];
        }
        a
    }
    let valid = |t: &[u32; 3]| t.iter().all(|&i| (i as usize) < ids.len());
    for t in mesh.triangles.iter().filter(|t| valid(t)) {
        let a = find(&mut parent, ids[t[0] as usize]);
        for &i in &t[1..] {
            let b = find(&mut parent, ids[i as usize]);
            parent[b as usize] = a;
        }
    }
    let mut index: HashMap<u32, usize> = HashMap::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, t) in mesh.triangles.iter().enumerate().filter(|(_, t)| valid(t)) {
        let root = find(&mut parent, ids[t[0] as usize]);
        let s = *index.entry(root).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[s].push(i);
    }
    out
}

/// Edge function of `p` against the edge `a -> b` in the (y, z) plane, computed in one
/// canonical endpoint order so that the two triangles sharing an edge get exactly opposite
/// values.
#[inline]
fn edge(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let (s, t, sign) = if (a.x, a.y) <= (b.x, b.y) { (a, b, 1.0) } else { (b, a, -1.0) };
    sign * ((t.x - s.x) * (p.y - s.y) - (t.y - s.y) * (p.x - s.x))
}

/// Whether a point on the edge `a -> b` of a counter-clockwise triangle belongs to it: exactly
/// one of the two directions of any edge does.
#[inline]
fn owns(a: DVec2, b: DVec2) -> bool {
    let d = b - a;
    d.y > 0.0 || (d.y == 0.0 && d.x < 0.0)
}

/// Every voxel of `grid` whose centre lies inside a closed shell of `mesh`.
pub(crate) fn fill_water(mesh: &TriangleMesh, grid: &Grid) -> Bits {
    let mut out = Bits::new(grid);
    let verts: Vec<DVec3> = mesh.positions.iter().map(|&p| grid.voxel_coords(p)).collect();
    let mut crossings: Vec<(i32, i32, f64)> = Vec::new();
    for shell in shells(mesh) {
        crossings.clear();
        for &ti in &shell {
            let t = mesh.triangles[ti].map(|i| verts[i as usize]);
            let mut p = t.map(|v| DVec2::new(v.y, v.z));
            let area = (p[1] - p[0]).perp_dot(p[2] - p[0]);
            if area == 0.0 || !area.is_finite() {
                continue; // seen edge-on from the rows: its neighbours count the crossing
            }
            let mut t = t;
            if area < 0.0 {
                p.swap(1, 2);
                t.swap(1, 2);
            }
            let lo = p[0].min(p[1]).min(p[2]);
            let hi = p[0].max(p[1]).max(p[2]);
            // Row centres (j + 0.5, k + 0.5) inside the triangle's box.
            let j0 = ((lo.x - 0.5).ceil() as i32).max(0);
            let j1 = ((hi.x - 0.5).floor() as i32).min(grid.dims.y - 1);
            let k0 = ((lo.y - 0.5).ceil() as i32).max(0);
            let k1 = ((hi.y - 0.5).floor() as i32).min(grid.dims.z - 1);
            for k in k0..=k1 {
                for j in j0..=j1 {
                    let c = DVec2::new(f64::from(j) + 0.5, f64::from(k) + 0.5);
                    let mut w = [0.0; 3];
                    let mut inside = true;
                    for e in 0..3 {
                        let (a, b) = (p[(e + 1) % 3], p[(e + 2) % 3]);
                        w[e] = edge(a, b, c);
                        inside &= w[e] > 0.0 || (w[e] == 0.0 && owns(a, b));
                    }
                    if inside {
                        let s = w[0] + w[1] + w[2];
                        let x = (w[0] * t[0].x + w[1] * t[1].x + w[2] * t[2].x) / s;
                        crossings.push((k, j, x));
                    }
                }
            }
        }
        crossings.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)));
        for row in crossings.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let (k, j) = (row[0].0, row[0].1);
            let at = out.row_start(j, k);
            for pair in row.chunks_exact(2) {
                // Centres x + 0.5 within [x0, x1].
                let i0 = ((pair[0].2 - 0.5).ceil()).max(0.0);
                let i1 = ((pair[1].2 - 0.5).floor()).min(f64::from(grid.dims.x - 1));
                if i0 <= i1 {
                    set_run(&mut out.words[at..at + out.wpr], i0 as usize, i1 as usize);
                }
            }
        }
    }
    out
}
