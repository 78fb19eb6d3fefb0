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

    /// Where this agent may move, and at what price.
    #[must_use]
    #[inline]
    pub fn media(&self) -> Media {
        self.media
    }
}
