//! [`Pass`]: how one query sees the world's voxels (the media it may enter and its clearance
//! radius), and the world's reads through it: [`passable`](VoxelWorld::passable), the 3x3x3
//! [`blocked_mask`](VoxelWorld::blocked_mask) the searches expand with, 16-voxel
//! [`blocked_row16`](VoxelWorld::blocked_row16) rows for the scans, and the chunk-table tests
//! [`chunk_free`](VoxelWorld::chunk_free) and
//! [`chunks_around_free`](VoxelWorld::chunks_around_free).
//!
//! Radius 0 reads the world's layers alone; a larger radius adds the dilated solid rows of
//! [`clearance`](super::clearance).

use glam::IVec3;

use super::clearance::MAX_CLEARANCE;
use super::layer::{CHUNK, CHUNK_MASK, CHUNK_SHIFT};
use super::moves::bit;
use super::world::VoxelWorld;
use crate::medium::{Media, Voxel};

/// How one query sees voxels: which free media it treats as blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pass {
    water_blocked: bool,
    air_blocked: bool,
    /// Clearance radius in voxels (see [`clearance`](super::clearance)).
    radius: u8,
}

impl Pass {
    /// Radius 0: a voxel is passable when its medium is allowed.
    pub(crate) fn new(media: &Media) -> Self {
        Self { water_blocked: media.water.is_none(), air_blocked: media.air.is_none(), radius: 0 }
    }

    /// The same media, for an agent of clearance radius `radius` (at most `MAX_CLEARANCE`).
    pub(crate) fn with_radius(self, radius: u8) -> Self {
        Self { radius: radius.min(MAX_CLEARANCE), ..self }
    }

    /// The clearance radius in voxels.
    pub(crate) fn radius(self) -> u8 {
        self.radius
    }

    /// The same media at radius 0.
    pub(crate) fn media_only(self) -> Self {
        Self { radius: 0, ..self }
    }
}

/// Neighbourhood bits with the given offset on one axis, for the out-of-bounds masks.
const fn face_mask(axis: usize, side: i32) -> u32 {
    let mut m = 0;
    let mut a = -1;
    while a <= 1 {
        let mut b = -1;
        while b <= 1 {
            m |= 1
                << match axis {
                    0 => bit(side, a, b),
                    1 => bit(a, side, b),
                    _ => bit(a, b, side),
                };
            b += 1;
        }
        a += 1;
    }
    m
}
const OUTSIDE: [[u32; 2]; 3] =
    [[face_mask(0, -1), face_mask(0, 1)], [face_mask(1, -1), face_mask(1, 1)], [face_mask(2, -1), face_mask(2, 1)]];

/// The 9 bits of one plane of a neighbourhood mask from its three rows packed 16 bits apart
/// in `w`, each row's bit at `x - 1` at its bit 0 (see `moves` for the order).
#[inline(always)]
fn pack_plane(w: u64) -> u32 {
    let t = w & 0x0007_0007_0007;
    (t | t >> 13 | t >> 26) as u32 & 0x1FF
}

/// The 27 bits (see `moves`) about local `l`, inside its chunk, from the chunk's 256 rows
/// `rows`: rows `(ly + dy, lz + dz)` lie `16 (dz + 1) + dy + 1` from the first, and their bits
/// go to `bit(-1, dy, dz) = 9 (dz + 1) + 3 (dy + 1)`.
#[inline(always)]
fn interior_rows_mask(rows: &[u16], l: IVec3) -> u32 {
    let centre = ((l.z << CHUNK_SHIFT) | l.y) as usize;
    let rows = &rows[centre - 17..centre + 18];
    // Each plane's three rows are consecutive: read as four rows from the first (the last
    // plane's from the one before, to stay in the chunk) in one u64, then the 3 bits about `x`
    // of each row (bits 16 apart) packed into the plane's 9.
    let four = |at: usize| {
        u64::from(rows[at])
            | u64::from(rows[at + 1]) << 16
            | u64::from(rows[at + 2]) << 32
            | u64::from(rows[at + 3]) << 48
    };
    let shift = l.x - 1;
    pack_plane(four(0) >> shift) | pack_plane(four(16) >> shift) << 9 | pack_plane(four(31) >> (shift + 16)) << 18
}

