//! Geometry scenes: points, line loops and fans (native and emulated), geometry stages,
//! instancing, generic attributes, primitive restart and unaligned vertex arrays.

use super::*;

#[test]
fn points_lines_loops_and_fans() {
    for floor in [false, true] {
        let mut s = if floor {
            Scene::floor()
        } else {
            Scene::new(TransportKind::Inproc)
        };
        s.clear([0.0, 0.0, 0.0, 1.0]);
        let program = s.program(SOLID_VS, SOLID_FS, 32, 0, 0);
        s.push(Record::BindProgram {
            program: Some(program),
        });
        // A point of size 4 at the centre, without PROGRAM_POINT_SIZE.
        let vb = s.buffer(&floats(&[0.0, 0.0]));
        s.vertices(vb, &[(2, 8, 0)]);
        s.push(Record::SetPointSize { size: 4.0 });
        s.uniforms([1.0, 1.0, 0.0, 1.0], [0.0; 4]);
        s.draw(Topology::Points, 1);
        assert_eq!(s.pixel(31, 31), [255, 255, 0, 255], "floor={floor}");
        assert_eq!(s.pixel(33, 33), [255, 255, 0, 255], "a 4-pixel point");
        assert_eq!(s.pixel(35, 35), [0, 0, 0, 255]);
        // A line loop around a square whose edges run through pixel centres (16.5 and
        // 47.5): the closing edge (left side) is drawn.
        let e = 15.5 / 32.0;
        let square = floats(&[-e, -e, e, -e, e, e, -e, e]);
        let vb = s.buffer(&square);
        s.vertices(vb, &[(2, 8, 0)]);
        s.clear([0.0, 0.0, 0.0, 1.0]);
        s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0; 4]);
        s.draw(Topology::LineLoop, 4);
        assert_eq!(
            s.pixel(16, 32),
            [0, 255, 0, 255],
            "closing edge, floor={floor}"
        );
        assert_eq!(s.pixel(47, 32), [0, 255, 0, 255], "right edge");
        assert_eq!(s.pixel(32, 32), [0, 0, 0, 255], "inside");
        // The same square as a fan fills it.
        s.clear([0.0, 0.0, 0.0, 1.0]);
        s.draw(Topology::TriangleFan, 4);
        assert_eq!(s.pixel(32, 32), [0, 255, 0, 255], "fan, floor={floor}");
        assert_eq!(s.pixel(20, 44), [0, 255, 0, 255]);
        assert_eq!(s.pixel(4, 4), [0, 0, 0, 255]);
        s.finish();
    }
}

