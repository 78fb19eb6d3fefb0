//! Baked worlds: `.vxn`, voxnav's own versioned binary format (save what a level build made,
//! load it far faster than voxelising again).
//!
//! All numbers little-endian. Layout (version 2):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `89 56 58 4E 0D 0A 1A 0A` (`\x89VXN\r\n\x1a\n`: catches text-mode transfers) |
//! | 8 | 4 | format version (`u32`, 2) |
//! | 12 | 12 | dims (`u32` x, y, z voxels) |
//! | 24 | 12 | origin (`f32` x, y, z, world units) |
//! | 36 | 4 | voxel size (`f32`) |
//! | 40 | 4 | section count (`u32`) |
//! | 44 | .. | sections: tag (4 bytes), flags (`u32`, bit 0 = required), length (`u64`), payload |
//! | end - 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Sections `SOLD` (solid voxels) and `WATR` (water voxels), both required: a chunk count and
//! the count of those stored with rows (`u32` each), then per chunk with a set voxel, in
//! increasing chunk index order (chunks of 16^3 voxels numbered x fastest, then y, then z), a
//! `u32`: the chunk index in bits 0-29 and its kind in bits 30-31:
//! - `0`, rows: 16 bytes of codes, then the literal groups. The chunk's 256 rows (`u16`, row
//!   `lz * 16 + ly`, bit `lx`) go by groups of four (group `g` is rows `4g..4g + 4`, a `u64`
//!   with row `4g + j` in bits `16j..16j + 16`), each with a 2-bit code (group `g` in bits
//!   `2g, 2g + 1` of the codes, a `u128`): `0` no voxel set, `1` every voxel of those rows
//!   inside the world set, `2` the group's 8 bytes follow (after the codes, in group order),
//!   `3` the same as group `g - 4` (the same rows one `lz` below; not in groups 0-3).
//! - `2` (bit 31), full: every voxel of the chunk inside the world is set (the sealed inside of
//!   a closed level); nothing follows.
//! - `1` (bit 30), same: the same rows as an earlier chunk stored with rows in this section;
//!   its number among those (`u32`, from 0) follows.
//!
//! A loaded world shares one copy of the rows of equal chunks (all the full chunks of one
//! shape, the chunks stored as the same), copied on the first edit. A reader skips sections it
//! does not know unless they are marked required (then the file is refused as corrupt): later
//! versions may add optional sections without breaking older readers, and bump the version for
//! anything else.
//!
//! Reading checks, before allocating anything: the magic, the version, the checksum over the
//! whole file, the header's world against the caller's [`Limits`], every length and count
//! against the bytes present, and the chunks against the world (inside it, no bit past its
//! edges, in increasing order, none empty, no voxel both solid and water).

use std::io::{Read, Write};
use std::path::Path as FsPath;

use glam::{IVec3, UVec3, Vec3};

use crate::error::VxnError;
use crate::grid::world::VoxelWorld;
use crate::limits::Limits;

/// The magic bytes a baked world starts with.
const MAGIC: [u8; 8] = *b"\x89VXN\r\n\x1a\n";
/// The format version this library writes and reads.
const VERSION: u32 = 2;
/// Bytes of the fixed header (magic to section count).
const HEADER: usize = 44;
/// Bytes of a section header (tag, flags, length).
const SECTION: usize = 16;
/// Bytes of a layer section's counts (chunks, chunks with rows).
const COUNTS: usize = 8;
/// Bytes of a chunk record's codes.
const CODES: usize = 16;
/// Kind of a chunk record (bits 30-31 of its index word): rows follow.
const ROWS: u32 = 0;
/// Kind of a chunk record: the same rows as an earlier record with rows; its number follows.
const SAME: u32 = 1;
/// Kind of a chunk record: every voxel of the chunk inside the world is set, nothing follows.
const FULL: u32 = 2;
/// Bits of a chunk record's index word that hold the chunk index. A world has fewer chunks
/// (under 2^29: at most 2^36 voxels, and a chunk holds at least 16^2 of them unless two axes
/// are under 16 voxels, then at most 2^16 chunks).
const INDEX_MASK: u32 = (1 << 30) - 1;
/// Group code: no voxel set.
const ZERO_GROUP: u128 = 0;
/// Group code: every voxel inside the world set.
const FULL_GROUP: u128 = 1;
/// Group code: the group's 8 bytes follow.
const LITERAL_GROUP: u128 = 2;
/// Group code: the same as group `g - 4`.
const BELOW_GROUP: u128 = 3;
const SOLID_TAG: [u8; 4] = *b"SOLD";
const WATER_TAG: [u8; 4] = *b"WATR";
const REQUIRED: u32 = 1;

