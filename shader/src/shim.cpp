// The C ABI between Tessera's Rust front end and glslang's C++ API.
//
// Why C++: glslang's C API has no reflection, and GL needs it (active uniforms with GL type
// enums, uniform blocks, attributes, fragment outputs). This file is deliberately narrow: it
// parses, links, reflects and emits SPIR-V; every GL decision (locations, bindings, names,
// layouts) is made in Rust from what it returns.
//
// Ownership: every `TshResult*` is created here and freed with `tsh_free`; every pointer
// returned by an accessor points into the result and lives until `tsh_free`. No C++ exception
// crosses the ABI: each entry point catches everything and reports it as a failure.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <glslang/Include/Types.h>
#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/MachineIndependent/reflection.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

extern "C" {

// Must match `ffi.rs`.

struct TshSource {
    uint32_t stage;  // 0 vertex, 1 geometry, 2 fragment, 3 compute, 4 tess control, 5 tess eval
    const char* text;
    size_t len;
    uint32_t flags;  // kFlag* bits
};

// TshSource::flags: enable ARB_separate_shader_objects (source.rs says when).
constexpr uint32_t kFlagSeparateShaderObjects = 1;
constexpr uint32_t kFlagInverse = 2;
constexpr uint32_t kFlagNoise = 4;
// TshSource::flags: redeclare gl_FragCoord with origin_upper_left in the preamble, for the
// fragment shaders of a program that has several and redeclares it so (frag_coord.rs).
constexpr uint32_t kFlagOriginUpperLeft = 8;
// TshSource::flags: declare gl_DepthRange (source.rs says how it is filled).
constexpr uint32_t kFlagDepthRange = 16;
// TshSource::flags: the functions of GL_EXT_texture_array, which the shader enabled
// (source.rs removes its `#extension` line, which glslang does not know).
constexpr uint32_t kFlagTextureArray = 32;
// Stand-ins for gl_FragColor and gl_FragData in a fragment shader read as GLSL 4.20 or later
// (late_extensions.rs), where glslang no longer declares them.
constexpr uint32_t kFlagFragColor = 64;
constexpr uint32_t kFlagFragData = 128;
// TshSource::flags: declare gl_NumSamples (num_samples.rs says how it is filled).
constexpr uint32_t kFlagNumSamples = 256;
// TshSource::flags: rename main, which num_samples.rs wraps for gl_SampleMask.
constexpr uint32_t kFlagSampleMask = 512;

struct TshLimits {
    int32_t max_vertex_attribs;
    int32_t max_draw_buffers;
    int32_t max_texture_units;
    int32_t max_combined_texture_units;
    int32_t max_varying_components;
    int32_t max_geometry_output_vertices;
    int32_t max_clip_distances;
    int32_t max_vertex_output_components;
    int32_t max_geometry_input_components;
    int32_t max_geometry_output_components;
    int32_t max_fragment_input_components;
    int32_t max_uniform_components;
    int32_t max_compute_work_group_count[3];
    int32_t max_compute_work_group_size[3];
    int32_t max_compute_work_group_invocations;
    int32_t max_storage_buffer_bindings;
};

struct TshStr {
    const char* ptr;
    size_t len;
};

// An active uniform of glslang's live reflection (default block members, samplers).
struct TshUniform {
    TshStr name;
    int32_t gl_type;
    int32_t size;
    int32_t block;  // index into the live block list, -1 for opaque types
    int32_t binding;
    uint32_t stages;
    int32_t is_sampler;
};

// A live uniform block of glslang's reflection.
struct TshLiveBlock {
    TshStr name;
    uint32_t stages;
};

// A uniform block as declared (the default block included), from the linked trees.
struct TshBlock {
    TshStr name;       // block name (gl_DefaultUniformBlock for loose uniforms)
    int32_t array;     // elements of a block array, 0 if not an array
    int32_t binding;   // explicit layout(binding), or -1
    int32_t prefixed;  // members are named "Block.member" (the block has an instance name)
    uint32_t stages;   // stages declaring it (glslang stage bits)
};

// A shader storage block as declared, from the linked trees (its members are not listed:
// GL's buffer variables are not reflected yet).
struct TshStorageBlock {
    TshStr name;      // block name
    int32_t array;    // elements of a block array, 0 if not an array
    int32_t binding;  // explicit layout(binding), or -1
    uint32_t stages;  // stages declaring it (glslang stage bits)
};

// A leaf (non-struct) member of a declared block.
struct TshLeaf {
    TshStr name;             // GL name; arrays end in "[0]"
    int32_t block;           // index into the declared block list
    int32_t basic;           // 0 float, 1 double, 2 int, 3 uint, 4 bool
    int32_t vector;          // components of a vector or matrix column
    int32_t columns;         // matrix columns, 0 if not a matrix
    int32_t array;           // elements of the innermost array, 0 if not an array
    const uint32_t* path;    // member / element indices from the block type to the leaf
    size_t path_len;
};

// A pipe input (first stage) or output (last stage).
struct TshVar {
    TshStr name;
    int32_t gl_type;
    int32_t size;
    int32_t location;  // explicit, or -1
    int32_t index;     // explicit fragment output index, or -1
};

// A user-declared stage input or output, in declaration order.
struct TshDecl {
    TshStr name;          // the variable's name, or an interface block's block name
    uint32_t stage;       // 0 vertex, 1 geometry, 2 fragment
    int32_t output;       // 1 for outputs, 0 for inputs
    uint32_t qualifiers;  // kDecl* bits
    int32_t version;      // the stage's GLSL version
};

// TshDecl::qualifiers bits: the interpolation and invariance qualifiers as spelled (GL
// tells "no qualifier" from `smooth` when it matches varyings across stages).
constexpr uint32_t kDeclSmooth = 1, kDeclFlat = 2, kDeclNoPerspective = 4, kDeclInvariant = 8,
                   kDeclBlock = 16;

struct TshWords {
    const uint32_t* ptr;
    size_t len;
};

// The initial value of a leaf (see TshLeaf) of a uniform declared with an initializer.
struct TshInit {
    TshStr name;             // the leaf's GL name, as TshLeaf names it
    const uint64_t* values;  // every component of every element, in GLSL's order (matrix
                             // columns first); float, int, uint and bool as 32-bit
                             // patterns, doubles as 64-bit ones
    size_t len;
};

}  // extern "C"

