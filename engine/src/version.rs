//! The OpenGL version a context reports (`GL_VERSION`, `GL_MAJOR_VERSION`,
//! `GL_MINOR_VERSION`, `GL_SHADING_LANGUAGE_VERSION`) and grants to EGL and GLX requests.
//!
//! A version is reported only when the context carries out every feature that version
//! made core, and a feature counts once its extension string is advertised — which the
//! engine does only where the backend carries the feature out (`Context::extension_names`).
//! So the version follows the backend: the highest of [`VERSIONS`] whose extensions are all
//! advertised, from 3.3 up. Nothing else decides it, so a backend that gains a feature
//! raises its version with no change here.
//!
//! For testing (running conformance suites' GL 4.x tests before everything of 4.x is
//! there, as Mesa's `MESA_GL_VERSION_OVERRIDE` is used), [`Config::gl_version`]
//! (`TESSERA_GL_VERSION=4.3`) claims a version outright: the context reports it and EGL and
//! GLX grant requests up to it, while the extension list stays what the backend carries out.
//!
//! [`Config::gl_version`]: crate::config::Config::gl_version

use crate::context::Context;

/// An OpenGL version.
/// What `GL_VERSION` adds when doubles are computed as floats ([`GlVersion::string_narrowed`]).
pub const NARROWED: &str = "doubles narrowed to 32 bits";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GlVersion {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
}

impl GlVersion {
    /// OpenGL 3.3, the version every Tessera context carries out.
    pub const GL33: Self = Self::new(3, 3);

    /// `major.minor`.
    pub const fn new(major: u8, minor: u8) -> Self {
        Self { major, minor }
    }

    /// Parses `"4.3"`; `None` unless it names one of 3.3 and [`VERSIONS`].
    pub fn parse(s: &str) -> Option<Self> {
        let (major, minor) = s.trim().split_once('.')?;
        let v = Self::new(major.parse().ok()?, minor.parse().ok()?);
        (v == Self::GL33 || VERSIONS.iter().any(|(known, _)| *known == v)).then_some(v)
    }

    /// `GL_SHADING_LANGUAGE_VERSION` of a context of this version: `"4.30"` for 4.3 (GLSL
    /// numbers its versions after GL's from 3.3 on).
    pub fn glsl(self) -> String {
        format!("{}.{}0", self.major, self.minor)
    }

    /// GL 4.3's list of the GLSL versions a context of this version compiles, newest first,
    /// as `glGetStringi(GL_SHADING_LANGUAGE_VERSION, i)` spells them: `"430"` .. `"120"`, then
    /// `""` for GLSL 1.10 (GL 4.3 §22.2 names 1.10 by the empty string). The front end
    /// compiles these ([`tessera_shader::version::SUPPORTED`]); it takes the newer ones too,
    /// but a context lists only up to its own version, as `GL_SHADING_LANGUAGE_VERSION` says.
    /// The ES versions it compiles follow, as Mesa lists them: `"310 es"` where `es31`
    /// (`GL_ARB_ES3_1_compatibility` advertised), `"300 es"` (`GL_ARB_ES3_compatibility`),
    /// then `"100"` (`GL_ARB_ES2_compatibility`).
    pub fn glsl_versions(self, es31: bool) -> impl Iterator<Item = String> {
        let newest = u32::from(self.major) * 100 + u32::from(self.minor) * 10;
        tessera_shader::version::SUPPORTED
            .iter()
            .rev()
            .filter(move |&&v| v <= newest)
            .map(|&v| {
                if v == 110 {
                    String::new()
                } else {
                    v.to_string()
                }
            })
            .chain(es31.then(|| "310 es".to_owned()))
            .chain(["300 es".to_owned(), "100".to_owned()])
    }

    /// `GL_VERSION`: `"4.3 (Core Profile) Tessera x.y.z"`.
    pub fn string(self) -> String {
        format!(
            "{}.{} (Core Profile) Tessera {}",
            self.major,
            self.minor,
            env!("CARGO_PKG_VERSION")
        )
    }

    /// `GL_VERSION` of a context whose doubles are computed as floats (a GLES backend that
    /// narrows them, `TESSERA_GLES_FP64=narrow`): the version says so after Tessera's own,
    /// where GL puts vendor-specific information.
    pub fn string_narrowed(self) -> String {
        format!("{}, {NARROWED}", self.string())
    }
}

