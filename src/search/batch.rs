//! Many agents at once: [`find_paths`] solves a batch of [`PathRequest`]s, in parallel with
//! the `parallel` feature (rayon), on pathfinders kept between batches.

use std::sync::{Mutex, OnceLock, PoisonError};

use crate::error::PathError;
use crate::grid::components::Components;
use crate::grid::world::VoxelWorld;
use crate::search::path::Path;
use crate::search::pathfinder::Pathfinder;
use crate::search::request::PathRequest;

/// Solves every request on `world` and returns the results in request order.
///
/// With the `parallel` feature (on by default) the requests are spread over rayon's thread
/// pool, one [`Pathfinder`] per worker; without it they run one after another. Either way each
/// result is exactly what [`Pathfinder::find`] returns for that request alone (with the same
/// `components`): deterministic, whatever the thread count or timing. Run it inside
/// `rayon::ThreadPool::install` to choose the threads.
///
/// Call it every frame if you like: its pathfinders are kept between calls, so a batch does not
/// pay for growing new ones and reading the world's chunks again. At most one per thread (of
/// the pool, or of the machine) is kept, holding at most the world's
/// [`max_search_bytes`](crate::Limits::max_search_bytes) in all: the memory a pathfinder per
/// thread of your own would hold. [`drop_spare_pathfinders`] frees them (when a level is
/// unloaded, say).
///
/// # Errors
/// Each result carries its own [`PathError`]; a bad request does not affect the others.
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{PathRequest, SearchConfig, Voxel, VoxelWorld, find_paths};
/// let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(32)).unwrap();
/// world.fill_voxels(IVec3::new(16, 0, 0), IVec3::new(16, 30, 31), Voxel::Solid).unwrap();
/// let requests: Vec<PathRequest> = (0..16)
///     .map(|i| PathRequest::new(IVec3::new(2, i, 2), IVec3::new(30, 31 - i, 29), SearchConfig::default()))
///     .collect();
/// let paths = find_paths(&world, None, &requests);
/// assert_eq!(paths.len(), 16);
/// assert!(paths.iter().all(|p| p.is_ok()));
/// assert!(find_paths(&world, None, &[PathRequest::new(IVec3::splat(-1), IVec3::ONE, SearchConfig::default())])[0].is_err());
/// ```
#[must_use]
pub fn find_paths(
    world: &VoxelWorld,
    components: Option<&Components>,
    requests: &[PathRequest],
) -> Vec<Result<Path, PathError>> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        // A few contiguous chunks per thread, one reusable Pathfinder per chunk.
        let chunk = requests.len().div_ceil(4 * rayon::current_num_threads()).max(1);
        let parts: Vec<Vec<_>> =
            requests.par_chunks(chunk).map(|part| find_paths_sequential(world, components, part)).collect();
        parts.into_iter().flatten().collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        find_paths_sequential(world, components, requests)
    }
}

/// [`find_paths`] on the calling thread only, one request after another (the reference the
/// parallel batch is measured and tested against).
///
/// # Errors
/// Each result carries its own [`PathError`].
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{PathRequest, SearchConfig, VoxelWorld, find_paths, find_paths_sequential};
/// let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(16)).unwrap();
/// let r = [PathRequest::new(IVec3::ZERO, IVec3::splat(15), SearchConfig::default())];
/// assert_eq!(find_paths_sequential(&world, None, &r), find_paths(&world, None, &r));
/// ```
#[must_use]
pub fn find_paths_sequential(
    world: &VoxelWorld,
    components: Option<&Components>,
    requests: &[PathRequest],
) -> Vec<Result<Path, PathError>> {
    let mut finder = lend();
    let out = requests.iter().map(|r| finder.find(world, components, r)).collect();
    give_back(finder, world.limits().max_search_bytes);
    out
}

/// Frees the pathfinders that [`find_paths`] and [`find_paths_sequential`] keep between calls.
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{PathRequest, SearchConfig, VoxelWorld, drop_spare_pathfinders, find_paths};
/// let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(16)).unwrap();
/// let r = [PathRequest::new(IVec3::ZERO, IVec3::splat(15), SearchConfig::default())];
/// let first = find_paths(&world, None, &r);
/// drop_spare_pathfinders(); // the next batch starts on new pathfinders, with the same answers
/// assert_eq!(find_paths(&world, None, &r), first);
/// ```
pub fn drop_spare_pathfinders() {
    let all = std::mem::take(&mut *SPARE.lock().unwrap_or_else(PoisonError::into_inner));
    drop(all);
}

