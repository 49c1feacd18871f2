//! The hostile behaviours the PDF worker's sandbox must stop, acted out on purpose for
//! its tests (feature `testing`: a release build of Evident cannot be asked to hang,
//! crash or probe its confinement). `evident` accepts them only as the worker's own
//! argument, which nothing but [`super::PdfSandbox`] passes.

use std::io::Write;

use super::confine::{Confinement, probe};
use super::sandbox::WorkerReply;

/// What a worker does instead of reading the PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misbehaviour {
    /// Spins forever.
    Hang,
    /// Allocates (and touches) memory without bound.
    Allocate,
    /// Aborts.
    Crash,
    /// Writes to stdout without end.
    Flood,
    /// Tries to read and write files, connect to this loopback port and run a program,
    /// and reports what worked.
    Probe(u16),
    /// The same, confined as the OCR step is before it becomes Tesseract.
    ProbeOcr(u16),
}

impl Misbehaviour {
    pub(super) fn arg(self) -> String {
        match self {
            Self::Hang => "hang".into(),
            Self::Allocate => "allocate".into(),
            Self::Crash => "crash".into(),
            Self::Flood => "flood".into(),
            Self::Probe(port) => format!("probe:{port}"),
            Self::ProbeOcr(port) => format!("probe-ocr:{port}"),
        }
    }

    pub(super) fn parse(arg: &str) -> Option<Self> {
        Some(match arg {
            "hang" => Self::Hang,
            "allocate" => Self::Allocate,
            "crash" => Self::Crash,
            "flood" => Self::Flood,
            other => match other.strip_prefix("probe-ocr:") {
                Some(port) => Self::ProbeOcr(port.parse().ok()?),
                None => Self::Probe(other.strip_prefix("probe:")?.parse().ok()?),
            },
        })
    }
}

/// Does what a hostile file might make a parser do; never returns.
pub(super) fn act(m: Misbehaviour, confinement: Confinement) -> WorkerReply {
    match m {
        Misbehaviour::Hang => loop {
            std::hint::spin_loop();
        },
        Misbehaviour::Allocate => {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(vec![1u8; 64 << 20]);
                std::hint::black_box(&hoard);
            }
        }
        Misbehaviour::Crash => std::process::abort(),
        Misbehaviour::Flood => {
            let mut out = std::io::stdout().lock();
            let block = vec![b'x'; 1 << 20];
            loop {
                if out.write_all(&block).is_err() {
                    std::process::exit(4);
                }
            }
        }
        Misbehaviour::Probe(port) | Misbehaviour::ProbeOcr(port) => {
            WorkerReply::Probed(probe(confinement, port))
        }
    }
}
