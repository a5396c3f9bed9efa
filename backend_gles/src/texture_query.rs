//! Texture queries GLSL ES lacks, lowered before translation: `textureQueryLevels`
//! (`OpImageQueryLevels`) and `textureQueryLod` (`OpImageQueryLod`), which SPIRV-Cross
//! refuses for ES, and `textureSamples` (`OpImageQuerySamples` of a sampler's image,
//! `GL_ARB_shader_texture_image_samples`), which GLSL ES does not have.
//!
//! As for the sampler LOD bias (`spirv.rs`), what the driver cannot tell a shader comes from
//! plain uniforms indexed by sampler slot (`S` slots), which the backend sets from the bound
//! textures and sampler CSOs when it binds textures (`GlesPipe::apply_texture_queries`):
//! - `int ts_levels[S]`: the levels the slot's texture gives access to, `max_level -
//!   base_level + 1` of its view (the engine's view already stops at `TEXTURE_MAX_LEVEL`, at
//!   an immutable texture's last level and at the end of a consistent chain), 1 when nothing
//!   complete is bound (llvmpipe's answer: it samples a texture of one level then, where GL
//!   says 0). `textureQueryLevels` becomes a load of it.
//! - `int ts_samples[S]`: the samples of the slot's texture as the engine defined its
//!   images (what the driver allocated: the engine rounds counts to the ones the driver
//!   has), 0 when nothing is bound. `textureSamples` becomes a load of it.
//! - `vec4 ts_lod_sampler[S]`: the sampler's `(bias, min_lod, max_lod, mip)`, `mip` 0 for no
//!   mipmap filter, 1 for `*_MIPMAP_NEAREST`, 2 for `*_MIPMAP_LINEAR`.
//!
//! `textureQueryLod` becomes the arithmetic of GL's level of detail, done as Mesa's gallivm
//! (llvmpipe, the driver the results are compared with) does it, so the values match:
//! - `rho^2` is the larger of `sum((dFdx(c_i) * size_i)^2)` and the same with `dFdy`, over
//!   the coordinate's components the texture's dimensions use (`size_i` from
//!   `textureSize(s, 0)`, the base level's). A cube map's components are the face
//!   coordinates `sc / |ma|` with the derivatives of the quotient;
//! - `y = 0.5 * log2(rho^2) + bias`, `log2` in gallivm's fast form (exponent plus mantissa
//!   minus one: exact at powers of two, linear between);
//! - `x` is 0 without a mipmap filter, else `y` clamped by `max_lod`, then by `min_lod` (so a
//!   reversed range gives `min_lod`), rounded to even with `*_MIPMAP_NEAREST`, and clamped
//!   to `[0, levels - 1]`.
//!
//! The shader's derivatives (`dFdx`, `dFdy`) and the ones llvmpipe's sampler takes can
//! differ in their last bits, so values may differ from the native ones by about 1e-6.
//!
//! Not matched: a cube map without a mipmap filter and with equal minification and
//! magnification filters, for which gallivm takes the derivatives of the face coordinates
//! across the 2 x 2 quad instead. Left alone (the translation then fails and the program is
//! reported refused): queries of samplers that are not loaded straight from a slot's
//! variable (a sampler passed to a function).

use std::collections::HashMap;

use glow::HasContext;
use tessera_wire::format::MipFilter;
use tessera_wire::state::{MAX_TEXTURE_UNITS, SamplerState};

use crate::device::GlesPipe;
use crate::spirv::{
    DECORATION_BINDING, Module, STORAGE_UNIFORM_CONSTANT, inst, is_preamble, literal, op, opcode,
};

/// Name of the level-count uniform in the translated GLSL.
pub(crate) const LEVELS: &str = "ts_levels";
/// Name of the sample-count uniform in the translated GLSL.
pub(crate) const SAMPLES: &str = "ts_samples";
/// Name of the sampler-parameter uniform in the translated GLSL.
pub(crate) const LOD_SAMPLER: &str = "ts_lod_sampler";

/// `ts_lod_sampler`'s `mip` for no mipmap filter, `*_MIPMAP_NEAREST` and `*_MIPMAP_LINEAR`.
pub(crate) const MIP_NONE: f32 = 0.0;
pub(crate) const MIP_NEAREST: f32 = 1.0;
pub(crate) const MIP_LINEAR: f32 = 2.0;