/// The axes (bit `a` for axis `a`) along which local chunk coordinates `l` lie on a face of
/// their chunk (0 or 15).
#[inline(always)]
fn chunk_faces(l: IVec3) -> u32 {
    let face = |a: usize| u32::from((l[a] + 1) & CHUNK_MASK < 2) << a;
    face(0) | face(1) | face(2)
}

impl VoxelWorld {
    /// Whether `v` is inside the world and of a medium `pass` allows.
    #[inline]
    pub(crate) fn passable(&self, v: IVec3, pass: Pass) -> bool {
        let medium = match self.get(v) {
            Voxel::Solid => false,
            Voxel::Water => !pass.water_blocked,
            Voxel::Air => !pass.air_blocked,
        };
        medium && (pass.radius == 0 || !self.near_solid(v, i32::from(pass.radius)))
    }

    /// Bits of the 16-voxel row `x = 16 cx ..= 16 cx + 15` at `(y, z)` that are blocked for
    /// `pass` (bit `i` for `x = 16 cx + i`); voxels past the world's x extent read as blocked.
    /// `cx`, `y` and `z` must lie inside the world.
    #[inline]
    pub(crate) fn blocked_row16(&self, cx: i32, y: i32, z: i32, pass: Pass) -> u16 {
        let c = self.chunk_index(IVec3::new(cx, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT));
        let (ly, lz) = (y & CHUNK_MASK, z & CHUNK_MASK);
        let s = self.solid_layer().row(c, ly, lz);
        let w = if (pass.water_blocked || pass.air_blocked) && !self.water_layer().is_empty() {
            self.water_layer().row(c, ly, lz)
        } else {
            0
        };
        let mut bits = s | if pass.water_blocked { w } else { 0 } | if pass.air_blocked { !w & 0xFFFF } else { 0 };
        let past = self.dims().as_ivec3().x - (cx << CHUNK_SHIFT);
        if past < CHUNK {
            bits |= 0xFFFF << past;
        }
        if pass.radius > 0 {
            let mut near = [0u32; 1];
            self.near_solid_rows(
                IVec3::new(cx << CHUNK_SHIFT, y, z),
                IVec3::new(CHUNK, 1, 1),
                i32::from(pass.radius),
                &mut near,
            );
            bits |= near[0];
        }
        bits as u16
    }

