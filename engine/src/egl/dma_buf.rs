//! EGL images of dma-bufs (`EGL_EXT_image_dma_buf_import`, `_modifiers`): what
//! `eglCreateImage` with `EGL_LINUX_DMA_BUF_EXT` decides, and what a texture that takes such
//! an image sends its backend.
//!
//! A dma-buf image belongs to no context, so no backend session makes it when it is
//! created: the engine checks the attributes, keeps duplicates of the application's
//! descriptors (the application may close its own at once, as the extension allows) and the
//! texture that takes it (`glEGLImageTargetTexture2DOES`) has its own backend make the
//! native image on the same native display (`Record::ImportDmaBufTexture`) and bind it. A
//! refusal of the native driver at that point (a modifier it cannot sample, say) leaves the
//! texture its own storage, with a warning in the log; the engine checks what the native
//! display lists ([`tessera_backend_gles::discover::native_dma_buf`]) before.
//!
//! ## Where it works
//! Where the display offers the extensions ([`super::image::dma_buf_offered`]): the native
//! display the GLES backend runs on imports dma-bufs. llvmpipe's surfaceless display does
//! not, so CI checks only that they are not advertised, that `eglCreateImage` of
//! `EGL_LINUX_DMA_BUF_EXT` is then `EGL_BAD_PARAMETER`, and this module's attribute checks
//! (unit tests); the import itself is not exercised in CI.
//!
//! ## Errors (decided here)
//! A context other than `EGL_NO_CONTEXT` or a client buffer: `EGL_BAD_PARAMETER`. A missing
//! width, height, fourcc or plane 0 descriptor, offset or pitch, a modifier given by one
//! half, a negative size or a descriptor that cannot be duplicated: `EGL_BAD_PARAMETER`
//! ("incomplete"). An attribute the extensions do not name: `EGL_BAD_PARAMETER`. Plane 1 to
//! 3 attributes for these single-plane formats: `EGL_BAD_ATTRIBUTE`. A fourcc Tessera has
//! no texture format for, or the native display does not list: `EGL_BAD_MATCH`. Taking it
//! as a renderbuffer's storage: `INVALID_OPERATION` (a texture only).

use std::os::fd::OwnedFd;

use tessera_components::gl::{GLenum, R8, RG8, RGB8, RGB10_A2, RGBA8};
use tessera_wire::format::Format;
use tessera_wire::record::{DmaBufImport, DmaBufImportPlane};

use super::EglError;

/// `EGL_WIDTH`.
const WIDTH: i32 = 0x3057;
/// `EGL_HEIGHT`.
const HEIGHT: i32 = 0x3056;
/// `EGL_LINUX_DRM_FOURCC_EXT`.
const FOURCC: i32 = 0x3271;
/// `EGL_IMAGE_PRESERVED_KHR`.
const IMAGE_PRESERVED: i32 = 0x30D2;
/// `EGL_DMA_BUF_PLANE{0..3}_{FD,OFFSET,PITCH,MODIFIER_LO,MODIFIER_HI}_EXT` by plane.
const PLANES: [[i32; 5]; 4] = [
    [0x3272, 0x3273, 0x3274, 0x3443, 0x3444],
    [0x3275, 0x3276, 0x3277, 0x3445, 0x3446],
    [0x3278, 0x3279, 0x327A, 0x3447, 0x3448],
    [0x3440, 0x3441, 0x3442, 0x3449, 0x344A],
];
/// The hints passed on to the native display unchanged: `EGL_YUV_COLOR_SPACE_HINT_EXT`,
/// `EGL_SAMPLE_RANGE_HINT_EXT`, `EGL_YUV_CHROMA_{HORIZONTAL,VERTICAL}_SITING_HINT_EXT`.
const HINTS: [i32; 4] = [0x327B, 0x327C, 0x327D, 0x327E];

/// The texture format of a DRM fourcc Tessera takes: the single-plane 8-bit and 10-bit
/// colour formats a compositor hands out. The native image decides the channel order the
/// shader sees; the engine's format answers size and type queries.
pub fn format_of_fourcc(fourcc: i32) -> Option<(Format, GLenum)> {
    let code = |s: &[u8; 4]| i32::from_le_bytes(*s);
    Some(match fourcc {
        f if f == code(b"AB24") || f == code(b"AR24") => (Format::Rgba8, RGBA8),
        f if f == code(b"XB24") || f == code(b"XR24") => (Format::Rgb8, RGB8),
        f if f == code(b"AB30") => (Format::Rgb10A2, RGB10_A2),
        f if f == code(b"R8  ") => (Format::R8, R8),
        f if f == code(b"GR88") => (Format::Rg8, RG8),
        _ => return None,
    })
}

/// A dma-buf an image is made of: the attributes, and duplicates of the application's
/// descriptors, which the image holds until it is destroyed.
#[derive(Debug)]
pub(crate) struct DmaBufSource {
    /// Size, fourcc, planes (their `fd_token`s 0 until handed over) and hints.
    pub import: DmaBufImport,
    /// The texture format of its fourcc, and the internal format a texture of it reports.
    pub format: (Format, GLenum),
    /// One descriptor per plane.
    pub fds: Vec<OwnedFd>,
}

impl DmaBufSource {
    /// The record's image: a new duplicate of each descriptor left in the process's table
    /// for the backend. `None` if the process is out of descriptors.
    pub fn handed_over(&self) -> Option<Box<DmaBufImport>> {
        let mut import = self.import.clone();
        for (plane, fd) in import.planes.iter_mut().zip(&self.fds) {
            plane.fd_token = tessera_wire::backend::hand_over_fd(fd.try_clone().ok()?);
        }
        Some(Box::new(import))
    }
}