mod q {
    pub const EXT_INST_IMPORT: u16 = 11;
    pub const EXT_INST: u16 = 12;
    pub const TYPE_BOOL: u16 = 20;
    pub const COMPOSITE_EXTRACT: u16 = 81;
    pub const IMAGE_QUERY_LOD: u16 = 105;
    pub const IMAGE_QUERY_LEVELS: u16 = 106;
    pub const IMAGE_QUERY_SAMPLES: u16 = 107;
    pub const CONVERT_S_TO_F: u16 = 111;
    pub const BITCAST: u16 = 124;
    pub const I_SUB: u16 = 130;
    pub const F_SUB: u16 = 131;
    pub const F_MUL: u16 = 133;
    pub const F_DIV: u16 = 136;
    pub const LOGICAL_OR: u16 = 166;
    pub const LOGICAL_AND: u16 = 167;
    pub const SELECT: u16 = 169;
    pub const F_ORD_LESS_THAN: u16 = 184;
    pub const F_ORD_GREATER_THAN: u16 = 186;
    pub const F_ORD_GREATER_THAN_EQUAL: u16 = 190;
    pub const SHIFT_RIGHT_ARITHMETIC: u16 = 195;
    pub const BITWISE_OR: u16 = 197;
    pub const BITWISE_AND: u16 = 199;
    pub const DPDX: u16 = 207;
    pub const DPDY: u16 = 208;
}

/// GLSL.std.450 instructions.
mod std450 {
    pub const ROUND_EVEN: u32 = 2;
    pub const F_ABS: u32 = 4;
    pub const F_MIN: u32 = 37;
    pub const F_MAX: u32 = 40;
    pub const F_CLAMP: u32 = 43;
}

const DIM_1D: u32 = 0;
const DIM_2D: u32 = 1;
const DIM_3D: u32 = 2;
const DIM_CUBE: u32 = 3;

/// One query: its instruction's result id, slot, array index, whether it asks the sample
/// count and, for a LOD query, the image it reads.
#[derive(Clone, Copy)]
struct Site {
    slot: u32,
    index: Option<u32>,
    samples: bool,
    lod: Option<LodSite>,
}

#[derive(Clone, Copy)]
struct LodSite {
    /// The image type (`OpTypeImage`) of the sampled image.
    image_type: u32,
    dim: u32,
    arrayed: bool,
}

/// The slot and array index a sampled image was loaded from.
fn slot_of(
    m: &Module,
    defs: &HashMap<u32, Vec<u32>>,
    sampled: u32,
    samplers: u32,
) -> Option<(u32, Option<u32>)> {
    let load = defs.get(&sampled).filter(|l| opcode(l) == op::LOAD)?;
    let (var, index) = match defs.get(&load[3]) {
        Some(chain) if opcode(chain) == op::ACCESS_CHAIN && chain.len() == 5 => {
            (chain[3], Some(chain[4]))
        }
        Some(_) => return None,
        None => (load[3], None),
    };
    let slot = m.insts.iter().find_map(|i| {
        (opcode(i) == op::DECORATE && i.len() == 4 && i[1] == var && i[2] == DECORATION_BINDING)
            .then(|| i[3].checked_sub(1))
            .flatten()
    })?;
    (slot < samplers).then_some((slot, index))
}

