//! GL type enums of uniforms, attributes and outputs, and what each one is made of.
//!
//! The values are GL's (`GL_FLOAT_VEC4` is 0x8B52). They are spelled out here rather than
//! borrowed from the engine's constant table so the front end stays a leaf crate.

#![expect(
    missing_docs,
    reason = "the constants are GL's own names for GL's own values"
)]

pub const FLOAT: u32 = 0x1406;
pub const FLOAT_VEC2: u32 = 0x8B50;
pub const FLOAT_VEC3: u32 = 0x8B51;
pub const FLOAT_VEC4: u32 = 0x8B52;
pub const DOUBLE: u32 = 0x140A;
pub const DOUBLE_VEC2: u32 = 0x8FFC;
pub const DOUBLE_VEC3: u32 = 0x8FFD;
pub const DOUBLE_VEC4: u32 = 0x8FFE;
pub const INT: u32 = 0x1404;
pub const INT_VEC2: u32 = 0x8B53;
pub const INT_VEC3: u32 = 0x8B54;
pub const INT_VEC4: u32 = 0x8B55;
pub const UNSIGNED_INT: u32 = 0x1405;
pub const UNSIGNED_INT_VEC2: u32 = 0x8DC6;
pub const UNSIGNED_INT_VEC3: u32 = 0x8DC7;
pub const UNSIGNED_INT_VEC4: u32 = 0x8DC8;
pub const BOOL: u32 = 0x8B56;
pub const BOOL_VEC2: u32 = 0x8B57;
pub const BOOL_VEC3: u32 = 0x8B58;
pub const BOOL_VEC4: u32 = 0x8B59;
pub const FLOAT_MAT2: u32 = 0x8B5A;
pub const FLOAT_MAT3: u32 = 0x8B5B;
pub const FLOAT_MAT4: u32 = 0x8B5C;
pub const FLOAT_MAT2X3: u32 = 0x8B65;
pub const FLOAT_MAT2X4: u32 = 0x8B66;
pub const FLOAT_MAT3X2: u32 = 0x8B67;
pub const FLOAT_MAT3X4: u32 = 0x8B68;
pub const FLOAT_MAT4X2: u32 = 0x8B69;
pub const FLOAT_MAT4X3: u32 = 0x8B6A;
pub const DOUBLE_MAT2: u32 = 0x8F46;
pub const DOUBLE_MAT3: u32 = 0x8F47;
pub const DOUBLE_MAT4: u32 = 0x8F48;
pub const DOUBLE_MAT2X3: u32 = 0x8F49;
pub const DOUBLE_MAT2X4: u32 = 0x8F4A;
pub const DOUBLE_MAT3X2: u32 = 0x8F4B;
pub const DOUBLE_MAT3X4: u32 = 0x8F4C;
pub const DOUBLE_MAT4X2: u32 = 0x8F4D;
pub const DOUBLE_MAT4X3: u32 = 0x8F4E;
pub const SAMPLER_1D: u32 = 0x8B5D;
pub const SAMPLER_2D: u32 = 0x8B5E;
pub const SAMPLER_3D: u32 = 0x8B5F;
pub const SAMPLER_CUBE: u32 = 0x8B60;
pub const SAMPLER_1D_SHADOW: u32 = 0x8B61;
pub const SAMPLER_2D_SHADOW: u32 = 0x8B62;
pub const SAMPLER_2D_RECT: u32 = 0x8B63;
pub const SAMPLER_2D_RECT_SHADOW: u32 = 0x8B64;
pub const SAMPLER_1D_ARRAY: u32 = 0x8DC0;
pub const SAMPLER_2D_ARRAY: u32 = 0x8DC1;
pub const SAMPLER_BUFFER: u32 = 0x8DC2;
pub const SAMPLER_1D_ARRAY_SHADOW: u32 = 0x8DC3;
pub const SAMPLER_2D_ARRAY_SHADOW: u32 = 0x8DC4;
pub const SAMPLER_CUBE_SHADOW: u32 = 0x8DC5;
pub const INT_SAMPLER_1D: u32 = 0x8DC9;
pub const INT_SAMPLER_2D: u32 = 0x8DCA;
pub const INT_SAMPLER_3D: u32 = 0x8DCB;
pub const INT_SAMPLER_CUBE: u32 = 0x8DCC;
pub const INT_SAMPLER_2D_RECT: u32 = 0x8DCD;
pub const INT_SAMPLER_1D_ARRAY: u32 = 0x8DCE;
pub const INT_SAMPLER_2D_ARRAY: u32 = 0x8DCF;
pub const INT_SAMPLER_BUFFER: u32 = 0x8DD0;
pub const UNSIGNED_INT_SAMPLER_1D: u32 = 0x8DD1;
pub const UNSIGNED_INT_SAMPLER_2D: u32 = 0x8DD2;
pub const UNSIGNED_INT_SAMPLER_3D: u32 = 0x8DD3;
pub const UNSIGNED_INT_SAMPLER_CUBE: u32 = 0x8DD4;
pub const UNSIGNED_INT_SAMPLER_2D_RECT: u32 = 0x8DD5;
pub const UNSIGNED_INT_SAMPLER_1D_ARRAY: u32 = 0x8DD6;
pub const UNSIGNED_INT_SAMPLER_2D_ARRAY: u32 = 0x8DD7;
pub const UNSIGNED_INT_SAMPLER_BUFFER: u32 = 0x8DD8;
pub const SAMPLER_2D_MULTISAMPLE: u32 = 0x9108;
pub const INT_SAMPLER_2D_MULTISAMPLE: u32 = 0x9109;
pub const UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE: u32 = 0x910A;
pub const SAMPLER_2D_MULTISAMPLE_ARRAY: u32 = 0x910B;
pub const INT_SAMPLER_2D_MULTISAMPLE_ARRAY: u32 = 0x910C;
pub const UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY: u32 = 0x910D;
pub const SAMPLER_CUBE_MAP_ARRAY: u32 = 0x900C;
pub const SAMPLER_CUBE_MAP_ARRAY_SHADOW: u32 = 0x900D;
pub const INT_SAMPLER_CUBE_MAP_ARRAY: u32 = 0x900E;
pub const UNSIGNED_INT_SAMPLER_CUBE_MAP_ARRAY: u32 = 0x900F;
pub const IMAGE_1D: u32 = 0x904C;
pub const IMAGE_2D: u32 = 0x904D;
pub const IMAGE_3D: u32 = 0x904E;
pub const IMAGE_2D_RECT: u32 = 0x904F;
pub const IMAGE_CUBE: u32 = 0x9050;
pub const IMAGE_BUFFER: u32 = 0x9051;
pub const IMAGE_1D_ARRAY: u32 = 0x9052;
pub const IMAGE_2D_ARRAY: u32 = 0x9053;
pub const IMAGE_CUBE_MAP_ARRAY: u32 = 0x9054;
pub const IMAGE_2D_MULTISAMPLE: u32 = 0x9055;
pub const IMAGE_2D_MULTISAMPLE_ARRAY: u32 = 0x9056;
pub const INT_IMAGE_1D: u32 = 0x9057;
pub const UNSIGNED_INT_IMAGE_2D_MULTISAMPLE_ARRAY: u32 = 0x906C;

