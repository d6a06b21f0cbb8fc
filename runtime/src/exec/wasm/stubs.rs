//! Imports the host does not grant, linked as stubs that trap when called.
//!
//! Toolchains add imports a hook never uses: componentize-js's default build
//! imports `wasi:http`, whatever the script does. Refusing such a component
//! would make a hook's author fight their toolchain for an import that is
//! never called, so the host links every import it does not provide as a
//! function that traps (wasmtime's `define_unknown_imports_as_traps`, DESIGN
//! §12) and says once, in a note, which imports those were. Calling one fails
//! the hook like any trap, with wasmtime's message naming the import.
//!
//! A component whose imports cannot be stubbed (a core module or a component
//! import) or whose import has the name of one the host provides but another
//! type still fails to load, with [`Failure::MissingImport`] naming it.

use std::collections::BTreeSet;

use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, InstancePre, Linker, LinkerInstance, ResourceType};
use wasmtime::Engine;

use super::classify;
use crate::protocol::Failure;

/// At most this many stubbed imports are named in the note; past it, a count.
const NAMED_MAX: usize = 6;

/// `component` pre-linked by `linker` itself when it provides every import,
/// else by a copy with the missing imports stubbed, and then the note saying
/// which. The usual case links once: the pre-linked instance is returned, not
/// checked and linked again.
///
/// # Errors
/// [`Failure::MissingImport`] when even the stubbed linker cannot satisfy the
/// component (an import of a kind that cannot be stubbed, or of the wrong type).
pub(crate) fn instance_pre<T: 'static>(
    linker: &Linker<T>,
    engine: &Engine,
    component: &Component,
    shown: &str,
) -> Result<(InstancePre<T>, Option<String>), Failure> {
    let original = match linker.instantiate_pre(component) {
        Ok(pre) => return Ok((pre, None)),
        Err(e) => e,
    };
    let mut stubbed = linker.clone();
    let missing = stub_missing(&mut stubbed, engine, component);
    if missing.is_empty() {
        // Nothing is missing by name, so the mismatch is one of type, which
        // no stub can fix; wasmtime's error names it.
        return Err(classify::import_failure(shown, &original));
    }
    match stubbed.instantiate_pre(component) {
        Ok(pre) => Ok((pre, Some(stub_note(shown, &missing)))),
        Err(e) => Err(classify::import_failure(shown, &e)),
    }
}

/// Define in `linker` every import of `component` it lacks, as a function
/// that traps; return their names (`wasi:http/types@0.2.3` for a whole
/// instance, `iface#func` for a function of an instance the host has), sorted.
///
/// A definition that succeeds was missing: the linker refuses to define a
/// name twice. Resources need care: an instance's resource that first
/// appeared in an earlier import (`pollable` in `wasi:clocks`, from
/// `wasi:io/poll`) is an alias the linker resolves itself, and defining it
/// would give it another type; only resources first declared in an instance
/// the host lacks entirely get a stand-in type (wasmtime's own
/// `define_unknown_imports_as_traps` defines them all, and breaks the aliases).
fn stub_missing<T: 'static>(
    linker: &mut Linker<T>,
    engine: &Engine,
    component: &Component,
) -> BTreeSet<String> {
    let mut missing = BTreeSet::new();
    let mut seen: Vec<ResourceType> = Vec::new();
    for (name, import) in component.component_type().imports(engine) {
        match import.ty {
            ComponentItem::ComponentInstance(instance) => {
                let Ok(mut inner) = linker.root().into_instance(name) else {
                    continue;
                };
                let exports: Vec<_> = instance.exports(engine).collect();
                let funcs = exports
                    .iter()
                    .filter(|(_, e)| matches!(e.ty, ComponentItem::ComponentFunc(_)))
                    .count();
                let absent: Vec<&str> = exports
                    .iter()
                    .filter(|(_, e)| matches!(e.ty, ComponentItem::ComponentFunc(_)))
                    .filter(|(item, _)| define_trap(&mut inner, name, item))
                    .map(|(item, _)| *item)
                    .collect();
                let whole = absent.len() == funcs;
                for (item, export) in &exports {
                    if let ComponentItem::Resource(ty) = &export.ty {
                        let first = !seen.contains(ty);
                        seen.push(*ty);
                        if whole && first {
                            // A stand-in type; a function using it traps anyway.
                            let _ = inner.resource(item, ResourceType::host::<()>(), |_, _| Ok(()));
                        }
                    }
                }
                match absent.as_slice() {
                    [] => {}
                    _ if whole => {
                        missing.insert(name.to_string());
                    }
                    some => missing.extend(some.iter().map(|item| format!("{name}#{item}"))),
                }
            }
            ComponentItem::ComponentFunc(_) if define_trap(&mut linker.root(), "", name) => {
                missing.insert(name.to_string());
            }
            _ => {}
        }
    }
    missing
}

