//! EGL frame buffer configurations: the fixed table every display offers, attribute queries
//! (`eglGetConfigAttrib`) and selection (`eglChooseConfig`, EGL 1.5 §3.4.1).
//!
//! Every config is RGBA8, with and without a packed 24-bit depth / 8-bit stencil buffer, single-sampled and 4x
//! multisampled. Four samples is the one multisample count every backend has: Vulkan
//! requires `VK_SAMPLE_COUNT_4_BIT` in `framebufferColorSampleCounts` and
//! `framebufferDepthSampleCounts`, and OpenGL ES 3.0 requires `MAX_SAMPLES >= 4`. Configs
//! only carry `EGL_PBUFFER_BIT`: there are no native windows or pixmaps to render to, and
//! only desktop OpenGL is renderable (`EGL_OPENGL_BIT`).
//!
//! A surface's colour image is sRGB-encoded whatever its `EGL_GL_COLORSPACE`, as Mesa makes
//! every desktop GL default framebuffer whose format has an sRGB twin: writes convert only
//! while `GL_FRAMEBUFFER_SRGB` is enabled (desktop GL's rule; it starts disabled), and
//! `GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING` of `BACK_LEFT` is `GL_SRGB`. Multisampled
//! surfaces are the exception, linear RGBA8: Vulkan resolves an sRGB image (for a swap's
//! read-back) in linear space, where Mesa averages the stored values while the switch is
//! off, so they convert nothing even with `GL_FRAMEBUFFER_SRGB` enabled.

use super::EglError;
use super::tokens::*;
use super::window::Visual;

/// Largest pbuffer side: the smallest `MAX_RENDERBUFFER_SIZE` among the drivers the backends
/// run on in practice (GLES 3.0 only promises 2048; llvmpipe, lavapipe and desktop GPUs
/// have at least 8192).
pub const MAX_PBUFFER_SIZE: i32 = 8192;

/// One frame buffer configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// `EGL_CONFIG_ID` (1-based, also the index + 1 in [`CONFIGS`]).
    pub id: i32,
    /// `EGL_DEPTH_SIZE` (0 or 24).
    pub depth: i32,
    /// `EGL_STENCIL_SIZE` (0 or 8).
    pub stencil: i32,
    /// `EGL_SAMPLES` (0 or 4).
    pub samples: i32,
}

/// The configs of every display, in the order `eglGetConfigs` lists them (which is also
/// the order EGL's sort rules give them).
pub static CONFIGS: [Config; 4] = [
    Config {
        id: 1,
        depth: 0,
        stencil: 0,
        samples: 0,
    },
    Config {
        id: 2,
        depth: 24,
        stencil: 8,
        samples: 0,
    },
    Config {
        id: 3,
        depth: 0,
        stencil: 0,
        samples: 4,
    },
    Config {
        id: 4,
        depth: 24,
        stencil: 8,
        samples: 4,
    },
];

