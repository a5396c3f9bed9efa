//! Front-end tests of the compute stage and of shader storage blocks.

use crate::{Limits, LinkRequest, Stage, compile, link};

fn link_all(shaders: &[(Stage, &str)]) -> Result<crate::Program, String> {
    link(&LinkRequest {
        shaders,
        attrib_bindings: &[],
        frag_data_bindings: &[],
        limits: Limits::default(),
        xfb_varyings: &[],
        xfb_separate: false,
        separable: false,
    })
}

/// A prefix sum over one work group: shared memory, barriers and a std430 storage block.
const PREFIX_SUM: &str = "#version 430\n\
    layout(local_size_x = 512) in;\n\
    layout(std430, binding = 3) buffer Data { uint v[]; } data;\n\
    shared uint s[1024];\n\
    void main() {\n\
        uint i = gl_LocalInvocationID.x;\n\
        s[2u * i] = data.v[2u * i];\n\
        s[2u * i + 1u] = data.v[2u * i + 1u];\n\
        for (uint d = 1u; d < 1024u; d *= 2u) {\n\
            barrier();\n\
            memoryBarrierShared();\n\
            uint k = 2u * d * (i + 1u) - 1u;\n\
            if (k < 1024u) s[k] += s[k - d];\n\
        }\n\
        barrier();\n\
        data.v[2u * i] = s[2u * i];\n\
        data.v[2u * i + 1u] = s[2u * i + 1u];\n\
        memoryBarrierBuffer();\n\
    }\n";

#[test]
fn a_compute_program_links_with_its_local_size_and_storage_blocks() {
    assert!(compile(Stage::Compute, PREFIX_SUM, &Limits::default()).ok);
    let p = link_all(&[(Stage::Compute, PREFIX_SUM)]).expect("links");
    assert_eq!(p.local_size, Some([512, 1, 1]));
    assert_eq!(p.storage_blocks.len(), 1);
    assert_eq!(p.storage_blocks[0].name, "Data");
    assert_eq!(p.storage_blocks[0].binding, 3);
    assert_eq!(p.storage_blocks[0].stages, 1 << Stage::Compute as u8);
    assert_eq!(p.stages.len(), 1);
    assert_eq!(p.stages[0].0, Stage::Compute);
    crate::tests::validate(&p.stages[0].1);
}

#[test]
fn compute_link_errors() {
    let vs = "#version 430\nvoid main() { gl_Position = vec4(0.0); }\n";
    let err = link_all(&[(Stage::Compute, PREFIX_SUM), (Stage::Vertex, vs)]).unwrap_err();
    assert!(err.contains("Compute shaders may not be linked"), "{err}");
    let no_size = "#version 430\nvoid main() {}\n";
    assert!(compile(Stage::Compute, no_size, &Limits::default()).ok);
    let err = link_all(&[(Stage::Compute, no_size)]).unwrap_err();
    assert!(err.contains("fixed local group size"), "{err}");
    // A local size over the limit fails the compile.
    let big = "#version 430\nlayout(local_size_x = 2048) in;\nvoid main() {}\n";
    assert!(!compile(Stage::Compute, big, &Limits::default()).ok);
    // So does a local size whose product exceeds MAX_COMPUTE_WORK_GROUP_INVOCATIONS, as in
    // Mesa (glslang checks each dimension only).
    let product = "#version 430\nlayout(local_size_x = 11, local_size_y = 11, local_size_z = 11) in;\nvoid main() {}\n";
    let c = compile(Stage::Compute, product, &Limits::default());
    assert!(!c.ok);
    assert!(
        c.log.contains("MAX_COMPUTE_WORK_GROUP_INVOCATIONS"),
        "{}",
        c.log
    );
    // Compute shaders need GLSL 4.30 (or the extension).
    let old = "#version 330\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    assert!(!compile(Stage::Compute, old, &Limits::default()).ok);
}

#[test]
fn storage_blocks_in_graphics_stages_take_bindings_after_uniform_blocks() {
    let vs = "#version 430\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    let fs = "#version 430\n\
        layout(std430, binding = 1) buffer Counter { uint hits; uint pad[]; };\n\
        layout(std140) uniform U { vec4 colour; };\n\
        uniform sampler2D t;\n\
        out vec4 c;\n\
        void main() { atomicAdd(hits, 1u); c = colour + texture(t, vec2(0.0)); }\n";
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.storage_blocks.len(), 1);
    assert_eq!(p.storage_blocks[0].name, "Counter");
    assert_eq!(p.storage_blocks[0].binding, 1);
    assert_eq!(p.storage_blocks[0].stages, 1 << Stage::Fragment as u8);
    assert_eq!(p.blocks.len(), 1);
    assert!(p.uniforms.iter().all(|u| !u.name.contains("hits")));
    for (_, words) in &p.stages {
        crate::tests::validate(words);
    }
    // Binding 0 default block, 1 the sampler, 2 the uniform block, 3 the storage block.
    let fragment = &p.stages[1].1;
    let m = crate::spirv::Module::parse(fragment.clone()).unwrap();
    let bindings: Vec<u32> = m
        .vars(crate::spirv::storage::UNIFORM)
        .filter_map(|v| m.decoration(v.id, crate::spirv::deco::BINDING))
        .collect();
    assert!(bindings.contains(&3), "{bindings:?}");
    assert!(bindings.contains(&2), "{bindings:?}");
}

