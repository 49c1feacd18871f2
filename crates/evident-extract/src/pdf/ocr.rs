//! Reading scanned pages: a page without a text layer (or with one that decodes to no
//! readable characters) is drawn at [`DPI`] by the PDF worker and read by Tesseract.
//!
//! * **Tesseract 5 from Debian, as a program.** It runs as the last step of a confined
//!   worker ([`super::sandbox`]): the worker sets its limits and Landlock rules (read the
//!   system's files, execute only `tesseract`, write nothing, no network) and then
//!   becomes `tesseract`, so a hostile scan is as contained as a hostile PDF. Linking
//!   libtesseract into every Evident binary would bring C++ and a second image stack
//!   into the app's own process for no gain.
//! * **Seals, not red text.** A red stamp over a paragraph turns the text under it into
//!   noise for a reader that sees grey. Where a seal is (a saturated red region roughly
//!   as tall as it is wide, half an inch or more: [`seal_regions`]) the page is handed
//!   to Tesseract as its red channel, so red ink is as bright as paper and black ink
//!   under it stays black; everywhere else as its luminance, so a red header line (a
//!   红头文件's issuing organ) stays dark and is read. (The whole page as its red
//!   channel erased red headers entirely.)
//! * **Pages the wrong way round.** A page that reads as noise (mean confidence below
//!   [`TURN_BELOW`]: an upside-down page reads at about 28) is read again after
//!   Tesseract's own orientation detection (`--psm 1`, with Debian's
//!   `tesseract-ocr-osd`, which `tesseract-ocr` depends on), and the better reading is
//!   kept; the boxes stay in the page's pixels as drawn, where the viewer marks them.
//!   Upright pages are read as before: on the tuning pages, detecting the orientation
//!   of every page lost 2 points of Chinese accuracy (a table page read worse).
//! * **Askew pages and tables.** A page placed askew is straightened first
//!   ([`super::deskew`]); then the ruled lines of tables are whitened ([`erase_rules`]),
//!   which Tesseract would read as `|` while losing the cells' words.
//! * **Text that reads like the page.** Words come back with their boxes (TSV); lines
//!   are joined as the PDF reader joins them (no space between Chinese characters), a
//!   paragraph per Tesseract paragraph, and [`super::clean`] then treats the page like
//!   any other: running headers, page numbers, hyphenation.
//! * **Nothing read twice.** Results are kept in `ocr-cache.sqlite3` beside the index,
//!   keyed by the drawn page's hash, the engine's version, the languages and
//!   [`Cache::FORMAT`]: a rebuild or a re-import reads no page again, and a reading made
//!   by another version is never served.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use evident_text::normalize::is_cjk;
use evident_words::problem::Problem;

/// The Debian packages that read scans.
pub const PACKAGES: &str = "tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng";

/// Resolution pages are drawn at for reading. Tesseract's Chinese model reads type
/// drawn small better than large: chosen on the tuning pages of `evident-bench ocr`
/// (the labour contract law, a prospectus's table page, the English travel policy),
/// Chinese read 94.8 % at 150 dpi, 88.2 % at 200 and 94.3 % at 120, and at 300 dpi
/// 劳动 came back as one wrong character on most lines (the law's page 2: 95.7 %);
/// English read 99.4 % at 150 and 200 alike. A quarter of 300 dpi's pixels is also
/// faster to draw and read.
pub const DPI: u32 = 150;

/// The languages read when nothing says otherwise: Chinese and English, as policies
/// mix them. At [`DPI`] the typeset law reads 99.0 % so and 99.3 % as Chinese alone,
/// the English policy 99.4 % so and 98.7 % as Chinese alone.
pub const DEFAULT_LANGS: &str = "chi_sim+eng";
/// The languages of a Chinese document (English words in it are still read).
pub const CHINESE: &str = "chi_sim";
/// The languages of an English document.
pub const ENGLISH: &str = "eng";

/// Below this mean word confidence (0–100), or with fewer readable characters than
/// [`MIN_CHARS`], a page is reported as unreadable rather than indexed as noise.
pub const MIN_CONFIDENCE: f32 = 45.0;
/// See [`MIN_CONFIDENCE`].
pub const MIN_CHARS: usize = 8;

/// The Tesseract found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Engine {
    /// The program.
    pub program: PathBuf,
    /// Its version line (`tesseract 5.3.0`), part of every cached result's key.
    pub version: String,
    /// The languages it has data for.
    pub langs: Vec<String>,
}

