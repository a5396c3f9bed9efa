//! `ClearTexture` (`glClearTexSubImage` of a multisample texture): every sample of a box of
//! one image set to a value the engine already converted to the image's format.
//!
//! ES has no texture clear, and no upload reaches a multisample image: the image (one layer
//! at a time) is attached to the scratch framebuffer, bound for drawing, and cleared with
//! `glClearBuffer*` under a scissor of the box. What a clear honours is set for it — the
//! scissor on at the box, full colour, depth and stencil write masks, rasterizer discard off
//! and, where the driver lets it be switched (`GL_EXT_sRGB_write_control`), sRGB encoding
//! off, so an sRGB image stores the value as it is, as GL's texture clear does — and the
//! native-state shadow is told which groups the context must set again (`disturbed`).

use glow::HasContext;
use tessera_wire::dispatch::{R, TextureClear};
use tessera_wire::format::FormatClass;
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::ClearValue;
use tessera_wire::state::MAX_VIEWPORTS;

use crate::command::dirty;
use crate::device::GlesPipe;
use crate::shadow::{Cap, StencilNative};

impl GlesPipe {
    /// `ClearTexture`.
    pub(crate) fn clear_texture_box(&mut self, handle: TextureHandle, c: TextureClear) -> R {
        const N: &str = "ClearTexture";
        let t = self.textures.get(N, handle)?;
        let (name, target) = (t.name, t.target);
        let Some(image) = t.image(c.at.level, c.at.face) else {
            log::warn!("tessera-backend-gles: {N} of an image that is not defined: skipped");
            return Ok(());
        };
        let ([x, y, z], [w, h, d]) = (c.region.origin, c.region.size);
        let layered =
            crate::conv::is_layered(target) || target == glow::TEXTURE_2D_MULTISAMPLE_ARRAY;
        let (first, layers) = if layered { (z, d) } else { (0, 1) };
        let [iw, ih, id] = image.size;
        let inside = x.checked_add(w).is_some_and(|v| v <= iw)
            && y.checked_add(h).is_some_and(|v| v <= ih)
            && (!layered || first.checked_add(layers).is_some_and(|v| v <= id));
        if !inside || w == 0 || h == 0 || layers == 0 {
            log::warn!("tessera-backend-gles: {N} outside its image: skipped");
            return Ok(());
        }
        let point = match image.format.info().class {
            FormatClass::Depth => glow::DEPTH_ATTACHMENT,
            FormatClass::Stencil => glow::STENCIL_ATTACHMENT,
            FormatClass::DepthStencil => glow::DEPTH_STENCIL_ATTACHMENT,
            _ => glow::COLOR_ATTACHMENT0,
        };
        let scratch = self.scratch_framebuffer()?;
        let gl = &self.gl;
        let sh = &mut self.shadow;
        sh.bind_draw_framebuffer(gl, Some(scratch));
        let rect = [x as i32, y as i32, w as i32, h as i32];
        sh.scissors(gl, &[rect; MAX_VIEWPORTS]);
        sh.enable(gl, Cap::ScissorTest, true);
        sh.enable(gl, Cap::RasterizerDiscard, false);
        if self.features.srgb_write_control {
            sh.enable(gl, Cap::FramebufferSrgb, false);
        }
        sh.color_masks(gl, u32::MAX, 1);
        sh.depth(gl, glow::ALWAYS, true);
        sh.stencil(gl, [StencilNative::default(); 2]);
        self.disturbed |= dirty::FRAMEBUFFER
            | dirty::SCISSOR
            | dirty::RASTER
            | dirty::BLEND
            | dirty::DEPTH_STENCIL;
        let level = i32::from(c.at.level);
        // SAFETY: context current; the scratch FBO is bound to DRAW_FRAMEBUFFER; its other
        // attachment points are emptied first so no stale image makes it incomplete; `name`
        // is a live texture of `target` whose image at (level, face) is defined and holds
        // the box and its layers (checked above); colour values go to draw buffer 0
        // (COLOR_ATTACHMENT0), depth and stencil values to their buffers.
        unsafe {
            for p in [glow::COLOR_ATTACHMENT0, glow::DEPTH_STENCIL_ATTACHMENT] {
                gl.framebuffer_renderbuffer(glow::DRAW_FRAMEBUFFER, p, glow::RENDERBUFFER, None);
            }
            if point == glow::COLOR_ATTACHMENT0 {
                gl.draw_buffers(&[glow::COLOR_ATTACHMENT0]);
            }
            for layer in first..first + layers {
                match target {
                    glow::TEXTURE_CUBE_MAP => gl.framebuffer_texture_2d(
                        glow::DRAW_FRAMEBUFFER,
                        point,
                        glow::TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(c.at.face),
                        Some(name),
                        level,
                    ),
                    _ if layered => gl.framebuffer_texture_layer(
                        glow::DRAW_FRAMEBUFFER,
                        point,
                        Some(name),
                        level,
                        layer as i32,
                    ),
                    _ => gl.framebuffer_texture_2d(
                        glow::DRAW_FRAMEBUFFER,
                        point,
                        target,
                        Some(name),
                        level,
                    ),
                }
                match c.value {
                    ClearValue::Float(v) => gl.clear_buffer_f32_slice(glow::COLOR, 0, &v),
                    ClearValue::Int(v) => gl.clear_buffer_i32_slice(glow::COLOR, 0, &v),
                    ClearValue::Uint(v) => gl.clear_buffer_u32_slice(glow::COLOR, 0, &v),
                    ClearValue::Depth(v) => {
                        gl.clear_buffer_f32_slice(glow::DEPTH, 0, &[v.clamp(0.0, 1.0)])
                    }
                    ClearValue::Stencil(s) => {
                        gl.clear_buffer_i32_slice(glow::STENCIL, 0, &[i32::from(s)])
                    }
                    ClearValue::DepthStencil(v, s) => gl.clear_buffer_depth_stencil(
                        glow::DEPTH_STENCIL,
                        0,
                        v.clamp(0.0, 1.0),
                        i32::from(s),
                    ),
                }
            }
            gl.framebuffer_renderbuffer(glow::DRAW_FRAMEBUFFER, point, glow::RENDERBUFFER, None);
        }
        Ok(())
    }
}
