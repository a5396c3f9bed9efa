//! Program binaries (GL 4.1's `ARB_get_program_binary`): `glGetProgramBinary`,
//! `glProgramBinary`, `glProgramParameteri` and their queries.
//!
//! A binary is Tessera's own format, [`FORMAT`]: the link result of the shader front end
//! (`tessera_shader::Program`: every stage's SPIR-V with Tessera's interface numbering, and
//! the reflection the engine keeps — uniforms, blocks, attributes, outputs, locations,
//! bindings, transform feedback), archived with rkyv, behind a header that names what made
//! it. Loading one installs that link result exactly as `glLinkProgram` installs a fresh
//! one (`apply_link`), so a loaded program has the same locations, uniform values (the
//! defaults: a load resets them) and draws as one linked from source, and its
//! `CreateProgram` is the same record. As in Mesa, the blocks' binding points are the ones
//! they had when the binary was saved.
//!
//! The header, little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0..4 | the magic `TSPB` |
//! | 4..8 | [`FORMAT_VERSION`] |
//! | 8..16 | 64-bit FNV-1a of every byte after these 16 |
//! | 16..24 | the wire's `FINGERPRINT` (the record schema the program's `CreateProgram` has) |
//! | 24..32 | the shader front end's `FRONT_END_FINGERPRINT` (its version, glslang's, its types) |
//! | then | three strings, each a `u16` length and UTF-8: the engine's crate version, the backend (`gles`, `vulkan`) and its device in the driver's words |
//! | then | a `u32` length and the archived program |
//!
//! A binary is only loaded by the same Tessera build on the same backend and device: the
//! link's limits come from the backend's caps, and a driver that differs may refuse what
//! another took. Anything else — another build, another backend or device, bytes that are
//! truncated or corrupted, an archive that does not validate or whose indices do not hold
//! together — fails the load as GL says: `LINK_STATUS` becomes `FALSE`, the info log says
//! why, and no GL error is raised (the application then links from source).

use bevy_ecs::component::Component;
use rkyv::rancor;
use tessera_components::gl::*;
use tessera_components::object::Program;

use crate::context::{Context, GlResult};
use crate::share::Shared;
use crate::transform_feedback::RequestedVaryings;

/// Tessera's program binary format, the one value of `PROGRAM_BINARY_FORMATS`: the ASCII
/// bytes `TESS` read as a big-endian number. It lies outside every range the GL registry
/// has assigned, so it names no other format.
pub const FORMAT: GLenum = 0x5445_5353;

/// The layout of the header and payload; bumped when either changes.
pub const FORMAT_VERSION: u32 = 1;

/// The first bytes of every Tessera program binary.
const MAGIC: &[u8; 4] = b"TSPB";

/// Bytes before the checksummed part (magic, version, checksum).
const FIXED: usize = 16;

/// The link result of a program's last successful link or load, kept for
/// `glGetProgramBinary` (the reflection in `Program::linked_state` is the engine's form of
/// the same link, and the SPIR-V went to the backend).
#[derive(Component)]
pub(crate) struct LinkResult(pub(crate) Box<tessera_shader::Program>);

/// `PROGRAM_BINARY_RETRIEVABLE_HINT`: the value `glProgramParameteri` set, which takes
/// effect at the next successful link or load.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RetrievableHint {
    /// The value set.
    pub pending: bool,
    /// The value `glGetProgramiv` reports.
    pub current: bool,
}

/// What made a binary, besides the build: the backend and its device (`Caps`).
struct Origin<'a> {
    backend: &'a str,
    device: &'a str,
}

impl<'a> Origin<'a> {
    fn of(sh: &'a Shared) -> Self {
        Origin {
            backend: &sh.caps.backend,
            device: &sh.caps.device,
        }
    }
}

/// The binary of a link result.
fn encode(program: &tessera_shader::Program, origin: &Origin<'_>) -> Vec<u8> {
    let payload = rkyv::to_bytes::<rancor::Error>(program)
        .expect("archiving a program into memory cannot fail");
    let mut out = Vec::with_capacity(payload.len() + 128);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&tessera_wire::FINGERPRINT.to_le_bytes());
    out.extend_from_slice(&tessera_shader::FRONT_END_FINGERPRINT.to_le_bytes());
    for s in [env!("CARGO_PKG_VERSION"), origin.backend, origin.device] {
        let s = &s.as_bytes()[..s.len().min(u16::MAX as usize)];
        out.extend_from_slice(&(s.len() as u16).to_le_bytes());
        out.extend_from_slice(s);
    }
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload);
    let sum = tessera_shader::fnv1a(0xcbf2_9ce4_8422_2325, &out[FIXED..]);
    out[8..16].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Reads the header and payload in order, each read failing with the log's words.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err("error: the program binary is truncated\n".into());
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().unwrap_or_default(),
        ))
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }

    fn string(&mut self) -> Result<&'a str, String> {
        let n = self.u16()? as usize;
        std::str::from_utf8(self.take(n)?)
            .map_err(|_| "error: the program binary's header is corrupt\n".to_string())
    }
}

