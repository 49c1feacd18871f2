//! A PDF page as the user sees it: its pixels, drawn by hayro, and its text as boxes
//! over those pixels, so that the source viewer can mark a cited passage where it is
//! printed.
//!
//! Why here and not in the web view: pdf.js, its worker, its fonts and its CMaps cost
//! the window's web process about 130 MB once the first PDF was opened, and parsed the
//! user's file in the same process that shows everything else. A page drawn by the
//! confined PDF worker ([`super::sandbox`]) comes back as one PNG; the web view holds an
//! image and a few hundred boxes. hayro is a pure-Rust rasteriser (no unsafe code, no
//! system library, MIT/Apache like Evident) whose tests run over the pdf.js and PDFBox
//! corpora; poppler and MuPDF would bind GPL/AGPL code into the app.
//!
//! The boxes come from the same glyph decoding and layout that produced the stored
//! text ([`super::read`], [`super::layout`]), in the same reading order, so a passage
//! found in their text is found where the import found it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_interpret::font::{FontData, FontQuery};
use hayro::hayro_interpret::hayro_cmap::CidFamily;
use hayro::hayro_interpret::util::TransformExt;
use hayro::hayro_syntax::Pdf;
use hayro::kurbo::{Affine, Point};
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::{PixmapSettings, RenderCache, RenderSettings};
use serde::{Deserialize, Serialize};

use super::layout::text_boxes;
use super::read::{open, page_glyphs};
use evident_words::problem::Problem;

/// Narrowest and widest page image drawn, in pixels.
pub const WIDTH_RANGE: (u32, u32) = (200, 4096);
/// Most pixels in one page image (a page's shape comes from the file: a strip a
/// hundred metres long must not become gigabytes of pixels).
pub const MAX_PIXELS: f64 = 40e6;

/// One drawn page and its text boxes, in the image's pixels.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageImage {
    /// The page drawn (1-based; the one asked for, kept within the document).
    pub page: u32,
    /// Pages in the document.
    pub page_count: u32,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// The page's text in reading order, each piece with its box.
    pub boxes: Vec<PageBox>,
    /// Why the text boxes are missing or partial, if they are (the image is still right).
    pub text_note: Option<String>,
    /// The image, PNG-encoded (sent beside the JSON, not in it).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub png: Vec<u8>,
}

/// A piece of a line of text and the rectangle it covers, in image pixels.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageBox {
    /// The text, as the import read it.
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

impl PageImage {
    /// Lays `lines`, read from this page's image when it was imported (OCR, stored as
    /// shares of the page), over the image as its text boxes, in place of any the page's
    /// own text layer gave: the import took the page's text from them, so the passage a
    /// citation marks is found in them. No lines: the boxes are kept.
    pub fn use_ocr_lines(&mut self, lines: &[super::ocr::OcrLine]) {
        if lines.is_empty() {
            return;
        }
        let (w, h) = (self.width as f32, self.height as f32);
        self.boxes = lines
            .iter()
            .map(|l| PageBox {
                text: l.text.clone(),
                x: l.x * w,
                y: l.y * h,
                w: l.w * w,
                h: l.h * h,
            })
            .collect();
        self.text_note = None;
    }
}

