//! The agent: its size, which fixes the voxel edge of a world built for it
//! ([`VoxelWorld::for_agent`]) and its clearance radius in a world's voxels, and where it may
//! move.

use glam::Vec3;

use crate::error::WorldError;
use crate::grid::clearance::MAX_CLEARANCE;
use crate::grid::world::VoxelWorld;
use crate::medium::Media;

/// A flying or swimming agent, sized in world units (metres, say).
///
/// Its *step* is its largest dimension. A world built for it with [`VoxelWorld::for_agent`] has
/// voxels of that edge, so a free voxel is a place the whole agent fits, in any orientation.
///
/// # Examples
/// ```
/// use voxnav::{Agent, Media};
/// let drone = Agent::new(1.2, 1.2, 0.5).unwrap();
/// assert_eq!(drone.step(), 1.2);
/// let fish = Agent::with_media(0.8, 0.3, 0.4, Media::WATER).unwrap();
/// assert!(fish.media().water.is_some() && fish.media().air.is_none());
/// assert!(Agent::new(f32::NAN, 1.0, 1.0).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(try_from = "AgentSpec"))]
pub struct Agent {
    length: f32,
    width: f32,
    height: f32,
    media: Media,
}

impl Agent {
    /// An agent of the given size (length along its forward axis, width, height), allowed
    /// into the default [`Media`] (see [`with_media`](Self::with_media)).
    ///
    /// # Errors
    /// [`WorldError::InvalidAgentSize`] if a size is zero, negative, NaN or infinite.
    pub fn new(length: f32, width: f32, height: f32) -> Result<Self, WorldError> {
        Self::with_media(length, width, height, Media::default())
    }

    /// [`new`](Self::new) for an agent allowed to move through `media` (see [`Media`]).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn with_media(length: f32, width: f32, height: f32, media: Media) -> Result<Self, WorldError> {
        for (name, value) in [("length", length), ("width", width), ("height", height)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(WorldError::InvalidAgentSize { name, value });
            }
        }
        Ok(Self { length, width, height, media })
    }

    /// Length along the agent's forward axis.
    #[must_use]
    #[inline]
    pub fn length(&self) -> f32 {
        self.length
    }

    /// Width (across, along its right axis).
    #[must_use]
    #[inline]
    pub fn width(&self) -> f32 {
        self.width
    }

    /// Height (along its up axis).
    #[must_use]
    #[inline]
    pub fn height(&self) -> f32 {
        self.height
    }

    /// The largest of length, width and height: the voxel edge of a world built for this agent.
    #[must_use]
    #[inline]
    pub fn step(&self) -> f32 {
        self.length.max(self.width).max(self.height)
    }

    /// The clearance radius (voxels, for [`SearchConfig::clearance`]) this agent needs in
    /// voxels of edge `voxel_size`: the agent is taken as the cube of edge [`step`](Self::step)
    /// centred on its voxel's centre, and the radius is the Chebyshev distance of the farthest
    /// voxel that cube overlaps (closed boxes count, so a cube that reaches exactly a
    /// neighbour's face fits with radius 0 only when it is no larger than one voxel):
    /// `ceil(step / (2 voxel_size) - 1/2)`, with a tolerance of 1e-4 voxel for sizes meant to
    /// be equal.
    ///
    /// # Errors
    /// [`WorldError::InvalidVoxelSize`], [`WorldError::AgentTooLarge`] if the radius passes
    /// [`SearchConfig::MAX_CLEARANCE`], [`WorldError::VoxelTooCoarse`] if the voxel is more
    /// than twice the agent's step.
    ///
    /// # Examples
    /// ```
    /// use voxnav::Agent;
    /// let drone = Agent::new(1.0, 1.0, 0.4).unwrap();
    /// assert_eq!(drone.clearance_in(1.0), Ok(0));
    /// assert_eq!(drone.clearance_in(0.5), Ok(1));
    /// assert_eq!(drone.clearance_in(0.25), Ok(2));
    /// assert!(drone.clearance_in(0.01).is_err()); // would need 50 voxels
    /// assert!(drone.clearance_in(4.0).is_err()); // gaps of 1-3 m would be closed to it
    /// ```
    ///
    /// [`SearchConfig::clearance`]: crate::SearchConfig::clearance
    /// [`SearchConfig::MAX_CLEARANCE`]: crate::SearchConfig::MAX_CLEARANCE
    pub fn clearance_in(&self, voxel_size: f32) -> Result<u8, WorldError> {
        if !(voxel_size.is_finite() && voxel_size > 0.0) {
            return Err(WorldError::InvalidVoxelSize(voxel_size));
        }
        let step = self.step();
        if voxel_size > 2.0 * step {
            return Err(WorldError::VoxelTooCoarse { step, voxel_size });
        }
        let reach = f64::from(step) / (2.0 * f64::from(voxel_size)) - 0.5 - 1e-4;
        let radius = reach.ceil().max(0.0);
        let max = MAX_CLEARANCE;
        if radius > f64::from(max) {
            return Err(WorldError::AgentTooLarge {
                step,
                voxel_size,
                radius: radius.min(f64::from(u32::MAX)) as u32,
                max,
            });
        }
        Ok(radius as u8)
    }

    /// Where this agent may move, and at what price.
    #[must_use]
    #[inline]
    pub fn media(&self) -> Media {
        self.media
    }
}

impl VoxelWorld {
    /// An all-air world covering the box `min..max` (world units) with voxels of the agent's
    /// [step](Agent::step). The box is rounded up to whole voxels; `min` is the origin.
    ///
    /// # Errors
    /// [`WorldError::InvalidBounds`] if the box is not finite or empty on an axis, else as
    /// [`VoxelWorld::new`].
    pub fn for_agent(agent: &Agent, min: Vec3, max: Vec3) -> Result<Self, WorldError> {
        if !(min.is_finite() && max.is_finite()) || min.cmpge(max).any() {
            return Err(WorldError::InvalidBounds);
        }
        let step = agent.step();
        let n = ((max - min) / step).ceil();
        if n.max_element() > Self::MAX_AXIS as f32 {
            let n = n.as_dvec3();
            return Err(WorldError::InvalidDimensions { x: n.x as u64, y: n.y as u64, z: n.z as u64 });
        }
        Self::new(min, step, n.as_uvec3())
    }
}

/// What a serialized [`Agent`] holds; deserializing checks it like [`Agent::new`].
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct AgentSpec {
    length: f32,
    width: f32,
    height: f32,
    media: Media,
}

#[cfg(feature = "serde")]
impl TryFrom<AgentSpec> for Agent {
    type Error = WorldError;

    fn try_from(spec: AgentSpec) -> Result<Self, WorldError> {
        Agent::with_media(spec.length, spec.width, spec.height, spec.media)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_agent_worlds() {
        let a = Agent::new(1.0, 1.0, 1.0).unwrap();
        assert!(VoxelWorld::for_agent(&a, Vec3::ZERO, Vec3::ZERO).is_err());
        assert!(VoxelWorld::for_agent(&a, Vec3::ZERO, Vec3::splat(1e30)).is_err());
    }
}
