//! Bulk access to a [`VoxelWorld`]'s chunk storage, for the readers and writers of whole
//! worlds: the level builder's row writes ([`or_rows`](VoxelWorld::or_rows)), the `.vxn` format's
//! chunk slots (shared and full chunks included), the `.3dmap` writer's walk over solid voxels.
//! Voxel by voxel access and fills are in the world's own file.

use glam::IVec3;

use crate::error::WorldError;
use crate::grid::layer::{BitLayer, CHUNK, CHUNK_MASK, CHUNK_SHIFT};
use crate::grid::world::{VoxelWorld, next_revision};
use crate::medium::Voxel;

impl VoxelWorld {
    /// Bulk write for builders: sets to `voxel` (solid or water) every voxel whose bit is set
    /// in `words`, a dense grid of x-rows of `wpr` 64-bit words each, row `(y, z)` at
    /// `(z * dims.y + y) * wpr` (bit `x % 64` of word `x / 64`); bits past the x extent are
    /// ignored. Only the chunks holding a set bit are touched. Returns how many voxels were
    /// newly set (not set before).
    pub(crate) fn or_rows(&mut self, voxel: Voxel, words: &[u64], wpr: usize) -> u64 {
        let rows_needed = self.dims.y as usize * self.dims.z as usize * wpr;
        if voxel == Voxel::Air || words.len() < rows_needed || wpr * 64 < self.dims.x as usize {
            return 0;
        }
        let revision = next_revision();
        let layer = if voxel == Voxel::Solid { &mut self.solid } else { &mut self.water };
        let (dx, dy, dz) = (self.dims.x as usize, self.dims.y as usize, self.dims.z as usize);
        let cdx = self.chunk_dims.x as usize;
        // Bits past the x extent, in the row's last word, are ignored.
        let last = if dx.is_multiple_of(64) { !0 } else { (1u64 << (dx % 64)) - 1 };
        let lw = (dx - 1) / 64;
        let before = layer.ones();
        // One column of four chunks at a time (the 256 rows' words `w` of band (cy, cz)): its
        // words gathered, skipped when all are zero, else split into the chunks' 16-bit rows.
        // A first pass ORs each column's words, so that the chunks to allocate are reserved
        // at once (the row table grown chunk by chunk was copied again and again).
        let (cdy, cdz) = (self.chunk_dims.y as usize, self.chunk_dims.z as usize);
        let band = |c: usize, n: usize| (n - c * CHUNK as usize).min(CHUNK as usize);
        let gather = |cz: usize, cy: usize, w: usize, col: &mut [u64; 256]| {
            let (nz, ny) = (band(cz, dz), band(cy, dy));
            let mask = if w == lw { last } else { !0 };
            if nz < CHUNK as usize || ny < CHUNK as usize {
                *col = [0; 256];
            }
            let mut all = 0;
            for lz in 0..nz {
                let first = ((cz * CHUNK as usize + lz) * dy + cy * CHUNK as usize) * wpr + w;
                for (ly, out) in col[lz << CHUNK_SHIFT..][..ny].iter_mut().enumerate() {
                    let word = words[first + ly * wpr] & mask;
                    *out = word;
                    all |= word;
                }
            }
            all
        };
        let mut col = [0u64; 256];
        let mut alls = Vec::with_capacity(cdz * cdy * (lw + 1));
        let mut new_chunks = 0;
        for cz in 0..cdz {
            for cy in 0..cdy {
                for w in 0..=lw {
                    let all = gather(cz, cy, w, &mut col);
                    alls.push(all);
                    for p in 0..4 {
                        let cx = w * 4 + p;
                        let c = (cz * cdy + cy) * cdx + cx;
                        new_chunks += usize::from(cx < cdx && (all >> (16 * p)) as u16 != 0 && !layer.allocated(c));
                    }
                }
            }
        }
        layer.reserve_chunks(new_chunks, true);
        let mut alls = alls.into_iter();
        for cz in 0..cdz {
            for cy in 0..cdy {
                for w in 0..=lw {
                    let all = alls.next().unwrap_or(0);
                    if all == 0 {
                        continue;
                    }
                    gather(cz, cy, w, &mut col);
                    for p in 0..4 {
                        let cx = w * 4 + p;
                        if cx >= cdx || (all >> (16 * p)) as u16 == 0 {
                            continue;
                        }
                        let rows: [u16; 256] = std::array::from_fn(|r| (col[r] >> (16 * p)) as u16);
                        let c = (cz * cdy + cy) * cdx + cx;
                        layer.or_chunk(c, &rows);
                        self.edits[c] = revision;
                    }
                }
            }
        }
        self.revision = revision;
        layer.ones() - before
    }

