//! A small dependency-free SVG chart: axes with ticks, labelled line series, highlighted
//! points. Linear or base-2 logarithmic x axis; the y axis starts at zero.

use std::fmt::Write;

/// One labelled series of (x, y) points; drawn as a line with markers, or markers only.
pub(crate) struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub line: bool,
}

/// A chart to draw.
pub(crate) struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_log2: bool,
    /// Tick positions with their labels; empty: chosen from the data.
    pub x_ticks: Vec<(f64, String)>,
    pub series: Vec<Series>,
    /// Points ringed, each with a label.
    pub highlights: Vec<(f64, f64, String)>,
    /// What a ring means, as a legend entry drawn with a ring; `None`: no entry.
    pub ring_legend: Option<String>,
}

/// Width of the plot area; the legend to its right is as wide as its longest label.
const PLOT_W: f64 = 470.0;
const H: f64 = 440.0;
const LEFT: f64 = 80.0;
/// Least room right of the plot, for the legend.
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

/// Round tick spacing (1, 2 or 5 times a power of ten) giving about `n` ticks up to `max`.
fn nice_step(max: f64, n: f64) -> f64 {
    let raw = (max / n).max(f64::MIN_POSITIVE);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A tick's label with as many decimals as the step between ticks needs, so two ticks never
/// read the same.
fn label_number(v: f64, step: f64) -> String {
    let decimals = (-step.abs().max(f64::MIN_POSITIVE).log10().floor()).max(0.0) as usize;
    format!("{v:.decimals$}")
}

/// Width of a label in pixels at the chart's 12 px font, about.
fn text_width(label: &str) -> f64 {
    6.5 * label.chars().count() as f64
}

/// The plot's geometry: the x range (after the log, if any), the y axis' top and tick step,
/// and the sizes, to map data to pixels.
struct Frame {
    x_log2: bool,
    x0: f64,
    x1: f64,
    y1: f64,
    step: f64,
    /// Plot width and height, whole width.
    pw: f64,
    ph: f64,
    w: f64,
}

impl Frame {
    fn tx(&self, x: f64) -> f64 {
        if self.x_log2 {
            x.max(f64::MIN_POSITIVE).log2()
        } else {
            x
        }
    }

    fn px(&self, x: f64) -> f64 {
        LEFT + (self.tx(x) - self.x0) / (self.x1 - self.x0) * self.pw
    }

    fn py(&self, y: f64) -> f64 {
        TOP + self.ph - y / self.y1 * self.ph
    }

    /// The x ticks from the data: powers of two on a log axis, round steps otherwise.
    fn x_ticks(&self) -> Vec<(f64, String)> {
        let (x0, x1) = (self.x0, self.x1);
        let mut t = Vec::new();
        if self.x_log2 {
            let mut e = x0.ceil();
            while e <= x1 + 1e-9 {
                let v = 2f64.powf(e);
                t.push((v, label_number(v, v)));
                e += ((x1 - x0) / 8.0).ceil().max(1.0);
            }
        } else {
            let st = nice_step(x1 - x0, 6.0);
            let mut v = (x0 / st).ceil() * st;
            while v <= x1 + 1e-9 {
                t.push((v, label_number(v, st)));
                v += st;
            }
        }
        t
    }
}

impl Chart {
    /// The chart as an SVG document.
    pub(crate) fn render(&self) -> String {
        let f = self.frame();
        let mut s = String::new();
        let w = f.w;
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{H}" viewBox="0 0 {w} {H}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{H}" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
            LEFT + f.pw / 2.0,
            escape(&self.title)
        );
        self.axes(&f, &mut s);
        for (i, series) in self.series.iter().enumerate() {
            series_svg(&f, series, i, &mut s);
        }
        self.rings(&f, &mut s);
        s.push_str("</svg>\n");
        s
    }

    /// Every point drawn, series and highlights.
    fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .chain(self.highlights.iter().map(|h| (h.0, h.1)))
    }

    /// The geometry that holds every point, the legend right of the plot.
    fn frame(&self) -> Frame {
        let mut f = Frame {
            x_log2: self.x_log2,
            x0: 0.0,
            x1: 0.0,
            y1: 0.0,
            step: 0.0,
            pw: PLOT_W,
            ph: H - TOP - BOTTOM,
            w: 0.0,
        };
        let (mut x0, mut x1) = self.points().fold((f64::MAX, f64::MIN), |(a, b), (x, _)| {
            (a.min(f.tx(x)), b.max(f.tx(x)))
        });
        if x0 > x1 {
            (x0, x1) = (0.0, 1.0);
        }
        if x1 - x0 < 1e-12 {
            (x0, x1) = (x0 - 0.5, x1 + 0.5);
        }
        let y_max = self.points().map(|p| p.1).fold(0.0, f64::max);
        let step = nice_step(if y_max > 0.0 { y_max } else { 1.0 }, 5.0);
        let legend = self
            .series
            .iter()
            .map(|s| s.label.as_str())
            .chain(self.ring_legend.as_deref())
            .map(text_width)
            .fold(0.0, f64::max);
        f.w = LEFT + f.pw + RIGHT.max(42.0 + legend);
        (f.x0, f.x1, f.step) = (x0, x1, step);
        f.y1 = (y_max / step).ceil().max(1.0) * step;
        f
    }

    /// The y grid with its labels, the x ticks, the axes and their labels.
    fn axes(&self, f: &Frame, s: &mut String) {
        let (pw, ph) = (f.pw, f.ph);
        let mut y = 0.0;
        while y <= f.y1 + f.step / 2.0 {
            let _ = writeln!(
                s,
                r##"<line x1="{LEFT}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="#ddd"/><text x="{2}" y="{3:.1}" text-anchor="end">{4}</text>"##,
                f.py(y),
                LEFT + pw,
                LEFT - 6.0,
                f.py(y) + 4.0,
                label_number(y, f.step)
            );
            y += f.step;
        }
        let ticks = if self.x_ticks.is_empty() {
            f.x_ticks()
        } else {
            self.x_ticks.clone()
        };
        for (v, label) in &ticks {
            let x = f.px(*v);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.1}" y1="{0}" x2="{x:.1}" y2="{1}" stroke="#333"/><text x="{x:.1}" y="{2}" text-anchor="middle">{3}</text>"##,
                TOP + ph,
                TOP + ph + 5.0,
                TOP + ph + 19.0,
                escape(label)
            );
        }
        let _ = writeln!(
            s,
            r##"<polyline points="{LEFT},{TOP} {LEFT},{0} {1},{0}" fill="none" stroke="#333"/>"##,
            TOP + ph,
            LEFT + pw
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            LEFT + pw / 2.0,
            H - 18.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            s,
            r#"<text transform="translate(20,{}) rotate(-90)" text-anchor="middle">{}</text>"#,
            TOP + ph / 2.0,
            escape(&self.y_label)
        );
    }

    /// The ring legend's entry, and each highlighted point's ring with its label, right of
    /// its ring, or left of it where it would run past the plot into the legend, and below it
    /// near the top.
    fn rings(&self, f: &Frame, s: &mut String) {
        let pw = f.pw;
        if let Some(label) = &self.ring_legend {
            let ly = TOP + 10.0 + 18.0 * self.series.len() as f64;
            let _ = writeln!(
                s,
                r##"<circle cx="{0}" cy="{1}" r="5" fill="none" stroke="#000" stroke-width="2"/><text x="{2}" y="{3}">{4}</text>"##,
                LEFT + pw + 18.0,
                ly - 4.0,
                LEFT + pw + 30.0,
                ly,
                escape(label)
            );
        }
        for (x, y, label) in &self.highlights {
            let (cx, cy) = (f.px(*x), f.py(*y));
            let (lx, anchor) = if cx + 8.0 + text_width(label) > LEFT + pw {
                (cx - 8.0, "end")
            } else {
                (cx + 8.0, "start")
            };
            let ly = if cy - 8.0 < TOP + 12.0 {
                cy + 18.0
            } else {
                cy - 8.0
            };
            let _ = writeln!(
                s,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="6" fill="none" stroke="#000" stroke-width="2"/><text x="{lx:.1}" y="{ly:.1}" text-anchor="{anchor}">{0}</text>"##,
                escape(label)
            );
        }
    }
}

