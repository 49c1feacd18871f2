//! Page layout: from positioned glyphs to text in reading order.
//!
//! A PDF's content stream draws glyphs in whatever order its producer liked; the reading
//! order must be recovered from positions. Glyphs are first grouped into runs (glyphs on
//! one baseline with no large gap), then the page is split recursively along white space
//! (an XY-cut): first into columns where a vertical gutter runs through the whole
//! region, else into bands at the widest horizontal gap. Runs inside a region that cannot
//! be split further are read line by line. No space is ever put between two CJK glyphs.

use evident_text::normalize::is_cjk;

/// One glyph as the content stream placed it (y grows downwards).
#[derive(Debug, Clone)]
pub struct Glyph {
    /// Left edge of the glyph.
    pub x: f64,
    /// Baseline.
    pub y: f64,
    /// Horizontal advance.
    pub width: f64,
    /// Font size in page units.
    pub size: f64,
    /// Text direction in quarter turns (0 = horizontal left to right); `x` and `y` are
    /// measured along and across that direction.
    pub direction: u8,
    /// The Unicode text the glyph stands for (may be more than one char, e.g. "fi").
    pub text: String,
}

#[derive(Debug, Clone)]
struct Run {
    x0: f64,
    x1: f64,
    y: f64,
    size: f64,
    text: String,
}

impl Run {
    fn top(&self) -> f64 {
        self.y - self.size * 0.8
    }
    fn bottom(&self) -> f64 {
        self.y + self.size * 0.2
    }
}

/// Lays out one page's glyphs as text: lines separated by `\n`, blocks by `\n\n`.
///
/// Horizontal text comes first; text in other directions (rotated margin notes, table
/// headers) follows, each direction laid out along its own baseline.
pub fn layout(glyphs: &[Glyph]) -> String {
    assemble(&arrange(glyphs).0)
}

/// A piece of one line of text and where it sits on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBox {
    /// The text, as [`layout`] reads it.
    pub text: String,
    /// Text direction in quarter turns, as [`Glyph::direction`].
    pub direction: u8,
    /// Start and end along the text direction, in the glyphs' coordinates.
    pub x0: f64,
    /// See `x0`.
    pub x1: f64,
    /// Top and bottom across the text direction (y grows downwards).
    pub top: f64,
    /// See `top`.
    pub bottom: f64,
}

/// The page's text as boxes in the order [`layout`] reads them: what a viewer lays over
/// the page image so that a passage found in the text can be marked where it is drawn.
pub fn text_boxes(glyphs: &[Glyph]) -> Vec<TextBox> {
    let (pieces, runs) = arrange(glyphs);
    pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Text(_, ids) => Some(ids),
            _ => None,
        })
        .flatten()
        .filter_map(|&i| runs.get(i))
        .map(|(direction, run)| TextBox {
            text: run.text.clone(),
            direction: *direction,
            x0: run.x0,
            x1: run.x1,
            top: run.top(),
            bottom: run.bottom(),
        })
        .collect()
}

/// The XY-cut of every direction's runs: the pieces in reading order (their texts name
/// runs by index into the second list) and the runs with their direction.
fn arrange(glyphs: &[Glyph]) -> (Vec<Piece>, Vec<(u8, Run)>) {
    let mut pieces = Vec::new();
    let mut all: Vec<(u8, Run)> = Vec::new();
    for direction in 0..4u8 {
        let group: Vec<Glyph> = glyphs
            .iter()
            .filter(|g| g.direction == direction)
            .cloned()
            .collect();
        let runs = build_runs(&group);
        if runs.is_empty() {
            continue;
        }
        pieces.push(Piece::Block);
        let first = pieces.len();
        let idx: Vec<usize> = (0..runs.len()).collect();
        cut(&runs, idx, 0, &mut pieces);
        let offset = all.len();
        for piece in &mut pieces[first..] {
            if let Piece::Text(_, ids) = piece {
                ids.iter_mut().for_each(|i| *i += offset);
            }
        }
        all.extend(runs.into_iter().map(|r| (direction, r)));
    }
    (pieces, all)
}

/// Layout output before paragraph breaks are decided.
#[derive(Debug)]
enum Piece {
    /// A line's text and the runs it was read from, in order.
    Text(String, Vec<usize>),
    /// A line break with the white space above the next line, in font sizes.
    Line(f64),
    /// A break between columns or separately laid-out regions.
    Block,
}

