//! Tests: framebuffer objects, the default framebuffer, and the verbs that clear, blit and
//! read them. Expected errors and values were checked against Mesa llvmpipe where GL 3.3
//! leaves room; where GL 3.3 and Mesa 22 (a 4.5 driver) differ, the test follows 3.3 and
//! says so, except for completeness, which follows the drivers (GL 4.1 dropped 3.3's
//! draw and read buffer conditions; `native` compares with Mesa).

use tessera_engine::Context;
use tessera_engine::SurfaceConfig;
use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::wire::TransportKind;
use tessera_tests::{assert_error, assert_no_error, context, context_with, records, surfaceless};
use tessera_wire::format::{PixelFormat, PixelLayout, PixelType};
use tessera_wire::handle::{BufferHandle, FramebufferHandle, RenderbufferHandle, SurfaceHandle};
use tessera_wire::record::{
    ClearValue, DRAW_BUFFER_NONE, FramebufferRef, PixelDestination, ReadImage, ReadRegion,
    ReadSource, Record, blit_mask, clear_mask,
};
use tessera_wire::state::{Attachment, FramebufferState, MAX_DRAW_BUFFERS, Rect, Region};

// ---------------------------------------------------------------------------------------
// Helpers

/// A renderbuffer with storage (left bound).
fn rb(ctx: &mut Context, format: GLenum, w: i32, h: i32, samples: i32) -> GLuint {
    let r = ctx.gen_renderbuffer();
    ctx.bind_renderbuffer(RENDERBUFFER, r);
    ctx.renderbuffer_storage_multisample(RENDERBUFFER, samples, format, w, h);
    r
}

/// A new framebuffer object bound to both targets.
fn fbo(ctx: &mut Context) -> GLuint {
    let f = ctx.gen_framebuffer();
    ctx.bind_framebuffer(FRAMEBUFFER, f);
    f
}

/// Attaches a renderbuffer to the draw framebuffer.
fn attach(ctx: &mut Context, attachment: GLenum, r: GLuint) {
    ctx.framebuffer_renderbuffer(FRAMEBUFFER, attachment, RENDERBUFFER, r);
}

/// Attaches a renderbuffer to a framebuffer target.
fn attach_to(ctx: &mut Context, target: GLenum, attachment: GLenum, r: GLuint) {
    ctx.framebuffer_renderbuffer(target, attachment, RENDERBUFFER, r);
}

/// A complete framebuffer with one RGBA8 4 x 4 colour renderbuffer.
fn color_fbo(ctx: &mut Context) -> (GLuint, GLuint) {
    let r = rb(ctx, RGBA8, 4, 4, 0);
    let f = fbo(ctx);
    attach(ctx, COLOR_ATTACHMENT0, r);
    (f, r)
}

fn fap(ctx: &mut Context, target: GLenum, attachment: GLenum, pname: GLenum) -> GLint {
    let mut v = [-7];
    ctx.get_framebuffer_attachment_parameteriv(target, attachment, pname, &mut v);
    v[0]
}

fn status(ctx: &mut Context) -> GLenum {
    ctx.check_framebuffer_status(FRAMEBUFFER)
}

fn int(ctx: &mut Context, pname: GLenum) -> GLint {
    ctx.get_integer(pname)
}

fn blit(ctx: &mut Context, mask: GLbitfield, filter: GLenum) {
    ctx.blit_framebuffer(0, 0, 4, 4, 0, 0, 4, 4, mask, filter);
}

fn read_rgba(ctx: &mut Context, format: GLenum, ty: GLenum) {
    let mut dst = [0u8; 64];
    ctx.read_pixels(0, 0, 1, 1, format, ty, PixelsMut::Bytes(&mut dst));
}

fn created_framebuffer(recs: &[Record]) -> FramebufferHandle {
    recs.iter()
        .find_map(|r| match r {
            Record::CreateFramebuffer { framebuffer } => Some(*framebuffer),
            _ => None,
        })
        .expect("a CreateFramebuffer record")
}

fn created_renderbuffers(recs: &[Record]) -> Vec<RenderbufferHandle> {
    recs.iter()
        .filter_map(|r| match r {
            Record::CreateRenderbuffer { renderbuffer } => Some(*renderbuffer),
            _ => None,
        })
        .collect()
}

