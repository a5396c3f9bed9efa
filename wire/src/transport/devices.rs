//! The devices a server places its sessions on: one neutral list, whoever found it.
//!
//! A server learns its devices at one point, [`discover`]: the drivers' own enumeration
//! (Vulkan physical devices, native EGL devices — probed by the backend crates, which may use
//! `unsafe`, and handed in as [`Probe`]s), or, when a **topology** file is given, the devices
//! it describes instead. Placement (`placement.rs`), memory accounting and `tessera-server
//! status` see the same [`Device`] list either way, so a machine nobody has (four GPUs, a
//! device that is lost after a minute) runs the real placement code on any machine.
//!
//! A described device is **synthetic**: its sessions run on a real software driver, the one
//! its `backend` names (`vulkan`: lavapipe; `gles`: llvmpipe), with the name, UUID, kind,
//! memory budget and relative speed the file gives. The topology is JSON:
//!
//! ```json
//! {
//!   "session_memory_mib": 64,
//!   "devices": [
//!     { "name": "big", "uuid": "00000000-0000-0000-0000-000000000001", "kind": "discrete",
//!       "budget_mib": 512, "speed": 4, "backend": "vulkan",
//!       "events": [ { "at_s": 30, "budget_mib": 128 } ] }
//!   ]
//! }
//! ```
//!
//! `session_memory_mib` (default [`DEFAULT_SESSION_MEMORY`]) is what a session is charged
//! against its device's budget; `kind` is `discrete`, `integrated`, `virtual` or `cpu`;
//! `uuid` is 32 hex digits, dashes allowed (default: the device's index); `speed` defaults to
//! 1; an event at `at_s` seconds after the server started, or once the device's sessions
//! applied `after_frames` frames in all (batches, as they report them every half second),
//! sets a new budget (memory pressure: `budget_mib`) or loses the device (`"lost": true`: it
//! takes no new session, and its sessions end with a context reset).

use std::fmt::Write as _;
use std::path::Path;

/// What a session is charged against its device's memory budget unless the topology says
/// otherwise: 64 MiB, about what an idle session of either backend holds on a software
/// driver.
pub const DEFAULT_SESSION_MEMORY: u64 = 64 << 20;

/// What sort of device it is, as Vulkan's `VkPhysicalDeviceType` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeviceKind {
    /// A GPU of its own.
    Discrete,
    /// A GPU sharing the CPU's package and memory.
    Integrated,
    /// A GPU of a virtual machine.
    Virtual,
    /// A software rasterizer (lavapipe, llvmpipe, SwiftShader).
    Cpu,
    /// Anything else.
    Other,
}

impl DeviceKind {
    /// Parses the topology's (and status's) name of a kind.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "discrete" => Some(Self::Discrete),
            "integrated" => Some(Self::Integrated),
            "virtual" => Some(Self::Virtual),
            "cpu" => Some(Self::Cpu),
            "other" => Some(Self::Other),
            _ => None,
        }
    }

    /// The kind's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Discrete => "discrete",
            Self::Integrated => "integrated",
            Self::Virtual => "virtual",
            Self::Cpu => "cpu",
            Self::Other => "other",
        }
    }
}

/// A scripted event of a synthetic device, and when it happens: once `at_secs` have passed
/// since the server started and, if `after_frames` is given, once the device's sessions
/// applied that many frames (batches) in all.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceEvent {
    /// Seconds after the device list was made (0 for an event on frames alone).
    pub at_secs: f64,
    /// Frames (batches applied, as its sessions report them) the device must have served.
    pub after_frames: Option<u64>,
    /// What happens.
    pub what: EventKind,
}

/// A scripted event of a synthetic device.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// Memory pressure: the budget becomes this many bytes.
    Budget(u64),
    /// The device is lost: it takes no new session.
    Lost,
}

