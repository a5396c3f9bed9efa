//! Layered framebuffers and geometry shaders: clears of single layers and of whole layered
//! attachments, `gl_Layer` routing primitives to layers, clip distances written and read
//! by a geometry stage, `gl_PrimitiveID` in a fragment shader without one, `invariant` on
//! every stage's interface, arrays of interface blocks between stages, and a geometry stage
//! reading a 1D array texture (sizes, offsets, gradients).
//!
//! A layered scene renders into a 2D array texture of [`LAYERS`] layers and then shows each
//! layer in one column of the default framebuffer, blitted from a read framebuffer that
//! holds that layer alone, so one image compares every layer with the native driver's.

use tessera_engine::gl::*;
use tessera_tests::differential::{check, probe};
use tessera_tests::gl::Gl;

/// Side of the default framebuffer.
const W: i32 = 32;
/// Layers of the array texture; each is shown in a `W / LAYERS` wide column.
const LAYERS: i32 = 4;
/// Side of each layer.
const SIDE: i32 = W / LAYERS;

/// Compiles and links a program of `(kind, source)` stages; panics with the logs on failure.
fn program(gl: &mut dyn Gl, stages: &[(GLenum, &str)]) -> GLuint {
    tessera_tests::scenes::link_stages(gl, stages)
}

/// A `SIDE` x `SIDE` RGBA8 2D array texture of [`LAYERS`] layers, bound.
fn array_texture(gl: &mut dyn Gl) -> GLuint {
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, t);
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_MAG_FILTER, NEAREST as GLint);
    gl.tex_image_3d(
        TEXTURE_2D_ARRAY,
        0,
        RGBA8 as GLint,
        SIDE,
        SIDE,
        LAYERS,
        0,
        RGBA,
        UNSIGNED_BYTE,
        None,
    );
    t
}

/// Blits each layer of `texture` from `read_fbo` (its colour attachment 0 set to the layer)
/// into column `layer` of the default framebuffer.
fn show_layers(gl: &mut dyn Gl, read_fbo: GLuint, texture: GLuint) {
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
    gl.bind_framebuffer(READ_FRAMEBUFFER, read_fbo);
    for layer in 0..LAYERS {
        gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, texture, 0, layer);
        let x = layer * SIDE;
        gl.blit_framebuffer(
            0,
            0,
            SIDE,
            SIDE,
            x,
            0,
            x + SIDE,
            SIDE,
            COLOR_BUFFER_BIT,
            NEAREST,
        );
    }
    gl.bind_framebuffer(FRAMEBUFFER, 0);
}

/// Probes the centre of each layer's column, bottom row.
fn layer_probes(colors: [[u8; 4]; LAYERS as usize]) -> Vec<tessera_tests::differential::Probe> {
    (0..LAYERS)
        .map(|l| probe(l * SIDE + SIDE / 2, SIDE / 2, colors[l as usize]))
        .collect()
}

#[test]
fn layered_clear_after_single_layer_clears_and_reads() {
    // Each layer is cleared through a single-layer attachment and read back through the
    // same framebuffer (as piglit's clear-color-all-types does), then the whole texture is
    // attached layered and cleared once: every layer takes the layered clear.
    let probes = layer_probes([[0, 255, 0, 255]; LAYERS as usize]);
    check(
        "layered_clear_after_single_layer_clears_and_reads",
        W,
        W,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let tex = array_texture(gl);
            let fbo = gl.gen_framebuffer();
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, fbo);
            gl.viewport(0, 0, SIDE, SIDE);
            gl.clear_color(1.0, 0.0, 0.0, 1.0);
            for layer in 0..LAYERS {
                gl.framebuffer_texture_layer(DRAW_FRAMEBUFFER, COLOR_ATTACHMENT0, tex, 0, layer);
                gl.clear(COLOR_BUFFER_BIT);
            }
            gl.bind_framebuffer(READ_FRAMEBUFFER, fbo);
            let mut px = [0u8; 4];
            for layer in 0..LAYERS {
                gl.framebuffer_texture_layer(READ_FRAMEBUFFER, COLOR_ATTACHMENT0, tex, 0, layer);
                gl.read_pixels(0, 0, 1, 1, RGBA, UNSIGNED_BYTE, &mut px);
            }
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, fbo);
            gl.framebuffer_texture(DRAW_FRAMEBUFFER, COLOR_ATTACHMENT0, tex, 0);
            gl.clear_color(0.0, 1.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            gl.viewport(0, 0, W, W);
            show_layers(gl, fbo, tex);
        },
        &probes,
    );
}

