//! Numbers as people read them: plain decimals in the everyday range, scientific notation for
//! the very large and the very small, and grid labels with exactly the digits their step needs.

/// Plain decimals between 1e-4 and 1e7 (nine significant digits, at most eight places, trailing
/// zeros dropped), scientific notation outside (six significant digits); 0, inf and NaN as
/// themselves.
pub fn format_number(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    if !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    if !(1e-4..1e7).contains(&a) {
        return trim_scientific(&format!("{v:.5e}"));
    }
    let int_digits = a.log10().floor() as i32 + 1;
    let decimals = (9 - int_digits).clamp(0, 8) as usize;
    trim_decimals(format!("{v:.decimals$}"))
}

/// Fixed decimals (`{:.N}`) in the everyday range, scientific notation with N decimals
/// outside it, so a column of numbers stays short at any magnitude. -0 reads as 0.
pub fn format_fixed(v: f64, decimals: usize) -> String {
    let a = v.abs();
    if v == 0.0 || (1e-4..1e7).contains(&a) || !v.is_finite() {
        let s = format!("{:.decimals$}", v + 0.0);
        let zero = s
            .trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.');
        if zero {
            format!("{:.decimals$}", 0.0)
        } else {
            s
        }
    } else {
        format!("{v:.decimals$e}")
    }
}

/// `sig` significant digits, plain in the everyday range and scientific outside it
/// (e.g. a zoom of 26.1 or 1.5e-30 pixels per unit).
pub fn format_significant(v: f64, sig: usize) -> String {
    let a = v.abs();
    if v == 0.0 || !v.is_finite() {
        return format_number(v);
    }
    if !(1e-4..1e7).contains(&a) {
        let digits = sig.saturating_sub(1);
        return trim_scientific(&format!("{v:.digits$e}"));
    }
    let int_digits = a.log10().floor() as i32 + 1;
    let decimals = (sig as i32 - int_digits).max(0) as usize;
    trim_decimals(format!("{v:.decimals$}"))
}

/// Like [`format_number`] for f32 values (what the scene stores).
pub fn format_f32(v: f32) -> String {
    // Through the shortest decimal that round-trips, so 0.1f32 reads 0.1, not 0.100000001.
    let shortest: f64 = format!("{v}").parse().unwrap_or(v as f64);
    format_number(shortest)
}

/// How close to a round number a shown value must be to read round.
pub const ROUND_WITHIN: f64 = 1e-5;
/// The decimals the inspector shows at most: every number that claims to be what the
/// inspector shows (a lesson's, an overlay's) is written to this precision.
pub const SHOWN_DECIMALS: usize = 5;

