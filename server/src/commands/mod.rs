//! One module per subcommand of `mentat`.

pub mod data;
pub mod demo;
pub mod migrate;
pub mod replay;
pub mod seed;
pub mod serve;
pub mod tournament;
pub mod user;

/// A multi-threaded runtime for the commands that talk to the database or the network.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, crate::error::StartupError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| crate::error::StartupError::Config(format!("cannot start the runtime: {e}")))
}

/// Reads a whole input file (`-` is standard input). A file that cannot be read is the
/// organiser's input error: its message names the file, and the exit code is 2.
pub(crate) fn read_input(path: &std::path::Path) -> Result<String, std::process::ExitCode> {
    use std::io::Read;
    let result = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        std::fs::read_to_string(path)
    };
    result.map_err(|e| {
        eprintln!("mentat: cannot read {}: {e}", path.display());
        std::process::ExitCode::from(2)
    })
}