fn created_surface(recs: &[Record]) -> SurfaceHandle {
    recs.iter()
        .find_map(|r| match r {
            Record::CreateSurface { surface, .. } => Some(*surface),
            _ => None,
        })
        .expect("a CreateSurface record")
}

fn count(recs: &[Record], pred: impl Fn(&Record) -> bool) -> usize {
    recs.iter().filter(|r| pred(r)).count()
}

fn no_depth_surface() -> Context {
    let surface = SurfaceConfig {
        depth_stencil: false,
        ..SurfaceConfig::new(64, 64)
    };
    context_with(TransportKind::Inproc, Some(surface))
}

mod attach;
mod integer_clear;
mod native;
mod srgb;
mod verbs;

// ---------------------------------------------------------------------------------------
// Initial values and names

#[test]
fn default_framebuffer_of_a_surface_answers_as_back_left() {
    let mut ctx = context();
    assert_eq!(int(&mut ctx, DRAW_BUFFER), BACK as GLint);
    assert_eq!(int(&mut ctx, DRAW_BUFFER0), BACK as GLint);
    assert_eq!(int(&mut ctx, DRAW_BUFFER1), NONE as GLint);
    assert_eq!(int(&mut ctx, DRAW_BUFFER7), NONE as GLint);
    assert_eq!(int(&mut ctx, READ_BUFFER), BACK as GLint);
    assert_eq!(int(&mut ctx, DRAW_FRAMEBUFFER_BINDING), 0);
    assert_eq!(int(&mut ctx, READ_FRAMEBUFFER_BINDING), 0);
    assert_eq!(int(&mut ctx, SAMPLE_BUFFERS), 0);
    assert_eq!(int(&mut ctx, SAMPLES), 0);
    assert_eq!(
        int(&mut ctx, IMPLEMENTATION_COLOR_READ_FORMAT),
        RGBA as GLint
    );
    assert_eq!(
        int(&mut ctx, IMPLEMENTATION_COLOR_READ_TYPE),
        UNSIGNED_BYTE as GLint
    );
    assert_no_error!(ctx);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    assert_eq!(
        ctx.check_framebuffer_status(READ_FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    // MAX_DRAW_BUFFERS is 8, so DRAW_BUFFER8 names no state.
    int(&mut ctx, DRAW_BUFFER8);
    assert_error!(ctx, INVALID_ENUM);
}

#[test]
fn surfaceless_default_framebuffer_is_undefined() {
    let mut ctx = surfaceless();
    assert_eq!(int(&mut ctx, DRAW_BUFFER0), NONE as GLint);
    assert_eq!(int(&mut ctx, READ_BUFFER), NONE as GLint);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_UNDEFINED);
    assert_eq!(
        ctx.check_framebuffer_status(DRAW_FRAMEBUFFER),
        FRAMEBUFFER_UNDEFINED
    );
    ctx.clear(COLOR_BUFFER_BIT);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
    ctx.clear_bufferfv(COLOR, 0, &[0.0; 4]);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
    blit(&mut ctx, COLOR_BUFFER_BIT, NEAREST);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
    read_rgba(&mut ctx, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
    // Every default buffer name is valid and names nothing.
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            BACK_LEFT,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        0
    );
    assert_no_error!(ctx);
}

#[test]
fn framebuffer_object_initial_state() {
    let mut ctx = context();
    let f = ctx.gen_framebuffer();
    assert_eq!(ctx.is_framebuffer(f), 0, "no object before the first bind");
    ctx.bind_framebuffer(READ_FRAMEBUFFER, f);
    assert_eq!(ctx.is_framebuffer(f), 1);
    assert_eq!(int(&mut ctx, READ_FRAMEBUFFER_BINDING), f as GLint);
    assert_eq!(int(&mut ctx, DRAW_FRAMEBUFFER_BINDING), 0);
    assert_eq!(int(&mut ctx, READ_BUFFER), COLOR_ATTACHMENT0 as GLint);
    ctx.bind_framebuffer(DRAW_FRAMEBUFFER, f);
    assert_eq!(int(&mut ctx, DRAW_BUFFER0), COLOR_ATTACHMENT0 as GLint);
    assert_eq!(int(&mut ctx, DRAW_BUFFER), COLOR_ATTACHMENT0 as GLint);
    assert_eq!(int(&mut ctx, DRAW_BUFFER1), NONE as GLint);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
    assert_no_error!(ctx);
}

#[test]
fn name_and_binding_errors() {
    let mut ctx = context();
    let mut names = [0; 2];
    ctx.gen_framebuffers(-1, &mut names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.delete_framebuffers(-1, &names);
    assert_error!(ctx, INVALID_VALUE);
    ctx.gen_framebuffers(2, &mut names);
    ctx.bind_framebuffer(RENDERBUFFER, names[0]);
    assert_error!(ctx, INVALID_ENUM);
    ctx.bind_framebuffer(FRAMEBUFFER, 777);
    assert_error!(ctx, INVALID_OPERATION, "a name never generated");
    assert_eq!(ctx.check_framebuffer_status(TEXTURE_2D), 0);
    assert_error!(ctx, INVALID_ENUM);
    ctx.bind_framebuffer(FRAMEBUFFER, names[1]);
    assert_no_error!(ctx);
}

#[test]
fn deleting_a_bound_framebuffer_reverts_to_the_default() {
    let mut ctx = context();
    let (f, _) = color_fbo(&mut ctx);
    records(&mut ctx);
    ctx.delete_framebuffers(1, &[f]);
    assert_no_error!(ctx);
    assert_eq!(int(&mut ctx, DRAW_FRAMEBUFFER_BINDING), 0);
    assert_eq!(int(&mut ctx, READ_FRAMEBUFFER_BINDING), 0);
    assert_eq!(ctx.is_framebuffer(f), 0);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    ctx.clear(COLOR_BUFFER_BIT);
    let recs = records(&mut ctx);
    assert_eq!(
        count(&recs, |r| matches!(r, Record::DestroyFramebuffer { .. })),
        1
    );
    let surface = ctx.surface().expect("a surface").handle;
    assert!(recs.contains(&Record::BindFramebuffer {
        framebuffer: FramebufferRef::Surface(surface)
    }));
    // The renderbuffer is still named: only the framebuffer died.
    assert_eq!(
        count(&recs, |r| matches!(r, Record::DestroyRenderbuffer { .. })),
        0
    );
}
// ---------------------------------------------------------------------------------------
// Completeness: every reason

#[test]
fn incomplete_attachment_reasons() {
    let mut ctx = context();
    fbo(&mut ctx);
    // A renderbuffer without storage.
    let empty = ctx.gen_renderbuffer();
    ctx.bind_renderbuffer(RENDERBUFFER, empty);
    attach(&mut ctx, COLOR_ATTACHMENT0, empty);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    // Zero-sized storage.
    let zero = rb(&mut ctx, RGBA8, 0, 0, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, zero);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    // A depth format at a colour point.
    let depth = rb(&mut ctx, DEPTH_COMPONENT24, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, depth);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    // A colour format at the depth point.
    let color = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, color);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    attach(&mut ctx, DEPTH_ATTACHMENT, color);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    // A depth-only format at the stencil point.
    attach(&mut ctx, DEPTH_ATTACHMENT, 0);
    attach(&mut ctx, STENCIL_ATTACHMENT, depth);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    // Giving the empty renderbuffer storage completes a framebuffer using it.
    attach(&mut ctx, STENCIL_ATTACHMENT, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, empty);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    ctx.bind_renderbuffer(RENDERBUFFER, empty);
    ctx.renderbuffer_storage(RENDERBUFFER, RGBA8, 2, 2);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    assert_no_error!(ctx);
}

#[test]
fn draw_and_read_buffers_without_images_leave_a_framebuffer_complete() {
    // GL 4.1 dropped GL 3.3's FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER and _READ_BUFFER, and Mesa
    // (whose answers `framebuffer::native` compares) applies neither in any context.
    let mut ctx = context();
    fbo(&mut ctx);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
    let depth = rb(&mut ctx, DEPTH_COMPONENT24, 4, 4, 0);
    attach(&mut ctx, DEPTH_ATTACHMENT, depth);
    // Depth only, draw and read buffers still COLOR_ATTACHMENT0.
    assert_eq!(int(&mut ctx, DRAW_BUFFER0), COLOR_ATTACHMENT0 as GLint);
    assert_eq!(int(&mut ctx, READ_BUFFER), COLOR_ATTACHMENT0 as GLint);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    ctx.clear(DEPTH_BUFFER_BIT | COLOR_BUFFER_BIT);
    assert_no_error!(ctx);
    // Reading the read buffer is what fails, at the verb.
    read_rgba(&mut ctx, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_OPERATION, "the read buffer has no image");
    read_rgba(&mut ctx, DEPTH_COMPONENT, FLOAT);
    assert_no_error!(ctx);
    let t = ctx.gen_texture();
    ctx.bind_texture(TEXTURE_2D, t);
    ctx.copy_tex_image_2d(TEXTURE_2D, 0, RGBA8, 0, 0, 2, 2, 0);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "CopyTexImage2D without a read image"
    );
    ctx.draw_buffer(NONE);
    ctx.read_buffer(NONE);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    // A draw buffer past the attached ones: complete, and clears what is there.
    let color = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, color);
    ctx.draw_buffers(2, &[COLOR_ATTACHMENT0, COLOR_ATTACHMENT1]);
    ctx.read_buffer(COLOR_ATTACHMENT1);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    records(&mut ctx);
    ctx.clear(COLOR_BUFFER_BIT);
    ctx.clear_bufferfv(COLOR, 1, &[1.0; 4]);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    assert!(
        recs.iter().any(|r| matches!(r, Record::Clear { .. })),
        "{recs:?}"
    );
    read_rgba(&mut ctx, RGBA, UNSIGNED_BYTE);
    assert_error!(ctx, INVALID_OPERATION, "read buffer 1 has no image");
    ctx.read_buffer(COLOR_ATTACHMENT0);
    read_rgba(&mut ctx, RGBA, UNSIGNED_BYTE);
    assert_no_error!(ctx);
}

