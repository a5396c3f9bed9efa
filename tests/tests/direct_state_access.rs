//! GL 4.5's direct state access for textures and vertex arrays against the native driver on
//! both backends (Vulkan with the validation layer on, which must report nothing): a scene
//! built with named calls only (`glCreate*`, `glTexture*`, `glVertexArray*`,
//! `glBindTextureUnit`; buffers are filled through their binding, as their named forms are
//! not part of this test) draws the native pixels; the named queries answer the native
//! values; and the errors of names that are no object, of gen'd names never bound and of
//! targets a named call does not take are exactly the native ones.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::NativeGl;
use tessera_tests::named::NamedGl;

/// A textured quad per instance: position and texture coordinates interleaved in binding
/// 0, an integer tag per instance in binding 5 moving the texture coordinates.
const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in int layer;
out vec2 v_uv;
flat out int v_layer;
void main() {
    v_uv = uv;
    v_layer = layer;
    gl_Position = vec4(position + vec2(float(gl_InstanceID) * 0.5, 0.0), 0.0, 1.0);
}
";

const FS: &str = "#version 330
uniform sampler2D tex;
in vec2 v_uv;
flat in int v_layer;
out vec4 frag;
void main() {
    frag = texture(tex, v_uv + vec2(0.0, 0.25 * float(v_layer)));
}
";

fn program(gl: &mut dyn NamedGl) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            TRUE as i32,
            "{}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    p
}