    /// The x-rows of chunk `cc` with a one-voxel halo, blocked for `pass`'s media (its radius
    /// is ignored): `out[(lz + 1) * 18 + ly + 1]` for local `ly, lz` in `-1..=16` has bit
    /// `lx + 1` set when voxel `(lx, ly, lz)` of the chunk (`lx` in `-1..=16`) is blocked or
    /// outside the world. What [`blocked_row16`](Self::blocked_row16) gives row by row, with
    /// the chunk lookups done once per chunk of the halo instead of once per row.
    pub(crate) fn blocked_halo_rows(&self, cc: IVec3, pass: Pass, out: &mut [u32; 18 * 18]) {
        const HALO: usize = CHUNK as usize + 2;
        type Rows<'a> = &'a [u16; 256];
        let (dims, chunk_dims) = (self.dims().as_ivec3(), self.chunk_dims());
        // Blocked: solid, water if water is blocked, air (not water) if air is blocked.
        let water_mask = if pass.water_blocked { 0xFFFF } else { 0 };
        let air_mask = if pass.air_blocked { 0xFFFF } else { 0 };
        let rows = |chunk: usize| -> (Rows<'_>, Rows<'_>) {
            let s = self.solid_layer().rows_of(chunk).try_into().expect("a chunk has 256 rows");
            let w = self.water_layer().rows_of(chunk).try_into().expect("a chunk has 256 rows");
            (s, w)
        };
        let blocked = |(s, w): (Rows<'_>, Rows<'_>), row: usize| -> u32 {
            let (s, w) = (u32::from(s[row & 255]), u32::from(w[row & 255]));
            s | w & water_mask | !w & air_mask
        };
        // Voxels past the world's x extent in the chunk itself (those of the next chunk are
        // read only when it is inside).
        let past = dims.x - (cc.x << CHUNK_SHIFT);
        let pad = if past < CHUNK { (0xFFFF_u32 << past) & 0xFFFF } else { 0 };
        let (has_left, has_right) = (cc.x > 0, (cc.x + 1) << CHUNK_SHIFT < dims.x);
        for (i, dz) in (-1..=1).enumerate() {
            let cz = cc.z + dz;
            // Local z range of this chunk inside the halo.
            let (z0, z1) = [(CHUNK - 1, CHUNK - 1), (0, CHUNK - 1), (0, 0)][i];
            for (j, dy) in (-1..=1).enumerate() {
                let cy = cc.y + dy;
                let (y0, y1) = [(CHUNK - 1, CHUNK - 1), (0, CHUNK - 1), (0, 0)][j];
                let outside = cz < 0 || cy < 0 || cz >= chunk_dims.z || cy >= chunk_dims.y;
                let chunk = |cx: i32| self.chunk_index(IVec3::new(cx, cy, cz));
                let (mid, left, right) = if outside {
                    (rows(0), rows(0), rows(0))
                } else {
                    let side = |has: bool, cx: i32| rows(if has { chunk(cx) } else { 0 });
                    (rows(chunk(cc.x)), side(has_left, cc.x - 1), side(has_right, cc.x + 1))
                };
                for lz in z0..=z1 {
                    let hz = (lz + (dz << CHUNK_SHIFT) + 1) as usize;
                    let z = (cz << CHUNK_SHIFT) + lz;
                    for ly in y0..=y1 {
                        let (hy, row) = ((ly + (dy << CHUNK_SHIFT) + 1) as usize, ((lz << CHUNK_SHIFT) | ly) as usize);
                        let y = (cy << CHUNK_SHIFT) + ly;
                        out[hz * HALO + hy] = if outside || y >= dims.y || z >= dims.z {
                            (1 << HALO) - 1
                        } else {
                            let l = if has_left { blocked(left, row) >> 15 & 1 } else { 1 };
                            let r = if has_right { blocked(right, row) & 1 } else { 1 };
                            l | (blocked(mid, row) | pad) << 1 | r << (CHUNK + 1)
                        };
                    }
                }
            }
        }
    }

    /// Whether chunk `cc` lies wholly inside the world and has no voxel that is blocked for
    /// `pass` (a test on the chunk table: `false` may still be all free).
    #[inline]
    pub(crate) fn chunk_free(&self, cc: IVec3, pass: Pass) -> bool {
        if pass.radius > 0 {
            // Radii reach at most into the neighbouring chunks.
            return !pass.air_blocked
                && self.box_chunks_solid_free((cc - 1) << CHUNK_SHIFT, ((cc + 2) << CHUNK_SHIFT) - 1)
                && self.chunk_free(cc, pass.media_only());
        }
        if pass.air_blocked || ((cc + 1) << CHUNK_SHIFT).cmpgt(self.dims().as_ivec3()).any() {
            return false;
        }
        let c = self.chunk_index(cc);
        self.solid_layer().chunk_is_empty(c) && (!pass.water_blocked || self.water_layer().chunk_is_empty(c))
    }

