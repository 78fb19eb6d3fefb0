//! The fly-through's promises, at a small size.
