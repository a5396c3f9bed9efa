//! The images GLSL ES 3.10 cannot declare as GL does, which the GLES backend rewrites before
//! translation (`backend_gles/src/image_lowering.rs`), against the native driver on both
//! backends over `inproc` and `thread`: read-write images of an ES format (`rgba8`) and of
//! one ES lacks (`rg16f`), which store through a `writeonly` twin; a 1D `r16f` image and a
//! 1D array read, written and sized; and an image without a format qualifier written into
//! an RGBA8 texture. Texels must be exactly the native ones. (Rectangle images are left out:
//! the Vulkan backend reports every rectangle texture as an event.) Also a texture redefined
//! in another format after an image unit wrote it, which the GLES backend had given
//! immutable native storage for the unit (`backend_gles/src/texture.rs`, `make_mutable`).

use tessera_engine::gl::*;

use crate::image_load_store::{ImageGl, compare, program};

/// One pass over five images, each read and written (but `plain`) by invocation `x` of 4.
const LOWERED_CS: &str = "#version 430
layout(local_size_x = 4) in;
layout(rgba8, binding = 0) uniform image2D rw8;
layout(rg16f, binding = 1) uniform image2D rwh;
layout(r16f, binding = 2) uniform image1D one;
layout(rg32f, binding = 3) uniform image1DArray arr;
layout(binding = 4) writeonly uniform image2D plain;
void main() {
    int x = int(gl_GlobalInvocationID.x);
    imageStore(rw8, ivec2(x, 0), vec4(1.0) - imageLoad(rw8, ivec2(x, 0)));
    imageStore(rwh, ivec2(x, 0), imageLoad(rwh, ivec2(x, 0)) * 2.0 + vec4(0.5));
    imageStore(one, x, imageLoad(one, x) + vec4(float(imageSize(one))));
    ivec2 layers = imageSize(arr);
    for (int l = 0; l < 2; ++l) {
        imageStore(arr, ivec2(x, l), imageLoad(arr, ivec2(x, l)) + vec4(float(layers.x * 10 + layers.y)));
    }
    imageStore(plain, ivec2(x, 0), vec4(float(x * 51) / 255.0, 1.0, 0.0, 0.2));
}
";

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

fn float_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// What each image holds after the pass: the RGBA8 texels, the RG16F ones, the 1D R16F
/// ones, the 1D array's (both layers) as floats, and the RGBA8 texels the unformatted image
/// wrote.
type Lowered = (Vec<u8>, Vec<f32>, Vec<f32>, Vec<f32>, Vec<u8>);

fn lowered(gl: &mut dyn ImageGl) -> Lowered {
    let t: Vec<GLuint> = (0..5).map(|_| gl.gen_texture()).collect();
    let rw8: Vec<u8> = (0..16).map(|i| i * 17).collect();
    gl.bind_texture(TEXTURE_2D, t[0]);
    gl.storage_2d(TEXTURE_2D, 1, RGBA8, 4, 1);
    gl.tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 4, 1, RGBA, UNSIGNED_BYTE, &rw8);
    gl.bind_texture(TEXTURE_2D, t[1]);
    gl.storage_2d(TEXTURE_2D, 1, RG16F, 4, 1);
    let rwh = float_bytes(&[0.25, 0.5, 1.0, 2.0, -1.0, 3.0, 0.125, 8.0]);
    gl.tex_sub_image_2d(TEXTURE_2D, 0, 0, 0, 4, 1, RG, FLOAT, &rwh);
    gl.bind_texture(TEXTURE_1D, t[2]);
    let one = float_bytes(&[1.0, 2.0, 3.0, 4.0]);
    gl.tex_image_1d(TEXTURE_1D, 0, R16F as i32, 4, 0, RED, FLOAT, Some(&one));
    gl.tex_parameteri(TEXTURE_1D, TEXTURE_MAX_LEVEL, 0);
    gl.bind_texture(TEXTURE_1D_ARRAY, t[3]);
    gl.storage_2d(TEXTURE_1D_ARRAY, 1, RG32F, 4, 2);
    let arr: Vec<f32> = (0..16).map(|i| i as f32).collect();
    gl.tex_sub_image_2d(
        TEXTURE_1D_ARRAY,
        0,
        0,
        0,
        4,
        2,
        RG,
        FLOAT,
        &float_bytes(&arr),
    );
    gl.bind_texture(TEXTURE_2D, t[4]);
    gl.storage_2d(TEXTURE_2D, 1, RGBA8, 4, 1);
    let p = program(gl, &[(COMPUTE_SHADER, LOWERED_CS)]);
    for (unit, (texture, format)) in t.iter().zip([RGBA8, RG16F, R16F, RG32F, RGBA8]).enumerate() {
        let access = if unit == 4 { WRITE_ONLY } else { READ_WRITE };
        gl.bind_image(unit as GLuint, *texture, 0, unit == 3, 0, access, format);
    }
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    assert_eq!(gl.get_error(), NO_ERROR);
    let mut read = |target: GLenum, texture: GLuint, format: GLenum, ty: GLenum, len: usize| {
        gl.bind_texture(target, texture);
        let mut out = vec![0u8; len];
        gl.tex_image(target, 0, format, ty, &mut out);
        out
    };
    let got = (
        read(TEXTURE_2D, t[0], RGBA, UNSIGNED_BYTE, 16),
        floats(&read(TEXTURE_2D, t[1], RG, FLOAT, 32)),
        floats(&read(TEXTURE_1D, t[2], RED, FLOAT, 16)),
        floats(&read(TEXTURE_1D_ARRAY, t[3], RG, FLOAT, 64)),
        read(TEXTURE_2D, t[4], RGBA, UNSIGNED_BYTE, 16),
    );
    assert_eq!(gl.get_error(), NO_ERROR);
    got
}

