//! The `muster` binary: everything happens in `muster::cli`.

fn main() -> std::process::ExitCode {
    muster::cli::main()
}