namespace {

using namespace glslang;

constexpr int kStages = 6;

EShLanguage to_language(uint32_t stage) {
    switch (stage) {
    case 0: return EShLangVertex;
    case 1: return EShLangGeometry;
    case 3: return EShLangCompute;
    case 4: return EShLangTessControl;
    case 5: return EShLangTessEvaluation;
    default: return EShLangFragment;
    }
}

void init_once() {
    static std::once_flag flag;
    std::call_once(flag, [] { InitializeProcess(); });
}

// glslang keeps a per-thread "current pool" pointer that its objects capture when they are
// constructed and that TShader/TProgram destructors leave dangling. Each entry point runs
// inside one of these: a pool of its own, current from before the first glslang object is
// made until after the last is destroyed, then no current pool at all.
class ScratchPool {
public:
    ScratchPool() { SetThreadPoolAllocator(&pool_); }
    ~ScratchPool() { SetThreadPoolAllocator(nullptr); }
    ScratchPool(const ScratchPool&) = delete;
    ScratchPool& operator=(const ScratchPool&) = delete;

private:
    TPoolAllocator pool_;
};

TBuiltInResource resources(const TshLimits* limits) {
    TBuiltInResource r = *GetDefaultResources();
    if (limits) {
        r.maxVertexAttribs = limits->max_vertex_attribs;
        r.maxDrawBuffers = limits->max_draw_buffers;
        r.maxTextureImageUnits = limits->max_texture_units;
        r.maxVertexTextureImageUnits = limits->max_texture_units;
        r.maxGeometryTextureImageUnits = limits->max_texture_units;
        r.maxCombinedTextureImageUnits = limits->max_combined_texture_units;
        r.maxVaryingComponents = limits->max_varying_components;
        r.maxVaryingFloats = limits->max_varying_components;
        r.maxGeometryOutputVertices = limits->max_geometry_output_vertices;
        r.maxClipDistances = limits->max_clip_distances;
        r.maxVertexOutputComponents = limits->max_vertex_output_components;
        r.maxGeometryInputComponents = limits->max_geometry_input_components;
        r.maxGeometryOutputComponents = limits->max_geometry_output_components;
        r.maxFragmentInputComponents = limits->max_fragment_input_components;
        r.maxVertexUniformComponents = limits->max_uniform_components;
        r.maxGeometryUniformComponents = limits->max_uniform_components;
        r.maxFragmentUniformComponents = limits->max_uniform_components;
        r.maxComputeUniformComponents = limits->max_uniform_components;
        r.maxTessControlUniformComponents = limits->max_uniform_components;
        r.maxTessEvaluationUniformComponents = limits->max_uniform_components;
        r.maxTessControlTextureImageUnits = limits->max_texture_units;
        r.maxTessEvaluationTextureImageUnits = limits->max_texture_units;
        r.maxComputeTextureImageUnits = limits->max_texture_units;
        r.maxComputeWorkGroupCountX = limits->max_compute_work_group_count[0];
        r.maxComputeWorkGroupCountY = limits->max_compute_work_group_count[1];
        r.maxComputeWorkGroupCountZ = limits->max_compute_work_group_count[2];
        r.maxComputeWorkGroupSizeX = limits->max_compute_work_group_size[0];
        r.maxComputeWorkGroupSizeY = limits->max_compute_work_group_size[1];
        r.maxComputeWorkGroupSizeZ = limits->max_compute_work_group_size[2];
    }
    return r;
}

// GL's deprecated texture functions, which core contexts that are not forward-compatible
// still provide (GLSL 1.50 section 8.7) and Mesa accepts at every version, but which glslang
// only defines for OpenGL clients. Each maps to its generic replacement; the shadow forms
// return a vec4 as they always did. The preamble is read after `#version` and does not move
// line numbers. `gl_InstanceIDARB`, GL_ARB_draw_instanced's name for `gl_InstanceID`, which
// Mesa accepts where a shader enables the extension and glslang does not know, rides along.
#define TSH_DEPRECATED_TEXTURE_FUNCTIONS \
    "#define texture1D texture\n" \
    "#define texture2D texture\n" \
    "#define texture3D texture\n" \
    "#define textureCube texture\n" \
    "#define texture2DRect texture\n" \
    "#define texture1DProj textureProj\n" \
    "#define texture2DProj textureProj\n" \
    "#define texture3DProj textureProj\n" \
    "#define texture2DRectProj textureProj\n" \
    "#define texture1DLod textureLod\n" \
    "#define texture2DLod textureLod\n" \
    "#define texture3DLod textureLod\n" \
    "#define textureCubeLod textureLod\n" \
    "#define texture1DProjLod textureProjLod\n" \
    "#define texture2DProjLod textureProjLod\n" \
    "#define texture3DProjLod textureProjLod\n" \
    "#define shadow1D(s, c) vec4(texture(s, c))\n" \
    "#define shadow2D(s, c) vec4(texture(s, c))\n" \
    "#define shadow2DRect(s, c) vec4(texture(s, c))\n" \
    "#define shadow1DProj(s, c) vec4(textureProj(s, c))\n" \
    "#define shadow2DProj(s, c) vec4(textureProj(s, c))\n" \
    "#define shadow2DRectProj(s, c) vec4(textureProj(s, c))\n" \
    "#define shadow1DLod(s, c, l) vec4(textureLod(s, c, l))\n" \
    "#define shadow2DLod(s, c, l) vec4(textureLod(s, c, l))\n" \
    "#define shadow1DProjLod(s, c, l) vec4(textureProjLod(s, c, l))\n" \
    "#define shadow2DProjLod(s, c, l) vec4(textureProjLod(s, c, l))\n" \
    "#define gl_InstanceIDARB gl_InstanceID\n"

const char* const kDeprecatedTextureFunctions = TSH_DEPRECATED_TEXTURE_FUNCTIONS;
// The same, and ARB_separate_shader_objects for a shader that redeclares gl_PerVertex.
const char* const kDeprecatedTextureFunctionsSso =
    TSH_DEPRECATED_TEXTURE_FUNCTIONS "#extension GL_ARB_separate_shader_objects : enable\n";

// GLSL 1.40 has inverse(); glslang declares it from 1.50 on. Definitions of the three
// overloads for a 1.40 shader that calls it, on one preamble line each (cofactors through
// cross products, so they need nothing 1.40 lacks).
#define TSH_INVERSE \
    "mat2 inverse(mat2 m) { return mat2(m[1][1], -m[0][1], -m[1][0], m[0][0]) / " \
    "(m[0][0] * m[1][1] - m[1][0] * m[0][1]); }\n" \
    "mat3 inverse(mat3 m) { vec3 r0 = cross(m[1], m[2]); vec3 r1 = cross(m[2], m[0]); " \
    "vec3 r2 = cross(m[0], m[1]); return transpose(mat3(r0, r1, r2)) / dot(m[0], r0); }\n" \
    "mat4 inverse(mat4 m) { vec3 a = m[0].xyz; vec3 b = m[1].xyz; vec3 c = m[2].xyz; " \
    "vec3 d = m[3].xyz; float x = m[0].w; float y = m[1].w; float z = m[2].w; " \
    "float w = m[3].w; vec3 s = cross(a, b); vec3 t = cross(c, d); vec3 u = a * y - b * x; " \
    "vec3 v = c * w - d * z; float k = 1.0 / (dot(s, v) + dot(t, u)); s *= k; t *= k; " \
    "u *= k; v *= k; return transpose(mat4(vec4(cross(b, v) + t * y, -dot(b, t)), " \
    "vec4(cross(v, a) - t * x, dot(a, t)), vec4(cross(d, u) + s * w, -dot(d, s)), " \
    "vec4(cross(u, c) - s * z, dot(c, s)))); }\n"

// GLSL's noise1..noise4 (1.10 to 4.40), which glslang declares only for OpenGL clients.
// Mesa's are 0 for every argument (GLSL allows any pseudo-random value, and 0 is what
// drivers return); the same, on one preamble line per function, for a shader that names
// one.
#define TSH_NOISE \
    "float noise1(float x) { return 0.0; } float noise1(vec2 x) { return 0.0; } " \
    "float noise1(vec3 x) { return 0.0; } float noise1(vec4 x) { return 0.0; }\n" \
    "vec2 noise2(float x) { return vec2(0.0); } vec2 noise2(vec2 x) { return vec2(0.0); } " \
    "vec2 noise2(vec3 x) { return vec2(0.0); } vec2 noise2(vec4 x) { return vec2(0.0); }\n" \
    "vec3 noise3(float x) { return vec3(0.0); } vec3 noise3(vec2 x) { return vec3(0.0); } " \
    "vec3 noise3(vec3 x) { return vec3(0.0); } vec3 noise3(vec4 x) { return vec3(0.0); }\n" \
    "vec4 noise4(float x) { return vec4(0.0); } vec4 noise4(vec2 x) { return vec4(0.0); } " \
    "vec4 noise4(vec3 x) { return vec4(0.0); } vec4 noise4(vec4 x) { return vec4(0.0); }\n"

// gl_DepthRange and its type, which glslang declares only for OpenGL clients: a uniform of
// the default block under a name of Tessera's (source.rs: DEPTH_RANGE), on one preamble
// line per declaration.
#define TSH_DEPTH_RANGE \
    "#define gl_DepthRangeParameters tsh_DepthRangeParameters\n" \
    "#define gl_DepthRange tsh_DepthRange\n" \
    "struct tsh_DepthRangeParameters { float near; float far; float diff; };\n" \
    "uniform tsh_DepthRangeParameters tsh_DepthRange;\n"

// gl_NumSamples, which glslang declares only for OpenGL clients: an int of the default
// block under a name of Tessera's (num_samples.rs: NAME).
#define TSH_NUM_SAMPLES \
    "#define gl_NumSamples tsh_NumSamples\n" \
    "uniform int tsh_NumSamples;\n"

// GL_EXT_texture_array's functions (Mesa has them at every desktop version once the shader
// enables the extension), mapped to their generic forms as the deprecated ones above; the
// shadow forms return a vec4. The bias forms of texture1DArray and texture2DArray come with
// `texture`; those of the shadow forms are left out, as for shadow1D and shadow2D.
#define TSH_TEXTURE_ARRAY \
    "#define texture1DArray texture\n" \
    "#define texture2DArray texture\n" \
    "#define texture1DArrayLod textureLod\n" \
    "#define texture2DArrayLod textureLod\n" \
    "#define shadow1DArray(s, c) vec4(texture(s, c))\n" \
    "#define shadow2DArray(s, c) vec4(texture(s, c))\n" \
    "#define shadow1DArrayLod(s, c, l) vec4(textureLod(s, c, l))\n"

// The names of extensions glslang does not know, which late_extensions.rs carries out (and
// whose `#extension` lines it blanks): defined in every shader, as Mesa defines the names of
// the extensions it has.
#define TSH_LATE_EXTENSIONS \
    "#define GL_ARB_texture_query_levels 1\n" \
    "#define GL_ARB_conservative_depth 1\n" \
    "#define GL_ARB_fragment_layer_viewport 1\n" \
    "#define GL_ARB_cull_distance 1\n" \
    "#define GL_ARB_ES3_1_compatibility 1\n" \
    "#define GL_ARB_arrays_of_arrays 1\n" \
    TSH_COUNTER_OPS

// GL_ARB_shader_atomic_counter_ops, which glslang knows by name but defines only for OpenGL
// clients; atomic_counter.rs carries its functions out.
#define TSH_COUNTER_OPS "#define GL_ARB_shader_atomic_counter_ops 1\n"

// The stand-ins for kFlagFragColor and kFlagFragData, at location 0 as glslang places the
// built-ins.
#define TSH_FRAG_COLOR \
    "#define gl_FragColor tsh_FragColor\n" \
    "layout(location = 0) out vec4 tsh_FragColor;\n"
#define TSH_FRAG_DATA \
    "#define gl_FragData tsh_FragData\n" \
    "layout(location = 0) out vec4 tsh_FragData[gl_MaxDrawBuffers];\n"

// The version glslang reads a shader without `#version` as: GLSL 1.10, read as 1.40 as
// version.rs reads an explicit 1.10, but 1.50 for a geometry shader (version.rs says why).
int default_version(const TshSource& src) { return src.stage == 1 ? 150 : 140; }

// The preamble for a shader's flags (kFlag*), one string per combination.
const char* preamble(const TshSource& src) {
    static const std::string* const table = [] {
        auto* t = new std::string[1024];
        for (uint32_t f = 0; f < 1024; ++f) {
            t[f] = f & kFlagSeparateShaderObjects ? kDeprecatedTextureFunctionsSso
                                                  : kDeprecatedTextureFunctions;
            t[f] += TSH_LATE_EXTENSIONS;
            if (f & kFlagFragColor) t[f] += TSH_FRAG_COLOR;
            if (f & kFlagFragData) t[f] += TSH_FRAG_DATA;
            if (f & kFlagInverse) t[f] += TSH_INVERSE;
            if (f & kFlagNoise) t[f] += TSH_NOISE;
            if (f & kFlagDepthRange) t[f] += TSH_DEPTH_RANGE;
            if (f & kFlagNumSamples) t[f] += TSH_NUM_SAMPLES;
            if (f & kFlagSampleMask) t[f] += "#define main tsh_main\n";
            if (f & kFlagTextureArray) t[f] += TSH_TEXTURE_ARRAY;
            if (f & kFlagOriginUpperLeft) {
                t[f] += "#extension GL_ARB_fragment_coord_conventions : enable\n"
                        "layout(origin_upper_left) in vec4 gl_FragCoord;\n";
            }
        }
        return t;
    }();
    return table[src.flags & 1023].c_str();
}

// The warning glslang's relaxed rules give for a uniform's initializer they drop.
const char* const kIgnoredInitializer = "Ignoring initializer for uniform";

// A shader and the string pointer and length it refers to (TShader keeps the pointers it is
// given, so they must live as long as it does).
struct Unit {
    const char* text = nullptr;
    int len = 0;
    std::unique_ptr<TShader> shader;
};

std::unique_ptr<Unit> make_shader(const TshSource& src) {
    EShLanguage lang = to_language(src.stage);
    auto unit = std::make_unique<Unit>();
    unit->text = src.text;
    unit->len = static_cast<int>(src.len);
    unit->shader = std::make_unique<TShader>(lang);
    TShader* shader = unit->shader.get();
    shader->setStringsWithLengths(&unit->text, &unit->len, 1);
    shader->setPreamble(preamble(src));
    shader->setEnvInput(EShSourceGlsl, lang, EShClientVulkan, 100);
    shader->setEnvClient(EShClientVulkan, EShTargetVulkan_1_0);
    shader->setEnvTarget(EShTargetSpv, EShTargetSpv_1_0);
    // GL's rules inside Vulkan SPIR-V: loose uniforms gather into gl_DefaultUniformBlock,
    // samplers stay combined, gl_VertexID maps to VertexIndex.
    shader->setEnvInputVulkanRulesRelaxed();
    // Locations and bindings are Tessera's (patched into the SPIR-V afterwards); without
    // these glslang would demand explicit ones. mapIO is never called, so every Location or
    // Binding decoration in the output is one the source spelled out.
    shader->setAutoMapLocations(true);
    shader->setAutoMapBindings(true);
    return unit;
}

}  // namespace

