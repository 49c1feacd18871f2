//! Starting a worker and talking to it: one implementation for every child process
//! Evident runs (the PDF reader and drawer, the OCR step, the embeddings model), so
//! that each gets the same hygiene and none can be forgotten:
//!
//! - the environment is always empty and the working folder is chosen (`/`, or a fresh
//!   empty folder), so nothing of the app's session (keys, proxies, paths) leaks in;
//! - a reply is capped: a worker that floods its output is stopped, not buffered;
//! - every wait has a deadline: a worker that hangs is killed, and the caller is told
//!   which deadline passed;
//! - a worker runs in a process group of its own, killed whole: at its deadline, and
//!   when it is dropped, so cancelling a job (dropping its worker) never leaves a
//!   process behind, and a worker that forked cannot hold its pipes open;
//! - a crash is told apart from a refusal (the signal that ended it, and the last of
//!   what it wrote to stderr).
//!
//! Two shapes: [`Launch::run_once`] (bytes in, one reply out, then the worker exits:
//! the PDF worker's jobs) and [`Launch::start_lines`] (a long-lived worker answering
//! one line per line: the embeddings model). What each kind may do once it runs is
//! [`crate::confine`]'s.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How much of a worker's stderr is kept to explain a crash.
const STDERR_KEPT: u64 = 64 * 1024;

/// A worker to start: its program and arguments, run with an empty environment in a
/// chosen folder.
#[derive(Debug, Clone)]
pub struct Launch {
    program: PathBuf,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    dir: PathBuf,
}

/// Why a worker gave no usable reply.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// It could not be started (or its pipes could not be set up).
    #[error("could not start it ({0})")]
    Start(std::io::Error),
    /// It did not finish (or answer) within its deadline and was killed.
    #[error("it did not finish within {} s and was stopped", .0.as_secs_f32().ceil())]
    TimedOut(Duration),
    /// It wrote more than its reply may hold and was stopped.
    #[error("it sent back more than {} MB and was stopped", .0 >> 20)]
    Flooded(u64),
    /// It ended without success: by a signal, or by an exit code.
    #[error("{}", crash_words(*.status, .stderr))]
    Crashed {
        /// How it ended.
        status: ExitStatus,
        /// The start of what it wrote to stderr.
        stderr: String,
    },
    /// It went away mid-exchange (its pipe closed, waiting for it failed).
    #[error("it stopped ({0})")]
    Lost(String),
}

