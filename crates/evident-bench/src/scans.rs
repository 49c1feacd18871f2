//! Scanned-looking copies of born-digital PDFs, made when a test or benchmark needs
//! them (never stored): each chosen page is drawn by the PDF worker at 300 dpi and put
//! back in the PDF as an image, in place of its text. The `noisy` kind looks like a
//! real scan: turned 1.5°, on grey paper with grain, and, on pages with Chinese text,
//! a red circular seal stamped over a paragraph.
//!
//! The other kinds are what company scanners and copiers make, none of them a setting
//! the reader was tuned on: a low-quality JPEG, a blurred copy, ink bleeding through
//! from the back of the sheet, a black-and-white (binarised) copy, pages fed in
//! sideways or upside down, a notice whose first line is printed in red above a red
//! rule (a 红头文件's header), and two pages printed on one sheet ([`two_up_pdf`]).

use std::path::Path;

use anyhow::{Context, bail};
use evident_core::extract::pdf::PdfSandbox;
use lopdf::{Document, Object, Stream, dictionary};

/// What a copy looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Look {
    /// The page as drawn, nothing added.
    Clean,
    /// Turned, grey, grainy, and stamped (Chinese pages).
    Noisy,
    /// Saved as a JPEG at quality 20 (blocks and ringing around the strokes).
    Jpeg,
    /// Out of focus: blurred over about a third of a stroke's width each way.
    Blur,
    /// The back of the sheet shows through: the page mirrored, faint, under the text.
    Bleed,
    /// A black-and-white copy: every pixel black or white.
    Binarised,
    /// Fed in sideways: turned a quarter turn clockwise (the sheet landscape).
    Sideways,
    /// Fed in upside down.
    UpsideDown,
    /// The first line printed in red above a red rule, as a notice's header is.
    RedHeader,
}

