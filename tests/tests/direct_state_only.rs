//! A program that reaches every object by name (GL 4.5's direct state access), against the
//! native driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): buffers, textures (a cube map's faces written and read as layers), a sampler,
//! a framebuffer with a renderbuffer and the vertex array are made and filled with
//! `glCreate*` and the named calls; no `glBind*` is called but what drawing needs
//! (`glBindVertexArray`, `glUseProgram`, `glBindTextureUnit`, `glBindSampler` and
//! `glBindFramebuffer` of the draw target). The framebuffer is cleared by name and blitted
//! by name into the default framebuffer.
//! Then the transcripts of the named framebuffer verbs and parameters, transform feedback
//! objects' buffers and compressed images: every error and value exactly the native one.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_es30, tessera_on};
use tessera_tests::gl::NativeGl;
use tessera_tests::named::NamedGl;

/// Two quads side by side (instance 0 and 1): the left samples the 2D texture, the right
/// the cube map along a direction through the face the instance tag names.
const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in int face;
out vec2 v_uv;
flat out int v_face;
flat out int v_side;
void main() {
    v_uv = uv;
    v_face = face;
    v_side = gl_InstanceID;
    gl_Position = vec4(position + vec2(float(gl_InstanceID), 0.0), 0.5 - 0.25 * float(gl_InstanceID), 1.0);
}
";

