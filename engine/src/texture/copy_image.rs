//! `glCopyImageSubData` (GL 4.3, `ARB_copy_image`): texels copied bit for bit between images
//! of textures and renderbuffers whose formats are compatible, emitted as one `CopyImage`
//! record (the Vulkan backend copies with `vkCmdCopyImage` outside render passes, the GLES
//! backend calls the driver's `glCopyImageSubData`).
//!
//! Errors are decided in Mesa's order (`copyimage.c`), the source before the destination:
//! a target that is not a texture target or `RENDERBUFFER` `INVALID_ENUM`; a name that is
//! no object `INVALID_VALUE` (a renderbuffer or texture name generated but never bound
//! `INVALID_OPERATION`); a texture whose base level is incomplete, or whose mipmap chain is
//! incomplete for a level other than 0 or under a mipmapped minification filter,
//! `INVALID_OPERATION`; a target other than the
//! texture's `INVALID_ENUM`; a level with no image (any but 0 for a renderbuffer)
//! `INVALID_VALUE`; an origin off the compressed block grid, a negative size or origin, or
//! a region past either image `INVALID_VALUE`; formats that are not compatible ([`compatible`])
//! or sample counts that differ `INVALID_OPERATION`. A zero size copies nothing.

use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Renderbuffer, SamplerParams, Texture};
use tessera_components::state::TextureTarget;
use tessera_systems::texture::is_complete;
use tessera_wire::record::{ImageCopy, ImageCopyEnd, ImageObject, Record};

use crate::context::{Context, GlResult};
use crate::share::Shared;

/// The view class of an internal format (GL 4.5 table 8.22): formats of one class may view
/// and copy each other's texels. `None`: the format is compatible with itself only.
pub(crate) fn view_class(internal: GLenum) -> Option<u8> {
    Some(match internal {
        RGBA32F | RGBA32UI | RGBA32I => 128,
        RGB32F | RGB32UI | RGB32I => 96,
        RGBA16F | RG32F | RGBA16UI | RG32UI | RGBA16I | RG32I | RGBA16 | RGBA16_SNORM => 64,
        RGB16 | RGB16_SNORM | RGB16F | RGB16UI | RGB16I => 48,
        RG16F | R11F_G11F_B10F | R32F | RGB10_A2UI | RGBA8UI | RG16UI | R32UI | RGBA8I | RG16I
        | R32I | RGB10_A2 | RGBA8 | RG16 | RGBA8_SNORM | RG16_SNORM | SRGB8_ALPHA8 | RGB9_E5 => 32,
        RGB8 | RGB8_SNORM | SRGB8 | RGB8UI | RGB8I => 24,
        R16F | RG8UI | R16UI | RG8I | R16I | RG8 | R16 | RG8_SNORM | R16_SNORM => 16,
        R8UI | R8I | R8 | R8_SNORM => 8,
        COMPRESSED_RED_RGTC1 | COMPRESSED_SIGNED_RED_RGTC1 => 1,
        COMPRESSED_RG_RGTC2 | COMPRESSED_SIGNED_RG_RGTC2 => 2,
        COMPRESSED_RGBA_BPTC_UNORM | COMPRESSED_SRGB_ALPHA_BPTC_UNORM => 3,
        COMPRESSED_RGB_BPTC_SIGNED_FLOAT | COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT => 4,
        _ => return None,
    })
}

/// Whether `glCopyImageSubData` copies between the two internal formats: the same format,
/// formats of one view class, or a compressed format and an uncompressed one whose texel is
/// as large as its block (GL 4.5 table 18.4: RGTC1 and the 64-bit class, RGTC2 and the
/// BPTC formats and the 128-bit class).
pub(crate) fn compatible(a: GLenum, b: GLenum) -> bool {
    if a == b {
        return true;
    }
    match (view_class(a), view_class(b)) {
        (Some(x), Some(y)) if x == y => true,
        (Some(1), Some(64)) | (Some(64), Some(1)) => true,
        (Some(2..=4), Some(128)) | (Some(128), Some(2..=4)) => true,
        _ => false,
    }
}

/// The texel block of a format (4 x 4 for RGTC and BPTC, 1 x 1 otherwise).
fn block(internal: GLenum) -> i32 {
    if matches!(view_class(internal), Some(1..=4)) {
        4
    } else {
        1
    }
}

/// One end of a copy, once validated.
struct End {
    object: ImageObject,
    internal: GLenum,
    samples: i32,
    /// Width, height and depth as the region check sees them (layers, faces or slices).
    size: [i32; 3],
}

/// A GL image of a copy: its name, target, level and origin.
#[derive(Clone, Copy)]
struct Spec {
    name: GLuint,
    target: GLenum,
    level: GLint,
    origin: [GLint; 3],
}

impl Context {
    /// `glCopyImageSubData`.
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn copy_image_sub_data(
        &mut self,
        src_name: GLuint,
        src_target: GLenum,
        src_level: GLint,
        src_x: GLint,
        src_y: GLint,
        src_z: GLint,
        dst_name: GLuint,
        dst_target: GLenum,
        dst_level: GLint,
        dst_x: GLint,
        dst_y: GLint,
        dst_z: GLint,
        src_width: GLsizei,
        src_height: GLsizei,
        src_depth: GLsizei,
    ) {
        let src = Spec {
            name: src_name,
            target: src_target,
            level: src_level,
            origin: [src_x, src_y, src_z],
        };
        let dst = Spec {
            name: dst_name,
            target: dst_target,
            level: dst_level,
            origin: [dst_x, dst_y, dst_z],
        };
        let size = [src_width, src_height, src_depth];
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = copy_image_locked(&mut sh, src, dst, size) {
            self.error(err);
        }
    }
}

