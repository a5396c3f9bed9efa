//! Which device a new session runs on: the server's placement policy over its device list
//! (`devices.rs`).
//!
//! Every session that needs a device (any backend but `null`) is placed once, before its
//! worker or thread gets it, from its Hello: the backend asked for, the device the client
//! pinned (`TESSERA_DEVICE`, the engine's `Config::device`: an index, a UUID or a name) and
//! who the client is. A device takes a session only while it is not lost and the session's
//! charge ([`super::devices::Topology::session_memory`]) fits in what is left of its budget
//! (a device whose budget is exhausted takes no new session), and only for a backend that
//! can drive it (`auto`: its first). A pin is honoured under every policy; a pin to a device
//! that does not exist, cannot run the backend or has no memory left is refused with the
//! reason, naming the devices that exist — the client reports it as its context creation's
//! error. Unpinned sessions go where the [`Policy`] says:
//!
//! - `pinned`: the first device (by index) with room, as a one-device server would;
//! - `least-loaded`: the lowest `(sessions + memory in use / budget) / speed`, the new
//!   session counted in;
//! - `round-robin`: the next device with room after the last one chosen;
//! - `prefer-discrete`: the least loaded of the best kind with room (discrete, then
//!   integrated, virtual, cpu);
//! - `affinity`: the device holding most of the client's live sessions (a client is its
//!   process; over TCP its address) while it has room, else the least loaded.
//!
//! A pin of two devices joined by `+` (`TESSERA_DEVICE=0+1`) asks for alternate-frame
//! rendering (`afr.rs`): the session runs on both, each charged, under any policy; it is
//! refused, naming the devices, unless both exist, differ, have room and run its backend.
//!
//! Memory in use on a device is measured: each session is charged
//! [`super::devices::Topology::session_memory`] when it is placed, and from its first
//! progress report on (every half second while it applies batches) it counts the larger of
//! that charge and the device memory its backend holds
//! ([`crate::BackendCounters::device_memory`]: Vulkan's allocator blocks, GLES's estimate of
//! its buffers and textures; an alternate-frame session's memory is split over its two
//! devices). So a session that grows past its charge fills its device for the next one, and
//! `least-loaded` weighs what sessions really hold. The status prints each session's
//! measured memory next to its charge, and each device's total.
//!
//! Each decision is logged with its reason by the server. Released sessions give what they
//! counted back.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::devices::{Device, DeviceKind, EventKind, Topology, parse_uuid, uuid_text};

/// How unpinned sessions are placed (`tessera-server --placement POLICY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The first device with room.
    Pinned,
    /// The least loaded device, weighted by speed.
    LeastLoaded,
    /// Each device in turn.
    RoundRobin,
    /// Discrete devices first, least loaded among them.
    PreferDiscrete,
    /// A client's sessions together.
    Affinity,
}

impl Policy {
    /// Parses a policy's name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "pinned" => Some(Self::Pinned),
            "least-loaded" => Some(Self::LeastLoaded),
            "round-robin" => Some(Self::RoundRobin),
            "prefer-discrete" => Some(Self::PreferDiscrete),
            "affinity" => Some(Self::Affinity),
            _ => None,
        }
    }

    /// The policy's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pinned => "pinned",
            Self::LeastLoaded => "least-loaded",
            Self::RoundRobin => "round-robin",
            Self::PreferDiscrete => "prefer-discrete",
            Self::Affinity => "affinity",
        }
    }
}

/// What a session asks of placement.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The session's number.
    pub session: u64,
    /// The backend asked for (`gles`, `vulkan`, `auto`).
    pub backend: &'a str,
    /// The device the client pinned: an index, a UUID or a name.
    pub pin: Option<&'a str>,
    /// Who the client is (its affinity key).
    pub client: &'a str,
}

/// Where a session goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// The device's index.
    pub index: usize,
    /// The device.
    pub device: Device,
    /// The backend to make on it.
    pub backend: String,
    /// Why, for the log.
    pub reason: String,
    /// The second device of an alternate-frame session, with its index.
    pub alternate: Option<(usize, Device)>,
}

/// A device's load now.
#[derive(Clone, Debug, Default)]
struct Live {
    sessions: usize,
    memory: u64,
    budget: u64,
    lost: bool,
    /// Which of its scripted events happened.
    done: Vec<bool>,
    /// Frames its ended sessions applied.
    frames_done: u64,
}

