//! The Slider instance generator of data/slider/GENERATOR.md, bit-exact: CPython's MT19937 with
//! `random.Random(int)` seeding and its `randint`, `uniform`, `random` and `sample` algorithms.

use super::board::{Problem, HOLE};

/// CPython's `random.Random`, for the calls the generator makes.
pub struct PyRandom {
    state: [u32; 624],
    index: usize,
}

impl PyRandom {
    /// `random.Random(seed)` for a non-negative integer seed (init_by_array over its 32-bit words).
    pub fn new(seed: u64) -> PyRandom {
        let mut key = vec![seed as u32];
        if seed >> 32 != 0 {
            key.push((seed >> 32) as u32);
        }
        let mut mt = [0u32; 624];
        mt[0] = 19_650_218;
        for i in 1..624 {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..624.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..623 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        PyRandom {
            state: mt,
            index: 624,
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for k in 0..624 {
                let y = (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % 624] & 0x7fff_ffff);
                let mut v = self.state[(k + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.state[k] = v;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for 1 <= k <= 32.
    fn bits(&mut self, k: u32) -> u32 {
        self.next_u32() >> (32 - k)
    }

    /// `_randbelow(n)`: rejection sampling over `n.bit_length()` bits.
    pub fn below(&mut self, n: u32) -> u32 {
        let k = 32 - n.leading_zeros();
        loop {
            let r = self.bits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `randint(a, b)`, both ends included.
    pub fn randint(&mut self, a: u32, b: u32) -> u32 {
        a + self.below(b - a + 1)
    }

    /// `random()`: 53 bits from two outputs.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }

    /// `sample(range(n), k)`: CPython picks a pool or a set method by size.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut setsize = 21usize;
        if k > 5 {
            setsize += 4usize.pow(((k * 3) as f64).log(4.0).ceil() as u32);
        }
        let mut result = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.below((n - i) as u32) as usize;
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = vec![false; n];
            for _ in 0..k {
                let mut j = self.below(n as u32) as usize;
                while selected[j] {
                    j = self.below(n as u32) as usize;
                }
                selected[j] = true;
                result.push(j);
            }
        }
        result
    }
}

/// The instance of `seed` (seed 1: N = 10, seed 2: N = 30).
pub fn generate(seed: u64) -> Problem {
    let mut rng = PyRandom::new(seed);
    let n = match seed {
        1 => 10,
        2 => 30,
        _ => rng.randint(10, 30) as usize,
    };
    let colours = rng.randint(2, 9);
    let hole_frac = rng.uniform(0.01, 0.10);
    let holes = ((hole_frac * (n * n) as f64).floor() as usize).max(1);
    let block_frac = rng.uniform(0.20, 0.60);
    let mut cells = vec![0i8; n * n];
    for i in rng.sample(n * n, holes) {
        cells[i] = HOLE;
    }
    for cell in cells.iter_mut() {
        if *cell == HOLE {
            continue;
        }
        if rng.random() < block_frac {
            *cell = rng.randint(1, colours) as i8;
        }
    }
    Problem {
        n,
        colours: colours as i8,
        holes,
        cells,
    }
}