struct TshResult {
    bool ok = false;
    std::string log;
    std::vector<uint32_t> spirv[kStages];
    bool has_stage[kStages] = {false, false, false, false, false, false};

    std::vector<std::string> names;  // storage for every TshStr below
    std::vector<std::vector<uint32_t>> paths;
    std::vector<TshUniform> uniforms;
    std::vector<TshLiveBlock> live_blocks;
    std::vector<TshBlock> blocks;
    std::vector<TshStorageBlock> storage_blocks;
    std::vector<TshLeaf> leaves;
    std::vector<TshVar> inputs;
    std::vector<TshVar> outputs;
    std::vector<TshDecl> decls;
    std::vector<TshInit> inits;
    std::vector<std::vector<uint64_t>> init_values;
    // The geometry stage's layout: output vertices, input and output primitives (GL enums)
    // and invocations.
    int32_t geometry[4] = {0, 0, 0, 0};
    // The compute stage's local size; all zero when it declares none.
    int32_t local_size[3] = {0, 0, 0};
    // The tessellation layouts: control output vertices, then the evaluation stage's mode,
    // spacing and vertex order as GL enums (0 where none is declared) and point mode.
    int32_t tess[5] = {0, 0, 0, 0, 0};

    // Names are stored first and pointed at once everything is collected (the vector may
    // reallocate while filling).
    std::vector<size_t> uniform_names, live_block_names, block_names, storage_block_names,
        leaf_names, leaf_paths, input_names, output_names, decl_names, init_names;

    size_t keep(const std::string& s) {
        names.push_back(s);
        return names.size() - 1;
    }

    TshStr str(size_t i) const { return TshStr{names[i].data(), names[i].size()}; }