    /// The allocated chunks of the solid (or water) layer, in chunk index order, with their
    /// 256 rows (row `(lz << 4) | ly`, bit `lx`).
    pub(crate) fn layer_chunks(&self, water: bool) -> impl Iterator<Item = (usize, &[u16])> {
        if water { self.water.chunks() } else { self.solid.chunks() }
    }

    /// Reserves room for `new_chunks` more chunks of the solid (or water) layer, any of them
    /// shared, checked against the world's memory limit first (on error nothing changed).
    pub(crate) fn reserve_layer_chunks(&mut self, water: bool, new_chunks: usize) -> Result<(), WorldError> {
        let limit = self.limits.max_world_bytes;
        let needed = self
            .memory_bytes()
            .saturating_add(new_chunks.saturating_mul(BitLayer::CHUNK_BYTES))
            .saturating_add(self.layer(water).shared_bytes_after(new_chunks));
        if needed > limit {
            return Err(WorldError::MemoryLimit { needed, limit });
        }
        let layer = self.layer_mut(water);
        layer.reserve_chunks(new_chunks, true);
        layer.reserve_shared(new_chunks);
        Ok(())
    }

    /// The 256 rows of chunk `index` of the solid (or water) layer, or `None` if it has no
    /// set bit.
    pub(crate) fn layer_chunk(&self, water: bool, index: usize) -> Option<&[u16]> {
        self.layer(water).chunk_rows(index)
    }

    /// The 256 rows of slot `slot` of the solid (or water) layer.
    pub(crate) fn layer_slot_rows(&self, water: bool, slot: u32) -> &[u16] {
        self.layer(water).slot_rows(slot)
    }

    /// Gives chunk `index`, with no bit set yet in the solid (or water) layer, a new slot
    /// holding `rows` (of which `ones` bits are set, none outside the world: the caller checks);
    /// returns the slot.
    pub(crate) fn push_layer_chunk(&mut self, water: bool, index: usize, rows: &[u16; 256], ones: u64) -> u32 {
        self.layer_mut(water).push_chunk(index, rows, ones)
    }

    /// Points chunk `index`, with no bit set yet in the solid (or water) layer, at the layer's
    /// allocated slot `slot` (of `ones` set bits, none outside chunk `index`'s part of the
    /// world: the caller checks), shared from then on (copied on the first change).
    pub(crate) fn share_layer_slot(&mut self, water: bool, index: usize, slot: u32, ones: u64) {
        self.layer_mut(water).share_slot(index, slot, ones);
    }

    /// Sets every voxel inside the world of chunk `index`, which has no bit set yet in the
    /// solid (or water) layer, by sharing one slot among all such chunks of its
    /// [edge class](Self::edge_class) `class`; `full` must be [`full_chunk`](Self::full_chunk)
    /// of that class and `ones` its set bits.
    pub(crate) fn share_full_layer_chunk(
        &mut self,
        water: bool,
        index: usize,
        class: usize,
        full: &[u16; 256],
        ones: u64,
    ) {
        self.layer_mut(water).share_full(index, class, full, ones);
    }

    /// The chunk coordinates of chunk `index`.
    pub(crate) fn chunk_coords(&self, index: usize) -> IVec3 {
        let (x, y) = (self.chunk_dims.x as usize, self.chunk_dims.y as usize);
        IVec3::new((index % x) as i32, (index / x % y) as i32, (index / (x * y)) as i32)
    }

