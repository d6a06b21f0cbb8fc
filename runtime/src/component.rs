//! Reading a file that must be a WebAssembly component: bounded, and
//! refused by its first bytes before the rest is read. Run, `compile` and
//! `oci push` check a component the same way; it sits below them all (with
//! `fsread`), so that `oci` need not import `exec`.

use std::path::Path;

use wasmtime::Engine;

use crate::fsread::{self, ReadError};
use crate::protocol::Failure;

/// The magic of a WebAssembly component: `\0asm`, version 13, layer 1.
const COMPONENT_MAGIC: [u8; 8] = *b"\0asm\x0d\0\x01\0";

/// Read the component open as `file` (opened with [`fsread::open_bounded`],
/// its size checked): only after its first bytes say it is a component, and
/// never more than [`fsread::caps::COMPONENT`].
pub(crate) fn read_open_component(
    path: &Path,
    file: &mut std::fs::File,
    meta: &std::fs::Metadata,
) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let shown = path.display().to_string();
    let not = |why: &str| Failure::NotAComponent {
        path: shown.clone(),
        why: why.into(),
    };
    let mut head = [0u8; 8];
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(read_failure(&ReadError::Io {
                    path: path.to_path_buf(),
                    source: e,
                }))
            }
        }
    }
    let head = &head[..got];
    if head != COMPONENT_MAGIC {
        return Err(if head.starts_with(b"\0asm") && head.get(4) == Some(&1) {
            not("it is a core wasm module; make it a component (`wasm-tools component new`, or build for wasm32-wasip2)")
        } else if head.starts_with(b"\x7fELF") || Engine::detect_precompiled(head).is_some() {
            // Deserializing runs native code: never from a file a user handed us.
            not("a precompiled artifact is not accepted; give the `.wasm` component")
        } else {
            not("it does not start with the WebAssembly component magic bytes")
        });
    }
    let rest = fsread::read_open(
        path,
        file.try_clone().map_err(|e| {
            read_failure(&ReadError::Io {
                path: path.to_path_buf(),
                source: e,
            })
        })?,
        meta.len().saturating_sub(8),
        fsread::caps::COMPONENT - 8,
    )
    .map_err(|e| read_failure(&e))?;
    let mut bytes = Vec::with_capacity(8 + rest.len());
    bytes.extend_from_slice(head);
    bytes.extend_from_slice(&rest);
    Ok(bytes)
}

/// The failure of a component that cannot be read: not found, or one line
/// naming the file and what is wrong (a FIFO, over the size cap, ...).
pub(crate) fn read_failure(e: &ReadError) -> Failure {
    let path = e.path().display().to_string();
    match e {
        ReadError::NotFound { .. } => Failure::ComponentNotFound { path },
        ReadError::TooLarge { size, cap, .. } => Failure::NotAComponent {
            path,
            why: format!(
                "it is {size} bytes, over the {cap}-byte ({} MiB) limit for components; refused unread",
                cap >> 20
            ),
        },
        ReadError::NotRegular { kind, .. } => Failure::NotAComponent {
            path,
            why: format!("it is {kind}, not a regular file"),
        },
        ReadError::Io { source, .. } => Failure::Internal {
            why: format!("cannot read `{path}`: {source}"),
        },
    }
}
