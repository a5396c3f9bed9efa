//! # A texture's images, by level and face
//!
//! GL defines a texture one image at a time (`DefineTextureImage` per mip level, and per face
//! of a cube map). Each backend keeps what every definition said in a [`LevelImages`], with
//! the same bounds: faces below [`FACES`], levels below the backend's own maximum.

use crate::SessionError;
use crate::backend::bad_value;
use crate::format::Format;

/// Faces of a cube map (other kinds use face 0).
pub const FACES: usize = 6;

/// What one definition said about its image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    /// The image's format.
    pub format: Format,
    /// Width, height, and depth or layers.
    pub size: [u32; 3],
    /// Samples per texel, as the definition gave them.
    pub samples: u8,
}

/// The defined images of one texture, by (level, face).
#[derive(Clone, Debug, Default)]
pub struct LevelImages {
    /// Entry `level * FACES + face`.
    images: Vec<Option<ImageDesc>>,
}

impl LevelImages {
    /// Checks the (level, face) of a definition for `record`: `BadValue` unless the level is
    /// below `max_levels` and the face below [`FACES`].
    pub fn check(
        record: &'static str,
        level: u8,
        face: u8,
        max_levels: usize,
    ) -> Result<(), SessionError> {
        if usize::from(level) >= max_levels || usize::from(face) >= FACES {
            return Err(bad_value(
                record,
                format!("level {level} face {face} out of range"),
            ));
        }
        Ok(())
    }

    /// The image at (level, face), if defined.
    pub fn get(&self, level: usize, face: usize) -> Option<ImageDesc> {
        self.images.get(level * FACES + face).copied().flatten()
    }

    /// Records the image at (level, face) (checked by [`LevelImages::check`]).
    pub fn set(&mut self, level: usize, face: usize, image: ImageDesc) {
        let index = level * FACES + face;
        if self.images.len() <= index {
            self.images.resize(index + 1, None);
        }
        self.images[index] = Some(image);
    }
}