/// The scalar kind of a GL type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// 32-bit float.
    Float,
    /// 64-bit float.
    Double,
    /// 32-bit signed integer.
    Int,
    /// 32-bit unsigned integer.
    Uint,
    /// Boolean (stored as a 32-bit integer, 0 or 1).
    Bool,
    /// An opaque sampler (its value is a texture unit).
    Sampler,
    /// An opaque image (its value is an image unit).
    Image,
}

/// The shape of a GL type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeInfo {
    /// Scalar kind.
    pub base: Base,
    /// Components of a vector, or rows of a matrix (1 for scalars and samplers).
    pub rows: u8,
    /// Columns of a matrix (1 otherwise).
    pub columns: u8,
}

impl TypeInfo {
    /// Components in total (`rows * columns`).
    pub const fn components(&self) -> usize {
        self.rows as usize * self.columns as usize
    }

    /// Whether the type is a matrix.
    pub const fn is_matrix(&self) -> bool {
        self.columns > 1
    }

    /// Bytes of one scalar in a std140 block.
    pub const fn scalar_bytes(&self) -> usize {
        match self.base {
            Base::Double => 8,
            _ => 4,
        }
    }
}

const fn t(base: Base, rows: u8, columns: u8) -> Option<TypeInfo> {
    Some(TypeInfo {
        base,
        rows,
        columns,
    })
}