/// The Tesseract of this machine, if it has one with Chinese and English data; else
/// why not (naming the packages to install).
pub fn engine() -> Result<Engine, Problem> {
    static FOUND: OnceLock<Result<Engine, Problem>> = OnceLock::new();
    FOUND.get_or_init(find_engine).clone()
}

/// Environment variable naming the Tesseract to use (a path), or `none` for none (to
/// see what Evident says on a machine without it).
pub const TESSERACT_ENV: &str = "EVIDENT_TESSERACT";

fn find_engine() -> Result<Engine, Problem> {
    let missing = |what: &str| Problem::OcrUnavailable {
        packages: PACKAGES.into(),
        detail: what.into(),
    };
    let candidates: Vec<PathBuf> = match std::env::var_os(TESSERACT_ENV) {
        Some(chosen) => vec![PathBuf::from(chosen)],
        None => vec![
            "/usr/bin/tesseract".into(),
            "/usr/local/bin/tesseract".into(),
        ],
    };
    let program = candidates
        .into_iter()
        .find(|p| p.is_file())
        .ok_or_else(|| missing("no tesseract program"))?;
    let run = |arg: &str| {
        std::process::Command::new(&program)
            .arg(arg)
            .env_clear()
            .output()
            .map(|o| {
                let mut s = String::from_utf8_lossy(&o.stdout).into_owned();
                s.push_str(&String::from_utf8_lossy(&o.stderr));
                s
            })
            .map_err(|e| missing(&format!("tesseract cannot run: {e}")))
    };
    let version = run("--version")?
        .lines()
        .next()
        .unwrap_or("tesseract")
        .trim()
        .to_owned();
    let langs: Vec<String> = run("--list-langs")?
        .lines()
        .skip(1)
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect();
    for needed in ["chi_sim", "eng"] {
        if !langs.iter().any(|l| l == needed) {
            return Err(missing(&format!("no {needed} language data")));
        }
    }
    Ok(Engine {
        program,
        version,
        langs,
    })
}

/// The languages to read a document's scanned pages in, when its pages with text say:
/// English for English text, Chinese for Chinese; `None` when it has no text to go by
/// (then its first scanned page decides, [`OcrPage::is_latin`]).
pub fn langs_for(text_pages: &[&str]) -> Option<&'static str> {
    let (cjk, letters) = script_counts(text_pages.iter().flat_map(|t| t.chars()));
    if letters > 200 && cjk * 100 < letters {
        Some(ENGLISH)
    } else if cjk > 50 {
        Some(CHINESE)
    } else {
        None
    }
}

/// Chinese (Japanese, Korean) characters and other letters in `chars`.
fn script_counts(chars: impl Iterator<Item = char>) -> (usize, usize) {
    let (mut cjk, mut letters) = (0usize, 0usize);
    for c in chars {
        if is_cjk(c) {
            cjk += 1;
        } else if c.is_alphabetic() {
            letters += 1;
        }
    }
    (cjk, letters)
}

/// A drawn page made ready for Tesseract ([`page_for_reading`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PageForReading {
    /// The image Tesseract reads (PGM).
    pub pgm: Vec<u8>,
    /// Its width in pixels (that of the page as drawn).
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// The slant it was straightened by, in degrees (0: none); what is read on it is
    /// turned back by as much ([`parse_tsv`]).
    pub skew: f32,
}

/// A drawn page as Tesseract reads it: a grey PGM ([`grey_without_seals`]: red seals
/// fade to paper, black text under them and red text elsewhere stay), straightened
/// when it sits askew ([`super::deskew`]), without the rules of tables ([`erase_rules`]), from the
/// worker's PNG drawn at `dpi`.
pub fn page_for_reading(png_bytes: &[u8], dpi: u32) -> Result<PageForReading, Problem> {
    let bad = |e: String| Problem::PdfReader {
        detail: format!("the drawn page could not be read back ({e})"),
    };
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| bad(e.to_string()))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| bad("too large".into()))?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| bad(e.to_string()))?;
    let channels = info.color_type.samples();
    let (w, h) = (info.width, info.height);
    let pixels = &buf[..info.buffer_size()];
    let mut grey: Vec<u8> = if channels >= 3 {
        let rgb: Vec<[u8; 3]> = pixels
            .chunks(channels)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        grey_without_seals(&rgb, w as usize, h as usize, dpi)
    } else {
        pixels.chunks(channels).map(|p| p[0]).collect()
    };
    let mut skew = super::deskew::find_skew(&grey, w as usize, h as usize);
    if skew.abs() >= super::deskew::MIN_DEGREES {
        grey = super::deskew::straighten(&grey, w as usize, h as usize, skew);
    } else {
        skew = 0.0;
    }
    erase_rules(&mut grey, w as usize, h as usize, dpi);
    let mut pgm = format!("P5\n{w} {h}\n255\n").into_bytes();
    pgm.extend(grey);
    Ok(PageForReading {
        pgm,
        width: w,
        height: h,
        skew,
    })
}

