//! Bit rows along all three axes for straight scans (jump point search), read lazily from a
//! [`VoxelWorld`] chunk by chunk for one query's media.
//!
//! A search asks for the 16-voxel row through a chunk along an axis; the first request for a
//! chunk reads its voxels and those of a one-voxel halo around it (x-rows straight from the
//! world's bit layers) and stores them as 18 x 18 rows along each axis, forward and
//! bit-reversed (3.8 KB), so the 3 x 3 rows around any row of the chunk come from one page.
//! Rows outside the world read as all blocked. The cache belongs to one query: stamps make a
//! new query start empty at no cost, and the world cannot change under it.

use glam::IVec3;

use super::layer::{CHUNK, CHUNK_MASK, CHUNK_SHIFT};
use super::moves::bit;
use super::world::{Pass, VoxelWorld};

/// Rows of a chunk along one axis.
pub(crate) const ROWS: usize = 256;
/// Neighbourhood centres that cover a chunk: every local coordinate is within 1 of one.
const CENTRES: [i32; 6] = [1, 4, 7, 10, 13, 14];

/// Rows of the chunks one query has read, along x, y and z.
#[derive(Debug, Default, Clone)]
pub(crate) struct ScanCache {
    stamp: u32,
    dims: IVec3,
    chunk_dims: IVec3,
    table: Vec<[u32; 2]>,
    used: usize,
    /// Per page: `6 * PAGE_ROWS` rows, axis-major, then the same bit-reversed (for scans
    /// toward lower coordinates); the row at lateral local `(u, v)` of an axis (each in
    /// `-1..=16`: a one-voxel halo of the neighbouring chunks) at [`halo_index`]`(u, v)`.
    rows: Vec<u16>,
    pass: Option<Pass>,
    /// Chunks read in the current query.
    pub(crate) chunks_read: usize,
}

impl ScanCache {
    /// Forgets every row; the next reads are for `world` seen with `pass`.
    pub(crate) fn reset(&mut self, world: &VoxelWorld, pass: Pass) {
        let dims = world.dims().as_ivec3();
        let chunk_dims = (dims + CHUNK_MASK) >> CHUNK_SHIFT;
        if chunk_dims != self.chunk_dims || self.stamp == u32::MAX {
            self.table.clear();
            self.table.resize(chunk_dims.x as usize * chunk_dims.y as usize * chunk_dims.z as usize, [0, 0]);
            self.chunk_dims = chunk_dims;
            self.stamp = 0;
        }
        self.dims = dims;
        self.stamp += 1;
        self.used = 0;
        self.pass = Some(pass);
        self.chunks_read = 0;
    }

    /// The 16-bit row along `axis` through chunk coordinate `c` (on that axis) at the lateral
    /// voxel coordinates `(u, v)` (the other two axes in x, y, z order). Bit `i` is set when
    /// voxel `c * 16 + i` of the row is blocked or outside the world.
    #[inline]
    pub(crate) fn row(&mut self, world: &VoxelWorld, axis: usize, c: i32, u: i32, v: i32) -> u16 {
        let (ua, va) = LATERAL[axis];
        if u < 0 || v < 0 || u >= self.dims[ua] || v >= self.dims[va] || c < 0 || c >= self.chunk_dims[axis] {
            return u16::MAX;
        }
        let base = self.page_base(world, axis, c, u, v);
        self.rows[base + halo_index(u & CHUNK_MASK, v & CHUNK_MASK)]
    }

    /// The rows along `axis` through chunk coordinate `c` at `(u + du, v + dv)` for each of
    /// `offsets` (each within 1 of `(0, 0)`), as [`row`](Self::row) reads them (bit-reversed
    /// if `reversed`), with one chunk lookup. `(u, v)` must lie inside the world.
    #[inline]
    pub(crate) fn rows9(
        &mut self,
        world: &VoxelWorld,
        axis: usize,
        c: i32,
        u: i32,
        v: i32,
        reversed: bool,
        offsets: &[(i32, i32); 9],
    ) -> [u16; 9] {
        if c < 0 || c >= self.chunk_dims[axis] {
            return [u16::MAX; 9];
        }
        let base = self.page_base(world, axis, c, u, v) + if reversed { 3 * PAGE_ROWS } else { 0 };
        let centre = base + halo_index(u & CHUNK_MASK, v & CHUNK_MASK);
        let rows = &self.rows[centre - HALO - 1..=centre + HALO + 1];
        let mut out = [0u16; 9];
        for (o, &(du, dv)) in out.iter_mut().zip(offsets) {
            *o = rows[(HALO as i32 + 1 + dv * HALO as i32 + du) as usize];
        }
        out
    }