/// What a GL type enum is made of; `None` for values that are no GL type.
pub fn info(ty: u32) -> Option<TypeInfo> {
    use Base::*;
    match ty {
        FLOAT => t(Float, 1, 1),
        FLOAT_VEC2 => t(Float, 2, 1),
        FLOAT_VEC3 => t(Float, 3, 1),
        FLOAT_VEC4 => t(Float, 4, 1),
        DOUBLE => t(Double, 1, 1),
        DOUBLE_VEC2 => t(Double, 2, 1),
        DOUBLE_VEC3 => t(Double, 3, 1),
        DOUBLE_VEC4 => t(Double, 4, 1),
        INT => t(Int, 1, 1),
        INT_VEC2 => t(Int, 2, 1),
        INT_VEC3 => t(Int, 3, 1),
        INT_VEC4 => t(Int, 4, 1),
        UNSIGNED_INT => t(Uint, 1, 1),
        UNSIGNED_INT_VEC2 => t(Uint, 2, 1),
        UNSIGNED_INT_VEC3 => t(Uint, 3, 1),
        UNSIGNED_INT_VEC4 => t(Uint, 4, 1),
        BOOL => t(Bool, 1, 1),
        BOOL_VEC2 => t(Bool, 2, 1),
        BOOL_VEC3 => t(Bool, 3, 1),
        BOOL_VEC4 => t(Bool, 4, 1),
        FLOAT_MAT2 => t(Float, 2, 2),
        FLOAT_MAT3 => t(Float, 3, 3),
        FLOAT_MAT4 => t(Float, 4, 4),
        FLOAT_MAT2X3 => t(Float, 3, 2),
        FLOAT_MAT2X4 => t(Float, 4, 2),
        FLOAT_MAT3X2 => t(Float, 2, 3),
        FLOAT_MAT3X4 => t(Float, 4, 3),
        FLOAT_MAT4X2 => t(Float, 2, 4),
        FLOAT_MAT4X3 => t(Float, 3, 4),
        DOUBLE_MAT2 => t(Double, 2, 2),
        DOUBLE_MAT3 => t(Double, 3, 3),
        DOUBLE_MAT4 => t(Double, 4, 4),
        DOUBLE_MAT2X3 => t(Double, 3, 2),
        DOUBLE_MAT2X4 => t(Double, 4, 2),
        DOUBLE_MAT3X2 => t(Double, 2, 3),
        DOUBLE_MAT3X4 => t(Double, 4, 3),
        DOUBLE_MAT4X2 => t(Double, 2, 4),
        DOUBLE_MAT4X3 => t(Double, 3, 4),
        _ if sampler_target(ty).is_some() => t(Sampler, 1, 1),
        _ if image_target(ty).is_some() => t(Image, 1, 1),
        _ => None,
    }
}