/// Series `i`: its line, its markers and its legend entry.
fn series_svg(f: &Frame, series: &Series, i: usize, s: &mut String) {
    let colour = COLOURS[i % COLOURS.len()];
    let pts: Vec<String> = series
        .points
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", f.px(x), f.py(y)))
        .collect();
    if series.line && pts.len() > 1 {
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            pts.join(" ")
        );
    }
    for &(x, y) in &series.points {
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"/>"#,
            f.px(x),
            f.py(y)
        );
    }
    let ly = TOP + 10.0 + 18.0 * i as f64;
    let _ = writeln!(
        s,
        r#"<rect x="{0}" y="{1}" width="12" height="12" fill="{colour}"/><text x="{2}" y="{3}">{4}</text>"#,
        LEFT + f.pw + 12.0,
        ly - 10.0,
        LEFT + f.pw + 30.0,
        ly,
        escape(&series.label)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(567.0, 5.0), 200.0);
        assert_eq!(nice_step(9.0, 5.0), 2.0);
        assert_eq!(nice_step(0.7, 5.0), 0.2);
    }

    #[test]
    fn draws_series_ticks_and_highlights() {
        let chart = Chart {
            title: "a <b>".into(),
            x_label: "threads".into(),
            y_label: "MB/s".into(),
            x_log2: true,
            x_ticks: vec![],
            series: vec![Series {
                label: "predicted".into(),
                points: vec![(1.0, 10.0), (2.0, 20.0), (4.0, 30.0)],
                line: true,
            }],
            highlights: vec![(4.0, 30.0, "bottleneck".into())],
            ring_legend: None,
        };
        let svg = chart.render();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("a &lt;b&gt;"));
        assert_eq!(svg.matches("<circle").count(), 4);
        assert_eq!(svg.matches("<polyline").count(), 2);
        // x ticks at 1, 2, 4 on the log axis, evenly spaced.
        assert!(svg.contains(">1</text>") && svg.contains(">4</text>"));
    }

    /// Issue #10: plan.svg's pick had its label run off the plot over the legend, the legend's
    /// swatch for rings was a coloured square, and two x ticks read the same.
    #[test]
    fn labels_stay_in_the_plot_rings_have_their_swatch_and_ticks_differ() {
        let chart = Chart {
            title: "t".into(),
            x_label: "TB".into(),
            y_label: "MB/s".into(),
            x_log2: false,
            x_ticks: vec![],
            series: vec![Series {
                label: "layouts".into(),
                points: vec![(340.6, 6200.0)],
                line: false,
            }],
            highlights: vec![(
                340.6,
                6200.0,
                "draid2:16d:24c:0s (P(data loss) 0.024%)".into(),
            )],
            ring_legend: Some("ringed: the Pareto front".into()),
        };
        let svg = chart.render();
        assert!(
            svg.contains(r#"text-anchor="end">draid2:16d:24c:0s"#),
            "{svg}"
        );
        assert!(
            svg.contains(r##"<circle cx="568" cy="64" r="5" fill="none" stroke="#000""##),
            "{svg}"
        );
        assert_eq!(svg.matches(r##"fill="#1f77b4"/><text"##).count(), 1);
        let ticks: Vec<&str> = svg
            .lines()
            .filter(|l| l.contains(r##"stroke="#333"/><text"##))
            .filter_map(|l| l.split('>').nth(2)?.split('<').next())
            .collect();
        let distinct: std::collections::BTreeSet<&&str> = ticks.iter().collect();
        assert!(
            ticks.len() > 2 && distinct.len() == ticks.len(),
            "{ticks:?}"
        );
    }
}
