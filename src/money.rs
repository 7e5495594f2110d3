//! Money: currencies with their ISO 4217 minor units, rounding half away from zero to
//! the minor unit, the 10^15 bound on computed amounts, and how amounts are written.
//!
//! The minor units come from one table of ours (`iso4217.rs`): a plain sorted list
//! of the active codes is easier to check against the standard than a dependency whose
//! release cadence and idea of "active" we do not control (docs/decisions.md §2).

use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Number, Value};
use std::fmt;

/// The bound on every computed amount: a magnitude that reaches it is refused
/// (`amount_out_of_range`, docs/decisions.md §2).
pub const AMOUNT_LIMIT: Decimal = Decimal::from_parts(0xA4C6_8000, 0x0003_8D7E, 0, false, 0);

/// An active ISO 4217 currency that has a minor unit.
///
/// Built only through [`Currency::from_code`], so a `Currency` is always supported by
/// the standard (`XAU`, `XDR`, `XXX` and other codes without a minor unit are not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Currency {
    code: &'static str,
    minor_unit: u32,
}

impl Currency {
    /// The euro, the default currency of a document.
    pub const EUR: Currency = Currency {
        code: "EUR",
        minor_unit: 2,
    };

    /// [`Currency::EUR`], for a serde default.
    pub(crate) fn eur() -> Currency {
        Currency::EUR
    }

    /// The currency of an active ISO 4217 code, written exactly (upper case).
    ///
    /// ```
    /// use invoicing_core::money::Currency;
    /// assert_eq!(Currency::from_code("JPY").map(|c| c.minor_unit()), Some(0));
    /// assert_eq!(Currency::from_code("KWD").map(|c| c.minor_unit()), Some(3));
    /// assert!(Currency::from_code("eur").is_none());
    /// assert!(Currency::from_code("XAU").is_none());
    /// ```
    pub fn from_code(code: &str) -> Option<Currency> {
        let table = crate::iso4217::CURRENCIES;
        table
            .binary_search_by(|(c, _)| (*c).cmp(code))
            .ok()
            .map(|i| Currency {
                code: table[i].0,
                minor_unit: table[i].1,
            })
    }

    /// Every supported currency, sorted by code.
    pub fn all() -> impl Iterator<Item = Currency> {
        crate::iso4217::CURRENCIES
            .iter()
            .map(|&(code, minor_unit)| Currency { code, minor_unit })
    }

    /// The ISO 4217 code.
    pub fn code(self) -> &'static str {
        self.code
    }

    /// The number of decimals of the minor unit (EUR 2, JPY 0, KWD 3).
    pub fn minor_unit(self) -> u32 {
        self.minor_unit
    }

    /// Rounds half away from zero to the minor unit: `0.125 → 0.13`, `-0.125 → -0.13`,
    /// `4.1958 → 4.20`. The result carries exactly the minor unit's scale and is never
    /// negative zero.
    ///
    /// ```
    /// use invoicing_core::money::Currency;
    /// use rust_decimal::Decimal;
    /// let eur = Currency::EUR;
    /// assert_eq!(eur.round("-0.125".parse::<Decimal>().unwrap()).to_string(), "-0.13");
    /// assert_eq!(eur.round("-0.004".parse::<Decimal>().unwrap()).to_string(), "0.00");
    /// ```
    pub fn round(self, value: Decimal) -> Decimal {
        let scale = value.scale();
        if scale > self.minor_unit {
            // Integer rounding of the mantissa, half away from zero: the quotient fits,
            // being smaller than the mantissa, and a zero quotient is a positive zero.
            let divisor = 10_i128.pow(scale - self.minor_unit);
            let mantissa = value.mantissa();
            let (quotient, rest) = (mantissa / divisor, mantissa % divisor);
            let rounded = if 2 * rest.abs() >= divisor {
                quotient + mantissa.signum()
            } else {
                quotient
            };
            return Decimal::from_i128_with_scale(rounded, self.minor_unit);
        }
        let mut r =
            value.round_dp_with_strategy(self.minor_unit, RoundingStrategy::MidpointAwayFromZero);
        if r.is_zero() {
            r = Decimal::ZERO;
        }
        r.rescale(self.minor_unit);
        r
    }

    /// Whether the value has at most the minor unit's decimals, trailing zeros aside
    /// (`10.000` has 0 decimals).
    pub fn fits_minor_unit(self, value: Decimal) -> bool {
        value.normalize().scale() <= self.minor_unit
    }

    /// The amount written with exactly the minor unit's decimals (`121.00`, JPY `1210`,
    /// KWD `1.250`), never `-0.00`. The value is rounded first if it has more decimals.
    pub fn format(self, value: Decimal) -> String {
        self.round(value).to_string()
    }

    /// The amount as a JSON number written with exactly the minor unit's decimals.
    pub fn to_json(self, value: Decimal) -> Value {
        decimal_number(self.round(value))
    }

    /// The amount in minor units (`12.34 EUR → 1234`), if it has at most the minor
    /// unit's decimals.
    pub fn to_minor_units(self, value: Decimal) -> Option<i128> {
        if !self.fits_minor_unit(value) {
            return None;
        }
        let mut v = value;
        v.rescale(self.minor_unit);
        if v.scale() != self.minor_unit {
            return None;
        }
        Some(v.mantissa())
    }

    /// The amount of so many minor units (`1234 → 12.34 EUR`), if it fits a decimal.
    pub fn from_minor_units(self, units: i128) -> Option<Decimal> {
        let mut d = Decimal::try_from_i128_with_scale(units, self.minor_unit).ok()?;
        if d.is_zero() {
            d = Decimal::new(0, self.minor_unit);
        }
        Some(d)
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

impl std::str::FromStr for Currency {
    type Err = crate::wire::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Currency::from_code(s).ok_or_else(|| crate::wire::UnknownValue {
            what: "currency",
            value: s.to_owned(),
        })
    }
}