impl Look {
    /// Every kind, with the name reports use.
    pub const ALL: [(Look, &'static str); 9] = [
        (Look::Clean, "clean"),
        (Look::Noisy, "noisy"),
        (Look::Jpeg, "jpeg"),
        (Look::Blur, "blur"),
        (Look::Bleed, "bleed-through"),
        (Look::Binarised, "binarised"),
        (Look::Sideways, "sideways"),
        (Look::UpsideDown, "upside-down"),
        (Look::RedHeader, "red-header"),
    ];
}

/// An RGB image.
pub struct Rgb {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// The resolution of the scans: what office scanners default to.
pub const SCAN_DPI: f64 = 300.0;

/// Draws page `number` of `bytes`, `width` pixels wide.
pub fn draw(sandbox: &PdfSandbox, bytes: &[u8], number: u32, width: u32) -> anyhow::Result<Rgb> {
    let page = sandbox
        .render(bytes, number, width)
        .map_err(|why| anyhow::anyhow!("page {number} could not be drawn: {why}"))?;
    let mut decoder = png::Decoder::new(std::io::Cursor::new(page.png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().context("the drawn page")?;
    let mut buf = vec![0; reader.output_buffer_size().context("page size")?];
    let info = reader.next_frame(&mut buf).context("the drawn page")?;
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| {
            if channels >= 3 {
                [p[0], p[1], p[2]]
            } else {
                [p[0]; 3]
            }
        })
        .collect();
    Ok(Rgb {
        width: info.width,
        height: info.height,
        pixels,
    })
}

/// A small deterministic generator (xorshift): the same copy every time.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 32) as u32
    }
    /// Roughly normal, mean 0, spread about `sd`.
    fn grain(&mut self, sd: f32) -> f32 {
        let sum: f32 = (0..4).map(|_| (self.next() % 1000) as f32 / 1000.0).sum();
        (sum - 2.0) * sd * 1.7
    }
}

/// Turns `img` into what a copier makes of it: turned by `degrees`, grey paper, grain,
/// and (when `seal`) a red circular seal over the upper middle of the page.
pub fn age(img: &Rgb, degrees: f32, seal: bool, seed: u64) -> Rgb {
    let (w, h) = (img.width as usize, img.height as usize);
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let (sin, cos) = degrees.to_radians().sin_cos();
    let paper = 222.0;
    let mut noise = Noise(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = vec![0u8; w * h * 3];
    let at = |x: usize, y: usize, c: usize| f32::from(img.pixels[(y * w + x) * 3 + c]);
    for y in 0..h {
        for x in 0..w {
            // Where this pixel comes from in the upright page (bilinear).
            let (dx, dy) = (x as f32 - cx, y as f32 - cy);
            let (sx, sy) = (cos * dx + sin * dy + cx, -sin * dx + cos * dy + cy);
            let grain = noise.grain(9.0);
            for c in 0..3 {
                let v = if sx >= 0.0 && sy >= 0.0 && sx < (w - 1) as f32 && sy < (h - 1) as f32 {
                    let (x0, y0) = (sx as usize, sy as usize);
                    let (fx, fy) = (sx - x0 as f32, sy - y0 as f32);
                    let top = at(x0, y0, c) * (1.0 - fx) + at(x0 + 1, y0, c) * fx;
                    let bottom = at(x0, y0 + 1, c) * (1.0 - fx) + at(x0 + 1, y0 + 1, c) * fx;
                    top * (1.0 - fy) + bottom * fy
                } else {
                    255.0
                };
                // White becomes grey paper; ink stays ink.
                let v = v / 255.0 * paper + grain;
                out[(y * w + x) * 3 + c] = v.clamp(0.0, 255.0) as u8;
            }
        }
    }
    if seal {
        stamp(&mut out, w, h);
    }
    Rgb {
        width: img.width,
        height: img.height,
        pixels: out,
    }
}

/// A red seal: two rings and a five-pointed star, multiplied over the page (text under
/// it stays dark), centred over the upper middle of the text.
fn stamp(px: &mut [u8], w: usize, h: usize) {
    let (cx, cy) = (w as f32 * 0.58, h as f32 * 0.30);
    let r = w as f32 * 0.11;
    let ink = [205.0f32, 40.0, 40.0];
    let star: Vec<(f32, f32)> = (0..10)
        .map(|k| {
            let a = std::f32::consts::PI * (k as f32 / 5.0) - std::f32::consts::FRAC_PI_2;
            let rr = if k % 2 == 0 { r * 0.42 } else { r * 0.17 };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    let inside_star = |x: f32, y: f32| {
        let mut inside = false;
        let n = star.len();
        for i in 0..n {
            let (xi, yi) = star[i];
            let (xj, yj) = star[(i + n - 1) % n];
            if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                inside = !inside;
            }
        }
        inside
    };
    let (x0, x1) = (
        (cx - r - 2.0).max(0.0) as usize,
        ((cx + r + 2.0) as usize).min(w),
    );
    let (y0, y1) = (
        (cy - r - 2.0).max(0.0) as usize,
        ((cy + r + 2.0) as usize).min(h),
    );
    for y in y0..y1 {
        for x in x0..x1 {
            let d = ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt();
            let ring = (d - r * 0.95).abs() < r * 0.05 || (d - r * 0.80).abs() < r * 0.012;
            if ring || inside_star(x as f32, y as f32) {
                for (c, &k) in ink.iter().enumerate() {
                    let i = (y * w + x) * 3 + c;
                    px[i] = (f32::from(px[i]) * k / 255.0 * 0.9 + f32::from(px[i]) * 0.1) as u8;
                }
            }
        }
    }
}

/// `img` blurred: a 3×3 box twice (about a Gaussian of 1.2 px at 300 dpi).
fn blur(img: &Rgb) -> Rgb {
    let (w, h) = (img.width as usize, img.height as usize);
    let mut px = img.pixels.clone();
    for _ in 0..2 {
        let src = px.clone();
        for y in 0..h {
            for x in 0..w {
                for c in 0..3 {
                    let mut sum = 0u32;
                    let mut n = 0u32;
                    for yy in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                        for xx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                            sum += u32::from(src[(yy * w + xx) * 3 + c]);
                            n += 1;
                        }
                    }
                    px[(y * w + x) * 3 + c] = (sum / n) as u8;
                }
            }
        }
    }
    Rgb {
        width: img.width,
        height: img.height,
        pixels: px,
    }
}

/// `img` with its own mirror image showing through faintly (15 % of its darkness), as
/// the back of a thin sheet printed on both sides does.
fn bleed(img: &Rgb) -> Rgb {
    let (w, h) = (img.width as usize, img.height as usize);
    let mut px = img.pixels.clone();
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let back = 255.0 - f32::from(img.pixels[(y * w + (w - 1 - x)) * 3 + c]);
                let i = (y * w + x) * 3 + c;
                px[i] = (f32::from(px[i]) - back * 0.15).clamp(0.0, 255.0) as u8;
            }
        }
    }
    Rgb {
        width: img.width,
        height: img.height,
        pixels: px,
    }
}

