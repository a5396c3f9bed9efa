//! Texture formats: integer textures read with texelFetch, and uploads under the pixel
//! unpack state (row length, skips, alignment, an unpack buffer) in several format/type
//! pairs.

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};

use super::*;

// ---------------------------------------------------------------------------------------
// Integer textures

#[test]
fn unsigned_integer_texture_fetches_exact_values() {
    check(
        "tex2d_rgba8ui_texel_fetch",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform usampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = vec4(texelFetch(tex, ivec2(uv * 2.0), 0)) / 255.0; }
",
            );
            texture(gl, TEXTURE_2D);
            let texels = [
                [1u8, 2, 3, 4],
                [250, 251, 252, 253],
                [17, 34, 51, 255],
                [128, 0, 64, 32],
            ];
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                RGBA8UI as GLint,
                2,
                2,
                0,
                RGBA_INTEGER,
                UNSIGNED_BYTE,
                Some(&texels.concat()),
            );
            draw_quad(gl);
        },
        &[
            probe(4, 4, [1, 2, 3, 4]),
            probe(12, 4, [250, 251, 252, 253]),
            probe(4, 12, [17, 34, 51, 255]),
            probe(12, 12, [128, 0, 64, 32]),
        ],
    );
}

#[test]
fn signed_integer_texture_keeps_sign_and_range() {
    // R32I values beyond 16 bits and negative: the shader spells out bytes and the sign.
    check(
        "tex2d_r32i_texel_fetch",
        16,
        16,
        |gl| {
            full_screen(
                gl,
                "#version 330 core
uniform isampler2D tex;
in vec2 uv;
out vec4 frag;
void main() {
    int v = texelFetch(tex, ivec2(uv * 2.0), 0).r;
    int a = abs(v);
    frag = vec4(float(a & 255), float((a >> 8) & 255), float((a >> 16) & 255), v < 0 ? 255.0 : 0.0) / 255.0;
}
",
            );
            texture(gl, TEXTURE_2D);
            let values: [i32; 4] = [7, -100_000, 0x12_3456, -1];
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                R32I as GLint,
                2,
                2,
                0,
                RED_INTEGER,
                INT,
                Some(&bytes),
            );
            draw_quad(gl);
        },
        &[
            probe(4, 4, [7, 0, 0, 0]),
            probe(12, 4, [0xA0, 0x86, 0x01, 255]),
            probe(4, 12, [0x56, 0x34, 0x12, 0]),
            probe(12, 12, [1, 0, 0, 255]),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Uploads: unpack state and format/type pairs

#[test]
fn unpack_row_length_and_skips_select_a_sub_rectangle() {
    // An 8 x 8 client image, pixel (x, y) = (30x, 30y, 100); the texture is its 4 x 4
    // sub-rectangle from (2, 3).
    let image: Vec<u8> = (0..8)
        .flat_map(|y| (0..8).flat_map(move |x| [x * 30, y * 30, 100, 255]))
        .collect();
    check(
        "tex2d_unpack_row_length_skips",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            texture(gl, TEXTURE_2D);
            gl.pixel_storei(UNPACK_ROW_LENGTH, 8);
            gl.pixel_storei(UNPACK_SKIP_PIXELS, 2);
            gl.pixel_storei(UNPACK_SKIP_ROWS, 3);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                RGBA8 as GLint,
                4,
                4,
                0,
                RGBA,
                UNSIGNED_BYTE,
                Some(&image),
            );
            for pname in [UNPACK_ROW_LENGTH, UNPACK_SKIP_PIXELS, UNPACK_SKIP_ROWS] {
                gl.pixel_storei(pname, 0);
            }
            draw_quad(gl);
        },
        &grid(4, 4, 4, |i, j| {
            [((i + 2) * 30) as u8, ((j + 3) * 30) as u8, 100, 255]
        }),
    );
}