/// Checks `eglCreateImage`'s attributes for `EGL_LINUX_DMA_BUF_EXT` (the module's errors)
/// against the fourccs the native display lists (`None`: it lists none, any that has a
/// texture format is tried), duplicating each plane's descriptor with `dup`.
pub(crate) fn parse(
    list: &[(i32, i32)],
    listed: Option<&[i32]>,
    dup: &dyn Fn(i32) -> Option<OwnedFd>,
) -> Result<DmaBufSource, EglError> {
    let (mut width, mut height, mut fourcc) = (None, None, None);
    let mut planes: [[Option<i32>; 5]; 4] = [[None; 5]; 4];
    let mut hints = Vec::new();
    for &(name, value) in list {
        match name {
            WIDTH => width = Some(value),
            HEIGHT => height = Some(value),
            FOURCC => fourcc = Some(value),
            IMAGE_PRESERVED => {}
            n if HINTS.contains(&n) => hints.push((name, value)),
            n => {
                let at = PLANES
                    .iter()
                    .enumerate()
                    .find_map(|(p, names)| names.iter().position(|&x| x == n).map(|i| (p, i)));
                let (p, i) = at.ok_or(EglError::BadParameter)?;
                planes[p][i] = Some(value);
            }
        }
    }
    let (Some(width), Some(height), Some(fourcc)) = (width, height, fourcc) else {
        return Err(EglError::BadParameter);
    };
    if width <= 0 || height <= 0 {
        return Err(EglError::BadParameter);
    }
    let [fd, offset, pitch, lo, hi] = planes[0];
    let (Some(fd), Some(offset), Some(pitch)) = (fd, offset, pitch) else {
        return Err(EglError::BadParameter);
    };
    let modifier = match (lo, hi) {
        (None, None) => None,
        (Some(lo), Some(hi)) => Some(u64::from(lo as u32) | (u64::from(hi as u32) << 32)),
        _ => return Err(EglError::BadParameter),
    };
    let format = format_of_fourcc(fourcc).ok_or(EglError::BadMatch)?;
    if listed.is_some_and(|l| !l.contains(&fourcc)) {
        return Err(EglError::BadMatch);
    }
    if planes[1..].iter().flatten().any(Option::is_some) {
        return Err(EglError::BadAttribute);
    }
    let fd = dup(fd).ok_or(EglError::BadParameter)?;
    Ok(DmaBufSource {
        import: DmaBufImport {
            size: [width, height],
            fourcc,
            planes: vec![DmaBufImportPlane {
                fd_token: 0,
                offset,
                pitch,
                modifier,
            }],
            hints,
        },
        format,
        fds: vec![fd],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const AB24: i32 = 0x3432_4241;

    /// A descriptor to duplicate: a pipe's read end for 5, nothing for any other number.
    fn dup(fd: i32) -> Option<OwnedFd> {
        (fd == 5).then(|| std::io::pipe().expect("a pipe").0.into())
    }

    fn complete() -> Vec<(i32, i32)> {
        vec![
            (WIDTH, 4),
            (HEIGHT, 2),
            (FOURCC, AB24),
            (PLANES[0][0], 5),
            (PLANES[0][1], 0),
            (PLANES[0][2], 16),
        ]
    }

    #[test]
    fn a_complete_list_gives_the_image_and_a_duplicate() {
        let s = parse(&complete(), None, &dup).expect("complete");
        assert_eq!(s.import.size, [4, 2]);
        assert_eq!(s.format, (Format::Rgba8, RGBA8));
        assert_eq!(s.fds.len(), 1);
        assert_eq!(s.import.planes[0].pitch, 16);
        assert_eq!(s.import.planes[0].modifier, None);
    }

    #[test]
    fn a_modifier_is_both_halves() {
        let mut list = complete();
        list.extend([(PLANES[0][3], 0x10), (PLANES[0][4], 0x0100_0000)]);
        let s = parse(&list, None, &dup).expect("complete");
        assert_eq!(s.import.planes[0].modifier, Some(0x0100_0000_0000_0010));
        list.pop();
        assert_eq!(parse(&list, None, &dup).err(), Some(EglError::BadParameter));
    }

    #[test]
    fn an_incomplete_list_is_bad_parameter() {
        for missing in 0..6 {
            let mut list = complete();
            list.remove(missing);
            assert_eq!(
                parse(&list, None, &dup).err(),
                Some(EglError::BadParameter),
                "without attribute {missing}"
            );
        }
    }

    #[test]
    fn the_other_errors_are_the_extensions() {
        let with = |name, value| {
            let mut list = complete();
            list.push((name, value));
            parse(&list, None, &dup).err()
        };
        assert_eq!(with(0x3099, 1), Some(EglError::BadParameter), "unknown");
        assert_eq!(
            with(PLANES[1][0], 5),
            Some(EglError::BadAttribute),
            "plane 1"
        );
        assert_eq!(with(FOURCC, 0x3231_564E), Some(EglError::BadMatch), "NV12");
        assert_eq!(with(WIDTH, 0), Some(EglError::BadParameter), "no width");
        assert_eq!(
            with(PLANES[0][0], 9),
            Some(EglError::BadParameter),
            "no descriptor"
        );
        assert_eq!(with(HINTS[0], 0x327F), None, "a hint is passed on");
        assert_eq!(
            parse(&complete(), Some(&[0x3432_5258]), &dup).err(),
            Some(EglError::BadMatch),
            "a fourcc the display does not list"
        );
    }
}
