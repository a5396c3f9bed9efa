//! Replays a capture of Tessera's record stream (`TESSERA_CAPTURE=FILE`) without the
//! program that made it.
//!
//! Usage: `tessera-replay FILE [--backend null|gles|vulkan|auto] [--transport T]
//! [--frames N..M] [--png DIR] [--hash]`, or `tessera-replay FILE --compare A,B [--bisect]`
//!
//! The batches go to the backend (default `auto`) through the transport (default `inproc`;
//! any `TESSERA_TRANSPORT` value) and the one dispatcher, as the program's did. Every frame
//! before `--frames`' range is replayed too (it builds the state the range draws with) but
//! not reported. One line per frame reported:
//!
//! `frame N records R batches B hash H cpu_us C`
//!
//! `H` is the FNV-1a hash (16 hex digits) of the presented surface's RGBA8 pixels, read back
//! just before the frame's `Present`, rows from the bottom up — the bytes
//! `glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE)` returns — and `-` without `--hash`
//! or `--png`. `C` is the process's CPU time (every thread: render threads, the driver's)
//! spent replaying the frame, its work finished. `--png DIR` writes `DIR/frame-NNNNNN.png`
//! of each reported frame. A last line says how many frames were replayed and, for a file
//! cut short (a program killed while capturing), where reading stopped. A capture written
//! by a build with other records is refused, naming both builds; exit status 1 then, and
//! when the backend ends the session; 2 for bad arguments.
//!
//! `--compare A,B` replays every frame on backends `A` and `B` and prints
//! `frame N A HASH B HASH same|differ`, then names the first frame whose images differ (exit
//! status 3) or says there is none. `--fault-skip-draw N` leaves the `N`th draw (from 0)
//! out of `B`'s replay: a fault injected to test the comparison. With `--bisect`, the
//! first differing frame is narrowed to a record: each try replays the frames before it
//! and the frame's first `k` records on fresh backends and compares the presented
//! surface's images as they left it, a binary search on `k`; the line
//! `first differing record: frame N record K KIND` names the record (`K` from 0 among the
//! frame's records, `KIND` its variant name) after which the images first differ.

/// `println!` that ends the program quietly when its reader has gone (`tessera-replay ... |
/// head`): what was asked for has been read.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($t)*).is_err() {
            std::process::exit(0);
        }
    }};
}

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use tessera_tests::measure::process_cpu_ns;
use tessera_wire::capture::{CaptureReader, CapturedFrame, FrameImage, Replayer};
use tessera_wire::transport::connect;
use tessera_wire::{Backend, TransportKind};