/// Lowers a stage's `textureQueryLevels`, `textureQueryLod` and `textureSamples`; `None`
/// when it has none (or none it can lower).
pub(crate) fn lower(words: &[u32], samplers: u32) -> Option<Vec<u32>> {
    if samplers == 0 {
        return None;
    }
    let mut m = Module::parse(words)?;
    let start = m.functions_start();
    // Function-local loads, access chains and images, by result id.
    let defs: HashMap<u32, Vec<u32>> = m.insts[start..]
        .iter()
        .filter(|i| matches!(opcode(i), op::LOAD | op::ACCESS_CHAIN | op::IMAGE) && i.len() >= 4)
        .map(|i| (i[2], i.clone()))
        .collect();
    let mut sites: HashMap<u32, Site> = HashMap::new();
    for i in &m.insts[start..] {
        match opcode(i) {
            q::IMAGE_QUERY_LEVELS | q::IMAGE_QUERY_SAMPLES if i.len() == 4 => {
                // Of a sampler's image; `imageSamples` (of an image variable) is left alone.
                let Some(image) = defs.get(&i[3]).filter(|d| opcode(d) == op::IMAGE) else {
                    continue;
                };
                if let Some((slot, index)) = slot_of(&m, &defs, image[3], samplers) {
                    let site = Site {
                        slot,
                        index,
                        samples: opcode(i) == q::IMAGE_QUERY_SAMPLES,
                        lod: None,
                    };
                    sites.insert(i[2], site);
                }
            }
            q::IMAGE_QUERY_LOD if i.len() == 5 => {
                let Some((slot, index)) = slot_of(&m, &defs, i[3], samplers) else {
                    continue;
                };
                let image = defs
                    .get(&i[3])
                    .and_then(|load| m.declaration(load[1]))
                    .filter(|t| opcode(t) == op::TYPE_SAMPLED_IMAGE)
                    .and_then(|t| m.declaration(t[2]))
                    .filter(|t| opcode(t) == op::TYPE_IMAGE && t.len() >= 9);
                let Some(t) = image else { continue };
                if !matches!(t[3], DIM_1D | DIM_2D | DIM_3D | DIM_CUBE) {
                    continue;
                }
                let lod = LodSite {
                    image_type: t[1],
                    dim: t[3],
                    arrayed: t[5] == 1,
                };
                sites.insert(
                    i[2],
                    Site {
                        slot,
                        index,
                        samples: false,
                        lod: Some(lod),
                    },
                );
            }
            _ => {}
        }
    }
    if sites.is_empty() {
        return None;
    }
    let any_lod = sites.values().any(|s| s.lod.is_some());

    // Types, constants and the uniforms.
    let float = m.scalar(op::TYPE_FLOAT, &[32]);
    let int = m.scalar(op::TYPE_INT, &[32, 1]);
    let uint = m.scalar(op::TYPE_INT, &[32, 0]);
    let boolean = m.scalar(q::TYPE_BOOL, &[]);
    let vec4 = m.vector(float, 4);
    let length = m.fresh();
    m.global(inst(op::CONSTANT, &[uint, length, samplers]));
    let any_levels = sites.values().any(|s| !s.samples);
    let levels = any_levels.then(|| uniform_array(&mut m, int, length, LEVELS));
    let samples = sites
        .values()
        .any(|s| s.samples)
        .then(|| uniform_array(&mut m, int, length, SAMPLES));
    let lod_sampler = any_lod.then(|| uniform_array(&mut m, vec4, length, LOD_SAMPLER));
    let mut k = Constants::default();
    let mut slot_constants = HashMap::new();
    for site in sites.values() {
        slot_constants
            .entry(site.slot)
            .or_insert_with(|| k.int(&mut m, int, site.slot));
    }
    let mut size_types = HashMap::new();
    let mut glsl = 0;
    if any_lod {
        glsl = glsl_std_450(&mut m);
        for c in [0.0f32, 0.5, 1.0, 1.5] {
            k.float(&mut m, float, c);
        }
        for c in [0u32, 1, 23, 127, 0x007f_ffff, 0x3f80_0000] {
            k.int(&mut m, int, c);
        }
        for s in sites.values().filter_map(|s| s.lod) {
            let n = size_components(s);
            if n > 1 {
                size_types.entry(n).or_insert_with(|| m.vector(int, n));
            }
        }
    }
    let ptr = |m: &mut Module, ty: u32| {
        let id = m.fresh();
        m.global(inst(op::TYPE_POINTER, &[id, STORAGE_UNIFORM_CONSTANT, ty]));
        id
    };
    let int_ptr = ptr(&mut m, int);
    let vec4_ptr = if any_lod { ptr(&mut m, vec4) } else { 0 };

    // The code, in place of each query.
    let types = Types {
        float,
        int,
        boolean,
        vec4,
        vec4_ptr,
        glsl,
        lod_sampler: lod_sampler.unwrap_or(0),
    };
    let mut at = m.functions_start();
    while at < m.insts.len() {
        let id = m.insts[at].get(2).copied().unwrap_or(0);
        let site = sites.get(&id).copied();
        let Some(site) = site.filter(|_| {
            matches!(
                opcode(&m.insts[at]),
                q::IMAGE_QUERY_LEVELS | q::IMAGE_QUERY_LOD | q::IMAGE_QUERY_SAMPLES
            )
        }) else {
            at += 1;
            continue;
        };
        let query = m.insts[at].clone();
        let mut b = Builder {
            m: &mut m,
            code: Vec::new(),
            t: types,
            k: &k,
        };
        let element = match site.index {
            Some(idx) => b.op(op::I_ADD, int, &[slot_constants[&site.slot], idx]),
            None => slot_constants[&site.slot],
        };
        // Both arrays are declared where a site reads them.
        let array = if site.samples { samples } else { levels };
        let p = b.op(op::ACCESS_CHAIN, int_ptr, &[array.unwrap_or(0), element]);
        match site.lod {
            None => {
                // The query's own result id, so its uses read the uniform.
                b.code.push(inst(op::LOAD, &[query[1], query[2], p]));
            }
            Some(lod) => {
                let count = b.op(op::LOAD, int, &[p]);
                b.query_lod(&query, lod, element, count, &size_types);
            }
        }
        let code = b.code;
        let added = code.len();
        m.insts.splice(at..=at, code);
        at += added;
    }
    Some(m.finish())
}

/// The components of `textureSize` of a LOD query's sampler.
fn size_components(s: LodSite) -> u32 {
    let base = match s.dim {
        DIM_1D => 1,
        DIM_3D => 3,
        _ => 2,
    };
    base + u32::from(s.arrayed)
}