/// One device a session can be placed on.
#[derive(Clone, Debug, PartialEq)]
pub struct Device {
    /// Its name, in the driver's words (or the topology's).
    pub name: String,
    /// Its vendor (the PCI vendor id in hex, or the driver's name for it).
    pub vendor: String,
    /// Its UUID (Vulkan's `deviceUUID`; the topology's for a synthetic device).
    pub uuid: [u8; 16],
    /// What sort of device it is.
    pub kind: DeviceKind,
    /// The backends that can drive it, first the one an `auto` session gets.
    pub backends: Vec<String>,
    /// The memory sessions may use on it, in bytes (Vulkan: the budget of its largest
    /// device-local heap, live where `VK_EXT_memory_budget` is present).
    pub budget: u64,
    /// How fast it is relative to the others (larger is faster).
    pub speed: f64,
    /// A few of its limits, by name, for status.
    pub limits: Vec<(String, u64)>,
    /// Described by a topology: its sessions run on the software driver of its backend.
    pub synthetic: bool,
    /// Its scripted events (synthetic devices only).
    pub events: Vec<DeviceEvent>,
}

/// The server's devices, and what a session costs on one.
#[derive(Clone, Debug, PartialEq)]
pub struct Topology {
    /// The devices, in index order.
    pub devices: Vec<Device>,
    /// Bytes a session is charged against its device's budget.
    pub session_memory: u64,
}

/// A driver's enumeration of its devices (the backend crates provide them).
pub type Probe = dyn Fn() -> Vec<Device>;

/// The one place a server learns its devices: the topology file's, when one is given
/// (`tessera-server --topology FILE`), else what every probe finds, in order. Production and
/// tests go through this same call.
pub fn discover(topology: Option<&Path>, probes: &[&Probe]) -> Result<Topology, String> {
    if let Some(path) = topology {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("reading the topology {}: {e}", path.display()))?;
        return parse_topology(&text).map_err(|e| format!("topology {}: {e}", path.display()));
    }
    Ok(Topology {
        devices: probes.iter().flat_map(|probe| probe()).collect(),
        session_memory: DEFAULT_SESSION_MEMORY,
    })
}

/// Parses a topology (the module's documentation gives its form).
pub fn parse_topology(text: &str) -> Result<Topology, String> {
    let root: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mib = |v: &serde_json::Value, what: &str| -> Result<u64, String> {
        v.as_f64()
            .filter(|m| *m >= 0.0)
            .map(|m| (m * f64::from(1u32 << 20)) as u64)
            .ok_or_else(|| format!("{what} is not a number of MiB"))
    };
    let session_memory = match root.get("session_memory_mib") {
        Some(v) => mib(v, "session_memory_mib")?,
        None => DEFAULT_SESSION_MEMORY,
    };
    let list = root
        .get("devices")
        .and_then(|d| d.as_array())
        .ok_or("no \"devices\" array")?;
    let mut devices = Vec::new();
    for (index, d) in list.iter().enumerate() {
        let field = |name: &str| d.get(name);
        let text = |name: &str| field(name).and_then(|v| v.as_str());
        let at = |what: &str| format!("device {index}: {what}");
        let name = text("name").ok_or_else(|| at("no name"))?.to_owned();
        let kind = text("kind").unwrap_or("discrete");
        let kind = DeviceKind::parse(kind).ok_or_else(|| {
            at(&format!(
                "kind {kind:?} is not discrete, integrated, virtual or cpu"
            ))
        })?;
        let backend = text("backend").unwrap_or("vulkan");
        if backend != "vulkan" && backend != "gles" {
            return Err(at(&format!("backend {backend:?} is not vulkan or gles")));
        }
        let uuid = match text("uuid") {
            Some(u) => {
                parse_uuid(u).ok_or_else(|| at(&format!("uuid {u:?} is not 32 hex digits")))?
            }
            None => {
                let mut u = [0u8; 16];
                u[8..].copy_from_slice(&(index as u64).to_be_bytes());
                u
            }
        };
        let budget = mib(
            field("budget_mib").ok_or_else(|| at("no budget_mib"))?,
            "budget_mib",
        )
        .map_err(|e| at(&e))?;
        let speed = match field("speed") {
            Some(v) => v
                .as_f64()
                .filter(|s| *s > 0.0)
                .ok_or_else(|| at("speed is not a positive number"))?,
            None => 1.0,
        };
        let mut events = Vec::new();
        for e in field("events")
            .and_then(|e| e.as_array())
            .into_iter()
            .flatten()
        {
            let after_frames = match e.get("after_frames") {
                Some(v) => Some(
                    v.as_u64()
                        .ok_or_else(|| at("after_frames is not a count of frames"))?,
                ),
                None => None,
            };
            let at_secs = match e.get("at_s") {
                Some(v) => v
                    .as_f64()
                    .filter(|s| *s >= 0.0)
                    .ok_or_else(|| at("at_s is not a number of seconds"))?,
                None if after_frames.is_some() => 0.0,
                None => return Err(at("an event without at_s or after_frames")),
            };
            let what = if e.get("lost").and_then(|v| v.as_bool()) == Some(true) {
                EventKind::Lost
            } else if let Some(v) = e.get("budget_mib") {
                EventKind::Budget(mib(v, "budget_mib").map_err(|e| at(&e))?)
            } else {
                return Err(at("an event that is neither lost nor budget_mib"));
            };
            events.push(DeviceEvent {
                at_secs,
                after_frames,
                what,
            });
        }
        devices.push(Device {
            name,
            vendor: text("vendor").unwrap_or("synthetic").to_owned(),
            uuid,
            kind,
            backends: vec![backend.to_owned()],
            budget,
            speed,
            limits: Vec::new(),
            synthetic: true,
            events,
        });
    }
    if devices.is_empty() {
        return Err("no device described".to_owned());
    }
    Ok(Topology {
        devices,
        session_memory,
    })
}

