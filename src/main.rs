//! The `muster` binary: everything happens in `muster::cli`.

/// mimalloc rather than the system's allocator: see `Cargo.toml`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h`; its options keep
/// their numbers across versions).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // Freed memory goes back to the system at once rather than a second
    // later: a batch frees as fast as it allocates, and with the delay its
    // peak memory grew with the number of rosters (45 to 75 MiB at 50,000).
    // SAFETY: `mi_option_set` stores a number in the allocator's option
    // table; it takes no pointers and is safe to call at any time.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
    muster::cli::main()
}