/// Declares `uniform <element> name[length]` and returns the variable.
fn uniform_array(m: &mut Module, element: u32, length: u32, name: &str) -> u32 {
    let array = m.fresh();
    m.global(inst(op::TYPE_ARRAY, &[array, element, length]));
    let array_ptr = m.fresh();
    m.global(inst(
        op::TYPE_POINTER,
        &[array_ptr, STORAGE_UNIFORM_CONSTANT, array],
    ));
    let var = m.fresh();
    m.global(inst(
        op::VARIABLE,
        &[array_ptr, var, STORAGE_UNIFORM_CONSTANT],
    ));
    let mut words = vec![var];
    words.extend(literal(name));
    // Names go with the debug instructions, before the annotations.
    let at = m
        .insts
        .iter()
        .position(|i| matches!(opcode(i), 71..=75 | 332 | 5632 | 5633) || !is_preamble(opcode(i)))
        .unwrap_or(0);
    m.insts.insert(at, inst(op::NAME, &words));
    var
}

/// The `GLSL.std.450` import, added if the module has none.
fn glsl_std_450(m: &mut Module) -> u32 {
    let name = literal("GLSL.std.450");
    if let Some(i) = m
        .insts
        .iter()
        .find(|i| opcode(i) == q::EXT_INST_IMPORT && i[2..] == name[..])
    {
        return i[1];
    }
    let id = m.fresh();
    let mut words = vec![id];
    words.extend(name);
    // After the capabilities and extensions, before the memory model.
    let at = m
        .insts
        .iter()
        .position(|i| !matches!(opcode(i), 10 | 11 | 17))
        .unwrap_or(0);
    m.insts.insert(at, inst(q::EXT_INST_IMPORT, &words));
    id
}

/// Scalar constants by (type, bits), declared once.
#[derive(Default)]
struct Constants {
    ids: HashMap<(u32, u32), u32>,
}

impl Constants {
    fn int(&mut self, m: &mut Module, ty: u32, value: u32) -> u32 {
        *self.ids.entry((ty, value)).or_insert_with(|| {
            let id = m.fresh();
            m.global(inst(op::CONSTANT, &[ty, id, value]));
            id
        })
    }

    fn float(&mut self, m: &mut Module, ty: u32, value: f32) -> u32 {
        self.int(m, ty, value.to_bits())
    }

    fn get(&self, ty: u32, bits: u32) -> u32 {
        self.ids[&(ty, bits)]
    }
}

#[derive(Clone, Copy)]
struct Types {
    float: u32,
    int: u32,
    boolean: u32,
    vec4: u32,
    vec4_ptr: u32,
    glsl: u32,
    lod_sampler: u32,
}

/// Emits the instructions of one query.
struct Builder<'a> {
    m: &'a mut Module,
    code: Vec<Vec<u32>>,
    t: Types,
    k: &'a Constants,
}

