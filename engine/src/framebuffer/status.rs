//! Framebuffer completeness (GL 3.3 §4.4.4, without the draw and read buffer conditions that
//! GL 4.1 dropped; see [`object_status`]).
//!
//! Completeness is computed from the attachments each time it is asked for: it depends on
//! attached images that other calls (texture image definition, renderbuffer storage) can
//! change behind the framebuffer's back, and the draw path already caches its outcome behind
//! `Dirty::DRAW_CHECK`. Checks run in the order the specification lists the conditions, so a
//! framebuffer that fails several reports the first.

use bevy_ecs::world::World;
use tessera_components::gl::*;
use tessera_components::object::{
    AttachmentGl, DEPTH_ATTACHMENT_INDEX, Framebuffer, MAX_LEVELS, Renderbuffer,
    STENCIL_ATTACHMENT_INDEX, Texture,
};
use tessera_components::state::TextureTarget;
use tessera_wire::format::Format;
use tessera_wire::state::MAX_DRAW_BUFFERS;

/// What an attachment point refers to, resolved to the image it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AttachedImage {
    /// The storage format; `None` when the level or renderbuffer has no image.
    pub format: Option<Format>,
    /// Width of the image (0 without one).
    pub width: i32,
    /// Height of the image.
    pub height: i32,
    /// Samples (0: single-sampled).
    pub samples: i32,
    /// `TEXTURE_FIXED_SAMPLE_LOCATIONS` (true for renderbuffers and non-multisample images).
    pub fixed_sample_locations: bool,
    /// A texture image, not a renderbuffer.
    pub texture: bool,
    /// The texture's target (textures only).
    pub target: Option<TextureTarget>,
    /// `FRAMEBUFFER_ATTACHMENT_LAYERED`.
    pub layered: bool,
    /// Whether the attached layer or slice lies inside the image.
    pub layer_in_range: bool,
}

impl AttachedImage {
    /// Whether the image exists with a non-zero size (GL 3.3 §4.4.4.1, first condition).
    pub fn has_storage(&self) -> bool {
        self.format.is_some() && self.width > 0 && self.height > 0
    }
}

/// The cube face index (0..6) of an attachment's face enum (0 for non-cube attachments).
pub(crate) fn face_index(cube_face: GLenum) -> usize {
    if (TEXTURE_CUBE_MAP_POSITIVE_X..=TEXTURE_CUBE_MAP_NEGATIVE_Z).contains(&cube_face) {
        (cube_face - TEXTURE_CUBE_MAP_POSITIVE_X) as usize
    } else {
        0
    }
}

/// Resolves an attachment point; `None` when nothing is attached.
pub(crate) fn attached_image(world: &World, a: &AttachmentGl) -> Option<AttachedImage> {
    match *a {
        AttachmentGl::None => None,
        AttachmentGl::Renderbuffer(e) => {
            let rb = world.get::<Renderbuffer>(e)?;
            Some(AttachedImage {
                format: rb.format,
                width: rb.width,
                height: rb.height,
                samples: rb.samples,
                fixed_sample_locations: true,
                texture: false,
                target: None,
                layered: false,
                layer_in_range: true,
            })
        }
        AttachmentGl::Texture {
            texture,
            level,
            layer,
            cube_face,
            layered,
        } => {
            let t = world.get::<Texture>(texture)?;
            let image = usize::try_from(level)
                .ok()
                .filter(|l| *l < MAX_LEVELS)
                .map(|l| t.images[face_index(cube_face)][l])
                .unwrap_or_default();
            let has_layers = matches!(
                t.target,
                Some(
                    TextureTarget::D3
                        | TextureTarget::D1Array
                        | TextureTarget::D2Array
                        | TextureTarget::D2MultisampleArray
                        | TextureTarget::CubeArray
                )
            );
            let layers = if t.target == Some(TextureTarget::D1Array) {
                image.height
            } else {
                image.depth
            };
            let layer_in_range = layered || !has_layers || (0..layers).contains(&layer);
            let multisample = matches!(
                t.target,
                Some(TextureTarget::D2Multisample | TextureTarget::D2MultisampleArray)
            );
            Some(AttachedImage {
                format: if image.internal_format == 0 {
                    None
                } else {
                    image.format
                },
                width: image.width,
                // A 1D image is one row (a 1D array keeps its layers in `height`).
                height: if matches!(t.target, Some(TextureTarget::D1 | TextureTarget::D1Array)) {
                    1
                } else {
                    image.height
                },
                samples: if multisample { image.samples } else { 0 },
                fixed_sample_locations: !multisample || image.fixed_sample_locations,
                texture: true,
                target: t.target,
                layered,
                layer_in_range,
            })
        }
    }
}

