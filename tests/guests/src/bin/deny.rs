//! Well-behaved: logs, prints, and denies with a reason that echoes the typed event fields.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(event: Event) -> Result<Answer, String> {
        log(Level::Info, "deciding");
        println!("stdout from the guest");
        eprintln!("stderr from the guest");
        let kind = match event.tool_kind {
            Some(ToolKind::Shell) => "shell",
            Some(_) => "other",
            None => "none",
        };
        let mut answer = context(format!(
            "name={} harness={} tool={} kind={kind} cwd={} session={}",
            event.name,
            event.harness,
            event.tool_name.as_deref().unwrap_or("-"),
            event.cwd.as_deref().unwrap_or("-"),
            event.session_id.as_deref().unwrap_or("-"),
        ));
        answer.permission = Some(Permission::Deny);
        answer.reason = Some("denied by the wasm guest".into());
        Ok(answer)
    }
}
hostile_guests::export!(G);
fn main() {}