    /// Whether every voxel of the 3 x 3 x 3 chunks around chunk `cc` is inside the world and
    /// free for `pass` (a cheap, conservative test on the chunk table: `false` may still be
    /// all free).
    #[inline]
    pub(crate) fn chunks_around_free(&self, cc: IVec3, pass: Pass) -> bool {
        if pass.radius > 0 {
            return self.box_chunks_solid_free((cc - 2) << CHUNK_SHIFT, ((cc + 3) << CHUNK_SHIFT) - 1)
                && self.chunks_around_free(cc, pass.media_only());
        }
        if pass.air_blocked || cc.cmplt(IVec3::ONE).any() || (cc + 2).cmpgt(self.dims().as_ivec3() >> CHUNK_SHIFT).any()
        {
            return false;
        }
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let c = self.chunk_index(cc + IVec3::new(dx, dy, dz));
                    if !self.solid_layer().chunk_is_empty(c)
                        || (pass.water_blocked && !self.water_layer().chunk_is_empty(c))
                    {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The bits of the 3x3x3 neighbourhood of `v` that lie outside the world (`last`: its
    /// largest voxel).
    #[inline]
    fn outside_mask(&self, v: IVec3, last: IVec3) -> u32 {
        let mut mask = 0;
        if !(v.cmpgt(IVec3::ZERO).all() && v.cmplt(last).all()) {
            for axis in 0..3 {
                mask |= if v[axis] == 0 { OUTSIDE[axis][0] } else { 0 };
                mask |= if v[axis] == last[axis] { OUTSIDE[axis][1] } else { 0 };
            }
        }
        mask
    }

    /// Whether only solid voxels block `pass` in this world (radius 0, air allowed, water
    /// allowed or absent): [`blocked_mask`](Self::blocked_mask) is then the solid layer's
    /// rows alone. A search decides it once and passes it to [`mask_of`](Self::mask_of).
    #[inline]
    pub(crate) fn solid_only(&self, pass: Pass) -> bool {
        pass.radius == 0 && !pass.air_blocked && (!pass.water_blocked || self.water_layer().is_empty())
    }

    /// [`blocked_mask`](Self::blocked_mask), `solid_only` being
    /// [`solid_only`](Self::solid_only)`(pass)`: a search's loop reads the common case, a voxel
    /// inside its chunk where only solid voxels block, without a call.
    #[inline(always)]
    pub(crate) fn mask_of(&self, v: IVec3, pass: Pass, solid_only: bool) -> u32 {
        if solid_only { self.solid_mask(v) } else { self.blocked_mask(v, pass) }
    }

    /// [`blocked_mask`](Self::blocked_mask) where only solid voxels block
    /// ([`solid_only`](Self::solid_only)): the solid layer's rows alone.
    #[inline(always)]
    fn solid_mask(&self, v: IVec3) -> u32 {
        let l = v & CHUNK_MASK;
        // Inside its chunk (so its 26 neighbours too) and not on the world's last voxels, whose
        // neighbours past the world may lie in its chunk (`v - 1` wraps to a large unsigned
        // value at 0, which the chunk test already excludes).
        let last = self.dims().as_ivec3() - 1;
        let inner = |a: usize| ((v[a] - 1) as u32) < (last[a] - 1) as u32;
        // One branch for all the tests (a voxel on a chunk's border follows no pattern).
        if (chunk_faces(l) != 0) | !(inner(0) & inner(1) & inner(2)) {
            return self.solid_border_mask(v);
        }
        let solid = self.solid_layer();
        let home = self.chunk_index(v >> CHUNK_SHIFT);
        // All 9 rows lie in v's chunk.
        if solid.chunk_is_empty(home) {
            return 0;
        }
        interior_rows_mask(solid.rows_of(home), l)
    }

    /// [`solid_mask`](Self::solid_mask) of a voxel on a face, edge or corner of its chunk, or
    /// beside the world's last voxels.
    #[inline(never)]
    fn solid_border_mask(&self, v: IVec3) -> u32 {
        let last = self.dims().as_ivec3() - 1;
        let mut mask = self.outside_mask(v, last);
        let solid = self.solid_layer();
        let (c, l) = (v >> CHUNK_SHIFT, v & CHUNK_MASK);
        let home = self.chunk_index(c);
        let on = chunk_faces(l);
        if on == 0 {
            // Inside its chunk, beside the world's last voxels (which lie in this chunk): its
            // rows as inside, the voxels past the world outside.
            if solid.chunk_is_empty(home) {
                return mask;
            }
            return mask | interior_rows_mask(solid.rows_of(home), l);
        }
        // On one chunk face (the common case across borders): the rows of two chunks.
        if on.count_ones() == 1 {
            return mask | self.solid_face_mask(c, l, home, on.trailing_zeros() as usize);
        }
        // Across a chunk edge or corner: the neighbourhood reaches at most one chunk further along
        // each axis (`step`: -1, 0 or 1), so its rows lie in the home chunk and the chunks
        // `step` away along y, z or both, and each row's x-neighbour bit in the chunk `step.x`
        // away: at most 8 chunks, whose slots are looked up once, with no branch on which
        // borders `v` is on. Where the next chunk would lie outside the chunk grid, `step` is 0
        // and the home chunk stands in: the bits read there are of voxels outside the world,
        // which `mask` already has. Each row is read as the 48 bits of three consecutive chunk
        // rows, home in the middle (with `step.x` 0 the neighbour is the home chunk itself,
        // whose bits merge into the home row's).
        let cd = self.chunk_dims();
        let step = IVec3::select(l.cmpeq(IVec3::ZERO) & c.cmpgt(IVec3::ZERO), IVec3::NEG_ONE, IVec3::ZERO)
            + IVec3::select(l.cmpeq(IVec3::splat(CHUNK_MASK)) & (c + 1).cmplt(cd), IVec3::ONE, IVec3::ZERO);
        let (step_y, step_z) = (cd.x as isize, cd.x as isize * cd.y as isize);
        let (slots, table) = solid.slot_table();
        let slot = |dx: i32, dy: i32, dz: i32| {
            slots[home.wrapping_add_signed(dx as isize + dy as isize * step_y + dz as isize * step_z)] as usize
        };
        // `[home, x-neighbour]` slots of each chunk along y and z, `[y crossed][z crossed]`.
        let chunks = [
            [[slot(0, 0, 0), slot(step.x, 0, 0)], [slot(0, 0, step.z), slot(step.x, 0, step.z)]],
            [[slot(0, step.y, 0), slot(step.x, step.y, 0)], [slot(0, step.y, step.z), slot(step.x, step.y, step.z)]],
        ];
        if chunks.as_flattened().as_flattened().iter().all(|&s| s == 0) {
            // All empty (the shared slot 0), as in open space: nothing to read.
            return mask;
        }
        let rows = |[home, x]: [usize; 2]| [&table[home], &table[x]];
        let chunks = [[rows(chunks[0][0]), rows(chunks[0][1])], [rows(chunks[1][0]), rows(chunks[1][1])]];
        let (x_shift, lx_shift) = (CHUNK + CHUNK * step.x, CHUNK - 1 + l.x);
        for dz in -1..=1 {
            let z = l.z + dz;
            for dy in -1..=1 {
                let y = l.y + dy;
                let [home_rows, x_rows] = chunks[(y >> CHUNK_SHIFT & 1) as usize][(z >> CHUNK_SHIFT & 1) as usize];
                let at = (((z & CHUNK_MASK) << CHUNK_SHIFT) | (y & CHUNK_MASK)) as usize;
                let row = u64::from(home_rows[at]) << CHUNK | u64::from(x_rows[at]) << x_shift;
                mask |= ((row >> lx_shift) as u32 & 7) << bit(-1, dy, dz);
            }
        }
        mask
    }

    /// [`solid_mask`](Self::solid_mask)'s rows (without the bits outside the world) for a
    /// voxel at local `l` of chunk `c` (index `home`) on exactly one face of its chunk, across
    /// `axis` (see [`face_rows_mask`](Self::face_rows_mask)).
    #[inline]
    fn solid_face_mask(&self, c: IVec3, l: IVec3, home: usize, axis: usize) -> u32 {
        let other = self.across_face(c, l, home, axis);
        let (slots, table) = self.solid_layer().slot_table();
        let (home_slot, other_slot) = (slots[home] as usize, slots[other] as usize);
        if home_slot == 0 && other_slot == 0 {
            // Both empty (the shared slot 0), as in open space.
            return 0;
        }
        let (h, o) = (&table[home_slot], &table[other_slot]);
        Self::face_rows_mask(l, axis, |home, i| u64::from(if home { h[i] } else { o[i] }))
    }

    /// The chunk across the face of chunk `c` (index `home`) that local `l` lies on along
    /// `axis`; `home` itself where there is none (the bits read there then lie outside the
    /// world, which the masks' callers already have).
    #[inline]
    fn across_face(&self, c: IVec3, l: IVec3, home: usize, axis: usize) -> usize {
        let mut next = c;
        next[axis] += if l[axis] == 0 { -1 } else { 1 };
        if next[axis] >= 0 && next[axis] < self.chunk_dims()[axis] { self.chunk_index(next) } else { home }
    }

    /// The 27 bits of the neighbourhood of a voxel at local `l` on exactly one face of its
    /// chunk, across `axis`, its rows read by `row(home, i)`: row `i = (lz << 4) | ly` of the
    /// home chunk or of the one across the face, blocked bits set. Each plane's three rows are
    /// packed 16 bits apart and the 3 bits about `x` of each taken at once, as in the interior;
    /// across x, each row's outer bit comes from the other chunk's same row.
    #[inline(always)]
    fn face_rows_mask(l: IVec3, axis: usize, row: impl Fn(bool, usize) -> u64) -> u32 {
        let out = if l[axis] == 0 { -1 } else { 1 };
        let three = |home: bool, at: usize| row(home, at - 1) | row(home, at) << 16 | row(home, at + 1) << 32;
        let at = |ly: i32, lz: i32| ((lz << CHUNK_SHIFT) | ly) as usize;
        let mut mask = 0;
        for (k, dz) in (-1..=1).enumerate() {
            let lz = l.z + dz;
            let w = match axis {
                // Across x: each row's bit at `x - 1` (lx 0) or `x + 1` (lx 15) is the other
                // chunk's, in the same row.
                0 => {
                    let (wh, wo) = (three(true, at(l.y, lz)), three(false, at(l.y, lz)));
                    if out < 0 {
                        (wh << 1 & 0x0006_0006_0006) | (wo >> 15 & 0x0001_0001_0001)
                    } else {
                        (wh >> 14 & 0x0003_0003_0003) | (wo << 2 & 0x0004_0004_0004)
                    }
                }
                // Across y: the row at `y - 1` (ly 0) or `y + 1` (ly 15) is the other chunk's.
                1 => {
                    let rows = if out < 0 {
                        [row(false, at(CHUNK_MASK, lz)), row(true, at(0, lz)), row(true, at(1, lz))]
                    } else {
                        [row(true, at(CHUNK_MASK - 1, lz)), row(true, at(CHUNK_MASK, lz)), row(false, at(0, lz))]
                    };
                    (rows[0] | rows[1] << 16 | rows[2] << 32) >> (l.x - 1)
                }
                // Across z: one of the planes is the other chunk's.
                _ => {
                    let (home, lz) = match lz {
                        -1 => (false, CHUNK_MASK),
                        CHUNK => (false, 0),
                        _ => (true, lz),
                    };
                    three(home, at(l.y, lz)) >> (l.x - 1)
                }
            };
            mask |= pack_plane(w) << (9 * k);
        }
        mask
    }

    /// [`blocked_mask`](Self::blocked_mask) where water or air block, for a voxel at local
    /// `l` of chunk `c` (index `home`) inside its chunk (`on` 0) or on one face of it (`on`
    /// the bit of that axis): each row is the solid row, the water row where water blocks and
    /// its complement where air blocks, read plane by plane as the solid rows are.
    #[inline]
    fn media_rows_mask(&self, c: IVec3, l: IVec3, home: usize, on: u32, pass: Pass) -> u32 {
        let ((solid_slots, solid), (water_slots, water)) =
            (self.solid_layer().slot_table(), self.water_layer().slot_table());
        let rows = |chunk: usize| (&solid[solid_slots[chunk] as usize], &water[water_slots[chunk] as usize]);
        let (wmask, amask) = (if pass.water_blocked { 0xFFFF } else { 0 }, if pass.air_blocked { 0xFFFF } else { 0 });
        let combined = |(s, w): (&[u16; (CHUNK * CHUNK) as usize], &[u16; (CHUNK * CHUNK) as usize]), i: usize| {
            u64::from(s[i] | (w[i] & wmask) | (!w[i] & amask))
        };
        let h = rows(home);
        if on == 0 {
            // All 9 rows lie in the home chunk.
            let mut mask = 0;
            for (k, dz) in (-1..=1).enumerate() {
                let at = (((l.z + dz) << CHUNK_SHIFT) | l.y) as usize;
                let w = combined(h, at - 1) | combined(h, at) << 16 | combined(h, at + 1) << 32;
                mask |= pack_plane(w >> (l.x - 1)) << (9 * k);
            }
            return mask;
        }
        let axis = on.trailing_zeros() as usize;
        let o = rows(self.across_face(c, l, home, axis));
        Self::face_rows_mask(l, axis, |home, i| combined(if home { h } else { o }, i))
    }

    /// [`blocked_mask`](Self::blocked_mask) for an agent with clearance: the solid voxels
    /// dilated by its radius, which cover the solid (and the outside) themselves, and the
    /// voxels of media it may not enter. Apart, so that the mask of radius 0 stays small.
    #[inline(never)]
    fn clearance_mask(&self, v: IVec3, pass: Pass) -> u32 {
        let near = self.near_solid_mask(v, i32::from(pass.radius));
        if pass.air_blocked || pass.water_blocked { near | self.blocked_mask(v, pass.media_only()) } else { near }
    }

    /// The 3x3x3 mask (see `moves`) of water voxels around `v` (inside the world).
    #[inline]
    pub(crate) fn water_mask(&self, v: IVec3) -> u32 {
        self.water_mask_beside(v, Pass::new(&Media::WATER), 0)
    }

    /// [`water_mask`](Self::water_mask), given `v`'s [`blocked_mask`](Self::blocked_mask) for
    /// `pass`: where `pass` lets both media in at radius 0, that mask is the one of voxels
    /// water does not block, and is not read again.
    #[inline]
    pub(crate) fn water_mask_beside(&self, v: IVec3, pass: Pass, blocked: u32) -> u32 {
        if self.water_layer().is_empty() {
            return 0;
        }
        let (c, l) = (v >> CHUNK_SHIFT, v & CHUNK_MASK);
        if chunk_faces(l) == 0 && self.water_layer().chunk_is_empty(self.chunk_index(c)) {
            return 0;
        }
        // Water blocks the first pass and not the second; every other voxel blocks both or
        // neither.
        let air = Pass { water_blocked: true, air_blocked: false, radius: 0 };
        let any = Pass { water_blocked: false, air_blocked: false, radius: 0 };
        let rest = if pass == any { blocked } else { self.blocked_mask(v, any) };
        self.blocked_mask(v, air) ^ rest
    }

    /// The 3x3x3 mask (see `moves`) of voxels around `v` that are blocked for `pass`.
    /// `v` must be inside the world.
    #[inline]
    pub(crate) fn blocked_mask(&self, v: IVec3, pass: Pass) -> u32 {
        // Where only solid voxels block (the usual case): the solid layer's rows alone.
        if self.solid_only(pass) {
            return self.solid_mask(v);
        }
        if pass.radius > 0 {
            return self.clearance_mask(v, pass);
        }
        let read_water = (pass.water_blocked || pass.air_blocked) && !self.water_layer().is_empty();
        let last = self.dims().as_ivec3() - 1;
        let mut mask = self.outside_mask(v, last);
        let (c, l) = (v >> CHUNK_SHIFT, v & CHUNK_MASK);
        let on = chunk_faces(l);
        if on.count_ones() <= 1 {
            // Inside its chunk or on one face: the rows of one or two chunks, plane by plane.
            return mask | self.media_rows_mask(c, l, self.chunk_index(c), on, pass);
        }
        let (wmask, amask) = (if pass.water_blocked { 0xFFFF } else { 0 }, if pass.air_blocked { 0xFFFF } else { 0 });
        let cx = v.x >> CHUNK_SHIFT;
        let lx = v.x & CHUNK_MASK;
        let row = |chunk: usize, ly: i32, lz: i32| -> u32 {
            let s = self.solid_layer().row(chunk, ly, lz);
            let w = if read_water { self.water_layer().row(chunk, ly, lz) } else { 0 };
            s | (w & wmask) | (!w & amask)
        };
        // Across a chunk edge or corner: row by row.
        for dz in -1..=1 {
            let z = v.z + dz;
            if z < 0 || z > last.z {
                continue;
            }
            for dy in -1..=1 {
                let y = v.y + dy;
                if y < 0 || y > last.y {
                    continue;
                }
                let (ly, lz) = (y & CHUNK_MASK, z & CHUNK_MASK);
                let c = self.chunk_index(IVec3::new(cx, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT));
                let r = row(c, ly, lz);
                let bits = if lx != 0 && lx != CHUNK_MASK {
                    (r >> (lx - 1)) & 7
                } else if lx == 0 {
                    let left = if cx > 0 { row(c - 1, ly, lz) >> CHUNK_MASK & 1 } else { 0 };
                    left | (r & 3) << 1
                } else {
                    let right = if cx + 1 < self.chunk_dims().x { row(c + 1, ly, lz) & 1 } else { 0 };
                    (r >> (CHUNK - 2)) & 3 | right << 2
                };
                mask |= bits << bit(-1, dy, dz);
            }
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::moves::OFFSETS;
    use glam::{UVec3, Vec3};

    fn naive_mask(w: &VoxelWorld, v: IVec3, pass: Pass) -> u32 {
        let mut m = 0;
        for d in OFFSETS {
            if !w.passable(v + d, pass) {
                m |= 1 << bit(d.x, d.y, d.z);
            }
        }
        m
    }

    /// Dense worlds, and sparse ones whose voxels are set in one chunk alone (its neighbours
    /// stay empty, unallocated).
    #[test]
    fn blocked_mask_matches_voxel_reads_across_chunk_borders() {
        for sparse in [false, true] {
            let in_one_chunk = |v: IVec3| !sparse || v >> CHUNK_SHIFT == IVec3::new(1, 0, 1);
            let w = crate::grid::seeded::Rng(12345).media_world(UVec3::new(35, 18, 20), (3, 4), in_one_chunk);
            check_blocked_masks(&w);
        }
    }

    fn check_blocked_masks(w: &VoxelWorld) {
        let dims = w.dims().as_ivec3();
        for z in 0..dims.z {
            for y in 0..dims.y {
                for x in 0..dims.x {
                    let v = IVec3::new(x, y, z);
                    let mut water = 0;
                    for o in OFFSETS.iter().copied().chain([IVec3::ZERO]) {
                        if w.contains(v + o) && w.get(v + o) == Voxel::Water {
                            water |= 1 << bit(o.x, o.y, o.z);
                        }
                    }
                    assert_eq!(w.water_mask(v), water, "{v}");
                    let any = Pass::new(&Media::ANY);
                    assert_eq!(w.water_mask_beside(v, any, w.blocked_mask(v, any)), water, "{v}");
                }
            }
        }
        for media in [Media::ANY, Media::AIR, Media::WATER] {
            let (pass, dims) = (Pass::new(&media), w.dims().as_ivec3());
            for z in 0..dims.z {
                for y in 0..dims.y {
                    for x in 0..dims.x {
                        let v = IVec3::new(x, y, z);
                        let centre = 1 << bit(0, 0, 0);
                        assert_eq!(w.blocked_mask(v, pass) & !centre, naive_mask(w, v, pass), "{v} {media:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn rows_match_voxel_reads() {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(21, 3, 3)).unwrap();
        w.set(IVec3::new(3, 1, 1), Voxel::Solid).unwrap();
        w.set(IVec3::new(17, 1, 1), Voxel::Water).unwrap();
        for media in [Media::ANY, Media::AIR, Media::WATER] {
            let pass = Pass::new(&media);
            for cx in 0..2 {
                let row = w.blocked_row16(cx, 1, 1, pass);
                for i in 0..16 {
                    let v = IVec3::new(cx * 16 + i, 1, 1);
                    assert_eq!(row >> i & 1 == 1, !w.passable(v, pass), "{v} {media:?}");
                }
            }
        }
    }
}