fn main() {
    let mut file = None;
    let mut backend = "auto".to_owned();
    let mut transport = TransportKind::Inproc;
    let mut frames: RangeInclusive<u64> = 0..=u64::MAX;
    let mut png_dir: Option<PathBuf> = None;
    let mut hash = false;
    let mut compare: Option<(String, String)> = None;
    let mut skip_draw: Option<u64> = None;
    let mut bisect = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--hash" => hash = true,
            "--bisect" => bisect = true,
            "--backend" => {
                backend = args
                    .next()
                    .unwrap_or_else(|| usage("--backend takes a name"))
            }
            "--transport" => {
                let v = args
                    .next()
                    .unwrap_or_else(|| usage("--transport takes a kind"));
                transport = TransportKind::parse(&v)
                    .unwrap_or_else(|| usage(&format!("--transport: unknown kind {v:?}")));
            }
            "--frames" => {
                let v = args.next().unwrap_or_else(|| usage("--frames takes N..M"));
                frames = tessera_wire::capture::parse_frames(&v)
                    .unwrap_or_else(|| usage(&format!("--frames: {v:?}")));
            }
            "--compare" => {
                let v = args.next().unwrap_or_else(|| usage("--compare takes A,B"));
                let (a, b) = v
                    .split_once(',')
                    .unwrap_or_else(|| usage("--compare takes two backends, A,B"));
                compare = Some((a.to_owned(), b.to_owned()));
            }
            "--fault-skip-draw" => {
                let v = args
                    .next()
                    .unwrap_or_else(|| usage("--fault-skip-draw takes N"));
                skip_draw = Some(
                    v.parse()
                        .unwrap_or_else(|_| usage(&format!("--fault-skip-draw: {v:?}"))),
                );
            }
            "--png" => {
                png_dir = Some(
                    args.next()
                        .unwrap_or_else(|| usage("--png takes a directory"))
                        .into(),
                )
            }
            _ if a.starts_with("--") => usage(&format!("unknown argument {a}")),
            _ if file.is_none() => file = Some(PathBuf::from(a)),
            _ => usage(&format!("one capture file only ({a:?})")),
        }
    }
    let file = file.unwrap_or_else(|| usage("no capture file"));
    let mut reader = CaptureReader::open(&file).unwrap_or_else(|e| {
        eprintln!("tessera-replay: {}: {e}", file.display());
        std::process::exit(1);
    });
    if let Some((a, b)) = compare {
        return run_compare(&file, &mut reader, &transport, (&a, &b), skip_draw, bisect);
    }
    let backend = make_backend(&backend).unwrap_or_else(|e| {
        eprintln!("tessera-replay: {e}");
        std::process::exit(1);
    });
    if let Some(dir) = &png_dir
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("tessera-replay: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let read_back = hash || png_dir.is_some();
    let mut replayer = Replayer::new(connect(&transport, backend));
    let mut reported = 0u64;
    let mut cpu_total = 0u64;
    while let Some(frame) = reader.next_frame() {
        if frame.index > *frames.end() {
            break;
        }
        let report = frames.contains(&frame.index);
        let (u0, s0) = process_cpu_ns();
        let replayed = replayer
            .replay(&frame, read_back && report)
            .unwrap_or_else(|e| {
                eprintln!("tessera-replay: {e}");
                std::process::exit(1);
            });
        let (u1, s1) = process_cpu_ns();
        if !report {
            continue;
        }
        let cpu = (u1 + s1).saturating_sub(u0 + s0);
        cpu_total += cpu;
        reported += 1;
        let hash = replayed
            .image
            .as_ref()
            .map_or_else(|| "-".to_owned(), |i| format!("{:016x}", i.hash()));
        out!(
            "frame {} records {} batches {} hash {hash} cpu_us {}",
            replayed.index,
            replayed.records,
            replayed.batches,
            cpu / 1000
        );
        if let (Some(dir), Some(image)) = (&png_dir, &replayed.image) {
            let path = dir.join(format!("frame-{:06}.png", replayed.index));
            if let Err(e) = write_png(&path, image) {
                eprintln!("tessera-replay: writing {}: {e}", path.display());
                std::process::exit(1);
            }
        }
    }
    let stopped = match (reader.stopped(), reader.trailing()) {
        (Some(why), left) => format!(
            "; reading stopped: {why} ({left} batches after the last complete frame left out)"
        ),
        (None, 0) => String::new(),
        (None, left) => format!("; {left} batches after the last swap not replayed"),
    };
    out!(
        "replayed {reported} frames, {} us CPU per frame, Tessera {} capture{stopped}",
        cpu_total / reported.max(1) / 1000,
        reader.header().tessera
    );
}

/// `--compare A,B`: replays every frame on both backends, prints both hashes per frame, and
/// names the first frame whose images differ (exit status 3 then); with `bisect`, also the
/// record of that frame after which they first differ. `skip_draw` injects a fault into
/// B's replay: its `N`th draw is left out.
fn run_compare(
    file: &Path,
    reader: &mut CaptureReader,
    transport: &TransportKind,
    (a, b): (&str, &str),
    skip_draw: Option<u64>,
    bisect: bool,
) {
    let replayers = || {
        let first = Replayer::new(connect(
            transport,
            make_backend(a).unwrap_or_else(|e| fail(e)),
        ));
        let mut second = Replayer::new(connect(
            transport,
            make_backend(b).unwrap_or_else(|e| fail(e)),
        ));
        if let Some(n) = skip_draw {
            second.skip_draw(n);
        }
        (first, second)
    };
    let (mut first, mut second) = replayers();
    let hash = |f: &tessera_wire::capture::ReplayedFrame| {
        f.image
            .as_ref()
            .map_or_else(|| "-".to_owned(), |i| format!("{:016x}", i.hash()))
    };
    let mut differs = None;
    let mut frames = 0u64;
    while let Some(frame) = reader.next_frame() {
        let x = first
            .replay(&frame, true)
            .unwrap_or_else(|e| fail(format!("{a}: {e}")));
        let y = second
            .replay(&frame, true)
            .unwrap_or_else(|e| fail(format!("{b}: {e}")));
        let same = x.image == y.image;
        out!(
            "frame {} {a} {} {b} {} {}",
            frame.index,
            hash(&x),
            hash(&y),
            if same { "same" } else { "differ" }
        );
        frames += 1;
        if !same && differs.is_none() {
            differs = Some(frame.index);
        }
    }
    match differs {
        Some(n) => {
            out!("first difference: frame {n} ({a} and {b} differ from there)");
            if bisect {
                drop((first, second));
                bisect_frame(file, n, (a, b), replayers);
            }
            std::process::exit(3);
        }
        None => out!("no difference between {a} and {b} in {frames} frames"),
    }
}