const FS: &str = "#version 330
uniform sampler2D tex;
uniform samplerCube cube;
in vec2 v_uv;
flat in int v_face;
flat in int v_side;
out vec4 frag;
void main() {
    vec2 c = v_uv * 1.8 - 0.9;
    vec3 dirs[6] = vec3[6](vec3(1.0, -c.y, -c.x), vec3(-1.0, -c.y, c.x), vec3(c.x, 1.0, c.y),
                           vec3(c.x, -1.0, -c.y), vec3(c.x, -c.y, 1.0), vec3(-c.x, -c.y, -1.0));
    frag = v_side == 0 ? texture(tex, v_uv) : texture(cube, dirs[v_face]);
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

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `n` RGBA texels drawn from `seed`.
fn texels(n: i32, seed: u8) -> Vec<u8> {
    (0..n)
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

/// A buffer made and filled by name.
fn buffer(gl: &mut dyn NamedGl, data: &[u8], flags: GLbitfield) -> GLuint {
    let b = gl.create("buffer", 0);
    gl.named_buffer_storage(b, data.len(), Some(data), flags);
    b
}

const SIZE: i32 = 32;

/// The default framebuffer's pixels.
fn pixels(gl: &mut dyn NamedGl) -> Vec<u8> {
    let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// The scene: two frames into a framebuffer made by name, each blitted by name into half of
/// the default framebuffer; the default framebuffer's pixels after each,
/// then the colour texture and the cube map read back by name.
fn scene(gl: &mut dyn NamedGl) -> Vec<Vec<u8>> {
    let p = program(gl);
    let tex_loc = gl.get_uniform_location(p, "tex");
    let cube_loc = gl.get_uniform_location(p, "cube");
    gl.program_uniform1i(p, tex_loc, 0);
    gl.program_uniform1i(p, cube_loc, 1);
    let vertices = buffer(
        gl,
        &floats(&[
            -1.0, -1.0, 0.0, 0.0, 0.0, -1.0, 1.0, 0.0, -1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0,
        ]),
        0,
    );
    let faces = buffer(gl, &[0, 0, 0, 0, 4, 0, 0, 0], DYNAMIC_STORAGE_BIT);
    let indices = buffer(gl, &[0, 1, 2, 2, 1, 3], 0);
    let vao = gl.create("vertex array", 0);
    gl.vertex_array_vertex_buffer(vao, 0, vertices, 0, 16);
    gl.vertex_array_vertex_buffer(vao, 3, faces, 0, 4);
    gl.vertex_array_binding_divisor(vao, 3, 1);
    gl.vertex_array_attrib_format(vao, 0, 2, FLOAT, false, 0);
    gl.vertex_array_attrib_format(vao, 1, 2, FLOAT, false, 8);
    gl.vertex_array_attrib_i_format(vao, 2, 1, INT, 0);
    gl.vertex_array_attrib_binding(vao, 1, 0);
    gl.vertex_array_attrib_binding(vao, 2, 3);
    for a in 0..3 {
        gl.enable_vertex_array_attrib(vao, a, true);
    }
    gl.vertex_array_element_buffer(vao, indices);
    // The 2D texture, sampled through a sampler object (nearest, clamped).
    let tex = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(tex, 1, RGBA8, 4, 4);
    gl.texture_sub_image_2d(tex, 0, [0, 0, 4, 4], &texels(16, 9));
    let sampler = gl.create("sampler", 0);
    gl.sampler_parameteri(sampler, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.sampler_parameteri(sampler, TEXTURE_MAG_FILTER, NEAREST as GLint);
    gl.sampler_parameteri(sampler, TEXTURE_WRAP_S, CLAMP_TO_EDGE as GLint);
    gl.sampler_parameteri(sampler, TEXTURE_WRAP_T, CLAMP_TO_EDGE as GLint);
    // The cube map: its six faces written as the six layers of one call.
    let cube = gl.create("texture", TEXTURE_CUBE_MAP);
    gl.texture_storage_2d(cube, 1, RGBA8, 2, 2);
    gl.texture_sub_image_3d(cube, 0, [0, 0, 0], [2, 2, 6], &texels(24, 50));
    gl.texture_parameteri(cube, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.texture_parameteri(cube, TEXTURE_MAG_FILTER, NEAREST as GLint);
    // The framebuffer: a colour texture and a depth-stencil renderbuffer.
    let color = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(color, 1, RGBA8, SIZE, SIZE);
    let depth = gl.create("renderbuffer", 0);
    gl.named_renderbuffer_storage(depth, DEPTH24_STENCIL8, SIZE, SIZE);
    let fb = gl.create("framebuffer", 0);
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0, color, 0);
    gl.named_framebuffer_renderbuffer(fb, DEPTH_STENCIL_ATTACHMENT, depth);
    gl.named_framebuffer_draw_buffer(fb, COLOR_ATTACHMENT0);
    assert_eq!(
        gl.check_named_framebuffer_status(fb, FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    // Drawing state: what a draw needs bound.
    gl.use_program(p);
    gl.bind_vertex_array(vao);
    gl.bind_texture_unit(0, tex);
    gl.bind_texture_unit(1, cube);
    gl.bind_sampler(0, sampler);
    gl.enable(DEPTH_TEST);
    gl.viewport(0, 0, SIZE, SIZE);
    let mut out = Vec::new();
    let frame = |gl: &mut dyn NamedGl, out: &mut Vec<Vec<u8>>, half: i32| {
        gl.clear_named_framebufferfv(fb, COLOR, 0, [0.1, 0.2, 0.3, 1.0]);
        gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 0, 0.6, 0);
        gl.bind_framebuffer(DRAW_FRAMEBUFFER, fb);
        gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_BYTE, 0, 2);
        gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
        gl.clear_color(0.9, 0.5, 0.1, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        let (x0, x1) = (half * SIZE / 2, (half + 1) * SIZE / 2);
        gl.blit_named_framebuffer(
            fb,
            0,
            [0, 0, SIZE, SIZE],
            [x0, 0, x1, SIZE],
            COLOR_BUFFER_BIT,
            NEAREST,
        );
        out.push(pixels(gl));
        assert_eq!(gl.get_error(), NO_ERROR);
    };
    frame(gl, &mut out, 0);
    // NamedGl changes: cube face 3 rewritten as layer 3, the right quad's face tag, the depth
    // the frame is cleared to (the right quad, nearer, now fails the test).
    gl.texture_sub_image_3d(cube, 0, [0, 0, 3], [2, 2, 1], &texels(4, 200));
    gl.named_buffer_sub_data(faces, 4, &[3, 0, 0, 0]);
    frame(gl, &mut out, 1);
    gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 0, 0.3, 0);
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, fb);
    gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_BYTE, 0, 2);
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
    out.push(gl.get_texture_image(color, 0, (SIZE * SIZE * 4) as usize));
    out.push(gl.get_texture_image(cube, 0, 2 * 2 * 4 * 6));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// Errors and answers of the named framebuffer verbs and parameters.
fn framebuffer_transcript(gl: &mut dyn NamedGl) -> Vec<i64> {
    let mut t = Vec::new();
    let color = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(color, 1, RGBA8, 8, 8);
    let depth = gl.create("renderbuffer", 0);
    gl.named_renderbuffer_storage(depth, DEPTH24_STENCIL8, 8, 8);
    let fb = gl.create("framebuffer", 0);
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0, color, 0);
    gl.named_framebuffer_renderbuffer(fb, DEPTH_STENCIL_ATTACHMENT, depth);
    let empty = gl.create("framebuffer", 0);
    let generated = gl.gen_framebuffer();
    let step = |gl: &mut dyn NamedGl, t: &mut Vec<i64>, f: &dyn Fn(&mut dyn NamedGl)| {
        f(gl);
        t.push(i64::from(gl.get_error()));
    };
    // Clears: names, buffers, draw buffer indices, an incomplete framebuffer.
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(999, COLOR, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, COLOR, 0, [0.25, 0.5, 0.75, 1.0])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, COLOR, 9, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, STENCIL, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, DEPTH, 1, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, DEPTH, 0, [0.5; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferiv(fb, STENCIL, 0, [3; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferiv(fb, DEPTH, 0, [3; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferuiv(fb, STENCIL, 0, [3; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(fb, COLOR, 0, 1.0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 1, 1.0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 0, 1.0, 7)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(empty, COLOR, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(empty, DEPTH, 0, 1.0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(generated, COLOR, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(0, COLOR, 0, [0.0, 1.0, 0.0, 1.0])
    });
    // The bindings are as they were.
    for pname in [DRAW_FRAMEBUFFER_BINDING, READ_FRAMEBUFFER_BINDING] {
        let mut v = [-1];
        gl.get_integerv(pname, &mut v);
        t.push(i64::from(v[0]));
    }
    // What the clears wrote into the colour attachment. (Native llvmpipe's named clear of
    // framebuffer 0 leaves its pbuffer as it was, so the default framebuffer's pixels are
    // not compared.)
    t.extend(
        gl.get_texture_image(color, 0, 8 * 8 * 4)
            .iter()
            .step_by(37)
            .map(|b| i64::from(*b)),
    );
    // Blits: names (read first), masks, filters, an incomplete side.
    let whole = [0, 0, 8, 8];
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(999, 0, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 999, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(999, 998, whole, whole, 0x7, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(generated + 50, 0, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, whole, 0x7, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, whole, COLOR_BUFFER_BIT, 0x1234)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, whole, DEPTH_BUFFER_BIT, LINEAR)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(empty, 0, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, [8, 8, 24, 24], COLOR_BUFFER_BIT, LINEAR)
    });
    let mut px = [0u8; 4];
    gl.read_pixels(12, 12, 1, 1, RGBA, UNSIGNED_BYTE, &mut px);
    t.extend(px.iter().map(|b| i64::from(*b)));
    // Invalidation: names, attachments of each kind of framebuffer, counts and sizes.
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(999, &[COLOR_ATTACHMENT0])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(fb, &[COLOR_ATTACHMENT0, DEPTH_STENCIL_ATTACHMENT])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(fb, &[COLOR])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(fb, &[COLOR_ATTACHMENT0 + 9])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(0, &[COLOR, DEPTH, STENCIL])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(0, &[COLOR_ATTACHMENT0])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(fb, 1, &[COLOR_ATTACHMENT0], [0, 0, 4, 4])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(fb, -1, &[COLOR_ATTACHMENT0], [0, 0, 4, 4])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(fb, 1, &[COLOR_ATTACHMENT0], [0, 0, -1, 4])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(
            generated + 50,
            1,
            &[COLOR_ATTACHMENT0],
            [0, 0, 4, 4],
        )
    });
    // Parameters: names, pnames, the default framebuffer, values, then the queries.
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(999, FRAMEBUFFER_DEFAULT_WIDTH, 16)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, FRAMEBUFFER_DEFAULT_WIDTH, 16)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, FRAMEBUFFER_DEFAULT_HEIGHT, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, SAMPLES, 1)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, FRAMEBUFFER_DEFAULT_LAYERS, -1)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(0, FRAMEBUFFER_DEFAULT_WIDTH, 16)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(0, 0x1234, 16)
    });
    for (f, pname) in [
        (empty, FRAMEBUFFER_DEFAULT_WIDTH),
        (empty, FRAMEBUFFER_DEFAULT_HEIGHT),
        (empty, FRAMEBUFFER_DEFAULT_SAMPLES),
        (fb, FRAMEBUFFER_DEFAULT_WIDTH),
        (0, SAMPLES),
        (0, SAMPLE_BUFFERS),
        (0, FRAMEBUFFER_DEFAULT_WIDTH),
        (999, FRAMEBUFFER_DEFAULT_WIDTH),
        (fb, 0x1234),
    ] {
        t.push(i64::from(gl.get_named_framebuffer_parameteri(f, pname)));
        t.push(i64::from(gl.get_error()));
    }
    t.push(i64::from(
        gl.check_named_framebuffer_status(empty, FRAMEBUFFER),
    ));
    t.push(i64::from(gl.get_error()));
    // GL 4.5's errors of the named forms where the bound ones keep older ones: too many
    // samples for a renderbuffer, sampler state of a multisample texture.
    let rb = gl.create("renderbuffer", 0);
    step(gl, &mut t, &|gl| {
        gl.named_renderbuffer_storage_multisample(rb, 64, RGBA8, 8, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.named_renderbuffer_storage_multisample(rb, -1, RGBA8, 8, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.named_renderbuffer_storage_multisample(rb, 64, 0x1234, 8, 8)
    });
    let ms = gl.create("texture", TEXTURE_2D_MULTISAMPLE);
    for pname in [
        TEXTURE_MIN_FILTER,
        TEXTURE_WRAP_S,
        TEXTURE_COMPARE_MODE,
        TEXTURE_BASE_LEVEL,
    ] {
        step(gl, &mut t, &|gl| {
            gl.texture_parameteri(ms, pname, NEAREST as GLint)
        });
    }
    // Objects made by name take labels: a program pipeline, a transform feedback object.
    let pipeline = gl.create_program_pipeline();
    let xfb = gl.create("transform feedback", 0);
    for (identifier, name) in [(PROGRAM_PIPELINE, pipeline), (TRANSFORM_FEEDBACK, xfb)] {
        gl.object_label(identifier, name, Some("named"));
        t.push(i64::from(gl.get_error()));
        t.push(gl.get_object_label(identifier, name).len() as i64);
        t.push(i64::from(gl.get_error()));
    }
    t
}

/// Errors and answers of transform feedback objects' buffers by name.
fn transform_feedback_transcript(gl: &mut dyn NamedGl) -> Vec<i64> {
    let mut t = Vec::new();
    let b = buffer(gl, &[0; 64], 0);
    let other = buffer(gl, &[0; 16], 0);
    let x = gl.create("transform feedback", 0);
    let generated = gl.gen_transform_feedback();
    let step = |gl: &mut dyn NamedGl, t: &mut Vec<i64>, f: &dyn Fn(&mut dyn NamedGl)| {
        f(gl);
        t.push(i64::from(gl.get_error()));
    };
    step(gl, &mut t, &|gl| gl.transform_feedback_buffer_base(x, 0, b));
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 1, b, 16, 32)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 2, b, 48, 32)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 3, other, 8, 4)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(999, 0, b)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(x, 0, 999)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(999, 0, 999)
    });
    step(gl, &mut t, &|gl| gl.transform_feedback_buffer_base(x, 4, b));
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 4, b, 3, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, 2, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, 0, 6)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, -4, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, 0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, 0, 0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(generated, 2, other)
    });
    step(gl, &mut t, &|gl| gl.transform_feedback_buffer_base(0, 1, b));
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(0, 2, other, 4, 8)
    });
    for xfb in [x, generated, 0] {
        for i in 0..4 {
            t.push(i64::from(gl.get_transform_feedbacki_v(
                xfb,
                TRANSFORM_FEEDBACK_BUFFER_BINDING,
                i,
            )));
            t.push(gl.get_transform_feedbacki64_v(xfb, TRANSFORM_FEEDBACK_BUFFER_START, i));
            t.push(gl.get_transform_feedbacki64_v(xfb, TRANSFORM_FEEDBACK_BUFFER_SIZE, i));
        }
        t.push(i64::from(
            gl.get_transform_feedbacki(xfb, TRANSFORM_FEEDBACK_ACTIVE),
        ));
        t.push(i64::from(
            gl.get_transform_feedbacki(xfb, TRANSFORM_FEEDBACK_PAUSED),
        ));
        t.push(i64::from(gl.get_error()));
    }
    // The bound (default) object's bindings as glGet sees them; the generic binding stays.
    t.push(i64::from(
        gl.get_integeri(TRANSFORM_FEEDBACK_BUFFER_BINDING, 1),
    ));
    let mut v = [-1];
    gl.get_integerv(TRANSFORM_FEEDBACK_BUFFER_BINDING, &mut v);
    t.push(i64::from(v[0]));
    for (xfb, pname, index) in [
        (999, TRANSFORM_FEEDBACK_BUFFER_BINDING, 0),
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING, 4),
        (x, TRANSFORM_FEEDBACK_ACTIVE, 0),
    ] {
        t.push(i64::from(gl.get_transform_feedbacki_v(xfb, pname, index)));
        t.push(i64::from(gl.get_error()));
    }
    for (xfb, pname, index) in [
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING, 0),
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING, 1),
        (x, TRANSFORM_FEEDBACK_BUFFER_START, 4),
        (999, TRANSFORM_FEEDBACK_BUFFER_SIZE, 0),
    ] {
        t.push(gl.get_transform_feedbacki64_v(xfb, pname, index));
        t.push(i64::from(gl.get_error()));
    }
    for (xfb, pname) in [
        (999, TRANSFORM_FEEDBACK_ACTIVE),
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING),
    ] {
        t.push(i64::from(gl.get_transform_feedbacki(xfb, pname)));
        t.push(i64::from(gl.get_error()));
    }
    t
}

