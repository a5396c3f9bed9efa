//! `eglCreateContext` attributes for desktop OpenGL (EGL 1.5 §3.7.1 and
//! `EGL_KHR_create_context`): what may be asked for, and what Tessera can give.
//!
//! Tessera implements desktop GL's core profile, at 3.3 or at the 4.x version its backend
//! carries out (`crate::version`). A request is granted when such a context is *backward
//! compatible* with it, as `EGL_KHR_create_context` defines that: 3.2 up to the context's
//! version, core profile; 3.1 (its context may be "the core profile of version 3.2 or
//! greater"); 3.0 forward-compatible (3.0 minus the deprecated features is what 3.1 is).
//! A 4.0–4.6 core request is granted here and checked against the created context's
//! version ([`ContextAttribs::version`]), which only the backend knows. Everything else that
//! is a valid request but needs features Tessera lacks — versions above 4.6, the
//! compatibility profile, versions below 3.0 or 3.0 without the forward-compatible flag
//! (they include the fixed-function pipeline) — is `EGL_BAD_MATCH`. Attributes that are not
//! meaningful for OpenGL, or not recognised, are `EGL_BAD_ATTRIBUTE`, as Mesa's parser
//! decides.
//!
//! A robust-access request (`EGL_CONTEXT_OPENGL_ROBUST_ACCESS`, or the flag bit) is granted
//! here and checked against the created context's backend, like a 4.x version: it needs a
//! backend whose buffer reads stay inside their buffers
//! (`tessera_wire::Caps::robust_buffer_access`).
//!
//! `EGL_CONTEXT_OPENGL_NO_ERROR_KHR` (`EGL_KHR_create_context_no_error`) asks for a
//! `GL_KHR_no_error` context (`crate::no_error`); any non-zero value is true, as Mesa
//! takes it. As in Mesa's parser, checked once every attribute is read: for a version below
//! 2.0 it is `EGL_BAD_ATTRIBUTE`, together with a debug or robust-access context
//! `EGL_BAD_MATCH`; a share context created with the other setting is `EGL_BAD_MATCH` too
//! (`crate::egl::Thread::create_context`).

use super::EglError;
use super::tokens::*;
use tessera_components::gl::{CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT, GLenum};

/// Parsed and granted context attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextAttribs {
    /// Requested major version (`EGL_CONTEXT_MAJOR_VERSION`, default 1).
    pub major: i32,
    /// Requested minor version (default 0).
    pub minor: i32,
    /// `EGL_CONTEXT_OPENGL_PROFILE_MASK` (default core).
    pub profile: i32,
    /// `EGL_CONTEXT_FLAGS_KHR` bits: debug, forward-compatible, robust access.
    pub flags: i32,
    /// `EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY`.
    pub reset_strategy: i32,
    /// `EGL_CONTEXT_OPENGL_NO_ERROR_KHR`: a `GL_KHR_no_error` context.
    pub no_error: bool,
}

impl Default for ContextAttribs {
    fn default() -> Self {
        Self {
            major: 1,
            minor: 0,
            profile: CONTEXT_OPENGL_CORE_PROFILE_BIT,
            flags: 0,
            reset_strategy: NO_RESET_NOTIFICATION,
            no_error: false,
        }
    }
}

/// A boolean attribute value: `EGL_TRUE` or `EGL_FALSE`, anything else `BAD_ATTRIBUTE`.
fn boolean(value: i32) -> Result<bool, EglError> {
    match value {
        TRUE => Ok(true),
        FALSE => Ok(false),
        _ => Err(EglError::BadAttribute),
    }
}

