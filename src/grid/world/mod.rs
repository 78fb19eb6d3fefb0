//! [`VoxelWorld`]: a bounded, sparse voxel grid of air, water and solid voxels.

mod bulk;

use glam::{IVec3, UVec3, Vec3};

use super::layer::{BitLayer, CHUNK, CHUNK_MASK, CHUNK_SHIFT};
use crate::error::WorldError;
use crate::limits::Limits;
use crate::medium::Voxel;

/// A bounded voxel world, stored sparsely: memory grows with the solid and watery regions, not
/// with the volume.
///
/// # Conventions
/// - Axes: right-handed, **+Y is up** (glTF, Bevy). The benchmark loader keeps a file's own axes.
/// - Voxel `v` (integer coordinates, `0 <= v < dims()`) is the cube
///   `origin + v * voxel_size ..= origin + (v + 1) * voxel_size`: integer coordinates name the
///   **min corner**; [`voxel_center`](Self::voxel_center) is `+ 0.5` voxel.
/// - World units (metres, say) for points, sizes and lengths; voxel units for `IVec3`.
/// - Every voxel starts as [`Voxel::Air`]; everything outside the bounds counts as solid.
///
/// The world is `Send + Sync`: any number of threads may search it at once, each with its own
/// [`Pathfinder`](crate::Pathfinder).
///
/// # Examples
/// ```
/// use glam::{IVec3, Vec3};
/// use voxnav::{Agent, Voxel, VoxelWorld};
/// let agent = Agent::new(1.0, 0.5, 0.5).unwrap();
/// let mut world = VoxelWorld::for_agent(&agent, Vec3::ZERO, Vec3::splat(16.0)).unwrap();
/// assert_eq!(world.dims(), glam::UVec3::splat(16));
/// world.fill_box(Vec3::new(4.0, 0.0, 4.0), Vec3::new(6.0, 10.0, 6.0), Voxel::Solid).unwrap();
/// assert!(world.is_blocked(IVec3::new(5, 3, 5)));
/// assert_eq!(world.voxel_at(Vec3::new(5.5, 3.2, 5.9)), IVec3::new(5, 3, 5));
/// assert_eq!(world.voxel_center(IVec3::new(5, 3, 5)), Vec3::new(5.5, 3.5, 5.5));
/// ```
#[derive(Debug)]
pub struct VoxelWorld {
    origin: Vec3,
    voxel_size: f32,
    dims: IVec3,
    chunk_dims: IVec3,
    solid: BitLayer,
    water: BitLayer,
    revision: u64,
    /// Per chunk, the revision of its last edit (0: none since the world was made).
    edits: Vec<u64>,
    /// Unique per world object (a clone gets its own): with `edits`, tells a cache built from
    /// an earlier state of this world which chunks changed since.
    lineage: u64,
    /// For a clone: the lineage and revision of the world it was cloned from (its history up
    /// to there is this world's too, `edits` included).
    forked_from: Option<(u64, u64)>,
    /// Memory limits of this world and of what is built over it.
    limits: Limits,
}

impl Clone for VoxelWorld {
    /// A copy in the same state (same [`revision`](Self::revision)); its later edits are its own.
    fn clone(&self) -> Self {
        Self {
            origin: self.origin,
            voxel_size: self.voxel_size,
            dims: self.dims,
            chunk_dims: self.chunk_dims,
            solid: self.solid.clone(),
            water: self.water.clone(),
            revision: self.revision,
            edits: self.edits.clone(),
            lineage: next_revision(),
            forked_from: Some((self.lineage, self.revision)),
            limits: self.limits,
        }
    }
}