#[test]
fn separate_depth_and_stencil_images_are_unsupported() {
    let mut ctx = context();
    let (_, _) = color_fbo(&mut ctx);
    let depth = rb(&mut ctx, DEPTH_COMPONENT24, 4, 4, 0);
    let stencil = rb(&mut ctx, STENCIL_INDEX8, 4, 4, 0);
    attach(&mut ctx, DEPTH_ATTACHMENT, depth);
    attach(&mut ctx, STENCIL_ATTACHMENT, stencil);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_UNSUPPORTED);
    let packed = rb(&mut ctx, DEPTH24_STENCIL8, 4, 4, 0);
    attach(&mut ctx, DEPTH_STENCIL_ATTACHMENT, packed);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    assert_no_error!(ctx);
}

#[test]
fn mixed_sample_counts_are_incomplete_multisample() {
    let mut ctx = context();
    fbo(&mut ctx);
    let ms = rb(&mut ctx, RGBA8, 4, 4, 4);
    let single = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, ms);
    attach(&mut ctx, COLOR_ATTACHMENT1, single);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
    let ms2 = rb(&mut ctx, RGBA8, 4, 4, 2);
    attach(&mut ctx, COLOR_ATTACHMENT1, ms2);
    assert_eq!(
        status(&mut ctx),
        FRAMEBUFFER_COMPLETE,
        "2 samples round up to 4"
    );
    assert_eq!(int(&mut ctx, SAMPLE_BUFFERS), 1);
    assert_eq!(int(&mut ctx, SAMPLES), 4);
    assert_no_error!(ctx);
}
// ---------------------------------------------------------------------------------------
// Records and lifetimes

