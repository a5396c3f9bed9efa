//! Buffer textures: `tex_buffer`, what the level queries report, and the reference to
//! the buffer.

use tessera_engine::gl::*;
use tessera_tests::differential::assert_same_steps;
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::format::Format;
use tessera_wire::record::Record;

use super::{bound, level};

#[test]
fn buffer_textures() {
    let mut ctx = context();
    let tex = bound(&mut ctx, TEXTURE_BUFFER);
    let b = ctx.gen_buffer();
    ctx.bind_buffer(TEXTURE_BUFFER, b);
    ctx.buffer_data(TEXTURE_BUFFER, 100, None, STATIC_DRAW);
    records(&mut ctx);
    ctx.tex_buffer(TEXTURE_BUFFER, RGBA8, b);
    assert_no_error!(ctx);
    let recs = records(&mut ctx);
    let [
        Record::SetTextureBuffer {
            buffer: Some(_),
            format: Format::Rgba8,
            ref range,
            ..
        },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!(
        (range.offset, range.size),
        (0, 0),
        "the whole buffer, whatever its size"
    );
    let t = TEXTURE_BUFFER;
    assert_eq!(
        level(&mut ctx, t, 0, TEXTURE_WIDTH),
        25,
        "texels of the buffer"
    );
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_HEIGHT), 1);
    assert_eq!(
        level(&mut ctx, t, 0, TEXTURE_INTERNAL_FORMAT),
        RGBA8 as GLint
    );
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_RED_SIZE), 8);
    assert_eq!(
        level(&mut ctx, t, 0, TEXTURE_BUFFER_DATA_STORE_BINDING),
        b as GLint
    );
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_BUFFER_SIZE), 100);
    assert_eq!(
        ctx.get_integer(TEXTURE_BUFFER_DATA_STORE_BINDING),
        b as GLint
    );
    ctx.buffer_data(TEXTURE_BUFFER, 1000, None, STATIC_DRAW);
    assert_eq!(level(&mut ctx, t, 0, TEXTURE_WIDTH), 250);
    ctx.tex_buffer(TEXTURE_2D, RGBA8, b);
    assert_error!(ctx, INVALID_ENUM);
    ctx.tex_buffer(t, 999, b);
    assert_error!(ctx, INVALID_ENUM);
    // Of the three-component formats only the 32-bit ones are buffer formats (GL 4.0's
    // ARB_texture_buffer_object_rgb32, which this backend has).
    for bad in [RGB8, RGB16F, RGBA, R8_SNORM] {
        ctx.tex_buffer(t, bad, b);
        assert_error!(ctx, INVALID_ENUM, "{bad:#x}");
    }
    ctx.tex_buffer(t, R32UI, 4242);
    assert_error!(ctx, INVALID_OPERATION, "not a buffer");
    let unbound = ctx.gen_buffer();
    ctx.tex_buffer(t, R32UI, unbound);
    assert_error!(ctx, INVALID_OPERATION, "a name with no buffer object yet");
    // The texture keeps its buffer alive after the buffer's deletion.
    records(&mut ctx);
    ctx.delete_buffers(1, &[b]);
    assert!(
        !records(&mut ctx)
            .iter()
            .any(|r| matches!(r, Record::DestroyBuffer { .. })),
        "the texture holds the buffer"
    );
    assert_eq!(
        level(&mut ctx, t, 0, TEXTURE_BUFFER_DATA_STORE_BINDING),
        0,
        "no name any more"
    );
    ctx.delete_textures(1, &[tex]);
    let recs = records(&mut ctx);
    assert!(
        recs.iter()
            .any(|r| matches!(r, Record::DestroyTexture { .. }))
    );
    assert!(
        recs.iter()
            .any(|r| matches!(r, Record::DestroyBuffer { .. }))
    );
    assert_no_error!(ctx);
}

/// What `glTexBuffer` with buffer 0 leaves: no buffer, and the format it named
/// (`TEXTURE_BUFFER_FORMAT`), as on the native driver.
#[test]
fn a_detached_buffer_texture_keeps_its_format() {
    /// `GL_TEXTURE_BUFFER_FORMAT` (GL 3.1's state table; `glcorearb.h` keeps only the ARB name).
    const TEXTURE_BUFFER_FORMAT: GLenum = 0x8C2E;
    fn steps(gl: &mut dyn Gl) -> Vec<(String, GLint)> {
        let mut log = Vec::new();
        let mut note = |gl: &mut dyn Gl, label: &str| {
            let mut v = [0];
            gl.get_integerv(TEXTURE_BUFFER_FORMAT, &mut v);
            log.push((format!("{label}: format"), v[0]));
            gl.get_integerv(TEXTURE_BUFFER_DATA_STORE_BINDING, &mut v);
            log.push((format!("{label}: buffer"), v[0]));
            log.push((format!("{label}: error"), gl.get_error() as GLint));
        };
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_BUFFER, t);
        note(gl, "new texture");
        gl.tex_buffer(TEXTURE_BUFFER, RGBA8, 0);
        note(gl, "RGBA8 without a buffer");
        let b = gl.gen_buffer();
        gl.bind_buffer(TEXTURE_BUFFER, b);
        gl.buffer_data(TEXTURE_BUFFER, 16, None, STATIC_DRAW);
        gl.tex_buffer(TEXTURE_BUFFER, R32F, b);
        note(gl, "R32F with a buffer");
        gl.tex_buffer(TEXTURE_BUFFER, RG16, 0);
        note(gl, "RG16 detaching it");
        log
    }
    let expected = steps(&mut NativeGl::new(4, 4).expect("native desktop GL"));
    assert_eq!(expected[3].1, RGBA8 as GLint, "{expected:?}");
    let got = steps(&mut context());
    assert_same_steps("null/inproc", &expected, &got, |v| format!("{v:#x}"));
}
