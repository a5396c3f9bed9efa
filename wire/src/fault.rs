//! Failure injection for tests: a backend refuses a create, or loses its device, when told.
//!
//! Real driver refusals (out of memory, a lost device, an `EGL_CONTEXT_LOST`) are rare and
//! cannot be caused on demand, so their paths are exercised by telling a backend to fail as
//! the driver would: `TESSERA_FAULT` holds a comma-separated list of
//!
//! - `refuse:<Record>:<n>`: the `n`th (1-based) `<Record>` the backend carries out (one of
//!   `CreateBuffer`, `CreateTexture`, `CreateProgram`) is refused as a driver out of memory
//!   refuses it; the backend takes the path it takes for a real refusal;
//! - `lose:<n>`: the `n`th batch (1-based) finds the device lost (Vulkan
//!   `VK_ERROR_DEVICE_LOST`, GLES `EGL_CONTEXT_LOST`) and the session ends;
//! - `misrender:<n>`: the GLES backend leaves out the `n`th (1-based) draw record (`Draw`
//!   or `DrawIndexed`) it carries out, so one backend mis-renders one record where another
//!   renders it; `tessera-replay --compare --bisect` is tested by finding it. The Vulkan
//!   backend ignores it, so both backends of one process can read the same variable.
//!
//! Read once per backend, when it is created (tests set it with [`set_for_new_backends`]);
//! only in debug builds (a release build never
//! reads the variable). Counts are per backend, so a process with several sessions fails
//! the `n`th of each.

/// The failures a backend was told to inject, and its counts so far.
#[derive(Clone, Debug, Default)]
pub struct Faults {
    refuse: Vec<(String, u32, u32)>,
    lose_at: Option<u64>,
    batches: u64,
    misrender_at: Option<u64>,
    draws: u64,
}

/// The environment variable read by [`Faults::from_env`].
pub const VAR: &str = "TESSERA_FAULT";

/// What [`set_for_new_backends`] set, in place of the environment.
static OVERRIDE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Makes backends created from now on in this process inject `spec` (as if
/// `TESSERA_FAULT` held it; `None`: read the environment again). For tests, which cannot
/// change the environment safely; ignored in release builds.
pub fn set_for_new_backends(spec: Option<&str>) {
    *OVERRIDE.lock().unwrap_or_else(|e| e.into_inner()) = spec.map(str::to_owned);
}

impl Faults {
    /// The failures `TESSERA_FAULT` asks for (none in release builds, or when it is unset).
    pub fn from_env() -> Self {
        if !cfg!(debug_assertions) {
            return Self::default();
        }
        let set = OVERRIDE.lock().unwrap_or_else(|e| e.into_inner()).clone();
        set.or_else(|| std::env::var(VAR).ok())
            .map(|v| Self::parse(&v))
            .unwrap_or_default()
    }

    /// Parses a `TESSERA_FAULT` value; entries that do not parse are ignored with a warning.
    pub fn parse(spec: &str) -> Self {
        let mut faults = Self::default();
        for entry in spec.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let parts: Vec<&str> = entry.split(':').collect();
            match parts.as_slice() {
                ["refuse", record, n] if n.parse::<u32>().is_ok_and(|n| n > 0) => {
                    faults
                        .refuse
                        .push(((*record).to_owned(), n.parse().unwrap_or(1), 0));
                }
                ["lose", n] if n.parse::<u64>().is_ok_and(|n| n > 0) => {
                    faults.lose_at = n.parse().ok();
                }
                ["misrender", n] if n.parse::<u64>().is_ok_and(|n| n > 0) => {
                    faults.misrender_at = n.parse().ok();
                }
                _ => log::warn!("tessera: {VAR}: ignored entry {entry:?}"),
            }
        }
        faults
    }

    /// Whether nothing is injected.
    pub fn is_empty(&self) -> bool {
        self.refuse.is_empty() && self.lose_at.is_none() && self.misrender_at.is_none()
    }

    /// Counts one draw record carried out; whether this one is to be left out.
    pub fn misrender(&mut self) -> bool {
        let Some(at) = self.misrender_at else {
            return false;
        };
        self.draws += 1;
        let skipped = self.draws == at;
        if skipped {
            log::warn!("tessera: {VAR}: leaving draw {at} out");
        }
        skipped
    }

    /// Counts one `record` carried out; whether this one is to be refused.
    pub fn refuse(&mut self, record: &str) -> bool {
        let mut refused = false;
        for (name, nth, seen) in &mut self.refuse {
            if name == record {
                *seen += 1;
                refused |= *seen == *nth;
            }
        }
        if refused {
            log::warn!("tessera: {VAR}: refusing this {record} as the driver would");
        }
        refused
    }

    /// Counts one batch; whether the device is to be found lost at it.
    pub fn lose(&mut self) -> bool {
        let Some(at) = self.lose_at else {
            return false;
        };
        self.batches += 1;
        let lost = self.batches == at;
        if lost {
            log::warn!("tessera: {VAR}: losing the device at batch {at}");
        }
        lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_the_nth_of_a_record_and_loses_at_the_nth_batch() {
        let mut f = Faults::parse("refuse:CreateBuffer:2, lose:3, bogus");
        assert!(!f.refuse("CreateBuffer"));
        assert!(!f.refuse("CreateTexture"));
        assert!(f.refuse("CreateBuffer"));
        assert!(!f.refuse("CreateBuffer"));
        assert!(!f.lose());
        assert!(!f.lose());
        assert!(f.lose());
        assert!(!f.lose());
        let mut m = Faults::parse("misrender:2");
        assert!(!m.is_empty());
        assert!(!m.misrender());
        assert!(m.misrender());
        assert!(!m.misrender());
        assert!(!f.misrender());
        assert!(Faults::parse("").is_empty());
        assert!(Faults::parse("refuse:CreateBuffer:0").is_empty());
    }
}
