//! Straightening a scanned page before it is read. Scans sit a degree or two askew on
//! the glass; Tesseract copes with slanted lines of text, but a table's ruled lines are
//! then no longer straight runs of ink, so [`super::ocr::erase_rules`] cannot find
//! them and Tesseract reads the rules as `|` and `_` and loses the numbers between them.
//!
//! The slant is found the classic way (projection profiles, as Leptonica's
//! `pixFindSkew` and most scanning software do): ink pixels are summed along lines of
//! each candidate slant, and the slant whose sums are sharpest (the largest sum of
//! squares: text lines and rules fall into few rows) is the page's. The page is then
//! turned back about its centre; what was read is mapped back to the page as drawn, so
//! highlights land on the image the viewer shows.

use super::ocr::INK;

/// Slants tried, in degrees either way: a page placed by hand on a scanner.
const MAX_DEGREES: f32 = 5.0;
/// A page turned less than this is read as it is (turning blurs it a little).
pub const MIN_DEGREES: f32 = 0.2;
/// At most this many ink pixels are used to find the slant (every n-th of the rest).
const SAMPLE: usize = 120_000;

/// The slant of the grey page `w`×`h`, in degrees (positive: lines fall to the right,
/// in image coordinates with y down); 0 when the page shows no clear lines.
pub fn find_skew(grey: &[u8], w: usize, h: usize) -> f32 {
    if w == 0 || h == 0 || grey.len() < w * h {
        return 0.0;
    }
    let ink = grey[..w * h].iter().filter(|&&g| g < INK).count();
    let step = ink.div_ceil(SAMPLE).max(1);
    let points: Vec<(f32, f32)> = grey[..w * h]
        .iter()
        .enumerate()
        .filter(|(_, g)| **g < INK)
        .step_by(step)
        .map(|(i, _)| ((i % w) as f32, (i / w) as f32))
        .collect();
    if points.len() < 200 {
        return 0.0;
    }
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let sharpness = |degrees: f32| -> f64 {
        let slope = degrees.to_radians().tan();
        let mut rows = vec![0u32; h * 2 + w];
        let offset = (w / 2 + h / 2) as f32;
        for &(x, y) in &points {
            let row = (y - cy) - (x - cx) * slope + cy + offset;
            if let Some(r) = rows.get_mut(row.max(0.0) as usize) {
                *r += 1;
            }
        }
        rows.iter().map(|&n| f64::from(n) * f64::from(n)).sum()
    };
    // Coarse to fine: half degrees, then twentieths around the best.
    let best_of = |candidates: &mut dyn Iterator<Item = f32>| {
        candidates
            .map(|d| (d, sharpness(d)))
            .fold(
                (0.0f32, f64::MIN),
                |best, c| if c.1 > best.1 { c } else { best },
            )
    };
    let steps = (MAX_DEGREES * 2.0) as i32;
    let (coarse, _) = best_of(&mut (-steps..=steps).map(|k| k as f32 * 0.5));
    let (fine, best) = best_of(&mut (-10..=10).map(|k| coarse + k as f32 * 0.05));
    // No slant stands out (a photo, a blank page): leave the page as it is.
    if best < sharpness(0.0) * 1.02 {
        return 0.0;
    }
    fine
}

/// Where point `(px, py)` of a page straightened by the turn `(sin, cos)` about
/// `(cx, cy)` lies on the page as drawn (slanted).
fn onto_slant((px, py): (f32, f32), (cx, cy): (f32, f32), (sin, cos): (f32, f32)) -> (f32, f32) {
    let (dx, dy) = (px - cx, py - cy);
    (cx + dx * cos - dy * sin, cy + dx * sin + dy * cos)
}