/// The link result in a binary, or the info log of a failed load.
fn decode(bytes: &[u8], origin: &Origin<'_>) -> Result<tessera_shader::Program, String> {
    let mut r = Reader { bytes, at: 0 };
    if bytes.len() < MAGIC.len() || r.take(MAGIC.len())? != MAGIC {
        return Err("error: not a Tessera program binary\n".into());
    }
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(format!(
            "error: the program binary has format version {version}, this build reads \
             version {FORMAT_VERSION}\n"
        ));
    }
    let sum = r.u64()?;
    let actual = tessera_shader::fnv1a(0xcbf2_9ce4_8422_2325, &bytes[FIXED..]);
    if sum != actual {
        return Err(format!(
            "error: the program binary is corrupt or truncated (checksum {actual:#018x}, \
             expected {sum:#018x})\n"
        ));
    }
    let wire = r.u64()?;
    let front_end = r.u64()?;
    let build = r.string()?;
    let (backend, device) = (r.string()?, r.string()?);
    if wire != tessera_wire::FINGERPRINT
        || front_end != tessera_shader::FRONT_END_FINGERPRINT
        || build != env!("CARGO_PKG_VERSION")
    {
        return Err(format!(
            "error: the program binary was made by another Tessera build ({build}, wire \
             {wire:#018x}, shader front end {front_end:#018x}; this is {}, wire {:#018x}, \
             shader front end {:#018x})\n",
            env!("CARGO_PKG_VERSION"),
            tessera_wire::FINGERPRINT,
            tessera_shader::FRONT_END_FINGERPRINT,
        ));
    }
    if backend != origin.backend || device != origin.device {
        return Err(format!(
            "error: the program binary was made for the {backend} backend on {device}; this \
             context is the {} backend on {}\n",
            origin.backend, origin.device
        ));
    }
    let n = r.u32()? as usize;
    let payload = r.take(n)?;
    if r.at != bytes.len() {
        return Err("error: the program binary has bytes past its end\n".into());
    }
    // rkyv reads from aligned memory; the application's bytes may lie anywhere.
    let mut aligned = rkyv::util::AlignedVec::<16>::with_capacity(payload.len());
    aligned.extend_from_slice(payload);
    let program = rkyv::from_bytes::<tessera_shader::Program, rancor::Error>(&aligned)
        .map_err(|e| format!("error: the program binary's program is malformed: {e}\n"))?;
    check(&program)
        .map_err(|what| format!("error: the program binary's program is malformed: {what}\n"))?;
    Ok(program)
}

/// Checks that the indices of a decoded link result hold together, so nothing the engine
/// does with it later reads past a list: what the archive's validation cannot know.
fn check(p: &tessera_shader::Program) -> Result<(), &'static str> {
    let fits = |i: i32, n: usize| i == -1 || usize::try_from(i).is_ok_and(|i| i < n);
    if p.default_block.len() != p.default_block_size as usize {
        return Err("the default block's size");
    }
    if p.depth_range_offset
        .is_some_and(|o| o as usize + 12 > p.default_block.len())
    {
        return Err("gl_DepthRange's offset");
    }
    if p.num_samples_offset
        .is_some_and(|o| o as usize + 4 > p.default_block.len())
    {
        return Err("gl_NumSamples's offset");
    }
    for u in &p.uniforms {
        if !fits(u.block, p.blocks.len()) || !fits(u.sampler_slot, p.samplers.len()) {
            return Err("a uniform's block or sampler");
        }
    }
    for &(u, element) in &p.locations {
        if u == u32::MAX {
            // A location no uniform takes (explicit locations leave gaps).
            continue;
        }
        let Some(u) = p.uniforms.get(u as usize) else {
            return Err("a uniform location");
        };
        if element as i64 >= i64::from(u.size.max(1)) {
            return Err("a uniform location's element");
        }
    }
    let uniforms = p.uniforms.len();
    if p.blocks
        .iter()
        .any(|b| b.uniforms.iter().any(|&u| u as usize >= uniforms))
    {
        return Err("a uniform block's uniforms");
    }
    let variables = p.buffer_variables.len();
    if p.storage_blocks
        .iter()
        .any(|b| b.variables.iter().any(|&v| v as usize >= variables))
        || p.buffer_variables
            .iter()
            .any(|v| v.block as usize >= p.storage_blocks.len())
    {
        return Err("a storage block's variables");
    }
    let spirv = |w: &Vec<u32>| w.len() >= 5 && w[0] == 0x0723_0203;
    if p.stages.is_empty() || !p.stages.iter().all(|(_, w)| spirv(w)) {
        return Err("a stage's SPIR-V");
    }
    Ok(())
}

