//! Reading PDFs in a child process with a time and memory limit.
//!
//! pdf-extract can overflow its stack on hostile files, which no `catch_unwind` can
//! survive, and any parser can be made to allocate without bound. So the application
//! re-runs its own executable as a worker: the PDF goes in on stdin, the pages come back
//! as JSON on stdout, and if the worker dies, hangs or runs out of memory, only that file
//! fails. Every binary that imports PDFs calls [`run_worker_if_requested`] first thing in
//! `main`.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use wait_timeout::ChildExt;

use super::read::{RawPdf, read_pdf};

/// First argument that turns an Evident binary into a PDF worker.
pub const WORKER_ARG: &str = "__evident-pdf-worker";

/// What the worker prints.
#[derive(Debug, Serialize, Deserialize)]
enum WorkerReply {
    Read(RawPdf),
    Failed(String),
}

/// Limits and the program used to read PDFs out of process.
#[derive(Debug, Clone)]
pub struct PdfSandbox {
    /// The executable to run (normally the current one).
    pub program: PathBuf,
    /// Wall-clock limit per file.
    pub timeout: Duration,
    /// Address-space limit of the worker, in bytes.
    pub memory_limit: u64,
}

impl PdfSandbox {
    /// A sandbox that runs the current executable with default limits (60 s, 2 GiB).
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(Self {
            program: std::env::current_exe()?,
            timeout: Duration::from_secs(60),
            memory_limit: 2 << 30,
        })
    }

    /// Reads the PDF `bytes` (from `path`, for messages) in a worker process.
    pub fn read(&self, bytes: &[u8]) -> Result<RawPdf, String> {
        let mut child = Command::new(&self.program)
            .arg(WORKER_ARG)
            .arg(self.memory_limit.to_string())
            .arg(self.timeout.as_secs().max(1).to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start the PDF reader process ({e})"))?;
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take();
        let mut stderr = child.stderr.take();
        let result = std::thread::scope(|s| {
            let input = bytes.to_vec();
            s.spawn(move || {
                if let Some(mut stdin) = stdin {
                    // A worker that dies early closes the pipe; its exit status says why.
                    let _ = stdin.write_all(&input);
                }
            });
            let out = s.spawn(move || {
                let mut buf = Vec::new();
                if let Some(o) = stdout.as_mut() {
                    let _ = o.read_to_end(&mut buf);
                }
                buf
            });
            let err = s.spawn(move || {
                let mut buf = Vec::new();
                if let Some(e) = stderr.as_mut() {
                    let _ = e.take(64 * 1024).read_to_end(&mut buf);
                }
                buf
            });
            let status = match child.wait_timeout(self.timeout) {
                Ok(Some(status)) => Ok(status),
                Ok(None) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    Err(format!(
                        "reading the PDF took longer than {} s and was stopped; the file may be damaged",
                        self.timeout.as_secs()
                    ))
                }
                Err(e) => Err(format!("lost the PDF reader process ({e})")),
            };
            let out = out.join().unwrap_or_default();
            let err = err.join().unwrap_or_default();
            (status, out, err)
        });
        let (status, out, err) = result;
        let status = status?;
        if !status.success() {
            return Err(describe_crash(status, &String::from_utf8_lossy(&err)));
        }
        match serde_json::from_slice::<WorkerReply>(&out) {
            Ok(WorkerReply::Read(pdf)) => Ok(pdf),
            Ok(WorkerReply::Failed(reason)) => Err(reason),
            Err(e) => Err(format!("the PDF reader returned unreadable output ({e})")),
        }
    }
}

fn describe_crash(status: std::process::ExitStatus, stderr: &str) -> String {
    let why = if stderr.contains("overflowed its stack") {
        "it nests content too deeply (stack overflow)"
    } else if stderr.contains("memory allocation") {
        "it needs more memory than allowed"
    } else {
        "it crashed the PDF reader"
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            if sig == 24 || sig == 9 {
                return "reading the PDF used too much CPU time and was stopped; the file may be damaged".into();
            }
            return format!(
                "the file could not be read: {why} (signal {sig}); it is probably damaged"
            );
        }
    }
    format!("the file could not be read: {why} ({status}); it is probably damaged")
}

/// If this process was started as a PDF worker, does the work and exits; else returns.
///
/// Call it before anything else in `main` of every binary that imports PDFs.
pub fn run_worker_if_requested() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) != Some(WORKER_ARG) {
        return;
    }
    let memory = args
        .get(2)
        .and_then(|a| a.parse::<u64>().ok())
        .unwrap_or(2 << 30);
    let cpu = args
        .get(3)
        .and_then(|a| a.parse::<u64>().ok())
        .unwrap_or(60);
    let _ = rlimit::setrlimit(rlimit::Resource::AS, memory, memory);
    let _ = rlimit::setrlimit(rlimit::Resource::CPU, cpu + 1, cpu + 2);
    // Panics are turned into per-page errors; their default message is noise here.
    std::panic::set_hook(Box::new(|_| {}));
    let mut bytes = Vec::new();
    let reply = match std::io::stdin().read_to_end(&mut bytes) {
        Ok(_) => match read_pdf(&bytes) {
            Ok(pdf) => WorkerReply::Read(pdf),
            Err(reason) => WorkerReply::Failed(reason),
        },
        Err(e) => WorkerReply::Failed(format!("could not receive the file ({e})")),
    };
    let code = match serde_json::to_writer(std::io::stdout().lock(), &reply) {
        Ok(()) => 0,
        Err(_) => 3,
    };
    std::process::exit(code);
}