const LAYER_VS: &str = "#version 150
void main() { gl_Position = vec4(0.0); }
";

/// One point in, a full-layer quad out into each layer, coloured by the layer.
const LAYER_GS: &str = "#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 16) out;
flat out int layer;
void main() {
    for (int l = 0; l < 4; l++) {
        for (int v = 0; v < 4; v++) {
            gl_Position = vec4(float(v & 1) * 2.0 - 1.0, float(v >> 1) * 2.0 - 1.0, 0.0, 1.0);
            gl_Layer = l;
            layer = l;
            EmitVertex();
        }
        EndPrimitive();
    }
}
";

const LAYER_FS: &str = "#version 150
flat in int layer;
out vec4 color;
void main() { color = vec4(float(layer & 1), float(layer >> 1), 1.0, 1.0); }
";

#[test]
fn geometry_shader_gl_layer_writes_each_layer() {
    let probes = layer_probes([
        [0, 0, 255, 255],
        [255, 0, 255, 255],
        [0, 255, 255, 255],
        [255, 255, 255, 255],
    ]);
    check(
        "geometry_shader_gl_layer_writes_each_layer",
        W,
        W,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let tex = array_texture(gl);
            let fbo = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, fbo);
            gl.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, tex, 0);
            gl.viewport(0, 0, SIDE, SIDE);
            gl.clear(COLOR_BUFFER_BIT);
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, LAYER_VS),
                    (GEOMETRY_SHADER, LAYER_GS),
                    (FRAGMENT_SHADER, LAYER_FS),
                ],
            );
            gl.use_program(p);
            let vao = gl.gen_vertex_array();
            gl.bind_vertex_array(vao);
            gl.draw_arrays(POINTS, 0, 1);
            gl.viewport(0, 0, W, W);
            show_layers(gl, fbo, tex);
        },
        &probes,
    );
}

/// Clip distances of a full-screen quad from the vertex stage: x > 0 and x < 0.5 kept.
const CLIP_VS: &str = "#version 150
in vec2 position;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[4];
};
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
    gl_ClipDistance[0] = position.x;
    gl_ClipDistance[1] = 1.0;
    gl_ClipDistance[2] = 0.5 - position.x;
    gl_ClipDistance[3] = 1.0;
}
";

/// Passes the vertex stage's clip distances on, read from `gl_in[]` with a variable index
/// and as a whole array, and computes the last one itself (the vertex stage's is 1: y > 0
/// kept).
const CLIP_GS: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[4];
} gl_in[];
out float gl_ClipDistance[4];
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        float copy[4] = gl_in[i].gl_ClipDistance;
        for (int j = 0; j < 3; j++) {
            gl_ClipDistance[j] = gl_in[i].gl_ClipDistance[j];
        }
        gl_ClipDistance[3] = gl_in[i].gl_Position.y * copy[3];
        EmitVertex();
    }
}
";

const GREEN_FS: &str = "#version 150
out vec4 color;
void main() { color = vec4(0.0, 1.0, 0.0, 1.0); }
";