/// Parses a UUID: 32 hex digits, dashes anywhere.
pub fn parse_uuid(text: &str) -> Option<[u8; 16]> {
    let digits: Vec<u8> = text.bytes().filter(|b| *b != b'-').collect();
    if digits.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, pair) in digits.chunks(2).enumerate() {
        out[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

/// A UUID as `8-4-4-4-12` hex digits.
pub fn uuid_text(uuid: &[u8; 16]) -> String {
    let mut s = String::with_capacity(36);
    for (i, b) in uuid.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_topology_parses_with_its_defaults() {
        let t = parse_topology(
            r#"{"session_memory_mib": 32, "devices": [
                {"name": "a", "kind": "integrated", "budget_mib": 256, "backend": "gles",
                 "uuid": "00112233-4455-6677-8899-aabbccddeeff",
                 "events": [{"at_s": 2, "budget_mib": 64}, {"after_frames": 30, "lost": true}]},
                {"name": "b", "budget_mib": 1024, "speed": 2.5}]}"#,
        )
        .unwrap();
        assert_eq!(t.session_memory, 32 << 20);
        let a = &t.devices[0];
        assert_eq!(
            (a.kind, a.budget, a.speed, a.backends.as_slice()),
            (
                DeviceKind::Integrated,
                256 << 20,
                1.0,
                &["gles".to_owned()][..]
            )
        );
        assert_eq!(uuid_text(&a.uuid), "00112233-4455-6677-8899-aabbccddeeff");
        assert_eq!(
            a.events,
            vec![
                DeviceEvent {
                    at_secs: 2.0,
                    after_frames: None,
                    what: EventKind::Budget(64 << 20)
                },
                DeviceEvent {
                    at_secs: 0.0,
                    after_frames: Some(30),
                    what: EventKind::Lost
                }
            ]
        );
        let b = &t.devices[1];
        assert_eq!(
            (b.kind, b.speed, b.backends[0].as_str()),
            (DeviceKind::Discrete, 2.5, "vulkan")
        );
        assert_eq!(uuid_text(&b.uuid), "00000000-0000-0000-0000-000000000001");
    }

    #[test]
    fn a_bad_topology_says_what_is_wrong() {
        let err = |text: &str| parse_topology(text).unwrap_err();
        assert_eq!(err(r#"{"devices": []}"#), "no device described");
        assert_eq!(
            err(r#"{"devices": [{"name": "x", "budget_mib": 1, "kind": "gpu"}]}"#),
            "device 0: kind \"gpu\" is not discrete, integrated, virtual or cpu"
        );
        assert_eq!(
            err(r#"{"devices": [{"name": "x", "budget_mib": 1, "backend": "metal"}]}"#),
            "device 0: backend \"metal\" is not vulkan or gles"
        );
        assert_eq!(
            err(r#"{"devices": [{"name": "x"}]}"#),
            "device 0: no budget_mib"
        );
    }
}