/// A number as the inspector shows it: between `min` and `max` decimals (trailing zeros
/// dropped down to `min`), a value within [`ROUND_WITHIN`] of a whole number read whole, never
/// `-0`; scientific notation only for the very large and the very small, which are real values
/// there (a scale of 1e-30).
pub fn format_shown(v: f64, min: usize, max: usize) -> String {
    let a = v.abs();
    if v != 0.0 && v.is_finite() && !(1e-4..1e7).contains(&a) {
        return format_f32(v as f32);
    }
    let v = snap_round(v);
    let s = format!("{:.max$}", v + 0.0);
    let s = match s.split_once('.') {
        Some((whole, fraction)) => {
            let keep = fraction.trim_end_matches('0').len().max(min);
            if keep == 0 {
                whole.to_string()
            } else {
                format!("{whole}.{}", &fraction[..keep])
            }
        }
        None => s,
    };
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// A derived number (a distance off, a scale named in a warning) to the inspector's precision
/// (no fixed decimals): "1.5978", "4"; within [`ROUND_WITHIN`] of 0 it is "0".
pub fn format_display(v: f64) -> String {
    let v = if v.abs() < ROUND_WITHIN { 0.0 } else { v };
    format_shown(v, 0, SHOWN_DECIMALS)
}

/// An angle in degrees as the inspector shows a derived one: in (−180°, 180°] (so a half
/// turn reads 180, never −180), within [`ROUND_WITHIN`] of a whole degree read whole (a skew
/// of 8e-7° is 0), never `-0`.
pub fn format_angle(degrees: f64, min: usize, max: usize) -> String {
    let a = snap_round(wrap_degrees(degrees));
    format_shown(if a.abs() < 1e-4 { 0.0 } else { a }, min, max)
}

/// An angle the node stores (a local rotation of 360° is not one of 0° to an animation):
/// as typed, but within [`ROUND_WITHIN`] of a whole degree read whole, and never `-0`.
pub fn format_angle_as_stored(degrees: f64, min: usize, max: usize) -> String {
    let a = snap_round(degrees);
    format_shown(if a.abs() < 1e-4 { 0.0 } else { a }, min, max)
}

/// An angle in degrees brought into (−180, 180] (non-finite values as they are).
pub fn wrap_degrees(degrees: f64) -> f64 {
    if !degrees.is_finite() {
        return degrees;
    }
    let r = degrees.rem_euclid(360.0);
    let r = if r > 180.0 { r - 360.0 } else { r };
    // A half turn that rounding left a hair below −180 (or at it) reads 180.
    if r <= -180.0 + ROUND_WITHIN {
        r + 360.0
    } else {
        r
    }
}

/// `v` as its nearest whole number when within [`ROUND_WITHIN`] of it.
fn snap_round(v: f64) -> f64 {
    let r = v.round();
    if v.is_finite() && (v - r).abs() < ROUND_WITHIN {
        r + 0.0
    } else {
        v
    }
}

/// The label of a grid line at `value` on a grid of `step` (1, 2 or 5 × 10^k; any positive step
/// works, its decade decides): as many digits as the step needs, so neighbouring labels always
/// differ and each reads as its line's coordinate.
pub fn grid_label(value: f64, step: f64) -> String {
    if value == 0.0 || !value.is_finite() || !step.is_finite() || step <= 0.0 {
        return format_number(value);
    }
    let step_exp = step.log10().floor() as i32;
    let a = value.abs();
    if a < 1e7 && step_exp >= -6 {
        let decimals = (-step_exp).max(0) as usize;
        let s = format!("{value:.decimals$}");
        return if s
            .trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.')
        {
            "0".to_string()
        } else {
            s
        };
    }
    let digits = (a.log10().floor() as i32 - step_exp).clamp(0, 16) as usize;
    trim_scientific(&format!("{value:.digits$e}"))
}

/// "1.50000e7" → "1.5e7".
fn trim_scientific(s: &str) -> String {
    match s.split_once('e') {
        Some((mantissa, exponent)) => {
            let mantissa = if mantissa.contains('.') {
                mantissa.trim_end_matches('0').trim_end_matches('.')
            } else {
                mantissa
            };
            format!("{mantissa}e{exponent}")
        }
        None => s.to_string(),
    }
}

/// "12.500000" → "12.5", "3.000000" → "3".
fn trim_decimals(s: String) -> String {
    if s.contains('.') {
        let t = s.trim_end_matches('0').trim_end_matches('.');
        if t == "-0" {
            "0".to_string()
        } else {
            t.to_string()
        }
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyday_numbers_read_plainly_and_extremes_in_scientific_notation() {
        assert_eq!(format_number(2.5), "2.5");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(100000.0), "100000");
        assert_eq!(format_number(1e7), "1e7");
        assert_eq!(format_number(3.4e38), "3.4e38");
        assert_eq!(format_number(1.5e-30), "1.5e-30");
        assert_eq!(format_number(-0.0), "0");
        assert_eq!(format_f32(0.1), "0.1");
        assert_eq!(format_f32(1e12), "1e12");
        assert_eq!(format_fixed(2.0, 3), "2.000");
        assert_eq!(format_significant(26.1047673, 3), "26.1");
        assert_eq!(format_significant(102400.0, 3), "102400");
        assert_eq!(format_significant(1.5e-30, 3), "1.5e-30");
        assert_eq!(format_number(0.0078125), "0.0078125");
        assert_eq!(format_number(100000.123456), "100000.123");
        assert_eq!(format_fixed(-0.00001, 3), "-1.000e-5");
        assert_eq!(format_fixed(-0.0, 3), "0.000");
        assert_eq!(format_fixed(-0.0004, 3), "0.000");
        assert_eq!(format_fixed(1e30, 3), "1.000e30");
    }

    #[test]
    fn shown_numbers_are_round_near_round_numbers_and_never_minus_zero() {
        assert_eq!(format_display(1.59779914), "1.5978");
        assert_eq!(format_display(3.9999996), "4");
        assert_eq!(format_display(-0.0000004), "0");
        assert_eq!(format_display(-0.0), "0");
        assert_eq!(format_display(2.5), "2.5");
        assert_eq!(format_shown(1e-30, 0, 5), "1e-30");
        assert_eq!(format_shown(-4e-7, 1, 5), "-4e-7");
        assert_eq!(format_shown(-0.0, 1, 3), "0.0");
        assert_eq!(format_shown(2.0, 1, 5), "2.0");
        assert_eq!(format_shown(0.1f32 as f64, 0, 5), "0.1");
        assert_eq!(format_angle(8.04946e-7, 0, 5), "0");
        assert_eq!(format_angle(1.42109e-14, 1, 5), "0.0");
        assert_eq!(format_angle(-1e-9, 1, 5), "0.0");
        assert_eq!(format_angle(-180.0, 0, 5), "180");
        assert_eq!(format_angle(-179.999999, 0, 5), "180");
        assert_eq!(format_angle(180.0, 0, 5), "180");
        assert_eq!(format_angle(270.0, 0, 5), "-90");
        assert_eq!(format_angle(-90.0, 0, 5), "-90");
        assert_eq!(format_angle(126.869898, 0, 2), "126.87");
        assert_eq!(wrap_degrees(540.0), 180.0);
        assert_eq!(wrap_degrees(-181.0), 179.0);
    }

    #[test]
    fn grid_labels_carry_the_digits_of_their_step() {
        assert_eq!(grid_label(100000.1, 0.1), "100000.1");
        assert_eq!(grid_label(99999.9, 0.1), "99999.9");
        assert_eq!(grid_label(-2.0, 2.0), "-2");
        assert_eq!(grid_label(0.0, 0.01), "0");
        assert_eq!(grid_label(1e7 + 0.5, 0.5), "1.00000005e7");
        assert_eq!(grid_label(3e38, 1e37), "3e38");
        assert_eq!(grid_label(3.1e38, 1e37), "3.1e38");
        assert_eq!(grid_label(0.000003, 0.000001), "0.000003");
        assert_eq!(grid_label(2e-9, 1e-9), "2e-9");
    }
}
