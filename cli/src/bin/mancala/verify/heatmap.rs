//! The SVG heatmaps of `verify first-player --plot` and `verify pie --plot`: one value per board
//! size, seeds per hole across, holes per row down.

use super::limited::Solved;
use anyhow::{anyhow, Result};
use mancala_cli::json::SizeStatus;

/// One board size of a heatmap: its value (final South minus North), `None` when unknown.
pub(super) struct Cell {
    pub(super) holes: u8,
    pub(super) seeds: u8,
    pub(super) value: Option<i32>,
}

/// An SVG heatmap of the first player's margin: seeds per hole across, holes per row down.
pub(super) fn heatmap_svg(game: &str, results: &[Solved], limit: Option<f64>) -> Result<String> {
    let cells: Vec<Cell> = results
        .iter()
        .map(|r| Cell {
            holes: r.holes,
            seeds: r.seeds,
            value: r.value,
        })
        .collect();
    // An interrupted run keeps its finished sizes; the grey ones are then not all time-outs.
    let stopped = results
        .iter()
        .any(|r| matches!(r.status, SizeStatus::Interrupted | SizeStatus::NotRun));
    heatmap(
        &format!("{game}: first player's margin (South minus North)"),
        &subtitle("start positions, perfect play", limit, stopped),
        &cells,
    )
}

/// The line under a heatmap's title: what is drawn, and what grey means.
pub(super) fn subtitle(what: &str, limit: Option<f64>, stopped: bool) -> String {
    match (limit, stopped) {
        (_, true) => format!("{what}; grey = unknown (the run was interrupted)"),
        (Some(l), false) => format!("{what}; grey = unknown (not solved within {l} s)"),
        (None, false) => what.to_string(),
    }
}

/// An SVG heatmap of `cells` under `title` and `sub`: white at 0, blue as the first player
/// (South) wins by more, red as North does, grey where unknown.
pub(super) fn heatmap(title: &str, sub: &str, results: &[Cell]) -> Result<String> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};

    let mut holes: Vec<u8> = results.iter().map(|r| r.holes).collect();
    let mut seeds: Vec<u8> = results.iter().map(|r| r.seeds).collect();
    holes.sort_unstable();
    holes.dedup();
    seeds.sort_unstable();
    seeds.dedup();
    let span = results
        .iter()
        .filter_map(|r| r.value)
        .map(i32::abs)
        .max()
        .unwrap_or(1)
        .max(1);

    const CELL: i32 = 52;
    let (left, top, right, bottom) = (90, 70, 190, 70);
    let grid_w = CELL * seeds.len() as i32;
    let grid_h = CELL * holes.len() as i32;
    let (w, h) = (
        (left + grid_w + right).max(420) as u32,
        (top + grid_h + bottom).max(330) as u32,
    );
    let colour = |v: i32| -> RGBColor {
        // White at 0, deeper blue as the first player (South) wins by more, red as North does.
        let t = (v.unsigned_abs() as f64 / span as f64).clamp(0.0, 1.0);
        let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
        if v >= 0 {
            RGBColor(mix(255, 33), mix(255, 102), mix(255, 172))
        } else {
            RGBColor(mix(255, 178), mix(255, 24), mix(255, 43))
        }
    };
    let unknown = RGBColor(200, 200, 200);
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| anyhow!("cannot draw the plot: {e:?}");
        area.fill(&WHITE).map_err(err)?;
        let centre = Pos::new(HPos::Center, VPos::Center);
        let font = |size: f64| ("sans-serif", size).into_font().color(&BLACK);
        area.draw(&Text::new(
            title.to_string(),
            (w as i32 / 2, 22),
            font(17.0).pos(centre),
        ))
        .map_err(err)?;
        area.draw(&Text::new(
            sub.to_string(),
            (w as i32 / 2, 44),
            font(12.0).pos(centre),
        ))
        .map_err(err)?;
        for (j, h_) in holes.iter().enumerate() {
            // Fewest holes at the top.
            let y = top + CELL * j as i32;
            area.draw(&Text::new(
                h_.to_string(),
                (left - 12, y + CELL / 2),
                font(14.0).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(err)?;
            for (i, s_) in seeds.iter().enumerate() {
                let x = left + CELL * i as i32;
                let Some(r) = results.iter().find(|r| r.holes == *h_ && r.seeds == *s_) else {
                    continue;
                };
                let fill = r.value.map_or(unknown, colour);
                area.draw(&Rectangle::new(
                    [(x, y), (x + CELL, y + CELL)],
                    fill.filled(),
                ))
                .map_err(err)?;
                area.draw(&Rectangle::new(
                    [(x, y), (x + CELL, y + CELL)],
                    WHITE.stroke_width(1),
                ))
                .map_err(err)?;
                let label = r.value.map_or("?".to_string(), |v| format!("{v:+}"));
                let dark = r
                    .value
                    .is_some_and(|v| v.unsigned_abs() as f64 > 0.55 * span as f64);
                let style = font(14.0)
                    .pos(centre)
                    .color(if dark { &WHITE } else { &BLACK });
                area.draw(&Text::new(label, (x + CELL / 2, y + CELL / 2), style))
                    .map_err(err)?;
            }
        }
        for (i, s_) in seeds.iter().enumerate() {
            let x = left + CELL * i as i32 + CELL / 2;
            area.draw(&Text::new(
                s_.to_string(),
                (x, top + grid_h + 14),
                font(14.0).pos(centre),
            ))
            .map_err(err)?;
        }
        area.draw(&Text::new(
            "seeds per hole",
            (left + grid_w / 2, top + grid_h + 40),
            font(14.0).pos(centre),
        ))
        .map_err(err)?;
        area.draw(&Text::new(
            "holes per row",
            (22, top + grid_h / 2),
            font(14.0).pos(centre).transform(FontTransform::Rotate270),
        ))
        .map_err(err)?;
        // Legend: a colour bar from North's best margin to South's, and the unknown swatch.
        let lx = left + grid_w + 40;
        let bar_h = grid_h.clamp(160, 260);
        let steps = 40;
        area.draw(&Text::new(
            "margin",
            (lx, top - 14),
            font(13.0).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
        for k in 0..steps {
            let v = span - (2 * span * k) / (steps - 1);
            let y0 = top + bar_h * k / steps;
            let y1 = top + bar_h * (k + 1) / steps;
            area.draw(&Rectangle::new(
                [(lx, y0), (lx + 22, y1)],
                colour(v).filled(),
            ))
            .map_err(err)?;
        }
        area.draw(&Rectangle::new(
            [(lx, top), (lx + 22, top + bar_h)],
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
        let lab = Pos::new(HPos::Left, VPos::Center);
        for (v, y, text) in [
            (span, top, format!("{span:+} South (first) wins")),
            (0, top + bar_h / 2, "0 draw".to_string()),
            (-span, top + bar_h, format!("{:+} North wins", -span)),
        ] {
            let _ = v;
            area.draw(&PathElement::new(vec![(lx + 22, y), (lx + 28, y)], BLACK))
                .map_err(err)?;
            area.draw(&Text::new(text, (lx + 32, y), font(12.0).pos(lab)))
                .map_err(err)?;
        }
        let uy = top + bar_h + 20;
        area.draw(&Rectangle::new(
            [(lx, uy), (lx + 22, uy + 16)],
            unknown.filled(),
        ))
        .map_err(err)?;
        area.draw(&Text::new(
            "? unknown",
            (lx + 32, uy + 8),
            font(12.0).pos(lab),
        ))
        .map_err(err)?;
        area.present().map_err(err)?;
    }
    Ok(svg)
}