/// Turns pieces into text. A line gap counts as a paragraph break when it is clearly
/// larger than the page's usual (tightest common) line spacing, which varies a lot between producers
/// (CJK fonts often have leading above 1.5 em), so no fixed threshold works.
fn assemble(pieces: &[Piece]) -> String {
    let mut gaps: Vec<f64> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Line(g) if *g > 0.0 => Some(*g),
            _ => None,
        })
        .collect();
    gaps.sort_by(f64::total_cmp);
    // The usual line spacing is a low percentile, not the median: on a page of short
    // paragraphs most gaps are paragraph gaps. With fewer than three gaps there is no
    // usual spacing to compare with.
    let threshold = match gaps.get(gaps.len() / 10) {
        Some(&m) if gaps.len() >= 3 => (m * 1.5).max(m + 0.3),
        _ => 0.8,
    };
    let mut out = String::new();
    let mut pending: Option<&str> = None;
    for p in pieces {
        match p {
            Piece::Text(t, _) => {
                if let Some(sep) = pending.take()
                    && !out.is_empty()
                {
                    out.push_str(sep);
                }
                out.push_str(t);
            }
            Piece::Line(g) => {
                let sep = if *g > threshold { "\n\n" } else { "\n" };
                if pending != Some("\n\n") {
                    pending = Some(sep);
                }
            }
            Piece::Block => pending = Some("\n\n"),
        }
    }
    out
}

fn needs_space(prev: Option<char>, next: Option<char>) -> bool {
    match (prev, next) {
        (Some(a), Some(b)) => !(a.is_whitespace() || b.is_whitespace() || (is_cjk(a) && is_cjk(b))),
        _ => false,
    }
}

fn build_runs(glyphs: &[Glyph]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut pending_space = false;
    for g in glyphs {
        if !(g.x.is_finite() && g.y.is_finite() && g.size.is_finite()) || g.size <= 0.0 {
            continue;
        }
        if g.text.chars().all(char::is_whitespace) {
            pending_space = true;
            continue;
        }
        let x1 = g.x + g.width.max(0.0);
        if let Some(run) = runs.last_mut() {
            let size = run.size.max(g.size);
            let same_line = (g.y - run.y).abs() < size * 0.5;
            let gap = g.x - run.x1;
            if same_line && gap > -size * 0.5 && gap < size * 1.0 {
                let prev = run.text.chars().last();
                let next = g.text.chars().next();
                if (pending_space || gap > size * 0.15) && needs_space(prev, next) {
                    run.text.push(' ');
                }
                run.text.push_str(&g.text);
                run.x1 = run.x1.max(x1);
                pending_space = false;
                continue;
            }
        }
        pending_space = false;
        runs.push(Run {
            x0: g.x,
            x1,
            y: g.y,
            size: g.size,
            text: g.text.clone(),
        });
    }
    runs
}

const MAX_DEPTH: usize = 400;

/// Recursive XY-cut over the runs in `idx`, appending pieces to `out`.
fn cut(runs: &[Run], mut idx: Vec<usize>, depth: usize, out: &mut Vec<Piece>) {
    if idx.len() > 1 && depth < MAX_DEPTH && !one_line(runs, &idx) {
        let median_size = median(idx.iter().map(|&i| runs[i].size));
        // Columns: a vertical gutter through the whole region.
        idx.sort_by(|&a, &b| runs[a].x0.total_cmp(&runs[b].x0));
        let split = widest_gap(&idx, |i| (runs[i].x0, runs[i].x1), median_size * 0.9)
            .filter(|&k| side_by_side(runs, &idx[..k], &idx[k..]))
            .filter(|&k| !table_columns(runs, &idx[..k], &idx[k..]));
        if let Some(split) = split {
            let right = idx.split_off(split);
            cut(runs, idx, depth + 1, out);
            out.push(Piece::Block);
            cut(runs, right, depth + 1, out);
            return;
        }
        // Bands: the widest horizontal gap.
        idx.sort_by(|&a, &b| runs[a].top().total_cmp(&runs[b].top()));
        if let Some(split) = widest_gap(&idx, |i| (runs[i].top(), runs[i].bottom()), 0.0) {
            let gap = runs[idx[split]].top()
                - idx[..split]
                    .iter()
                    .map(|&i| runs[i].bottom())
                    .fold(f64::MIN, f64::max);
            let below = idx.split_off(split);
            cut(runs, idx, depth + 1, out);
            out.push(Piece::Line(gap / median_size.max(1e-6)));
            cut(runs, below, depth + 1, out);
            return;
        }
    }
    read_lines(runs, idx, out);
}