/// Errors and bytes of compressed images and cube maps read and written by name.
fn image_transcript(gl: &mut dyn NamedGl) -> Vec<i64> {
    let mut t = Vec::new();
    let blocks: Vec<u8> = (0..48u8)
        .map(|i| i.wrapping_mul(53).wrapping_add(7))
        .collect();
    let step = |gl: &mut dyn NamedGl, t: &mut Vec<i64>, f: &dyn Fn(&mut dyn NamedGl)| {
        f(gl);
        t.push(i64::from(gl.get_error()));
    };
    // An 8x8 RGTC1 image: four 8-byte blocks.
    let rgtc = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(rgtc, 1, COMPRESSED_RED_RGTC1, 8, 8);
    step(gl, &mut t, &|gl| {
        gl.compressed_texture_sub_image_2d(rgtc, [0, 0, 8, 8], COMPRESSED_RED_RGTC1, &blocks[..32])
    });
    t.extend(
        gl.get_compressed_texture_image(rgtc, 0, 32)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    t.extend(
        gl.get_compressed_texture_image(rgtc, 0, 31)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    gl.get_compressed_texture_image(rgtc, -1, 32);
    t.push(i64::from(gl.get_error()));
    gl.get_compressed_texture_image(999, 0, 32);
    t.push(i64::from(gl.get_error()));
    let plain = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(plain, 1, RGBA8, 2, 2);
    gl.get_compressed_texture_image(plain, 0, 64);
    t.push(i64::from(gl.get_error()));
    // A compressed cube map: six 4x4 faces of one block each, written as layers.
    let ccube = gl.create("texture", TEXTURE_CUBE_MAP);
    gl.texture_storage_2d(ccube, 1, COMPRESSED_RED_RGTC1, 4, 4);
    step(gl, &mut t, &|gl| {
        gl.compressed_texture_sub_image_3d(
            ccube,
            [0, 0, 0],
            [4, 4, 6],
            COMPRESSED_RED_RGTC1,
            &blocks,
        )
    });
    step(gl, &mut t, &|gl| {
        gl.compressed_texture_sub_image_3d(
            ccube,
            [0, 0, 2],
            [4, 4, 1],
            COMPRESSED_RED_RGTC1,
            &blocks[40..],
        )
    });
    t.extend(
        gl.get_compressed_texture_image(ccube, 0, 48)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    gl.get_compressed_texture_image(ccube, 0, 47);
    t.push(i64::from(gl.get_error()));
    // An RGBA8 cube map: faces written as layers, read back whole; the checks.
    let cube = gl.create("texture", TEXTURE_CUBE_MAP);
    gl.texture_storage_2d(cube, 2, RGBA8, 2, 2);
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [0, 0, 0], [2, 2, 6], &texels(24, 1))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [1, 0, 4], [1, 2, 2], &texels(4, 99))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 1, [0, 0, 5], [1, 1, 1], &texels(1, 33))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [0, 0, 5], [2, 2, 2], &texels(8, 7))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [0, 0, -1], [2, 2, 1], &texels(4, 7))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [1, 1, 0], [2, 2, 1], &texels(4, 7))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 2, [0, 0, 0], [1, 1, 1], &texels(1, 7))
    });
    t.extend(
        gl.get_texture_image(cube, 0, 96)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    t.extend(
        gl.get_texture_image(cube, 1, 24)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    gl.get_texture_image(cube, 0, 95);
    t.push(i64::from(gl.get_error()));
    gl.get_texture_image(cube, -1, 96);
    t.push(i64::from(gl.get_error()));
    // A cube map without images: the faces are not cube complete.
    let bare = gl.create("texture", TEXTURE_CUBE_MAP);
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(bare, 0, [0, 0, 0], [1, 1, 1], &texels(1, 7))
    });
    gl.get_texture_image(bare, 0, 96);
    t.push(i64::from(gl.get_error()));
    t
}

