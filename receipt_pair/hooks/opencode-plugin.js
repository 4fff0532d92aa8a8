// receipt-pair's plugin for OpenCode, written by `receipt-pair install opencode`
// (`receipt-pair uninstall opencode` removes it). When a session goes idle, it runs
// receipt-pair's hook with the session's id; if the hook answers with a block, the
// reason is sent to the session as the next prompt. OpenCode has no loop guard of its
// own, so this plugin counts its prompts per session and tells the hook when an idle
// follows one (stop_hook_active); the hook caps the blocks in a row as well.
import { spawn } from "node:child_process";

const COMMAND = __COMMAND__;
const MAX_BLOCKS = __MAX_BLOCKS__;
const TIMEOUT_MS = __TIMEOUT_MS__;

function runHook(input, cwd) {
  return new Promise((resolve) => {
    let out = "";
    let child;
    try {
      child = spawn("/bin/sh", ["-c", COMMAND], { cwd, stdio: ["pipe", "pipe", "ignore"] });
    } catch {
      resolve(null);
      return;
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.stdout.on("data", (chunk) => { out += chunk; });
    child.on("error", () => { clearTimeout(timer); resolve(null); });
    child.on("close", () => {
      clearTimeout(timer);
      try { resolve(JSON.parse(out.trim() || "{}")); } catch { resolve(null); }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
}

export const ReceiptPair = async ({ client, directory }) => {
  const blocks = new Map();  // session id -> prompts sent in a row
  const busy = new Set();  // sessions whose idle is being checked
  const done = new Map();  // session id -> when its last check ended
  return {
    event: async ({ event }) => {
      // Newer versions say "idle" by session.status too: one idle is checked once.
      const idle = event.type === "session.idle" ||
        (event.type === "session.status" && event.properties?.status?.type === "idle");
      const id = event.properties?.sessionID;
      if (!idle || !id || busy.has(id) || Date.now() - (done.get(id) || 0) < 2000) return;
      busy.add(id);
      try {
        const count = blocks.get(id) || 0;
        const reply = await runHook({ hook_event_name: "session.idle", session_id: id,
                                      cwd: directory, stop_hook_active: count > 0 }, directory);
        if (reply && reply.decision === "block" && reply.reason && count < MAX_BLOCKS) {
          blocks.set(id, count + 1);
          client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text: reply.reason }] } })
            .catch(() => {});
        } else {
          blocks.delete(id);
          if (reply && reply.systemMessage) {
            Promise.resolve(client.tui?.showToast?.({ body: { message: reply.systemMessage, variant: "warning" } }))
              .catch(() => {});
          }
        }
      } finally {
        busy.delete(id);
        done.set(id, Date.now());
      }
    },
  };
};