/// The versions after 3.3, each with the extensions naming the features it made core (the
/// GL 4.0–4.3 specifications' lists of what each version added: an implementation that
/// advertises all of them carries out the version's features). Left out is the one that
/// names no feature of its own: `GL_ARB_shader_precision` (4.1: the precision of shader
/// arithmetic, which the backend's own shaders have).
pub const VERSIONS: &[(GlVersion, &[&str])] = &[
    (
        GlVersion::new(4, 0),
        &[
            "GL_ARB_draw_buffers_blend",
            "GL_ARB_draw_indirect",
            "GL_ARB_gpu_shader5",
            "GL_ARB_gpu_shader_fp64",
            "GL_ARB_sample_shading",
            "GL_ARB_shader_subroutine",
            "GL_ARB_tessellation_shader",
            "GL_ARB_texture_buffer_object_rgb32",
            "GL_ARB_texture_cube_map_array",
            "GL_ARB_texture_gather",
            "GL_ARB_texture_query_lod",
            "GL_ARB_transform_feedback2",
            "GL_ARB_transform_feedback3",
        ],
    ),
    (
        GlVersion::new(4, 1),
        &[
            "GL_ARB_ES2_compatibility",
            "GL_ARB_get_program_binary",
            "GL_ARB_separate_shader_objects",
            "GL_ARB_vertex_attrib_64bit",
            "GL_ARB_viewport_array",
        ],
    ),
    (
        GlVersion::new(4, 2),
        &[
            "GL_ARB_base_instance",
            "GL_ARB_compressed_texture_pixel_storage",
            "GL_ARB_conservative_depth",
            "GL_ARB_internalformat_query",
            "GL_ARB_map_buffer_alignment",
            "GL_ARB_shader_atomic_counters",
            "GL_ARB_shader_image_load_store",
            "GL_ARB_shading_language_420pack",
            "GL_ARB_shading_language_packing",
            "GL_ARB_texture_compression_bptc",
            "GL_ARB_texture_storage",
            "GL_ARB_transform_feedback_instanced",
        ],
    ),
    (
        GlVersion::new(4, 3),
        &[
            "GL_ARB_ES3_compatibility",
            "GL_ARB_arrays_of_arrays",
            "GL_ARB_clear_buffer_object",
            "GL_ARB_compute_shader",
            "GL_ARB_copy_image",
            "GL_ARB_explicit_uniform_location",
            "GL_ARB_fragment_layer_viewport",
            "GL_ARB_framebuffer_no_attachments",
            "GL_ARB_internalformat_query2",
            "GL_ARB_invalidate_subdata",
            "GL_ARB_multi_draw_indirect",
            "GL_ARB_program_interface_query",
            "GL_ARB_robust_buffer_access_behavior",
            "GL_ARB_shader_image_size",
            "GL_ARB_shader_storage_buffer_object",
            "GL_ARB_stencil_texturing",
            "GL_ARB_texture_buffer_range",
            "GL_ARB_texture_query_levels",
            "GL_ARB_texture_storage_multisample",
            "GL_ARB_texture_view",
            "GL_ARB_vertex_attrib_binding",
            "GL_KHR_debug",
        ],
    ),
    (
        GlVersion::new(4, 4),
        &[
            "GL_ARB_buffer_storage",
            "GL_ARB_clear_texture",
            "GL_ARB_enhanced_layouts",
            "GL_ARB_multi_bind",
            "GL_ARB_query_buffer_object",
            "GL_ARB_texture_mirror_clamp_to_edge",
            "GL_ARB_texture_stencil8",
            "GL_ARB_vertex_type_10f_11f_11f_rev",
        ],
    ),
    (
        GlVersion::new(4, 5),
        &[
            "GL_ARB_ES3_1_compatibility",
            "GL_ARB_clip_control",
            "GL_ARB_conditional_render_inverted",
            "GL_ARB_cull_distance",
            "GL_ARB_derivative_control",
            "GL_ARB_direct_state_access",
            "GL_ARB_get_texture_sub_image",
            "GL_ARB_shader_texture_image_samples",
            "GL_ARB_texture_barrier",
            "GL_KHR_robustness",
        ],
    ),
    (
        GlVersion::new(4, 6),
        &[
            "GL_ARB_gl_spirv",
            "GL_ARB_indirect_parameters",
            "GL_ARB_pipeline_statistics_query",
            "GL_ARB_polygon_offset_clamp",
            "GL_ARB_shader_atomic_counter_ops",
            "GL_ARB_shader_draw_parameters",
            "GL_ARB_shader_group_vote",
            "GL_ARB_spirv_extensions",
            "GL_ARB_texture_filter_anisotropic",
            "GL_ARB_transform_feedback_overflow_query",
            "GL_KHR_no_error",
        ],
    ),
];