/// Whether an image may be attached at attachment index `index` (colour 0..8, depth,
/// stencil) as far as its format goes.
fn format_fits(index: usize, format: Format) -> bool {
    let info = format.info();
    match index {
        DEPTH_ATTACHMENT_INDEX => info.depth_bits > 0,
        STENCIL_ATTACHMENT_INDEX => info.stencil_bits > 0,
        _ => format.is_color() && info.color_renderable && !info.compressed,
    }
}

/// `check_framebuffer_status` of a framebuffer object.
pub(crate) fn object_status(world: &World, fb: &Framebuffer) -> GLenum {
    let images = fb.attachments.map(|a| attached_image(world, &a));

    // Attachment completeness (§4.4.4.1): a real image, of a fitting format, with the
    // attached layer inside it.
    for (index, image) in images.iter().enumerate() {
        let Some(image) = image else { continue };
        let complete = image.has_storage()
            && image.layer_in_range
            && image.format.is_some_and(|f| format_fits(index, f));
        if !complete {
            return FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
        }
    }
    if images.iter().all(Option::is_none) {
        // GL 4.3 §9.4.2 (ARB_framebuffer_no_attachments): without attachments, a framebuffer
        // is complete when its default width and height are not zero.
        let d = fb.defaults;
        return if d.width != 0 && d.height != 0 {
            FRAMEBUFFER_COMPLETE
        } else {
            FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
        };
    }

    // GL 3.3 §4.4.4.2 also lists FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER (a draw buffer naming an
    // attachment point without an image) and FRAMEBUFFER_INCOMPLETE_READ_BUFFER. GL 4.1
    // dropped both, and Mesa, NVIDIA and AMD apply neither in any context (Mesa skips them
    // wherever ARB_ES2_compatibility is exposed, which includes llvmpipe's 3.3 core
    // context): a depth-only framebuffer with the default draw and read buffers is complete.
    // Such buffers mean what GL 4.1 says at the verbs instead: a draw buffer without an
    // image discards what is written to it, and reading a read buffer without an image is
    // INVALID_OPERATION (`Local::read_image`).

    // Tessera's implementation-dependent restriction: depth and stencil, when both are
    // attached, are one packed image (the layout every backend supports).
    let depth = &fb.attachments[DEPTH_ATTACHMENT_INDEX];
    let stencil = &fb.attachments[STENCIL_ATTACHMENT_INDEX];
    if *depth != AttachmentGl::None && *stencil != AttachmentGl::None && depth != stencil {
        return FRAMEBUFFER_UNSUPPORTED;
    }

    if !samples_agree(&images) {
        return FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
    }
    if !layers_agree(&images) {
        return FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS;
    }
    FRAMEBUFFER_COMPLETE
}

/// The multisample conditions of §4.4.4.2: one sample count for all renderbuffers, one
/// for all textures and one fixed-sample-locations setting; a mix of the two needs equal
/// counts and fixed locations.
fn samples_agree(images: &[Option<AttachedImage>]) -> bool {
    let mut rb_samples = None;
    let mut tex_samples = None;
    let mut tex_fixed = None;
    for image in images.iter().flatten() {
        if image.texture {
            if *tex_samples.get_or_insert(image.samples) != image.samples
                || *tex_fixed.get_or_insert(image.fixed_sample_locations)
                    != image.fixed_sample_locations
            {
                return false;
            }
        } else if *rb_samples.get_or_insert(image.samples) != image.samples {
            return false;
        }
    }
    match (rb_samples, tex_samples) {
        (Some(rb), Some(tex)) => rb == tex && tex_fixed == Some(true),
        _ => true,
    }
}

/// The layering conditions of §4.4.4.2: if any attachment is layered all are, and the
/// layered colour attachments are textures of one target.
fn layers_agree(images: &[Option<AttachedImage>]) -> bool {
    let populated = || images.iter().flatten();
    if !populated().any(|i| i.layered) {
        return true;
    }
    if !populated().all(|i| i.layered) {
        return false;
    }
    let mut color_target = None;
    images[..MAX_DRAW_BUFFERS]
        .iter()
        .flatten()
        .all(|i| *color_target.get_or_insert(i.target) == i.target)
}

/// The samples of a complete framebuffer object's images (all agree, §4.4.4.2); `None`:
/// it has no attachments, and rasterizes with its `FRAMEBUFFER_DEFAULT_SAMPLES`.
pub(crate) fn object_samples(world: &World, fb: &Framebuffer) -> Option<i32> {
    fb.attachments
        .iter()
        .find_map(|a| attached_image(world, a))
        .map(|i| i.samples)
}
