//! The draw framebuffer: which one is bound, its attachments, and its draw-buffer mapping.

use bevy_ecs::world::World;
use tessera_components::gl::*;
use tessera_components::object::{AttachmentGl, Framebuffer, Renderbuffer, Texture};
use tessera_components::state::GlState;
use tessera_wire::handle::SurfaceHandle;
use tessera_wire::record::{DRAW_BUFFER_NONE, FramebufferRef, Record};
use tessera_wire::state::{
    Attachment, DefaultGeometry, FramebufferState, LAYERED, MAX_DRAW_BUFFERS,
};

use crate::emitted::{EmittedState, changed};
use crate::emitter::Emitter;

/// The wire form of one attachment.
pub fn attachment(world: &World, a: &AttachmentGl) -> Attachment {
    match *a {
        AttachmentGl::None => Attachment::None,
        AttachmentGl::Texture {
            texture,
            level,
            layer,
            cube_face,
            layered,
        } => {
            let Some(t) = world.get::<Texture>(texture) else {
                return Attachment::None;
            };
            let layer = if layered {
                LAYERED
            } else if cube_face != 0 {
                cube_face - TEXTURE_CUBE_MAP_POSITIVE_X
            } else {
                layer.max(0) as u32
            };
            Attachment::Texture {
                texture: t.handle,
                level: level.clamp(0, 255) as u8,
                layer,
            }
        }
        AttachmentGl::Renderbuffer(rb) => match world.get::<Renderbuffer>(rb) {
            Some(r) => Attachment::Renderbuffer(r.handle),
            None => Attachment::None,
        },
    }
}

/// The wire form of a framebuffer's attachments.
pub fn framebuffer_state(world: &World, fb: &Framebuffer) -> FramebufferState {
    let mut state = FramebufferState::default();
    for (out, a) in state.colors.iter_mut().zip(&fb.attachments) {
        *out = attachment(world, a);
    }
    state.depth = attachment(world, &fb.attachments[MAX_DRAW_BUFFERS]);
    state.stencil = attachment(world, &fb.attachments[MAX_DRAW_BUFFERS + 1]);
    let d = fb.defaults;
    state.defaults = DefaultGeometry {
        width: d.width,
        height: d.height,
        layers: d.layers,
        samples: d.allocated_samples.min(u32::from(u8::MAX)) as u8,
    };
    state
}

/// The record form of the bound draw framebuffer, sending its attachments first if the
/// backend has an older version of them.
pub fn sync_framebuffer(
    st: &GlState,
    surface: Option<SurfaceHandle>,
    world: &mut World,
    dev: &mut Emitter,
) -> FramebufferRef {
    match st.draw_framebuffer {
        None => surface.map_or(FramebufferRef::None, FramebufferRef::Surface),
        Some(entity) => sync_object(entity, world, dev),
    }
}

/// Sends a framebuffer object's attachments if the backend's are out of date; returns its
/// reference.
pub fn sync_object(
    entity: bevy_ecs::entity::Entity,
    world: &mut World,
    dev: &mut Emitter,
) -> FramebufferRef {
    let Some(fb) = world.get::<Framebuffer>(entity) else {
        return FramebufferRef::None;
    };
    let handle = fb.handle;
    if fb.synced != Some(fb.generation) {
        let generation = fb.generation;
        let state = framebuffer_state(world, fb);
        dev.push(Record::SetFramebufferState {
            framebuffer: handle,
            state: Box::new(state),
        });
        if let Some(mut fb) = world.get_mut::<Framebuffer>(entity) {
            fb.synced = Some(generation);
        }
    }
    FramebufferRef::Object(handle)
}

/// Emits `BindFramebuffer` if the backend's draw framebuffer differs.
pub fn emit_framebuffer(
    st: &GlState,
    surface: Option<SurfaceHandle>,
    world: &mut World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let framebuffer = sync_framebuffer(st, surface, world, dev);
    if changed(&mut shadow.framebuffer, framebuffer) {
        dev.push(Record::BindFramebuffer { framebuffer });
    }
}

/// The draw-buffer mapping of the bound draw framebuffer.
pub fn draw_buffers(st: &GlState, world: &World) -> [u8; MAX_DRAW_BUFFERS] {
    let mut map = [DRAW_BUFFER_NONE; MAX_DRAW_BUFFERS];
    match st.draw_framebuffer {
        None => {
            if st.default_draw_buffer != NONE {
                map[0] = 0;
            }
        }
        Some(e) => {
            if let Some(fb) = world.get::<Framebuffer>(e) {
                for (out, &db) in map.iter_mut().zip(&fb.draw_buffers) {
                    if (COLOR_ATTACHMENT0..COLOR_ATTACHMENT0 + MAX_DRAW_BUFFERS as u32)
                        .contains(&db)
                    {
                        *out = (db - COLOR_ATTACHMENT0) as u8;
                    }
                }
            }
        }
    }
    map
}

/// Emits `SetDrawBuffers` if the backend's mapping differs.
pub fn emit_draw_buffers(
    st: &GlState,
    world: &World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let buffers = draw_buffers(st, world);
    if changed(&mut shadow.draw_buffers, buffers) {
        dev.push(Record::SetDrawBuffers { buffers });
    }
}
