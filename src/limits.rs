//! [`Limits`]: how much memory a world, and everything built from it, may take.

/// Memory limits, checked **before** allocating: a world's tables and chunks, and the tables of
/// anything built over a world (a search's node tables, connectivity labels). Exceeding one is a
/// typed error ([`WorldError::MemoryLimit`](crate::WorldError::MemoryLimit),
/// [`PathError::MemoryLimit`](crate::PathError::MemoryLimit)) and changes nothing.
///
/// A world carries its limits ([`VoxelWorld::with_limits`](crate::VoxelWorld::with_limits),
/// [`VoxelWorld::limits`](crate::VoxelWorld::limits)); searches and [`Components`](crate::Components)
/// over it use them. The defaults suit a game process: 512 MiB each.
///
/// Counted bytes are those of the tables really allocated: per 16^3 chunk, a world holds 16
/// bytes of tables (two layer slots and an edit stamp) and 512 bytes per allocated layer chunk;
/// a search holds a page-table entry per chunk and its pages.
///
/// # Examples
/// ```
/// use glam::{UVec3, Vec3};
/// use voxnav::{Limits, VoxelWorld, WorldError};
/// let tight = Limits { max_world_bytes: 1 << 20, ..Limits::default() };
/// // 4096 x 256 x 4096 voxels: 1 M chunks, 16 MB of tables.
/// let err = VoxelWorld::with_limits(Vec3::ZERO, 1.0, UVec3::new(4096, 256, 4096), tight).unwrap_err();
/// assert!(matches!(err, WorldError::MemoryLimit { .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limits {
    /// Bytes a world may hold: its chunk tables and chunks (default 512 MiB).
    pub max_world_bytes: usize,
    /// Bytes one structure built over a world may hold: one search (its node tables and open
    /// list with the room they keep; the two sides of a race together, with the scan events of
    /// jump point search), connectivity labels (default 512 MiB). A
    /// [`Pathfinder`](crate::Pathfinder) keeps its engines' tables (A\*, jump point search)
    /// for its next queries, each within this, and all of them within this after each query:
    /// where they hold more together, those the query did not end with give theirs back. (While
    /// a query runs, its engines grow within this beside what the others kept.)
    pub max_search_bytes: usize,
}

impl Limits {
    /// 512 MiB for the world, 512 MiB for each search or label set over it.
    pub const DEFAULT: Limits = Limits { max_world_bytes: 512 << 20, max_search_bytes: 512 << 20 };
    /// No limit (up to the address space): for tools that trust their input.
    pub const UNLIMITED: Limits = Limits { max_world_bytes: usize::MAX, max_search_bytes: usize::MAX };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}
