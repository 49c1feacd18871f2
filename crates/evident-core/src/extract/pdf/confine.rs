//! What a PDF worker may still do once it runs: read its stdin, write its stdout, use
//! memory and CPU time up to its limits. Nothing else.
//!
//! The worker parses files from anywhere, so a parser bug must not become a way into
//! the user's files or network. In order, before the input is read:
//!
//! 1. Resource limits (all checked; a limit that cannot be set fails the file): address
//!    space and CPU time as asked, no file writes of any size (`RLIMIT_FSIZE` 0), no core
//!    dumps, few open files.
//! 2. Landlock (Linux 5.13+): no file system access (but reading the few font files the
//!    parent names, which a page drawn for the viewer may need), no TCP bind or connect,
//!    no signals or abstract sockets out of the sandbox. Best effort: an older kernel
//!    enforces what it knows, and [`Confinement`] says what that was.
//! 3. seccomp: creating sockets, executing programs and tracing other processes fail
//!    with `EPERM`.
//!
//! The parent adds an empty environment and a fresh empty working folder
//! ([`super::sandbox`]).

use serde::{Deserialize, Serialize};

/// What was enforced, for tests and for a worker's error message.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Confinement {
    /// Landlock's ruleset status: `fully enforced`, `partially enforced`,
    /// `not enforced` or `unavailable` (not Linux).
    pub landlock: String,
    /// Whether the seccomp filter is installed.
    pub seccomp: bool,
}

/// Applies every limit to the current process; fails when a resource limit cannot be
/// set (the caller then reads nothing). `readable` are files the process may still read
/// (fonts for drawing pages); nothing else can be opened.
pub fn confine(
    memory_bytes: u64,
    cpu_seconds: u64,
    readable: &[std::path::PathBuf],
) -> Result<Confinement, String> {
    limits(memory_bytes, cpu_seconds)?;
    Ok(Confinement {
        landlock: landlock(readable),
        seccomp: seccomp(),
    })
}

fn limits(memory_bytes: u64, cpu_seconds: u64) -> Result<(), String> {
    use rlimit::Resource;
    let set = |what: &str, resource: Resource, soft: u64, hard: u64| {
        rlimit::setrlimit(resource, soft, hard).map_err(|e| {
            format!("could not limit the PDF reader's {what} ({e}); the file was not read")
        })
    };
    set("memory", Resource::AS, memory_bytes, memory_bytes)?;
    set("CPU time", Resource::CPU, cpu_seconds + 1, cpu_seconds + 2)?;
    set("file writes", Resource::FSIZE, 0, 0)?;
    set("core dumps", Resource::CORE, 0, 0)?;
    set("open files", Resource::NOFILE, 32, 32)?;
    Ok(())
}

#[cfg(target_os = "linux")]
fn landlock(readable: &[std::path::PathBuf]) -> String {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, PathBeneath, PathFd, RulesetAttr, RulesetCreatedAttr,
        RulesetStatus, Scope,
    };
    let abi = ABI::V6;
    // Every handled access is denied everywhere, but reading the named files (a file
    // that cannot be opened now is simply not added).
    let files: Vec<PathFd> = readable
        .iter()
        .filter_map(|p| PathFd::new(p).ok())
        .collect();
    let status = landlock::Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(|r| r.create())
        .and_then(|r| {
            r.add_rules(files.into_iter().map(|fd| {
                Ok::<_, landlock::RulesetError>(PathBeneath::new(fd, AccessFs::ReadFile))
            }))
        })
        .and_then(|r| r.restrict_self());
    match status {
        Ok(s) => match s.ruleset {
            RulesetStatus::FullyEnforced => "fully enforced",
            RulesetStatus::PartiallyEnforced => "partially enforced",
            _ => "not enforced",
        }
        .to_owned(),
        Err(e) => format!("not enforced ({e})"),
    }
}

#[cfg(not(target_os = "linux"))]
fn landlock(_readable: &[std::path::PathBuf]) -> String {
    "unavailable".into()
}

#[cfg(target_os = "linux")]
fn seccomp() -> bool {
    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter};
    let denied = [
        libc::SYS_socket,
        libc::SYS_socketpair,
        libc::SYS_connect,
        libc::SYS_bind,
        libc::SYS_listen,
        libc::SYS_accept,
        libc::SYS_accept4,
        libc::SYS_execve,
        libc::SYS_execveat,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
    ];
    let Ok(arch) = std::env::consts::ARCH.try_into() else {
        return false;
    };
    let filter = SeccompFilter::new(
        denied.into_iter().map(|nr| (nr, Vec::new())).collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    );
    let program: Option<BpfProgram> = filter.ok().and_then(|f| f.try_into().ok());
    program.is_some_and(|p| seccompiler::apply_filter_all_threads(&p).is_ok())
}

#[cfg(not(target_os = "linux"))]
fn seccomp() -> bool {
    false
}

/// What a confined worker could still do, tried for real (the worker's test mode).
#[cfg(feature = "testing")]
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Probe {
    /// What was enforced.
    pub confinement: Confinement,
    /// Each attempt and whether it worked.
    pub attempts: Vec<(String, bool)>,
}

/// Tries what a hostile file would: read a file, write one, open a TCP connection to
/// `port` on loopback, and run a program.
#[cfg(feature = "testing")]
pub fn probe(confinement: Confinement, port: u16) -> Probe {
    let mut attempts = Vec::new();
    let read = std::fs::read("/etc/hostname")
        .or_else(|_| std::fs::read("/proc/self/status"))
        .is_ok();
    attempts.push(("read a file".to_owned(), read));
    let write = std::fs::write("probe.txt", b"written by a PDF").is_ok();
    attempts.push(("write a file".to_owned(), write));
    let connect = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
    attempts.push(("open a TCP connection".to_owned(), connect));
    let exec = std::process::Command::new("/bin/true").status().is_ok();
    attempts.push(("run a program".to_owned(), exec));
    Probe {
        confinement,
        attempts,
    }
}
