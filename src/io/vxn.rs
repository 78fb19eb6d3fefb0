//! Baked worlds: `.vxn`, voxnav's own versioned binary format (save what a level build made,
//! load it far faster than voxelising again).
//!
//! All numbers little-endian. Layout (version 1):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `89 56 58 4E 0D 0A 1A 0A` (`\x89VXN\r\n\x1a\n`: catches text-mode transfers) |
//! | 8 | 4 | format version (`u32`, 1) |
//! | 12 | 12 | dims (`u32` x, y, z voxels) |
//! | 24 | 12 | origin (`f32` x, y, z, world units) |
//! | 36 | 4 | voxel size (`f32`) |
//! | 40 | 4 | section count (`u32`) |
//! | 44 | .. | sections: tag (4 bytes), flags (`u32`, bit 0 = required), length (`u64`), payload |
//! | end - 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Sections `SOLD` (solid voxels) and `WATR` (water voxels), both required: a chunk count
//! (`u32`), then per chunk, in increasing chunk index order, its index (`u32`; chunks of 16^3
//! voxels numbered x fastest, then y, then z) and its 256 rows (`u16` each, row `lz * 16 + ly`,
//! bit `lx`). Only chunks with a set voxel are stored; a chunk whose every voxel inside the world
//! is set (the sealed inside of a level) is stored as its index with bit 31 set, and no rows. A reader skips sections it does not know
//! unless they are marked required (then the file is refused as corrupt): later versions may add
//! optional sections without breaking older readers, and bump the version for anything else.
//!
//! Reading checks, before allocating anything: the magic, the version, the checksum over the
//! whole file, the header's world against the caller's [`Limits`], every length against the
//! bytes present, and the chunks against the world (inside it, no bit past its edges, in
//! increasing order, no voxel both solid and water).

use std::io::Write;
use std::path::Path as FsPath;

use glam::{UVec3, Vec3};

use crate::error::VxnError;
use crate::grid::world::VoxelWorld;
use crate::limits::Limits;

/// The magic bytes a baked world starts with.
const MAGIC: [u8; 8] = *b"\x89VXN\r\n\x1a\n";
/// The format version this library writes and reads.
const VERSION: u32 = 1;
/// Bytes of the fixed header (magic to section count).
const HEADER: usize = 44;
/// Bytes of a section header (tag, flags, length).
const SECTION: usize = 16;
/// Bytes of one stored chunk (index and 256 rows).
const CHUNK_RECORD: usize = 4 + 512;
/// Flag on a stored chunk index: every voxel of the chunk inside the world is set, no rows
/// follow.
const FULL: u32 = 1 << 31;
const SOLID_TAG: [u8; 4] = *b"SOLD";
const WATER_TAG: [u8; 4] = *b"WATR";
const REQUIRED: u32 = 1;

impl VoxelWorld {
    /// Writes the world (dims, origin, voxel size, solid and water voxels) as a baked `.vxn`
    /// file (see docs/levels.md for the layout). Its size follows the chunks that hold
    /// geometry: 516 bytes per such chunk, per layer, and 4 per wholly solid one.
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
        let mut bytes = Vec::with_capacity(
            HEADER
                + 2 * SECTION
                + 8
                + 4
                + CHUNK_RECORD * (self.layer_chunk_count(false) + self.layer_chunk_count(true)),
        );
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
            write_layer(self, water, &mut bytes);
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
        let size = std::fs::metadata(path.as_ref())?.len();
        // A file holds at most its world's chunk rows plus small headers.
        let cap = (limits.max_world_bytes as u64).saturating_mul(2).saturating_add(1 << 20);
        if size > cap {
            return Err(VxnError::World(crate::WorldError::MemoryLimit {
                needed: usize::try_from(size).unwrap_or(usize::MAX),
                limit: limits.max_world_bytes,
            }));
        }
        Self::from_vxn_bytes(&std::fs::read(path)?, limits)
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn f32_at(bytes: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(bytes, at))
}

/// The rows of chunk `c` with every voxel inside the world set (row `(lz << 4) | ly`).
fn full_rows(dims: glam::IVec3, c: glam::IVec3) -> [u16; 256] {
    let past: glam::IVec3 = dims - (c << 4);
    if past.cmpge(glam::IVec3::splat(16)).all() {
        return [u16::MAX; 256];
    }
    let x_mask = if past.x < 16 { ((1u32 << past.x) - 1) as u16 } else { u16::MAX };
    let mut rows = [0u16; 256];
    for (i, row) in rows.iter_mut().enumerate() {
        let (ly, lz) = ((i & 15) as i32, (i >> 4) as i32);
        if ly < past.y && lz < past.z {
            *row = x_mask;
        }
    }
    rows
}