impl ContextAttribs {
    /// Parses the attribute list of an OpenGL context and decides whether Tessera can
    /// create it.
    pub fn parse(list: &[(i32, i32)]) -> Result<Self, EglError> {
        let mut a = Self::default();
        for &(attribute, value) in list {
            match attribute {
                CONTEXT_MAJOR_VERSION => a.major = value,
                CONTEXT_MINOR_VERSION => a.minor = value,
                CONTEXT_FLAGS_KHR => a.flags |= value,
                CONTEXT_OPENGL_PROFILE_MASK => a.profile = value,
                CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY => a.reset_strategy = value,
                CONTEXT_OPENGL_DEBUG => {
                    if boolean(value)? {
                        a.flags |= CONTEXT_OPENGL_DEBUG_BIT_KHR;
                    }
                }
                CONTEXT_OPENGL_FORWARD_COMPATIBLE => {
                    if boolean(value)? {
                        a.flags |= CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR;
                    }
                }
                CONTEXT_OPENGL_ROBUST_ACCESS => {
                    if boolean(value)? {
                        a.flags |= CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
                    }
                }
                CONTEXT_OPENGL_NO_ERROR_KHR => a.no_error = value != 0,
                // The EXT robustness attributes are for OpenGL ES only, and the priority
                // extensions are not offered.
                _ => return Err(EglError::BadAttribute),
            }
        }
        a.check_defined()?;
        a.check_no_error()?;
        a.check_supported()?;
        Ok(a)
    }

    /// `EGL_KHR_create_context`'s rules for a request that names no defined OpenGL.
    fn check_defined(&self) -> Result<(), EglError> {
        let all_flags = CONTEXT_OPENGL_DEBUG_BIT_KHR
            | CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR
            | CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
        if self.flags & !all_flags != 0 {
            return Err(EglError::BadAttribute);
        }
        if !matches!(
            self.reset_strategy,
            NO_RESET_NOTIFICATION | LOSE_CONTEXT_ON_RESET
        ) {
            return Err(EglError::BadAttribute);
        }
        let fc = self.flags & CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR != 0;
        let defined = self.minor >= 0
            && match self.major {
                1 => self.minor <= 5 && !fc,
                2 => self.minor <= 1 && !fc,
                3 => self.minor <= 3,
                m => m >= 4,
            };
        if !defined {
            return Err(EglError::BadMatch);
        }
        // The profile only matters from 3.2 on; it must name exactly one known profile.
        if (self.major, self.minor) >= (3, 2)
            && !matches!(
                self.profile,
                CONTEXT_OPENGL_CORE_PROFILE_BIT | CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT
            )
        {
            return Err(EglError::BadMatch);
        }
        Ok(())
    }

    /// `EGL_KHR_create_context_no_error`'s rules, as Mesa checks them after the parse: no
    /// no-error context below OpenGL 2.0 (`EGL_BAD_ATTRIBUTE`), nor one that is also a
    /// debug or robust-access context (`EGL_BAD_MATCH`).
    fn check_no_error(&self) -> Result<(), EglError> {
        if !self.no_error {
            return Ok(());
        }
        if self.major < 2 {
            return Err(EglError::BadAttribute);
        }
        if self.flags & (CONTEXT_OPENGL_DEBUG_BIT_KHR | CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR) != 0 {
            return Err(EglError::BadMatch);
        }
        Ok(())
    }

    /// Whether a core context of 3.3 or of the version asked for (up to 4.6, checked
    /// against the backend at creation: [`ContextAttribs::version`]) satisfies the
    /// (defined) request.
    fn check_supported(&self) -> Result<(), EglError> {
        let fc = self.flags & CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR != 0;
        let version = (self.major, self.minor);
        let granted = match version {
            (3, 2) | (3, 3) | (4, 0..=6) => self.profile == CONTEXT_OPENGL_CORE_PROFILE_BIT,
            (3, 1) => true,
            (3, 0) => fc,
            _ => false,
        };
        if !granted {
            return Err(EglError::BadMatch);
        }
        Ok(())
    }

    /// The version asked for, which the created context must report at least (3.3 for
    /// the requests any context satisfies).
    pub fn version(&self) -> crate::version::GlVersion {
        let requested = crate::version::GlVersion::new(
            self.major.clamp(0, 255) as u8,
            self.minor.clamp(0, 255) as u8,
        );
        requested.max(crate::version::GlVersion::GL33)
    }