    /// The edge class of chunk `c` (chunk coordinates), `0..8`: bit 0 if it reaches past the
    /// world's x extent, bit 1 for y and bit 2 for z. Chunks of one class have the same part
    /// inside the world.
    #[inline]
    pub(crate) fn edge_class(&self, c: IVec3) -> usize {
        let partial = (self.dims & CHUNK_MASK).cmpne(IVec3::ZERO);
        (c.cmpeq(self.chunk_dims - 1) & partial).bitmask() as usize
    }

    /// The rows of a chunk of edge class `class` with every voxel inside the world set (row
    /// `(lz << 4) | ly`, bit `lx`).
    pub(crate) fn full_chunk(&self, class: usize) -> [u16; 256] {
        let part = |a: usize| if class >> a & 1 != 0 { self.dims[a] & CHUNK_MASK } else { CHUNK };
        let (px, py, pz) = (part(0), part(1), part(2));
        let x_mask = ((1u32 << px) - 1) as u16;
        let mut rows = [0u16; 256];
        for (i, row) in rows.iter_mut().enumerate() {
            if ((i & 15) as i32) < py && ((i >> 4) as i32) < pz {
                *row = x_mask;
            }
        }
        rows
    }

    fn layer(&self, water: bool) -> &BitLayer {
        if water { &self.water } else { &self.solid }
    }

    fn layer_mut(&mut self, water: bool) -> &mut BitLayer {
        if water { &mut self.water } else { &mut self.solid }
    }

    /// Calls `f` with every solid voxel, chunk by chunk (chunks in x, then y, then z order;
    /// inside a chunk, rows in y, then z order). Visits only the chunks that hold solid voxels,
    /// so its cost follows the geometry, not the world's volume.
    pub(crate) fn for_each_solid(&self, mut f: impl FnMut(IVec3)) {
        let cd = self.chunk_dims;
        for cz in 0..cd.z {
            for cy in 0..cd.y {
                for cx in 0..cd.x {
                    let c = IVec3::new(cx, cy, cz);
                    let i = self.chunk(c);
                    if self.solid.chunk_is_empty(i) {
                        continue;
                    }
                    let base = c << CHUNK_SHIFT;
                    for lz in 0..CHUNK {
                        for ly in 0..CHUNK {
                            let mut row = self.solid.row(i, ly, lz);
                            while row != 0 {
                                let lx = row.trailing_zeros() as i32;
                                row &= row - 1;
                                let v = base + IVec3::new(lx, ly, lz);
                                if self.contains(v) {
                                    f(v);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::{IVec3, UVec3, Vec3};

    use crate::grid::pass::Pass;
    use crate::grid::world::VoxelWorld;
    use crate::medium::{Media, Voxel};

    #[test]
    fn bulk_rows_set_exactly_their_bits() {
        let dims = UVec3::new(70, 19, 17);
        let wpr = 2;
        let mut seed = 77u64;
        let mut words = vec![0u64; 19 * 17 * wpr];
        for w in &mut words {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            *w = seed & (seed >> 7); // about a quarter of the bits, some past x = 70
        }
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
        let before = world.revision();
        let n = world.or_rows(Voxel::Water, &words, wpr);
        assert_ne!(world.revision(), before);
        let mut count = 0;
        for z in 0..17 {
            for y in 0..19 {
                for x in 0..70 {
                    let bit = words[(z * 19 + y) * wpr + x / 64] >> (x % 64) & 1 == 1;
                    let v = IVec3::new(x as i32, y as i32, z as i32);
                    assert_eq!(world.get(v) == Voxel::Water, bit, "{v}");
                    count += u64::from(bit);
                }
            }
        }
        assert_eq!(n, count);
        // The layer counts its bits: the world knows it has water (a bulk write once left
        // the count at 0, and dry media then walked through the water of built levels).
        assert!(world.has_water());
        let air = Pass::new(&Media::AIR);
        let wet =
            (0..17).flat_map(|z| (0..19).map(move |y| IVec3::new(3, y, z))).find(|&v| world.get(v) == Voxel::Water);
        assert!(!world.passable(wet.unwrap(), air));
        let twice = world.or_rows(Voxel::Water, &words, wpr);
        assert_eq!(twice, 0, "nothing new the second time");
        assert!(world.has_water());
        assert_eq!(world.or_rows(Voxel::Solid, &words[..10], wpr), 0, "too short: nothing");
    }
}