fn geometry(mut s: Scene) {
    // A geometry stage that passes triangles through and moves them right by 0.5: the
    // clip-space depth patch (floor) applies at each EmitVertex.
    let gs = r"#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 color; vec4 offset; };
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position + vec4(0.5, 0.0, 0.0, 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
";
    let (v, g, f) = (
        spirv("vert", SOLID_VS),
        spirv("geom", gs),
        spirv("frag", SOLID_FS),
    );
    let (v, g, f) = (s.stage(&v), s.stage(&g), s.stage(&f));
    let program: ProgramHandle = s.h();
    let stage = |stage, spirv| StageCode { stage, spirv };
    s.push(Record::CreateProgram {
        program,
        desc: Box::new(ProgramDesc {
            stages: vec![
                stage(ShaderStage::Vertex, v),
                stage(ShaderStage::Geometry, g),
                stage(ShaderStage::Fragment, f),
            ],
            default_block_size: 32,
            samplers: Vec::new(),
            uniform_blocks: Vec::new(),
        }),
    });
    s.push(Record::BindProgram {
        program: Some(program),
    });
    let vb = s.buffer(&floats(&[-0.5, -0.5, 0.5, -0.5, 0.0, 0.5]));
    s.vertices(vb, &[(2, 8, 0)]);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    // Depth test on, z = -0.5: visible only if GL's clip-space depth is honoured.
    let cso: DepthStencilHandle = s.h();
    s.push(Record::CreateDepthStencilState {
        cso,
        state: DepthStencilState {
            depth_test: true,
            ..DepthStencilState::default()
        },
    });
    s.push(Record::BindDepthStencilState { cso });
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0, 0.0, -0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    assert_eq!(s.pixel(48, 32), [255, 255, 255, 255]);
    assert_eq!(s.pixel(16, 32), [0, 0, 0, 255]);
    s.finish();
}

#[test]
fn geometry_stage_draws() {
    geometry(Scene::new(TransportKind::Inproc));
}

#[test]
fn geometry_stage_on_the_floor() {
    geometry(Scene::floor());
}

#[test]
fn instances_generic_attributes_and_restart() {
    for floor in [false, true] {
        let mut s = if floor {
            Scene::floor()
        } else {
            Scene::new(TransportKind::Inproc)
        };
        // Attribute 1 is per instance (x offset); attribute 2 is disabled and reads the
        // generic value (the colour).
        let vs = r"#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in float shift;
layout(location = 2) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() { v_color = color; gl_Position = vec4(pos.x * 0.25 + shift, pos.y * 0.25, 0.0, 1.0); }
";
        let fs = r"#version 450
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o;
void main() { o = v_color; }
";
        let program = s.program(vs, fs, 0, 0, 0);
        s.push(Record::BindProgram {
            program: Some(program),
        });
        // A quad as a strip of 4 vertices, drawn as two strips split by a restart index.
        let quad = s.buffer(&floats(&[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]));
        let shifts = s.buffer(&floats(&[-0.5, 0.5]));
        let mut layout = VertexLayout::default();
        let f32x = |n| VertexFormat {
            ty: AttribType::F32,
            components: n,
            normalized: false,
            integer: false,
            bgra: false,
        };
        layout.attribs[0] = VertexAttrib {
            format: f32x(2),
            stride: 8,
            divisor: 0,
        };
        layout.attribs[1] = VertexAttrib {
            format: f32x(1),
            stride: 4,
            divisor: 1,
        };
        let cso: VertexLayoutHandle = s.h();
        s.push(Record::CreateVertexLayout {
            cso,
            layout: Box::new(layout),
        });
        s.push(Record::BindVertexLayout { cso });
        s.push(Record::SetVertexBuffer {
            slot: 0,
            buffer: Some(quad),
            offset: 0,
        });
        s.push(Record::SetVertexBuffer {
            slot: 1,
            buffer: Some(shifts),
            offset: 0,
        });
        s.push(Record::SetGenericAttrib {
            index: 2,
            value: [0.0f32, 1.0, 1.0, 1.0].map(f32::to_bits),
        });
        // Strip 0,1,2 then restart then 1,2,3: the whole quad, twice (instances).
        let ib = s.buffer(
            &[0u16, 1, 2, 0xffff, 1, 2, 3]
                .iter()
                .flat_map(|i| i.to_le_bytes())
                .collect::<Vec<u8>>(),
        );
        s.push(Record::SetIndexBuffer { buffer: Some(ib) });
        s.push(Record::SetPrimitiveRestart {
            enabled: true,
            index: 0xffff,
        });
        s.clear([0.0, 0.0, 0.0, 1.0]);
        s.push(Record::DrawIndexed {
            topology: Topology::TriangleStrip,
            index_type: IndexType::U16,
            offset: 0,
            count: 7,
            instances: 2,
            base_vertex: 0,
        });
        let cyan = [0, 255, 255, 255];
        assert_eq!(s.pixel(16, 32), cyan, "instance 0, floor={floor}");
        assert_eq!(s.pixel(48, 32), cyan, "instance 1");
        assert_eq!(
            s.pixel(21, 36),
            cyan,
            "upper right half of instance 0's quad"
        );
        assert_eq!(s.pixel(32, 32), [0, 0, 0, 255], "between the instances");
        s.finish();
    }
}

/// Indexed line loops and fans (floor: emulated by GPU index copies) and vertex arrays
/// whose offset and stride are not multiples of their component size (repacked).
#[test]
fn indexed_emulations_and_unaligned_arrays() {
    for floor in [false, true] {
        let mut s = if floor {
            Scene::floor()
        } else {
            Scene::new(TransportKind::Inproc)
        };
        let program = s.program(SOLID_VS, SOLID_FS, 32, 0, 0);
        s.push(Record::BindProgram {
            program: Some(program),
        });
        // Positions as 7-byte records: one pad byte, then two f32 (unaligned for floats).
        let e = 15.5 / 32.0;
        let mut bytes = Vec::new();
        for p in [[-e, -e], [e, -e], [e, e], [-e, e]] {
            bytes.push(0xaa);
            bytes.extend(floats(&p));
        }
        let vb = s.buffer(&bytes);
        s.push(Record::SetVertexBuffer {
            slot: 0,
            buffer: Some(vb),
            offset: 1,
        });
        let cso = s.layout(&[(2, 9)]);
        s.push(Record::BindVertexLayout { cso });
        let ib = s.buffer(
            &[0u32, 1, 2, 3]
                .iter()
                .flat_map(|i| i.to_le_bytes())
                .collect::<Vec<u8>>(),
        );
        s.push(Record::SetIndexBuffer { buffer: Some(ib) });
        s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0; 4]);
        let indexed = |s: &mut Scene, topology| {
            s.push(Record::DrawIndexed {
                topology,
                index_type: IndexType::U32,
                offset: 0,
                count: 4,
                instances: 1,
                base_vertex: 0,
            })
        };
        s.clear([0.0, 0.0, 0.0, 1.0]);
        indexed(&mut s, Topology::LineLoop);
        assert_eq!(
            s.pixel(16, 32),
            [0, 255, 0, 255],
            "closing edge, floor={floor}"
        );
        assert_eq!(s.pixel(32, 32), [0, 0, 0, 255]);
        s.clear([0.0, 0.0, 0.0, 1.0]);
        indexed(&mut s, Topology::TriangleFan);
        assert_eq!(s.pixel(32, 32), [0, 255, 0, 255], "fan, floor={floor}");
        assert_eq!(s.pixel(44, 20), [0, 255, 0, 255]);
        s.finish();
    }
}