/// The grey page `w`×`h` turned by `-degrees` about its centre (undoing a slant of
/// `degrees`), same size, paper where nothing was; bilinear, so strokes keep their
/// weight.
pub fn straighten(grey: &[u8], w: usize, h: usize, degrees: f32) -> Vec<u8> {
    if w == 0 || h == 0 || grey.len() < w * h {
        return grey.to_vec();
    }
    let turn = degrees.to_radians().sin_cos();
    let centre = (w as f32 / 2.0, h as f32 / 2.0);
    let at = |x: isize, y: isize| -> f32 {
        if x < 0 || y < 0 || x as usize >= w || y as usize >= h {
            255.0
        } else {
            f32::from(grey[y as usize * w + x as usize])
        }
    };
    let mut out = vec![255u8; w * h];
    for y in 0..h {
        for x in 0..w {
            let (sx, sy) = onto_slant((x as f32, y as f32), centre, turn);
            let (x0, y0) = (sx.floor(), sy.floor());
            let (fx, fy) = (sx - x0, sy - y0);
            let (x0, y0) = (x0 as isize, y0 as isize);
            let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
            let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
            out[y * w + x] = (top * (1.0 - fy) + bottom * fy).round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// The box `(x, y, bw, bh)` (in pixels of a page `w`×`h` that was [`straighten`]ed by
/// `degrees`) as it lies on the page as drawn: the bounds of its four corners turned
/// back.
pub fn unstraighten_box(
    (x, y, bw, bh): (f32, f32, f32, f32),
    w: f32,
    h: f32,
    degrees: f32,
) -> (f32, f32, f32, f32) {
    if degrees == 0.0 {
        return (x, y, bw, bh);
    }
    let turn = degrees.to_radians().sin_cos();
    let corners = [(x, y), (x + bw, y), (x, y + bh), (x + bw, y + bh)]
        .map(|corner| onto_slant(corner, (w / 2.0, h / 2.0), turn));
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (px, py) in corners {
        (x0, y0, x1, y1) = (x0.min(px), y0.min(py), x1.max(px), y1.max(py));
    }
    (x0, y0, x1 - x0, y1 - y0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page of `lines` horizontal strokes (text lines and rules) 600 px wide, turned
    /// by `degrees` (drawn directly slanted, not through [`straighten`]).
    fn slanted_page(degrees: f32) -> (Vec<u8>, usize, usize) {
        let (w, h) = (800usize, 600usize);
        let mut grey = vec![255u8; w * h];
        let slope = degrees.to_radians().tan();
        for line in 0..12 {
            let base = 60.0 + line as f32 * 40.0;
            for x in 100..700 {
                // Words: ink with gaps, three pixels thick.
                if (x / 30) % 5 == 4 {
                    continue;
                }
                for t in 0..3 {
                    let y = base + (x as f32 - 400.0) * slope + t as f32;
                    grey[y.round() as usize * w + x] = 0;
                }
            }
        }
        (grey, w, h)
    }

    #[test]
    fn the_slant_of_a_page_is_found_either_way_and_a_straight_page_has_none() {
        for degrees in [1.5f32, -2.0, 0.7] {
            let (grey, w, h) = slanted_page(degrees);
            let found = find_skew(&grey, w, h);
            // Within what the strokes can tell: 3 px thick over 600 px is ±0.15°.
            assert!(
                (found - degrees).abs() <= 0.15,
                "{degrees}° found as {found}°"
            );
        }
        let (grey, w, h) = slanted_page(0.0);
        assert!(find_skew(&grey, w, h).abs() < MIN_DEGREES);
        assert_eq!(
            find_skew(&vec![255u8; 100 * 100], 100, 100),
            0.0,
            "a blank page"
        );
    }

    #[test]
    fn a_straightened_page_has_level_lines_and_boxes_map_back_onto_the_slant() {
        let (grey, w, h) = slanted_page(1.5);
        let straight = straighten(&grey, w, h, 1.5);
        assert!(find_skew(&straight, w, h).abs() < MIN_DEGREES);
        // The first line lies level at its base row again: ink from x = 100 to 690.
        let row = |y: usize| (100..690).filter(|&x| straight[y * w + x] < INK).count();
        let best = (40..90).map(row).max().unwrap_or(0);
        assert!(
            best > 400,
            "a level row holds most of the first line ({best} px)"
        );
        // A box across the whole first line, straight, lies 1.5° down to the right on
        // the page as drawn: taller by 600 · tan 1.5° ≈ 16 px.
        let (x, y, bw, bh) = unstraighten_box((100.0, 58.0, 600.0, 6.0), w as f32, h as f32, 1.5);
        assert!(
            (bw - 600.0).abs() < 1.0 && (bh - 6.0 - 15.7).abs() < 1.5,
            "{bw}×{bh}"
        );
        assert!(x > 95.0 && y > 40.0 && y < 60.0, "({x}, {y})");
    }
}
