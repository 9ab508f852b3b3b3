//! Whether a text holds a byte that needs escaping, sixteen bytes at a
//! time: the JSON and HTML writers copy a text whole when it holds none,
//! as nearly every text of a report does.

/// Whether a byte of `bytes` is one `hit` says yes to. Each block of
/// sixteen is tested without an early exit (the last block overlapping
/// the one before), so the compiler tests it with a few vector
/// instructions; a text shorter than a block is read a byte at a time.
#[inline]
pub fn any_byte(bytes: &[u8], hit: impl Fn(u8) -> bool + Copy) -> bool {
    let block = |from: usize| {
        bytes
            .get(from..from + 16)
            .and_then(|b| <&[u8; 16]>::try_from(b).ok())
            .is_none_or(|block| block.iter().fold(false, |any, &b| any | hit(b)))
    };
    match bytes.len() {
        0..16 => bytes.iter().any(|&b| hit(b)),
        n => (0..n - 16).step_by(16).any(block) || block(n - 16),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_hit_is_found_at_every_place_of_texts_up_to_three_blocks() {
        for len in 0..50 {
            let clean = vec![b'x'; len];
            assert!(!super::any_byte(&clean, |b| b == b'!'), "{len}");
            for at in 0..len {
                let mut text = clean.clone();
                text[at] = b'!';
                assert!(super::any_byte(&text, |b| b == b'!'), "{len} {at}");
            }
        }
    }
}