impl Context {
    /// `glGetProgramBinary`: `INVALID_VALUE` for a negative `buf_size`, then the program's
    /// name errors (nothing written), then `INVALID_OPERATION` if its last link failed or if
    /// `buf_size` is less than `PROGRAM_BINARY_LENGTH` (`length` is then 0 and nothing else
    /// is written), in Mesa's order.
    pub fn get_program_binary(
        &mut self,
        program: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        binary_format: Option<&mut GLenum>,
        binary: &mut [u8],
    ) {
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        let bytes = match self.program_binary_bytes(program) {
            Ok(bytes) => bytes,
            Err(err) => return self.error(err),
        };
        let fits = bytes
            .as_ref()
            .filter(|b| b.len() <= buf_size as usize && b.len() <= binary.len());
        let Some(bytes) = fits else {
            if let Some(l) = length {
                *l = 0;
            }
            return self.error(INVALID_OPERATION);
        };
        binary[..bytes.len()].copy_from_slice(bytes);
        if let Some(f) = binary_format {
            *f = FORMAT;
        }
        if let Some(l) = length {
            *l = bytes.len() as GLsizei;
        }
    }

    /// The binary of a program, `None` if its last link failed; `Err` is a name error.
    fn program_binary_bytes(&mut self, program: GLuint) -> GlResult<Option<Vec<u8>>> {
        let sh = self.group.lock();
        let e = Self::program_entity(&sh, program)?;
        Ok(Self::binary_of(&sh, e))
    }

    /// The binary of a linked program: its link result with the binding points its blocks
    /// have now (`glUniformBlockBinding`, `glShaderStorageBlockBinding`), which a binary
    /// keeps, as Mesa's do; uniform values are not kept (a load resets them).
    fn binary_of(sh: &Shared, e: bevy_ecs::entity::Entity) -> Option<Vec<u8>> {
        let p = sh.world.get::<Program>(e).filter(|p| p.linked)?;
        let l = p.linked_state.as_ref()?;
        let mut program = sh.world.get::<LinkResult>(e)?.0.as_ref().clone();
        for (b, now) in program.blocks.iter_mut().zip(&l.blocks) {
            b.binding = now.binding;
        }
        for (b, now) in program.storage_blocks.iter_mut().zip(&l.storage_blocks) {
            b.binding = now.binding;
        }
        Some(encode(&program, &Origin::of(sh)))
    }

    /// `glGetProgramiv(PROGRAM_BINARY_LENGTH)`: the bytes `glGetProgramBinary` writes, 0
    /// while the last link failed.
    pub(crate) fn program_binary_length(sh: &Shared, e: bevy_ecs::entity::Entity) -> GLint {
        Self::binary_of(sh, e).map_or(0, |b| b.len().min(GLint::MAX as usize) as GLint)
    }

    /// `glProgramBinary`: the name errors; then, as in Mesa, the program's last link is
    /// forgotten whatever follows, a negative `length` is `INVALID_VALUE` and a format
    /// other than [`FORMAT`] `INVALID_ENUM`. A binary that does not load (see the module
    /// docs) leaves `LINK_STATUS` `FALSE` with the reason in the info log and raises no
    /// error; one that loads is installed as a successful link. `length` is GL's: the
    /// bytes read are the first `length` of `binary`. As `glLinkProgram`, it is
    /// `INVALID_OPERATION` on the program transform feedback is capturing with.
    pub fn program_binary(
        &mut self,
        program: GLuint,
        binary_format: GLenum,
        binary: &[u8],
        length: GLsizei,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match Self::program_entity(&sh, program) {
            Ok(e) => e,
            Err(err) => {
                drop(sh);
                return self.error(err);
            }
        };
        if self.local.st.transform_feedback_mode.is_some() && self.local.st.program == Some(e) {
            drop(sh);
            return self.error(INVALID_OPERATION);
        }
        let refused = if length < 0 {
            Some((
                INVALID_VALUE,
                format!("error: glProgramBinary with a negative length ({length})\n"),
            ))
        } else if binary_format != FORMAT {
            Some((
                INVALID_ENUM,
                format!(
                    "error: unknown program binary format {binary_format:#x} (Tessera's is \
                     {FORMAT:#x})\n"
                ),
            ))
        } else {
            None
        };
        if let Some((err, log)) = refused {
            Self::fail_link(&mut sh, e, log);
            drop(sh);
            return self.error(err);
        }
        let bytes = &binary[..binary.len().min(length as usize)];
        match decode(bytes, &Origin::of(&sh)) {
            Ok(linked) => {
                // The request that made the link comes back with it, as Mesa restores
                // glTransformFeedbackVaryings' state with a binary.
                let requested = RequestedVaryings {
                    names: linked.xfb.varyings.iter().map(|v| v.name.clone()).collect(),
                    mode: if linked.xfb.separate {
                        SEPARATE_ATTRIBS
                    } else {
                        INTERLEAVED_ATTRIBS
                    },
                };
                sh.world.entity_mut(e).insert(requested);
                self.apply_link(&mut sh, e, linked);
                if self.local.st.program == Some(e) {
                    self.touch_program();
                }
            }
            Err(log) => Self::fail_link(&mut sh, e, log),
        }
        sh.flush_if_full();
    }