/// `img` in black and white (a copier's threshold at mid-grey, after a little grain).
fn binarise(img: &Rgb, seed: u64) -> Rgb {
    let mut noise = Noise(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let pixels = img
        .pixels
        .chunks(3)
        .flat_map(|p| {
            let grey = (u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) as f32 / 3.0;
            let v = if grey + noise.grain(12.0) < 150.0 {
                0
            } else {
                255
            };
            [v, v, v]
        })
        .collect();
    Rgb {
        width: img.width,
        height: img.height,
        pixels,
    }
}

/// `img` turned clockwise by a quarter turn (`quarter`) or a half turn.
fn turn(img: &Rgb, quarter: bool) -> Rgb {
    let (w, h) = (img.width as usize, img.height as usize);
    if !quarter {
        let pixels = img.pixels.chunks(3).rev().flatten().copied().collect();
        return Rgb {
            width: img.width,
            height: img.height,
            pixels,
        };
    }
    // Clockwise: the new (x, y) shows the old (y, h - 1 - x); the new width is h.
    let mut pixels = vec![0u8; w * h * 3];
    for ny in 0..w {
        for nx in 0..h {
            let (ox, oy) = (ny, h - 1 - nx);
            let (o, n) = ((oy * w + ox) * 3, (ny * h + nx) * 3);
            pixels[n..n + 3].copy_from_slice(&img.pixels[o..o + 3]);
        }
    }
    Rgb {
        width: img.height,
        height: img.width,
        pixels,
    }
}

/// `img` with its title printed in red and a red rule under it: the header of a
/// notice (红头). The title is the tallest line (band of rows with ink) in the top
/// two fifths of the page.
fn red_header(img: &Rgb) -> Rgb {
    let (w, h) = (img.width as usize, img.height as usize);
    let mut px = img.pixels.clone();
    let inked = |y: usize| (0..w).any(|x| img.pixels[(y * w + x) * 3] < 128);
    let mut bands: Vec<(usize, usize)> = Vec::new();
    let mut y = 0;
    while y < h * 2 / 5 {
        if inked(y) {
            let end = (y..h).find(|&b| !inked(b)).unwrap_or(h);
            bands.push((y, end));
            y = end;
        }
        y += 1;
    }
    let Some(&(top, bottom)) = bands.iter().max_by_key(|(a, b)| b - a) else {
        return Rgb {
            width: img.width,
            height: img.height,
            pixels: px,
        };
    };
    for y in top..bottom {
        for x in 0..w {
            let i = (y * w + x) * 3;
            let dark = 255.0 - f32::from(img.pixels[i]);
            // Red ink as dark as the black was: full red where the stroke was black.
            px[i] = (255.0 - dark * 0.2) as u8;
            px[i + 1] = (255.0 - dark * 0.85) as u8;
            px[i + 2] = (255.0 - dark * 0.85) as u8;
        }
    }
    let rule = bottom + (bottom - top) / 2;
    for y in rule..(rule + 6).min(h) {
        for x in w / 10..w - w / 10 {
            let i = (y * w + x) * 3;
            px[i..i + 3].copy_from_slice(&[205, 40, 40]);
        }
    }
    Rgb {
        width: img.width,
        height: img.height,
        pixels: px,
    }
}

/// The image stream of `img`: Flate, or JPEG at quality 20 for [`Look::Jpeg`].
fn image_stream(img: &Rgb, jpeg: bool) -> anyhow::Result<Stream> {
    let mut dict = dictionary! {
        "Type" => "XObject",
        "Subtype" => "Image",
        "Width" => i64::from(img.width),
        "Height" => i64::from(img.height),
        "ColorSpace" => "DeviceRGB",
        "BitsPerComponent" => 8,
    };
    let data = if jpeg {
        let mut out = Vec::new();
        let encoder = jpeg_encoder::Encoder::new(&mut out, 20);
        let (w, h) = (
            u16::try_from(img.width).context("page too wide for a JPEG")?,
            u16::try_from(img.height).context("page too tall for a JPEG")?,
        );
        encoder.encode(&img.pixels, w, h, jpeg_encoder::ColorType::Rgb)?;
        dict.set("Filter", "DCTDecode");
        out
    } else {
        let mut encoder =
            flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut encoder, &img.pixels)?;
        dict.set("Filter", "FlateDecode");
        encoder.finish()?
    };
    Ok(Stream::new(dict, data))
}