    void seal() {
        for (size_t i = 0; i < uniforms.size(); ++i) uniforms[i].name = str(uniform_names[i]);
        for (size_t i = 0; i < live_blocks.size(); ++i)
            live_blocks[i].name = str(live_block_names[i]);
        for (size_t i = 0; i < blocks.size(); ++i) blocks[i].name = str(block_names[i]);
        for (size_t i = 0; i < storage_blocks.size(); ++i)
            storage_blocks[i].name = str(storage_block_names[i]);
        for (size_t i = 0; i < leaves.size(); ++i) {
            leaves[i].name = str(leaf_names[i]);
            const auto& p = paths[leaf_paths[i]];
            leaves[i].path = p.data();
            leaves[i].path_len = p.size();
        }
        for (size_t i = 0; i < inputs.size(); ++i) inputs[i].name = str(input_names[i]);
        for (size_t i = 0; i < outputs.size(); ++i) outputs[i].name = str(output_names[i]);
        for (size_t i = 0; i < decls.size(); ++i) decls[i].name = str(decl_names[i]);
        for (size_t i = 0; i < inits.size(); ++i) {
            inits[i].name = str(init_names[i]);
            inits[i].values = init_values[i].data();
            inits[i].len = init_values[i].size();
        }
    }
};

namespace {

int32_t basic_code(TBasicType t) {
    switch (t) {
    case EbtFloat: return 0;
    case EbtDouble: return 1;
    case EbtInt: return 2;
    case EbtUint: return 3;
    case EbtBool: return 4;
    default: return -1;
    }
}

int32_t geometry_enum(TLayoutGeometry g) {
    switch (g) {
    case ElgPoints: return 0x0000;
    case ElgLines: return 0x0001;
    case ElgLineStrip: return 0x0003;
    case ElgTriangles: return 0x0004;
    case ElgTriangleStrip: return 0x0005;
    case ElgLinesAdjacency: return 0x000A;
    case ElgTrianglesAdjacency: return 0x000C;
    case ElgQuads: return 0x0007;
    case ElgIsolines: return 0x8E7A;
    default: return 0;
    }
}

// Walks a block member type down to its leaves, naming them as GL does: struct members with
// '.', struct and outer array elements expanded with "[i]", the innermost array of a leaf
// kept as one uniform named "[0]".
void walk(TshResult& r, int32_t block, const TType& type, const std::string& name,
          std::vector<uint32_t>& path) {
    if (type.isStruct()) {
        if (type.isArray()) {
            int n = type.getOuterArraySize();
            TType element(type, 0);
            for (int e = 0; e < n; ++e) {
                path.push_back(static_cast<uint32_t>(e));
                walk(r, block, element, name + "[" + std::to_string(e) + "]", path);
                path.pop_back();
            }
            return;
        }
        const TTypeList& members = *type.getStruct();
        for (size_t m = 0; m < members.size(); ++m) {
            const TType& mt = *members[m].type;
            path.push_back(static_cast<uint32_t>(m));
            walk(r, block, mt, name + "." + mt.getFieldName().c_str(), path);
            path.pop_back();
        }
        return;
    }
    if (type.isArray() && type.getArraySizes()->getNumDims() > 1) {
        int n = type.getOuterArraySize();
        TType element(type, 0);
        for (int e = 0; e < n; ++e) {
            path.push_back(static_cast<uint32_t>(e));
            walk(r, block, element, name + "[" + std::to_string(e) + "]", path);
            path.pop_back();
        }
        return;
    }
    TshLeaf leaf{};
    leaf.block = block;
    leaf.basic = basic_code(type.getBasicType());
    // Opaque members (a sampler in a struct) have no storage in the block.
    if (leaf.basic < 0) return;
    leaf.columns = type.isMatrix() ? type.getMatrixCols() : 0;
    leaf.vector = type.isMatrix() ? type.getMatrixRows() : type.getVectorSize();
    leaf.array = type.isArray() ? type.getOuterArraySize() : 0;
    r.leaf_names.push_back(r.keep(type.isArray() ? name + "[0]" : name));
    r.paths.push_back(path);
    r.leaf_paths.push_back(r.paths.size() - 1);
    r.leaves.push_back(leaf);
}

// Walks a uniform's type as walk() does, taking each leaf's initial value from the constant
// the uniform was initialized with (flattened in the same order: members, then elements,
// then matrix columns).
void walk_init(TshResult& r, const TType& type, const std::string& name,
               const TConstUnionArray& c, int& at) {
    if (type.isStruct() || (type.isArray() && type.getArraySizes()->getNumDims() > 1)) {
        if (type.isArray()) {
            int n = type.getOuterArraySize();
            TType element(type, 0);
            for (int e = 0; e < n; ++e)
                walk_init(r, element, name + "[" + std::to_string(e) + "]", c, at);
            return;
        }
        const TTypeList& members = *type.getStruct();
        for (size_t m = 0; m < members.size(); ++m) {
            const TType& mt = *members[m].type;
            walk_init(r, mt, name + "." + mt.getFieldName().c_str(), c, at);
        }
        return;
    }
    if (basic_code(type.getBasicType()) < 0) return;
    int per_element =
        type.isMatrix() ? type.getMatrixCols() * type.getMatrixRows() : type.getVectorSize();
    int elements = type.isArray() ? type.getOuterArraySize() : 1;
    std::vector<uint64_t> values;
    for (int i = 0; i < per_element * elements && at < c.size(); ++i, ++at) {
        const TConstUnion& u = c[at];
        uint64_t v = 0;
        // The leaf's type says how to store the value: glslang keeps every floating-point
        // constant as a double.
        switch (type.getBasicType()) {
        case EbtFloat: {
            float f = static_cast<float>(u.getDConst());
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            v = bits;
            break;
        }
        case EbtDouble: {
            double d = u.getDConst();
            std::memcpy(&v, &d, 8);
            break;
        }
        case EbtInt: v = static_cast<uint32_t>(u.getIConst()); break;
        case EbtUint: v = u.getUConst(); break;
        case EbtBool: v = u.getBConst() ? 1 : 0; break;
        default: break;
        }
        values.push_back(v);
    }
    r.init_names.push_back(r.keep(type.isArray() ? name + "[0]" : name));
    r.init_values.push_back(std::move(values));
    r.inits.push_back(TshInit{});
}

// glslang's relaxed rules drop the initializers of loose uniforms (with a warning), so a
// shader that has some is parsed once more with GL's own rules, which keep each one's value
// on its symbol.
void collect_initializers(TshResult& r, const TshSource& src, const TBuiltInResource& res) {
    // The shader leaves its own pool current and dangling when it goes: the caller's pool
    // is made current again after it (members are destroyed in reverse order).
    struct RestorePool {
        TPoolAllocator* pool;
        ~RestorePool() { SetThreadPoolAllocator(pool); }
    } restore{&GetThreadPoolAllocator()};
    TShader shader(to_language(src.stage));
    const char* text = src.text;
    int len = static_cast<int>(src.len);
    shader.setStringsWithLengths(&text, &len, 1);
    shader.setPreamble(preamble(src));
    if (!shader.parse(&res, default_version(src), false, EShMsgDefault)) return;
    TIntermediate* im = shader.getIntermediate();
    TIntermAggregate* root = im && im->getTreeRoot() ? im->getTreeRoot()->getAsAggregate()
                                                     : nullptr;
    if (!root) return;
    for (TIntermNode* node : root->getSequence()) {
        TIntermAggregate* agg = node->getAsAggregate();
        if (!agg || agg->getOp() != EOpLinkerObjects) continue;
        for (TIntermNode* obj : agg->getSequence()) {
            TIntermSymbol* sym = obj->getAsSymbolNode();
            if (!sym || sym->getQualifier().storage != EvqUniform) continue;
            const TConstUnionArray& c = sym->getConstArray();
            if (c.empty() || sym->getBasicType() == EbtBlock) continue;
            bool known = false;
            for (size_t i : r.init_names) known |= r.names[i] == sym->getName().c_str();
            if (known) continue;
            int at = 0;
            walk_init(r, sym->getType(), sym->getName().c_str(), c, at);
        }
    }
}

// Records a shader storage block a stage declares (once per program, with the stages).
void collect_storage_block(TshResult& r, const TType& type, uint32_t stage_bit) {
    std::string name = type.getTypeName().c_str();
    for (size_t b = 0; b < r.storage_blocks.size(); ++b) {
        if (r.names[r.storage_block_names[b]] == name) {
            r.storage_blocks[b].stages |= stage_bit;
            return;
        }
    }
    TshStorageBlock block{};
    block.array = type.isArray() ? type.getCumulativeArraySize() : 0;
    block.binding = type.getQualifier().hasBinding()
                        ? static_cast<int32_t>(type.getQualifier().layoutBinding)
                        : -1;
    block.stages = stage_bit;
    r.storage_block_names.push_back(r.keep(name));
    r.storage_blocks.push_back(block);
}

// Records the uniform blocks (the default block included) each stage declares, and the
// order its user inputs and outputs are declared in.
void collect_blocks(TshResult& r, const TIntermediate& im, uint32_t stage, uint32_t stage_bit) {
    TIntermAggregate* root = im.getTreeRoot() ? im.getTreeRoot()->getAsAggregate() : nullptr;
    if (!root) return;
    for (TIntermNode* node : root->getSequence()) {
        TIntermAggregate* agg = node->getAsAggregate();
        if (!agg || agg->getOp() != EOpLinkerObjects) continue;
        for (TIntermNode* obj : agg->getSequence()) {
            TIntermSymbol* sym = obj->getAsSymbolNode();
            if (!sym) continue;
            const TType& type = sym->getType();
            TStorageQualifier sq = type.getQualifier().storage;
            if ((sq == EvqVaryingIn || sq == EvqVaryingOut) && !type.isBuiltIn() &&
                sym->getName().compare(0, 3, "gl_") != 0) {
                bool block = type.getBasicType() == EbtBlock;
                r.decl_names.push_back(
                    r.keep(block ? type.getTypeName().c_str() : sym->getName().c_str()));
                const TQualifier& q = type.getQualifier();
                uint32_t bits = (q.smooth ? kDeclSmooth : 0) | (q.flat ? kDeclFlat : 0) |
                                (q.nopersp ? kDeclNoPerspective : 0) |
                                (q.invariant ? kDeclInvariant : 0) | (block ? kDeclBlock : 0);
                r.decls.push_back(
                    TshDecl{{}, stage, sq == EvqVaryingOut ? 1 : 0, bits, im.getVersion()});
                continue;
            }
            if (sq == EvqBuffer && type.getBasicType() == EbtBlock) {
                collect_storage_block(r, type, stage_bit);
                continue;
            }
            if (sq != EvqUniform || type.getBasicType() != EbtBlock) continue;
            std::string block_name = type.getTypeName().c_str();
            bool found = false;
            for (size_t b = 0; b < r.blocks.size(); ++b) {
                if (r.names[r.block_names[b]] == block_name) {
                    r.blocks[b].stages |= stage_bit;
                    found = true;
                }
            }
            if (found) continue;
            bool is_default = block_name == im.getGlobalUniformBlockName();
            TshBlock block{};
            block.array = type.isArray() ? type.getCumulativeArraySize() : 0;
            block.binding = type.getQualifier().hasBinding()
                                ? static_cast<int32_t>(type.getQualifier().layoutBinding)
                                : -1;
            block.prefixed = !is_default && !IsAnonymous(sym->getName());
            block.stages = stage_bit;
            int32_t index = static_cast<int32_t>(r.blocks.size());
            r.block_names.push_back(r.keep(block_name));
            r.blocks.push_back(block);
            std::unique_ptr<TType> element;
            if (type.isArray()) element.reset(new TType(type, 0));
            const TType& body = element ? *element : type;
            if (!body.isStruct()) continue;
            const TTypeList& members = *body.getStruct();
            std::string prefix = block.prefixed ? block_name + "." : "";
            std::vector<uint32_t> path;
            for (size_t m = 0; m < members.size(); ++m) {
                const TType& mt = *members[m].type;
                path.push_back(static_cast<uint32_t>(m));
                walk(r, index, mt, prefix + mt.getFieldName().c_str(), path);
                path.pop_back();
            }
        }
    }
}

void reflect(TshResult& r, TProgram& program) {
    program.buildReflection(EShReflectionBasicArraySuffix | EShReflectionSeparateBuffers);
    for (int i = 0; i < program.getNumUniformVariables(); ++i) {
        const TObjectReflection& u = program.getUniform(i);
        TshUniform out{};
        out.gl_type = u.glDefineType;
        out.size = u.size;
        out.block = u.index;
        out.binding = u.getBinding();
        out.stages = u.stages;
        out.is_sampler = u.getType() && u.getType()->getBasicType() == EbtSampler;
        r.uniform_names.push_back(r.keep(u.name));
        r.uniforms.push_back(out);
    }
    for (int i = 0; i < program.getNumUniformBlocks(); ++i) {
        const TObjectReflection& b = program.getUniformBlock(i);
        r.live_block_names.push_back(r.keep(b.name));
        r.live_blocks.push_back(TshLiveBlock{{}, static_cast<uint32_t>(b.stages)});
    }
    auto io = [&](const TObjectReflection& v, std::vector<TshVar>& list,
                  std::vector<size_t>& names) {
        TshVar out{};
        out.gl_type = v.glDefineType;
        out.size = v.size;
        out.location = -1;
        out.index = -1;
        if (const TType* t = v.getType()) {
            const TQualifier& q = t->getQualifier();
            if (q.hasLocation()) out.location = static_cast<int32_t>(q.layoutLocation);
            if (q.hasIndex()) out.index = static_cast<int32_t>(q.layoutIndex);
        }
        names.push_back(r.keep(v.name));
        list.push_back(out);
    };
    for (int i = 0; i < program.getNumPipeInputs(); ++i)
        io(program.getPipeInput(i), r.inputs, r.input_names);
    for (int i = 0; i < program.getNumPipeOutputs(); ++i)
        io(program.getPipeOutput(i), r.outputs, r.output_names);
}

// The calls between the functions a shader defines.
class CallGraph : public TIntermTraverser {
public:
    CallGraph() : TIntermTraverser(true, false, true) {}