impl Launch {
    /// `program`, run in `/` with an empty environment and no arguments yet.
    pub fn new(program: impl Into<PathBuf>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            dir: PathBuf::from("/"),
        }
    }

    /// One more argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// More arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// One variable in its otherwise empty environment (`OMP_THREAD_LIMIT=1`).
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Runs it in `dir` instead of `/`.
    pub fn in_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dir = dir.into();
        self
    }

    fn command(&self, stderr: Stdio) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command
    }

    /// Starts it, writes `input` to it, and returns what it printed once it exited
    /// with success: at most `cap` bytes, within `deadline`.
    pub fn run_once(&self, input: &[u8], deadline: Duration, cap: u64) -> Result<Vec<u8>, Failure> {
        let mut child = self
            .command(Stdio::piped())
            .spawn()
            .map_err(Failure::Start)?;
        let group = child.id();
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take();
        let mut stderr = child.stderr.take();
        let (status, (out, flooded), err) = std::thread::scope(|s| {
            s.spawn(move || {
                if let Some(mut stdin) = stdin {
                    // A worker that dies early closes the pipe; its exit status says why.
                    let _ = stdin.write_all(input);
                }
            });
            let out = s.spawn(move || {
                let mut buf = Vec::new();
                let mut flooded = false;
                if let Some(o) = stdout.as_mut() {
                    let _ = o.by_ref().take(cap + 1).read_to_end(&mut buf);
                    if buf.len() as u64 > cap {
                        // Stopped now, not at its deadline; drained so nothing blocks.
                        buf = Vec::new();
                        flooded = true;
                        kill_group(group);
                        let _ = std::io::copy(o, &mut std::io::sink());
                    }
                }
                (buf, flooded)
            });
            let err = s.spawn(move || {
                let mut buf = Vec::new();
                if let Some(e) = stderr.as_mut() {
                    let _ = e.by_ref().take(STDERR_KEPT).read_to_end(&mut buf);
                    let _ = std::io::copy(e, &mut std::io::sink());
                }
                buf
            });
            let status = wait_until(&mut child, deadline);
            (
                status,
                out.join().unwrap_or_default(),
                err.join().unwrap_or_default(),
            )
        });
        if flooded {
            return Err(Failure::Flooded(cap));
        }
        let status = status?;
        if !status.success() {
            return Err(Failure::Crashed {
                status,
                stderr: String::from_utf8_lossy(&err).into_owned(),
            });
        }
        Ok(out)
    }

    /// Starts it as a long-lived worker that answers each line it is sent with one
    /// line. Its stderr is discarded (it reports in its replies).
    pub fn start_lines(&self, name: &str) -> Result<LineWorker, Failure> {
        let mut child = self
            .command(Stdio::null())
            .spawn()
            .map_err(Failure::Start)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            end(&mut child);
            return Err(Failure::Start(std::io::Error::other("no pipes")));
        };
        let (sender, replies) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                let mut lines = BufReader::new(stdout);
                loop {
                    let mut line = String::new();
                    match lines.read_line(&mut line) {
                        Ok(0) => return,
                        Ok(_) => {
                            if sender.send(Ok(line)).is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            let _ = sender.send(Err(e));
                            return;
                        }
                    }
                }
            });
        if let Err(e) = reader {
            end(&mut child);
            return Err(Failure::Start(e));
        }
        Ok(LineWorker {
            child,
            stdin,
            replies,
        })
    }
}

/// A running worker that answers one line per line; killed and reaped when dropped.
#[derive(Debug)]
pub struct LineWorker {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<std::io::Result<String>>,
}

impl LineWorker {
    /// The worker's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends `line` (a newline is added) and waits at most `deadline` for the answer
    /// line. A worker that does not answer in time is killed ([`Failure::TimedOut`]);
    /// one that went away says how it ended ([`Failure::Lost`]).
    pub fn exchange(&mut self, line: &str, deadline: Duration) -> Result<String, Failure> {
        let sent = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        let reply = match sent {
            Ok(()) => self.replies.recv_timeout(deadline),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        };
        match reply {
            Ok(Ok(reply)) => Ok(reply),
            Err(RecvTimeoutError::Timeout) => {
                end(&mut self.child);
                Err(Failure::TimedOut(deadline))
            }
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .wait()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| e.to_string());
                Err(Failure::Lost(status))
            }
        }
    }
}

impl Drop for LineWorker {
    fn drop(&mut self) {
        end(&mut self.child);
    }
}

/// Kills the worker's whole process group (it leads one, [`Launch::command`]) and
/// reaps the worker.
fn end(child: &mut Child) {
    kill_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
}

/// Kills the process group the worker `pid` leads.
fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Some(group) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
}

/// Waits for `child` at most `deadline`; kills and reaps it after that.
fn wait_until(child: &mut Child, deadline: Duration) -> Result<ExitStatus, Failure> {
    use wait_timeout::ChildExt;
    match child.wait_timeout(deadline) {
        Ok(Some(status)) => Ok(status),
        Ok(None) => {
            end(child);
            Err(Failure::TimedOut(deadline))
        }
        Err(e) => {
            end(child);
            Err(Failure::Lost(e.to_string()))
        }
    }
}

/// How a crashed worker ended, with the last line it wrote to stderr. Callers that
/// know their worker's failures word them better (the PDF reader's stack overflow).
fn crash_words(status: ExitStatus, stderr: &str) -> String {
    let said = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    match (signal_of(status), said.is_empty()) {
        (Some(n), true) => format!("it was ended by signal {n}"),
        (Some(n), false) => format!("it was ended by signal {n}: {said}"),
        (None, true) => format!("it failed ({status})"),
        (None, false) => format!("it failed ({status}): {said}"),
    }
}