/// Chunk coordinates of chunk `index` in a world of `chunk_dims` chunks.
fn chunk_coords(index: usize, chunk_dims: glam::IVec3) -> glam::IVec3 {
    let (x, y) = (chunk_dims.x as usize, chunk_dims.y as usize);
    glam::IVec3::new((index % x) as i32, (index / x % y) as i32, (index / (x * y)) as i32)
}

/// Writes one layer section's payload: the chunk count, then per chunk its index (with
/// [`FULL`] set when every voxel of it inside the world is set: no rows follow) and rows.
fn write_layer(world: &VoxelWorld, water: bool, out: &mut Vec<u8>) {
    let dims = world.dims().as_ivec3();
    let chunk_dims: glam::IVec3 = (dims + 15) >> 4;
    // Chunks whose bits were all cleared since keep their rows in the world: not stored.
    let stored = || world.layer_chunks(water).filter(|(_, rows)| rows.iter().any(|&r| r != 0));
    out.extend_from_slice(&(stored().count() as u32).to_le_bytes());
    for (index, rows) in stored() {
        if rows == full_rows(dims, chunk_coords(index, chunk_dims)) {
            out.extend_from_slice(&(index as u32 | FULL).to_le_bytes());
            continue;
        }
        out.extend_from_slice(&(index as u32).to_le_bytes());
        for r in rows {
            out.extend_from_slice(&r.to_le_bytes());
        }
    }
}

/// Reads one layer section's chunks into `world`, a new world that the caller drops on error
/// (the other layer, if read first, must not share a voxel with this one).
fn read_layer(world: &mut VoxelWorld, water: bool, payload: &[u8]) -> Result<(), VxnError> {
    if payload.len() < 4 {
        return Err(VxnError::Corrupt("a layer section without its chunk count"));
    }
    let count = u32_at(payload, 0) as usize;
    // Every record holds at least its index.
    if count > world.chunk_count() || count.saturating_mul(4) > payload.len() - 4 {
        return Err(VxnError::Corrupt("more chunks than the world or the section holds"));
    }
    world.reserve_layer_chunks(water, count)?;
    let dims = world.dims().as_ivec3();
    let chunk_dims: glam::IVec3 = (dims + 15) >> 4;
    let mut previous = None;
    let mut at = 4;
    for _ in 0..count {
        if payload.len() - at < 4 {
            return Err(VxnError::Corrupt("a layer section ends inside a chunk"));
        }
        let word = u32_at(payload, at);
        at += 4;
        let index = (word & !FULL) as usize;
        if index >= world.chunk_count() || previous.is_some_and(|p| index <= p) {
            return Err(VxnError::Corrupt("chunk indices out of range or not increasing"));
        }
        previous = Some(index);
        let full = full_rows(dims, chunk_coords(index, chunk_dims));
        let rows = if word & FULL != 0 {
            full
        } else {
            if payload.len() - at < 512 {
                return Err(VxnError::Corrupt("a layer section ends inside a chunk"));
            }
            let mut rows = [0u16; 256];
            for (row, b) in rows.iter_mut().zip(payload[at..at + 512].chunks_exact(2)) {
                *row = u16::from_le_bytes([b[0], b[1]]);
            }
            at += 512;
            // No bit outside the world, and no empty chunk stored.
            if rows.iter().zip(&full).any(|(r, f)| r & !f != 0) {
                return Err(VxnError::Corrupt("a voxel outside the world"));
            }
            if rows.iter().all(|&r| r == 0) {
                return Err(VxnError::Corrupt("an empty chunk stored"));
            }
            rows
        };
        // No voxel both solid and water.
        if let Some(other) = world.layer_chunk(!water, index)
            && other.iter().zip(&rows).any(|(a, b)| a & b != 0)
        {
            return Err(VxnError::Corrupt("a voxel both solid and water"));
        }
        world.or_layer_chunk(water, index, &rows);
    }
    if at != payload.len() {
        return Err(VxnError::Corrupt("bytes after a layer section's chunks"));
    }
    Ok(())
}