impl Config {
    /// The config with `EGL_CONFIG_ID` `id`.
    pub fn by_id(id: i32) -> Option<&'static Config> {
        usize::try_from(id)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| CONFIGS.get(i))
    }

    /// The wire description of a `width` x `height` surface of this config (sRGB-capable
    /// colour: module docs).
    pub fn surface_desc(&self, width: u32, height: u32) -> tessera_wire::state::SurfaceDesc {
        use tessera_wire::format::Format;
        tessera_wire::state::SurfaceDesc {
            width,
            height,
            color: Some(color_format(self.samples as u8)),
            depth_stencil: (self.depth > 0).then_some(Format::Depth24Stencil8),
            samples: self.samples as u8,
        }
    }

    /// `eglGetConfigAttrib` on an offscreen display: the value of `attribute`,
    /// `BAD_ATTRIBUTE` for a token that is not a config attribute.
    pub fn attrib(&self, attribute: i32) -> Result<i32, EglError> {
        self.attrib_on(attribute, None)
    }

    /// `eglGetConfigAttrib` on a display whose windows show frames in `visual` (`None`: an
    /// offscreen display): window configs add `EGL_WINDOW_BIT`, the native visual and swap
    /// intervals 0 and 1.
    pub fn attrib_on(&self, attribute: i32, visual: Option<Visual>) -> Result<i32, EglError> {
        if let Some(v) = visual {
            match attribute {
                NATIVE_VISUAL_ID => return Ok(v.id),
                NATIVE_VISUAL_TYPE => return Ok(v.class),
                NATIVE_RENDERABLE => return Ok(FALSE),
                MIN_SWAP_INTERVAL => return Ok(0),
                MAX_SWAP_INTERVAL => return Ok(1),
                SURFACE_TYPE => return Ok(PBUFFER_BIT | WINDOW_BIT),
                _ => {}
            }
        }
        Ok(match attribute {
            BUFFER_SIZE => 32,
            RED_SIZE | GREEN_SIZE | BLUE_SIZE | ALPHA_SIZE => 8,
            LUMINANCE_SIZE | ALPHA_MASK_SIZE | LEVEL | NATIVE_VISUAL_ID => 0,
            TRANSPARENT_RED_VALUE | TRANSPARENT_GREEN_VALUE | TRANSPARENT_BLUE_VALUE => 0,
            BIND_TO_TEXTURE_RGB | BIND_TO_TEXTURE_RGBA | NATIVE_RENDERABLE => FALSE,
            COLOR_BUFFER_TYPE => RGB_BUFFER,
            CONFIG_CAVEAT | NATIVE_VISUAL_TYPE | TRANSPARENT_TYPE => NONE,
            CONFIG_ID => self.id,
            CONFORMANT | RENDERABLE_TYPE => OPENGL_BIT,
            DEPTH_SIZE => self.depth,
            STENCIL_SIZE => self.stencil,
            SAMPLES => self.samples,
            SAMPLE_BUFFERS => i32::from(self.samples > 0),
            MAX_PBUFFER_WIDTH | MAX_PBUFFER_HEIGHT => MAX_PBUFFER_SIZE,
            MAX_PBUFFER_PIXELS => MAX_PBUFFER_SIZE * MAX_PBUFFER_SIZE,
            // A pbuffer has no swap interval; Mesa reports 1 for both.
            MIN_SWAP_INTERVAL | MAX_SWAP_INTERVAL => 1,
            SURFACE_TYPE => PBUFFER_BIT,
            _ => return Err(EglError::BadAttribute),
        })
    }
}

/// The colour format of a default framebuffer with `samples` samples (module docs).
pub fn color_format(samples: u8) -> tessera_wire::format::Format {
    use tessera_wire::format::Format;
    if samples > 0 {
        Format::Rgba8
    } else {
        Format::Srgb8Alpha8
    }
}

/// How `eglChooseConfig` compares one attribute (EGL 1.5 table 3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// The config's value is at least the requested one.
    AtLeast,
    /// Equal.
    Exact,
    /// Every requested bit is set in the config's value.
    Mask,
    /// Handled on its own (`EGL_MATCH_NATIVE_PIXMAP`, the swap intervals' `AtLeast`/`AtMost`).
    Special,
}

/// The matching rule and default of an attribute `eglChooseConfig` accepts.
fn rule(attribute: i32) -> Option<(Rule, i32)> {
    Some(match attribute {
        BUFFER_SIZE | RED_SIZE | GREEN_SIZE | BLUE_SIZE | LUMINANCE_SIZE | ALPHA_SIZE
        | ALPHA_MASK_SIZE | DEPTH_SIZE | STENCIL_SIZE | SAMPLE_BUFFERS | SAMPLES => {
            (Rule::AtLeast, 0)
        }
        BIND_TO_TEXTURE_RGB
        | BIND_TO_TEXTURE_RGBA
        | CONFIG_CAVEAT
        | CONFIG_ID
        | NATIVE_RENDERABLE
        | NATIVE_VISUAL_TYPE
        | TRANSPARENT_TYPE
        | TRANSPARENT_RED_VALUE
        | TRANSPARENT_GREEN_VALUE
        | TRANSPARENT_BLUE_VALUE
        | MAX_SWAP_INTERVAL
        | MIN_SWAP_INTERVAL => (Rule::Exact, DONT_CARE),
        COLOR_BUFFER_TYPE => (Rule::Exact, RGB_BUFFER),
        LEVEL => (Rule::Exact, 0),
        CONFORMANT => (Rule::Mask, 0),
        RENDERABLE_TYPE => (Rule::Mask, OPENGL_ES_BIT),
        SURFACE_TYPE => (Rule::Mask, WINDOW_BIT),
        MATCH_NATIVE_PIXMAP => (Rule::Special, NONE),
        _ => return None,
    })
}