/// Font files the renderer may read when a PDF names a font without embedding it: a
/// Chinese (or Japanese, Korean) font, for the many Chinese PDFs that only name 宋体.
/// The first that exists of each list is used; the worker may read just these.
pub fn fallback_fonts() -> Vec<PathBuf> {
    // WenQuanYi first: its first face is Chinese, where Noto's collection opens with
    // the Japanese forms of the same characters.
    const SANS: &[&str] = &[
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
        "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    ];
    const SERIF: &[&str] = &[
        "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
        "/usr/share/fonts/truetype/arphic/uming.ttc",
    ];
    [SANS, SERIF]
        .iter()
        .filter_map(|list| list.iter().map(PathBuf::from).find(|p| p.is_file()))
        .collect()
}

/// Draws page `page` (1-based, kept within the document) of the PDF in `bytes`, `width`
/// pixels wide (kept within [`WIDTH_RANGE`] and [`MAX_PIXELS`]; 0: at
/// [`super::ocr::DPI`], for reading). `fonts` are the
/// [`fallback_fonts`]: a sans-serif CJK font first, then a serif one if there is one.
pub fn render_page(
    bytes: &[u8],
    page: u32,
    width: u32,
    fonts: &[PathBuf],
) -> Result<PageImage, Problem> {
    let pdf = open_for_drawing(bytes)?;
    let (mut image, to_pixels) = draw(&pdf, page, width, fonts)?;
    let (boxes, text_note) = page_boxes(bytes, image.page, image.page_count, to_pixels);
    image.boxes = boxes;
    image.text_note = text_note;
    Ok(image)
}

/// Draws `pages` (1-based) of the PDF in `bytes` at [`super::ocr::DPI`] for reading
/// them by OCR: the file is parsed once for all of them, and no text boxes are made (a
/// scanned page has none). A page that cannot be drawn gets its own reason.
pub fn render_for_reading(
    bytes: &[u8],
    pages: &[u32],
    fonts: &[PathBuf],
) -> Result<Vec<Result<PageImage, Problem>>, Problem> {
    let pdf = open_for_drawing(bytes)?;
    Ok(pages
        .iter()
        .map(|&page| draw(&pdf, page, 0, fonts).map(|(image, _)| image))
        .collect())
}

/// The PDF in `bytes`, parsed for drawing.
fn open_for_drawing(bytes: &[u8]) -> Result<Pdf, Problem> {
    if !bytes[..bytes.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
    {
        return Err(Problem::NotPdf);
    }
    let pdf = Pdf::new(bytes.to_vec()).map_err(|e| match e {
        hayro::hayro_syntax::LoadPdfError::Decryption(_) => Problem::PdfLocked,
        other => Problem::PdfDamaged {
            detail: format!("{other:?}"),
        },
    })?;
    if pdf.pages().is_empty() {
        return Err(Problem::PdfNoPages);
    }
    Ok(pdf)
}

/// Draws one page of `pdf` (see [`render_page`]), without its text boxes; also gives
/// the transform from PDF user space to the image's pixels.
fn draw(
    pdf: &Pdf,
    page: u32,
    width: u32,
    fonts: &[PathBuf],
) -> Result<(PageImage, Affine), Problem> {
    let pages = pdf.pages();
    let page_count = pages.len() as u32;
    let number = page.clamp(1, page_count.max(1));
    let Some(drawn) = pages.get(number as usize - 1) else {
        return Err(Problem::PdfNoPages);
    };
    let (page_w, page_h) = drawn.render_dimensions();
    let (page_w, page_h) = (f64::from(page_w).max(1.0), f64::from(page_h).max(1.0));
    let mut scale = if width == 0 {
        // For reading (OCR): the page at its print resolution.
        f64::from(super::ocr::DPI) / 72.0
    } else {
        f64::from(width.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1)) / page_w
    };
    if page_w * scale * page_h * scale > MAX_PIXELS {
        scale = (MAX_PIXELS / (page_w * page_h)).sqrt();
    }
    // Image sizes are 16-bit in the rasteriser.
    scale = scale.min(f64::from(u16::MAX) / page_w.max(page_h));
    let settings = InterpreterSettings {
        font_resolver: font_resolver(fonts),
        ..Default::default()
    };
    let pixmap = hayro::render(
        drawn,
        &RenderCache::new(),
        &settings,
        &RenderSettings::default(),
        &PixmapSettings {
            x_scale: scale as f32,
            y_scale: scale as f32,
            bg_color: WHITE,
        },
    );
    let (img_w, img_h) = (u32::from(pixmap.width()), u32::from(pixmap.height()));
    let png = encode_png(pixmap).map_err(|e| Problem::PdfReader {
        detail: format!("the page could not be encoded as an image ({e})"),
    })?;
    let to_pixels = Affine::scale(scale) * drawn.initial_transform(true).to_kurbo();
    let image = PageImage {
        page: number,
        page_count,
        width: img_w,
        height: img_h,
        boxes: Vec::new(),
        text_note: None,
        png,
    };
    Ok((image, to_pixels))
}

/// `pixmap` as a PNG, compressed fast: the image goes through a pipe to this machine's
/// own reader or window, never over a network, and a scanned page drawn for OCR was
/// spending more time in hayro's default (zlib) compression than in being drawn. The
/// pixels are the same as [`hayro::vello_cpu::Pixmap::into_png`]'s.
fn encode_png(pixmap: hayro::vello_cpu::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    use hayro::vello_cpu::Pixels;
    use hayro::vello_cpu::peniko::ImageAlphaType;
    let (width, height) = (u32::from(pixmap.width()), u32::from(pixmap.height()));
    let (color, pixels) = match pixmap.try_take_rgb8(ImageAlphaType::Alpha) {
        Pixels::Rgb8(pixels) => (png::ColorType::Rgb, pixels),
        Pixels::Rgba8(pixels) => (png::ColorType::Rgba, pixels),
    };
    let mut data = Vec::new();
    let mut encoder = png::Encoder::new(&mut data, width, height);
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(data)
}

/// The text boxes of page `number`, mapped into the image by `to_pixels` (from PDF
/// user space); empty with a note when the text cannot be read the way the import did.
fn page_boxes(
    bytes: &[u8],
    number: u32,
    page_count: u32,
    to_pixels: Affine,
) -> (Vec<PageBox>, Option<String>) {
    let opened = match open(bytes) {
        Ok(opened) => opened,
        Err(why) => return (Vec::new(), Some(why.text(evident_words::message::Lang::En))),
    };
    // Both readers walk the same page tree; if they disagree, a box could land on the
    // wrong page's image, so none is drawn.
    if opened.page_count != page_count {
        return (
            Vec::new(),
            Some("the page tree reads differently for text and for drawing".into()),
        );
    }
    let (glyphs, error) = page_glyphs(&opened.doc, number);
    let boxes = text_boxes(&glyphs)
        .into_iter()
        .filter_map(|b| {
            // Back from the glyphs' coordinates (along and across their direction, y
            // down) to PDF user space: the inverse of `read`'s rotation.
            let (dx, dy) = match b.direction {
                1 => (0.0, 1.0),
                2 => (-1.0, 0.0),
                3 => (0.0, -1.0),
                _ => (1.0, 0.0),
            };
            let corners = [
                (b.x0, b.top),
                (b.x1, b.top),
                (b.x0, b.bottom),
                (b.x1, b.bottom),
            ]
            .map(|(x, y)| to_pixels * Point::new(x * dx + y * dy, x * dy - y * dx));
            let (x0, x1) = corners.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.x), hi.max(p.x))
            });
            let (y0, y1) = corners.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.y), hi.max(p.y))
            });
            [x0, x1, y0, y1]
                .iter()
                .all(|v| v.is_finite())
                .then_some(PageBox {
                    text: b.text,
                    x: x0 as f32,
                    y: y0 as f32,
                    w: (x1 - x0) as f32,
                    h: (y1 - y0) as f32,
                })
        })
        .collect();
    (boxes, error)
}