impl VoxelWorld {
    /// Writes the world (dims, origin, voxel size, solid and water voxels) as a baked `.vxn`
    /// file (see docs/levels.md for the layout). Its size follows the chunks that hold
    /// geometry: 4 bytes for a wholly set chunk or for one equal to an earlier one, else 20
    /// bytes and 8 per group of four rows that is neither empty, wholly set nor equal to the
    /// group one `lz` below.
    ///
    /// # Errors
    /// Any error of `out`.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Limits, Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::new(-4.0, 0.0, 2.5), 0.5, UVec3::new(40, 20, 30)).unwrap();
    /// world.set(IVec3::new(3, 4, 5), Voxel::Solid).unwrap();
    /// world.set(IVec3::new(30, 4, 5), Voxel::Water).unwrap();
    /// let mut bytes = Vec::new();
    /// world.write_vxn(&mut bytes).unwrap();
    /// let back = VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT).unwrap();
    /// assert_eq!(back.get(IVec3::new(30, 4, 5)), Voxel::Water);
    /// assert_eq!((back.origin(), back.voxel_size(), back.dims()), (world.origin(), 0.5, world.dims()));
    /// bytes[60] ^= 1;
    /// assert!(VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT).is_err());
    /// ```
    pub fn write_vxn(&self, mut out: impl Write) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(HEADER + 2 * (SECTION + COUNTS) + 4);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for d in self.dims().to_array() {
            bytes.extend_from_slice(&d.to_le_bytes());
        }
        for o in self.origin().to_array() {
            bytes.extend_from_slice(&o.to_le_bytes());
        }
        bytes.extend_from_slice(&self.voxel_size().to_le_bytes());
        bytes.extend_from_slice(&2u32.to_le_bytes());
        for (tag, water) in [(SOLID_TAG, false), (WATER_TAG, true)] {
            bytes.extend_from_slice(&tag);
            bytes.extend_from_slice(&REQUIRED.to_le_bytes());
            let length_at = bytes.len();
            bytes.extend_from_slice(&0u64.to_le_bytes());
            write_layer(self, water, &mut bytes)?;
            let length = (bytes.len() - length_at - 8) as u64;
            bytes[length_at..length_at + 8].copy_from_slice(&length.to_le_bytes());
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        out.write_all(&bytes)
    }

    /// Reads a baked world written by [`write_vxn`](Self::write_vxn), with memory `limits`
    /// (checked before anything is allocated).
    ///
    /// # Errors
    /// [`VxnError`]: not a baked world, a newer version, truncated, damaged (checksum),
    /// inconsistent contents, or a world over `limits`. Never panics on any input.
    pub fn from_vxn_bytes(bytes: &[u8], limits: Limits) -> Result<Self, VxnError> {
        let len = bytes.len() as u64;
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(VxnError::BadMagic);
        }
        if bytes.len() < 12 {
            return Err(VxnError::Truncated { needed: 12, len });
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(VxnError::UnsupportedVersion { found: version, supported: VERSION });
        }
        let minimum = (HEADER + 4) as u64;
        if len < minimum {
            return Err(VxnError::Truncated { needed: minimum, len });
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let stored = u32_at(tail, 0);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(VxnError::ChecksumMismatch { stored, computed });
        }
        let dims = UVec3::new(u32_at(body, 12), u32_at(body, 16), u32_at(body, 20));
        let origin = Vec3::new(f32_at(body, 24), f32_at(body, 28), f32_at(body, 32));
        let voxel_size = f32_at(body, 36);
        let sections = u32_at(body, 40);
        let mut world = VoxelWorld::with_limits(origin, voxel_size, dims, limits)?;
        let mut at = HEADER;
        let mut seen = [false; 2];
        for _ in 0..sections {
            let rest = body.len() - at;
            if rest < SECTION {
                return Err(VxnError::Truncated { needed: (at + SECTION + 4) as u64, len });
            }
            let tag: [u8; 4] = body[at..at + 4].try_into().map_err(|_| VxnError::Corrupt("section tag"))?;
            let flags = u32_at(body, at + 4);
            let size = u64::from_le_bytes(body[at + 8..at + 16].try_into().map_err(|_| VxnError::Corrupt("length"))?);
            at += SECTION;
            if size > (body.len() - at) as u64 {
                return Err(VxnError::Truncated { needed: (at as u64).saturating_add(size).saturating_add(4), len });
            }
            let payload = &body[at..at + size as usize];
            at += size as usize;
            let water = match tag {
                SOLID_TAG => false,
                WATER_TAG => true,
                _ if flags & REQUIRED != 0 => {
                    return Err(VxnError::Corrupt("a required section this version does not know"));
                }
                _ => continue,
            };
            if std::mem::replace(&mut seen[usize::from(water)], true) {
                return Err(VxnError::Corrupt("a layer section twice"));
            }
            read_layer(&mut world, water, payload)?;
        }
        if at != body.len() {
            return Err(VxnError::Corrupt("bytes after the last section"));
        }
        if seen != [true, true] {
            return Err(VxnError::Corrupt("a layer section is missing"));
        }
        Ok(world)
    }

    /// Reads a baked world file (see [`from_vxn_bytes`](Self::from_vxn_bytes)); a file larger
    /// than `limits` allow for a world is refused before it is read.
    ///
    /// # Errors
    /// As [`from_vxn_bytes`](Self::from_vxn_bytes).
    pub fn load_vxn(path: impl AsRef<FsPath>, limits: Limits) -> Result<Self, VxnError> {
        let mut file = std::fs::File::open(path)?;
        let size = file.metadata()?.len();
        // A file holds at most its world's chunk rows plus small headers.
        let cap = (limits.max_world_bytes as u64).saturating_mul(2).saturating_add(1 << 20);
        if size > cap {
            return Err(VxnError::World(crate::WorldError::MemoryLimit {
                needed: usize::try_from(size).unwrap_or(usize::MAX),
                limit: limits.max_world_bytes,
            }));
        }
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.read_to_end(&mut bytes)?;
        Self::from_vxn_bytes(&bytes, limits)
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

fn f32_at(bytes: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(bytes, at))
}

