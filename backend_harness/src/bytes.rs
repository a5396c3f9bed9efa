//! Little-endian bytes of the values scenes upload and expect back.

/// `f32`s as little-endian bytes.
pub fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// `u16`s as little-endian bytes.
pub fn u16s(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `u32`s as little-endian bytes.
pub fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `f32`s as little-endian IEEE halves, for values a half holds exactly (0.5, -2, 1024, 0.25
/// and their friends): the exponent is rebased and the mantissa truncated, nothing rounds.
pub fn halves(v: &[f32]) -> Vec<u8> {
    v.iter()
        .flat_map(|f| {
            let bits = f.to_bits();
            let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
            let h = ((bits >> 16) & 0x8000) as u16
                | ((exp as u16) << 10)
                | ((bits >> 13) & 0x3ff) as u16;
            (if *f == 0.0 { 0u16 } else { h }).to_le_bytes()
        })
        .collect()
}