/// Whether a computed amount stays within the bound: its magnitude is below 10^15.
pub fn within_limit(value: Decimal) -> bool {
    // |m| / 10^s < 10^15 <=> |m| < 10^(15+s); a 96-bit mantissa is below 10^29, so every
    // scale >= 14 is within.
    const BOUND: [u128; 14] = {
        let mut t = [0_u128; 14];
        let mut i: u32 = 0;
        while i < 14 {
            t[i as usize] = 10_u128.pow(15 + i);
            i += 1;
        }
        t
    };
    match usize::try_from(value.scale()) {
        Ok(s) if s < 14 => value.mantissa().unsigned_abs() < BOUND[s],
        _ => true,
    }
}

/// A JSON number written exactly as this decimal text (`12.50` stays `12.50`).
///
/// The text must be a valid JSON number; decimals printed by `rust_decimal` always are.
pub fn number_value(text: &str) -> Value {
    text.parse::<Number>().map_or(Value::Null, Value::Number)
}

/// A decimal as a JSON number keeping its scale (`12.50`, `100`), for the values that
/// are echoed as sent: quantities, prices and rates.
pub fn decimal_value(value: Decimal) -> Value {
    decimal_number(unsigned_zero(value))
}

/// The value, a negative zero made positive with its scale kept (`-0.00` → `0.00`).
pub(crate) fn unsigned_zero(value: Decimal) -> Decimal {
    if value.is_zero() && value.is_sign_negative() {
        let mut z = Decimal::ZERO;
        z.rescale(value.scale());
        z
    } else {
        value
    }
}

/// The name under which `serde_json` (feature `arbitrary_precision`) serializes a
/// `Number` kept as its text: a struct of this name with one field of this name, the
/// text. [`serialize_decimal`] writes a number as `Number`'s own `Serialize` does,
/// without building the `Number` (a `String` and a parse of the text for every
/// amount); a test checks the two are written alike, by `serde_json` and by any other
/// serializer.
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Serializes a decimal as the JSON number of its text (`Decimal`'s `Display`),
/// exactly as the `serde_json::Number` of that text serializes, formatted on the
/// stack.
pub(crate) fn serialize_decimal<S: serde::Serializer>(
    value: Decimal,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    use serde::Serialize;
    let mut buf = [0_u8; 48];
    match write_decimal(value, &mut buf) {
        Some(text) => {
            let mut number = serializer.serialize_struct(NUMBER_TOKEN, 1)?;
            number.serialize_field(NUMBER_TOKEN, text)?;
            number.end()
        }
        None => decimal_number(value).serialize(serializer),
    }
}

/// A decimal's text as a JSON number, formatted on the stack: a decimal never needs
/// more than 31 characters (sign, 28 digits, point, a leading zero).
fn decimal_number(value: Decimal) -> Value {
    let mut buf = [0_u8; 48];
    match write_decimal(value, &mut buf) {
        Some(text) => number_value(text),
        None => number_value(&value.to_string()),
    }
}

/// Writes a decimal as `Decimal`'s `Display` does (`-12.50`, `0.05`, `100`), from its
/// mantissa's digits, into the end of `buf`; `None` for a negative zero (left to
/// `Display`).
pub(crate) fn write_decimal(value: Decimal, buf: &mut [u8; 48]) -> Option<&str> {
    let negative = value.is_sign_negative();
    if negative && value.is_zero() {
        return None;
    }
    let scale = usize::try_from(value.scale()).ok()?;
    let m = value.mantissa().unsigned_abs();
    // Most mantissas fit 64 bits, whose division is much cheaper than 128 bits'.
    if let Ok(m64) = u64::try_from(m) {
        return write_digits(m64, scale, negative, buf);
    }
    write_digits(m, scale, negative, buf)
}

/// The digits of mantissa `m` with `scale` decimals, as [`write_decimal`] writes them.
fn write_digits<T>(mut m: T, scale: usize, negative: bool, buf: &mut [u8; 48]) -> Option<&str>
where
    T: Copy + PartialOrd + From<u8> + std::ops::Rem<Output = T> + std::ops::DivAssign,
    u8: TryFrom<T>,
{
    let (zero, ten) = (T::from(0), T::from(10));
    let mut at = buf.len();
    let mut digits = 0;
    // the digits, then the leading zeros a fraction needs (0.05), and its point
    while m > zero || digits <= scale {
        at = at.checked_sub(1)?;
        let digit = u8::try_from(m % ten).ok()?;
        *buf.get_mut(at)? = b'0' + digit;
        m /= ten;
        digits += 1;
        if digits == scale && scale > 0 {
            at = at.checked_sub(1)?;
            *buf.get_mut(at)? = b'.';
        }
    }
    if negative {
        at = at.checked_sub(1)?;
        *buf.get_mut(at)? = b'-';
    }
    std::str::from_utf8(buf.get(at..)?).ok()
}

#[cfg(test)]
mod tests;