/// A full-screen quad as two triangles (xy) in a new vertex array at attribute 0.
fn full_quad(gl: &mut dyn Gl, program: GLuint) {
    let v: [f32; 12] = [
        -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
    ];
    let bytes: Vec<u8> = v.iter().flat_map(|f| f.to_le_bytes()).collect();
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.bind_attrib_location(program, 0, "position");
    gl.link_program(program);
    gl.vertex_attrib_pointer(0, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(0);
}

#[test]
fn geometry_shader_reads_and_writes_clip_distances() {
    // Kept: 0 < x < 0.5 (the vertex stage's distances, read through gl_in[]) and y > 0 (the
    // geometry stage's own): right of the centre, left of x = 0.5 NDC, above the centre.
    let green = [0, 255, 0, 255];
    let black = [0, 0, 0, 255];
    let probes = [
        probe(18, 20, green),
        probe(22, 28, green),
        probe(12, 20, black),
        probe(18, 12, black),
        probe(28, 20, black),
    ];
    check(
        "geometry_shader_reads_and_writes_clip_distances",
        W,
        W,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, CLIP_VS),
                    (GEOMETRY_SHADER, CLIP_GS),
                    (FRAGMENT_SHADER, GREEN_FS),
                ],
            );
            full_quad(gl, p);
            gl.use_program(p);
            for i in 0..4 {
                gl.enable(CLIP_DISTANCE0 + i);
            }
            gl.draw_arrays(TRIANGLES, 0, 6);
        },
        &probes,
    );
}

const PRIMITIVE_VS: &str = "#version 150
in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
";

/// Colours each triangle by `gl_PrimitiveID`, with no geometry stage.
const PRIMITIVE_FS: &str = "#version 150
out vec4 color;
void main() { color = gl_PrimitiveID == 0 ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 0.0, 1.0, 1.0); }
";

#[test]
fn primitive_id_without_a_geometry_shader() {
    // Triangle 0 covers the lower right half, triangle 1 the upper left.
    let probes = [
        probe(28, 4, [255, 0, 0, 255]),
        probe(4, 28, [0, 0, 255, 255]),
    ];
    check(
        "primitive_id_without_a_geometry_shader",
        W,
        W,
        |gl| {
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, PRIMITIVE_VS),
                    (FRAGMENT_SHADER, PRIMITIVE_FS),
                ],
            );
            full_quad(gl, p);
            gl.use_program(p);
            gl.draw_arrays(TRIANGLES, 0, 6);
        },
        &probes,
    );
}

const INVARIANT_VS: &str = "#version 150
in vec2 position;
invariant out vec4 tint;
void main() { gl_Position = vec4(position, 0.0, 1.0); tint = vec4(0.4); }
";

const INVARIANT_GS: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
invariant in vec4 tint[];
invariant out vec4 shade;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        shade = tint[i] * vec4(1.0, 0.5, 0.0, 2.5);
        EmitVertex();
    }
}
";

const INVARIANT_FS: &str = "#version 150
invariant in vec4 shade;
out vec4 color;
void main() { color = shade; }
";

#[test]
fn invariant_on_every_stage_interface() {
    let probes = [probe(16, 16, [102, 51, 0, 255])];
    check(
        "invariant_on_every_stage_interface",
        W,
        W,
        |gl| {
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, INVARIANT_VS),
                    (GEOMETRY_SHADER, INVARIANT_GS),
                    (FRAGMENT_SHADER, INVARIANT_FS),
                ],
            );
            full_quad(gl, p);
            gl.use_program(p);
            gl.draw_arrays(TRIANGLES, 0, 6);
        },
        &probes,
    );
}

/// An array of interface blocks between the vertex and fragment stages, beside a located
/// plain varying.
const BLOCK_ARRAY_VS: &str = "#version 150
in vec2 position;
out float plain;
out Blk {
    float a;
    vec2 b;
} blk[2];
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
    plain = 0.2;
    blk[0].a = 0.4;
    blk[0].b = vec2(0.6, 0.0);
    blk[1].a = 0.0;
    blk[1].b = vec2(0.0, 0.8);
}
";