/// The placement state of a server: its devices, their loads and the live sessions.
#[derive(Debug)]
pub struct Placer {
    topology: Topology,
    policy: Policy,
    live: Vec<Live>,
    cursor: usize,
    started: Instant,
    /// Live sessions: their device and client.
    sessions: HashMap<u64, (usize, String)>,
    /// The second device of each live alternate-frame session.
    alternates: HashMap<u64, usize>,
    /// Devices lost since [`Placer::take_lost`] last took them.
    newly_lost: Vec<usize>,
    /// Live sessions' last two reports of batches applied, with when they came.
    progress: HashMap<u64, [(Instant, u64); 2]>,
    /// Live sessions' device memory as last reported (bytes; absent before the first report).
    measured: HashMap<u64, u64>,
}

const MIB: f64 = (1u64 << 20) as f64;

impl Placer {
    /// Placement over `topology` by `policy`; the scripted events' clock starts now.
    pub fn new(topology: Topology, policy: Policy) -> Self {
        let live = topology
            .devices
            .iter()
            .map(|d| Live {
                budget: d.budget,
                ..Live::default()
            })
            .collect();
        Self {
            topology,
            policy,
            live,
            cursor: 0,
            started: Instant::now(),
            sessions: HashMap::new(),
            alternates: HashMap::new(),
            newly_lost: Vec::new(),
            progress: HashMap::new(),
            measured: HashMap::new(),
        }
    }

