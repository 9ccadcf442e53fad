//! The draw's random numbers (rulings.md 4): a ChaCha20 stream from a stored `u64` seed.
//!
//! Uniform choices are made here, from the raw 64-bit outputs, rather than through a library's
//! range sampler: such samplers may change between library releases, and a draw must re-run
//! byte for byte years later for an audit. ChaCha20 and `seed_from_u64` are specified and stable.
//!
//! Public so that everything else Mentat makes from a seed (the sample event of `mentat demo`)
//! uses the same generator.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// The seeded generator of every draw.
pub struct DrawRng(ChaCha20Rng);

impl DrawRng {
    pub fn new(seed: u64) -> DrawRng {
        DrawRng(ChaCha20Rng::seed_from_u64(seed))
    }

    /// The next raw 64 bits of the stream.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` by rejection (no modulo bias); 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        let Ok(n) = u64::try_from(n) else {
            return 0;
        };
        if n <= 1 {
            return 0;
        }
        // 2^64 mod n values at the top of the range would favour small results; skip them.
        let skip = (u64::MAX % n + 1) % n;
        let limit = u64::MAX - skip;
        loop {
            let x = self.0.next_u64();
            if x <= limit {
                // x % n < n, and n came from a usize.
                return usize::try_from(x % n).unwrap_or(0);
            }
        }
    }

    /// Fisher-Yates, from the last element down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = DrawRng::new(42);
        let mut b = DrawRng::new(42);
        let xs: Vec<usize> = (0..100).map(|i| a.below(i + 1)).collect();
        let ys: Vec<usize> = (0..100).map(|i| b.below(i + 1)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().enumerate().all(|(i, &x)| x <= i));
        assert_eq!(DrawRng::new(1).below(0), 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = DrawRng::new(7);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