#[test]
fn compute_in_glsl_330_with_the_extension() {
    let src = "#version 330\n#extension GL_ARB_compute_shader : require\n\
        #extension GL_ARB_shader_storage_buffer_object : require\n\
        layout(local_size_x = 4, local_size_y = 2) in;\n\
        layout(std430) buffer B { uint v[]; };\n\
        void main() { v[gl_LocalInvocationIndex] = 1u; }\n";
    let c = compile(Stage::Compute, src, &Limits::default());
    assert!(c.ok, "{}", c.log);
    let p = link_all(&[(Stage::Compute, src)]).expect("links");
    assert_eq!(p.local_size, Some([4, 2, 1]));
    assert_eq!(p.storage_blocks.len(), 1);
    // Without the extension, 3.30 has no compute shaders.
    let plain = "#version 330\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    assert!(!compile(Stage::Compute, plain, &Limits::default()).ok);
}

#[test]
fn storage_blocks_in_glsl_150_and_330_with_the_extension() {
    let vs = "#version 150\n#extension GL_ARB_shader_storage_buffer_object : require\n\
        in vec4 p;\n\
        layout(std430, binding = 2) buffer V { vec4 seen[]; };\n\
        void main() { seen[gl_VertexID] = p; gl_Position = p; }\n";
    let fs = "#version 330\n#extension GL_ARB_shader_storage_buffer_object : require\n\
        layout(std140) buffer F { uint hits; };\n\
        out vec4 c;\n\
        void main() { atomicAdd(hits, 1u); c = vec4(1.0); }\n";
    for (stage, src) in [(Stage::Vertex, vs), (Stage::Fragment, fs)] {
        let c = compile(stage, src, &Limits::default());
        assert!(c.ok, "{}", c.log);
    }
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    let names: Vec<(&str, u32)> = p
        .storage_blocks
        .iter()
        .map(|b| (b.name.as_str(), b.binding))
        .collect();
    assert_eq!(names, [("V", 2), ("F", 0)]);
    // Without the extension, 3.30 has no storage blocks.
    let plain = "#version 330\nbuffer B { uint x; };\nvoid main() {}\n";
    assert!(!compile(Stage::Fragment, plain, &Limits::default()).ok);
}

#[test]
fn only_the_last_storage_block_member_may_be_unsized() {
    // An earlier member sized by its constant indices is GL's implicit size (2 here).
    let sized = "#version 150\n#extension GL_ARB_shader_storage_buffer_object : require\n\
        buffer a { vec4 s[]; vec4 a[]; } b;\n\
        void main() { gl_Position = b.s[0] + b.s[1] + b.a[0]; }\n";
    let p = link_all(&[(Stage::Vertex, sized)]).expect("links");
    assert_eq!(p.storage_blocks[0].data_size, 48);
    // One that nothing indexes has no size: a link error, as in Mesa.
    let unindexed = "#version 150\n#extension GL_ARB_shader_storage_buffer_object : require\n\
        buffer a { vec4 s[]; vec4 a[]; } b;\n\
        void main() { gl_Position = b.a[0]; }\n";
    assert!(compile(Stage::Vertex, unindexed, &Limits::default()).ok);
    let log = link_all(&[(Stage::Vertex, unindexed)]).expect_err("fails to link");
    assert!(log.contains("'s' : only the last member"), "{log}");
}

#[test]
fn storage_block_members_take_layout_qualifiers() {
    // piglit's instance-matching-shader-storage-blocks-member-qualifier-mismatch.
    let vs = "#version 150\n#extension GL_ARB_shader_storage_buffer_object : require\n\
        buffer blockA {\n\
            layout(column_major) mat4 m;\n\
        } inst;\n\
        void main() { gl_Position = inst.m[0]; }\n";
    let c = compile(Stage::Vertex, vs, &Limits::default());
    assert!(c.ok, "{}", c.log);
}