#[test]
fn binding_an_object_and_clearing_emits_its_records_in_order() {
    let mut ctx = context();
    let r = rb(&mut ctx, RGBA8, 4, 4, 0);
    fbo(&mut ctx);
    attach(&mut ctx, COLOR_ATTACHMENT0, r);
    ctx.clear(COLOR_BUFFER_BIT);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let framebuffer = created_framebuffer(&recs);
    let renderbuffer = created_renderbuffers(&recs)[0];
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Renderbuffer(renderbuffer);
    let mut buffers = [DRAW_BUFFER_NONE; MAX_DRAW_BUFFERS];
    buffers[0] = 0;
    let relevant: Vec<Record> = recs
        .into_iter()
        .filter(|r| {
            matches!(
                r,
                Record::CreateFramebuffer { .. }
                    | Record::SetFramebufferState { .. }
                    | Record::BindFramebuffer { .. }
                    | Record::SetDrawBuffers { .. }
                    | Record::Clear { .. }
            )
        })
        .collect();
    assert_eq!(
        relevant,
        vec![
            Record::CreateFramebuffer { framebuffer },
            Record::SetFramebufferState {
                framebuffer,
                state: Box::new(state),
            },
            Record::BindFramebuffer {
                framebuffer: FramebufferRef::Object(framebuffer),
            },
            Record::SetDrawBuffers { buffers },
            Record::Clear {
                mask: clear_mask::COLOR_ALL,
                color: [0.0; 4],
                depth: 1.0,
                stencil: 0,
            },
        ]
    );
}