/// A chunk's 256 rows as 64 groups of four (group `g`: rows `4g..4g + 4`, row `4g + j` in bits
/// `16j..16j + 16`).
fn groups(rows: &[u16]) -> [u64; 64] {
    let mut g = [0u64; 64];
    for (g, r) in g.iter_mut().zip(rows.chunks_exact(4)) {
        *g = u64::from(r[0]) | u64::from(r[1]) << 16 | u64::from(r[2]) << 32 | u64::from(r[3]) << 48;
    }
    g
}

/// The rows of 64 groups (see [`groups`]).
fn rows_of(groups: &[u64; 64]) -> [u16; 256] {
    let mut rows = [0u16; 256];
    for (r, &g) in rows.chunks_exact_mut(4).zip(groups) {
        r.copy_from_slice(&[g as u16, (g >> 16) as u16, (g >> 32) as u16, (g >> 48) as u16]);
    }
    rows
}

/// Chunk coordinates of increasing chunk indices, found without a division when the next
/// index lies further along the same x row of chunks.
struct Walk {
    index: usize,
    coords: IVec3,
}

impl Walk {
    fn new() -> Self {
        Self { index: 0, coords: IVec3::ZERO }
    }

    /// The coordinates of chunk `index`, at or after the last one asked.
    #[inline]
    fn to(&mut self, world: &VoxelWorld, index: usize) -> IVec3 {
        let step = index - self.index;
        if step < (world.dims().x.div_ceil(16) as i32 - self.coords.x) as usize {
            self.coords.x += step as i32;
        } else {
            self.coords = world.chunk_coords(index);
        }
        self.index = index;
        self.coords
    }
}

/// A chunk with every voxel inside the world set, for one edge class: its rows, groups and
/// number of set bits.
struct Full {
    rows: [u16; 256],
    groups: [u64; 64],
    group_ones: [u8; 64],
    ones: u64,
}

/// The full chunks of a world's edge classes, made when first needed.
struct FullChunks([Option<Box<Full>>; 8]);

impl FullChunks {
    fn new() -> Self {
        Self(Default::default())
    }

    #[inline]
    fn get(&mut self, world: &VoxelWorld, class: usize) -> &Full {
        self.0[class].get_or_insert_with(|| Self::make(world, class))
    }

    #[cold]
    fn make(world: &VoxelWorld, class: usize) -> Box<Full> {
        let rows = world.full_chunk(class);
        let groups = groups(&rows);
        let group_ones = groups.map(|g| g.count_ones() as u8);
        let ones = group_ones.iter().map(|&n| u64::from(n)).sum();
        Box::new(Full { rows, groups, group_ones, ones })
    }
}

