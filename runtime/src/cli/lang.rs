//! A hook's source as `new` writes it and `build` builds it: its
//! language, and the crate directory and component that name each other.
//! Below both commands.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The languages `agenthooks new` scaffolds a hook in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// A crate on agenthooks-sdk (`cargo build --target wasm32-wasip2`).
    Rust,
    /// `hook.py` and `agenthooks.py`, built with componentize-py.
    Python,
    /// `hook.js` and `agenthooks.js`, built with componentize-js.
    Js,
}

impl Lang {
    /// The language of the hook source in `dir`, by the file `new` put
    /// there: `Cargo.toml`, `hook.py` or `hook.js`; `None` when none is.
    pub fn of(dir: &Path) -> Option<Lang> {
        [
            ("Cargo.toml", Lang::Rust),
            ("hook.py", Lang::Python),
            ("hook.js", Lang::Js),
        ]
        .into_iter()
        .find(|(file, _)| dir.join(file).is_file())
        .map(|(_, lang)| lang)
    }
}

/// The crate a component is built from: `DIR/NAME/` for `DIR/NAME.wasm`.
pub fn crate_of(component: &Path) -> Option<PathBuf> {
    (component.extension()? == "wasm").then(|| component.with_extension(""))
}

/// The component a crate directory builds: `DIR/NAME.wasm` for `DIR/NAME/`.
pub fn component_of(crate_dir: &Path) -> PathBuf {
    let mut name = crate_dir
        .file_name()
        .map_or_else(OsString::new, OsString::from);
    name.push(".wasm");
    crate_dir.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_component_and_its_crate_name_each_other() {
        let component = Path::new("/p/.agents/hooks/guard.wasm");
        assert_eq!(
            crate_of(component),
            Some(PathBuf::from("/p/.agents/hooks/guard"))
        );
        assert_eq!(component_of(Path::new("/p/.agents/hooks/guard")), component);
        assert_eq!(crate_of(Path::new("/p/guard.component")), None);
        assert_eq!(crate_of(Path::new("/p/guard")), None);
    }
}
