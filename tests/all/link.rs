//! How the `agenthooks` binary is linked (`runtime/build.rs`).

/// Whether the ELF executable `bytes` (64-bit, little-endian) has a DT_RELR
/// entry in its dynamic section: packed relative relocations.
fn has_dt_relr(bytes: &[u8]) -> bool {
    const PT_DYNAMIC: u32 = 2;
    const DT_NULL: u64 = 0;
    const DT_RELR: u64 = 36;
    let u16_at = |o: usize| u16::from_le_bytes(bytes[o..o + 2].try_into().unwrap()) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    assert_eq!(&bytes[..5], b"\x7fELF\x02", "a 64-bit ELF file");
    let (phoff, phentsize, phnum) = (u64_at(0x20) as usize, u16_at(0x36), u16_at(0x38));
    (0..phnum)
        .map(|i| phoff + i * phentsize)
        .filter(|&ph| u32_at(ph) == PT_DYNAMIC)
        .any(|ph| {
            let (offset, size) = (u64_at(ph + 8) as usize, u64_at(ph + 32) as usize);
            (offset..offset + size)
                .step_by(16)
                .map(u64_at)
                .take_while(|&tag| tag != DT_NULL)
                .any(|tag| tag == DT_RELR)
        })
}

/// The build machine's glibc is new enough for DT_RELR (2.36).
fn glibc_has_relr() -> bool {
    extern "C" {
        fn gnu_get_libc_version() -> *const std::ffi::c_char;
    }
    // SAFETY: glibc returns a pointer to a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(gnu_get_libc_version()) };
    let mut parts = version
        .to_str()
        .unwrap()
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (2, 36)
}

#[test]
fn the_binary_packs_its_relative_relocations_where_glibc_can_load_them() {
    if std::env::var_os("AGENTHOOKS_RELR").is_some_and(|v| v == "0") {
        return; // turned off for this build
    }
    let bin = std::fs::read(env!("CARGO_BIN_EXE_agenthooks")).unwrap();
    assert_eq!(has_dt_relr(&bin), glibc_has_relr());
}