    /// What `session` counts against each of its devices: its charge, or what it measured
    /// there if more (an alternate-frame session: half its memory on each device).
    fn held(&self, session: u64) -> u64 {
        let devices = if self.alternates.contains_key(&session) {
            2
        } else {
            1
        };
        let measured = self.measured.get(&session).copied().unwrap_or(0) / devices;
        measured.max(self.topology.session_memory)
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The devices.
    pub fn devices(&self) -> &[Device] {
        &self.topology.devices
    }

    /// Every device on a line of its own, for the log.
    pub fn devices_text(&self) -> String {
        (0..self.live.len())
            .map(|i| format!("  {}", self.describe(i)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Frames (batches) device `index`'s sessions applied, ended ones included.
    fn device_frames(&self, index: usize) -> u64 {
        self.live[index].frames_done
            + self
                .sessions
                .iter()
                .filter(|(_, (device, _))| *device == index)
                .filter_map(|(id, _)| self.progress.get(id).map(|p| p[1].1))
                .sum::<u64>()
    }

    /// Applies the scripted events due `elapsed` after the start (and after the frames the
    /// devices served so far).
    pub fn advance(&mut self, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        for index in 0..self.live.len() {
            let frames = self.device_frames(index);
            let device = &self.topology.devices[index];
            let live = &mut self.live[index];
            live.done.resize(device.events.len(), false);
            for (k, event) in device.events.iter().enumerate() {
                if live.done[k]
                    || event.at_secs > secs
                    || event.after_frames.is_some_and(|n| frames < n)
                {
                    continue;
                }
                live.done[k] = true;
                let when = match event.after_frames {
                    Some(n) => format!("after {n} frames"),
                    None => format!("at {} s", event.at_secs),
                };
                match event.what {
                    EventKind::Budget(bytes) => {
                        log::warn!(
                            "device {index} ({}): memory pressure (scripted {when}): its budget \
                             is now {:.0} MiB",
                            device.name,
                            bytes as f64 / MIB
                        );
                        live.budget = bytes;
                    }
                    EventKind::Lost if !live.lost => {
                        log::warn!(
                            "device {index} ({}): lost (scripted {when}); it takes no new \
                             session",
                            device.name,
                        );
                        live.lost = true;
                        self.newly_lost.push(index);
                    }
                    EventKind::Lost => {}
                }
            }
        }
    }

    /// How long until the next scripted event is due (`None`: none is left).
    pub fn next_event(&self) -> Option<Duration> {
        let secs = self.started.elapsed().as_secs_f64();
        self.topology
            .devices
            .iter()
            .flat_map(|d| d.events.iter())
            .filter(|e| e.after_frames.is_none())
            .map(|e| e.at_secs)
            .filter(|at| *at > secs)
            .min_by(f64::total_cmp)
            .map(|at| Duration::from_secs_f64(at - secs))
    }

    /// Loses device `index` now (`tessera-server lose`, a synthetic device only): it takes no
    /// new session; its sessions are for the server to end ([`Placer::take_lost`]).
    pub fn lose(&mut self, index: usize) -> Result<(), String> {
        let Some(device) = self.topology.devices.get(index) else {
            return Err(format!("no device {index}; its devices: {}", self.listed()));
        };
        if !device.synthetic {
            return Err(format!(
                "device {index} ({}) is a real device; only a topology's devices can be lost on \
                 request",
                device.name
            ));
        }
        if !self.live[index].lost {
            log::warn!(
                "device {index} ({}): lost (on request); it takes no new session",
                device.name
            );
            self.live[index].lost = true;
            self.newly_lost.push(index);
        }
        Ok(())
    }

    /// The devices lost since the last call, each with its live sessions (which the server
    /// ends: their clients see a context reset, as for a dead server).
    pub fn take_lost(&mut self) -> Vec<(usize, Vec<u64>)> {
        self.advance(self.started.elapsed());
        let lost = std::mem::take(&mut self.newly_lost);
        lost.into_iter()
            .map(|index| {
                let mut ids: Vec<u64> = self
                    .sessions
                    .iter()
                    .filter(|(id, (d, _))| *d == index || self.alternates.get(*id) == Some(&index))
                    .map(|(id, _)| *id)
                    .collect();
                ids.sort_unstable();
                (index, ids)
            })
            .collect()
    }

    fn can_drive(&self, index: usize, backend: &str) -> Option<String> {
        let backends = &self.topology.devices[index].backends;
        if backend == "auto" {
            backends.first().cloned()
        } else {
            backends.iter().find(|b| *b == backend).cloned()
        }
    }

    fn has_room(&self, index: usize) -> bool {
        let live = &self.live[index];
        !live.lost && live.memory + self.topology.session_memory <= live.budget
    }

    /// The device's load with one more session: `(sessions + memory in use / budget) /
    /// speed`, counting the new session in, so a fast device takes more sessions than a slow
    /// one before it counts as the busier.
    fn score(&self, index: usize) -> f64 {
        let live = &self.live[index];
        let memory = live.memory + self.topology.session_memory;
        let memory = if live.budget == 0 {
            1.0
        } else {
            memory as f64 / live.budget as f64
        };
        (live.sessions as f64 + 1.0 + memory) / self.topology.devices[index].speed
    }

    fn describe(&self, index: usize) -> String {
        let d = &self.topology.devices[index];
        let live = &self.live[index];
        format!(
            "{index}: {} ({}, {}, {} session(s), {:.0} of {:.0} MiB{})",
            d.name,
            d.kind.name(),
            uuid_text(&d.uuid),
            live.sessions,
            live.memory as f64 / MIB,
            live.budget as f64 / MIB,
            if live.lost { ", lost" } else { "" }
        )
    }

    /// Every device, described, for a refusal.
    fn listed(&self) -> String {
        (0..self.live.len())
            .map(|i| self.describe(i))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The device `pin` names: its index, its UUID, its name, or a part of its name.
    fn find(&self, pin: &str) -> Option<usize> {
        let devices = &self.topology.devices;
        let pin = pin.trim();
        if let Ok(i) = pin.parse::<usize>() {
            return (i < devices.len()).then_some(i);
        }
        if let Some(uuid) = parse_uuid(pin) {
            return devices.iter().position(|d| d.uuid == uuid);
        }
        let lower = pin.to_lowercase();
        devices
            .iter()
            .position(|d| d.name.to_lowercase() == lower)
            .or_else(|| {
                devices
                    .iter()
                    .position(|d| d.name.to_lowercase().contains(&lower))
            })
    }

    /// The least loaded of `candidates` (ties: the lower index).
    fn least_loaded(&self, candidates: impl Iterator<Item = usize>) -> Option<usize> {
        candidates.min_by(|a, b| self.score(*a).total_cmp(&self.score(*b)).then(a.cmp(b)))
    }

    /// Places a session, or says why it cannot run anywhere.
    pub fn place(&mut self, request: &Request<'_>) -> Result<Placed, String> {
        self.advance(self.started.elapsed());
        if let Some((a, b)) = request.pin.and_then(|p| p.split_once('+')) {
            return self.place_alternate(request, [a, b]);
        }
        let (index, why) = self.choose(request)?;
        let backend = self
            .can_drive(index, request.backend)
            .unwrap_or_else(|| request.backend.to_owned());
        let live = &mut self.live[index];
        live.sessions += 1;
        live.memory += self.topology.session_memory;
        self.sessions
            .insert(request.session, (index, request.client.to_owned()));
        let reason = format!("{why}; now {}", self.describe(index));
        Ok(Placed {
            index,
            device: self.topology.devices[index].clone(),
            backend,
            reason,
            alternate: None,
        })
    }

    /// Places an alternate-frame session on the two devices `pins` name, or says why not.
    fn place_alternate(
        &mut self,
        request: &Request<'_>,
        pins: [&str; 2],
    ) -> Result<Placed, String> {
        let pin = request.pin.unwrap_or_default();
        let mut chosen = [0usize; 2];
        for (slot, one) in chosen.iter_mut().zip(pins) {
            let single = Request {
                pin: Some(one),
                ..*request
            };
            let (index, _) = self.choose(&single).map_err(|e| {
                format!("alternate-frame rendering on {pin:?} (TESSERA_DEVICE): {e}")
            })?;
            *slot = index;
        }
        let [first, second] = chosen;
        if first == second {
            return Err(format!(
                "alternate-frame rendering needs two devices, and {pin:?} (TESSERA_DEVICE) names \
                 device {} twice; its devices: {}",
                self.describe(first),
                self.listed()
            ));
        }
        let backend = self
            .can_drive(first, request.backend)
            .unwrap_or_else(|| request.backend.to_owned());
        if self.can_drive(second, &backend).is_none() {
            return Err(format!(
                "alternate-frame rendering on {pin:?} (TESSERA_DEVICE): device {} cannot run \
                 the {backend} backend of device {first} (it runs: {}); its devices: {}",
                self.describe(second),
                self.topology.devices[second].backends.join(", "),
                self.listed()
            ));
        }
        for index in chosen {
            let live = &mut self.live[index];
            live.sessions += 1;
            live.memory += self.topology.session_memory;
        }
        self.sessions
            .insert(request.session, (first, request.client.to_owned()));
        self.alternates.insert(request.session, second);
        Ok(Placed {
            index: first,
            device: self.topology.devices[first].clone(),
            backend,
            reason: format!(
                "alternate-frame rendering pinned by the client to {pin:?}; now {} and {}",
                self.describe(first),
                self.describe(second)
            ),
            alternate: Some((second, self.topology.devices[second].clone())),
        })
    }

    fn choose(&mut self, request: &Request<'_>) -> Result<(usize, String), String> {
        let eligible = |this: &Self, i: usize| {
            this.can_drive(i, request.backend).is_some() && this.has_room(i)
        };
        if let Some(pin) = request.pin.filter(|p| !p.trim().is_empty()) {
            let Some(index) = self.find(pin) else {
                return Err(format!(
                    "no device {pin:?} on this server (TESSERA_DEVICE); its devices: {}",
                    self.listed()
                ));
            };
            if self.can_drive(index, request.backend).is_none() {
                return Err(format!(
                    "device {} cannot run the {} backend (it runs: {}); its devices: {}",
                    self.describe(index),
                    request.backend,
                    self.topology.devices[index].backends.join(", "),
                    self.listed()
                ));
            }
            if !self.has_room(index) {
                return Err(format!(
                    "device {} takes no new session ({}, a session is charged {:.0} MiB); \
                     its devices: {}",
                    self.describe(index),
                    if self.live[index].lost {
                        "it was lost"
                    } else {
                        "its memory budget is exhausted"
                    },
                    self.topology.session_memory as f64 / MIB,
                    self.listed()
                ));
            }
            return Ok((index, format!("pinned by the client to {pin:?}")));
        }
        let n = self.live.len();
        let choice = match self.policy {
            Policy::Pinned => (0..n)
                .find(|i| eligible(self, *i))
                .map(|i| (i, "no device pinned: the first device with room".to_owned())),
            Policy::LeastLoaded => self
                .least_loaded((0..n).filter(|i| eligible(self, *i)))
                .map(|i| (i, format!("least loaded (score {:.3})", self.score(i)))),
            Policy::RoundRobin => (0..n)
                .map(|k| (self.cursor + k) % n)
                .find(|i| eligible(self, *i))
                .map(|i| {
                    self.cursor = (i + 1) % n;
                    (i, "round robin: the next device with room".to_owned())
                }),
            Policy::PreferDiscrete => {
                let rank = |k: DeviceKind| match k {
                    DeviceKind::Discrete => 0,
                    DeviceKind::Integrated => 1,
                    DeviceKind::Virtual => 2,
                    DeviceKind::Cpu => 3,
                    DeviceKind::Other => 4,
                };
                let best = (0..n)
                    .filter(|i| eligible(self, *i))
                    .map(|i| rank(self.topology.devices[i].kind))
                    .min();
                best.and_then(|best| {
                    self.least_loaded((0..n).filter(|i| {
                        eligible(self, *i) && rank(self.topology.devices[*i].kind) == best
                    }))
                })
                .map(|i| {
                    (
                        i,
                        format!(
                            "the least loaded {} device with room",
                            self.topology.devices[i].kind.name()
                        ),
                    )
                })
            }
            Policy::Affinity => {
                let mut held = vec![0usize; n];
                for (device, client) in self.sessions.values() {
                    if client == request.client {
                        held[*device] += 1;
                    }
                }
                (0..n)
                    .filter(|i| held[*i] > 0 && eligible(self, *i))
                    .max_by(|a, b| held[*a].cmp(&held[*b]).then(b.cmp(a)))
                    .map(|i| {
                        (
                            i,
                            format!("affinity: {} of the client's sessions are there", held[i]),
                        )
                    })
                    .or_else(|| {
                        self.least_loaded((0..n).filter(|i| eligible(self, *i)))
                            .map(|i| {
                                (
                                    i,
                                    "affinity: no device of the client's has room; the least \
                                     loaded"
                                        .to_owned(),
                                )
                            })
                    })
            }
        };
        choice.ok_or_else(|| {
            format!(
                "no device can take a {} session now (each is lost, full or runs other \
                 backends; a session is charged {:.0} MiB); its devices: {}",
                request.backend,
                self.topology.session_memory as f64 / MIB,
                self.listed()
            )
        })
    }

    /// Session `session` has applied `applied` batches by `now` and holds `memory` bytes of
    /// device memory (it reports every half second while it applies any): its devices count
    /// the larger of its charge and that memory for it from now on. `true` when that made a scripted loss happen (the
    /// server then ends the device's sessions: [`Placer::take_lost`]).
    pub fn progress(&mut self, session: u64, applied: u64, memory: u64, now: Instant) -> bool {
        let Some(&(index, _)) = self.sessions.get(&session) else {
            return false;
        };
        let before = self.held(session);
        self.measured.insert(session, memory);
        let after = self.held(session);
        for device in std::iter::once(index).chain(self.alternates.get(&session).copied()) {
            let live = &mut self.live[device];
            live.memory = live.memory - before + after;
        }
        match self.progress.get_mut(&session) {
            Some(entry) => *entry = [entry[1], (now, applied)],
            None => {
                self.progress.insert(session, [(now, applied); 2]);
            }
        }
        // Events on frames may be due now.
        self.advance(self.started.elapsed());
        !self.newly_lost.is_empty()
    }

    /// A session's frames per second (batches applied: on the server a frame is what one
    /// flush of the client carried) between its last two reports; 0 once it has not reported
    /// for two seconds (it applies nothing).
    fn fps(&self, session: u64, now: Instant) -> f64 {
        match self.progress.get(&session) {
            Some([(t0, n0), (t1, n1)])
                if now.duration_since(*t1) < Duration::from_secs(2) && t1 > t0 =>
            {
                (n1 - n0) as f64 / t1.duration_since(*t0).as_secs_f64()
            }
            _ => 0.0,
        }
    }

    /// A session ended: its devices get back what it counted there.
    pub fn release(&mut self, session: u64) {
        let frames = self.progress.remove(&session).map_or(0, |p| p[1].1);
        let held = self.held(session);
        self.measured.remove(&session);
        if let Some((index, _)) = self.sessions.remove(&session) {
            let live = &mut self.live[index];
            live.frames_done += frames;
            live.sessions -= 1;
            live.memory -= held;
        }
        if let Some(index) = self.alternates.remove(&session) {
            let live = &mut self.live[index];
            live.frames_done += frames;
            live.sessions -= 1;
            live.memory -= held;
        }
    }

    /// The device a live session runs on.
    pub fn device_of(&self, session: u64) -> Option<usize> {
        self.sessions.get(&session).map(|(i, _)| *i)
    }

    /// The server's status: the policy, each device with its sessions and memory, and each
    /// live session's device (`tessera-server status` prints it).
    pub fn report(&mut self) -> String {
        self.advance(self.started.elapsed());
        let now = Instant::now();
        let mut out = format!("placement: {}\n", self.policy.name());
        for (index, d) in self.topology.devices.iter().enumerate() {
            let live = &self.live[index];
            let fps: f64 = self
                .sessions
                .iter()
                .filter(|(id, (device, _))| {
                    *device == index || self.alternates.get(*id) == Some(&index)
                })
                .map(|(id, _)| self.fps(*id, now))
                .fold(0.0, |sum, fps| sum + fps);
            let _ = writeln!(
                out,
                "device {index}: {} [{}] kind {} uuid {} backends {} speed {} sessions {} \
                 memory {:.0}/{:.0} MiB fps {fps:.1}{}{}",
                d.name,
                d.vendor,
                d.kind.name(),
                uuid_text(&d.uuid),
                d.backends.join(","),
                d.speed,
                live.sessions,
                live.memory as f64 / MIB,
                live.budget as f64 / MIB,
                if d.synthetic { " synthetic" } else { "" },
                if live.lost { " lost" } else { "" },
            );
        }
        let mut ids: Vec<_> = self.sessions.iter().collect();
        ids.sort_by_key(|(id, _)| **id);
        for (id, (index, client)) in ids {
            let alternate = self
                .alternates
                .get(id)
                .map(|a| format!(" alternate-frame with device {a}"))
                .unwrap_or_default();
            let measured = self.measured.get(id).map_or("unreported".to_owned(), |m| {
                format!("{:.1} MiB", *m as f64 / MIB)
            });
            let _ = writeln!(
                out,
                "session {id}: device {index} client {client} fps {:.1} memory {measured} \
                 charged {:.0} MiB{alternate}",
                self.fps(*id, now),
                self.topology.session_memory as f64 / MIB
            );
        }
        out
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::transport::devices::parse_topology;

    /// Two discrete devices, an integrated one and a cpu one, with different budgets and
    /// speeds (the integration test's machine).
    pub(crate) const FOUR: &str = r#"{"session_memory_mib": 64, "devices": [
        {"name": "discrete-a", "kind": "discrete", "budget_mib": 512, "speed": 4, "backend": "vulkan",
         "uuid": "d15c0000-0000-0000-0000-00000000000a"},
        {"name": "discrete-b", "kind": "discrete", "budget_mib": 256, "speed": 2, "backend": "gles",
         "uuid": "d15c0000-0000-0000-0000-00000000000b"},
        {"name": "integrated", "kind": "integrated", "budget_mib": 256, "speed": 1, "backend": "vulkan",
         "uuid": "16700000-0000-0000-0000-000000000001"},
        {"name": "cpu", "kind": "cpu", "budget_mib": 128, "speed": 0.5, "backend": "gles",
         "uuid": "c0000000-0000-0000-0000-000000000001"}]}"#;

    fn run(policy: Policy, clients: &[&str]) -> Vec<usize> {
        let mut placer = Placer::new(parse_topology(FOUR).unwrap(), policy);
        clients
            .iter()
            .enumerate()
            .map(|(i, client)| {
                placer
                    .place(&Request {
                        session: i as u64 + 1,
                        backend: "auto",
                        pin: None,
                        client,
                    })
                    .unwrap()
                    .index
            })
            .collect()
    }

    #[test]
    fn each_policy_places_sixteen_sessions_as_it_says() {
        let one = ["pid 1"; 16];
        assert_eq!(
            run(Policy::Pinned, &one),
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
        );
        assert_eq!(
            run(Policy::RoundRobin, &one),
            [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 0, 1, 2, 0, 0]
        );
        assert_eq!(
            run(Policy::LeastLoaded, &one),
            [0, 0, 1, 0, 0, 1, 2, 0, 0, 1, 0, 0, 1, 2, 3, 2]
        );
        assert_eq!(
            run(Policy::PreferDiscrete, &one),
            [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 2, 2, 2, 2]
        );
        assert_eq!(
            run(Policy::Affinity, &one),
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
        );
        // Two clients: a client's first session goes to the least loaded device, the next
        // ones where its others are, while there is room.
        let mut two = vec!["a"; 3];
        two.extend(["b"; 3]);
        assert_eq!(run(Policy::Affinity, &two), [0, 0, 0, 1, 1, 1]);
        assert_eq!(run(Policy::LeastLoaded, &two), [0, 0, 1, 0, 0, 1]);
    }

    #[test]
    fn pins_are_honoured_or_refused_naming_the_devices() {
        let mut placer = Placer::new(parse_topology(FOUR).unwrap(), Policy::LeastLoaded);
        let mut place = |session, pin: &str, backend| {
            placer.place(&Request {
                session,
                backend,
                pin: Some(pin),
                client: "c",
            })
        };
        assert_eq!(place(1, "2", "auto").unwrap().index, 2);
        assert_eq!(
            place(2, "c0000000-0000-0000-0000-000000000001", "gles")
                .unwrap()
                .index,
            3
        );
        assert_eq!(place(3, "Discrete-B", "auto").unwrap().backend, "gles");
        assert_eq!(place(4, "cpu", "auto").unwrap().index, 3);
        let full = place(5, "cpu", "auto").unwrap_err();
        assert!(
            full.starts_with(
                "device 3: cpu (cpu, c0000000-0000-0000-0000-000000000001, 2 session(s), 128 \
                 of 128 MiB) takes no new session (its memory budget is exhausted"
            ),
            "{full}"
        );
        let missing = place(6, "titan", "auto").unwrap_err();
        assert_eq!(
            missing,
            "no device \"titan\" on this server (TESSERA_DEVICE); its devices: 0: discrete-a \
             (discrete, d15c0000-0000-0000-0000-00000000000a, 0 session(s), 0 of 512 MiB); 1: \
             discrete-b (discrete, d15c0000-0000-0000-0000-00000000000b, 1 session(s), 64 of \
             256 MiB); 2: integrated (integrated, 16700000-0000-0000-0000-000000000001, 1 \
             session(s), 64 of 256 MiB); 3: cpu (cpu, c0000000-0000-0000-0000-000000000001, 2 \
             session(s), 128 of 128 MiB)"
        );
        let wrong = place(7, "0", "gles").unwrap_err();
        assert!(wrong.starts_with("device 0: discrete-a"), "{wrong}");
        assert!(
            wrong.contains("cannot run the gles backend (it runs: vulkan)"),
            "{wrong}"
        );
    }

    #[test]
    fn an_alternate_frame_session_takes_two_devices_or_is_refused() {
        let mut placer = Placer::new(parse_topology(FOUR).unwrap(), Policy::LeastLoaded);
        let place = |placer: &mut Placer, session, pin: &str| {
            placer.place(&Request {
                session,
                backend: "auto",
                pin: Some(pin),
                client: "c",
            })
        };
        let both = place(&mut placer, 1, "0+integrated").unwrap();
        assert_eq!((both.index, both.backend.as_str()), (0, "vulkan"));
        assert_eq!(both.alternate.as_ref().map(|(i, _)| *i), Some(2));
        let report = placer.report();
        assert!(
            report.contains(
                "session 1: device 0 client c fps 0.0 memory unreported charged 64 MiB \
                 alternate-frame with device 2"
            ),
            "{report}"
        );
        for device in ["device 0:", "device 2:"] {
            let line = report.lines().find(|l| l.starts_with(device)).unwrap();
            assert!(line.contains(" sessions 1 memory 64/"), "{line}");
        }
        let same = place(&mut placer, 2, "0+discrete-a").unwrap_err();
        assert!(same.contains("needs two devices"), "{same}");
        assert!(same.contains("3: cpu"), "{same}");
        let mixed = place(&mut placer, 3, "0+1").unwrap_err();
        assert!(mixed.contains("cannot run the vulkan backend"), "{mixed}");
        let missing = place(&mut placer, 4, "0+9").unwrap_err();
        assert!(missing.contains("no device \"9\""), "{missing}");
        // Losing either device ends the session; releasing it gives both charges back.
        placer.lose(2).unwrap();
        assert_eq!(placer.take_lost(), vec![(2, vec![1])]);
        placer.release(1);
        let report = placer.report();
        assert!(!report.contains("session 1:"), "{report}");
        let line = report.lines().find(|l| l.starts_with("device 0:")).unwrap();
        assert!(line.contains(" sessions 0 memory 0/"), "{line}");
    }

    #[test]
    fn measured_memory_past_the_charge_fills_a_device_and_moves_least_loaded() {
        const MIB: u64 = 1 << 20;
        let request = |session, pin| Request {
            session,
            backend: "auto",
            pin,
            client: "pid 1",
        };
        let mut placer = Placer::new(parse_topology(FOUR).unwrap(), Policy::LeastLoaded);
        assert_eq!(placer.place(&request(1, None)).unwrap().index, 0);
        // Charged only: device 0 scores (2 + 128/512) / 4 = 0.5625, below device 1's
        // (1 + 64/256) / 2 = 0.625, so it would take the next session too.
        let mut charged = Placer::new(parse_topology(FOUR).unwrap(), Policy::LeastLoaded);
        charged.place(&request(1, None)).unwrap();
        assert_eq!(charged.place(&request(2, None)).unwrap().index, 0);
        // Measured at 448 MiB: (2 + 512/512) / 4 = 0.75, so device 1 is the least loaded.
        let now = Instant::now();
        assert!(!placer.progress(1, 10, 448 * MIB, now));
        let placed = placer.place(&request(2, None)).unwrap();
        assert_eq!(placed.index, 1, "{}", placed.reason);
        // Grown to 500 MiB: 500 + a 64 MiB charge is past device 0's 512 MiB budget.
        assert!(!placer.progress(1, 20, 500 * MIB, now));
        let refused = placer.place(&request(3, Some("0"))).unwrap_err();
        assert!(
            refused.starts_with(
                "device 0: discrete-a (discrete, d15c0000-0000-0000-0000-00000000000a, 1 \
                 session(s), 500 of 512 MiB) takes no new session (its memory budget is \
                 exhausted, a session is charged 64 MiB)"
            ),
            "{refused}"
        );
        assert_eq!(placer.place(&request(3, None)).unwrap().index, 1);
        let report = placer.report();
        for line in [
            "session 1: device 0 client pid 1 fps 0.0 memory 500.0 MiB charged 64 MiB",
            "session 2: device 1 client pid 1 fps 0.0 memory unreported charged 64 MiB",
        ] {
            assert!(report.lines().any(|l| l == line), "{line:?}:\n{report}");
        }
        assert!(
            report.contains(" sessions 1 memory 500/512 MiB "),
            "{report}"
        );
        assert!(
            report.contains(" sessions 2 memory 128/256 MiB "),
            "{report}"
        );
        // Shrunk below its charge, it counts the charge; released, nothing.
        assert!(!placer.progress(1, 30, 8 * MIB, now));
        assert!(placer.report().contains(" sessions 1 memory 64/512 MiB "));
        placer.release(1);
        assert!(placer.report().contains(" sessions 0 memory 0/512 MiB "));
    }

    #[test]
    fn released_sessions_give_their_memory_back_and_events_apply() {
        let mut placer = Placer::new(parse_topology(FOUR).unwrap(), Policy::Pinned);
        for session in 1..=8 {
            let placed = placer
                .place(&Request {
                    session,
                    backend: "vulkan",
                    pin: None,
                    client: "c",
                })
                .unwrap();
            assert_eq!(placed.index, 0);
        }
        // Device 0 is full: vulkan sessions go to the integrated device, the other one.
        let next = |placer: &mut Placer, session| {
            placer
                .place(&Request {
                    session,
                    backend: "vulkan",
                    pin: None,
                    client: "c",
                })
                .map(|p| p.index)
        };
        assert_eq!(next(&mut placer, 9), Ok(2));
        placer.release(3);
        assert_eq!(next(&mut placer, 10), Ok(0));
        placer.topology.devices[0].events = vec![crate::transport::devices::DeviceEvent {
            at_secs: 1.0,
            after_frames: None,
            what: EventKind::Lost,
        }];
        placer.advance(Duration::from_secs(2));
        placer.release(4);
        assert_eq!(next(&mut placer, 11), Ok(2));
        assert_eq!(
            placer.take_lost(),
            vec![(0, vec![1, 2, 5, 6, 7, 8, 10])],
            "the lost device's sessions, for the server to end"
        );
        assert_eq!(placer.take_lost(), vec![]);
        assert!(placer.lose(3).is_ok());
        assert_eq!(placer.take_lost(), vec![(3, vec![])]);
        assert!(
            placer
                .report()
                .contains("sessions 7 memory 448/512 MiB fps 0.0 synthetic lost")
        );
        // Frames per second: batches between a session's last two reports.
        let t = Instant::now();
        placer.progress(1, 100, 0, t);
        placer.progress(1, 160, 0, t + Duration::from_millis(500));
        assert_eq!(placer.fps(1, t + Duration::from_millis(600)), 120.0);
        assert_eq!(placer.fps(1, t + Duration::from_secs(3)), 0.0);
        assert_eq!(placer.fps(2, t), 0.0);
    }

    #[test]
    fn a_device_is_lost_after_the_frames_its_script_says() {
        let mut topology = parse_topology(FOUR).unwrap();
        topology.devices[1].events = parse_topology(
            r#"{"devices": [{"name": "x", "budget_mib": 1,
                "events": [{"after_frames": 100, "lost": true}]}]}"#,
        )
        .unwrap()
        .devices[0]
            .events
            .clone();
        let mut placer = Placer::new(topology, Policy::Pinned);
        for (session, pin) in [(1, "1"), (2, "1"), (3, "0")] {
            let request = Request {
                session,
                backend: "auto",
                pin: Some(pin),
                client: "c",
            };
            placer.place(&request).unwrap();
        }
        let now = Instant::now();
        // Frames on another device do not count; an ended session's frames do.
        assert!(!placer.progress(3, 500, 0, now));
        assert!(!placer.progress(1, 60, 0, now));
        placer.release(1);
        assert!(!placer.progress(2, 39, 0, now));
        assert_eq!(placer.take_lost(), vec![]);
        assert!(placer.progress(2, 40, 0, now));
        assert_eq!(placer.take_lost(), vec![(1, vec![2])]);
    }
}
