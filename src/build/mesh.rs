//! [`TriangleMesh`] and [`LevelMesh`]: a level's triangles in world space, split into solid
//! geometry and water volumes, and [`matches_pattern`], the rule the loaders split them by.

use glam::Vec3;

use crate::error::MeshError;

/// Triangles in world space (node transforms applied), +Y up, world units (metres).
///
/// Every index is below `positions.len()` and every position is finite when the mesh comes
/// from a loader; [`build_level`](crate::build_level) checks meshes built by hand
/// (see [`validate`](Self::validate)).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TriangleMesh {
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Triangles, as three indices into `positions` each.
    pub triangles: Vec<[u32; 3]>,
}

impl TriangleMesh {
    /// The box around every vertex a triangle uses: `(min, max)`, or `None` for no triangle.
    #[must_use]
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        // The vertices used, as bits (one pass over the indices, writes that stay in cache),
        // then one pass over the vertices in order (the indices alone would gather them from
        // all over the table).
        let n = self.positions.len();
        let mut used = vec![0u64; n.div_ceil(64)];
        for &i in self.triangles.iter().flatten() {
            if let Some(w) = used.get_mut(i as usize / 64) {
                *w |= 1 << (i % 64);
            }
        }
        // `minss`/`maxss` (no NaN handling: a NaN vertex is refused by `validate`).
        let less = |a: f32, b: f32| if b < a { b } else { a };
        let more = |a: f32, b: f32| if b > a { b } else { a };
        let (mut lo, mut hi, mut any) = (Vec3::INFINITY, Vec3::NEG_INFINITY, false);
        for (w, &bits) in used.iter().enumerate() {
            let mut bits = bits;
            any |= bits != 0;
            while bits != 0 {
                let p = self.positions[w * 64 + bits.trailing_zeros() as usize];
                lo = Vec3::new(less(lo.x, p.x), less(lo.y, p.y), less(lo.z, p.z));
                hi = Vec3::new(more(hi.x, p.x), more(hi.y, p.y), more(hi.z, p.z));
                bits &= bits - 1;
            }
        }
        any.then_some((lo, hi))
    }

    /// Appends vertices, and triangles indexing them from 0, to this mesh (their indices are
    /// shifted past the vertices already there).
    pub fn append(&mut self, positions: impl IntoIterator<Item = Vec3>, triangles: &[[u32; 3]]) {
        let base = self.positions.len() as u32;
        self.positions.extend(positions);
        // Saturating: an index past the end stays past it, for `validate` to report.
        self.triangles.extend(triangles.iter().map(|t| t.map(|i| i.saturating_add(base))));
    }

    /// Checks that every position is finite and every index names a vertex (loaders return
    /// only meshes that pass; [`build_level`](crate::build_level) checks meshes made by hand).
    ///
    /// # Errors
    /// [`MeshError::NonFinite`] or [`MeshError::IndexOutOfRange`] for the first bad one.
    pub fn validate(&self) -> Result<(), MeshError> {
        if let Some(vertex) = self.positions.iter().position(|p| !p.is_finite()) {
            return Err(MeshError::NonFinite { vertex });
        }
        let n = self.positions.len();
        match self.triangles.iter().flatten().find(|&&i| i as usize >= n) {
            Some(&i) => Err(MeshError::IndexOutOfRange { index: u64::from(i), vertices: n }),
            None => Ok(()),
        }
    }
}

/// A level's geometry: the solid triangles (walls, floors, rocks: everything that blocks) and
/// the water volumes (closed shells whose inside is water; their surfaces block nothing).
///
/// Which parts are water is chosen by name when loading (see [`matches_pattern`]): glTF node,
/// mesh or material names, OBJ object or group names.
///
/// # Examples
/// ```
/// use voxnav::LevelMesh;
/// let obj = b"o floor\nv 0 0 0\nv 4 0 0\nv 0 0 4\nf 1 2 3\no pool_water\nv 0 -1 0\nv 1 -1 0\nv 0 -1 1\nf 4 5 6\n";
/// let level = LevelMesh::from_obj_bytes(obj, "water").unwrap();
/// assert_eq!(level.solid.triangles.len(), 1);
/// assert_eq!(level.water.triangles.len(), 1);
/// assert_eq!(level.triangle_count(), 2);
/// assert_eq!(level.bounds(), Some((glam::Vec3::new(0.0, -1.0, 0.0), glam::Vec3::new(4.0, 0.0, 4.0))));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LevelMesh {
    /// Triangles that block.
    pub solid: TriangleMesh,
    /// Closed shells whose inside is water.
    pub water: TriangleMesh,
}

impl LevelMesh {
    /// Most triangles a loader produces (after instancing nodes), so that a small file cannot
    /// ask for an unbounded allocation.
    pub const MAX_TRIANGLES: usize = 1 << 25;

    /// The box around every triangle, solid and water: `(min, max)`, or `None` if there is none.
    #[must_use]
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        match (self.solid.bounds(), self.water.bounds()) {
            (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
            (a, b) => a.or(b),
        }
    }

    /// Triangles in all, solid and water.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.solid.triangles.len() + self.water.triangles.len()
    }
}

/// Whether a mesh `name` matches a water `pattern`: case-insensitive; a pattern with `*`
/// wildcards must match the whole name, a pattern without is looked for anywhere in it
/// (`"water"` matches `"water"`, `"pool_Water_2"`); several patterns may be joined by `|`.
/// An empty pattern matches nothing.
///
/// # Examples
/// ```
/// use voxnav::matches_pattern;
/// assert!(matches_pattern("Pool_Water", "water"));
/// assert!(matches_pattern("lava_01", "water|lava*"));
/// assert!(!matches_pattern("underwater_rock", "water*"));
/// assert!(!matches_pattern("water", ""));
/// ```
#[must_use]
pub fn matches_pattern(name: &str, pattern: &str) -> bool {
    let name = name.to_lowercase();
    pattern.split('|').filter(|p| !p.is_empty()).any(|p| {
        let p = p.to_lowercase();
        if p.contains('*') { glob(name.as_bytes(), p.as_bytes()) } else { name.contains(&p) }
    })
}

/// Whole-string match with `*` wildcards (iterative, linear backtracking).
fn glob(name: &[u8], pat: &[u8]) -> bool {
    let (mut n, mut p) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pat.len() && pat[p] == b'*' {
            star = Some((p, n));
            p += 1;
        } else if p < pat.len() && pat[p] == name[n] {
            p += 1;
            n += 1;
        } else if let Some((sp, sn)) = star {
            p = sp + 1;
            n = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    pat[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_whole_names() {
        assert!(glob(b"water", b"water"));
        assert!(glob(b"water_01", b"water*"));
        assert!(glob(b"a_water_b", b"*water*"));
        assert!(!glob(b"a_water_b", b"water*"));
        assert!(glob(b"", b"*"));
        assert!(!glob(b"x", b""));
        assert!(glob(b"aXbXc", b"a*b*c"));
    }

    #[test]
    fn validate_rejects_bad_meshes() {
        let mut m = TriangleMesh { positions: vec![Vec3::ZERO; 3], triangles: vec![[0, 1, 2]] };
        assert!(m.validate().is_ok());
        m.triangles.push([0, 1, 3]);
        assert!(matches!(m.validate(), Err(MeshError::IndexOutOfRange { index: 3, vertices: 3 })));
        m.triangles.pop();
        m.positions[1].y = f32::NAN;
        assert!(matches!(m.validate(), Err(MeshError::NonFinite { vertex: 1 })));
    }
}