/// Source of world revisions: unique in the process, so a cache keyed on a revision can never
/// mistake one world (or one state of it) for another.
static NEXT_REVISION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_revision() -> u64 {
    NEXT_REVISION.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl VoxelWorld {
    /// Largest number of voxels along one axis.
    pub const MAX_AXIS: u32 = 1 << 20;
    /// Largest number of voxels in a world (2^36, so the chunk table stays under 64 MiB).
    pub const MAX_VOXELS: u64 = 1 << 36;

    /// An all-air world of `dims` voxels of edge `voxel_size`, whose voxel `(0, 0, 0)` has its
    /// min corner at `origin`, with the default [`Limits`].
    ///
    /// # Errors
    /// As [`with_limits`](Self::with_limits).
    pub fn new(origin: Vec3, voxel_size: f32, dims: UVec3) -> Result<Self, WorldError> {
        Self::with_limits(origin, voxel_size, dims, Limits::default())
    }

    /// [`new`](Self::new) with the given memory limits, which the world and everything built
    /// over it (searches, [`Components`](crate::Components)) then respect.
    ///
    /// # Errors
    /// [`WorldError::InvalidVoxelSize`], [`WorldError::InvalidBounds`] for a non-finite origin,
    /// [`WorldError::InvalidDimensions`] for a zero axis or more than [`Self::MAX_AXIS`] /
    /// [`Self::MAX_VOXELS`], [`WorldError::MemoryLimit`] if the chunk tables alone would pass
    /// `limits.max_world_bytes` (checked before allocating).
    pub fn with_limits(origin: Vec3, voxel_size: f32, dims: UVec3, limits: Limits) -> Result<Self, WorldError> {
        if !(voxel_size.is_finite() && voxel_size > 0.0) {
            return Err(WorldError::InvalidVoxelSize(voxel_size));
        }
        if !origin.is_finite() {
            return Err(WorldError::InvalidBounds);
        }
        let d = dims.as_u64vec3();
        if dims.min_element() == 0 || dims.max_element() > Self::MAX_AXIS || d.x * d.y * d.z > Self::MAX_VOXELS {
            return Err(WorldError::InvalidDimensions { x: d.x, y: d.y, z: d.z });
        }
        let dims = dims.as_ivec3();
        let chunk_dims = (dims + CHUNK - 1) >> CHUNK_SHIFT;
        let chunks = chunk_dims.x as usize * chunk_dims.y as usize * chunk_dims.z as usize;
        let needed = 2 * BitLayer::empty_bytes(chunks) + chunks * 8;
        if needed > limits.max_world_bytes {
            return Err(WorldError::MemoryLimit { needed, limit: limits.max_world_bytes });
        }
        Ok(Self {
            origin,
            voxel_size,
            dims,
            chunk_dims,
            solid: BitLayer::new(chunks),
            water: BitLayer::new(chunks),
            revision: next_revision(),
            edits: vec![0; chunks],
            lineage: next_revision(),
            forked_from: None,
            limits,
        })
    }

    /// The memory limits of this world and of what is built over it.
    #[must_use]
    #[inline]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Replaces the memory limits (for a world loaded from a file, say). Memory already held is
    /// kept; later allocations are checked against the new limits.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Number of 16^3 chunks the world's tables cover.
    pub(crate) fn chunk_count(&self) -> usize {
        self.edits.len()
    }

    /// Voxels along each axis.
    #[must_use]
    #[inline]
    pub fn dims(&self) -> UVec3 {
        self.dims.as_uvec3()
    }

    /// Edge of one voxel, in world units.
    #[must_use]
    #[inline]
    pub fn voxel_size(&self) -> f32 {
        self.voxel_size
    }

    /// World position of the min corner of voxel `(0, 0, 0)`.
    #[must_use]
    #[inline]
    pub fn origin(&self) -> Vec3 {
        self.origin
    }

    /// The world's box in world units: `(min, max)`.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        (self.origin, self.origin + self.dims.as_vec3() * self.voxel_size)
    }

    /// This world's revision: a number unique in the process, renewed by every edit (a clone
    /// shares it until either is edited). Caches derived from a world compare it.
    #[must_use]
    #[inline]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether voxel `v` lies inside the bounds.
    #[must_use]
    #[inline]
    pub fn contains(&self, v: IVec3) -> bool {
        v.cmpge(IVec3::ZERO).all() && v.cmplt(self.dims).all()
    }

    /// The voxel containing world point `p` (floor), which may lie outside the bounds. Large
    /// coordinates saturate; a NaN coordinate gives `i32::MIN` (outside every world, so such a
    /// point is never taken for voxel 0). See [`try_voxel_at`](Self::try_voxel_at) for a
    /// checked version.
    #[must_use]
    #[inline]
    pub fn voxel_at(&self, p: Vec3) -> IVec3 {
        let v = ((p - self.origin) / self.voxel_size).floor();
        let v = Vec3::select(v.cmpeq(v), v, Vec3::splat(f32::NEG_INFINITY));
        v.as_ivec3()
    }

    /// The voxel containing `p`, or `None` if `p` is not finite or lies outside the bounds.
    #[must_use]
    pub fn try_voxel_at(&self, p: Vec3) -> Option<IVec3> {
        let v = self.voxel_at(p);
        (p.is_finite() && self.contains(v)).then_some(v)
    }

    /// World position of the centre of voxel `v`.
    #[must_use]
    #[inline]
    pub fn voxel_center(&self, v: IVec3) -> Vec3 {
        self.origin + (v.as_vec3() + 0.5) * self.voxel_size
    }

    /// World position of the min corner of voxel `v`.
    #[must_use]
    #[inline]
    pub fn voxel_min(&self, v: IVec3) -> Vec3 {
        self.origin + v.as_vec3() * self.voxel_size
    }

    #[inline]
    fn chunk(&self, c: IVec3) -> usize {
        ((c.z * self.chunk_dims.y + c.y) * self.chunk_dims.x + c.x) as usize
    }

    /// Index of chunk `c` (chunk coordinates inside the world) in the chunk tables.
    #[inline]
    pub(crate) fn chunk_index(&self, c: IVec3) -> usize {
        self.chunk(c)
    }

    /// Chunks along each axis.
    #[inline]
    pub(crate) fn chunk_dims(&self) -> IVec3 {
        self.chunk_dims
    }

    /// The layer of solid voxels.
    #[inline]
    pub(crate) fn solid_layer(&self) -> &BitLayer {
        &self.solid
    }

    /// The layer of water voxels.
    #[inline]
    pub(crate) fn water_layer(&self) -> &BitLayer {
        &self.water
    }

    /// The solid bits of row `(ly, lz)` of chunk `index`.
    #[inline]
    pub(crate) fn solid_row(&self, index: usize, ly: i32, lz: i32) -> u32 {
        self.solid.row(index, ly, lz)
    }

    /// Whether chunk `index` holds no solid voxel.
    #[inline]
    pub(crate) fn solid_chunk_empty(&self, index: usize) -> bool {
        self.solid.chunk_is_empty(index)
    }

    /// The state of voxel `v`; [`Voxel::Solid`] outside the bounds.
    #[must_use]
    #[inline]
    pub fn get(&self, v: IVec3) -> Voxel {
        if !self.contains(v) {
            return Voxel::Solid;
        }
        let c = self.chunk(v >> CHUNK_SHIFT);
        let l = (v & CHUNK_MASK).to_array();
        if self.solid.get(c, l) {
            Voxel::Solid
        } else if self.water.get(c, l) {
            Voxel::Water
        } else {
            Voxel::Air
        }
    }

    /// Whether `v` is solid or outside the bounds.
    #[must_use]
    #[inline]
    pub fn is_blocked(&self, v: IVec3) -> bool {
        self.get(v) == Voxel::Solid
    }

    /// Sets voxel `v`.
    ///
    /// # Errors
    /// [`WorldError::OutOfBounds`] if `v` is outside the world, [`WorldError::MemoryLimit`] if
    /// a new chunk would pass the world's limit; nothing changes.
    pub fn set(&mut self, v: IVec3, voxel: Voxel) -> Result<(), WorldError> {
        if !self.contains(v) {
            return Err(WorldError::OutOfBounds(v));
        }
        self.reserve_for(v, v, voxel)?;
        let c = self.chunk(v >> CHUNK_SHIFT);
        let l = (v & CHUNK_MASK).to_array();
        self.solid.fill_row(c, l[1], l[2], 1 << l[0], voxel == Voxel::Solid);
        self.water.fill_row(c, l[1], l[2], 1 << l[0], voxel == Voxel::Water);
        self.revision = next_revision();
        self.edits[c] = self.revision;
        Ok(())
    }

    /// Sets every voxel of the inclusive voxel box `min..=max`, clipped to the bounds. Returns
    /// how many voxels it set (0 if the box misses the world).
    ///
    /// # Errors
    /// [`WorldError::MemoryLimit`] if the chunks the fill would allocate pass the world's
    /// [`Limits::max_world_bytes`] (checked before anything changes); nothing changes.
    pub fn fill_voxels(&mut self, min: IVec3, max: IVec3, voxel: Voxel) -> Result<usize, WorldError> {
        self.reserve_for(min, max, voxel)?;
        Ok(self.fill_reserved(min, max, voxel))
    }

    /// Checks that filling the inclusive voxel box `min..=max` (clipped) with `voxel` stays
    /// within the world's memory limit, and reserves the chunks it may allocate, so that fills
    /// inside that box cannot fail. Counts every chunk of the box that the fill may give a new
    /// slot: not yet allocated in the layer `voxel` sets, or shared (a loaded world's) in a
    /// layer it sets or clears (a bound: a shape inside the box may need fewer).
    pub(crate) fn reserve_for(&mut self, min: IVec3, max: IVec3, voxel: Voxel) -> Result<(), WorldError> {
        let lo = min.max(IVec3::ZERO);
        let hi = max.min(self.dims - 1);
        let set = [voxel == Voxel::Solid, voxel == Voxel::Water];
        let check = [set[0] || self.solid.shares_slots(), set[1] || self.water.shares_slots()];
        if lo.cmpgt(hi).any() || check == [false, false] {
            return Ok(());
        }
        let (clo, chi) = (lo >> CHUNK_SHIFT, hi >> CHUNK_SHIFT);
        let mut new = [0usize; 2];
        for z in clo.z..=chi.z {
            for y in clo.y..=chi.y {
                for x in clo.x..=chi.x {
                    let c = self.chunk(IVec3::new(x, y, z));
                    for (l, layer) in [&self.solid, &self.water].into_iter().enumerate() {
                        new[l] += usize::from(check[l] && layer.write_needs_slot(c, set[l]));
                    }
                }
            }
        }
        if new == [0, 0] {
            return Ok(());
        }
        let limit = self.limits.max_world_bytes;
        let edits = self.edits.capacity() * 8;
        let mut needed = 0;
        for exact in [false, true] {
            needed =
                self.solid.bytes_after(new[0], exact).saturating_add(self.water.bytes_after(new[1], exact)) + edits;
            if needed <= limit {
                self.solid.reserve_chunks(new[0], exact);
                self.water.reserve_chunks(new[1], exact);
                return Ok(());
            }
        }
        Err(WorldError::MemoryLimit { needed, limit })
    }

    /// [`fill_voxels`](Self::fill_voxels) after [`reserve_for`](Self::reserve_for) covered the box.
    pub(crate) fn fill_reserved(&mut self, min: IVec3, max: IVec3, voxel: Voxel) -> usize {
        let lo = min.max(IVec3::ZERO);
        let hi = max.min(self.dims - 1);
        if lo.cmpgt(hi).any() {
            return 0;
        }
        self.revision = next_revision();
        for z in lo.z..=hi.z {
            for y in lo.y..=hi.y {
                let mut x = lo.x;
                while x <= hi.x {
                    let end = (x | CHUNK_MASK).min(hi.x);
                    let c = self.chunk(IVec3::new(x, y, z) >> CHUNK_SHIFT);
                    let bits = (((1u32 << (end - x + 1)) - 1) << (x & CHUNK_MASK)) as u16;
                    let (ly, lz) = (y & CHUNK_MASK, z & CHUNK_MASK);
                    self.solid.fill_row(c, ly, lz, bits, voxel == Voxel::Solid);
                    self.water.fill_row(c, ly, lz, bits, voxel == Voxel::Water);
                    self.edits[c] = self.revision;
                    x = end + 1;
                }
            }
        }
        let n = hi - lo + 1;
        n.x as usize * n.y as usize * n.z as usize
    }

    /// Fills the world-space box `min..max`. Returns how many voxels it set.
    ///
    /// Solids round outward, carving rounds inward, so that a carved gap is never wider than
    /// asked: [`Voxel::Solid`] sets every voxel whose cell the box enters at all (a flat or point
    /// box still sets the voxels it lies in); [`Voxel::Air`] and [`Voxel::Water`] set only the
    /// voxels whose cell lies wholly inside the box (none for a box thinner than a voxel).
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] if a coordinate is NaN or infinite, [`WorldError::MemoryLimit`]
    /// as for [`fill_voxels`](Self::fill_voxels); nothing changes.
    pub fn fill_box(&mut self, min: Vec3, max: Vec3, voxel: Voxel) -> Result<usize, WorldError> {
        if !(min.is_finite() && max.is_finite()) {
            return Err(WorldError::NonFinite);
        }
        let (lo, hi) = (min.min(max), min.max(max));
        let (lo, hi) = ((lo - self.origin) / self.voxel_size, (hi - self.origin) / self.voxel_size);
        let (a, b) = if voxel == Voxel::Solid {
            let a = lo.floor();
            (a, (hi.ceil() - 1.0).max(a))
        } else {
            (lo.ceil(), hi.floor() - 1.0)
        };
        if a.cmpgt(b).any() {
            return Ok(0);
        }
        let (a, b) = (self.clamp_voxel(a), self.clamp_voxel(b));
        self.fill_voxels(a, b, voxel)
    }

    /// Fills the ball of `radius` around `center`. Returns how many voxels it set.
    ///
    /// As for [`fill_box`](Self::fill_box), solids round outward and carving inward:
    /// [`Voxel::Solid`] sets every voxel whose cell the ball overlaps (distance from the centre
    /// to the cell below `radius`); [`Voxel::Air`] and [`Voxel::Water`] set only the voxels
    /// whose cell lies wholly inside the ball.
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] if the centre or radius is not finite, or the radius is
    /// negative; nothing changes.
    pub fn fill_sphere(&mut self, center: Vec3, radius: f32, voxel: Voxel) -> Result<usize, WorldError> {
        if !(center.is_finite() && radius.is_finite() && radius >= 0.0) {
            return Err(WorldError::NonFinite);
        }
        let c = (center - self.origin) / self.voxel_size;
        let r = radius / self.voxel_size;
        let lo = self.clamp_voxel((c - r).floor());
        let hi = self.clamp_voxel((c + r).ceil() - 1.0);
        self.reserve_for(lo, hi, voxel)?;
        // Squared distance from the centre to the cell [i, i + 1] along one axis.
        let gap = |i: i32, c: f32| (i as f32 - c).max(c - (i as f32 + 1.0)).max(0.0).powi(2);
        let mut count = 0;
        for z in lo.z..=hi.z {
            for y in lo.y..=hi.y {
                // The exact rule, per cell: solids take a cell whose closest point is within the
                // radius; carving takes a cell whose farthest corner is.
                let inside = |x: i32| {
                    let cell = IVec3::new(x, y, z).as_vec3();
                    if voxel == Voxel::Solid {
                        c.clamp(cell, cell + 1.0).distance_squared(c) < r * r
                    } else {
                        let far = Vec3::select(c.cmplt(cell + 0.5), cell + 1.0, cell);
                        far.distance_squared(c) <= r * r
                    }
                };
                // The cells inside form one run; estimate its ends (c.x - s - 1 < x < c.x + s),
                // then settle them with the exact rule.
                let s = (r * r - gap(y, c.y) - gap(z, c.z)).max(0.0).sqrt();
                let mut x0 = ((c.x - s - 1.0).floor() as i32).max(lo.x);
                let mut x1 = ((c.x + s).ceil() as i32).min(hi.x);
                while x0 <= x1 && !inside(x0) {
                    x0 += 1;
                }
                while x1 >= x0 && !inside(x1) {
                    x1 -= 1;
                }
                if x0 <= x1 {
                    count += self.fill_reserved(IVec3::new(x0, y, z), IVec3::new(x1, y, z), voxel);
                }
            }
        }
        Ok(count)
    }

    /// Clamps a voxel coordinate given as floats into `-1..=dims` (so far-off shapes clip).
    fn clamp_voxel(&self, v: Vec3) -> IVec3 {
        v.clamp(Vec3::splat(-1.0), self.dims.as_vec3()).as_ivec3()
    }

    /// Bytes of heap the world holds (its sparse occupancy and water layers, and 8 bytes per
    /// 16^3 chunk for the revision of its last edit).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.solid.heap_bytes() + self.water.heap_bytes() + self.edits.capacity() * 8
    }

    /// Whether any chunk that the voxel box `min..=max` (inside the world) touches was edited
    /// after `revision`. A box of up to 2 voxels a side touches at most 8 chunks.
    pub(crate) fn edited_since(&self, min: IVec3, max: IVec3, revision: u64) -> bool {
        let (lo, hi) = (min >> CHUNK_SHIFT, max >> CHUNK_SHIFT);
        (lo.z..=hi.z).any(|z| {
            (lo.y..=hi.y).any(|y| (lo.x..=hi.x).any(|x| self.edits[self.chunk(IVec3::new(x, y, z))] > revision))
        })
    }

    /// This world object's identity (see the `lineage` field).
    pub(crate) fn lineage(&self) -> u64 {
        self.lineage
    }

    /// Whether this world's per-chunk edit stamps tell every change since the state `revision`
    /// of the world object `lineage`: it is that object, or a clone of it made at or after that
    /// revision (a clone inherits the stamps; edits made to the original after the cloning are
    /// not this world's, hence the bound).
    pub(crate) fn knows_changes_since(&self, lineage: u64, revision: u64) -> bool {
        lineage == self.lineage || self.forked_from.is_some_and(|(l, r)| l == lineage && revision <= r)
    }

    /// The revision of chunk `index`'s last edit (0: none since the world was made).
    pub(crate) fn chunk_edited(&self, index: usize) -> u64 {
        self.edits[index]
    }

    /// Whether any voxel is water now (a fast path for dry worlds).
    #[must_use]
    pub fn has_water(&self) -> bool {
        !self.water.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_are_unique() {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(21, 3, 3)).unwrap();
        w.set(IVec3::new(3, 1, 1), Voxel::Solid).unwrap();
        w.set(IVec3::new(17, 1, 1), Voxel::Water).unwrap();
        let other = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(21, 3, 3)).unwrap();
        assert_ne!(w.revision(), other.revision());
        let (before, copy) = (w.revision(), w.clone());
        assert_eq!(copy.revision(), before);
        w.set(IVec3::ZERO, Voxel::Solid).unwrap();
        assert!(w.revision() != before && w.revision() != other.revision());
    }

    #[test]
    fn solids_round_outward_carving_inward_and_fills_clip() {
        let mut w = VoxelWorld::new(Vec3::splat(-8.0), 0.5, UVec3::splat(32)).unwrap();
        assert_eq!(w.fill_box(Vec3::ZERO, Vec3::ONE, Voxel::Solid).unwrap(), 8);
        // Carving (air, water) rounds inward: a box inside one voxel sets none, a box of one
        // whole voxel sets it.
        assert_eq!(w.fill_box(Vec3::splat(0.1), Vec3::splat(0.2), Voxel::Water).unwrap(), 0);
        assert_eq!(w.fill_box(Vec3::ZERO, Vec3::splat(0.5), Voxel::Water).unwrap(), 1);
        assert_eq!(w.get(w.voxel_at(Vec3::splat(0.15))), Voxel::Water);
        assert_eq!(w.fill_box(Vec3::splat(100.0), Vec3::splat(200.0), Voxel::Solid).unwrap(), 0);
        assert_eq!(w.fill_box(Vec3::splat(7.0), Vec3::splat(200.0), Voxel::Solid).unwrap(), 8);
        assert!(w.fill_box(Vec3::NAN, Vec3::ONE, Voxel::Solid).is_err());
        // Centred on a voxel centre, radius 0.8 voxel: the 3x3x3 block but its 8 corners
        // (0.866 voxel away).
        let n = w.fill_sphere(Vec3::splat(-3.75), 0.4, Voxel::Solid).unwrap();
        assert_eq!(n, 27 - 8);
        // A sphere far larger than the world fills it, row by row, without visiting voxels.
        let mut big = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(700, 500, 600)).unwrap();
        assert_eq!(big.fill_sphere(Vec3::ZERO, 1e30, Voxel::Solid).unwrap(), 700 * 500 * 600);
        assert!(w.set(IVec3::splat(32), Voxel::Solid).is_err());
        assert_eq!(w.get(IVec3::new(-1, 0, 0)), Voxel::Solid);
    }

    #[test]
    fn rejects_bad_worlds() {
        assert!(VoxelWorld::new(Vec3::ZERO, 0.0, UVec3::ONE).is_err());
        assert!(VoxelWorld::new(Vec3::ZERO, f32::NAN, UVec3::ONE).is_err());
        assert!(VoxelWorld::new(Vec3::NAN, 1.0, UVec3::ONE).is_err());
        assert!(VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(0, 1, 1)).is_err());
        assert!(VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(1 << 20)).is_err());
    }
}
