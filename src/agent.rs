//! The agent: its size, which fixes the voxel edge of a world built for it, and where it may move.

use crate::error::WorldError;
use crate::medium::Media;

/// A flying or swimming agent, sized in world units (metres, say).
///
/// Its *step* is its largest dimension. A world built for it with
/// [`VoxelWorld::for_agent`](crate::VoxelWorld::for_agent) has voxels of that edge, so a free
/// voxel is a place the whole agent fits, in any orientation.
///
/// # Examples
/// ```
/// use voxnav::{Agent, Media};
/// let drone = Agent::new(1.2, 1.2, 0.5).unwrap();
/// assert_eq!(drone.step(), 1.2);
/// let fish = Agent::new(0.8, 0.3, 0.4).unwrap().with_media(Media::WATER);
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
    /// An agent of the given size (length along its forward axis, width, height).
    ///
    /// # Errors
    /// [`WorldError::InvalidAgentSize`] if a size is zero, negative, NaN or infinite.
    pub fn new(length: f32, width: f32, height: f32) -> Result<Self, WorldError> {
        for (name, value) in [("length", length), ("width", width), ("height", height)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(WorldError::InvalidAgentSize { name, value });
            }
        }
        Ok(Self { length, width, height, media: Media::default() })
    }

    /// The same agent, allowed to move through `media` (see [`Media`]).
    #[must_use]
    pub fn with_media(mut self, media: Media) -> Self {
        self.media = media;
        self
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
        let max = crate::SearchConfig::MAX_CLEARANCE;
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
        Ok(Agent::new(spec.length, spec.width, spec.height)?.with_media(spec.media))
    }
}