fn copy_image_locked(sh: &mut Shared, src: Spec, dst: Spec, size: [GLsizei; 3]) -> GlResult {
    let s = prepare(sh, src)?;
    let d = prepare(sh, dst)?;
    let (sb, db) = (block(s.internal), block(d.internal));
    let aligned = |spec: &Spec, b: i32| spec.origin[0] % b == 0 && spec.origin[1] % b == 0;
    if !aligned(&src, sb) || !aligned(&dst, db) {
        return Err(INVALID_VALUE);
    }
    let [w, h, depth] = size;
    let dst_size = [w * db / sb, h * db / sb, depth];
    check_bounds(&s, src.origin, size)?;
    check_bounds(&d, dst.origin, dst_size)?;
    if !compatible(s.internal, d.internal) {
        return Err(INVALID_OPERATION);
    }
    if s.samples != d.samples {
        return Err(INVALID_OPERATION);
    }
    if w == 0 || h == 0 || depth == 0 {
        return Ok(());
    }
    let end = |e: &End, spec: &Spec| ImageCopyEnd {
        object: e.object,
        level: spec.level as u8,
        origin: spec.origin.map(|v| v as u32),
    };
    let copy = ImageCopy {
        src: end(&s, &src),
        dst: end(&d, &dst),
        size: size.map(|v| v as u32),
    };
    sh.dev.push(Record::CopyImage {
        copy: Box::new(copy),
    });
    Ok(())
}

/// Validates one end of a copy (`prepare_target_err` in Mesa).
fn prepare(sh: &Shared, spec: Spec) -> GlResult<End> {
    if spec.target == RENDERBUFFER {
        let e = match sh.names.renderbuffers.entry(spec.name) {
            NameEntry::Free => return Err(INVALID_VALUE),
            NameEntry::Reserved => return Err(INVALID_OPERATION),
            NameEntry::Object(e) => e,
        };
        let rb = sh.world.get::<Renderbuffer>(e).ok_or(INVALID_VALUE)?;
        if spec.level != 0 {
            return Err(INVALID_VALUE);
        }
        return Ok(End {
            object: ImageObject::Renderbuffer(rb.handle),
            internal: rb.internal_format,
            samples: rb.samples,
            size: [rb.width, rb.height, 1],
        });
    }
    let target = TextureTarget::from_gl(spec.target)
        .filter(|t| *t != TextureTarget::Buffer)
        .ok_or(INVALID_ENUM)?;
    let e = match sh.names.textures.entry(spec.name) {
        NameEntry::Free => return Err(INVALID_VALUE),
        NameEntry::Reserved => return Err(INVALID_OPERATION),
        NameEntry::Object(e) => e,
    };
    let t = sh.world.get::<Texture>(e).ok_or(INVALID_VALUE)?;
    // Complete as Mesa's copy decides it: the base level, and the mipmap chain where the
    // texture's own minification filter uses mipmaps or the level is not 0; the rules on
    // filters of integer formats do not apply.
    let mipmapped = !matches!(t.sampler.min_filter, NEAREST | LINEAR);
    let mut params = SamplerParams::initial(t.target);
    params.mag_filter = NEAREST;
    params.min_filter = if mipmapped || spec.level != 0 {
        NEAREST_MIPMAP_NEAREST
    } else {
        NEAREST
    };
    if !is_complete(t, &params) {
        return Err(INVALID_OPERATION);
    }
    if t.target != Some(target) {
        return Err(INVALID_ENUM);
    }
    let level = usize::try_from(spec.level)
        .ok()
        .filter(|l| *l < t.images[0].len())
        .ok_or(INVALID_VALUE)?;
    let faces = if target == TextureTarget::Cube { 6 } else { 1 };
    if (0..faces).any(|f| !t.images[f][level].is_defined()) {
        return Err(INVALID_VALUE);
    }
    let img = t.images[0][level];
    let size = match target {
        TextureTarget::D1 => [img.width, 1, 1],
        TextureTarget::D1Array => [img.width, 1, img.height],
        TextureTarget::D2 | TextureTarget::Rectangle | TextureTarget::D2Multisample => {
            [img.width, img.height, 1]
        }
        TextureTarget::Cube => [img.width, img.height, 6],
        _ => [img.width, img.height, img.depth],
    };
    Ok(End {
        object: ImageObject::Texture(t.handle),
        internal: img.internal_format,
        samples: img.samples,
        size,
    })
}

/// The region of one end within its image (`check_region_bounds` in Mesa).
fn check_bounds(end: &End, origin: [GLint; 3], size: [GLsizei; 3]) -> GlResult {
    if size.iter().any(|v| *v < 0) || origin.iter().any(|v| *v < 0) {
        return Err(INVALID_VALUE);
    }
    for axis in 0..3 {
        if i64::from(origin[axis]) + i64::from(size[axis]) > i64::from(end.size[axis]) {
            return Err(INVALID_VALUE);
        }
    }
    Ok(())
}