impl Builder<'_> {
    fn op(&mut self, opcode: u16, ty: u32, operands: &[u32]) -> u32 {
        let id = self.m.fresh();
        let mut words = vec![ty, id];
        words.extend_from_slice(operands);
        self.code.push(inst(opcode, &words));
        id
    }

    fn ext(&mut self, ty: u32, instruction: u32, operands: &[u32]) -> u32 {
        let mut words = vec![self.t.glsl, instruction];
        words.extend_from_slice(operands);
        self.op(q::EXT_INST, ty, &words)
    }

    fn f(&self, value: f32) -> u32 {
        self.k.get(self.t.float, value.to_bits())
    }

    fn i(&self, value: u32) -> u32 {
        self.k.get(self.t.int, value)
    }

    fn extract(&mut self, v: u32, scalar: bool, c: u32) -> u32 {
        if scalar {
            v
        } else {
            self.op(q::COMPOSITE_EXTRACT, self.t.float, &[v, c])
        }
    }

    fn abs(&mut self, v: u32) -> u32 {
        self.ext(self.t.float, std450::F_ABS, &[v])
    }

    fn max(&mut self, a: u32, b: u32) -> u32 {
        self.ext(self.t.float, std450::F_MAX, &[a, b])
    }

    fn mul(&mut self, a: u32, b: u32) -> u32 {
        self.op(q::F_MUL, self.t.float, &[a, b])
    }

    /// `max(sum of (d/dx)^2, sum of (d/dy)^2)` of per-dimension derivatives in texels:
    /// gallivm's exact rho, squared.
    fn rho2(&mut self, texels: Vec<(u32, u32)>) -> u32 {
        let float = self.t.float;
        let mut sums: Option<(u32, u32)> = None;
        for (x, y) in texels {
            let (x2, y2) = (self.mul(x, x), self.mul(y, y));
            sums = Some(match sums {
                Some((sx, sy)) => (
                    self.op(op::F_ADD, float, &[sx, x2]),
                    self.op(op::F_ADD, float, &[sy, y2]),
                ),
                None => (x2, y2),
            });
        }
        let Some((sx, sy)) = sums else {
            crate::device::backend_bug("a LOD query of no dimension")
        };
        self.max(sx, sy)
    }

    fn select(&mut self, cond: u32, a: u32, b: u32) -> u32 {
        self.op(q::SELECT, self.t.float, &[cond, a, b])
    }

    /// The result of `query` (`OpImageQueryLod`), from the slot's level count `count` and
    /// its `ts_lod_sampler[element]`.
    fn query_lod(
        &mut self,
        query: &[u32],
        lod: LodSite,
        element: u32,
        count: u32,
        size_types: &HashMap<u32, u32>,
    ) {
        let (float, int) = (self.t.float, self.t.int);
        let (sampled, coord) = (query[3], query[4]);
        // The base level's size, as floats.
        let image = self.op(op::IMAGE, lod.image_type, &[sampled]);
        let n = size_components(lod);
        let size_ty = if n == 1 { int } else { size_types[&n] };
        let zero_i = self.i(0);
        let size = self.op(op::IMAGE_QUERY_SIZE_LOD, size_ty, &[image, zero_i]);
        let dims = match lod.dim {
            DIM_1D => 1,
            DIM_3D => 3,
            _ => 2,
        };
        let mut sizes = Vec::new();
        for c in 0..dims {
            let s = if n == 1 {
                size
            } else {
                self.op(q::COMPOSITE_EXTRACT, int, &[size, c])
            };
            sizes.push(self.op(q::CONVERT_S_TO_F, float, &[s]));
        }
        // The coordinate's derivatives.
        let coord_ty = self.m.type_of(coord);
        let scalar = coord_ty == Some(float);
        let Some(coord_ty) = coord_ty else {
            crate::device::backend_bug("a LOD query's coordinate has no type")
        };
        let dx = self.op(q::DPDX, coord_ty, &[coord]);
        let dy = self.op(q::DPDY, coord_ty, &[coord]);
        // Per dimension, the derivatives in texels: (d/dx, d/dy).
        // The sampler's parameters.
        let p = self.op(
            op::ACCESS_CHAIN,
            self.t.vec4_ptr,
            &[self.t.lod_sampler, element],
        );
        let params = self.op(op::LOAD, self.t.vec4, &[p]);
        let bias = self.op(q::COMPOSITE_EXTRACT, float, &[params, 0]);
        let min_lod = self.op(q::COMPOSITE_EXTRACT, float, &[params, 1]);
        let max_lod = self.op(q::COMPOSITE_EXTRACT, float, &[params, 2]);
        let mip = self.op(q::COMPOSITE_EXTRACT, float, &[params, 3]);
        let half = self.f(0.5);
        let rho2 = if lod.dim == DIM_CUBE {
            let (ds, dt) = self.cube_derivatives(coord, dx, dy);
            let derived = vec![
                (self.mul(sizes[0], ds.0), self.mul(sizes[0], ds.1)),
                (self.mul(sizes[1], dt.0), self.mul(sizes[1], dt.1)),
            ];
            self.rho2(derived)
        } else {
            let texels = (0..dims)
                .map(|c| {
                    let x = self.extract(dx, scalar, c);
                    let y = self.extract(dy, scalar, c);
                    let size = sizes[c as usize];
                    (self.mul(x, size), self.mul(y, size))
                })
                .collect();
            self.rho2(texels)
        };
        // 0.5 * fast_log2(rho^2): exponent + mantissa - 1.
        let bits = self.op(q::BITCAST, int, &[rho2]);
        let (c23, c127) = (self.i(23), self.i(127));
        let shifted = self.op(q::SHIFT_RIGHT_ARITHMETIC, int, &[bits, c23]);
        let exponent = self.op(q::I_SUB, int, &[shifted, c127]);
        let (mask, one_bits) = (self.i(0x007f_ffff), self.i(0x3f80_0000));
        let fraction = self.op(q::BITWISE_AND, int, &[bits, mask]);
        let mantissa_bits = self.op(q::BITWISE_OR, int, &[fraction, one_bits]);
        let mantissa = self.op(q::BITCAST, float, &[mantissa_bits]);
        let e = self.op(q::CONVERT_S_TO_F, float, &[exponent]);
        let one = self.f(1.0);
        let m1 = self.op(q::F_SUB, float, &[mantissa, one]);
        let log = self.op(op::F_ADD, float, &[e, m1]);
        let lambda = self.mul(log, half);
        let y = self.op(op::F_ADD, float, &[lambda, bias]);
        let clamped = self.ext(float, std450::F_MIN, &[y, max_lod]);
        let clamped = self.max(clamped, min_lod);
        let rounded = self.ext(float, std450::ROUND_EVEN, &[clamped]);
        let one_half = self.f(1.5);
        let linear = self.op(q::F_ORD_GREATER_THAN, self.t.boolean, &[mip, one_half]);
        let level = self.select(linear, clamped, rounded);
        let one_i = self.i(1);
        let last_i = self.op(q::I_SUB, int, &[count, one_i]);
        let last = self.op(q::CONVERT_S_TO_F, float, &[last_i]);
        let zero = self.f(0.0);
        let last = self.max(last, zero);
        let level = self.ext(float, std450::F_CLAMP, &[level, zero, last]);
        let none = self.op(q::F_ORD_LESS_THAN, self.t.boolean, &[mip, half]);
        let x = self.select(none, zero, level);
        self.code
            .push(inst(op::COMPOSITE_CONSTRUCT, &[query[1], query[2], x, y]));
    }

    /// The derivatives along x and y of a cube coordinate's face coordinates `s` and `t`
    /// (`0.5 * sc / |ma| + 0.5`, GL's table; the signs of `sc` and `tc` do not change the
    /// magnitudes), from the coordinate's derivatives: `((ds/dx, ds/dy), (dt/dx, dt/dy))`.
    fn cube_derivatives(&mut self, coord: u32, dx: u32, dy: u32) -> ((u32, u32), (u32, u32)) {
        let boolean = self.t.boolean;
        let [x, y, z] = [0, 1, 2].map(|c| self.extract(coord, false, c));
        let [ax, ay, az] = [x, y, z].map(|v| self.abs(v));
        let z_over_x = self.op(q::F_ORD_GREATER_THAN_EQUAL, boolean, &[az, ax]);
        let z_over_y = self.op(q::F_ORD_GREATER_THAN_EQUAL, boolean, &[az, ay]);
        let z_major = self.op(q::LOGICAL_AND, boolean, &[z_over_x, z_over_y]);
        let y_over_x = self.op(q::F_ORD_GREATER_THAN_EQUAL, boolean, &[ay, ax]);
        let not_z = self.op(168, boolean, &[z_major]);
        let y_major = self.op(q::LOGICAL_AND, boolean, &[not_z, y_over_x]);
        let x_major_not = self.op(q::LOGICAL_OR, boolean, &[z_major, y_major]);
        // (u, v, ma) of a vector: x major (z, y, x), y major (x, z, y), z major (x, y, z).
        let pick = |b: &mut Self, v: u32| {
            let [vx, vy, vz] = [0, 1, 2].map(|c| b.extract(v, false, c));
            let u = b.select(x_major_not, vx, vz);
            let w = b.select(y_major, vz, vy);
            let ma_zy = b.select(z_major, vz, vy);
            let ma = b.select(x_major_not, ma_zy, vx);
            (u, w, ma)
        };
        let (u, v, ma) = pick(self, coord);
        let (dux, dvx, dmax) = pick(self, dx);
        let (duy, dvy, dmay) = pick(self, dy);
        // ima = 1 / ma, d = (du - (dma * ima) * u) * (0.5 * ima), gallivm's order.
        let one = self.f(1.0);
        let ima = self.op(q::F_DIV, self.t.float, &[one, ma]);
        let half = self.f(0.5);
        let ima_half = self.mul(half, ima);
        let d = |b: &mut Self, du: u32, u: u32, dma: u32| {
            let r = b.mul(dma, ima);
            let ur = b.mul(r, u);
            let diff = b.op(q::F_SUB, b.t.float, &[du, ur]);
            b.mul(diff, ima_half)
        };
        let dsx = d(self, dux, u, dmax);
        let dsy = d(self, duy, u, dmay);
        let dtx = d(self, dvx, v, dmax);
        let dty = d(self, dvy, v, dmay);
        ((dsx, dsy), (dtx, dty))
    }
}