/// Writes one layer section's payload: the counts, then per chunk with a set voxel its record
/// (see the module docs). Fails only for a world of more chunks than [`INDEX_MASK`] holds
/// (none: see there).
fn write_layer(world: &VoxelWorld, water: bool, out: &mut Vec<u8>) -> std::io::Result<()> {
    enum Record {
        Full,
        Same(u32),
        Rows,
    }
    let mut full = FullChunks::new();
    // Chunks whose bits were all cleared since keep their rows in the world: not stored.
    let stored: Vec<(usize, &[u16])> =
        world.layer_chunks(water).filter(|(_, rows)| rows.iter().any(|&r| r != 0)).collect();
    // The first chunk stored with rows for each content (later ones refer to it): the bytes
    // do not depend on the map's order.
    let mut firsts = hashbrown::HashMap::new();
    let mut with_rows = 0u32;
    let records: Vec<Record> = stored
        .iter()
        .map(|&(index, rows)| {
            if rows == full.get(world, world.edge_class(world.chunk_coords(index))).rows {
                return Record::Full;
            }
            match firsts.entry(rows) {
                hashbrown::hash_map::Entry::Occupied(e) => Record::Same(*e.get()),
                hashbrown::hash_map::Entry::Vacant(e) => {
                    e.insert(with_rows);
                    with_rows += 1;
                    Record::Rows
                }
            }
        })
        .collect();
    out.extend_from_slice(&(stored.len() as u32).to_le_bytes());
    out.extend_from_slice(&with_rows.to_le_bytes());
    for (&(index, rows), record) in stored.iter().zip(&records) {
        let index = u32::try_from(index).ok().filter(|&i| i <= INDEX_MASK).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "more chunks than a .vxn file can index")
        })?;
        match *record {
            Record::Full => out.extend_from_slice(&(index | FULL << 30).to_le_bytes()),
            Record::Same(first) => {
                out.extend_from_slice(&(index | SAME << 30).to_le_bytes());
                out.extend_from_slice(&first.to_le_bytes());
            }
            Record::Rows => {
                out.extend_from_slice(&(index | ROWS << 30).to_le_bytes());
                let g = groups(rows);
                let f = &full.get(world, world.edge_class(world.chunk_coords(index as usize))).groups;
                let mut codes = 0u128;
                let mut literals = Vec::new();
                for i in 0..64 {
                    let code = if g[i] == 0 {
                        ZERO_GROUP
                    } else if g[i] == f[i] {
                        FULL_GROUP
                    } else if i >= 4 && g[i] == g[i - 4] {
                        BELOW_GROUP
                    } else {
                        literals.push(g[i]);
                        LITERAL_GROUP
                    };
                    codes |= code << (2 * i);
                }
                out.extend_from_slice(&codes.to_le_bytes());
                for l in literals {
                    out.extend_from_slice(&l.to_le_bytes());
                }
            }
        }
    }
    Ok(())
}

/// Reads one layer section's chunks into `world`, a new world that the caller drops on error
/// (the other layer, if read first, must not share a voxel with this one).
fn read_layer(world: &mut VoxelWorld, water: bool, payload: &[u8]) -> Result<(), VxnError> {
    if payload.len() < COUNTS {
        return Err(VxnError::Corrupt("a layer section without its chunk counts"));
    }
    let count = u32_at(payload, 0) as usize;
    let with_rows = u32_at(payload, 4) as usize;
    // Every record holds at least its index word, a record with rows its codes too.
    if count > world.chunk_count() || with_rows > count || count * 4 + with_rows * CODES > payload.len() - COUNTS {
        return Err(VxnError::Corrupt("more chunks than the world or the section holds"));
    }
    // A slot per chunk with rows, and one per shape of full chunk the file may use.
    let shapes = 1 << (0..3).filter(|&a| !world.dims()[a].is_multiple_of(16)).count();
    world.reserve_layer_chunks(water, with_rows + (count - with_rows).min(shapes))?;
    let mut full = FullChunks::new();
    // Slot and set bits of each chunk read with rows.
    let mut firsts: Vec<(u32, u64)> = Vec::with_capacity(with_rows);
    let mut previous = None;
    let mut walk = Walk::new();
    let mut at = COUNTS;
    for _ in 0..count {
        if payload.len() - at < 4 {
            return Err(VxnError::Corrupt("a layer section ends inside a chunk"));
        }
        let word = u32_at(payload, at);
        at += 4;
        let index = (word & INDEX_MASK) as usize;
        if index >= world.chunk_count() || previous.is_some_and(|p| index <= p) {
            return Err(VxnError::Corrupt("chunk indices out of range or not increasing"));
        }
        previous = Some(index);
        let class = world.edge_class(walk.to(world, index));
        match word >> 30 {
            FULL => {
                let f = full.get(world, class);
                overlap(world, water, index, &f.rows)?;
                world.share_full_layer_chunk(water, index, class, &f.rows, f.ones);
            }
            SAME => {
                if payload.len() - at < 4 {
                    return Err(VxnError::Corrupt("a layer section ends inside a chunk"));
                }
                let first = u32_at(payload, at) as usize;
                at += 4;
                let &(slot, ones) = firsts.get(first).ok_or(VxnError::Corrupt("a chunk the same as one not read"))?;
                let rows = world.layer_slot_rows(water, slot);
                if class != 0 && rows.iter().zip(&full.get(world, class).rows).fold(0, |a, (r, f)| a | (r & !f)) != 0 {
                    return Err(VxnError::Corrupt("a voxel outside the world"));
                }
                overlap(world, water, index, rows)?;
                world.share_layer_slot(water, index, slot, ones);
            }
            ROWS => {
                if firsts.len() == with_rows {
                    return Err(VxnError::Corrupt("more chunks with rows than counted"));
                }
                let (g, ones, used) = decode(&payload[at..], full.get(world, class), class == 0)?;
                at += used;
                let rows = rows_of(&g);
                overlap(world, water, index, &rows)?;
                let slot = world.push_layer_chunk(water, index, &rows, ones);
                firsts.push((slot, ones));
            }
            _ => return Err(VxnError::Corrupt("an unknown kind of chunk record")),
        }
    }
    if at != payload.len() {
        return Err(VxnError::Corrupt("bytes after a layer section's chunks"));
    }
    if firsts.len() != with_rows {
        return Err(VxnError::Corrupt("fewer chunks with rows than counted"));
    }
    Ok(())
}