const BLOCK_ARRAY_FS: &str = "#version 150
in float plain;
in Blk {
    float a;
    vec2 b;
} blk[2];
out vec4 color;
void main() { color = vec4(plain, blk[0].a + blk[1].a, blk[0].b.x, blk[1].b.y); }
";

#[test]
fn interface_block_arrays_between_stages() {
    let probes = [probe(16, 16, [51, 102, 153, 204])];
    check(
        "interface_block_arrays_between_stages",
        W,
        W,
        |gl| {
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, BLOCK_ARRAY_VS),
                    (FRAGMENT_SHADER, BLOCK_ARRAY_FS),
                ],
            );
            full_quad(gl, p);
            gl.use_program(p);
            gl.draw_arrays(TRIANGLES, 0, 6);
        },
        &probes,
    );
}

#[test]
fn resolve_of_an_rgb_multisample_texture_into_an_rgb_texture() {
    // GL resolves between identical formats only; an RGB8 multisample texture is stored as
    // RGBA8 natively on GLES, its single-sampled RGB8 destination as RGB8.
    let probes = [
        probe(4, 4, [51, 102, 153, 255]),
        probe(20, 20, [0, 0, 0, 255]),
    ];
    check(
        "resolve_of_an_rgb_multisample_texture_into_an_rgb_texture",
        W,
        W,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let ms = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D_MULTISAMPLE, ms);
            gl.tex_image_2d_multisample(TEXTURE_2D_MULTISAMPLE, 4, RGB8 as GLint, SIDE, SIDE, 0);
            let ms_fbo = gl.gen_framebuffer();
            gl.bind_framebuffer(FRAMEBUFFER, ms_fbo);
            gl.framebuffer_texture(FRAMEBUFFER, COLOR_ATTACHMENT0, ms, 0);
            gl.clear_color(0.2, 0.4, 0.6, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let single = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D, single);
            gl.tex_image_2d(
                TEXTURE_2D,
                0,
                RGB8 as GLint,
                SIDE,
                SIDE,
                0,
                RGB,
                UNSIGNED_BYTE,
                None,
            );
            let single_fbo = gl.gen_framebuffer();
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, single_fbo);
            gl.framebuffer_texture_2d(DRAW_FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, single, 0);
            gl.bind_framebuffer(READ_FRAMEBUFFER, ms_fbo);
            gl.blit_framebuffer(
                0,
                0,
                SIDE,
                SIDE,
                0,
                0,
                SIDE,
                SIDE,
                COLOR_BUFFER_BIT,
                NEAREST,
            );
            gl.bind_framebuffer(READ_FRAMEBUFFER, single_fbo);
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.blit_framebuffer(
                0,
                0,
                SIDE,
                SIDE,
                0,
                0,
                SIDE,
                SIDE,
                COLOR_BUFFER_BIT,
                NEAREST,
            );
            gl.bind_framebuffer(FRAMEBUFFER, 0);
        },
        &probes,
    );
}

/// A block of 64 floats from the vertex to the geometry stage: GL 3.2's least
/// `MAX_GEOMETRY_INPUT_COMPONENTS`, which the driver must pack (as single locations, 64
/// floats would take 64 of them).
const MANY_INPUTS_VS: &str = "#version 150
out Blk {
    float f[64];
} outs;
void main() {
    for (int i = 0; i < 64; i++)
        outs.f[i] = float(gl_VertexID * 1000 + i + 1);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
";

const MANY_INPUTS_GS: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 4) out;
in Blk {
    float f[64];
} ins[];
out vec4 shade;
void main() {
    bool ok = true;
    for (int v = 0; v < 3; v++)
        for (int i = 0; i < 64; i++)
            if (ins[v].f[i] != float(v * 1000 + i + 1))
                ok = false;
    for (int i = 0; i < 4; i++) {
        gl_Position = vec4(float(i / 2) * 2.0 - 1.0, float(i % 2) * 2.0 - 1.0, 0.0, 1.0);
        shade = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
        EmitVertex();
    }
}
";

const SHADE_FS: &str = "#version 150
in vec4 shade;
out vec4 color;
void main() { color = shade; }
";