    struct Function {
        std::string name;  // as declared, without the parameter mangling
        int line;
        std::vector<std::string> calls;  // mangled names of user functions called
    };
    std::map<std::string, Function> functions;  // by mangled name

    bool visitAggregate(TVisit visit, TIntermAggregate* node) override {
        if (node->getOp() == EOpFunction) {
            if (visit == EvPreVisit) {
                current_ = node->getName().c_str();
                Function& f = functions[current_];
                f.name = current_.substr(0, current_.find('('));
                f.line = node->getLoc().line;
            } else if (visit == EvPostVisit) {
                current_.clear();
            }
        } else if (node->getOp() == EOpFunctionCall && visit == EvPreVisit &&
                   node->isUserDefined() && !current_.empty()) {
            functions[current_].calls.push_back(node->getName().c_str());
        }
        return true;
    }

    // Whether `from` reaches `to` through calls.
    bool reaches(const std::string& from, const std::string& to) const {
        std::vector<std::string> todo{from};
        std::set<std::string> seen;
        while (!todo.empty()) {
            std::string f = todo.back();
            todo.pop_back();
            auto it = functions.find(f);
            if (it == functions.end()) continue;
            for (const std::string& callee : it->second.calls) {
                if (callee == to) return true;
                if (seen.insert(callee).second) todo.push_back(callee);
            }
        }
        return false;
    }

private:
    std::string current_;
};

// GLSL forbids static recursion. glslang finds it when it links, GL drivers (Mesa) when
// they compile a shader whose functions call themselves: an error line per such function.
std::string static_recursion(TIntermediate* im) {
    if (!im || !im->getTreeRoot()) return "";
    CallGraph graph;
    im->getTreeRoot()->traverse(&graph);
    std::string log;
    for (const auto& [mangled, f] : graph.functions) {
        if (graph.reaches(mangled, mangled))
            log += "ERROR: 0:" + std::to_string(f.line) + ": '" + f.name +
                   "' : function has static recursion\n";
    }
    return log;
}

// The global declarations of a parsed shader: the last node of its tree, or null.
TIntermAggregate* linker_objects(TIntermediate* im) {
    if (!im->getTreeRoot()) return nullptr;
    TIntermAggregate* root = im->getTreeRoot()->getAsAggregate();
    if (!root || root->getSequence().empty()) return nullptr;
    TIntermAggregate* objects = root->getSequence().back()->getAsAggregate();
    return objects && objects->getOp() == EOpLinkerObjects ? objects : nullptr;
}

// Whether a type is, or contains, an integer or double-precision value: what GLSL requires
// to be `flat` when it is a fragment shader input.
bool needs_flat(const TType& type) {
    if (type.isStruct()) {
        for (const TTypeLoc& member : *type.getStruct())
            if (needs_flat(*member.type)) return true;
        return false;
    }
    switch (type.getBasicType()) {
    case EbtInt:
    case EbtUint:
    case EbtInt64:
    case EbtUint64:
    case EbtDouble:
        return true;
    default:
        return false;
    }
}

// GLSL 1.30+ §4.3.4: fragment inputs that are or contain integers (or doubles, 4.00) must be
// qualified `flat`. glslang checks plain inputs but not the members of an input block: an
// error line per block member that breaks the rule, in the shape glslang's own errors take.
std::string unqualified_flat_block_members(TIntermediate* im) {
    if (!im || im->getStage() != EShLangFragment) return "";
    TIntermAggregate* objects = linker_objects(im);
    if (!objects) return "";
    std::string log;
    for (TIntermNode* node : objects->getSequence()) {
        TIntermSymbol* symbol = node->getAsSymbolNode();
        if (!symbol) continue;
        const TType& type = symbol->getType();
        if (type.getQualifier().storage != EvqVaryingIn || type.getBasicType() != EbtBlock ||
            type.getQualifier().flat)
            continue;
        for (const TTypeLoc& member : *type.getStruct()) {
            if (member.type->getQualifier().flat || !needs_flat(*member.type)) continue;
            log += "ERROR: 0:" + std::to_string(member.loc.line) + ": '" +
                   member.type->getFieldName().c_str() +
                   "' : a fragment input that is or contains an integer or double must be "
                   "qualified with 'flat'\n";
        }
    }
    return log;
}

// The vertices of a geometry shader's input primitive, 0 when none is declared.
int input_vertices(TLayoutGeometry g) {
    switch (g) {
    case ElgPoints: return 1;
    case ElgLines: return 2;
    case ElgLinesAdjacency: return 4;
    case ElgTriangles: return 3;
    case ElgTrianglesAdjacency: return 6;
    default: return 0;
    }
}

// Constant indices of sized geometry shader input arrays at or past their size.
class OutOfRangeInputs : public TIntermTraverser {
public:
    std::vector<std::tuple<int, std::string, int>> found;  // line, name, size