/// The highest version whose features `advertises` all of, from 3.3 up (each version
/// needs the ones before it).
pub fn carried_out(advertises: impl Fn(&str) -> bool) -> GlVersion {
    let mut version = GlVersion::GL33;
    for (v, extensions) in VERSIONS {
        if !extensions.iter().all(|e| advertises(e)) {
            break;
        }
        version = *v;
    }
    version
}

/// The extensions a version still lacks on a context: what keeps it from reporting
/// `version` (empty once it does).
pub fn missing(advertises: impl Fn(&str) -> bool, version: GlVersion) -> Vec<&'static str> {
    VERSIONS
        .iter()
        .filter(|(v, _)| *v <= version)
        .flat_map(|(_, extensions)| extensions.iter().copied())
        .filter(|e| !advertises(e))
        .collect()
}

impl Context {
    /// The version this context reports and grants: the configured one
    /// ([`crate::config::Config::gl_version`]), else the highest whose features the backend
    /// carries out.
    pub fn gl_version(&self) -> GlVersion {
        self.local
            .version_override
            .unwrap_or_else(|| carried_out(|e| self.advertises(e)))
    }

    /// `GL_SHADING_LANGUAGE_VERSION`'s list ([`GlVersion::glsl_versions`]) of this context.
    pub(crate) fn glsl_versions(&self) -> impl Iterator<Item = String> {
        let es31 = self.advertises("GL_ARB_ES3_1_compatibility");
        self.gl_version().glsl_versions(es31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_follow_their_features() {
        assert_eq!(carried_out(|_| false), GlVersion::GL33);
        assert_eq!(carried_out(|_| true), GlVersion::new(4, 6));
        // 4.1's features without all of 4.0's are still 3.3.
        let no_fp64 = |e: &str| e != "GL_ARB_gpu_shader_fp64";
        assert_eq!(carried_out(no_fp64), GlVersion::GL33);
        assert_eq!(
            missing(no_fp64, GlVersion::new(4, 3)),
            ["GL_ARB_gpu_shader_fp64"]
        );
        let upto_41 = |e: &str| VERSIONS[..2].iter().any(|(_, list)| list.contains(&e));
        assert_eq!(carried_out(upto_41), GlVersion::new(4, 1));
    }

    #[test]
    fn glsl_version_list() {
        let list: Vec<String> = GlVersion::new(4, 3).glsl_versions(false).collect();
        let expected = [
            "430", "420", "410", "400", "330", "150", "140", "130", "120", "", "300 es", "100",
        ];
        assert_eq!(list, expected);
        assert_eq!(
            GlVersion::GL33.glsl_versions(false).next().as_deref(),
            Some("330")
        );
        assert_eq!(GlVersion::GL33.glsl_versions(false).count(), 8);
        let list: Vec<String> = GlVersion::new(4, 5).glsl_versions(true).collect();
        assert_eq!(list[..2], ["450", "440"]);
        assert_eq!(list[list.len() - 3..], ["310 es", "300 es", "100"]);
    }

    #[test]
    fn strings() {
        let v = GlVersion::parse("4.3").unwrap();
        assert_eq!(v, GlVersion::new(4, 3));
        assert_eq!(v.glsl(), "4.30");
        assert!(v.string().starts_with("4.3 (Core Profile) Tessera "));
        assert!(
            v.string_narrowed()
                .starts_with("4.3 (Core Profile) Tessera ")
        );
        assert!(
            v.string_narrowed()
                .ends_with(", doubles narrowed to 32 bits")
        );
        assert_eq!(GlVersion::parse("3.3"), Some(GlVersion::GL33));
        assert_eq!(GlVersion::parse("4.6"), Some(GlVersion::new(4, 6)));
        assert_eq!(GlVersion::parse("4.7"), None);
        assert_eq!(GlVersion::parse("3.2"), None);
        assert_eq!(GlVersion::parse("four"), None);
    }
}