/// The signal that ended a worker, if one did.
#[cfg(unix)]
pub fn signal_of(status: ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&status)
}

/// The signal that ended a worker, if one did.
#[cfg(not(unix))]
pub fn signal_of(_: ExitStatus) -> Option<i32> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Launch {
        Launch::new("/bin/sh").arg("-c").arg(script)
    }

    #[test]
    fn a_worker_gets_its_input_an_empty_environment_and_the_folder_chosen() {
        let out = sh("cat; echo; env; pwd")
            .env("ONLY", "this")
            .run_once(b"bytes in", Duration::from_secs(10), 1 << 20)
            .unwrap_or_default();
        let out = String::from_utf8_lossy(&out);
        let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("PWD=")).collect();
        // sh itself may add PWD, SHLVL and `_`; nothing of this process's environment.
        assert_eq!(lines.first(), Some(&"bytes in"), "{out}");
        assert!(lines.contains(&"ONLY=this"), "{out}");
        assert!(!out.contains("PATH=/") && !out.contains("HOME="), "{out}");
        assert_eq!(lines.last(), Some(&"/"), "{out}");
    }

    #[test]
    fn a_hung_worker_is_killed_at_its_deadline_and_a_flooding_one_is_stopped() {
        let started = std::time::Instant::now();
        let hung = sh("sleep 30").run_once(b"", Duration::from_millis(300), 1 << 20);
        assert!(matches!(hung, Err(Failure::TimedOut(_))), "{hung:?}");
        assert!(started.elapsed() < Duration::from_secs(10));
        let flood = sh("yes").run_once(b"", Duration::from_secs(10), 1 << 20);
        assert!(
            matches!(flood, Err(Failure::Flooded(c)) if c == 1 << 20),
            "{flood:?}"
        );
    }

    #[test]
    fn a_crash_says_its_signal_and_its_last_words() {
        let crash = sh("echo 'the last words' >&2; kill -SEGV $$").run_once(
            b"",
            Duration::from_secs(10),
            1 << 20,
        );
        match crash {
            Err(Failure::Crashed { status, stderr }) => {
                assert_eq!(signal_of(status), Some(11));
                assert!(stderr.contains("the last words"));
                let said = Failure::Crashed { status, stderr }.to_string();
                assert_eq!(said, "it was ended by signal 11: the last words");
            }
            other => panic!("{other:?}"),
        }
        let missing = Launch::new("/no/such/program").run_once(b"", Duration::from_secs(1), 1);
        assert!(matches!(missing, Err(Failure::Start(_))), "{missing:?}");
    }

    #[test]
    fn a_line_worker_answers_in_turn_is_killed_when_hung_and_when_dropped() {
        let mut echo = match sh("while read l; do echo \"re: $l\"; done").start_lines("echo") {
            Ok(w) => w,
            Err(e) => panic!("{e}"),
        };
        let first = echo.exchange("one", Duration::from_secs(10));
        assert_eq!(first.ok().as_deref(), Some("re: one\n"));
        let second = echo.exchange("two", Duration::from_secs(10));
        assert_eq!(second.ok().as_deref(), Some("re: two\n"));
        let pid = echo.id();
        drop(echo);
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "reaped when dropped"
        );

        let mut silent = match sh("read l; sleep 30").start_lines("silent") {
            Ok(w) => w,
            Err(e) => panic!("{e}"),
        };
        let hung = silent.exchange("hello", Duration::from_millis(300));
        assert!(matches!(hung, Err(Failure::TimedOut(_))), "{hung:?}");
        let after = silent.exchange("again", Duration::from_secs(5));
        assert!(matches!(after, Err(Failure::Lost(_))), "{after:?}");
    }
}