    /// `glProgramParameteri`: `PROGRAM_BINARY_RETRIEVABLE_HINT` and `PROGRAM_SEPARABLE`
    /// take `TRUE` or `FALSE` (else `INVALID_VALUE`) and are in effect from the next
    /// successful link or load; any other `pname` is `INVALID_ENUM`.
    pub fn program_parameteri(&mut self, program: GLuint, pname: GLenum, value: GLint) {
        let mut sh = self.group.lock();
        let result = Self::program_entity(&sh, program).and_then(|e| match pname {
            PROGRAM_BINARY_RETRIEVABLE_HINT => {
                if !matches!(value, 0 | 1) {
                    return Err(INVALID_VALUE);
                }
                let current = sh
                    .world
                    .get::<RetrievableHint>(e)
                    .copied()
                    .unwrap_or_default()
                    .current;
                sh.world.entity_mut(e).insert(RetrievableHint {
                    pending: value != 0,
                    current,
                });
                Ok(())
            }
            PROGRAM_SEPARABLE => {
                if !matches!(value, 0 | 1) {
                    return Err(INVALID_VALUE);
                }
                Self::set_separable(&mut sh, e, value != 0);
                Ok(())
            }
            _ => Err(INVALID_ENUM),
        });
        drop(sh);
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// `glGetProgramiv(PROGRAM_BINARY_RETRIEVABLE_HINT)`.
    pub(crate) fn retrievable_hint(sh: &Shared, e: bevy_ecs::entity::Entity) -> GLint {
        GLint::from(
            sh.world
                .get::<RetrievableHint>(e)
                .is_some_and(|h| h.current),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VS: &str = "#version 330\nin vec4 p; uniform vec4 k = vec4(1.0);\n\
                      void main() { gl_Position = p * k; }\n";
    const FS: &str = "#version 330\nout vec4 c; uniform B { vec4 x; } b;\n\
                      void main() { c = b.x; }\n";

    fn linked() -> tessera_shader::Program {
        tessera_shader::link(&tessera_shader::LinkRequest {
            shaders: &[
                (tessera_shader::Stage::Vertex, VS),
                (tessera_shader::Stage::Fragment, FS),
            ],
            attrib_bindings: &[],
            frag_data_bindings: &[],
            limits: tessera_shader::Limits::default(),
            xfb_varyings: &[],
            xfb_separate: false,
            separable: false,
        })
        .expect("links")
    }

    const HERE: Origin<'static> = Origin {
        backend: "vulkan",
        device: "llvmpipe",
    };

    #[test]
    fn a_binary_loads_back_into_the_same_link_result() {
        let p = linked();
        let bytes = encode(&p, &HERE);
        assert_eq!(&bytes[..4], MAGIC);
        assert_eq!(decode(&bytes, &HERE), Ok(p));
    }

    #[test]
    fn every_truncation_and_every_flipped_byte_fails_with_a_log() {
        let bytes = encode(&linked(), &HERE);
        for n in 0..bytes.len() {
            let log = decode(&bytes[..n], &HERE).expect_err("truncated");
            assert!(log.starts_with("error: "), "{n}: {log}");
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x40;
            let log = decode(&b, &HERE).expect_err("corrupted");
            assert!(log.starts_with("error: "), "{i}: {log}");
        }
    }

    #[test]
    fn another_backend_or_device_is_refused() {
        let bytes = encode(&linked(), &HERE);
        for other in [
            Origin {
                backend: "gles",
                device: "llvmpipe",
            },
            Origin {
                backend: "vulkan",
                device: "another GPU",
            },
        ] {
            let log = decode(&bytes, &other).expect_err("another origin");
            assert!(
                log.contains("made for the vulkan backend on llvmpipe"),
                "{log}"
            );
        }
    }

    #[test]
    fn a_checksummed_binary_with_broken_indices_is_refused() {
        let mut p = linked();
        p.locations.push((99, 0));
        let log = decode(&encode(&p, &HERE), &HERE).expect_err("bad index");
        assert!(log.contains("a uniform location"), "{log}");
    }
}