/// A parsed `eglChooseConfig` attribute list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Criteria {
    /// (attribute, requested value) for every attribute the list names, defaults applied
    /// for the rest.
    wanted: Vec<(i32, i32)>,
}

impl Criteria {
    /// Parses an attribute list (`(attribute, value)` pairs up to `EGL_NONE`). Unknown
    /// attributes and invalid values are `BAD_ATTRIBUTE`.
    pub fn parse(list: &[(i32, i32)]) -> Result<Self, EglError> {
        let mut wanted: Vec<(i32, i32)> = Vec::new();
        for &(attribute, value) in list {
            let (r, _) = rule(attribute).ok_or(EglError::BadAttribute)?;
            if r == Rule::Special && value != NONE {
                // No native pixmaps exist, so no handle is valid.
                return Err(EglError::BadAttribute);
            }
            let valid = match attribute {
                COLOR_BUFFER_TYPE => matches!(value, RGB_BUFFER | LUMINANCE_BUFFER | DONT_CARE),
                CONFIG_CAVEAT => matches!(
                    value,
                    NONE | SLOW_CONFIG | NON_CONFORMANT_CONFIG | DONT_CARE
                ),
                TRANSPARENT_TYPE => matches!(value, NONE | TRANSPARENT_RGB | DONT_CARE),
                NATIVE_RENDERABLE | BIND_TO_TEXTURE_RGB | BIND_TO_TEXTURE_RGBA => {
                    matches!(value, TRUE | FALSE | DONT_CARE)
                }
                // Sizes: DONT_CARE or a non-negative number.
                _ if rule(attribute).is_some_and(|(r, _)| r == Rule::AtLeast) => {
                    value >= 0 || value == DONT_CARE
                }
                _ => true,
            };
            if !valid {
                return Err(EglError::BadAttribute);
            }
            match wanted.iter_mut().find(|(a, _)| *a == attribute) {
                Some(w) => w.1 = value,
                None => wanted.push((attribute, value)),
            }
        }
        Ok(Self { wanted })
    }

    /// The requested value of `attribute` (its default if the list did not name it).
    fn value(&self, attribute: i32) -> i32 {
        self.wanted
            .iter()
            .find(|(a, _)| *a == attribute)
            .map(|w| w.1)
            .or_else(|| rule(attribute).map(|(_, d)| d))
            .unwrap_or(DONT_CARE)
    }

    /// Whether `config` satisfies every criterion.
    pub fn matches(&self, config: &Config, visual: Option<Visual>) -> bool {
        // EGL 1.5 §3.4.1.2: when EGL_CONFIG_ID is given, every other attribute is ignored.
        let id = self.value(CONFIG_ID);
        if id != DONT_CARE {
            return config.id == id;
        }
        const ALL: [i32; 27] = [
            BUFFER_SIZE,
            RED_SIZE,
            GREEN_SIZE,
            BLUE_SIZE,
            LUMINANCE_SIZE,
            ALPHA_SIZE,
            ALPHA_MASK_SIZE,
            DEPTH_SIZE,
            STENCIL_SIZE,
            SAMPLE_BUFFERS,
            SAMPLES,
            BIND_TO_TEXTURE_RGB,
            BIND_TO_TEXTURE_RGBA,
            CONFIG_CAVEAT,
            NATIVE_RENDERABLE,
            NATIVE_VISUAL_TYPE,
            TRANSPARENT_TYPE,
            TRANSPARENT_RED_VALUE,
            TRANSPARENT_GREEN_VALUE,
            TRANSPARENT_BLUE_VALUE,
            MAX_SWAP_INTERVAL,
            MIN_SWAP_INTERVAL,
            COLOR_BUFFER_TYPE,
            LEVEL,
            CONFORMANT,
            RENDERABLE_TYPE,
            SURFACE_TYPE,
        ];
        ALL.iter().all(|&attribute| {
            let want = self.value(attribute);
            if want == DONT_CARE {
                return true;
            }
            let Ok(have) = config.attrib_on(attribute, visual) else {
                return false;
            };
            match rule(attribute).map_or(Rule::Exact, |(r, _)| r) {
                Rule::AtLeast => have >= want,
                Rule::Exact => have == want,
                Rule::Mask => have & want == want,
                Rule::Special => true,
            }
        })
    }