/// A 3 x 3 RGB8 upload under `alignment`: rows of 9 bytes padded to the alignment.
fn rgb_alignment_scene(name: &str, alignment: i32) {
    let stride = 9usize.next_multiple_of(alignment as usize);
    let mut image = vec![0xEEu8; stride * 3];
    for j in 0..3 {
        for i in 0..3 {
            image[j * stride + i * 3..][..3].copy_from_slice(&[
                (i * 100) as u8,
                (j * 100) as u8,
                50,
            ]);
        }
    }
    check(
        name,
        12,
        12,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            texture(gl, TEXTURE_2D);
            gl.pixel_storei(UNPACK_ALIGNMENT, alignment);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                RGB8 as GLint,
                3,
                3,
                0,
                RGB,
                UNSIGNED_BYTE,
                Some(&image),
            );
            gl.pixel_storei(UNPACK_ALIGNMENT, 4);
            draw_quad(gl);
        },
        &grid(3, 3, 4, |i, j| [(i * 100) as u8, (j * 100) as u8, 50, 255]),
    );
}

#[test]
fn unpack_alignment_pads_rgb8_rows() {
    rgb_alignment_scene("tex2d_unpack_alignment_rgb8_4", 4);
    rgb_alignment_scene("tex2d_unpack_alignment_rgb8_1", 1);
    rgb_alignment_scene("tex2d_unpack_alignment_rgb8_8", 8);
}

/// Uploads a 2 x 2 texture from `data` as `format`/`ty` into `internal` and draws it; the
/// probes give each texel's expected colour (bottom-left, bottom-right, top-left, top-right).
#[allow(clippy::too_many_arguments, reason = "one line per upload case")]
fn upload_scene(
    name: &str,
    internal: GLenum,
    format: GLenum,
    ty: GLenum,
    data: &[u8],
    fs: &str,
    texels: [[u8; 4]; 4],
) {
    check(
        name,
        16,
        16,
        |gl| {
            full_screen(gl, fs);
            texture(gl, TEXTURE_2D);
            gl.pixel_storei(UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                internal as GLint,
                2,
                2,
                0,
                format,
                ty,
                Some(data),
            );
            gl.pixel_storei(UNPACK_ALIGNMENT, 4);
            draw_quad(gl);
        },
        &grid(2, 2, 8, |i, j| texels[(j * 2 + i) as usize]),
    );
}

#[test]
fn upload_bgra_bytes() {
    let data = [
        [1, 2, 3, 4],
        [255, 0, 0, 255],
        [0, 128, 255, 64],
        [40, 80, 120, 160],
    ]
    .concat();
    upload_scene(
        "tex2d_upload_bgra",
        RGBA8,
        BGRA,
        UNSIGNED_BYTE,
        &data,
        FS_SAMPLE,
        [
            [3, 2, 1, 4],
            [0, 0, 255, 255],
            [255, 128, 0, 64],
            [120, 80, 40, 160],
        ],
    );
}

#[test]
fn upload_rgb_565() {
    let px = |r: u16, g: u16, b: u16| (r << 11 | g << 5 | b).to_le_bytes();
    let data = [px(31, 0, 0), px(0, 63, 0), px(0, 0, 31), px(16, 32, 8)].concat();
    upload_scene(
        "tex2d_upload_rgb565",
        RGB8,
        RGB,
        UNSIGNED_SHORT_5_6_5,
        &data,
        FS_SAMPLE,
        // 5 and 6 bits widen by replicating their top bits: 16 -> 132, 32 -> 130, 8 -> 66.
        [
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [0, 0, 255, 255],
            [132, 130, 66, 255],
        ],
    );
}

#[test]
fn upload_rgba_4444() {
    let px = |r: u16, g: u16, b: u16, a: u16| (r << 12 | g << 8 | b << 4 | a).to_le_bytes();
    let data = [
        px(15, 0, 0, 15),
        px(0, 15, 0, 8),
        px(1, 2, 3, 4),
        px(8, 8, 8, 15),
    ]
    .concat();
    upload_scene(
        "tex2d_upload_rgba4444",
        RGBA8,
        RGBA,
        UNSIGNED_SHORT_4_4_4_4,
        &data,
        FS_SAMPLE,
        [
            [255, 0, 0, 255],
            [0, 255, 0, 136],
            [17, 34, 51, 68],
            [136, 136, 136, 255],
        ],
    );
}