    /// Index of the first row along `axis` of the page of the chunk holding `(c, u, v)`.
    #[inline]
    fn page_base(&mut self, world: &VoxelWorld, axis: usize, c: i32, u: i32, v: i32) -> usize {
        let (ua, va) = LATERAL[axis];
        let mut cc = IVec3::ZERO;
        cc[axis] = c;
        cc[ua] = u >> CHUNK_SHIFT;
        cc[va] = v >> CHUNK_SHIFT;
        let chunk = ((cc.z * self.chunk_dims.y + cc.y) * self.chunk_dims.x + cc.x) as usize;
        let entry = self.table[chunk];
        let page = if entry[0] == self.stamp { entry[1] as usize } else { self.read_chunk(world, chunk, cc) };
        page * 6 * PAGE_ROWS + axis * PAGE_ROWS
    }

    /// Reads chunk `cc` with a one-voxel halo: its 18 x 18 x-rows through `blocked_row16`,
    /// then transposed into y- and z-rows.
    #[cold]
    fn read_chunk(&mut self, world: &VoxelWorld, chunk: usize, cc: IVec3) -> usize {
        let page = self.used;
        self.used += 1;
        self.chunks_read += 1;
        self.table[chunk] = [self.stamp, page as u32];
        let start = page * 6 * PAGE_ROWS;
        if self.rows.len() < start + 6 * PAGE_ROWS {
            self.rows.resize(start + 6 * PAGE_ROWS, 0);
        }
        let pass = self.pass.expect("reset before use");
        let (base, dims) = (cc << CHUNK_SHIFT, self.dims);
        // Bit 0: x = base.x - 1, bit i + 1: x = base.x + i, bit 17: x = base.x + 16.
        let mut wide = [0u32; PAGE_ROWS];
        for lz in -1..=CHUNK {
            for ly in -1..=CHUNK {
                let (y, z) = (base.y + ly, base.z + lz);
                wide[halo_index(ly, lz)] = if y < 0 || z < 0 || y >= dims.y || z >= dims.z {
                    (1 << HALO) - 1
                } else {
                    let mid = u32::from(world.blocked_row16(cc.x, y, z, pass));
                    let left =
                        if cc.x > 0 { u32::from(world.blocked_row16(cc.x - 1, y, z, pass)) >> 15 & 1 } else { 1 };
                    let right = if base.x + CHUNK < dims.x {
                        u32::from(world.blocked_row16(cc.x + 1, y, z, pass)) & 1
                    } else {
                        1
                    };
                    left | mid << 1 | right << (CHUNK + 1)
                };
            }
        }
        let rows = &mut self.rows[start..start + 6 * PAGE_ROWS];
        rows.fill(0);
        for lz in -1..=CHUNK {
            for ly in -1..=CHUNK {
                let w = wide[halo_index(ly, lz)];
                // Along x: lateral (y, z).
                rows[halo_index(ly, lz)] = (w >> 1) as u16;
                let mut bits = w;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize; // lx + 1
                    bits &= bits - 1;
                    // Along y: lateral (x, z); along z: lateral (x, y).
                    if (0..CHUNK).contains(&ly) {
                        rows[PAGE_ROWS + (lz + 1) as usize * HALO + b] |= 1 << ly;
                    }
                    if (0..CHUNK).contains(&lz) {
                        rows[2 * PAGE_ROWS + (ly + 1) as usize * HALO + b] |= 1 << lz;
                    }
                }
            }
        }
        let (forward, reversed) = rows.split_at_mut(3 * PAGE_ROWS);
        for (r, f) in reversed.iter_mut().zip(forward.iter()) {
            *r = f.reverse_bits();
        }
        page
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.table.capacity() * 8 + self.rows.capacity() * 2
    }
}