#[test]
fn the_most_geometry_input_components() {
    check(
        "geometry_most_input_components",
        W,
        W,
        |gl| {
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, MANY_INPUTS_VS),
                    (GEOMETRY_SHADER, MANY_INPUTS_GS),
                    (FRAGMENT_SHADER, SHADE_FS),
                ],
            );
            gl.use_program(p);
            let vao = gl.gen_vertex_array();
            gl.bind_vertex_array(vao);
            gl.draw_arrays(TRIANGLES, 0, 3);
        },
        &[
            probe(0, 0, [0, 255, 0, 255]),
            probe(31, 31, [0, 255, 0, 255]),
        ],
    );
}

#[test]
fn mipmapped_1d_array_single_layer_clears() {
    // Every level and layer of a mipmapped 1D array texture (32 texels, 4 layers, 6 levels)
    // cleared through a single-layer attachment to its own colour, as piglit's
    // clear-color-all-types does, then each shown as one row of the default framebuffer
    // (row 4 * level + layer, from x = 0).
    let colour = |level: i32, layer: i32| [(level * 40 + 15) as u8, (layer * 80) as u8, 200, 255];
    let probes: Vec<_> = (0..6)
        .flat_map(|l| (0..4).map(move |y| (l, y)))
        .flat_map(|(l, y)| {
            let last = (32 >> l) - 1;
            [
                probe(0, 4 * l + y, colour(l, y)),
                probe(last, 4 * l + y, colour(l, y)),
            ]
        })
        .collect();
    check(
        "mipmapped_1d_array_single_layer_clears",
        W,
        W,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_1D_ARRAY, t);
            gl.tex_parameteri(
                TEXTURE_1D_ARRAY,
                TEXTURE_MIN_FILTER,
                LINEAR_MIPMAP_NEAREST as GLint,
            );
            for level in 0..6 {
                gl.tex_image_2d(
                    TEXTURE_1D_ARRAY,
                    level,
                    RGBA8 as GLint,
                    32 >> level,
                    4,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    None,
                );
            }
            let fbo = gl.gen_framebuffer();
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, fbo);
            for level in 0..6 {
                for layer in 0..4 {
                    let [r, g, b, a] = colour(level, layer).map(|c| f32::from(c) / 255.0);
                    gl.clear_color(r, g, b, a);
                    gl.framebuffer_texture_layer(
                        DRAW_FRAMEBUFFER,
                        COLOR_ATTACHMENT0,
                        t,
                        level,
                        layer,
                    );
                    gl.clear(COLOR_BUFFER_BIT);
                }
            }
            gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            gl.bind_framebuffer(READ_FRAMEBUFFER, fbo);
            for level in 0..6 {
                for layer in 0..4 {
                    gl.framebuffer_texture_layer(
                        READ_FRAMEBUFFER,
                        COLOR_ATTACHMENT0,
                        t,
                        level,
                        layer,
                    );
                    let (w, row) = (32 >> level, 4 * level + layer);
                    gl.blit_framebuffer(0, 0, w, 1, 0, row, w, row + 1, COLOR_BUFFER_BIT, NEAREST);
                }
            }
            gl.bind_framebuffer(FRAMEBUFFER, 0);
        },
        &probes,
    );
}

const ARRAY_1D_VS: &str = "#version 150
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }
";