/// The bits at even positions of `x`, packed (bit `2i` becomes bit `i`).
fn even_bits(x: u128) -> u64 {
    let pack = |mut x: u64| {
        x &= 0x5555_5555_5555_5555;
        x = (x | x >> 1) & 0x3333_3333_3333_3333;
        x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
        x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
        x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
        (x | x >> 16) & 0xFFFF_FFFF
    };
    pack(x as u64) | pack((x >> 64) as u64) << 32
}

/// Decodes a chunk's codes and literal groups at the start of `bytes` (`full`: the chunk with
/// every voxel inside the world set; `interior`: the chunk lies wholly inside the world);
/// returns the groups, their set bits and the bytes used.
fn decode(bytes: &[u8], full: &Full, interior: bool) -> Result<([u64; 64], u64, usize), VxnError> {
    if bytes.len() < CODES {
        return Err(VxnError::Corrupt("a layer section ends inside a chunk"));
    }
    let codes = u128::from_le_bytes(bytes[..CODES].try_into().map_err(|_| VxnError::Corrupt("codes"))?);
    let (low, high) = (even_bits(codes), even_bits(codes >> 1));
    let (fulls, literals, belows) = (low & !high, high & !low, low & high);
    if belows & 0xF != 0 {
        return Err(VxnError::Corrupt("a group the same as one below the chunk"));
    }
    let bytes = &bytes[CODES..];
    if bytes.len() / 8 < literals.count_ones() as usize {
        return Err(VxnError::Corrupt("a layer section ends inside a chunk"));
    }
    // Groups and their set bits: the full ones, then the literals, then the copies (in
    // increasing order, so a copy of a copy reads a settled group).
    let mut g = [0u64; 64];
    let mut ones = [0u8; 64];
    let mut m = fulls;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        g[i] = full.groups[i];
        ones[i] = full.group_ones[i];
    }
    let (mut m, mut at) = (literals, 0);
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let v = u64_at(bytes, at);
        at += 8;
        if !interior && v & !full.groups[i] != 0 {
            return Err(VxnError::Corrupt("a voxel outside the world"));
        }
        g[i] = v;
        ones[i] = v.count_ones() as u8;
    }
    let mut m = belows;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        g[i] = g[i - 4];
        ones[i] = ones[i - 4];
    }
    let total: u64 = ones.iter().map(|&n| u64::from(n)).sum();
    if total == 0 {
        return Err(VxnError::Corrupt("an empty chunk stored"));
    }
    Ok((g, total, CODES + at))
}

/// Refuses chunk `index`'s `rows` in one layer when the other layer has a voxel of them.
fn overlap(world: &VoxelWorld, water: bool, index: usize, rows: &[u16]) -> Result<(), VxnError> {
    match world.layer_chunk(!water, index) {
        Some(other) if other.iter().zip(rows).fold(0, |acc, (a, b)| acc | (a & b)) != 0 => {
            Err(VxnError::Corrupt("a voxel both solid and water"))
        }
        _ => Ok(()),
    }
}