    bool visitBinary(TVisit, TIntermBinary* node) override {
        if (node->getOp() != EOpIndexDirect) return true;
        TIntermSymbol* array = node->getLeft()->getAsSymbolNode();
        TIntermConstantUnion* index = node->getRight()->getAsConstantUnion();
        if (!array || !index) return true;
        const TType& type = array->getType();
        if (type.getQualifier().storage != EvqVaryingIn || !type.isSizedArray() ||
            type.getQualifier().builtIn != EbvNone)
            return true;
        int i = index->getConstArray()[0].getIConst();
        if (i >= type.getOuterArraySize())
            found.emplace_back(node->getLoc().line, array->getName().c_str(),
                               type.getOuterArraySize());
        return true;
    }
};

// GLSL 1.50 §4.3.8.1: a geometry shader's input arrays all have one size, the input
// primitive's vertex count once a layout declares it, and an unsized one indexed past that
// count is an error. glslang checks a declaration against a layout that came before it, not
// two sized inputs against each other nor an index used before the layout: an error line for
// each input that breaks the rule.
std::string inconsistent_geometry_inputs(TIntermediate* im) {
    if (!im || im->getStage() != EShLangGeometry) return "";
    TIntermAggregate* objects = linker_objects(im);
    if (!objects) return "";
    int expected = input_vertices(im->getInputPrimitive());
    std::string log;
    for (TIntermNode* node : objects->getSequence()) {
        TIntermSymbol* symbol = node->getAsSymbolNode();
        if (!symbol) continue;
        const TType& type = symbol->getType();
        if (type.getQualifier().storage != EvqVaryingIn || !type.isArray() ||
            type.getQualifier().builtIn != EbvNone)
            continue;
        std::string name = type.getBasicType() == EbtBlock ? type.getTypeName().c_str()
                                                            : symbol->getName().c_str();
        int line = symbol->getLoc().line;
        if (type.isSizedArray() && !type.isImplicitlySizedArray()) {
            int size = type.getOuterArraySize();
            if (expected == 0) expected = size;
            if (size != expected)
                log += "ERROR: 0:" + std::to_string(line) + ": '" + name +
                       "' : geometry shader input array size " + std::to_string(size) +
                       " is inconsistent with the other inputs (" + std::to_string(expected) +
                       ")\n";
        }
    }
    // An input indexed before a layout sized it, past the size the layout gave.
    OutOfRangeInputs out_of_range;
    im->getTreeRoot()->traverse(&out_of_range);
    for (const auto& [line, name, size] : out_of_range.found)
        log += "ERROR: 0:" + std::to_string(line) + ": '" + name +
               "' : geometry shader input array indexed past the input primitive's " +
               std::to_string(size) + " vertices\n";
    return log;
}

// Uniform block arrays indexed with an expression that is not constant.
class NonConstantBlockIndices : public TIntermTraverser {
public:
    std::vector<std::pair<int, std::string>> found;  // line, block name

