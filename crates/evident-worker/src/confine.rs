//! What a worker may still do once it runs, by kind. In order, before its input is read:
//!
//! 1. Resource limits (all checked; a limit that cannot be set fails the work): address
//!    space, CPU time (not for the model, which lives across many requests), no file
//!    writes of any size (`RLIMIT_FSIZE` 0), no core dumps, few open files.
//! 2. Landlock (Linux 5.13+): no file system access but what the kind needs, no TCP
//!    bind or connect, no signals or abstract sockets out of the sandbox. Best effort:
//!    an older kernel enforces what it knows, and [`Confinement`] says what that was.
//! 3. seccomp: creating sockets, executing programs and tracing other processes fail
//!    with `EPERM`. The OCR step, which becomes Tesseract (the one program Landlock
//!    lets it execute), gets an allow-list instead: the calls Tesseract makes, and
//!    nothing else.
//!
//! The kinds:
//! - [`confine`]: the PDF reader reads nothing but the font files the parent names
//!   (a page drawn for the viewer may need them).
//! - [`confine_to_run`]: the OCR step reads the libraries and data its program needs
//!   and becomes exactly that program (Tesseract).
//! - [`confine_model`]: the embeddings worker reads exactly one file, its model.
//!
//! The parent adds an empty environment and a working folder that holds nothing.

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

impl Confinement {
    /// What was not enforced, for Settings (`Landlock not enforced, seccomp on`), or
    /// `None` when everything was.
    pub fn shortfall(&self) -> Option<String> {
        (self.landlock != "fully enforced" || !self.seccomp).then(|| {
            format!(
                "Landlock {}, seccomp {}",
                self.landlock,
                if self.seccomp { "on" } else { "off" }
            )
        })
    }
}

/// Applies every limit to the current process; fails when a resource limit cannot be
/// set (the caller then reads nothing). `readable` are files the process may still read
/// (fonts for drawing pages); nothing else can be opened.
pub fn confine(
    memory_bytes: u64,
    cpu_seconds: u64,
    readable: &[std::path::PathBuf],
) -> Result<Confinement, String> {
    limits(memory_bytes, Some(cpu_seconds))?;
    Ok(Confinement {
        landlock: landlock(readable, &[], None),
        seccomp: seccomp(false),
    })
}

/// The confinement of the embeddings worker: it may read `model` and nothing else, has
/// no network and executes nothing, within `memory_bytes` of address space (sized by
/// the caller to the model). No CPU limit: it serves many requests over its life.
pub fn confine_model(memory_bytes: u64, model: &std::path::Path) -> Result<Confinement, String> {
    limits(memory_bytes, None)?;
    Ok(Confinement {
        landlock: landlock(&[model.to_owned()], &[], None),
        seccomp: seccomp(false),
    })
}

/// The confinement of a worker that then becomes `program` (Tesseract reading a scan):
/// the same limits, no writes and no network, but it may read the files and trees the
/// program needs (`readable`, `read_trees`: its libraries, the loader's cache, its
/// language data) and execute exactly `program`, which it must be allowed to `exec`.
pub fn confine_to_run(
    memory_bytes: u64,
    cpu_seconds: u64,
    readable: &[std::path::PathBuf],
    read_trees: &[std::path::PathBuf],
    program: &std::path::Path,
) -> Result<Confinement, String> {
    limits(memory_bytes, Some(cpu_seconds))?;
    Ok(Confinement {
        landlock: landlock(readable, read_trees, Some(program)),
        seccomp: seccomp(true),
    })
}

fn limits(memory_bytes: u64, cpu_seconds: Option<u64>) -> Result<(), String> {
    use rlimit::Resource;
    let set = |what: &str, resource: Resource, soft: u64, hard: u64| {
        rlimit::setrlimit(resource, soft, hard)
            .map_err(|e| format!("could not limit the worker's {what} ({e}); nothing was read"))
    };
    set("memory", Resource::AS, memory_bytes, memory_bytes)?;
    if let Some(cpu_seconds) = cpu_seconds {
        set("CPU time", Resource::CPU, cpu_seconds + 1, cpu_seconds + 2)?;
    }
    set("file writes", Resource::FSIZE, 0, 0)?;
    set("core dumps", Resource::CORE, 0, 0)?;
    set("open files", Resource::NOFILE, 32, 32)?;
    Ok(())
}