/// Whether a pixel is the saturated red of a seal's ink (or a red header's).
fn is_red(p: [u8; 3]) -> bool {
    let [r, g, b] = p.map(i32::from);
    r >= 120 && r - g >= 60 && r - b >= 60
}

/// The seals on an RGB page `w`×`h` drawn at `dpi`, as pixel rectangles `(x0, y0, x1,
/// y1)`: connected regions of saturated red (on a grid of cells a thirtieth of an inch
/// across) at least half an inch each way and roughly as tall as wide (between 3:5 and
/// 5:3). A red header line is many times wider than tall and a red character smaller,
/// so neither is taken for a seal.
pub fn seal_regions(
    rgb: &[[u8; 3]],
    w: usize,
    h: usize,
    dpi: u32,
) -> Vec<(usize, usize, usize, usize)> {
    if rgb.len() < w * h || w == 0 || h == 0 {
        return Vec::new();
    }
    let cell = (dpi as usize / 30).max(2);
    let (cw, ch) = (w.div_ceil(cell), h.div_ceil(cell));
    let mut red = vec![false; cw * ch];
    for y in 0..h {
        for x in 0..w {
            if is_red(rgb[y * w + x]) {
                red[(y / cell) * cw + x / cell] = true;
            }
        }
    }
    let min = (dpi as usize / 2).div_ceil(cell);
    let mut seen = vec![false; cw * ch];
    let mut seals = Vec::new();
    for start in 0..cw * ch {
        if !red[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        while let Some(i) = stack.pop() {
            let (cx, cy) = (i % cw, i / cw);
            (x0, y0, x1, y1) = (x0.min(cx), y0.min(cy), x1.max(cx), y1.max(cy));
            for ny in cy.saturating_sub(1)..=(cy + 1).min(ch - 1) {
                for nx in cx.saturating_sub(1)..=(cx + 1).min(cw - 1) {
                    let j = ny * cw + nx;
                    if red[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
        let round = bw * 3 <= bh * 5 && bh * 3 <= bw * 5;
        if bw >= min && bh >= min && round {
            seals.push((
                (x0 * cell).saturating_sub(cell),
                (y0 * cell).saturating_sub(cell),
                ((x1 + 2) * cell).min(w),
                ((y1 + 2) * cell).min(h),
            ));
        }
    }
    seals
}

/// An RGB page as grey for reading: its luminance, except inside [`seal_regions`],
/// where it is the red channel (the seal's red ink as bright as paper, black ink under
/// it still black).
pub fn grey_without_seals(rgb: &[[u8; 3]], w: usize, h: usize, dpi: u32) -> Vec<u8> {
    let luminance = |[r, g, b]: [u8; 3]| {
        ((299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b)) / 1000) as u8
    };
    let mut grey: Vec<u8> = rgb.iter().map(|&p| luminance(p)).collect();
    for (x0, y0, x1, y1) in seal_regions(rgb, w, h, dpi) {
        for y in y0..y1 {
            for x in x0..x1 {
                grey[y * w + x] = rgb[y * w + x][0];
            }
        }
    }
    grey
}

/// Below this grey level a pixel is ink.
pub(super) const INK: u8 = 160;

/// Whitens the ruled lines of tables and boxes on a grey page `w`×`h` drawn at `dpi`:
/// straight runs of ink at least 0.4 inch long and at most 0.04 inch thick. Tesseract
/// reads a table's rules as `|` and `_` and loses the cells' words between them; no
/// character is that long, and a filled area (a photo, a dark banner) is thicker.
pub fn erase_rules(grey: &mut [u8], w: usize, h: usize, dpi: u32) {
    if grey.len() < w * h || w == 0 || h == 0 {
        return;
    }
    let long = (dpi as usize * 2 / 5).max(8);
    let thick = (dpi as usize / 25).max(2);
    let ink = |i: usize| grey[i] < INK;
    // Along rows (horizontal rules), then along columns (vertical ones).
    let mut rules = vec![false; w * h];
    let mark = |cells: &mut dyn Iterator<Item = usize>, rules: &mut Vec<bool>| {
        let mut run: Vec<usize> = Vec::new();
        for i in cells.chain(std::iter::once(usize::MAX)) {
            if i != usize::MAX && ink(i) {
                run.push(i);
                continue;
            }
            if run.len() >= long {
                for &j in &run {
                    rules[j] = true;
                }
            }
            run.clear();
        }
    };
    let mut across = vec![false; w * h];
    for y in 0..h {
        mark(&mut (0..w).map(|x| y * w + x), &mut across);
    }
    let mut down = vec![false; w * h];
    for x in 0..w {
        mark(&mut (0..h).map(|y| y * w + x), &mut down);
    }
    // A rule is thin across its length: a horizontal run's column of marked pixels
    // (and a vertical run's row) is at most `thick` long.
    let thin = |marked: &[bool], cells: &mut dyn Iterator<Item = usize>, rules: &mut Vec<bool>| {
        let mut run: Vec<usize> = Vec::new();
        for i in cells.chain(std::iter::once(usize::MAX)) {
            if i != usize::MAX && marked[i] {
                run.push(i);
                continue;
            }
            if !run.is_empty() && run.len() <= thick {
                for &j in &run {
                    rules[j] = true;
                }
            }
            run.clear();
        }
    };
    for x in 0..w {
        thin(&across, &mut (0..h).map(|y| y * w + x), &mut rules);
    }
    for y in 0..h {
        thin(&down, &mut (0..w).map(|x| y * w + x), &mut rules);
    }
    for (pixel, rule) in grey.iter_mut().zip(rules) {
        if rule {
            *pixel = 255;
        }
    }
}

/// One line of a scanned page and where it is, in shares of the page (0..1).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OcrLine {
    /// The line's text.
    pub text: String,
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// What was read on one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OcrPage {
    /// Lines separated by `\n`, paragraphs by `\n\n` (as [`super::layout`] gives).
    pub text: String,
    /// The lines with their boxes, in reading order.
    pub lines: Vec<OcrLine>,
    /// Mean confidence of the words (0–100).
    pub confidence: f32,
}

impl OcrPage {
    /// Whether the page read is Latin text: then the rest of its document is read in
    /// English.
    pub fn is_latin(&self) -> bool {
        let (cjk, letters) = script_counts(self.text.chars());
        letters > 50 && cjk * 10 < letters
    }

    /// Whether the page read as text, not as noise (a blank page, a photograph).
    pub fn is_readable(&self) -> bool {
        let chars = self.text.chars().filter(|c| c.is_alphanumeric()).count();
        chars >= MIN_CHARS && self.confidence >= MIN_CONFIDENCE
    }
}

/// Reads Tesseract's TSV output for a page `width` × `height` pixels that was
/// straightened by `skew` degrees before it was read: the lines' boxes are turned back
/// onto the page as drawn.
pub fn parse_tsv(tsv: &str, width: u32, height: u32, skew: f32) -> OcrPage {
    struct Word {
        key: (u32, u32, u32),
        text: String,
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        conf: f32,
    }
    let (fw, fh) = (width.max(1) as f32, height.max(1) as f32);
    let words: Vec<Word> = tsv
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 12 || f[0] != "5" {
                return None;
            }
            let num = |i: usize| f[i].trim().parse::<f32>().ok();
            let text = f[11].trim();
            if text.is_empty() {
                return None;
            }
            let (x, y, w, h) = (num(6)?, num(7)?, num(8)?, num(9)?);
            Some(Word {
                key: (num(2)? as u32, num(3)? as u32, num(4)? as u32),
                text: text.to_owned(),
                x0: x,
                y0: y,
                x1: x + w,
                y1: y + h,
                conf: num(10).unwrap_or(0.0),
            })
        })
        .collect();
    let confidence = if words.is_empty() {
        0.0
    } else {
        words.iter().map(|w| w.conf.max(0.0)).sum::<f32>() / words.len() as f32
    };
    let mut text = String::new();
    let mut lines: Vec<OcrLine> = Vec::new();
    let mut i = 0;
    let mut last_par: Option<(u32, u32)> = None;
    while i < words.len() {
        let key = words[i].key;
        let mut j = i;
        let mut line = String::new();
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        while j < words.len() && words[j].key == key {
            let w = &words[j];
            let joins = line
                .chars()
                .last()
                .zip(w.text.chars().next())
                .is_some_and(|(a, b)| {
                    (is_cjk(a) || a.is_ascii_punctuation() || !a.is_ascii())
                        && (is_cjk(b) || !b.is_ascii())
                });
            if !line.is_empty() && !joins {
                line.push(' ');
            }
            line.push_str(&w.text);
            (x0, y0, x1, y1) = (x0.min(w.x0), y0.min(w.y0), x1.max(w.x1), y1.max(w.y1));
            j += 1;
        }
        let par = (key.0, key.1);
        if !text.is_empty() {
            text.push_str(if last_par == Some(par) { "\n" } else { "\n\n" });
        }
        last_par = Some(par);
        text.push_str(&line);
        let (x, y, bw, bh) =
            super::deskew::unstraighten_box((x0, y0, x1 - x0, y1 - y0), fw, fh, skew);
        lines.push(OcrLine {
            text: line,
            x: x / fw,
            y: y / fh,
            w: bw / fw,
            h: bh / fh,
        });
        i = j;
    }
    OcrPage {
        text,
        lines,
        confidence,
    }
}

/// Runs `tesseract` on `image` (PGM) directly, in this process's own child: for the
/// in-process PDF reader of tests and trusted files. User files go through the
/// confined worker ([`super::sandbox::PdfSandbox::ocr`]).
pub fn read_unconfined(
    engine: &Engine,
    image: &[u8],
    langs: &str,
    turned: bool,
) -> Result<String, Problem> {
    let out = evident_worker::process::Launch::new(&engine.program)
        .args(tesseract_args(langs, turned))
        .env("OMP_THREAD_LIMIT", "1")
        .run_once(image, UNCONFINED_DEADLINE, 64 << 20)
        .map_err(|e| Problem::OcrFailed {
            detail: format!("tesseract: {e}"),
        })?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// How long an unconfined Tesseract may read one page (the confined one has the PDF
/// worker's limits).
const UNCONFINED_DEADLINE: std::time::Duration = std::time::Duration::from_secs(300);

/// Below this mean word confidence a page is read again, `turned`
/// ([`tesseract_args`]): an upside-down page of Chinese read 28.3, the same page
/// upright 93.6, the tuning set's noisy scans above 70.
pub const TURN_BELOW: f32 = 60.0;

/// Tesseract's arguments: the image on stdin, TSV (words with boxes) on stdout; the
/// page's layout found automatically (`--psm 3`), or, `turned`, after finding its
/// orientation (`--psm 1`: a sideways or upside-down page is read the right way
/// round).
pub fn tesseract_args(langs: &str, turned: bool) -> Vec<String> {
    let psm = if turned { "1" } else { "3" };
    [
        "stdin",
        "stdout",
        "-l",
        langs,
        "--dpi",
        &DPI.to_string(),
        "--psm",
        psm,
        "tsv",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

/// The cache of pages read, beside the index (`ocr-cache.sqlite3`).
pub struct Cache {
    conn: rusqlite::Connection,
}

impl Cache {
    /// The cache file that belongs to the database at `db`.
    pub fn path_for(db: &Path) -> PathBuf {
        db.with_file_name("ocr-cache.sqlite3")
    }

    /// Opens (creating) the cache at `path`; `None` when it cannot be used (the pages
    /// are then read again next time, nothing else is lost).
    pub fn open(path: &Path) -> Option<Self> {
        let conn = rusqlite::Connection::open(path).ok()?;
        conn.busy_timeout(std::time::Duration::from_secs(10)).ok()?;
        // `source`: the SHA-256 of the file the page was read from, so that a removed
        // document's readings go with it (`forget`). The first table had none.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             DROP TABLE IF EXISTS pages;
             CREATE TABLE IF NOT EXISTS readings (
                 key TEXT PRIMARY KEY,
                 page TEXT NOT NULL,
                 read_at INTEGER NOT NULL,
                 source TEXT NOT NULL
             );
             CREATE INDEX IF NOT EXISTS readings_source ON readings(source);",
        )
        .ok()?;
        Some(Self { conn })
    }

    /// Forgets every page read from the file whose SHA-256 is `source` (a document that
    /// was removed, or replaced by another version): a confidential scan's words are
    /// not kept once the document is gone. Best effort, like the cache itself.
    pub fn forget(path: &Path, source: &str) {
        if !path.exists() {
            return;
        }
        if let Some(cache) = Self::open(path) {
            let _ = cache
                .conn
                .execute("DELETE FROM readings WHERE source = ?1", [source]);
        }
    }

    /// How a page read is turned into text and boxes ([`parse_tsv`]) and how the page
    /// is prepared and read ([`page_for_reading`], [`tesseract_args`]); raised when
    /// that changes, so that no page read by an older Evident is served from the cache.
    pub const FORMAT: u32 = 2;

    /// The most pages kept: beyond it the oldest readings go (about 10 KB each).
    pub const MAX_PAGES: i64 = 20_000;

    /// The key of a drawn page read by `engine` in `langs`.
    pub fn key(image: &[u8], engine: &Engine, langs: &str) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(Self::FORMAT.to_le_bytes());
        h.update(image);
        h.update(engine.version.as_bytes());
        h.update(b"\0");
        h.update(langs.as_bytes());
        format!("{:x}", h.finalize())
    }

    /// A page read before.
    pub fn get(&self, key: &str) -> Option<OcrPage> {
        let json: String = self
            .conn
            .query_row("SELECT page FROM readings WHERE key = ?1", [key], |r| {
                r.get(0)
            })
            .ok()?;
        serde_json::from_str(&json).ok()
    }

    /// Keeps a page read from the file whose SHA-256 is `source`, and keeps the cache
    /// within [`Self::MAX_PAGES`].
    pub fn put(&self, key: &str, page: &OcrPage, source: &str) {
        if let Ok(json) = serde_json::to_string(page) {
            let _ = self.conn.execute(
                "INSERT OR REPLACE INTO readings (key, page, read_at, source)
                 VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![key, json, crate::clock::now(), source],
            );
            let _ = self.conn.execute(
                "DELETE FROM readings WHERE rowid IN (SELECT rowid FROM readings
                 ORDER BY read_at DESC, rowid DESC LIMIT -1 OFFSET ?1)",
                [Self::MAX_PAGES],
            );
        }
    }

    /// How many pages are kept.
    pub fn len(&self) -> usize {
        self.conn
            .query_row("SELECT count(*) FROM readings", [], |r| r.get::<_, i64>(0))
            .map_or(0, |n| n as usize)
    }

    /// How many pages are kept from the file whose SHA-256 is `source`.
    pub fn count_from(&self, source: &str) -> usize {
        self.conn
            .query_row(
                "SELECT count(*) FROM readings WHERE source = ?1",
                [source],
                |r| r.get::<_, i64>(0),
            )
            .map_or(0, |n| n as usize)
    }

    /// Whether no page is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
1\t1\t0\t0\t0\t0\t0\t0\t1000\t2000\t-1\t
5\t1\t1\t1\t1\t1\t100\t100\t200\t40\t95\t第七条
5\t1\t1\t1\t1\t2\t320\t100\t300\t40\t93\t用人单位
5\t1\t1\t1\t2\t1\t100\t150\t400\t40\t90\t自用工之日起。
5\t1\t1\t2\t1\t1\t100\t300\t180\t40\t96\tAnnual
5\t1\t1\t2\t1\t2\t290\t300\t120\t40\t97\tleave
";

    #[test]
    fn words_become_lines_and_paragraphs_without_spaces_inside_chinese() {
        let page = parse_tsv(TSV, 1000, 2000, 0.0);
        assert_eq!(page.text, "第七条用人单位\n自用工之日起。\n\nAnnual leave");
        assert_eq!(page.lines.len(), 3);
        let first = &page.lines[0];
        assert!((first.x - 0.1).abs() < 1e-6 && (first.y - 0.05).abs() < 1e-6);
        assert!((first.w - 0.52).abs() < 1e-6 && (first.h - 0.02).abs() < 1e-6);
        assert!(page.is_readable(), "{}", page.confidence);
    }

    #[test]
    fn the_rules_of_a_table_are_erased_and_its_words_and_a_photo_kept() {
        // A 150-dpi page: a table's two rules (1 inch long), a "character" of short
        // strokes in a cell, and a dark photo 0.5 inch square.
        let (w, h) = (300usize, 300usize);
        let mut grey = vec![255u8; w * h];
        let mut ink = |x0: usize, y0: usize, x1: usize, y1: usize| {
            for y in y0..y1 {
                for x in x0..x1 {
                    grey[y * w + x] = 0;
                }
            }
        };
        ink(20, 40, 170, 42); // horizontal rule, 2 px thick
        ink(20, 40, 22, 190); // vertical rule
        ink(60, 60, 80, 62); // a character's strokes, 20 px
        ink(70, 55, 72, 80);
        ink(200, 200, 275, 275); // the photo
        erase_rules(&mut grey, w, h, 150);
        let at = |x: usize, y: usize| grey[y * w + x];
        assert_eq!(at(100, 41), 255, "the horizontal rule is erased");
        assert_eq!(at(21, 120), 255, "the vertical rule is erased");
        assert_eq!(at(65, 61), 0, "the character's strokes stay");
        assert_eq!(at(71, 75), 0, "the character's strokes stay");
        assert_eq!(at(240, 240), 0, "a filled area is no rule");
        assert_eq!(at(200, 237), 0, "not even its edge");
    }

    #[test]
    fn a_page_of_noise_is_not_readable() {
        let noise = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
5\t1\t1\t1\t1\t1\t10\t10\t20\t20\t12\t~
5\t1\t1\t1\t1\t2\t40\t10\t20\t20\t20\t/i
";
        assert!(!parse_tsv(noise, 100, 100, 0.0).is_readable());
    }

    #[test]
    fn the_text_pages_say_the_language_and_without_them_the_first_page_does() {
        let english = "The employee handbook describes paid time off. ".repeat(10);
        assert_eq!(langs_for(&[english.as_str()]), Some(ENGLISH));
        let chinese = "第一条 员工每年享有带薪年假，具体天数按工龄计算。".repeat(5);
        assert_eq!(langs_for(&[chinese.as_str()]), Some(CHINESE));
        assert_eq!(langs_for(&[]), None);
        let read = |text: &str| OcrPage {
            text: text.into(),
            lines: Vec::new(),
            confidence: 90.0,
        };
        assert!(read(&english).is_latin());
        assert!(!read(&chinese).is_latin());
    }

    /// A page at 150 dpi with a red seal (a ring, 1 inch across, over black text) and
    /// a red header line (wide and short): the seal becomes paper, the black text under
    /// it stays black, and the header stays dark enough to be read.
    #[test]
    fn a_seal_fades_and_a_red_header_line_stays() {
        let (w, h) = (600usize, 400usize);
        let white = [250u8, 250, 250];
        let red = [205u8, 40, 40];
        let mut rgb = vec![white; w * h];
        // The header: a red band of "characters" 20 px tall, 400 px long.
        for y in 30..50 {
            for x in 100..500 {
                if x % 24 < 18 {
                    rgb[y * w + x] = red;
                }
            }
        }
        // The seal: a ring of radius 75 around (300, 250), over a black text line.
        for y in 0..h {
            for x in 0..w {
                let d = ((x as f32 - 300.0).powi(2) + (y as f32 - 250.0).powi(2)).sqrt();
                if (d - 75.0).abs() < 5.0 {
                    rgb[y * w + x] = red;
                }
            }
        }
        for x in 200..400 {
            for y in 245..255 {
                if x % 20 < 14 && rgb[y * w + x] != red {
                    rgb[y * w + x] = [20, 20, 20];
                }
            }
        }
        let seals = seal_regions(&rgb, w, h, 150);
        assert_eq!(seals.len(), 1, "{seals:?}");
        let (x0, y0, x1, y1) = seals[0];
        assert!(
            x0 <= 225 && x1 >= 375 && y0 <= 175 && y1 >= 325,
            "{seals:?}"
        );
        let grey = grey_without_seals(&rgb, w, h, 150);
        let at = |x: usize, y: usize| grey[y * w + x];
        assert!(
            at(375, 250) > INK,
            "the seal's ring is paper: {}",
            at(375, 250)
        );
        assert!(at(210, 250) < INK, "black text under the seal stays ink");
        assert!(
            at(110, 40) < INK,
            "the red header stays ink: {}",
            at(110, 40)
        );
    }
}