    bool visitBinary(TVisit, TIntermBinary* node) override {
        if (node->getOp() != EOpIndexIndirect) return true;
        const TType& type = node->getLeft()->getType();
        if (type.getBasicType() == EbtBlock && type.getQualifier().storage == EvqUniform &&
            type.isArray())
            found.emplace_back(node->getLoc().line, type.getTypeName().c_str());
        return true;
    }
};

// GLSL 1.50 §4.3.7: "All indexes used to index a uniform block array must be constant
// integral expressions" (4.00 allows dynamically uniform ones). glslang takes any index: an
// error line for each that is not constant.
std::string nonconstant_uniform_block_indices(TIntermediate* im) {
    if (!im || im->getVersion() >= 400 || !im->getTreeRoot()) return "";
    NonConstantBlockIndices finder;
    im->getTreeRoot()->traverse(&finder);
    std::string log;
    for (const auto& [line, name] : finder.found)
        log += "ERROR: 0:" + std::to_string(line) + ": '" + name +
               "' : a uniform block array must be indexed with a constant expression\n";
    return log;
}

// GLSL 4.30 §4.4.1.1: a compute shader's local size may not exceed
// MAX_COMPUTE_WORK_GROUP_INVOCATIONS; Mesa refuses it at compile, glslang checks only each
// dimension.
std::string too_many_invocations(TIntermediate* im, const TshLimits* limits) {
    if (!im || !limits || im->getStage() != EShLangCompute || !im->isLocalSizeSet()) return "";
    uint64_t n = 1;
    for (int d = 0; d < 3; ++d) n *= im->getLocalSize(d);
    if (n <= static_cast<uint64_t>(limits->max_compute_work_group_invocations)) return "";
    return "ERROR: 0:1: 'local_size' : product of local_sizes exceeds "
           "MAX_COMPUTE_WORK_GROUP_INVOCATIONS (" +
           std::to_string(limits->max_compute_work_group_invocations) + ")\n";
}

// GLSL 4.30 §4.4.5: a storage block (each element of a block array) bound past
// MAX_SHADER_STORAGE_BUFFER_BINDINGS is an error; Mesa refuses it at compile, glslang has
// no such limit.
std::string storage_binding_too_large(TIntermediate* im, const TshLimits* limits) {
    if (!im || !limits || !im->getTreeRoot()) return "";
    TIntermAggregate* root = im->getTreeRoot()->getAsAggregate();
    if (!root) return "";
    std::string log;
    for (TIntermNode* node : root->getSequence()) {
        TIntermAggregate* agg = node->getAsAggregate();
        if (!agg || agg->getOp() != EOpLinkerObjects) continue;
        for (TIntermNode* obj : agg->getSequence()) {
            TIntermSymbol* sym = obj->getAsSymbolNode();
            if (!sym) continue;
            const TType& type = sym->getType();
            const TQualifier& q = type.getQualifier();
            if (q.storage != EvqBuffer || type.getBasicType() != EbtBlock || !q.hasBinding())
                continue;
            int64_t last = static_cast<int64_t>(q.layoutBinding) +
                           (type.isSizedArray() ? type.getOuterArraySize() : 1) - 1;
            if (last < limits->max_storage_buffer_bindings) continue;
            log += "ERROR: 0:" + std::to_string(sym->getLoc().line) + ": '" +
                   type.getTypeName().c_str() + "' : layout(binding = " +
                   std::to_string(q.layoutBinding) +
                   ") exceeds MAX_SHADER_STORAGE_BUFFER_BINDINGS (" +
                   std::to_string(limits->max_storage_buffer_bindings) + ")\n";
        }
    }
    return log;
}

// GL_ARB_enhanced_layouts: a block member's offset may not lie before or inside the member
// before it; glslang checks this only for GL clients. It has laid the blocks out by then
// (its Vulkan rules drop `packed` and `shared`, which layout_qualifiers.rs refuses with
// offsets, so every block is std140 or std430), each member's offset its actual one, so an
// overlap is a member that starts before the one before it ends. Mesa's message.
std::string explicit_block_layouts(TIntermediate* im) {
    TIntermAggregate* objects = linker_objects(im);
    if (!objects) return "";
    std::string log;
    for (TIntermNode* node : objects->getSequence()) {
        TIntermSymbol* symbol = node->getAsSymbolNode();
        if (!symbol) continue;
        const TType& type = symbol->getType();
        const TQualifier& q = type.getQualifier();
        if ((q.storage != EvqUniform && q.storage != EvqBuffer) ||
            type.getBasicType() != EbtBlock)
            continue;
        int end = 0;
        for (const TTypeLoc& member : *type.getStruct()) {
            const TQualifier& m = member.type->getQualifier();
            int size = 0;
            int stride = 0;
            TIntermediate::getMemberAlignment(*member.type, size, stride, q.layoutPacking,
                                              m.layoutMatrix == ElmRowMajor);
            if (m.hasOffset() && m.layoutOffset < end)
                log += "ERROR: 0:" + std::to_string(member.loc.line) +
                       ": 'offset' : layout qualifier offset overlaps previous member\n";
            if (m.hasOffset()) end = std::max(end, m.layoutOffset + size);
        }
    }
    return log;
}

TshResult* compile(const TshSource* src, const TshLimits* limits) {
    init_once();
    auto r = std::make_unique<TshResult>();
    ScratchPool scratch;
    TBuiltInResource res = resources(limits);
    auto unit = make_shader(*src);
    r->ok = unit->shader->parse(&res, default_version(*src), false, EShMsgDefault);
    r->log = unit->shader->getInfoLog();
    if (r->ok) {
        TIntermediate* im = unit->shader->getIntermediate();
        std::string errors = static_recursion(im) + unqualified_flat_block_members(im) +
                             inconsistent_geometry_inputs(im) +
                             nonconstant_uniform_block_indices(im) +
                             too_many_invocations(im, limits) +
                             storage_binding_too_large(im, limits) +
                             explicit_block_layouts(im);
        if (!errors.empty()) {
            r->ok = false;
            r->log += errors;
        }
    }
    r->seal();
    return r.release();
}

// GLSL 4.30 §4.1.9: only the last member of a shader storage block may be an array of
// no size. glslang sizes an earlier one from the constant indices that use it (as GL
// allows) and takes one nothing indexes; Mesa fails the link for that one, as this does.
std::string unsized_storage_members(TIntermediate* im) {
    if (!im || !im->getTreeRoot()) return "";
    TIntermAggregate* root = im->getTreeRoot()->getAsAggregate();
    if (!root) return "";
    std::string log;
    for (TIntermNode* node : root->getSequence()) {
        TIntermAggregate* agg = node->getAsAggregate();
        if (!agg || agg->getOp() != EOpLinkerObjects) continue;
        for (TIntermNode* obj : agg->getSequence()) {
            TIntermSymbol* sym = obj->getAsSymbolNode();
            if (!sym) continue;
            const TType& type = sym->getType();
            if (type.getQualifier().storage != EvqBuffer || type.getBasicType() != EbtBlock)
                continue;
            const TTypeList* members = type.getStruct();
            if (!members) continue;
            for (size_t m = 0; m + 1 < members->size(); ++m) {
                const TType& mt = *(*members)[m].type;
                if (!mt.isArray() || !mt.getArraySizes()->isDefaultImplicitlySized()) continue;
                log += "ERROR: Linking: '" + std::string(mt.getFieldName().c_str()) +
                       "' : only the last member of shader storage block '" +
                       type.getTypeName().c_str() + "' may be an unsized array\n";
            }
        }
    }
    return log;
}

// glslang 12 refuses a `patch` array passed from the tessellation control to the evaluation
// stage ("Array sizes must be compatible", printing the same type for both): the evaluation
// arm of TIntermediate::isIoResizeArray lacks the `patch` exception its control arm has. Its
// cross-stage check only checks (nothing later reads what it builds), so a link whose only
// cross-stage errors are that one links, without those lines in its log; every other
// cross-stage error still fails the link. TProgram::link is this with the check's result
// taken as it is. `log` is the link's info log, less the lines dropped.
class Linker : public TProgram {
public:
    bool link_stages(EShMessages messages, std::string& log) {
        if (linked) return false;
        linked = true;
        pool = new TPoolAllocator();
        SetThreadPoolAllocator(pool);
        bool ok = true;
        for (int s = 0; s < EShLangCount; ++s)
            ok = linkStage(static_cast<EShLanguage>(s), messages) && ok;
        std::string before = getInfoLog();
        log = before;
        if (!ok) return false;
        bool checked = crossStageCheck(messages);
        log = getInfoLog();
        if (checked) return true;
        std::string added = log.substr(before.size());
        size_t at = 0;
        while (at < added.size()) {
            size_t end = added.find('\n', at);
            if (end == std::string::npos) end = added.size();
            std::string line = added.substr(at, end - at);
            at = end + 1;
            bool detail = line.empty() || line[0] == ' ' || line[0] == '\t';
            bool patch_array =
                line.find("Linking tessellation control and tessellation evaluation stages: "
                          "Array sizes must be compatible") != std::string::npos;
            if (!detail && !patch_array) return false;
        }
        log = before;
        return true;
    }
};

// The uniform and storage blocks one shader object of a stage declares, by block name.
std::map<std::string, const TType*> declared_blocks(TIntermediate* im) {
    std::map<std::string, const TType*> blocks;
    TIntermAggregate* objects = linker_objects(im);
    if (!objects) return blocks;
    for (TIntermNode* node : objects->getSequence()) {
        TIntermSymbol* symbol = node->getAsSymbolNode();
        if (!symbol) continue;
        const TType& type = symbol->getType();
        TStorageQualifier storage = type.getQualifier().storage;
        if ((storage != EvqUniform && storage != EvqBuffer) || type.getBasicType() != EbtBlock)
            continue;
        std::string name = type.getTypeName().c_str();
        if (name != "gl_DefaultUniformBlock") blocks[name] = &type;
    }
    return blocks;
}

// GLSL 4.40 §4.4.5 (GL_ARB_enhanced_layouts): a block that several shader objects of a stage
// declare must have the same members at the same offsets in each; glslang's intrastage link
// does not compare offsets. Mesa's link error.
std::string intrastage_block_offsets(const std::vector<std::unique_ptr<Unit>>& shaders,
                                     const TshSource* srcs) {
    for (size_t i = 0; i < shaders.size(); ++i) {
        auto a = declared_blocks(shaders[i]->shader->getIntermediate());
        for (size_t j = 0; j < i; ++j) {
            if (srcs[i].stage != srcs[j].stage) continue;
            auto b = declared_blocks(shaders[j]->shader->getIntermediate());
            for (const auto& [name, ta] : a) {
                auto found = b.find(name);
                if (found == b.end()) continue;
                const TTypeList& ma = *ta->getStruct();
                const TTypeList& mb = *found->second->getStruct();
                bool same = ma.size() == mb.size();
                for (size_t k = 0; same && k < ma.size(); ++k) {
                    const TQualifier& qa = ma[k].type->getQualifier();
                    const TQualifier& qb = mb[k].type->getQualifier();
                    same = qa.hasOffset() == qb.hasOffset() &&
                           (!qa.hasOffset() || qa.layoutOffset == qb.layoutOffset);
                }
                if (!same)
                    return "error: definitions of interface block `" + name +
                           "' do not match\n";
            }
        }
    }
    return "";
}

TshResult* link(const TshSource* srcs, size_t count, const TshLimits* limits) {
    init_once();
    auto r = std::make_unique<TshResult>();
    ScratchPool scratch;
    TBuiltInResource res = resources(limits);
    // Shaders must outlive the program that links them.
    std::vector<std::unique_ptr<Unit>> shaders;
    for (size_t i = 0; i < count; ++i) {
        auto unit = make_shader(srcs[i]);
        if (!unit->shader->parse(&res, default_version(srcs[i]), false, EShMsgDefault)) {
            r->log = unit->shader->getInfoLog();
            r->seal();
            return r.release();
        }
        // A geometry shader object may get the program's input layout at link
        // (link.rs): its inputs are checked against it as at compile.
        std::string sizes = inconsistent_geometry_inputs(unit->shader->getIntermediate()) +
                            unsized_storage_members(unit->shader->getIntermediate());
        if (!sizes.empty()) {
            r->log = sizes;
            r->seal();
            return r.release();
        }
        if (std::strstr(unit->shader->getInfoLog(), kIgnoredInitializer))
            collect_initializers(*r, srcs[i], res);
        shaders.push_back(std::move(unit));
    }
    if (std::string mismatch = intrastage_block_offsets(shaders, srcs); !mismatch.empty()) {
        r->log = mismatch;
        r->seal();
        return r.release();
    }
    {
        Linker program;
        for (auto& s : shaders) program.addShader(s->shader.get());
        std::string log;
        if (!program.link_stages(EShMsgDefault, log)) {
            r->log = log;
            r->seal();
            return r.release();
        }
        r->log = log;
        for (uint32_t s = 0; s < kStages; ++s) {
            const TIntermediate* im = program.getIntermediate(to_language(s));
            if (!im) continue;
            r->has_stage[s] = true;
            collect_blocks(*r, *im, s, 1u << to_language(s));
            SpvOptions options;
            options.disableOptimizer = true;
            options.validate = false;
            spv::SpvBuildLogger logger;
            GlslangToSpv(*im, r->spirv[s], &logger, &options);
            std::string messages = logger.getAllMessages();
            if (!messages.empty()) r->log += messages;
            if (s == 3 && im->isLocalSizeSet()) {
                for (int d = 0; d < 3; ++d)
                    r->local_size[d] = static_cast<int32_t>(im->getLocalSize(d));
            }
            if (s == 4) r->tess[0] = im->getVertices();
            if (s == 5) {
                r->tess[1] = geometry_enum(im->getInputPrimitive());
                switch (im->getVertexSpacing()) {
                case EvsEqual: r->tess[2] = 0x0202; break;
                case EvsFractionalEven: r->tess[2] = 0x8E7C; break;
                case EvsFractionalOdd: r->tess[2] = 0x8E7B; break;
                default: break;
                }
                switch (im->getVertexOrder()) {
                case EvoCw: r->tess[3] = 0x0900; break;
                case EvoCcw: r->tess[3] = 0x0901; break;
                default: break;
                }
                r->tess[4] = im->getPointMode() ? 1 : 0;
            }
            if (s == 1) {
                r->geometry[0] = im->getVertices();
                r->geometry[1] = geometry_enum(im->getInputPrimitive());
                r->geometry[2] = geometry_enum(im->getOutputPrimitive());
                // glslang's 0 is an undeclared count: one invocation.
                r->geometry[3] = im->getInvocations() > 0 ? im->getInvocations() : 1;
            }
        }
        reflect(*r, program);
        r->ok = true;
    }
    r->seal();
    return r.release();
}

}  // namespace