/// Four columns, each one lookup of a 1D array texture in the geometry stage: both levels'
/// sizes, a fetch with an offset, an explicit-LOD lookup with an offset, and gradient
/// lookups (one with an offset).
const ARRAY_1D_GS: &str = "#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 16) out;
uniform sampler1DArray tex;
flat out vec4 shade;
void column(int c, vec4 colour) {
    float x0 = -1.0 + 0.5 * float(c);
    shade = colour; gl_Position = vec4(x0, -1.0, 0.0, 1.0); EmitVertex();
    shade = colour; gl_Position = vec4(x0 + 0.5, -1.0, 0.0, 1.0); EmitVertex();
    shade = colour; gl_Position = vec4(x0, 1.0, 0.0, 1.0); EmitVertex();
    shade = colour; gl_Position = vec4(x0 + 0.5, 1.0, 0.0, 1.0); EmitVertex();
    EndPrimitive();
}
void main() {
    ivec2 s0 = textureSize(tex, 0);
    ivec2 s1 = textureSize(tex, 1);
    column(0, vec4(s0.x, s0.y, s1.x, s1.y) * 10.0 / 255.0);
    column(1, texelFetchOffset(tex, ivec2(2, 1), 0, 3));
    column(2, textureLodOffset(tex, vec2(1.5 / 4.0, 2.0), 1.0, -1));
    column(3, textureGrad(tex, vec2(6.5 / 8.0, 0.0), 0.0, 0.0)
        - textureGradOffset(tex, vec2(3.5 / 8.0, 2.0), 0.0, 0.0, 2) * vec4(0.5, 0.0, 0.0, 0.0));
}
";

const ARRAY_1D_FS: &str = "#version 150
flat in vec4 shade;
out vec4 color;
void main() { color = shade; }
";

#[test]
fn a_geometry_stage_reads_a_1d_array_texture() {
    // Level 0: 8 texels by 3 layers, texel (x, layer) = (30 x, 100 layer, 50); level 1: 4 by
    // 3, (200, 10 x, 60 layer). GLES stores it as a 2D array of height 1.
    let texel = |level: GLint, x: u8, layer: u8| match level {
        0 => [30 * x, 100 * layer, 50, 255],
        _ => [200, 10 * x, 60 * layer, 255],
    };
    let texel0 = |x, layer| texel(0, x, layer);
    let texel1 = |x, layer| texel(1, x, layer);
    let fetched = texel0(5, 1);
    let lod = texel1(0, 2);
    let (a, b) = (texel0(6, 0), texel0(5, 2));
    let grad = [a[0] - b[0] / 2, a[1], a[2], a[3]];
    let probes = [
        probe(4, 16, [80, 30, 40, 30]),
        probe(12, 16, fetched),
        probe(20, 16, lod),
        probe(28, 16, grad),
    ];
    check(
        "a_geometry_stage_reads_a_1d_array_texture",
        W,
        W,
        |gl| {
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(COLOR_BUFFER_BIT);
            let t = gl.gen_texture();
            gl.bind_texture(TEXTURE_1D_ARRAY, t);
            gl.tex_parameteri(
                TEXTURE_1D_ARRAY,
                TEXTURE_MIN_FILTER,
                NEAREST_MIPMAP_NEAREST as GLint,
            );
            gl.tex_parameteri(TEXTURE_1D_ARRAY, TEXTURE_MAG_FILTER, NEAREST as GLint);
            gl.tex_parameteri(TEXTURE_1D_ARRAY, TEXTURE_MAX_LEVEL, 1);
            for (level, width) in [(0, 8u8), (1, 4)] {
                let data: Vec<u8> = (0..3u8)
                    .flat_map(|layer| (0..width).flat_map(move |x| texel(level, x, layer)))
                    .collect();
                gl.tex_image_2d(
                    TEXTURE_1D_ARRAY,
                    level,
                    RGBA8 as GLint,
                    GLsizei::from(width),
                    3,
                    0,
                    RGBA,
                    UNSIGNED_BYTE,
                    Some(&data),
                );
            }
            let p = program(
                gl,
                &[
                    (VERTEX_SHADER, ARRAY_1D_VS),
                    (GEOMETRY_SHADER, ARRAY_1D_GS),
                    (FRAGMENT_SHADER, ARRAY_1D_FS),
                ],
            );
            gl.use_program(p);
            let vao = gl.gen_vertex_array();
            gl.bind_vertex_array(vao);
            gl.draw_arrays(POINTS, 0, 1);
        },
        &probes,
    );
}