/// Fonts for what a PDF names but does not embed: hayro's built-in standard fonts, and
/// for Chinese, Japanese and Korean text the first of `fonts` (the second for serif
/// faces, when there is one), read from disk once, when first needed.
fn font_resolver(fonts: &[PathBuf]) -> hayro::hayro_interpret::FontResolverFn {
    let files: Vec<(PathBuf, Mutex<Option<Option<FontData>>>)> = fonts
        .iter()
        .map(|p| (p.clone(), Mutex::new(None)))
        .collect();
    let files = Arc::new(files);
    Arc::new(move |query| match query {
        FontQuery::Standard(s) => Some(s.get_font_data()),
        FontQuery::Fallback(f) => {
            let cjk = f.character_collection.as_ref().is_some_and(|cc| {
                matches!(
                    cc.family,
                    CidFamily::AdobeGB1
                        | CidFamily::AdobeCNS1
                        | CidFamily::AdobeJapan1
                        | CidFamily::AdobeKorea1
                )
            });
            let file = if f.is_serif && files.len() > 1 {
                files.get(1)
            } else {
                files.first()
            };
            let loaded = file.filter(|_| cjk).and_then(|(path, slot)| {
                let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
                slot.get_or_insert_with(|| {
                    std::fs::read(path)
                        .ok()
                        .map(|bytes| -> FontData { Arc::new(bytes) })
                })
                .clone()
            });
            loaded
                .map(|data| (data, 0))
                .or_else(|| Some(f.pick_standard_font().get_font_data()))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_non_pdf_is_refused_with_its_reason() {
        let err = render_page(b"hello", 1, 800, &[]).expect_err("refused");
        assert_eq!(err, Problem::NotPdf);
    }

    #[test]
    fn lines_read_from_a_scan_become_its_boxes_in_pixels() {
        let mut image = PageImage {
            page: 2,
            page_count: 3,
            width: 1000,
            height: 2000,
            boxes: vec![PageBox {
                text: "\u{fffd}\u{fffd}".into(),
                x: 0.0,
                y: 0.0,
                w: 1.0,
                h: 1.0,
            }],
            text_note: Some("glyphs without text".into()),
            png: Vec::new(),
        };
        image.use_ocr_lines(&[]);
        assert_eq!(
            image.boxes.len(),
            1,
            "no lines: the text layer's boxes stay"
        );
        let line = super::super::ocr::OcrLine {
            text: "第九条 用人单位招用劳动者".into(),
            x: 0.1,
            y: 0.25,
            w: 0.8,
            h: 0.02,
        };
        image.use_ocr_lines(std::slice::from_ref(&line));
        assert_eq!(image.text_note, None);
        let [b] = image.boxes.as_slice() else {
            panic!("one box per line: {:?}", image.boxes)
        };
        assert_eq!(b.text, line.text);
        assert_eq!((b.x, b.y, b.w, b.h), (100.0, 500.0, 800.0, 40.0));
    }
}