#[test]
fn images_glsl_es_cannot_declare_match_the_native_driver() {
    compare(|gl| {
        let got = lowered(gl);
        let (rw8, rwh, one, arr, plain) = &got;
        let inverted: Vec<u8> = (0..16).map(|i| 255 - i * 17).collect();
        assert_eq!(rw8, &inverted, "read-write rgba8");
        assert_eq!(
            rwh,
            &[1.0, 1.5, 2.5, 4.5, -1.5, 6.5, 0.75, 16.5],
            "read-write rg16f"
        );
        assert_eq!(one, &[5.0, 6.0, 7.0, 8.0], "1D r16f with its size");
        let plus_42: Vec<f32> = (0..16).map(|i| i as f32 + 42.0).collect();
        assert_eq!(arr, &plus_42, "1D array with its size (4, 2)");
        assert_eq!(
            &plain[..8],
            &[0, 255, 0, 51, 51, 255, 0, 51],
            "unformatted writes"
        );
        got
    });
}

/// Writes one texel of a mutable RGBA8 texture through an image unit.
const MARK_CS: &str = "#version 430
layout(local_size_x = 1) in;
layout(rgba8, binding = 0) writeonly uniform image2D img;
void main() {
    imageStore(img, ivec2(1, 0), vec4(1.0, 0.0, 0.2, 1.0));
}
";

/// The RGBA8 texels after the pass, and the texture's R32UI texels once level 0 is
/// redefined with them (level 1 stays, copied into the new native texture; what a driver
/// reads of a level left in the old format differs, so it is not compared).
fn redefined(gl: &mut dyn ImageGl) -> (Vec<u8>, Vec<u8>) {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    let texels: Vec<u8> = (0..8).map(|i| i * 30).collect();
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as i32,
        2,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    gl.tex_image_2d(
        TEXTURE_2D,
        1,
        RGBA8 as i32,
        1,
        1,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&[9, 8, 7, 6]),
    );
    let p = program(gl, &[(COMPUTE_SHADER, MARK_CS)]);
    gl.bind_image(0, t, 0, false, 0, WRITE_ONLY, RGBA8);
    gl.use_program(p);
    gl.dispatch_compute(1, 1, 1);
    gl.memory_barrier(TEXTURE_UPDATE_BARRIER_BIT);
    let mut marked = vec![0u8; 8];
    gl.tex_image(TEXTURE_2D, 0, RGBA, UNSIGNED_BYTE, &mut marked);
    let words: Vec<u8> = [7u32, 9].iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        R32UI as i32,
        2,
        1,
        0,
        RED_INTEGER,
        UNSIGNED_INT,
        Some(&words),
    );
    let mut read = vec![0u8; 8];
    gl.tex_image(TEXTURE_2D, 0, RED_INTEGER, UNSIGNED_INT, &mut read);
    assert_eq!(gl.get_error(), NO_ERROR);
    (marked, read)
}

#[test]
fn a_texture_redefined_after_an_image_unit_wrote_it_matches_the_native_driver() {
    compare(|gl| {
        let got = redefined(gl);
        assert_eq!(
            got.0,
            [0, 30, 60, 90, 255, 0, 51, 255],
            "the texel the pass wrote"
        );
        assert_eq!(got.1, [7, 0, 0, 0, 9, 0, 0, 0], "the redefined level");
        got
    });
}