/// A copy of the PDF `bytes` whose pages for which `scanned(n)` holds are images (the
/// others keep their text), each made to look as `look` says.
pub fn scan_pdf(
    sandbox: &PdfSandbox,
    bytes: &[u8],
    scanned: impl Fn(u32) -> bool,
    look: Look,
) -> anyhow::Result<Vec<u8>> {
    let mut doc = Document::load_mem(bytes).context("the PDF to copy")?;
    let pages: Vec<(u32, lopdf::ObjectId)> = doc.get_pages().into_iter().collect();
    let texts = evident_core::extract::pdf::read::read_pdf(bytes)
        .map_err(|why| anyhow::anyhow!("the PDF to copy cannot be read: {why}"))?;
    for (number, page_id) in pages {
        if !scanned(number) {
            continue;
        }
        let (mw, mh) = media_size(&doc, page_id);
        let drawn = draw(
            sandbox,
            bytes,
            number,
            (mw / 72.0 * SCAN_DPI).round() as u32,
        )?;
        let zh = texts
            .pages
            .get(number as usize - 1)
            .is_some_and(|p| p.text.chars().any(evident_text::normalize::is_cjk));
        let img = match look {
            Look::Clean | Look::Jpeg => drawn,
            Look::Noisy => age(&drawn, 1.5, zh, u64::from(number)),
            Look::Blur => blur(&drawn),
            Look::Bleed => bleed(&drawn),
            Look::Binarised => binarise(&drawn, u64::from(number)),
            Look::Sideways => turn(&drawn, true),
            Look::UpsideDown => turn(&drawn, false),
            Look::RedHeader => red_header(&drawn),
        };
        let image = doc.add_object(image_stream(&img, look == Look::Jpeg)?);
        // A sheet fed in sideways is a landscape page.
        let (mw, mh) = if look == Look::Sideways {
            (mh, mw)
        } else {
            (mw, mh)
        };
        let content = format!("q {mw:.2} 0 0 {mh:.2} 0 0 cm /Scan Do Q").into_bytes();
        let contents = doc.add_object(Stream::new(dictionary! {}, content));
        let Ok(Object::Dictionary(page)) = doc.get_object_mut(page_id) else {
            bail!("page {number} is not a page");
        };
        page.set("Contents", contents);
        page.set(
            "Resources",
            dictionary! { "XObject" => dictionary! { "Scan" => image } },
        );
        page.remove(b"Rotate");
        if look == Look::Sideways {
            page.set(
                "MediaBox",
                vec![
                    0.into(),
                    0.into(),
                    Object::Real(mw as f32),
                    Object::Real(mh as f32),
                ],
            );
            page.remove(b"CropBox");
        }
    }
    let mut out = Vec::new();
    doc.save_to(&mut out)?;
    Ok(out)
}

