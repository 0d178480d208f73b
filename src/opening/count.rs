//! Exact counts of first turns: they grow exponentially with the extra turns, past 128 bits.

use std::fmt;

/// An exact non-negative integer: a `u128`, or little-endian 64-bit limbs once it no longer fits.
/// Only what counting needs: zero, one, addition, comparison with `u64`, decimal display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// Fits in 128 bits.
    Small(u128),
    /// Little-endian limbs, more than 128 bits' worth (the top limb is non-zero).
    Big(Vec<u64>),
}

impl Default for Count {
    fn default() -> Self {
        Count::Small(0)
    }
}

impl Count {
    /// Zero.
    pub const ZERO: Count = Count::Small(0);

    /// One.
    pub const ONE: Count = Count::Small(1);

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        matches!(self, Count::Small(0))
    }

    /// The value, when it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self {
            Count::Small(v) => u64::try_from(*v).ok(),
            Count::Big(_) => None,
        }
    }

    /// The value, when it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self {
            Count::Small(v) => Some(*v),
            Count::Big(_) => None,
        }
    }

    fn limbs(&self) -> Vec<u64> {
        match self {
            Count::Small(v) => vec![*v as u64, (*v >> 64) as u64],
            Count::Big(l) => l.clone(),
        }
    }

    fn from_limbs(mut l: Vec<u64>) -> Count {
        while l.len() > 2 && l.last() == Some(&0) {
            l.pop();
        }
        if l.len() <= 2 {
            let lo = l.first().copied().unwrap_or(0) as u128;
            let hi = l.get(1).copied().unwrap_or(0) as u128;
            Count::Small(lo | hi << 64)
        } else {
            Count::Big(l)
        }
    }

    /// `self += other`, exactly.
    pub fn add(&mut self, other: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&*self, other) {
            if let Some(s) = a.checked_add(*b) {
                *self = Count::Small(s);
                return;
            }
        }
        let (mut a, b) = (self.limbs(), other.limbs());
        if a.len() < b.len() {
            a.resize(b.len(), 0);
        }
        let mut carry = 0u64;
        for (i, x) in a.iter_mut().enumerate() {
            let (s1, c1) = x.overflowing_add(b.get(i).copied().unwrap_or(0));
            let (s2, c2) = s1.overflowing_add(carry);
            *x = s2;
            carry = u64::from(c1) + u64::from(c2);
        }
        if carry > 0 {
            a.push(carry);
        }
        *self = Count::from_limbs(a);
    }
}

impl fmt::Display for Count {
    /// Decimal, exact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut limbs = match self {
            Count::Small(v) => return write!(f, "{v}"),
            Count::Big(l) => l.clone(),
        };
        // Repeated division by 10^19 (the largest power of ten in a u64), most significant first.
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut chunks = Vec::new();
        while limbs.iter().any(|&x| x != 0) {
            let mut rem = 0u128;
            for x in limbs.iter_mut().rev() {
                let cur = rem << 64 | *x as u128;
                *x = (cur / CHUNK as u128) as u64;
                rem = cur % CHUNK as u128;
            }
            chunks.push(rem as u64);
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        let mut s = String::new();
        for (i, c) in chunks.iter().rev().enumerate() {
            if i == 0 {
                s.push_str(&c.to_string());
            } else {
                s.push_str(&format!("{c:019}"));
            }
        }
        f.pad(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::Count;

    #[test]
    fn count_adds_past_128_bits_and_prints_exactly() {
        let mut c = Count::Small(u128::MAX);
        c.add(&Count::ONE);
        assert_eq!(c.to_string(), "340282366920938463463374607431768211456");
        let d = c.clone();
        c.add(&d); // 2^129
        assert_eq!(c.to_string(), "680564733841876926926749214863536422912");
        let mut x = Count::Small(10u128.pow(38));
        for _ in 0..9 {
            let y = x.clone();
            x.add(&y);
        }
        assert_eq!(x.to_string(), format!("512{}", "0".repeat(38)));
        assert_eq!(Count::Small(42).to_string(), "42");
        assert_eq!(Count::ZERO.to_string(), "0");
    }
}
