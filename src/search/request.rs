//! [`PathRequest`]: the description of one path query (endpoints and configuration), and
//! [`Endpoint`], a query's start or goal given as a voxel or as a world-space point.

use glam::{IVec3, Vec3};

use crate::error::PathError;
use crate::grid::world::VoxelWorld;
use crate::search::config::SearchConfig;

/// A query's start or goal: a voxel, or a point in the world.
///
/// The one convention of every endpoint in the API:
/// - An [`IVec3`] is a **voxel index** (voxel units): voxel `v` is the cube from
///   `origin + v * voxel_size` to `origin + (v + 1) * voxel_size`, so integers name its
///   **min corner** and [`VoxelWorld::voxel_center`] is `+ 0.5` voxel.
/// - A [`Vec3`] is a **point in world units** (metres, say): it stands for the voxel that
///   contains it ([`VoxelWorld::voxel_at`]). A NaN or infinite point is an error when the query
///   begins ([`PathError::NonFinite`]).
///
/// Both convert with `into()`, so a [`PathRequest`] takes either.
///
/// # Examples
/// ```
/// use glam::{IVec3, Vec3};
/// use voxnav::Endpoint;
/// assert_eq!(Endpoint::from(IVec3::new(2, 0, 5)), Endpoint::Voxel(IVec3::new(2, 0, 5)));
/// assert_eq!(Endpoint::from(Vec3::new(2.5, 0.1, 5.9)), Endpoint::Point(Vec3::new(2.5, 0.1, 5.9)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Endpoint {
    /// A voxel index.
    Voxel(IVec3),
    /// A point in world units: the voxel containing it.
    Point(Vec3),
}

impl Default for Endpoint {
    /// The voxel `(0, 0, 0)`.
    fn default() -> Self {
        Self::Voxel(IVec3::ZERO)
    }
}

impl From<IVec3> for Endpoint {
    #[inline]
    fn from(voxel: IVec3) -> Self {
        Self::Voxel(voxel)
    }
}

impl From<Vec3> for Endpoint {
    #[inline]
    fn from(point: Vec3) -> Self {
        Self::Point(point)
    }
}

impl Endpoint {
    /// The voxel this endpoint stands for in `world` (in bounds or not), or `None` for a point
    /// with a NaN or infinite coordinate.
    #[must_use]
    #[inline]
    pub(crate) fn voxel(self, world: &VoxelWorld) -> Option<IVec3> {
        match self {
            Self::Voxel(v) => Some(v),
            Self::Point(p) => p.is_finite().then(|| world.voxel_at(p)),
        }
    }
}

/// One path query: where from, where to, and how to search. Every way to search takes one:
/// [`Pathfinder::find`](crate::Pathfinder::find) and [`begin`](crate::Pathfinder::begin),
/// [`find_paths`](crate::find_paths), [`PathQueue::push`](crate::PathQueue::push).
///
/// # Examples
/// ```
/// use glam::{IVec3, Vec3};
/// use voxnav::{Endpoint, PathRequest, SearchConfig};
/// // Voxel indices, or world-space points (the voxels containing them): see `Endpoint`.
/// let by_voxel = PathRequest::new(IVec3::new(2, 5, 2), IVec3::new(18, 5, 2), SearchConfig::default());
/// let by_point = PathRequest::new(Vec3::new(2.5, 5.5, 2.5), IVec3::new(18, 5, 2), SearchConfig::default());
/// assert_eq!(by_voxel.start, Endpoint::Voxel(IVec3::new(2, 5, 2)));
/// assert_eq!(by_point.start, Endpoint::Point(Vec3::new(2.5, 5.5, 2.5)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PathRequest {
    /// Where the path starts.
    pub start: Endpoint,
    /// Where the path ends.
    pub goal: Endpoint,
    /// How to search.
    pub config: SearchConfig,
}

impl PathRequest {
    /// A request from `start` to `goal` (each a voxel index, [`IVec3`], or a world-space point,
    /// [`Vec3`]: see [`Endpoint`]) with `config`.
    #[must_use]
    pub fn new(start: impl Into<Endpoint>, goal: impl Into<Endpoint>, config: SearchConfig) -> Self {
        Self { start: start.into(), goal: goal.into(), config }
    }

    /// The start and goal voxels in `world` (in bounds or not).
    ///
    /// # Errors
    /// [`PathError::NonFinite`] naming the first endpoint that is a NaN or infinite point.
    pub(crate) fn voxels(&self, world: &VoxelWorld) -> Result<(IVec3, IVec3), PathError> {
        let start = self.start.voxel(world).ok_or(PathError::NonFinite { which: "start" })?;
        let goal = self.goal.voxel(world).ok_or(PathError::NonFinite { which: "goal" })?;
        Ok((start, goal))
    }
}