/// A sampler CSO's `ts_lod_sampler` value: the parameters as set, which llvmpipe applies
/// in this order (the bias whatever the filter, the maximum LOD before the minimum, even
/// when the range is reversed).
pub(crate) fn lod_sampler(s: &SamplerState) -> [f32; 4] {
    let mip = match s.mip_filter {
        MipFilter::None => MIP_NONE,
        MipFilter::Nearest => MIP_NEAREST,
        MipFilter::Linear => MIP_LINEAR,
    };
    [s.lod_bias, s.min_lod, s.max_lod, mip]
}

/// Where a native program's texture query uniforms are.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Locations {
    /// `ts_levels`.
    pub levels: Option<glow::UniformLocation>,
    /// `ts_samples`.
    pub samples: Option<glow::UniformLocation>,
    /// `ts_lod_sampler`.
    pub lod_sampler: Option<glow::UniformLocation>,
}

impl Locations {
    /// The locations in `program`, `None` if it has none of the uniforms.
    pub fn find(gl: &crate::census::CountedGl, program: glow::Program) -> Option<Self> {
        // SAFETY: context current; `program` is a linked program of this context.
        let levels = unsafe { gl.get_uniform_location(program, LEVELS) };
        // SAFETY: as above.
        let samples = unsafe { gl.get_uniform_location(program, SAMPLES) };
        // SAFETY: as above.
        let lod_sampler = unsafe { gl.get_uniform_location(program, LOD_SAMPLER) };
        (levels.is_some() || samples.is_some() || lod_sampler.is_some()).then_some(Self {
            levels,
            samples,
            lod_sampler,
        })
    }
}