/// True when all runs sit on one baseline: a line (or a table row) is read left to
/// right with spaces, never cut into blocks.
fn one_line(runs: &[Run], idx: &[usize]) -> bool {
    let (lo, hi) = idx.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &i| {
        (lo.min(runs[i].y), hi.max(runs[i].y))
    });
    let size = idx.iter().map(|&i| runs[i].size).fold(0.0, f64::max);
    hi - lo < size * 0.3
}

/// True when two side-by-side groups are columns of one table rather than columns of
/// text: their cells share baselines and are narrow. A table is read row by row
/// (label, then its values) so that each row stays together; text columns are not.
fn table_columns(runs: &[Run], left: &[usize], right: &[usize]) -> bool {
    let aligned = |a: &[usize], b: &[usize]| {
        let hits = a
            .iter()
            .filter(|&&i| {
                b.iter()
                    .any(|&j| (runs[i].y - runs[j].y).abs() < runs[i].size * 0.3)
            })
            .count();
        hits * 10 >= a.len() * 6
    };
    let gap = right.iter().map(|&i| runs[i].x0).fold(f64::MAX, f64::min)
        - left.iter().map(|&i| runs[i].x1).fold(f64::MIN, f64::max);
    let narrow =
        |g: &[usize]| median(g.iter().map(|&i| runs[i].x1 - runs[i].x0)) < 2.0 * gap.max(1.0);
    left.len() >= 2
        && right.len() >= 2
        && aligned(left, right)
        && aligned(right, left)
        && (narrow(left) || narrow(right))
}

/// Two groups are columns only if they share most of their vertical extent; a short line
/// at the left above a centred heading is not a column.
fn side_by_side(runs: &[Run], left: &[usize], right: &[usize]) -> bool {
    let extent = |g: &[usize]| {
        g.iter().fold((f64::MAX, f64::MIN), |(t, b), &i| {
            (t.min(runs[i].top()), b.max(runs[i].bottom()))
        })
    };
    let (lt, lb) = extent(left);
    let (rt, rb) = extent(right);
    let overlap = lb.min(rb) - lt.max(rt);
    overlap > 0.5 * (lb - lt).min(rb - rt)
}

/// After sorting by start, the split index of the widest gap wider than `min_gap`.
fn widest_gap(idx: &[usize], span: impl Fn(usize) -> (f64, f64), min_gap: f64) -> Option<usize> {
    let mut reach = f64::MIN;
    let mut best: Option<(f64, usize)> = None;
    for (k, &i) in idx.iter().enumerate() {
        let (start, end) = span(i);
        if k > 0 {
            let gap = start - reach;
            if gap > min_gap && best.is_none_or(|(g, _)| gap > g) {
                best = Some((gap, k));
            }
        }
        reach = reach.max(end);
    }
    best.map(|(_, k)| k)
}