/// `--bisect`: finds the record of frame `n` after which the images of the two backends
/// first differ, by a binary search on how many of its records are replayed (each try on
/// fresh backends from `replayers`, the frames before `n` replayed whole), and prints it.
fn bisect_frame(
    file: &Path,
    n: u64,
    (a, b): (&str, &str),
    replayers: impl Fn() -> (Replayer, Replayer),
) {
    let mut reader = CaptureReader::open(file).unwrap_or_else(|e| fail(e.to_string()));
    let frames: Vec<CapturedFrame> = std::iter::from_fn(|| reader.next_frame())
        .take_while(|f| f.index <= n)
        .collect();
    let Some((frame, before)) = frames.split_last().filter(|(f, _)| f.index == n) else {
        fail(format!("frame {n} is no longer in {}", file.display()));
    };
    let kinds = frame.record_kinds();
    let differ = |k: u64| {
        let (mut x, mut y) = replayers();
        for f in before {
            x.replay(f, false)
                .unwrap_or_else(|e| fail(format!("{a}: {e}")));
            y.replay(f, false)
                .unwrap_or_else(|e| fail(format!("{b}: {e}")));
        }
        let x = x
            .replay_prefix(frame, k)
            .unwrap_or_else(|e| fail(format!("{a}: {e}")));
        let y = y
            .replay_prefix(frame, k)
            .unwrap_or_else(|e| fail(format!("{b}: {e}")));
        x.image != y.image
    };
    // The images are compared before the frame's `Present`, as `--compare` compares them.
    let end = kinds
        .iter()
        .position(|k| k == "Present")
        .unwrap_or(kinds.len()) as u64;
    if differ(0) {
        out!("first differing record: none, frame {n} starts with different images");
        return;
    }
    let (mut same, mut differs) = (0u64, end);
    while differs - same > 1 {
        let mid = same + (differs - same) / 2;
        if differ(mid) {
            differs = mid;
        } else {
            same = mid;
        }
    }
    let at = differs - 1;
    out!(
        "first differing record: frame {n} record {at} {}",
        kinds.get(at as usize).map_or("?", String::as_str)
    );
}

/// Ends the process for an error of a replay or a capture (exit status 1).
fn fail(e: String) -> ! {
    eprintln!("tessera-replay: {e}");
    std::process::exit(1);
}

/// `N..M` (inclusive of both, as frame numbers are), `N..` or `N`.
fn make_backend(name: &str) -> Result<Box<dyn Backend>, String> {
    fn boxed(b: impl Backend + 'static) -> Box<dyn Backend> {
        Box::new(b)
    }
    match name.to_ascii_lowercase().as_str() {
        "null" => Ok(boxed(tessera_wire::null::NullBackend::new(false).0)),
        "gles" => tessera_backend_gles::GlesBackend::new()
            .map(boxed)
            .map_err(|e| format!("the gles backend: {e}")),
        "vulkan" | "vk" => tessera_backend_vk::VulkanBackend::new()
            .map(boxed)
            .map_err(|e| format!("the vulkan backend: {e}")),
        "auto" => tessera_engine::auto::backend().map_err(|e| e.to_string()),
        other => Err(format!(
            "no backend named {other:?} (null, gles, vulkan, auto)"
        )),
    }
}

/// Writes an image read back bottom-up as a PNG (rows top-down).
fn write_png(path: &Path, image: &FrameImage) -> Result<(), Box<dyn std::error::Error>> {
    let row = image.width as usize * 4;
    let mut flipped = Vec::with_capacity(image.rgba.len());
    for r in image.rgba.chunks_exact(row.max(1)).rev() {
        flipped.extend_from_slice(r);
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&flipped)?;
    Ok(())
}

fn usage(msg: &str) -> ! {
    eprintln!(
        "tessera-replay: {msg}\nusage: tessera-replay FILE [--backend null|gles|vulkan|auto] \
         [--transport T] [--frames N..M] [--png DIR] [--hash] | --compare A,B \
         [--bisect] [--fault-skip-draw N]"
    );
    std::process::exit(2);
}