/// A one-page PDF whose page is a landscape sheet holding pages `first` and `first + 1`
/// of `bytes` side by side, each at 71 % (two A4 pages on one A4 sheet, as a copier's
/// "2 in 1" prints them), as one image.
pub fn two_up_pdf(sandbox: &PdfSandbox, bytes: &[u8], first: u32) -> anyhow::Result<Vec<u8>> {
    let doc = Document::load_mem(bytes).context("the PDF to copy")?;
    let pages = doc.get_pages();
    let page_id = *pages.get(&first).context("no such page")?;
    let (mw, mh) = media_size(&doc, page_id);
    // Each half of the sheet: the page at 71 %, drawn at 300 dpi of the sheet.
    let half_w = (mw * 0.71 / 72.0 * SCAN_DPI).round() as u32;
    let left = draw(sandbox, bytes, first, half_w)?;
    let right = draw(sandbox, bytes, first + 1, half_w)?;
    let (sw, sh) = (
        (mh / 72.0 * SCAN_DPI).round() as usize,
        (mw / 72.0 * SCAN_DPI).round() as usize,
    );
    let mut pixels = vec![255u8; sw * sh * 3];
    for (k, half) in [left, right].iter().enumerate() {
        let x0 = k * sw / 2 + (sw / 2).saturating_sub(half.width as usize) / 2;
        let y0 = sh.saturating_sub(half.height as usize) / 2;
        for y in 0..(half.height as usize).min(sh - y0) {
            for x in 0..(half.width as usize).min(sw - x0) {
                let (o, n) = (
                    (y * half.width as usize + x) * 3,
                    ((y0 + y) * sw + x0 + x) * 3,
                );
                pixels[n..n + 3].copy_from_slice(&half.pixels[o..o + 3]);
            }
        }
    }
    let sheet = Rgb {
        width: sw as u32,
        height: sh as u32,
        pixels,
    };
    let mut out = Document::with_version("1.5");
    let image = out.add_object(image_stream(&sheet, false)?);
    let content = format!("q {mh:.2} 0 0 {mw:.2} 0 0 cm /Scan Do Q").into_bytes();
    let contents = out.add_object(Stream::new(dictionary! {}, content));
    let pages_id = out.new_object_id();
    let page = out.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "MediaBox" => vec![0.into(), 0.into(), Object::Real(mh as f32), Object::Real(mw as f32)],
        "Contents" => contents,
        "Resources" => dictionary! { "XObject" => dictionary! { "Scan" => image } },
    });
    out.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![page.into()],
            "Count" => 1,
        }),
    );
    let catalog = out.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    out.trailer.set("Root", catalog);
    let mut bytes_out = Vec::new();
    out.save_to(&mut bytes_out)?;
    Ok(bytes_out)
}

/// The page's media box size in points (A4 when it cannot be read).
fn media_size(doc: &Document, page_id: lopdf::ObjectId) -> (f64, f64) {
    let number = |o: &Object| {
        o.as_float()
            .map(f64::from)
            .or_else(|_| o.as_i64().map(|v| v as f64))
    };
    doc.get_dictionary(page_id)
        .ok()
        .and_then(|p| p.get(b"MediaBox").ok())
        .and_then(|b| b.as_array().ok())
        .and_then(|b| {
            let v: Vec<f64> = b.iter().filter_map(|o| number(o).ok()).collect();
            (v.len() == 4).then(|| (v[2] - v[0], v[3] - v[1]))
        })
        .unwrap_or((595.0, 842.0))
}

/// `evident-bench make-scans`: scanned copies of `pdfs` in `out` (same names), of their first
/// `first` pages when given.
pub fn make(
    pdfs: &[std::path::PathBuf],
    out: &Path,
    look: Look,
    mixed: bool,
    first: Option<u32>,
) -> anyhow::Result<()> {
    let sandbox = PdfSandbox::current_exe()?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for pdf in pdfs {
        let mut bytes =
            std::fs::read(pdf).with_context(|| format!("cannot read {}", pdf.display()))?;
        if let Some(first) = first {
            let mut doc = Document::load_mem(&bytes).context("the PDF to copy")?;
            let later: Vec<u32> = doc
                .get_pages()
                .keys()
                .copied()
                .filter(|n| *n > first)
                .collect();
            doc.delete_pages(&later);
            bytes.clear();
            doc.save_to(&mut bytes)?;
        }
        // Mixed: every other page stays text, from the second.
        let copy = scan_pdf(&sandbox, &bytes, |n| !mixed || n % 2 == 1, look)?;
        let name = pdf.file_name().context("a file name")?;
        std::fs::write(out.join(name), copy)?;
    }
    Ok(())
}