/// Halves the sample, so stored values above 1 show.
const FS_HALF: &str = "#version 330 core
uniform sampler2D tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, uv) * 0.5; }
";

#[test]
fn upload_float_into_half_and_full_float() {
    let data = floats(&[
        2.0, 0.0, 0.0, 2.0, //
        0.0, 1.0, 0.0, 2.0, //
        -1.0, 0.5, 1.5, 2.0, //
        0.25, 0.75, 1.25, 1.0,
    ]);
    let texels = [
        [255, 0, 0, 255],
        [0, 128, 0, 255],
        [0, 64, 191, 255],
        [32, 96, 159, 128],
    ];
    upload_scene(
        "tex2d_upload_float_rgba16f",
        RGBA16F,
        RGBA,
        FLOAT,
        &data,
        FS_HALF,
        texels,
    );
    upload_scene(
        "tex2d_upload_float_rgba32f",
        RGBA32F,
        RGBA,
        FLOAT,
        &data,
        FS_HALF,
        texels,
    );
}

#[test]
fn upload_red_into_r8() {
    upload_scene(
        "tex2d_upload_red_r8",
        R8,
        RED,
        UNSIGNED_BYTE,
        &[0, 85, 170, 255],
        FS_SAMPLE,
        [
            [0, 0, 0, 255],
            [85, 0, 0, 255],
            [170, 0, 0, 255],
            [255, 0, 0, 255],
        ],
    );
}

#[test]
fn upload_rg_into_rg8() {
    upload_scene(
        "tex2d_upload_rg_rg8",
        RG8,
        RG,
        UNSIGNED_BYTE,
        &[10, 20, 30, 40, 50, 60, 70, 80],
        FS_SAMPLE,
        [
            [10, 20, 0, 255],
            [30, 40, 0, 255],
            [50, 60, 0, 255],
            [70, 80, 0, 255],
        ],
    );
}

#[test]
fn sub_image_replaces_a_region() {
    check(
        "tex2d_sub_image",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            rgba_texture(gl, 4, 4, &[[0, 0, 90, 255]; 16]);
            gl.tex_sub_image_2d(
                TEXTURE_2D,
                0,
                1,
                2,
                2,
                1,
                RGBA,
                UNSIGNED_BYTE,
                &[[200, 10, 0, 255], [10, 200, 0, 255]].concat(),
            );
            draw_quad(gl);
        },
        &[
            probe(6, 10, [200, 10, 0, 255]),
            probe(10, 10, [10, 200, 0, 255]),
            probe(2, 10, [0, 0, 90, 255]),
            probe(6, 6, [0, 0, 90, 255]),
        ],
    );
}

#[test]
fn upload_from_an_unpack_buffer() {
    // The texels come from a PIXEL_UNPACK_BUFFER (offset 0), 2 x 2 of a 3-pixel-wide image
    // skipping one row.
    let image: Vec<u8> = (0..3)
        .flat_map(|y| (0..3).flat_map(move |x| [x * 80, y * 80, 40, 255]))
        .collect();
    check(
        "tex2d_upload_from_unpack_buffer",
        16,
        16,
        |gl| {
            full_screen(gl, FS_SAMPLE);
            let b = gl.gen_buffer();
            gl.bind_buffer(PIXEL_UNPACK_BUFFER, b);
            gl.buffer_data(PIXEL_UNPACK_BUFFER, image.len(), Some(&image), STATIC_DRAW);
            texture(gl, TEXTURE_2D);
            gl.pixel_storei(UNPACK_ROW_LENGTH, 3);
            gl.pixel_storei(UNPACK_SKIP_ROWS, 1);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                RGBA8 as GLint,
                2,
                2,
                0,
                RGBA,
                UNSIGNED_BYTE,
                None,
            );
            gl.pixel_storei(UNPACK_ROW_LENGTH, 0);
            gl.pixel_storei(UNPACK_SKIP_ROWS, 0);
            gl.bind_buffer(PIXEL_UNPACK_BUFFER, 0);
            draw_quad(gl);
        },
        &grid(2, 2, 8, |i, j| {
            [(i * 80) as u8, ((j + 1) * 80) as u8, 40, 255]
        }),
    );
}