/// A buffer holding `data` (filled through its binding: the named buffer calls are not
/// under test here).
fn buffer(gl: &mut dyn NamedGl, data: &[u8]) -> GLuint {
    let b = gl.gen_buffer();
    gl.bind_buffer(COPY_WRITE_BUFFER, b);
    gl.buffer_data(COPY_WRITE_BUFFER, data.len(), Some(data), STATIC_DRAW);
    gl.bind_buffer(COPY_WRITE_BUFFER, 0);
    b
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `w` x `h` RGBA texels drawn from `seed`.
fn texels(w: i32, h: i32, seed: u8) -> Vec<u8> {
    (0..w * h)
        .flat_map(|i| {
            let i = i as u8;
            [
                i.wrapping_mul(37).wrapping_add(seed),
                255 - i.wrapping_mul(11),
                seed,
                255,
            ]
        })
        .collect()
}

/// What [`scene`] made, for the queries.
struct Scene {
    vao: GLuint,
    tex: GLuint,
    layers: GLuint,
    vertices: GLuint,
    layer_tags: GLuint,
    indices: GLuint,
}

fn scene(gl: &mut dyn NamedGl) -> Scene {
    let p = program(gl);
    gl.use_program(p);
    let vertices = buffer(
        gl,
        &floats(&[
            -1.0, -1.0, 0.0, 0.0, -0.5, -1.0, 1.0, 0.0, -1.0, 1.0, 0.0, 1.0, -0.5, 1.0, 1.0, 1.0,
        ]),
    );
    let layer_tags = buffer(gl, &[0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]);
    let indices = buffer(gl, &[0, 1, 2, 2, 1, 3]);
    let vao = gl.create_vertex_array();
    gl.vertex_array_vertex_buffer(vao, 0, vertices, 0, 16);
    gl.vertex_array_vertex_buffer(vao, 5, layer_tags, 4, 4);
    gl.vertex_array_binding_divisor(vao, 5, 1);
    gl.vertex_array_attrib_format(vao, 0, 2, FLOAT, false, 0);
    gl.vertex_array_attrib_format(vao, 1, 2, FLOAT, false, 8);
    gl.vertex_array_attrib_i_format(vao, 2, 1, INT, 0);
    gl.vertex_array_attrib_binding(vao, 1, 0);
    gl.vertex_array_attrib_binding(vao, 2, 5);
    for a in 0..3 {
        gl.enable_vertex_array_attrib(vao, a, true);
    }
    gl.vertex_array_element_buffer(vao, indices);
    // A mipmapped 2D texture from level 0, sampled at level 1.
    let tex = gl.create_texture(TEXTURE_2D);
    gl.texture_storage_2d(tex, 3, RGBA8, 8, 8);
    gl.texture_sub_image_2d(tex, 0, [0, 0, 8, 8], &texels(8, 8, 3));
    gl.texture_sub_image_2d(tex, 0, [2, 2, 3, 3], &texels(3, 3, 200));
    gl.generate_texture_mipmap(tex);
    gl.texture_parameteri(tex, TEXTURE_MIN_FILTER, NEAREST_MIPMAP_NEAREST as GLint);
    gl.texture_parameteri(tex, TEXTURE_MAG_FILTER, NEAREST as GLint);
    gl.texture_parameteri(tex, TEXTURE_BASE_LEVEL, 1);
    gl.texture_parameteri(tex, TEXTURE_SWIZZLE_B, RED as GLint);
    // A 2D array of three layers on unit 3 (the program does not sample it).
    let layers = gl.create_texture(TEXTURE_2D_ARRAY);
    gl.texture_storage_3d(layers, 1, RGBA8, [4, 4, 3]);
    gl.texture_sub_image_3d(layers, 0, [0, 0, 0], [4, 4, 3], &texels(4, 12, 90));
    gl.texture_parameteri(layers, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.texture_parameteri(layers, TEXTURE_MAG_FILTER, NEAREST as GLint);
    gl.bind_texture_unit(0, tex);
    gl.bind_texture_unit(3, layers);
    gl.viewport(0, 0, 32, 32);
    gl.clear_color(0.1, 0.2, 0.3, 1.0);
    Scene {
        vao,
        tex,
        layers,
        vertices,
        layer_tags,
        indices,
    }
}

fn pixels(gl: &mut dyn NamedGl) -> Vec<u8> {
    let mut out = vec![0u8; 32 * 32 * 4];
    gl.read_pixels(0, 0, 32, 32, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// Draws of the scene, each after a named change: the pixels of each.
fn draws(gl: &mut dyn NamedGl) -> Vec<Vec<u8>> {
    let s = scene(gl);
    let mut out = Vec::new();
    let draw = |gl: &mut dyn NamedGl, out: &mut Vec<Vec<u8>>| {
        gl.clear(COLOR_BUFFER_BIT);
        gl.bind_vertex_array(s.vao);
        gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_BYTE, 0, 3);
        gl.bind_vertex_array(0);
        out.push(pixels(gl));
        assert_eq!(gl.get_error(), NO_ERROR);
    };
    draw(gl, &mut out);
    // Changes to objects: texels of level 1 and a swizzle of the texture, the array's tag
    // binding (every instance reads one layer).
    gl.texture_sub_image_2d(s.tex, 1, [0, 0, 2, 3], &texels(2, 3, 77));
    gl.texture_parameteri(s.tex, TEXTURE_SWIZZLE_G, BLUE as GLint);
    draw(gl, &mut out);
    gl.vertex_array_binding_divisor(s.vao, 5, 0);
    gl.vertex_array_vertex_buffer(s.vao, 5, s.layer_tags, 8, 0);
    draw(gl, &mut out);
    // The framebuffer copied into level 0 of the texture, which is unbound from unit 0 by
    // texture 0 and bound to unit 0 again by name.
    gl.copy_texture_sub_image_2d(s.tex, 0, [2, 1, 6, 6]);
    gl.bind_texture_unit(0, 0);
    gl.bind_texture_unit(0, s.tex);
    gl.bind_texture_unit(3, 0);
    // The texture coordinates disabled: every vertex reads the current value (0, 0).
    gl.enable_vertex_array_attrib(s.vao, 1, false);
    draw(gl, &mut out);
    out
}

/// The named queries after the scene.
fn queries(gl: &mut dyn NamedGl) -> Vec<i64> {
    let s = scene(gl);
    let mut out = Vec::new();
    for pname in [
        TEXTURE_BASE_LEVEL,
        TEXTURE_MAX_LEVEL,
        TEXTURE_MIN_FILTER,
        TEXTURE_SWIZZLE_B,
        TEXTURE_IMMUTABLE_FORMAT,
        TEXTURE_IMMUTABLE_LEVELS,
        TEXTURE_WRAP_S,
    ] {
        out.push(i64::from(gl.get_texture_parameteri(s.tex, pname)));
        out.push(i64::from(gl.get_texture_parameteri(s.layers, pname)));
    }
    for (tex, level) in [(s.tex, 0), (s.tex, 2), (s.layers, 0)] {
        for pname in [
            TEXTURE_WIDTH,
            TEXTURE_HEIGHT,
            TEXTURE_DEPTH,
            TEXTURE_INTERNAL_FORMAT,
        ] {
            out.push(i64::from(
                gl.get_texture_level_parameteri(tex, level, pname),
            ));
        }
    }
    let cube = gl.create_texture(TEXTURE_CUBE_MAP);
    gl.texture_storage_2d(cube, 2, RGBA8, 16, 16);
    out.push(i64::from(gl.get_texture_level_parameteri(
        cube,
        1,
        TEXTURE_WIDTH,
    )));
    out.push(i64::from(
        gl.get_texture_parameteri(cube, TEXTURE_IMMUTABLE_LEVELS),
    ));
    out.push(i64::from(
        gl.get_vertex_array(s.vao, ELEMENT_ARRAY_BUFFER_BINDING),
    ));
    for attrib in 0..4 {
        for pname in [
            VERTEX_ATTRIB_ARRAY_ENABLED,
            VERTEX_ATTRIB_ARRAY_SIZE,
            VERTEX_ATTRIB_ARRAY_STRIDE,
            VERTEX_ATTRIB_ARRAY_TYPE,
            VERTEX_ATTRIB_ARRAY_NORMALIZED,
            VERTEX_ATTRIB_ARRAY_INTEGER,
            VERTEX_ATTRIB_ARRAY_DIVISOR,
            VERTEX_ATTRIB_ARRAY_BUFFER_BINDING,
            VERTEX_ATTRIB_BINDING,
            VERTEX_ATTRIB_RELATIVE_OFFSET,
        ] {
            out.push(i64::from(gl.get_vertex_array_indexed(s.vao, attrib, pname)));
        }
    }
    for binding in [0, 5, 6] {
        out.push(gl.get_vertex_array_indexed64(s.vao, binding, VERTEX_BINDING_OFFSET));
    }
    // Nothing the named calls did is bound.
    for pname in [
        TEXTURE_BINDING_2D,
        VERTEX_ARRAY_BINDING,
        ELEMENT_ARRAY_BUFFER_BINDING,
    ] {
        let mut v = [0];
        gl.get_integerv(pname, &mut v);
        out.push(i64::from(v[0]));
    }
    out.push(i64::from(s.vertices != 0 && s.indices != 0));
    out.push(i64::from(gl.get_error()));
    // The texture's level 0 read back by name, and into a buffer one byte short (nothing
    // written, INVALID_OPERATION).
    for (tex, level, len) in [(s.tex, 0, 256), (s.tex, 0, 255)] {
        out.extend(
            gl.get_texture_image(tex, level, len)
                .into_iter()
                .map(i64::from),
        );
        out.push(i64::from(gl.get_error()));
    }
    out
}

/// The errors of misuse, in order.
fn errors(gl: &mut dyn NamedGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let check = |gl: &mut dyn NamedGl, e: &mut Vec<GLenum>| e.push(gl.get_error());
    let genned_tex = gl.gen_texture();
    let genned_vao = gl.gen_vertex_array();
    let tex2d = gl.create_texture(TEXTURE_2D);
    let tex3d = gl.create_texture(TEXTURE_3D);
    let buffer_tex = gl.create_texture(TEXTURE_BUFFER);
    let vao = gl.create_vertex_array();
    let b = buffer(gl, &[0; 64]);
    let genned_buffer = gl.gen_buffer();
    let data = texels(4, 4, 1);
    for name in [0, 4242, genned_tex] {
        gl.texture_parameteri(name, TEXTURE_MIN_FILTER, NEAREST as GLint);
        check(gl, &mut e);
        gl.get_texture_parameteri(name, TEXTURE_MIN_FILTER);
        check(gl, &mut e);
        gl.get_texture_level_parameteri(name, 0, TEXTURE_WIDTH);
        check(gl, &mut e);
        gl.texture_storage_2d(name, 1, RGBA8, 4, 4);
        check(gl, &mut e);
        gl.texture_sub_image_2d(name, 0, [0, 0, 4, 4], &data);
        check(gl, &mut e);
        gl.generate_texture_mipmap(name);
        check(gl, &mut e);
        gl.bind_texture_unit(0, name);
        check(gl, &mut e);
        gl.copy_texture_sub_image_2d(name, 0, [0, 0, 1, 1]);
        check(gl, &mut e);
    }
    // Targets a named call does not take.
    gl.texture_storage_2d(tex3d, 1, RGBA8, 4, 4);
    check(gl, &mut e);
    gl.texture_storage_3d(tex2d, 1, RGBA8, [4, 4, 4]);
    check(gl, &mut e);
    gl.texture_storage_2d(tex2d, 1, RGBA8, 4, 4);
    check(gl, &mut e);
    gl.texture_storage_2d(tex2d, 1, RGBA8, 4, 4);
    check(gl, &mut e);
    gl.texture_sub_image_3d(tex2d, 0, [0, 0, 0], [4, 4, 1], &data);
    check(gl, &mut e);
    gl.texture_sub_image_2d(tex3d, 0, [0, 0, 4, 4], &data);
    check(gl, &mut e);
    gl.texture_sub_image_2d(tex2d, 0, [2, 2, 4, 4], &data);
    check(gl, &mut e);
    gl.texture_parameteri(buffer_tex, TEXTURE_MIN_FILTER, NEAREST as GLint);
    check(gl, &mut e);
    gl.get_texture_level_parameteri(buffer_tex, 0, TEXTURE_WIDTH);
    check(gl, &mut e);
    gl.generate_texture_mipmap(buffer_tex);
    check(gl, &mut e);
    gl.texture_parameteri(tex2d, TEXTURE_BASE_LEVEL, -1);
    check(gl, &mut e);
    gl.texture_parameterfv(tex2d, TEXTURE_BORDER_COLOR, &[0.5; 4]);
    check(gl, &mut e);
    gl.bind_texture_unit(200, tex2d);
    check(gl, &mut e);
    gl.bind_texture_unit(5, tex3d);
    check(gl, &mut e);
    let ms = gl.create_texture(TEXTURE_2D_MULTISAMPLE);
    for (tex, samples) in [(tex2d, 2), (genned_tex, 2), (ms, 2), (ms, 4)] {
        gl.texture_storage_2d_multisample(tex, samples, 8, 8);
        check(gl, &mut e);
    }
    for tex in [tex2d, genned_tex, buffer_tex, 0] {
        gl.texture_buffer(tex, b);
        check(gl, &mut e);
    }
    gl.texture_storage_2d(ms, 1, RGBA8, 4, 4);
    check(gl, &mut e);
    gl.get_texture_level_parameteri(ms, 0, TEXTURE_SAMPLES);
    check(gl, &mut e);
    // Vertex arrays: names that are none, then each call's own checks.
    for name in [0, 4242, genned_vao] {
        gl.vertex_array_vertex_buffer(name, 99, b, -1, -1);
        check(gl, &mut e);
        gl.vertex_array_attrib_format(name, 99, 9, 0, false, 5000);
        check(gl, &mut e);
        gl.vertex_array_attrib_binding(name, 99, 99);
        check(gl, &mut e);
        gl.vertex_array_binding_divisor(name, 99, 1);
        check(gl, &mut e);
        gl.enable_vertex_array_attrib(name, 99, true);
        check(gl, &mut e);
        gl.vertex_array_element_buffer(name, b);
        check(gl, &mut e);
        gl.get_vertex_array(name, ELEMENT_ARRAY_BUFFER_BINDING);
        check(gl, &mut e);
        gl.get_vertex_array_indexed(name, 99, VERTEX_ATTRIB_ARRAY_SIZE);
        check(gl, &mut e);
        gl.get_vertex_array_indexed64(name, 99, VERTEX_ATTRIB_ARRAY_SIZE);
        check(gl, &mut e);
    }
    gl.enable_vertex_array_attrib(vao, 16, true);
    check(gl, &mut e);
    gl.vertex_array_element_buffer(vao, 4242);
    check(gl, &mut e);
    gl.vertex_array_element_buffer(vao, genned_buffer);
    check(gl, &mut e);
    gl.vertex_array_vertex_buffer(vao, 0, 4242, 0, 16);
    check(gl, &mut e);
    gl.vertex_array_vertex_buffer(vao, 16, b, 0, 16);
    check(gl, &mut e);
    gl.vertex_array_attrib_format(vao, 0, 5, FLOAT, false, 0);
    check(gl, &mut e);
    gl.vertex_array_attrib_i_format(vao, 0, 4, FLOAT, 0);
    check(gl, &mut e);
    gl.vertex_array_attrib_binding(vao, 0, 16);
    check(gl, &mut e);
    gl.get_vertex_array(vao, VERTEX_ARRAY_BINDING);
    check(gl, &mut e);
    e.push(gl.get_vertex_array_indexed(vao, 0, CURRENT_VERTEX_ATTRIB) as GLenum);
    check(gl, &mut e);
    e.push(gl.get_vertex_array_indexed(vao, 16, VERTEX_ATTRIB_ARRAY_SIZE) as GLenum);
    check(gl, &mut e);
    gl.get_vertex_array_indexed64(vao, 16, VERTEX_BINDING_OFFSET);
    check(gl, &mut e);
    gl.get_vertex_array_indexed64(vao, 0, VERTEX_BINDING_STRIDE);
    check(gl, &mut e);
    // glVertexArrayVertexBuffers: the name, the range, then each binding on its own.
    gl.vertex_array_vertex_buffers(4242, 0, &[b], &[0], &[16]);
    check(gl, &mut e);
    gl.vertex_array_vertex_buffers(vao, 15, &[b, b], &[0, 0], &[16, 16]);
    check(gl, &mut e);
    gl.vertex_array_vertex_buffers(vao, 1, &[b, 4242, b], &[4, 8, -4], &[16, 16, 16]);
    check(gl, &mut e);
    for binding in 1..4 {
        e.push(gl.get_vertex_array_indexed64(vao, binding, VERTEX_BINDING_OFFSET) as GLenum);
    }
    // glCreateTransformFeedbacks.
    gl.create_transform_feedbacks_n(-1);
    check(gl, &mut e);
    e.push(GLenum::from(gl.create_transform_feedbacks_n(2) != 0));
    check(gl, &mut e);
    e
}

/// An offscreen framebuffer made by name: a colour texture's level 0 and a 2D array layer,
/// a depth renderbuffer; the scene drawn into the texture with depth testing, the layer
/// cleared alone, then each read back. Returns the pixels and the named state read around it.
fn framebuffer_scene(gl: &mut dyn NamedGl) -> (Vec<Vec<u8>>, Vec<i64>) {
    let s = scene(gl);
    let mut state = Vec::new();
    let color = gl.create_texture(TEXTURE_2D);
    gl.texture_storage_2d(color, 2, RGBA8, 32, 32);
    let array = gl.create_texture(TEXTURE_2D_ARRAY);
    gl.texture_storage_3d(array, 1, RGBA8, [32, 32, 3]);
    let depth = gl.create_renderbuffer();
    gl.named_renderbuffer_storage_multisample(depth, 0, DEPTH_COMPONENT24, 32, 32);
    let fb = gl.create_framebuffer();
    state.push(i64::from(
        gl.check_named_framebuffer_status(fb, DRAW_FRAMEBUFFER),
    ));
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0, color, 0);
    gl.named_framebuffer_texture_layer(fb, COLOR_ATTACHMENT2, array, 0, 2);
    gl.named_framebuffer_renderbuffer(fb, DEPTH_ATTACHMENT, depth);
    gl.named_framebuffer_draw_buffers(fb, &[COLOR_ATTACHMENT0]);
    gl.named_framebuffer_read_buffer(fb, COLOR_ATTACHMENT2);
    for target in [FRAMEBUFFER, READ_FRAMEBUFFER] {
        state.push(i64::from(gl.check_named_framebuffer_status(fb, target)));
    }
    state.push(i64::from(gl.check_named_framebuffer_status(0, FRAMEBUFFER)));
    for (attachment, pname) in [
        (COLOR_ATTACHMENT0, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
        (COLOR_ATTACHMENT0, FRAMEBUFFER_ATTACHMENT_OBJECT_NAME),
        (COLOR_ATTACHMENT0, FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL),
        (COLOR_ATTACHMENT2, FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER),
        (COLOR_ATTACHMENT2, FRAMEBUFFER_ATTACHMENT_RED_SIZE),
        (DEPTH_ATTACHMENT, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
        (DEPTH_ATTACHMENT, FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE),
        (COLOR_ATTACHMENT1, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
    ] {
        state.push(i64::from(
            gl.get_named_framebuffer_attachment(fb, attachment, pname),
        ));
    }
    for pname in [
        RENDERBUFFER_WIDTH,
        RENDERBUFFER_HEIGHT,
        RENDERBUFFER_INTERNAL_FORMAT,
        RENDERBUFFER_SAMPLES,
        RENDERBUFFER_DEPTH_SIZE,
    ] {
        state.push(i64::from(gl.get_named_renderbuffer(depth, pname)));
    }
    for pname in [DRAW_FRAMEBUFFER_BINDING, RENDERBUFFER_BINDING] {
        let mut v = [0];
        gl.get_integerv(pname, &mut v);
        state.push(i64::from(v[0]));
    }
    state.push(i64::from(gl.get_error()));
    let sampler = gl.create_sampler();
    state.push(i64::from(sampler != 0));
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, fb);
    gl.viewport(0, 0, 32, 32);
    gl.enable(DEPTH_TEST);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
    gl.bind_vertex_array(s.vao);
    gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_BYTE, 0, 3);
    gl.bind_vertex_array(0);
    // Only the layer: a clear through the draw buffers set by name.
    gl.named_framebuffer_draw_buffers(fb, &[NONE, NONE, COLOR_ATTACHMENT2]);
    gl.clear_color(0.75, 0.5, 0.25, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
    gl.disable(DEPTH_TEST);
    let mut out = Vec::new();
    gl.bind_framebuffer(READ_FRAMEBUFFER, fb);
    out.push(pixels(gl));
    gl.named_framebuffer_read_buffer(fb, COLOR_ATTACHMENT0);
    out.push(pixels(gl));
    gl.bind_framebuffer(READ_FRAMEBUFFER, 0);
    state.push(i64::from(gl.get_error()));
    (out, state)
}

/// The errors of the framebuffer and renderbuffer calls, in order.
fn framebuffer_errors(gl: &mut dyn NamedGl) -> Vec<GLenum> {
    let mut e = Vec::new();
    let check = |gl: &mut dyn NamedGl, e: &mut Vec<GLenum>| e.push(gl.get_error());
    let genned_fb = gl.gen_framebuffer();
    let genned_rb = gl.gen_renderbuffer();
    let tex = gl.create_texture(TEXTURE_2D);
    gl.texture_storage_2d(tex, 1, RGBA8, 4, 4);
    let rb = gl.create_renderbuffer();
    let fb = gl.create_framebuffer();
    for name in [0, 4242, genned_fb] {
        gl.named_framebuffer_texture(name, COLOR_ATTACHMENT0, tex, 0);
        check(gl, &mut e);
        gl.named_framebuffer_texture_layer(name, COLOR_ATTACHMENT0, tex, 0, 0);
        check(gl, &mut e);
        gl.named_framebuffer_renderbuffer(name, COLOR_ATTACHMENT0, rb);
        check(gl, &mut e);
        e.push(gl.check_named_framebuffer_status(name, FRAMEBUFFER));
        check(gl, &mut e);
        gl.get_named_framebuffer_attachment(
            name,
            COLOR_ATTACHMENT0,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
        );
        check(gl, &mut e);
        gl.named_framebuffer_draw_buffers(name, &[COLOR_ATTACHMENT0]);
        check(gl, &mut e);
        gl.named_framebuffer_read_buffer(name, COLOR_ATTACHMENT0);
        check(gl, &mut e);
    }
    for name in [0, 4242, genned_rb] {
        gl.named_renderbuffer_storage_multisample(name, 0, RGBA8, 4, 4);
        check(gl, &mut e);
        gl.get_named_renderbuffer(name, RENDERBUFFER_WIDTH);
        check(gl, &mut e);
    }
    // Each call's own checks on objects that exist.
    e.push(gl.check_named_framebuffer_status(fb, TEXTURE_2D));
    check(gl, &mut e);
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0 + 99, tex, 0);
    check(gl, &mut e);
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0, tex, 5);
    check(gl, &mut e);
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0, 4242, 0);
    check(gl, &mut e);
    gl.named_framebuffer_texture_layer(fb, COLOR_ATTACHMENT0, tex, 0, 0);
    check(gl, &mut e);
    gl.named_framebuffer_renderbuffer(fb, COLOR_ATTACHMENT0, genned_rb);
    check(gl, &mut e);
    gl.named_framebuffer_draw_buffers(fb, &[BACK]);
    check(gl, &mut e);
    gl.named_framebuffer_draw_buffers(fb, &[COLOR_ATTACHMENT0, COLOR_ATTACHMENT0]);
    check(gl, &mut e);
    gl.named_framebuffer_read_buffer(fb, BACK);
    check(gl, &mut e);
    gl.named_framebuffer_read_buffer(0, COLOR_ATTACHMENT0);
    check(gl, &mut e);
    gl.named_framebuffer_draw_buffers(0, &[BACK]);
    check(gl, &mut e);
    gl.get_named_framebuffer_attachment(fb, COLOR_ATTACHMENT0, TEXTURE_2D);
    check(gl, &mut e);
    gl.get_named_framebuffer_attachment(0, BACK_LEFT, FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
    check(gl, &mut e);
    gl.named_renderbuffer_storage_multisample(rb, 0, RGBA, 4, 4);
    check(gl, &mut e);
    gl.named_renderbuffer_storage_multisample(rb, 0, RGBA8, -1, 4);
    check(gl, &mut e);
    gl.get_named_renderbuffer(rb, TEXTURE_WIDTH);
    check(gl, &mut e);
    e
}

/// Where two debug renderings first differ, with some context.
fn first_difference(got: &str, expected: &str) -> String {
    let at = got
        .bytes()
        .zip(expected.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(expected.len()));
    let from = at.saturating_sub(60);
    let end = |s: &str| (at + 60).min(s.len());
    format!(
        "at byte {at}: got ..{}.., expected ..{}..",
        &got[from..end(got)],
        &expected[from..end(expected)]
    )
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn NamedGl) -> T) {
    let mut native = NativeGl::new(32, 32).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), 32, 32);
            let got = scene(&mut ctx);
            assert!(
                got == expected,
                "{} {}: {}",
                backend.name(),
                transport.name(),
                first_difference(&format!("{got:?}"), &format!("{expected:?}"))
            );
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

#[test]
fn a_scene_built_by_name_draws_as_the_native_driver_draws() {
    compare(|gl| {
        let got = draws(gl);
        for (i, p) in got.iter().enumerate() {
            if i > 0 {
                assert_ne!(*p, got[i - 1], "step {i} changed nothing");
            }
        }
        got
    });
}

#[test]
fn named_queries_match_the_native_driver() {
    compare(queries);
}

#[test]
fn named_errors_match_the_native_driver() {
    compare(errors);
}

#[test]
fn a_framebuffer_made_by_name_draws_and_answers_as_the_native_driver() {
    compare(|gl| {
        let (pixels, state) = framebuffer_scene(gl);
        assert_ne!(
            pixels[0], pixels[1],
            "the two attachments hold the same pixels"
        );
        (pixels, state)
    });
}

#[test]
fn named_framebuffer_errors_match_the_native_driver() {
    compare(framebuffer_errors);
}
