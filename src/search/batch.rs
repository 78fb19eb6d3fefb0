//! Many agents at once: [`find_paths`] solves a batch of [`PathRequest`]s, in parallel with
//! the `parallel` feature (rayon).

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
    let mut finder = Pathfinder::new();
    requests.iter().map(|r| finder.find(world, components, r)).collect()
}