#[cfg(target_os = "linux")]
fn landlock(
    readable: &[std::path::PathBuf],
    read_trees: &[std::path::PathBuf],
    program: Option<&std::path::Path>,
) -> String {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, BitFlags, PathBeneath, PathFd, RulesetAttr,
        RulesetCreatedAttr, RulesetStatus, Scope,
    };
    let abi = ABI::V6;
    // Every handled access is denied everywhere, but reading the named files and trees
    // and executing the one program (a path that cannot be opened now is not added).
    let file_read: BitFlags<AccessFs> = AccessFs::ReadFile.into();
    let tree_read: BitFlags<AccessFs> = AccessFs::ReadFile | AccessFs::ReadDir;
    let run: BitFlags<AccessFs> = AccessFs::ReadFile | AccessFs::Execute;
    let mut rules: Vec<(PathFd, BitFlags<AccessFs>)> = Vec::new();
    rules.extend(
        readable
            .iter()
            .filter_map(|p| PathFd::new(p).ok().map(|fd| (fd, file_read))),
    );
    rules.extend(
        read_trees
            .iter()
            .filter_map(|p| PathFd::new(p).ok().map(|fd| (fd, tree_read))),
    );
    if let Some(program) = program {
        // The program, and the dynamic loader the kernel runs it with (execve opens it
        // for execution too).
        let loaders = [
            "/lib64/ld-linux-x86-64.so.2",
            "/lib/ld-linux-aarch64.so.1",
            "/lib/ld-linux-armhf.so.3",
        ];
        let runnable = std::iter::once(program.to_owned()).chain(
            loaders
                .iter()
                .map(std::path::PathBuf::from)
                .filter(|p| p.exists()),
        );
        rules.extend(runnable.filter_map(|p| PathFd::new(p).ok().map(|fd| (fd, run))));
    }
    let status =
        landlock::Ruleset::default()
            .handle_access(AccessFs::from_all(abi))
            .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
            .and_then(|r| r.scope(Scope::from_all(abi)))
            .and_then(|r| r.create())
            .and_then(|r| {
                r.add_rules(rules.into_iter().map(|(fd, access)| {
                    Ok::<_, landlock::RulesetError>(PathBeneath::new(fd, access))
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
fn landlock(
    _readable: &[std::path::PathBuf],
    _read_trees: &[std::path::PathBuf],
    _program: Option<&std::path::Path>,
) -> String {
    "unavailable".into()
}

/// `may_exec`: the worker becomes another program (which Landlock limits to one), and
/// that program inherits the filter: an allow-list ([`OCR_SYSCALLS`]) then, not a
/// deny-list.
#[cfg(target_os = "linux")]
fn seccomp(may_exec: bool) -> bool {
    if may_exec {
        return seccomp_allow_only(OCR_SYSCALLS);
    }
    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter};
    let denied = [
        libc::SYS_socket,
        libc::SYS_socketpair,
        libc::SYS_connect,
        libc::SYS_bind,
        libc::SYS_listen,
        libc::SYS_accept,
        libc::SYS_accept4,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_execve,
        libc::SYS_execveat,
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

/// The system calls the OCR step may make: what Debian's Tesseract 5 makes reading a
/// page (strace: the loader mapping its libraries, reading the language data, threads
/// and their futexes, the clock, memory), the one `execve` that starts it (Landlock
/// allows only Tesseract and the loader), and their older or newer twins that another
/// libc may use instead. Anything else (sockets, ptrace, mount, keyring, bpf, other
/// processes' memory) fails with `ENOSYS`, as if the kernel had no such call, which C
/// libraries handle as "not there" rather than as a crash.
#[cfg(target_os = "linux")]
const OCR_SYSCALLS: &[libc::c_long] = &[
    // Files: reading the image (stdin), the libraries and the language data.
    libc::SYS_read,
    libc::SYS_pread64,
    libc::SYS_readv,
    libc::SYS_write,
    libc::SYS_writev,
    libc::SYS_lseek,
    libc::SYS_openat,
    libc::SYS_close,
    libc::SYS_newfstatat,
    libc::SYS_fstat,
    libc::SYS_statx,
    libc::SYS_faccessat,
    libc::SYS_faccessat2,
    libc::SYS_readlinkat,
    libc::SYS_getdents64,
    libc::SYS_fcntl,
    libc::SYS_ioctl,
    libc::SYS_getcwd,
    // Memory.
    libc::SYS_brk,
    libc::SYS_mmap,
    libc::SYS_munmap,
    libc::SYS_mprotect,
    libc::SYS_mremap,
    libc::SYS_madvise,
    // Threads.
    libc::SYS_clone,
    libc::SYS_clone3,
    libc::SYS_futex,
    libc::SYS_set_robust_list,
    libc::SYS_get_robust_list,
    libc::SYS_rseq,
    libc::SYS_set_tid_address,
    libc::SYS_sched_getaffinity,
    libc::SYS_sched_yield,
    libc::SYS_membarrier,
    libc::SYS_gettid,
    libc::SYS_getpid,
    libc::SYS_tgkill,
    libc::SYS_exit,
    libc::SYS_exit_group,
    // Signals (its own).
    libc::SYS_rt_sigaction,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    libc::SYS_sigaltstack,
    // Time, limits and who it is.
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_clock_nanosleep,
    libc::SYS_nanosleep,
    libc::SYS_gettimeofday,
    libc::SYS_getrandom,
    libc::SYS_prlimit64,
    libc::SYS_sysinfo,
    libc::SYS_uname,
    libc::SYS_getuid,
    libc::SYS_geteuid,
    libc::SYS_getgid,
    libc::SYS_getegid,
    // Becoming Tesseract (the program is Landlock's to choose).
    libc::SYS_execve,
    // x86-64's older twins.
    #[cfg(target_arch = "x86_64")]
    libc::SYS_arch_prctl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_access,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_open,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_stat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_lstat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_readlink,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_getrlimit,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_time,
];

/// A filter that allows `allowed` and makes every other call fail with `ENOSYS`.
#[cfg(target_os = "linux")]
fn seccomp_allow_only(allowed: &[libc::c_long]) -> bool {
    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter};
    let Ok(arch) = std::env::consts::ARCH.try_into() else {
        return false;
    };
    let filter = SeccompFilter::new(
        allowed.iter().map(|&nr| (nr, Vec::new())).collect(),
        SeccompAction::Errno(libc::ENOSYS as u32),
        SeccompAction::Allow,
        arch,
    );
    let program: Option<BpfProgram> = filter.ok().and_then(|f| f.try_into().ok());
    program.is_some_and(|p| seccompiler::apply_filter_all_threads(&p).is_ok())
}

#[cfg(not(target_os = "linux"))]
fn seccomp(_may_exec: bool) -> bool {
    false
}

/// What a confined worker could still do, tried for real (the probe a test asks for).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Probe {
    /// What was enforced.
    pub confinement: Confinement,
    /// Each attempt and whether it worked.
    pub attempts: Vec<(String, bool)>,
}

/// Tries what a hostile file would: read a file, write one, open a TCP connection to
/// `port` on loopback, and run a program. Every attempt must fail in a confined worker.
pub fn probe(confinement: Confinement, port: u16) -> Probe {
    let mut attempts = Vec::new();
    let read = std::fs::read("/etc/hostname")
        .or_else(|_| std::fs::read("/proc/self/status"))
        .is_ok();
    attempts.push(("read a file".to_owned(), read));
    let write = std::fs::write("probe.txt", b"written by a hostile file").is_ok();
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
