//! `glReadPixels`, and the read format the implementation prefers.
//!
//! The backend always writes tightly packed rows; the pack state is applied here. Into
//! client memory that is [`pack`] over the reply. Into a `PIXEL_PACK_BUFFER` (which the
//! client never sees) a tightly packed layout is one record at the offset, and any other
//! layout one record per row at that row's offset, so row length, skips and alignment hold
//! without a staging copy. `PACK_SWAP_BYTES` cannot be honoured for a pack buffer (the bytes
//! never pass through the client) and is ignored there.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Buffer, Framebuffer};
use tessera_components::state::BufferTarget;
use tessera_systems::conv::{map_pixel_format, map_pixel_type};
use tessera_wire::Reply;
use tessera_wire::format::{Format, FormatClass, PixelFormat, PixelLayout, PixelType};
use tessera_wire::record::{PixelDestination, ReadImage, ReadRegion, Record};
use tessera_wire::state::Rect;

use super::has_float_channels;
use crate::context::{Context, GlResult};
use crate::pixel::{PixelsMut, client_layout, pack, pixel_size};
use crate::share::Shared;

/// Whether a client format is one of the `*_INTEGER` formats.
fn is_integer_format(f: PixelFormat) -> bool {
    use PixelFormat as F;
    matches!(
        f,
        F::RedInteger
            | F::GreenInteger
            | F::BlueInteger
            | F::RgInteger
            | F::RgbInteger
            | F::BgrInteger
            | F::RgbaInteger
            | F::BgraInteger
    )
}

/// The format/type combination rules of GL 3.3 §3.7.2 (table 3.5), with Mesa's errors:
/// integer formats take no floating-point type and depth-stencil only the packed
/// depth-stencil types (`INVALID_ENUM`); a packed type needs a format with its number of
/// components (`INVALID_OPERATION`).
fn check_format_type(format: PixelFormat, ty: PixelType) -> GlResult {
    use PixelFormat as F;
    use PixelType as T;
    let integer = is_integer_format(format);
    let float_type = matches!(ty, T::F16 | T::F32 | T::U32_10f11f11fRev | T::U32_5999Rev);
    if integer && float_type {
        return Err(INVALID_ENUM);
    }
    let depth_stencil_type = matches!(ty, T::U32_248 | T::F32U32_248Rev);
    if format == F::DepthStencil && !depth_stencil_type {
        return Err(INVALID_ENUM);
    }
    let fits = match ty {
        T::U8 | T::I8 | T::U16 | T::I16 | T::U32 | T::I32 | T::F16 | T::F32 => true,
        T::U8_332 | T::U8_233Rev | T::U16_565 | T::U16_565Rev => {
            matches!(format, F::Rgb | F::RgbInteger)
        }
        T::U32_10f11f11fRev | T::U32_5999Rev => format == F::Rgb,
        T::U32_248 | T::F32U32_248Rev => format == F::DepthStencil,
        _ => matches!(format, F::Rgba | F::Bgra | F::RgbaInteger | F::BgraInteger),
    };
    if !fits {
        return Err(INVALID_OPERATION);
    }
    Ok(())
}

/// `IMPLEMENTATION_COLOR_READ_FORMAT` and `_TYPE` of a colour format: the client layout
/// that matches its storage, as Mesa reports it.
pub(crate) fn implementation_read_format(f: Format) -> (GLenum, GLenum) {
    let info = f.info();
    let channels = info.rgba_bits.iter().filter(|b| **b > 0).count();
    let integer = matches!(info.class, FormatClass::Int | FormatClass::Uint);
    let format = match (channels, integer) {
        (1, false) => RED,
        (2, false) => RG,
        (3, false) if f == Format::Rgb565 => RGB,
        (_, false) => RGBA,
        (1, true) => RED_INTEGER,
        (2, true) => RG_INTEGER,
        (_, true) => RGBA_INTEGER,
    };
    let bits = info.rgba_bits[0];
    let ty = match f {
        Format::Rgb565 => UNSIGNED_SHORT_5_6_5,
        Format::Rgb10A2 | Format::Rgb10A2Ui => UNSIGNED_INT_2_10_10_10_REV,
        Format::R11fG11fB10f => UNSIGNED_INT_10F_11F_11F_REV,
        _ if has_float_channels(f) && bits == 16 => HALF_FLOAT,
        _ if has_float_channels(f) => FLOAT,
        _ => match (info.class, bits) {
            (FormatClass::Int, 8) => BYTE,
            (FormatClass::Int, 16) => SHORT,
            (FormatClass::Int, _) => INT,
            (FormatClass::Uint, 16) => UNSIGNED_SHORT,
            (FormatClass::Uint, 32) => UNSIGNED_INT,
            (_, 16) => UNSIGNED_SHORT,
            _ => UNSIGNED_BYTE,
        },
    };
    (format, ty)
}