/// The GL type enum of a scalar kind and shape (`rows` components per column, `columns`
/// columns: 1 for vectors and scalars).
pub fn from_parts(base: Base, rows: u8, columns: u8) -> Option<u32> {
    use Base::*;
    let v = |s, v2, v3, v4| match rows {
        1 => Some(s),
        2 => Some(v2),
        3 => Some(v3),
        4 => Some(v4),
        _ => None,
    };
    if columns <= 1 {
        return match base {
            Float => v(FLOAT, FLOAT_VEC2, FLOAT_VEC3, FLOAT_VEC4),
            Double => v(DOUBLE, DOUBLE_VEC2, DOUBLE_VEC3, DOUBLE_VEC4),
            Int => v(INT, INT_VEC2, INT_VEC3, INT_VEC4),
            Uint => v(
                UNSIGNED_INT,
                UNSIGNED_INT_VEC2,
                UNSIGNED_INT_VEC3,
                UNSIGNED_INT_VEC4,
            ),
            Bool => v(BOOL, BOOL_VEC2, BOOL_VEC3, BOOL_VEC4),
            Sampler | Image => None,
        };
    }
    let float = match (columns, rows) {
        (2, 2) => [FLOAT_MAT2, DOUBLE_MAT2],
        (3, 3) => [FLOAT_MAT3, DOUBLE_MAT3],
        (4, 4) => [FLOAT_MAT4, DOUBLE_MAT4],
        (2, 3) => [FLOAT_MAT2X3, DOUBLE_MAT2X3],
        (2, 4) => [FLOAT_MAT2X4, DOUBLE_MAT2X4],
        (3, 2) => [FLOAT_MAT3X2, DOUBLE_MAT3X2],
        (3, 4) => [FLOAT_MAT3X4, DOUBLE_MAT3X4],
        (4, 2) => [FLOAT_MAT4X2, DOUBLE_MAT4X2],
        (4, 3) => [FLOAT_MAT4X3, DOUBLE_MAT4X3],
        _ => return None,
    };
    match base {
        Float => Some(float[0]),
        Double => Some(float[1]),
        _ => None,
    }
}

/// What a sampler reads, as GL's texture targets name it.
#[derive(
    rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash,
)]
pub enum SamplerTarget {
    /// `TEXTURE_1D`.
    D1,
    /// `TEXTURE_2D`.
    D2,
    /// `TEXTURE_3D`.
    D3,
    /// `TEXTURE_CUBE_MAP`.
    Cube,
    /// `TEXTURE_RECTANGLE`.
    Rectangle,
    /// `TEXTURE_1D_ARRAY`.
    D1Array,
    /// `TEXTURE_2D_ARRAY`.
    D2Array,
    /// `TEXTURE_BUFFER`.
    Buffer,
    /// `TEXTURE_2D_MULTISAMPLE`.
    D2Multisample,
    /// `TEXTURE_2D_MULTISAMPLE_ARRAY`.
    D2MultisampleArray,
    /// `TEXTURE_CUBE_MAP_ARRAY` (GL 4.0).
    CubeArray,
}