    /// The EGL 1.5 §3.4.1.2 sort key of a matching config: caveat, colour buffer type, more
    /// colour bits among those requested, smaller buffer size, sample buffers, samples,
    /// depth, stencil, alpha mask, native visual type, and finally the config id.
    fn sort_key(&self, config: &Config, visual: Option<Visual>) -> [i64; 11] {
        let a = |attribute| i64::from(config.attrib_on(attribute, visual).unwrap_or(0));
        let color_bits: i64 = [RED_SIZE, GREEN_SIZE, BLUE_SIZE, ALPHA_SIZE]
            .into_iter()
            .filter(|&c| !matches!(self.value(c), 0 | DONT_CARE))
            .map(a)
            .sum();
        let caveat = match config.attrib(CONFIG_CAVEAT).unwrap_or(NONE) {
            NONE => 0,
            SLOW_CONFIG => 1,
            _ => 2,
        };
        [
            caveat,
            i64::from(config.attrib(COLOR_BUFFER_TYPE).unwrap_or(0) != RGB_BUFFER),
            -color_bits,
            a(BUFFER_SIZE),
            a(SAMPLE_BUFFERS),
            a(SAMPLES),
            a(DEPTH_SIZE),
            a(STENCIL_SIZE),
            a(ALPHA_MASK_SIZE),
            a(NATIVE_VISUAL_TYPE),
            i64::from(config.id),
        ]
    }

    /// The matching configs of a display whose windows use `visual` (`None`: offscreen),
    /// best first.
    pub fn choose(&self, visual: Option<Visual>) -> Vec<&'static Config> {
        let mut found: Vec<&'static Config> =
            CONFIGS.iter().filter(|c| self.matches(c, visual)).collect();
        found.sort_by_key(|c| self.sort_key(c, visual));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_ask_for_windows_and_es_so_nothing_matches() {
        assert!(Criteria::parse(&[]).unwrap().choose(None).is_empty());
    }

    #[test]
    fn depth_request_prefers_the_smallest_match() {
        let c = Criteria::parse(&[
            (SURFACE_TYPE, PBUFFER_BIT),
            (RENDERABLE_TYPE, OPENGL_BIT),
            (DEPTH_SIZE, 1),
        ])
        .unwrap();
        let ids: Vec<i32> = c.choose(None).iter().map(|c| c.id).collect();
        assert_eq!(ids, [2, 4]);
    }

    #[test]
    fn config_id_overrides_everything_else() {
        let c = Criteria::parse(&[(CONFIG_ID, 3), (DEPTH_SIZE, 24)]).unwrap();
        let ids: Vec<i32> = c.choose(None).iter().map(|c| c.id).collect();
        assert_eq!(ids, [3]);
    }

    #[test]
    fn unknown_attributes_and_bad_values_are_bad_attribute() {
        assert_eq!(Criteria::parse(&[(0x1234, 0)]), Err(EglError::BadAttribute));
        assert_eq!(
            Criteria::parse(&[(RED_SIZE, -5)]),
            Err(EglError::BadAttribute)
        );
        assert_eq!(
            Criteria::parse(&[(COLOR_BUFFER_TYPE, 7)]),
            Err(EglError::BadAttribute)
        );
    }
}