impl crate::context::Local {
    /// The width and height `glReadPixels` clips to: the surface's for the default
    /// framebuffer, the smallest attached image's for a framebuffer object (Mesa's
    /// framebuffer size), its default size without attachments.
    fn read_bounds(&self, sh: &Shared, fb: Option<Entity>) -> (i32, i32) {
        let Some(e) = fb else {
            return self
                .surface
                .map_or((0, 0), |s| (s.desc.width as i32, s.desc.height as i32));
        };
        let Some(f) = sh.world.get::<Framebuffer>(e) else {
            return (0, 0);
        };
        let images = f
            .attachments
            .iter()
            .filter_map(|a| super::status::attached_image(&sh.world, a))
            .filter(|i| i.has_storage());
        images
            .map(|i| (i.width, i.height))
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1)))
            .unwrap_or((f.defaults.width as i32, f.defaults.height as i32))
    }
}

impl Context {
    /// `glReadPixels`. `pixels` is client memory when no `PIXEL_PACK_BUFFER` is bound and an
    /// offset into it when one is; the other pairing is `INVALID_OPERATION` (GL would read
    /// the pointer as the other kind, which a Rust caller cannot mean). Client memory
    /// smaller than the pack layout of the rectangle clipped to the read framebuffer needs
    /// is `INVALID_OPERATION`, as for `glReadnPixels` (`crate::robustness`).
    #[expect(clippy::too_many_arguments, reason = "mirrors glReadPixels")]
    pub fn read_pixels(
        &mut self,
        x: GLint,
        y: GLint,
        width: GLsizei,
        height: GLsizei,
        format: GLenum,
        ty: GLenum,
        pixels: PixelsMut<'_>,
    ) {
        puffin::profile_scope!("read_pixels");
        if width < 0 || height < 0 {
            return self.error(INVALID_VALUE);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let read_fb = self.local.st.read_framebuffer;
        if self.local.framebuffer_status(&sh, read_fb) != FRAMEBUFFER_COMPLETE {
            return self.error(INVALID_FRAMEBUFFER_OPERATION);
        }
        if read_fb.is_some() && self.local.framebuffer_samples(&sh, read_fb) > 0 {
            return self.error(INVALID_OPERATION);
        }
        let (Some(pf), Some(pt)) = (map_pixel_format(format), map_pixel_type(ty)) else {
            return self.error(INVALID_ENUM);
        };
        if let Err(e) = check_format_type(pf, pt) {
            return self.error(e);
        }
        let which = match pf {
            PixelFormat::DepthComponent => ReadImage::Depth,
            PixelFormat::StencilIndex => ReadImage::Stencil,
            PixelFormat::DepthStencil => ReadImage::DepthStencil,
            _ => ReadImage::Color(0),
        };
        let source = match which {
            ReadImage::Color(_) => self.local.read_source(&mut sh),
            _ => self.local.read_image(&mut sh, which),
        };
        let (src, source_format) = match source {
            Ok(v) => v,
            Err(e) => return self.error(e),
        };
        if matches!(which, ReadImage::Color(_)) {
            let integer_buffer = matches!(
                source_format.info().class,
                FormatClass::Int | FormatClass::Uint
            );
            if integer_buffer != is_integer_format(pf) {
                return self.error(INVALID_OPERATION);
            }
        }
        let size = pixel_size(pf, pt);
        let store = self.local.st.pack;
        let (w, h) = (width as usize, height as usize);
        let layout = client_layout(&store, size, w, h, 1);
        // Mesa clips the rectangle to the read framebuffer before it checks the destination,
        // and checks the clipped width and height under the unclipped pack state: a
        // rectangle wholly outside reads nothing and raises nothing.
        let bounds = self.local.read_bounds(&sh, read_fb);
        let clip = |at: i32, len: i32, end: i32| {
            let lo = i64::from(at).max(0);
            let hi = (i64::from(at) + i64::from(len)).min(i64::from(end));
            (hi - lo).max(0) as usize
        };
        let (cw, ch) = (clip(x, width, bounds.0), clip(y, height, bounds.1));
        if cw == 0 || ch == 0 {
            return;
        }
        let needed = client_layout(&store, size, cw, ch, 1).end;
        let pack_buffer = self.bound_buffer(&sh, BufferTarget::PixelPack);
        let wire_layout = PixelLayout { format: pf, ty: pt };
        match (pack_buffer, pixels) {
            (Some(e), PixelsMut::Offset(offset)) => {
                let Some(b) = sh.world.get::<Buffer>(e) else {
                    return self.error(INVALID_OPERATION);
                };
                let fits = offset
                    .checked_add(needed)
                    .is_some_and(|end| end as u64 <= b.size.max(0) as u64);
                // GL 3.3 §4.3.2: a mapped pack buffer, an offset that is not a multiple of
                // the type's size, or a range past the end is INVALID_OPERATION.
                if b.mapped_exclusively() || offset % size.element != 0 || !fits {
                    return self.error(INVALID_OPERATION);
                }
                let buffer = b.handle;
                let base = (offset + layout.start) as u64;
                // Only the part inside the read framebuffer is written, where the whole
                // rectangle would place it (Mesa's clipped pack state): rows of the clipped
                // width, moved by the columns and rows clipped off.
                let (x0, y0) = (x.max(0), y.max(0));
                let skip = (x0 - x) as usize * size.bytes + (y0 - y) as usize * layout.row_stride;
                let first = base + skip as u64;
                let written = ((ch - 1) * layout.row_stride + cw * size.bytes) as u64;
                // Mesa checks only the clipped size from the offset and then writes past it
                // where columns or rows were clipped off the start; that is refused here.
                if first + written > b.size.max(0) as u64 {
                    return self.error(INVALID_OPERATION);
                }
                let record = |row_y: i32, at: u64, rows_high: i32| Record::ReadPixels {
                    src,
                    layout: wire_layout,
                    region: Box::new(ReadRegion {
                        rect: Rect {
                            x: x0,
                            y: row_y,
                            width: cw as i32,
                            height: rows_high,
                        },
                        dst: PixelDestination::Buffer { buffer, offset: at },
                    }),
                };
                if layout.row_stride == cw * size.bytes {
                    sh.dev.push(record(y0, first, ch as i32));
                } else {
                    for row in 0..ch {
                        let at = first + (row * layout.row_stride) as u64;
                        sh.dev.push(record(y0 + row as i32, at, 1));
                    }
                }
                // The GPU writes the pack buffer: the client copy of the range is stale.
                crate::buffer::shadow_stale(&mut sh, e, first, written);
                sh.flush_if_full();
            }
            (None, PixelsMut::Bytes(dst)) => {
                if dst.len() < needed {
                    return self.error(INVALID_OPERATION);
                }
                let reply = sh.dev.enc.mint_reply();
                sh.dev.push(Record::ReadPixels {
                    src,
                    layout: wire_layout,
                    region: Box::new(ReadRegion {
                        rect: Rect {
                            x,
                            y,
                            width,
                            height,
                        },
                        dst: PixelDestination::Reply(reply),
                    }),
                });
                if let Some(Reply::Bytes(bytes)) = sh.wait(reply)
                    && bytes.len() >= w * h * size.bytes
                {
                    if dst.len() >= layout.end {
                        pack(&store, size, w, h, 1, &bytes, dst);
                    } else {
                        // A `glReadnPixels` buffer that holds the clipped rectangle but not
                        // the whole one: what lies inside it is written, nothing past it.
                        let mut whole = vec![0; layout.end];
                        whole[..dst.len()].copy_from_slice(dst);
                        pack(&store, size, w, h, 1, &bytes, &mut whole);
                        let n = dst.len();
                        dst.copy_from_slice(&whole[..n]);
                    }
                }
            }
            _ => self.error(INVALID_OPERATION),
        }
    }
}