#[test]
fn reattaching_emits_one_framebuffer_state_at_the_next_verb_only() {
    let mut ctx = context();
    let (_, _) = color_fbo(&mut ctx);
    ctx.clear(COLOR_BUFFER_BIT);
    let first = records(&mut ctx);
    let framebuffer = created_framebuffer(&first);
    let a = rb(&mut ctx, RGBA8, 4, 4, 0);
    let b = rb(&mut ctx, RGBA8, 4, 4, 0);
    attach(&mut ctx, COLOR_ATTACHMENT0, a);
    attach(&mut ctx, COLOR_ATTACHMENT1, b);
    attach(&mut ctx, COLOR_ATTACHMENT1, b);
    let recs = records(&mut ctx);
    let handles = created_renderbuffers(&recs);
    assert_eq!(
        count(&recs, |r| matches!(r, Record::SetFramebufferState { .. })),
        0,
        "attaching emits nothing"
    );
    ctx.clear(COLOR_BUFFER_BIT);
    let mut state = FramebufferState::default();
    state.colors[0] = Attachment::Renderbuffer(handles[0]);
    state.colors[1] = Attachment::Renderbuffer(handles[1]);
    assert_eq!(
        records(&mut ctx),
        vec![
            Record::SetFramebufferState {
                framebuffer,
                state: Box::new(state),
            },
            Record::Clear {
                mask: clear_mask::COLOR_ALL,
                color: [0.0; 4],
                depth: 1.0,
                stencil: 0,
            },
        ]
    );
    ctx.clear(COLOR_BUFFER_BIT);
    let again = records(&mut ctx);
    assert_eq!(
        count(&again, |r| matches!(r, Record::SetFramebufferState { .. })),
        0
    );
    assert_no_error!(ctx);
}

#[test]
fn a_renderbuffer_deleted_while_attached_to_an_unbound_framebuffer_lives_until_it_goes() {
    let mut ctx = context();
    let (f, r) = color_fbo(&mut ctx);
    ctx.bind_framebuffer(FRAMEBUFFER, 0);
    ctx.bind_renderbuffer(RENDERBUFFER, 0);
    let handle = created_renderbuffers(&records(&mut ctx))[0];
    ctx.delete_renderbuffers(1, &[r]);
    assert_eq!(ctx.is_renderbuffer(r), 0);
    assert!(
        records(&mut ctx).is_empty(),
        "the attachment keeps it alive"
    );
    ctx.bind_framebuffer(FRAMEBUFFER, f);
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            COLOR_ATTACHMENT0,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        RENDERBUFFER as GLint
    );
    assert_eq!(status(&mut ctx), FRAMEBUFFER_COMPLETE);
    ctx.clear(COLOR_BUFFER_BIT);
    assert_no_error!(ctx);
    records(&mut ctx);
    ctx.delete_framebuffers(1, &[f]);
    let recs = records(&mut ctx);
    assert_eq!(
        count(&recs, |r| matches!(r, Record::DestroyRenderbuffer { .. })),
        1
    );
    assert!(recs.contains(&Record::DestroyRenderbuffer {
        renderbuffer: handle
    }));
    assert_no_error!(ctx);
}

#[test]
fn a_renderbuffer_deleted_while_attached_to_the_bound_framebuffer_is_detached() {
    let mut ctx = context();
    let (_, r) = color_fbo(&mut ctx);
    ctx.clear(COLOR_BUFFER_BIT);
    records(&mut ctx);
    ctx.delete_renderbuffers(1, &[r]);
    assert_eq!(
        fap(
            &mut ctx,
            FRAMEBUFFER,
            COLOR_ATTACHMENT0,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        NONE as GLint
    );
    assert_eq!(int(&mut ctx, RENDERBUFFER_BINDING), 0);
    assert_eq!(status(&mut ctx), FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
    let recs = records(&mut ctx);
    assert_eq!(
        count(&recs, |r| matches!(r, Record::DestroyRenderbuffer { .. })),
        1
    );
    ctx.clear(COLOR_BUFFER_BIT);
    assert_error!(ctx, INVALID_FRAMEBUFFER_OPERATION);
}