/// What a native program's texture query uniforms hold (absent: zeros).
#[derive(Default)]
pub(crate) struct Held {
    levels: Vec<i32>,
    samples: Vec<i32>,
    lod_sampler: Vec<[f32; 4]>,
}

impl GlesPipe {
    /// Sets the program's texture query uniforms for the bound textures and samplers of its
    /// first `count` slots, where they differ from what `native` holds. The program is
    /// current. Allocates only when the values change.
    pub(crate) fn apply_texture_queries(
        &mut self,
        record: &'static str,
        ctx: &crate::command::GlesContext,
        (locations, native): (Locations, glow::Program),
        count: usize,
    ) {
        let count = count.min(MAX_TEXTURE_UNITS);
        // llvmpipe samples an incomplete texture or an empty unit as a texture of one level.
        let mut levels = [1i32; MAX_TEXTURE_UNITS];
        let mut samples = [0i32; MAX_TEXTURE_UNITS];
        let mut lod = [[0.0f32; 4]; MAX_TEXTURE_UNITS];
        for s in 0..count {
            let (texture, sampler) = ctx.desired.textures[s];
            // Nothing complete bound (or a dangling binding): one level.
            let Some(t) = texture.and_then(|h| self.textures.get(record, h).ok()) else {
                continue;
            };
            let v = t.view;
            levels[s] = v
                .max_level
                .saturating_sub(v.base_level)
                .saturating_add(1)
                .min(i32::MAX as u32) as i32;
            samples[s] = t.image(0, 0).map_or(0, |i| i32::from(i.samples));
            if let Some(cso) = sampler.and_then(|h| self.samplers.get(record, h).ok()) {
                lod[s] = cso.lod_query;
            }
        }
        let held = self.program_cache.texture_queries.get(&native);
        let same = match held {
            Some(h) => {
                h.levels[..] == levels[..count]
                    && h.samples[..] == samples[..count]
                    && h.lod_sampler[..] == lod[..count]
            }
            None => {
                levels[..count].iter().all(|&l| l == 0)
                    && samples[..count].iter().all(|&n| n == 0)
                    && lod[..count].iter().all(|l| *l == [0.0; 4])
            }
        };
        if same {
            return;
        }
        // SAFETY: context current; `native` is current (prepare made it so) and each
        // location is its `ts_levels` or `ts_samples` (int arrays) or `ts_lod_sampler` (a
        // vec4 array) of `count` elements, the program's sampler slots.
        unsafe {
            if let Some(l) = locations.levels {
                self.gl.uniform_1_i32_slice(Some(&l), &levels[..count]);
            }
            if let Some(l) = locations.samples {
                self.gl.uniform_1_i32_slice(Some(&l), &samples[..count]);
            }
            if let Some(l) = locations.lod_sampler {
                self.gl
                    .uniform_4_f32_slice(Some(&l), lod[..count].as_flattened());
            }
        }
        self.program_cache.texture_queries.insert(
            native,
            Held {
                levels: levels[..count].to_vec(),
                samples: samples[..count].to_vec(),
                lod_sampler: lod[..count].to_vec(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fragment module querying slot 1 (binding 2), a 2D texture: `OpImageQueryLevels`
    /// (result 20) and `OpImageQueryLod` at a `vec2` (result 21).
    fn module() -> Vec<u32> {
        module_querying(q::IMAGE_QUERY_LEVELS)
    }

    /// [`module`] with `query` (levels or samples) as result 20's instruction.
    fn module_querying(query: u16) -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 30, 0];
        let mut ep = vec![4, 1];
        ep.extend(literal("main"));
        for i in [
            inst(17, &[1]),
            inst(14, &[0, 1]),
            inst(15, &ep),
            inst(op::DECORATE, &[10, DECORATION_BINDING, 2]),
            inst(op::TYPE_FLOAT, &[2, 32]),
            inst(op::TYPE_VECTOR, &[4, 2, 2]),
            inst(op::TYPE_INT, &[3, 32, 1]),
            inst(op::TYPE_IMAGE, &[5, 2, DIM_2D, 0, 0, 0, 1, 0]),
            inst(op::TYPE_SAMPLED_IMAGE, &[6, 5]),
            inst(op::TYPE_POINTER, &[7, STORAGE_UNIFORM_CONSTANT, 6]),
            inst(op::VARIABLE, &[7, 10, STORAGE_UNIFORM_CONSTANT]),
            inst(op::CONSTANT_NULL, &[4, 11]),
            inst(19, &[8]),
            inst(33, &[9, 8]),
            inst(op::FUNCTION, &[8, 1, 0, 9]),
            inst(248, &[12]),
            inst(op::LOAD, &[6, 13, 10]),
            inst(op::IMAGE, &[5, 14, 13]),
            inst(query, &[3, 20, 14]),
            inst(q::IMAGE_QUERY_LOD, &[4, 21, 13, 11]),
            inst(253, &[]),
            inst(56, &[]),
        ] {
            w.extend(i);
        }
        w
    }

    fn insts(words: &[u32]) -> Vec<Vec<u32>> {
        Module::parse(words).expect("a module").insts
    }

    #[test]
    fn queries_become_uniform_loads_and_arithmetic() {
        assert!(lower(&module(), 0).is_none(), "no sampler slots");
        let out = insts(&lower(&module(), 2).expect("lowered"));
        let ops: Vec<u16> = out.iter().map(|i| opcode(i)).collect();
        assert!(!ops.contains(&q::IMAGE_QUERY_LEVELS));
        assert!(!ops.contains(&q::IMAGE_QUERY_LOD));
        // The uniforms, named.
        for name in [LEVELS, LOD_SAMPLER] {
            let words = literal(name);
            assert!(
                out.iter()
                    .any(|i| opcode(i) == op::NAME && i[2..] == words[..]),
                "{name}"
            );
        }
        // textureQueryLevels: its result is a load of ts_levels[1].
        let load = out
            .iter()
            .find(|i| opcode(i) == op::LOAD && i[2] == 20)
            .expect("the level count's load");
        let chain = out
            .iter()
            .find(|i| opcode(i) == op::ACCESS_CHAIN && i[2] == load[3])
            .expect("its access chain");
        let one = out
            .iter()
            .find(|i| opcode(i) == op::CONSTANT && i[2] == chain[4])
            .expect("a constant index");
        assert_eq!(one[3], 1, "slot 1");
        // textureQueryLod: its result is built from derivatives and the base level's size.
        assert!(
            out.iter()
                .any(|i| opcode(i) == op::COMPOSITE_CONSTRUCT && i[1] == 4 && i[2] == 21)
        );
        assert!(ops.contains(&q::DPDX) && ops.contains(&q::DPDY));
        assert!(ops.contains(&op::IMAGE_QUERY_SIZE_LOD));
        assert!(out.iter().any(|i| opcode(i) == q::EXT_INST_IMPORT));
    }

    #[test]
    fn a_sample_count_becomes_a_load_of_its_uniform() {
        let out = insts(&lower(&module_querying(q::IMAGE_QUERY_SAMPLES), 2).expect("lowered"));
        assert!(!out.iter().any(|i| opcode(i) == q::IMAGE_QUERY_SAMPLES));
        let named = |name: &str| {
            let words = literal(name);
            out.iter()
                .find(|i| opcode(i) == op::NAME && i[2..] == words[..])
                .map(|i| i[1])
        };
        let samples = named(SAMPLES).expect("ts_samples declared");
        // Result 20 loads ts_samples[1] (slot 1).
        let load = out
            .iter()
            .find(|i| opcode(i) == op::LOAD && i[2] == 20)
            .expect("the sample count's load");
        let chain = out
            .iter()
            .find(|i| opcode(i) == op::ACCESS_CHAIN && i[2] == load[3])
            .expect("its access chain");
        assert_eq!(chain[3], samples);
        let one = out
            .iter()
            .find(|i| opcode(i) == op::CONSTANT && i[2] == chain[4])
            .expect("a constant index");
        assert_eq!(one[3], 1, "slot 1");
    }

    #[test]
    fn a_query_of_a_sampler_from_elsewhere_is_left_alone() {
        // Binding 0 is the default block, not a sampler slot.
        let mut words = module();
        let at = words
            .iter()
            .position(|&w| w == DECORATION_BINDING)
            .expect("the binding");
        words[at + 1] = 0;
        assert!(lower(&words, 2).is_none());
    }

    #[test]
    fn sampler_parameters_are_passed_as_set() {
        let mut s = SamplerState {
            mip_filter: MipFilter::Nearest,
            lod_bias: 1.5,
            min_lod: 4.0,
            max_lod: 2.0,
            ..SamplerState::default()
        };
        assert_eq!(lod_sampler(&s), [1.5, 4.0, 2.0, MIP_NEAREST]);
        s.mip_filter = MipFilter::None;
        assert_eq!(lod_sampler(&s)[3], MIP_NONE);
    }
}