/// Edge of a chunk's lateral plane with its one-voxel halo.
const HALO: usize = CHUNK as usize + 2;
/// Rows of a chunk along one axis, halo included.
const PAGE_ROWS: usize = HALO * HALO;

/// Index of the row at lateral local coordinates `(lu, lv)` (each in `-1..=16`) in a page.
#[inline]
fn halo_index(lu: i32, lv: i32) -> usize {
    (lv + 1) as usize * HALO + (lu + 1) as usize
}

/// The 256 x-rows (`lz * 16 + ly`) of chunk `cc`: bit `lx` set when the voxel is blocked for
/// `pass` or outside the world.
pub(crate) fn read_chunk_rows(world: &VoxelWorld, pass: Pass, cc: IVec3) -> [u16; ROWS] {
    let base = cc << CHUNK_SHIFT;
    let mut x_rows = [0u16; ROWS];
    if (base + CHUNK).cmple(world.dims().as_ivec3()).all() {
        // Whole chunk inside: 216 neighbourhood masks, each 27 voxels.
        for &lz in &CENTRES {
            for &ly in &CENTRES {
                for &lx in &CENTRES {
                    let m = world.blocked_mask(base + IVec3::new(lx, ly, lz), pass);
                    for dz in -1..=1 {
                        for dy in -1..=1 {
                            let bits = (m >> bit(-1, dy, dz) & 7) as u16;
                            x_rows[(((lz + dz) << CHUNK_SHIFT) | (ly + dy)) as usize] |= bits << (lx - 1);
                        }
                    }
                }
            }
        }
    } else {
        for lz in 0..CHUNK {
            for ly in 0..CHUNK {
                let mut r = 0u16;
                for lx in 0..CHUNK {
                    if !world.passable(base + IVec3::new(lx, ly, lz), pass) {
                        r |= 1 << lx;
                    }
                }
                x_rows[((lz << CHUNK_SHIFT) | ly) as usize] = r;
            }
        }
    }
    x_rows
}

/// The two lateral axes of each axis, in x, y, z order.
pub(crate) const LATERAL: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::medium::{Media, Voxel};
    use glam::{UVec3, Vec3};

    #[test]
    fn rows_match_voxel_reads_on_every_axis() {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(37, 20, 18)).unwrap();
        let mut seed = 3u64;
        for z in 0..18 {
            for y in 0..20 {
                for x in 0..37 {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let v = match seed >> 60 {
                        0..=1 => Voxel::Solid,
                        2..=3 => Voxel::Water,
                        _ => Voxel::Air,
                    };
                    w.set(IVec3::new(x, y, z), v).unwrap();
                }
            }
        }
        let mut cache = ScanCache::default();
        for media in [Media::ANY, Media::AIR, Media::WATER] {
            let pass = Pass::new(&media);
            cache.reset(&w, pass);
            for axis in 0..3 {
                let (ua, va) = LATERAL[axis];
                for u in -1..=w.dims().as_ivec3()[ua] {
                    for v in -1..=w.dims().as_ivec3()[va] {
                        for c in 0..3 {
                            let r = cache.row(&w, axis, c, u, v);
                            for i in 0..16 {
                                let mut p = IVec3::ZERO;
                                p[axis] = c * 16 + i;
                                p[ua] = u;
                                p[va] = v;
                                assert_eq!(r >> i & 1 != 0, !w.passable(p, pass), "{p} axis {axis} {media:?}");
                            }
                            let inside =
                                (0..w.dims().as_ivec3()[ua]).contains(&u) && (0..w.dims().as_ivec3()[va]).contains(&v);
                            if inside {
                                let offsets =
                                    [(0, 0), (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
                                let rows = cache.rows9(&w, axis, c, u, v, false, &offsets);
                                let back = cache.rows9(&w, axis, c, u, v, true, &offsets);
                                assert_eq!(back, rows.map(u16::reverse_bits));
                                for (r, (du, dv)) in rows.into_iter().zip(offsets) {
                                    assert_eq!(r, cache.row(&w, axis, c, u + du, v + dv), "axis {axis} c {c} {u} {v}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