/// The texture target a sampler type reads (shadow and integer samplers read the same
/// targets as their float counterparts); `None` if `ty` is no sampler GL 3.3 has.
pub fn sampler_target(ty: u32) -> Option<SamplerTarget> {
    use SamplerTarget::*;
    Some(match ty {
        SAMPLER_1D | SAMPLER_1D_SHADOW | INT_SAMPLER_1D | UNSIGNED_INT_SAMPLER_1D => D1,
        SAMPLER_2D | SAMPLER_2D_SHADOW | INT_SAMPLER_2D | UNSIGNED_INT_SAMPLER_2D => D2,
        SAMPLER_3D | INT_SAMPLER_3D | UNSIGNED_INT_SAMPLER_3D => D3,
        SAMPLER_CUBE | SAMPLER_CUBE_SHADOW | INT_SAMPLER_CUBE | UNSIGNED_INT_SAMPLER_CUBE => Cube,
        SAMPLER_2D_RECT
        | SAMPLER_2D_RECT_SHADOW
        | INT_SAMPLER_2D_RECT
        | UNSIGNED_INT_SAMPLER_2D_RECT => Rectangle,
        SAMPLER_1D_ARRAY
        | SAMPLER_1D_ARRAY_SHADOW
        | INT_SAMPLER_1D_ARRAY
        | UNSIGNED_INT_SAMPLER_1D_ARRAY => D1Array,
        SAMPLER_2D_ARRAY
        | SAMPLER_2D_ARRAY_SHADOW
        | INT_SAMPLER_2D_ARRAY
        | UNSIGNED_INT_SAMPLER_2D_ARRAY => D2Array,
        SAMPLER_BUFFER | INT_SAMPLER_BUFFER | UNSIGNED_INT_SAMPLER_BUFFER => Buffer,
        SAMPLER_2D_MULTISAMPLE
        | INT_SAMPLER_2D_MULTISAMPLE
        | UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE => D2Multisample,
        SAMPLER_2D_MULTISAMPLE_ARRAY
        | INT_SAMPLER_2D_MULTISAMPLE_ARRAY
        | UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY => D2MultisampleArray,
        SAMPLER_CUBE_MAP_ARRAY
        | SAMPLER_CUBE_MAP_ARRAY_SHADOW
        | INT_SAMPLER_CUBE_MAP_ARRAY
        | UNSIGNED_INT_SAMPLER_CUBE_MAP_ARRAY => CubeArray,
        _ => return None,
    })
}

/// The texture target an image type (`GL_ARB_shader_image_load_store`) reads and writes;
/// `None` if `ty` is no image type. GL numbers the 11 float image types, then the 11 signed
/// and the 11 unsigned integer ones, each run in the same target order.
pub fn image_target(ty: u32) -> Option<SamplerTarget> {
    use SamplerTarget::*;
    if !(IMAGE_1D..=UNSIGNED_INT_IMAGE_2D_MULTISAMPLE_ARRAY).contains(&ty) {
        return None;
    }
    Some(match (ty - IMAGE_1D) % 11 {
        0 => D1,
        1 => D2,
        2 => D3,
        3 => Rectangle,
        4 => Cube,
        5 => Buffer,
        6 => D1Array,
        7 => D2Array,
        8 => CubeArray,
        9 => D2Multisample,
        _ => D2MultisampleArray,
    })
}

/// Vertex attribute locations a value of `ty` takes: one per column of a matrix, a
/// `dvec3` or `dvec4` column too (GL 4.1: such a vertex input is one location, which counts
/// twice only against `GL_MAX_VERTEX_ATTRIBS`).
pub fn attribute_slots(ty: u32) -> u32 {
    info(ty).map_or(1, |i| u32::from(i.columns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_and_info_agree() {
        for ty in [
            FLOAT,
            FLOAT_VEC3,
            INT_VEC2,
            UNSIGNED_INT_VEC4,
            BOOL_VEC3,
            FLOAT_MAT2,
            FLOAT_MAT2X3,
            FLOAT_MAT4X3,
            DOUBLE_MAT3X4,
        ] {
            let i = info(ty).expect("a GL type");
            assert_eq!(from_parts(i.base, i.rows, i.columns), Some(ty), "{ty:#x}");
        }
        assert_eq!(info(SAMPLER_2D_SHADOW).map(|i| i.base), Some(Base::Sampler));
        assert_eq!(
            sampler_target(INT_SAMPLER_2D_ARRAY),
            Some(SamplerTarget::D2Array)
        );
        assert_eq!(attribute_slots(FLOAT_MAT3), 3);
        assert_eq!(image_target(0x9069), Some(SamplerTarget::D2Array));
        assert_eq!(image_target(INT_IMAGE_1D + 2), Some(SamplerTarget::D3));
        assert_eq!(info(IMAGE_2D).map(|i| i.base), Some(Base::Image));
        assert_eq!(info(0x1234), None);
    }
}