extern "C" {

TshResult* tsh_compile(const TshSource* src, const TshLimits* limits) {
    try {
        return compile(src, limits);
    } catch (...) {
        return nullptr;
    }
}

TshResult* tsh_link(const TshSource* srcs, size_t count, const TshLimits* limits) {
    try {
        return link(srcs, count, limits);
    } catch (...) {
        return nullptr;
    }
}

void tsh_free(TshResult* r) { delete r; }

int32_t tsh_ok(const TshResult* r) { return r->ok ? 1 : 0; }

TshStr tsh_log(const TshResult* r) { return TshStr{r->log.data(), r->log.size()}; }

TshWords tsh_spirv(const TshResult* r, uint32_t stage) {
    if (stage >= kStages || !r->has_stage[stage]) return TshWords{nullptr, 0};
    return TshWords{r->spirv[stage].data(), r->spirv[stage].size()};
}

void tsh_geometry(const TshResult* r, int32_t out[4]) {
    std::memcpy(out, r->geometry, sizeof(r->geometry));
}

void tsh_local_size(const TshResult* r, int32_t out[3]) {
    std::memcpy(out, r->local_size, sizeof(r->local_size));
}

void tsh_tess(const TshResult* r, int32_t out[5]) { std::memcpy(out, r->tess, sizeof(r->tess)); }

// The lists: counts and items by index (the index is checked by the caller).
size_t tsh_uniform_count(const TshResult* r) { return r->uniforms.size(); }
TshUniform tsh_uniform(const TshResult* r, size_t i) { return r->uniforms[i]; }
size_t tsh_live_block_count(const TshResult* r) { return r->live_blocks.size(); }
TshLiveBlock tsh_live_block(const TshResult* r, size_t i) { return r->live_blocks[i]; }
size_t tsh_block_count(const TshResult* r) { return r->blocks.size(); }
TshBlock tsh_block(const TshResult* r, size_t i) { return r->blocks[i]; }
size_t tsh_storage_block_count(const TshResult* r) { return r->storage_blocks.size(); }
TshStorageBlock tsh_storage_block(const TshResult* r, size_t i) { return r->storage_blocks[i]; }
size_t tsh_leaf_count(const TshResult* r) { return r->leaves.size(); }
TshLeaf tsh_leaf(const TshResult* r, size_t i) { return r->leaves[i]; }
size_t tsh_input_count(const TshResult* r) { return r->inputs.size(); }
TshVar tsh_input(const TshResult* r, size_t i) { return r->inputs[i]; }
size_t tsh_output_count(const TshResult* r) { return r->outputs.size(); }
TshVar tsh_output(const TshResult* r, size_t i) { return r->outputs[i]; }
size_t tsh_decl_count(const TshResult* r) { return r->decls.size(); }
TshDecl tsh_decl(const TshResult* r, size_t i) { return r->decls[i]; }
size_t tsh_init_count(const TshResult* r) { return r->inits.size(); }
TshInit tsh_init(const TshResult* r, size_t i) { return r->inits[i]; }

}  // extern "C"