/// Reads runs that share no clean split: group into lines by baseline, left to right.
fn read_lines(runs: &[Run], mut idx: Vec<usize>, out: &mut Vec<Piece>) {
    idx.sort_by(|&a, &b| runs[a].y.total_cmp(&runs[b].y));
    let mut lines: Vec<Vec<usize>> = Vec::new();
    for i in idx {
        match lines.last_mut() {
            Some(line)
                if (runs[i].y - runs[line[0]].y).abs()
                    < runs[i].size.max(runs[line[0]].size) * 0.5 =>
            {
                line.push(i);
            }
            _ => lines.push(vec![i]),
        }
    }
    for (n, mut line) in lines.into_iter().enumerate() {
        if n > 0 {
            out.push(Piece::Line(0.0));
        }
        line.sort_by(|&a, &b| runs[a].x0.total_cmp(&runs[b].x0));
        let mut text = String::new();
        for (k, &i) in line.iter().enumerate() {
            if k > 0 && needs_space(text.chars().last(), runs[i].text.chars().next()) {
                text.push(' ');
            }
            text.push_str(&runs[i].text);
        }
        out.push(Piece::Text(text, line));
    }
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    if v.is_empty() {
        return 10.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Places `text` glyph by glyph from (x, y) with a fixed advance.
    fn line(text: &str, x: f64, y: f64, size: f64) -> Vec<Glyph> {
        let mut out = Vec::new();
        let mut cx = x;
        for c in text.chars() {
            let w = if is_cjk(c) { size } else { size * 0.5 };
            out.push(Glyph {
                direction: 0,
                x: cx,
                y,
                width: w,
                size,
                text: c.to_string(),
            });
            cx += w;
        }
        out
    }

    #[test]
    fn two_columns_are_read_column_by_column() {
        let mut g = Vec::new();
        // Drawn interleaved, row by row, as many producers do; lines fill their column.
        for row in 0..3 {
            let y = 100.0 + row as f64 * 12.0;
            g.extend(line(
                &format!("left column text, line {row} of three"),
                50.0,
                y,
                10.0,
            ));
            g.extend(line(
                &format!("right column text, line {row} of three"),
                260.0,
                y,
                10.0,
            ));
        }
        assert_eq!(
            layout(&g),
            "left column text, line 0 of three\nleft column text, line 1 of three\nleft column text, line 2 of three\n\n\
             right column text, line 0 of three\nright column text, line 1 of three\nright column text, line 2 of three"
        );
    }

    #[test]
    fn table_rows_are_read_row_by_row() {
        let mut g = Vec::new();
        for (row, (label, a, b)) in [
            ("短期借款", "878", "727"),
            ("应付债券", "508", "307"),
            ("预计负债", "0", "1"),
        ]
        .iter()
        .enumerate()
        {
            let y = 100.0 + row as f64 * 14.0;
            g.extend(line(label, 50.0, y, 10.0));
            g.extend(line(a, 200.0, y, 10.0));
            g.extend(line(b, 260.0, y, 10.0));
        }
        assert_eq!(
            layout(&g),
            "短期借款 878 727\n应付债券 508 307\n预计负债 0 1"
        );
    }

    #[test]
    fn a_full_width_title_above_two_columns() {
        let mut g = line(
            "A title that spans the whole width of the page",
            50.0,
            60.0,
            14.0,
        );
        for row in 0..2 {
            let y = 100.0 + row as f64 * 12.0;
            g.extend(line(
                &format!("first column, running text {row}"),
                50.0,
                y,
                10.0,
            ));
            g.extend(line(
                &format!("second column, running text {row}"),
                260.0,
                y,
                10.0,
            ));
        }
        let text = layout(&g);
        assert_eq!(
            text,
            "A title that spans the whole width of the page\n\n\
             first column, running text 0\nfirst column, running text 1\n\n\
             second column, running text 0\nsecond column, running text 1"
        );
    }

    #[test]
    fn chinese_glyphs_are_never_separated_by_spaces() {
        // Glyphs with small gaps between them, as justified Chinese text has.
        let g: Vec<Glyph> = "单笔报销超过五千元"
            .chars()
            .enumerate()
            .map(|(i, c)| Glyph {
                direction: 0,
                x: i as f64 * 11.0,
                y: 10.0,
                width: 10.0,
                size: 10.0,
                text: c.to_string(),
            })
            .collect();
        assert_eq!(layout(&g), "单笔报销超过五千元");
    }

    #[test]
    fn word_gaps_become_spaces() {
        let mut g = line("parental", 0.0, 10.0, 10.0);
        g.extend(line("leave", 43.0, 10.0, 10.0));
        assert_eq!(layout(&g), "parental leave");
    }

    #[test]
    fn paragraph_gaps_become_blank_lines() {
        let mut g = line("First paragraph.", 0.0, 10.0, 10.0);
        g.extend(line("Second paragraph.", 0.0, 40.0, 10.0));
        assert_eq!(layout(&g), "First paragraph.\n\nSecond paragraph.");
    }

    #[test]
    fn garbage_coordinates_are_ignored() {
        let g = vec![Glyph {
            direction: 0,
            x: f64::NAN,
            y: 0.0,
            width: 1.0,
            size: 1.0,
            text: "x".into(),
        }];
        assert_eq!(layout(&g), "");
    }
}