/// Define `item` of `instance` in `linker` as a function that traps naming
/// it; whether it was missing (the definition succeeded).
fn define_trap<T: 'static>(linker: &mut LinkerInstance<'_, T>, instance: &str, item: &str) -> bool {
    let name = if instance.is_empty() {
        item.to_string()
    } else {
        format!("{instance}#{item}")
    };
    linker
        .func_new(item, move |_, _, _, _| {
            Err(wasmtime::format_err!(
                "`{name}` is not provided by agenthooks (linked as a stub)"
            ))
        })
        .is_ok()
}

/// The one-line note for stubbed imports: which (at most [`NAMED_MAX`]), and
/// what to do about it.
fn stub_note(shown: &str, missing: &BTreeSet<String>) -> String {
    let mut named: Vec<String> = missing
        .iter()
        .take(NAMED_MAX)
        .map(|name| format!("`{name}`"))
        .collect();
    if missing.len() > NAMED_MAX {
        named.push(format!("{} more", missing.len() - NAMED_MAX));
    }
    format!(
        "`{shown}` imports {} that agenthooks does not provide; linked as stubs that fail \
         the hook if called (build the hook without them to silence this note, e.g. \
         componentize-js `--disable http --disable fetch-event`)",
        named.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use wasm_encoder::{
        ComponentImportSection, ComponentTypeRef, ComponentTypeSection, ComponentValType,
        InstanceType, PrimitiveValType,
    };

    fn engine() -> Engine {
        Engine::default()
    }

    /// A function's parameters: none, or one `u32` (a type the host's differs from).
    type Params = bool;

    /// A component that imports `instances` (each a name and its functions)
    /// and the top-level functions `funcs`, and exports nothing.
    fn component(
        engine: &Engine,
        instances: &[(&str, &[(&str, Params)])],
        funcs: &[&str],
    ) -> Component {
        let param = |takes_u32: bool| {
            if takes_u32 {
                vec![("x", ComponentValType::Primitive(PrimitiveValType::U32))]
            } else {
                vec![]
            }
        };
        let mut types = ComponentTypeSection::new();
        let mut imports = ComponentImportSection::new();
        let mut index = 0;
        for (name, items) in instances {
            let mut instance = InstanceType::new();
            for (i, (item, takes_u32)) in items.iter().enumerate() {
                instance
                    .ty()
                    .function()
                    .params(param(*takes_u32))
                    .result(None);
                instance.export(item, ComponentTypeRef::Func(i as u32));
            }
            types.instance(&instance);
            imports.import(name, ComponentTypeRef::Instance(index));
            index += 1;
        }
        for name in funcs {
            types.function().params(param(false)).result(None);
            imports.import(name, ComponentTypeRef::Func(index));
            index += 1;
        }
        let mut c = wasm_encoder::Component::new();
        c.section(&types).section(&imports);
        Component::new(engine, c.finish()).unwrap()
    }

    fn host_linker(engine: &Engine) -> Linker<()> {
        let mut linker = Linker::new(engine);
        linker
            .instance("host:x/log")
            .unwrap()
            .func_wrap("log", |_, (): ()| Ok(()))
            .unwrap();
        linker
    }

    #[test]
    fn a_component_the_host_satisfies_keeps_the_shared_linker() {
        let engine = engine();
        let c = component(&engine, &[("host:x/log", &[("log", false)])], &[]);
        let (_, note) = instance_pre(&host_linker(&engine), &engine, &c, "a.wasm").unwrap();
        assert!(note.is_none());
    }

    #[test]
    fn unknown_imports_are_stubbed_and_named() {
        let engine = engine();
        let c = component(
            &engine,
            &[
                ("host:x/log", &[("log", false), ("extra", false)]),
                ("wasi:http/types@0.2.3", &[("new-fields", false)]),
            ],
            &["plain"],
        );
        let linker = host_linker(&engine);
        let (_, note) = instance_pre(&linker, &engine, &c, "a.wasm").unwrap();
        let note = note.expect("a note naming the stubs");
        assert_eq!(
            stub_missing(&mut linker.clone(), &engine, &c)
                .into_iter()
                .collect::<Vec<_>>(),
            ["host:x/log#extra", "plain", "wasi:http/types@0.2.3"]
        );
        assert!(
            note.starts_with(
                "`a.wasm` imports `host:x/log#extra`, `plain`, `wasi:http/types@0.2.3` that \
                 agenthooks does not provide"
            ),
            "{note}"
        );
    }

    #[test]
    fn a_wrongly_typed_import_still_fails_naming_it() {
        let engine = engine();
        let c = component(&engine, &[("host:x/log", &[("log", true)])], &[]);
        match instance_pre(&host_linker(&engine), &engine, &c, "a.wasm") {
            Err(Failure::MissingImport { path, why }) => {
                assert_eq!(path, "a.wasm");
                assert!(why.contains("host:x/log"), "{why}");
            }
            other => panic!("{:?}", other.map(|(_, n)| n)),
        }
    }

    #[test]
    fn the_note_is_bounded() {
        let missing: BTreeSet<String> = (0..50).map(|i| format!("wasi:x/i{i:02}")).collect();
        let note = stub_note("a.wasm", &missing);
        assert!(note.contains("`wasi:x/i05`, 44 more that"), "{note}");
        assert!(!note.contains("i06"), "{note}");
    }
}