/// Where two debug renderings first differ, with some context.
fn first_difference(got: &str, expected: &str) -> String {
    let at = got
        .bytes()
        .zip(expected.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(expected.len()));
    let from = at.saturating_sub(80);
    let end = |s: &str| (at + 80).min(s.len());
    format!(
        "at byte {at}: got ..{}.., expected ..{}..",
        &got[from..end(got)],
        &expected[from..end(expected)]
    )
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn NamedGl) -> T) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
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
fn a_program_that_names_every_object_draws_as_the_native_driver_draws() {
    compare(|gl| {
        let got = scene(gl);
        assert_ne!(got[0], got[1], "the second frame changed nothing");
        got
    });
}

#[test]
fn named_framebuffer_verbs_and_parameters_match_the_native_driver() {
    compare(framebuffer_transcript);
}

#[test]
fn transform_feedback_buffers_by_name_match_the_native_driver() {
    compare(transform_feedback_transcript);
}

#[test]
fn compressed_and_cube_images_by_name_match_the_native_driver() {
    compare(image_transcript);
}

/// `GL_ARB_direct_state_access` is advertised on both backends (and on an ES 3.0 GLES
/// backend: the engine carries every named call out on records every backend has).
#[test]
fn the_extension_is_advertised_on_both_backends() {
    let contexts = Backend::ALL
        .map(|b| (b.name(), tessera_on(b, TransportKind::Inproc, SIZE, SIZE)))
        .into_iter()
        .chain([("gles es3.0", tessera_es30(SIZE, SIZE))]);
    for (name, mut ctx) in contexts {
        let advertised: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as u32)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        assert!(
            advertised.iter().any(|e| e == "GL_ARB_direct_state_access"),
            "{name}: {advertised:?}"
        );
    }
}
