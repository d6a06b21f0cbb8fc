# Installs agenthooks (agenthooks.exe and agenthooks-engine.exe) from its
# release archive, on Windows:
#
#   irm @REPOSITORY@/releases/latest/download/install.ps1 | iex
#
# It downloads the archive and SHA256SUMS, refuses an archive whose checksum
# does not match (installing nothing), and puts the binaries in
# $env:AGENTHOOKS_INSTALL_DIR (default %LOCALAPPDATA%\agenthooks\bin).
# Running it again replaces them; to remove them:
#
#   & ([scriptblock]::Create((irm @REPOSITORY@/releases/latest/download/install.ps1))) -Uninstall
#
#   AGENTHOOKS_DOWNLOAD_URL  where the archive and SHA256SUMS are
#                            (default: the release page of @VERSION@)
#   AGENTHOOKS_INSTALL_DIR   where the binaries go
param([switch]$Uninstall)

$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
$Version = '@VERSION@'
$Repository = '@REPOSITORY@'
$Binaries = @('agenthooks-engine.exe', 'agenthooks.exe')

function Say($text) { [Console]::Error.WriteLine("agenthooks installer: $text") }
# A terminating error, not `exit`: under `irm | iex` an exit would close the
# user's PowerShell; run as a file it still exits 1.
function Fail($text) { throw "agenthooks installer: $text" }

$dir = $env:AGENTHOOKS_INSTALL_DIR
if (-not $dir) { $dir = Join-Path $env:LOCALAPPDATA 'agenthooks\bin' }

function Install-Agenthooks {
    if (-not [Environment]::Is64BitOperatingSystem) { Fail 'no prebuilt agenthooks for 32-bit Windows; build it from source: cargo install --locked --git https://github.com/agenthooks/agenthooks agenthooks' }
    # x86_64; Windows on Arm runs it under its x64 emulation.
    $target = 'x86_64-pc-windows-gnu'
    $url = $env:AGENTHOOKS_DOWNLOAD_URL
    if (-not $url) { $url = "$Repository/releases/download/v$Version" }
    $url = $url.TrimEnd('/')
    $name = "agenthooks-$Version-$target"
    $archive = "$name.zip"

    $tmp = Join-Path ([IO.Path]::GetTempPath()) ("agenthooks-" + [Guid]::NewGuid())
    New-Item -ItemType Directory -Path $tmp | Out-Null
    try {
        Say "downloading $archive from $url"
        try {
            Invoke-WebRequest -UseBasicParsing -Uri "$url/SHA256SUMS" -OutFile (Join-Path $tmp 'SHA256SUMS')
            Invoke-WebRequest -UseBasicParsing -Uri "$url/$archive" -OutFile (Join-Path $tmp $archive)
        } catch { Fail "cannot download from ${url}: $($_.Exception.Message); nothing installed" }

        $expected = $null
        foreach ($line in Get-Content (Join-Path $tmp 'SHA256SUMS')) {
            $fields = $line -split '\s+', 2
            if ($fields.Count -eq 2 -and $fields[1].TrimStart('*') -eq $archive) { $expected = $fields[0].ToLower(); break }
        }
        if (-not $expected) { Fail "SHA256SUMS from $url has no entry for $archive; nothing installed" }
        $actual = (Get-FileHash -Algorithm SHA256 (Join-Path $tmp $archive)).Hash.ToLower()
        if ($actual -ne $expected) { Fail "checksum mismatch for ${archive}: SHA256SUMS says $expected, the download is $actual (corrupt or tampered with); nothing installed" }

        Expand-Archive -Path (Join-Path $tmp $archive) -DestinationPath (Join-Path $tmp 'x')
        foreach ($b in $Binaries) {
            if (-not (Test-Path (Join-Path $tmp "x\$name\$b"))) { Fail "$archive has no $name\$b; nothing installed" }
        }
        New-Item -ItemType Directory -Force -Path $dir | Out-Null
        # The engine first, so the front is never there without it; each
        # written beside its place and moved over it.
        foreach ($b in $Binaries) {
            $staged = Join-Path $dir ".$b.installing"
            Copy-Item -Force (Join-Path $tmp "x\$name\$b") $staged
            Move-Item -Force $staged (Join-Path $dir $b)
        }
    } finally {
        Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $tmp
    }
    $installed = & (Join-Path $dir 'agenthooks.exe') --version
    Say "installed $installed into $dir"

    $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
    if ((";$env:Path;$userPath;").ToLower().Contains(";$($dir.ToLower());")) {
        Say "$dir is on your PATH"
    } else {
        Say "$dir is not on your PATH; add it (then open a new terminal):"
        Say "  [Environment]::SetEnvironmentVariable('Path', `"$dir;`" + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
    }
}

if ($Uninstall) {
    foreach ($b in $Binaries) { Remove-Item -Force -ErrorAction SilentlyContinue (Join-Path $dir $b) }
    Say "removed agenthooks from $dir"
} else {
    Install-Agenthooks
}