/// Pathfinders kept between batches, the most recently kept last. (Few: at most one per
/// thread.)
#[derive(Debug, Default)]
struct Spare(Vec<Pathfinder>);

impl Spare {
    /// Bytes the kept pathfinders hold.
    fn bytes(&self) -> usize {
        self.0.iter().map(Pathfinder::memory_bytes).sum()
    }

    /// Keeps `finder` if fewer than `most` are kept and its bytes fit within `limit` beside
    /// the others'; hands it back otherwise (to be dropped outside the lock).
    fn keep(&mut self, finder: Pathfinder, most: usize, limit: usize) -> Option<Pathfinder> {
        if self.0.len() < most && self.bytes().checked_add(finder.memory_bytes()).is_some_and(|all| all <= limit) {
            self.0.push(finder);
            None
        } else {
            Some(finder)
        }
    }
}

/// The process's spare pathfinders.
static SPARE: Mutex<Spare> = Mutex::new(Spare(Vec::new()));

/// A kept pathfinder, or a new one. (A pathfinder's state never changes an answer, so any will
/// do; a poisoned lock still holds whole pathfinders.)
fn lend() -> Pathfinder {
    SPARE.lock().unwrap_or_else(PoisonError::into_inner).0.pop().unwrap_or_default()
}

/// Keeps `finder` for the next batch: at most one per thread, holding at most `limit` bytes in
/// all.
fn give_back(finder: Pathfinder, limit: usize) {
    let dropped = SPARE.lock().unwrap_or_else(PoisonError::into_inner).keep(finder, threads(), limit);
    drop(dropped);
}

/// The threads of the rayon pool running this (on one of its threads), or else of the
/// machine: without starting rayon's global pool, which a sequential batch does not need.
fn threads() -> usize {
    #[cfg(feature = "parallel")]
    if rayon::current_thread_index().is_some() {
        return rayon::current_num_threads();
    }
    static MACHINE: OnceLock<usize> = OnceLock::new();
    *MACHINE.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::config::SearchConfig;
    use crate::search::request::PathRequest;
    use glam::{IVec3, UVec3, Vec3};

    /// A pathfinder that has searched a world of `side`^3 voxels (holding its memory), a
    /// block in its middle.
    fn used(side: u32) -> Pathfinder {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(side)).unwrap();
        let mid = side as i32 / 2;
        world.fill_voxels(IVec3::splat(mid - 1), IVec3::splat(mid), crate::Voxel::Solid).unwrap();
        let mut finder = Pathfinder::new();
        let far = IVec3::splat(side as i32 - 1);
        finder.find(&world, None, &PathRequest::new(IVec3::ZERO, far, SearchConfig::default())).unwrap();
        finder
    }

    /// Kept pathfinders stay within their number and bytes, and come back most recent first.
    #[test]
    fn spare_pathfinders_stay_within_their_limits() {
        let (small, l) = (used(8), used(40).memory_bytes());
        let s = small.memory_bytes();
        assert!(0 < s && s < l, "{s} {l}");
        let mut spare = Spare::default();
        assert!(spare.keep(used(40), 4, l - 1).is_some(), "too large for the limit alone");
        assert!(spare.keep(used(40), 0, l).is_some(), "none may be kept");
        assert!(spare.keep(used(40), 4, l + s).is_none());
        assert!(spare.keep(used(40), 4, l + s).is_some(), "two would pass the limit");
        assert!(spare.keep(used(8), 1, l + s).is_some(), "one is kept already");
        assert!(spare.keep(small, 2, l + s).is_none());
        assert_eq!(spare.bytes(), l + s);
        assert_eq!(spare.0.pop().map(|f| f.memory_bytes()), Some(s));
        assert_eq!(spare.bytes(), l);
        assert_eq!(spare.0.pop().map(|f| f.memory_bytes()), Some(l));
        assert_eq!((spare.bytes(), spare.0.pop().is_none()), (0, true));
    }
}