    /// `GL_CONTEXT_FLAGS` of the granted context: the forward-compatible bit, the debug
    /// bit (`KHR_debug`: a debug context starts with debug output on), the robust-access
    /// bit and the no-error bit, as requested.
    pub fn gl_context_flags(&self) -> GLenum {
        let mut flags = 0;
        if self.robust_access() {
            flags |= tessera_components::gl::CONTEXT_FLAG_ROBUST_ACCESS_BIT;
        }
        if self.no_error {
            flags |= tessera_components::gl::CONTEXT_FLAG_NO_ERROR_BIT;
        }
        if self.flags & CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR != 0 {
            flags |= CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT;
        }
        if self.flags & CONTEXT_OPENGL_DEBUG_BIT_KHR != 0 {
            flags |= tessera_components::gl::CONTEXT_FLAG_DEBUG_BIT;
        }
        flags
    }

    /// Whether a robust-access context is asked for: the created context's backend must keep
    /// buffer reads inside their buffers.
    pub fn robust_access(&self) -> bool {
        self.flags & CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR != 0
    }

    /// `GL_RESET_NOTIFICATION_STRATEGY` of the granted context, as requested
    /// (`crate::robustness`).
    pub fn gl_reset_strategy(&self) -> GLenum {
        if self.reset_strategy == LOSE_CONTEXT_ON_RESET {
            tessera_components::gl::LOSE_CONTEXT_ON_RESET
        } else {
            tessera_components::gl::NO_RESET_NOTIFICATION
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core(major: i32, minor: i32) -> Vec<(i32, i32)> {
        vec![
            (CONTEXT_MAJOR_VERSION, major),
            (CONTEXT_MINOR_VERSION, minor),
            (CONTEXT_OPENGL_PROFILE_MASK, CONTEXT_OPENGL_CORE_PROFILE_BIT),
        ]
    }

    #[test]
    fn core_3_3_with_debug_and_reset_notification_is_granted() {
        let mut list = core(3, 3);
        list.push((CONTEXT_OPENGL_DEBUG, TRUE));
        list.push((
            CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
            LOSE_CONTEXT_ON_RESET,
        ));
        let a = ContextAttribs::parse(&list).unwrap();
        assert_eq!(a.flags, CONTEXT_OPENGL_DEBUG_BIT_KHR);
        assert_eq!(
            a.gl_context_flags(),
            tessera_components::gl::CONTEXT_FLAG_DEBUG_BIT
        );
        assert_eq!(a.reset_strategy, LOSE_CONTEXT_ON_RESET);
        assert_eq!(
            a.gl_reset_strategy(),
            tessera_components::gl::LOSE_CONTEXT_ON_RESET
        );
        assert_eq!(
            ContextAttribs::parse(&core(3, 3))
                .unwrap()
                .gl_reset_strategy(),
            tessera_components::gl::NO_RESET_NOTIFICATION
        );
    }

    #[test]
    fn what_tessera_lacks_is_bad_match() {
        assert_eq!(ContextAttribs::parse(&core(4, 7)), Err(EglError::BadMatch));
        assert_eq!(ContextAttribs::parse(&core(5, 0)), Err(EglError::BadMatch));
        assert_eq!(ContextAttribs::parse(&[]), Err(EglError::BadMatch));
        assert_eq!(
            ContextAttribs::parse(&[
                (CONTEXT_MAJOR_VERSION, 3),
                (CONTEXT_MINOR_VERSION, 3),
                (
                    CONTEXT_OPENGL_PROFILE_MASK,
                    CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT
                )
            ]),
            Err(EglError::BadMatch)
        );
        let mut robust = core(3, 3);
        robust.push((CONTEXT_OPENGL_ROBUST_ACCESS, TRUE));
        let a = ContextAttribs::parse(&robust).unwrap();
        assert!(a.robust_access());
        assert_eq!(
            a.gl_context_flags(),
            tessera_components::gl::CONTEXT_FLAG_ROBUST_ACCESS_BIT
        );
    }

    #[test]
    fn no_error_is_refused_with_debug_robust_access_or_below_2_0() {
        let mut list = core(3, 3);
        list.push((CONTEXT_OPENGL_NO_ERROR_KHR, TRUE));
        let a = ContextAttribs::parse(&list).unwrap();
        assert!(a.no_error);
        assert_eq!(
            a.gl_context_flags(),
            tessera_components::gl::CONTEXT_FLAG_NO_ERROR_BIT
        );
        // Before the version, and any non-zero value, as Mesa's parser takes it.
        let mut first = vec![(CONTEXT_OPENGL_NO_ERROR_KHR, 7)];
        first.extend(core(4, 3));
        assert!(ContextAttribs::parse(&first).unwrap().no_error);
        let mut off = core(3, 3);
        off.push((CONTEXT_OPENGL_NO_ERROR_KHR, FALSE));
        off.push((CONTEXT_OPENGL_DEBUG, TRUE));
        assert!(!ContextAttribs::parse(&off).unwrap().no_error);
        let mut debug = list.clone();
        debug.push((CONTEXT_FLAGS_KHR, CONTEXT_OPENGL_DEBUG_BIT_KHR));
        assert_eq!(ContextAttribs::parse(&debug), Err(EglError::BadMatch));
        let mut robust = list.clone();
        robust.push((CONTEXT_OPENGL_ROBUST_ACCESS, TRUE));
        assert_eq!(ContextAttribs::parse(&robust), Err(EglError::BadMatch));
        assert_eq!(
            ContextAttribs::parse(&[(CONTEXT_OPENGL_NO_ERROR_KHR, TRUE)]),
            Err(EglError::BadAttribute)
        );
    }

    #[test]
    fn undefined_versions_are_bad_match_and_unknown_attributes_bad_attribute() {
        assert_eq!(ContextAttribs::parse(&core(3, 4)), Err(EglError::BadMatch));
        assert_eq!(ContextAttribs::parse(&core(2, 2)), Err(EglError::BadMatch));
        assert_eq!(
            ContextAttribs::parse(&[(0x3100, 0)]),
            Err(EglError::BadAttribute)
        );
        let mut bad_strategy = core(3, 3);
        bad_strategy.push((CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, 5));
        assert_eq!(
            ContextAttribs::parse(&bad_strategy),
            Err(EglError::BadAttribute)
        );
    }

    #[test]
    fn requests_up_to_4_6_core_wait_for_the_backend() {
        use crate::version::GlVersion;
        let a = ContextAttribs::parse(&core(4, 3)).unwrap();
        assert_eq!(a.version(), GlVersion::new(4, 3));
        let a = ContextAttribs::parse(&core(4, 6)).unwrap();
        assert_eq!(a.version(), GlVersion::new(4, 6));
        assert_eq!(
            ContextAttribs::parse(&core(3, 2)).unwrap().version(),
            GlVersion::GL33
        );
        let mut compat = core(4, 0);
        compat[2].1 = CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
        assert_eq!(ContextAttribs::parse(&compat), Err(EglError::BadMatch));
    }

    #[test]
    fn older_requests_a_core_context_satisfies_are_granted() {
        assert!(ContextAttribs::parse(&core(3, 1)).is_ok());
        assert!(ContextAttribs::parse(&core(3, 2)).is_ok());
        let fc = [
            (CONTEXT_MAJOR_VERSION, 3),
            (CONTEXT_FLAGS_KHR, CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR),
        ];
        assert_eq!(
            ContextAttribs::parse(&fc).map(|a| a.gl_context_flags()),
            Ok(CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT)
        );
        assert_eq!(
            ContextAttribs::parse(&core(3, 3))
                .unwrap()
                .gl_context_flags(),
            0
        );
        assert_eq!(
            ContextAttribs::parse(&[(CONTEXT_MAJOR_VERSION, 3)]),
            Err(EglError::BadMatch)
        );
    }
}