/// A blur of one RGBA8 image into an RGBA32F one, and a fragment stage of GLSL 3.30 that
/// counts into an R32UI image through `GL_ARB_shader_image_load_store`.
#[test]
fn image_uniforms_take_slots_after_the_storage_blocks() {
    let cs = "#version 430\n\
        layout(local_size_x = 4, local_size_y = 4) in;\n\
        layout(std430, binding = 1) buffer Sums { uint n; };\n\
        layout(rgba8, binding = 2) readonly uniform image2D src;\n\
        layout(rgba32f, binding = 5) writeonly uniform image2D dst;\n\
        void main() {\n\
            ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n\
            vec4 c = imageLoad(src, p) + imageLoad(src, p + ivec2(1, 0));\n\
            imageStore(dst, p, c * 0.5);\n\
            atomicAdd(n, uint(imageSize(src).x));\n\
            memoryBarrierImage();\n\
        }\n";
    assert!(compile(Stage::Compute, cs, &Limits::default()).ok);
    let p = link_all(&[(Stage::Compute, cs)]).expect("links");
    assert_eq!(p.images.len(), 2);
    let units: Vec<u32> = p.images.iter().map(|i| i.unit).collect();
    assert_eq!(units, [2, 5]);
    let src = p.uniforms.iter().find(|u| u.name == "src").expect("src");
    assert_eq!(src.ty, crate::gltype::IMAGE_2D);
    crate::tests::validate(&p.stages[0].1);

    let vs = "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    let fs = "#version 330\n#extension GL_ARB_shader_image_load_store : require\n\
        layout(r32ui) coherent uniform uimage2DArray counts;\n\
        out vec4 c;\n\
        void main() {\n\
            imageAtomicAdd(counts, ivec3(ivec2(gl_FragCoord.xy), 1), 1u);\n\
            memoryBarrier();\n\
            c = vec4(1.0);\n\
        }\n";
    assert!(compile(Stage::Fragment, fs, &Limits::default()).ok);
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.images.len(), 1);
    assert_eq!(p.images[0].target, crate::gltype::SamplerTarget::D2Array);
    for (_, words) in &p.stages {
        crate::tests::validate(words);
    }
}

#[test]
fn two_image_formats_on_one_declaration_fail_the_compile() {
    let fs = "#version 150\n#extension GL_ARB_shader_image_load_store: require\n\
        layout(rgba32f) layout(rgba32f) uniform image2D img;\nvoid main() {}\n";
    let c = compile(Stage::Fragment, fs, &Limits::default());
    assert!(!c.ok);
    assert!(c.log.starts_with("0:3(1): error:"), "{}", c.log);
    let one = "#version 150\n#extension GL_ARB_shader_image_load_store: require\n\
        layout(rgba32f) uniform image2D img;\nlayout(r32ui) uniform uimage2D counts;\n\
        void main() {}\n";
    assert!(compile(Stage::Fragment, one, &Limits::default()).ok);
}

/// Atomic counters of two bindings, used by a vertex and a fragment stage, with an array
/// and a storage block before them.
#[test]
fn atomic_counters_link_as_storage_blocks_after_the_applications() {
    let vs = "#version 330\n#extension GL_ARB_shader_atomic_counters : require\n\
        layout(binding = 1, offset = 8) uniform atomic_uint verts;\n\
        void main() { atomicCounterIncrement(verts); gl_Position = vec4(0.0); }\n";
    let fs = "#version 420\n\
        layout(binding = 1, offset = 8) uniform atomic_uint verts;\n\
        layout(binding = 0) uniform atomic_uint frags;\n\
        layout(binding = 0) uniform atomic_uint many[3];\n\
        layout(std430, binding = 2) buffer Out { uint v; };\n\
        out vec4 c;\n\
        void main() { v = atomicCounterDecrement(many[2]) + atomicCounter(verts);\n\
            c = vec4(float(atomicCounterIncrement(frags))); }\n";
    for (s, t) in [(Stage::Vertex, vs), (Stage::Fragment, fs)] {
        let c = compile(s, t, &Limits::default());
        assert!(c.ok, "{}", c.log);
    }
    let p = link_all(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links");
    assert_eq!(p.storage_blocks.len(), 1);
    assert_eq!(p.storage_blocks[0].name, "Out");
    let names: Vec<_> = p
        .atomic_counters
        .iter()
        .map(|c| (c.name.as_str(), c.offset, c.size, c.array_stride, c.buffer))
        .collect();
    assert_eq!(
        names,
        [
            ("frags", 0, 1, 0, 0),
            ("many[0]", 4, 3, 4, 0),
            ("verts", 8, 1, 0, 1)
        ]
    );
    let both = (1 << Stage::Vertex as u8) | (1 << Stage::Fragment as u8);
    assert_eq!(p.atomic_counters[2].stages, both);
    let buffers: Vec<_> = p
        .atomic_buffers
        .iter()
        .map(|b| (b.binding, b.data_size, b.counters.clone(), b.stages))
        .collect();
    assert_eq!(
        buffers,
        [
            (0, 16, vec![0, 1], 1 << Stage::Fragment as u8),
            (1, 12, vec![2], both)
        ]
    );
    for (_, words) in &p.stages {
        crate::tests::validate(words);
    }
}
